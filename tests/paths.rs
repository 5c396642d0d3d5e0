//! Each fast path of the engine (`EngineConfig`, `FastPath`), switched on alone (with the
//! paths it is built on) against the plain tree (`zrf::testing::paths`): every shipped game
//! (all variants) and every fourth file of the Dagaz corpus play seeded random games, and at
//! every ply the legal moves must be the same, op for op (headers, ops, paths, captured
//! squares, cuts), and the position after the move played, and after taking it back, too.

use std::path::Path;
use std::time::Instant;

use zrf::engine::FastPath;
use zrf::testing::paths::PathRules;
mod common;

/// Each shipped variant: (games, plies per game, moves compared at most).
const SHIPPED: (usize, usize, usize) = (4, 80, 2500);
/// The corpus sample: every `CORPUS_STEP`th file's first game, as [`SHIPPED`].
const CORPUS_STEP: usize = 4;
const CORPUS: (usize, usize, usize) = (2, 50, 700);

/// Compares the variants of a rules file (all, or the first); returns the positions and
/// moves compared.
fn compare_file(path: &Path, limits: (usize, usize, usize), all_variants: bool) -> (usize, usize) {
    // Seeded by the file's name, not its path, so that every checkout plays the same games.
    let name = common::file_name(path);
    let mut compared = (0, 0);
    for (i, def) in common::resolved_games(path, all_variants) {
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (name.len() as u64) << 8 ^ i as u64;
        let (p, m) =
            (PathRules::new(def).play(limits, seed)).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
        compared = (compared.0 + p, compared.1 + m);
    }
    compared
}

#[test]
fn shipped_games_move_alike_on_every_path() {
    let start = Instant::now();
    let files = common::shipped_files();
    let (mut positions, mut moves) = (0, 0);
    for f in &files {
        let (p, m) = compare_file(f, SHIPPED, true);
        (positions, moves) = (positions + p, moves + m);
    }
    eprintln!(
        "{} shipped files: {positions} positions, {moves} moves, each on {} paths, in {:.1?}",
        files.len(),
        FastPath::ALL.len(),
        start.elapsed()
    );
    assert!(positions > 2000, "{positions} positions compared");
}

#[test]
fn corpus_sample_moves_alike_on_every_path() {
    let start = Instant::now();
    let files = common::corpus_loads();
    let (mut positions, mut moves, mut n) = (0, 0, 0);
    // Every fourth file: about a hundred games of every family (checkers, chess, shogi, go...).
    for f in files.iter().step_by(CORPUS_STEP) {
        let (p, m) = compare_file(f, CORPUS, false);
        (positions, moves, n) = (positions + p, moves + m, n + 1);
    }
    eprintln!(
        "{n} corpus files: {positions} positions, {moves} moves, each on {} paths, in {:.1?}",
        FastPath::ALL.len(),
        start.elapsed()
    );
    assert!(positions > 2000, "{positions} positions compared");
}

/// What each path covers in the shipped games (`Rules::path_counts`), as the table of
/// `docs/engine-paths.md` (printed with `cargo test --test paths coverage -- --nocapture`).
#[test]
fn coverage_of_the_shipped_games() {
    let files = common::shipped_files();
    let mut header = String::from("| game |");
    let mut rule = String::from("|---|");
    for p in FastPath::ALL {
        header += &format!(" {} |", p.name());
        rule += "---|";
    }
    let mut table = vec![header, rule];
    let mut totals = vec![(0, 0); FastPath::ALL.len()];
    let mut counts = std::collections::BTreeMap::new();
    for f in &files {
        let name = common::file_name(f);
        for (i, def) in common::resolved_games(f, true) {
            let title = format!("{name} {}", def.title);
            let path_counts = zrf::engine::Rules::new(def).path_counts();
            let mut row = format!("| {} |", title.trim());
            for (k, c) in path_counts.iter().enumerate() {
                row += &format!(" {}/{} |", c.taken, c.of);
                totals[k] = (totals[k].0 + c.taken, totals[k].1 + c.of);
            }
            counts.insert((name.clone(), i), path_counts);
            table.push(row);
        }
    }
    let mut row = String::from("| all |");
    for (t, o) in &totals {
        row += &format!(" {t}/{o} |");
    }
    table.push(row);
    let mut units = String::from("| unit |");
    for c in &counts[&("chess.zrf".to_string(), 0)] {
        units += &format!(" {} |", c.unit);
    }
    table.insert(2, units);
    eprintln!("{}", table.join("\n"));
    // Chess: most tree nodes specialised (castling and en passant keep plain ones), the
    // clock and royal safety from the tables, no draughts jump.
    let chess = &counts[&("chess.zrf".to_string(), 0)];
    let get = |p: FastPath| chess.iter().find(|c| c.path == p).expect("every path");
    let tree = get(FastPath::Tree);
    assert!(tree.of > 100 && tree.taken * 10 > tree.of * 8, "{tree:?}");
    assert_eq!(
        (get(FastPath::Clock).taken, get(FastPath::Legality).taken),
        (1, 1)
    );
    assert_eq!(get(FastPath::Jump).taken, 0);
    // Every slide of the bishops, rooks and queen from every square where its first step
    // stays on the board: per side 4 x 49 diagonal, 4 x 56 straight and both for the queen.
    assert_eq!(get(FastPath::Rays).taken, 2 * (4 * 49 + 4 * 56) * 2);
    // Capablanca chess has 80 squares: no square set of one word, no rays.
    let capablanca = &counts[&("capablanca.zrf".to_string(), 0)];
    assert!(capablanca
        .iter()
        .any(|c| c.path == FastPath::Rays && c.taken == 0 && c.of > 0));
    // Checkers: the jumps are written from the rows.
    let checkers = &counts[&("checkers.zrf".to_string(), 0)];
    let jump = checkers
        .iter()
        .find(|c| c.path == FastPath::Jump)
        .expect("jump");
    assert!(jump.taken > 0, "{jump:?}");
}

/// Perft makes moves its own ways (a simple move without the undo log, `make_simple`, with
/// the `after-move` clock's shortcut; the leaves in one undo frame), which the comparison of
/// legal moves above never plays. With each path alone, every path and none, perft from a few
/// positions of every shipped variant must count the same, move by move (divide), make the
/// same leaf positions (a checksum of every field, the counters and hash too), and leave the
/// position as it found it.
#[test]
fn perft_counts_alike_on_every_path() {
    use std::hash::{Hash, Hasher};
    use zrf::engine::{EngineConfig, MoveList, PerftOptions, Position, Rules, UndoLog};

    /// Each position's perft depth, lowered while the plain count passes `LEAVES`.
    const DEPTH: u32 = 3;
    const LEAVES: u64 = 5_000;
    /// Plies played (seeded) to reach the second and third positions.
    const PLIES: [usize; 2] = [9, 24];

    // A checksum of the leaves perft makes from `pos`, and their number.
    let leaves_of = |rules: &Rules, pos: &mut Position, depth: u32| -> (u64, u64) {
        let mut sum = 0u64;
        let n = rules.perft_leaves(pos, depth, PerftOptions::default(), &mut |p| {
            // FxHasher: cheap enough for every leaf of a debug build.
            let mut h = rustc_hash::FxHasher::default();
            (
                &p.cells,
                &p.store,
                &p.counters,
                p.turn,
                p.last_from,
                p.last_to,
            )
                .hash(&mut h);
            (p.hash, p.counters_hash).hash(&mut h);
            sum = sum.wrapping_add(h.finish());
        });
        (n, sum)
    };
    // Divide: each root move (made with the general `make`), its count and leaves by perft.
    let divide = |rules: &Rules, pos: &mut Position, depth: u32| -> Vec<(u64, u64)> {
        let before = pos.clone();
        let mut list = MoveList::new();
        rules.legal_moves(pos, &mut list);
        let mut log = UndoLog::new();
        let counts = (list.moves.iter())
            .map(|m| {
                rules.make(pos, &list, m, &mut log);
                let n = leaves_of(rules, pos, depth - 1);
                zrf::engine::revert(pos, &mut log);
                n
            })
            .collect();
        assert_eq!(*pos, before, "perft changed the position");
        counts
    };

    let mut configs = vec![("all".to_string(), EngineConfig::all())];
    for p in FastPath::ALL {
        configs.push((p.name().to_string(), EngineConfig::only(p)));
    }
    let (mut checked, mut leaves) = (0, 0);
    for f in common::shipped_files() {
        let name = common::file_name(&f);
        for (i, def) in common::resolved_games(&f, true) {
            let plain = Rules::with_config(def, EngineConfig::plain());
            let configured: Vec<(&str, Rules)> = (configs.iter())
                .map(|(path, config)| {
                    let mut rules = plain.clone();
                    rules.configure(*config);
                    (path.as_str(), rules)
                })
                .collect();
            // The start, two positions of a seeded game, and where the game has a FEN
            // halfmove clock, the start two quiet moves short of the fifty-move draw.
            let mut positions = vec![plain.initial()];
            let mut pos = plain.initial();
            let (mut list, mut log) = (MoveList::new(), UndoLog::new());
            let mut seed = 0x2545_f491_4f6c_dd1d_u64 ^ (name.len() * 31 + i) as u64;
            for ply in 0..=PLIES[1] {
                if PLIES.contains(&ply) {
                    positions.push(pos.clone());
                }
                plain.legal_moves(&mut pos, &mut list);
                if list.moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = list.moves[(seed % list.moves.len() as u64) as usize];
                plain.make(&mut pos, &list, &m, &mut log);
            }
            if plain
                .def
                .counters
                .iter()
                .any(|c| c.name == "halfmove-clock")
            {
                if let Ok(fen) = zrf::repl::fen::fen(&plain, &plain.initial(), 40) {
                    let fen = fen.replacen(" 0 40", " 98 40", 1);
                    let at = zrf::setup::parse(&plain, &fen).expect("the clock set");
                    positions.push(at);
                }
            }
            for mut pos in positions {
                let mut depth = DEPTH;
                while depth > 2 && plain.perft(&mut pos.clone(), depth) > LEAVES {
                    depth -= 1;
                }
                let want = divide(&plain, &mut pos, depth);
                for (path, rules) in &configured {
                    let got = divide(rules, &mut pos, depth);
                    assert_eq!(got, want, "{name} #{i} depth {depth} with {path}");
                    // The root moves made by perft too.
                    let total = leaves_of(rules, &mut pos, depth);
                    let sum =
                        (want.iter()).fold((0, 0u64), |a, b| (a.0 + b.0, a.1.wrapping_add(b.1)));
                    assert_eq!(total, sum, "{name} #{i} depth {depth} with {path}");
                    // The last level counted without making its moves (`FastPath::Count`).
                    let bulk = PerftOptions {
                        bulk: true,
                        ..PerftOptions::default()
                    };
                    let mut p = pos.clone();
                    let n = rules.perft_with(&mut p, depth, bulk);
                    assert_eq!(n, sum.0, "{name} #{i} depth {depth} bulk with {path}");
                    assert_eq!(p, pos, "{name} #{i}: bulk perft changed the position");
                }
                checked += 1;
                leaves += want.iter().map(|w| w.0).sum::<u64>();
            }
        }
    }
    eprintln!(
        "{checked} positions, {leaves} leaves, each on {} configurations",
        configs.len()
    );
    assert!(checked > 60, "{checked} positions");
}
