//! Each fast path of the engine (`EngineConfig`, `FastPath`), switched on alone (with the
//! paths it is built on) against the plain tree: every shipped game (all variants) and a sample
//! of the Dagaz corpus play seeded random games, and at every ply the legal moves must be the
//! same, op for op (headers, ops, paths, captured squares, cuts), and the position after the
//! move played must be the same (cells, stores, counters, hash).
//!
//! Moves are compared as their readers see them (`MoveList::ops`, `path`, `captured`), not by
//! where they are kept: a simple move is whole in its header, which the plain tree never writes.
//! Two writes of one square in a row count as the last one: the plain tree writes the landing
//! square, then the attribute an `add` sets on it, where the fast paths write the landing cell
//! with its attribute once.

use std::path::{Path, PathBuf};
use std::time::Instant;

use zrf::engine::{EngineConfig, FastPath, Move, MoveList, Op, Position, Rules, UndoLog};
mod common;

use common::FsLoader;
use common::Rng;

/// A move as its readers see it.
#[derive(Debug, PartialEq)]
struct Seen {
    head: Move,
    ops: Vec<Op>,
    path: Vec<u16>,
    captured: Vec<u16>,
}

fn seen(list: &MoveList) -> Vec<Seen> {
    (list.moves.iter())
        .map(|m| {
            let mut ops: Vec<Op> = Vec::new();
            for &op in list.ops(m).iter() {
                match (ops.last_mut(), op) {
                    (Some(Op::Set(p, c)), Op::Set(q, d)) if *p == q => *c = d,
                    _ => ops.push(op),
                }
            }
            Seen {
                head: Move {
                    op_lo: 0,
                    op_hi: 0,
                    path_lo: 0,
                    path_hi: 0,
                    cap_hi: 0,
                    simple: false,
                    sq: [0; 3],
                    cell: Default::default(),
                    ..*m
                },
                ops,
                path: list.path(m).to_vec(),
                captured: list.captured(m).to_vec(),
            }
        })
        .collect()
}

/// The rules of one game with every path alone, then the plain rules.
struct Variants {
    name: String,
    paths: Vec<(FastPath, Rules)>,
    plain: Rules,
}

impl Variants {
    fn new(name: String, def: zrf::def::GameDef) -> Variants {
        // Built once (the attack tables of a big game take a while), then configured.
        let plain = Rules::with_config(def, EngineConfig::plain());
        let paths = (FastPath::ALL.iter())
            .map(|&p| {
                let mut rules = plain.clone();
                rules.configure(EngineConfig::only(p));
                (p, rules)
            })
            .collect();
        Variants { name, paths, plain }
    }

    /// Plays `games` random games of at most `plies` plies with the plain rules, comparing
    /// every path's moves and positions with them at every ply, until `budget` moves have been
    /// compared; returns the positions and moves compared.
    fn compare(&self, games: usize, plies: usize, budget: usize, seed: u64) -> (usize, usize) {
        let (mut compared, mut moves) = (0, 0);
        let mut rng = Rng(seed);
        let (mut a, mut b) = (MoveList::new(), MoveList::new());
        for game in 0..games {
            if moves >= budget {
                break;
            }
            let mut pos = self.plain.initial();
            let mut log = UndoLog::new();
            for ply in 0..plies {
                if moves >= budget {
                    break;
                }
                self.plain.legal_moves(&mut pos.clone(), &mut a);
                moves += a.len();
                let want = seen(&a);
                let pick = (!a.is_empty()).then(|| rng.below(a.len()));
                let mut after = pos.clone();
                if let Some(i) = pick {
                    self.plain.make(&mut after, &a, &a.moves[i], &mut log);
                }
                for (path, rules) in &self.paths {
                    let at = || format!("{}, {}, game {game}, ply {ply}", self.name, path.name());
                    let mut p = pos.clone();
                    rules.legal_moves(&mut p, &mut b);
                    assert_eq!(p, pos, "{}: generation changed the position", at());
                    if seen(&b) != want {
                        panic!(
                            "{}: moves differ\n{}",
                            at(),
                            first_difference(&want, &seen(&b))
                        );
                    }
                    assert_eq!(b.cut, a.cut, "{}: limits differ", at());
                    if let Some(i) = pick {
                        made_alike(rules, &pos, &b, &b.moves[i], &after, &at());
                    }
                }
                compared += 1;
                match pick {
                    Some(_) => pos = after,
                    None => break,
                }
            }
        }
        (compared, moves)
    }
}

/// The first move that differs between two lists, for the failure message.
fn first_difference(want: &[Seen], got: &[Seen]) -> String {
    match want.iter().zip(got).position(|(w, g)| w != g) {
        Some(i) => format!("move {i}: plain {:?}\nfast {:?}", want[i], got[i]),
        None => format!("{} moves against {}", want.len(), got.len()),
    }
}

/// The move `m` of `list` made on `pos` gives `after`, and taking it back gives `pos`.
fn made_alike(
    rules: &Rules,
    pos: &Position,
    list: &MoveList,
    m: &Move,
    after: &Position,
    at: &str,
) {
    let mut p = pos.clone();
    let mut log = UndoLog::new();
    rules.make(&mut p, list, m, &mut log);
    assert_eq!(&p, after, "{at}: the position after the move differs");
    zrf::engine::revert(&mut p, &mut log);
    assert_eq!(&p, pos, "{at}: the move taken back differs");
}

/// Compares the variants of a rules file (all, or the first), each up to `budget` moves;
/// returns the positions and moves compared.
fn compare_file(
    path: &Path,
    (games, plies, budget): (usize, usize, usize),
    all_variants: bool,
) -> (usize, usize) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.to_string_lossy();
    let loaded = zrf::load(&name, &bytes, &FsLoader);
    let n = if all_variants { loaded.games.len() } else { 1 };
    let mut compared = (0, 0);
    for (i, game) in loaded.games.iter().take(n).enumerate() {
        let (def, _) = zrf::resolve_game(game);
        let Some(def) = def else { continue };
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (name.len() as u64) << 8 ^ i as u64;
        let t = Instant::now();
        let v = Variants::new(format!("{name} #{i}"), def);
        let t1 = t.elapsed();
        let c = v.compare(games, plies, budget, seed);
        if std::env::var("ZRF_PATHS_TIMES").is_ok() {
            eprintln!(
                "{name} #{i}: build {t1:.1?}, {c:?} positions {:.1?}",
                t.elapsed() - t1
            );
        }
        compared = (compared.0 + c.0, compared.1 + c.1);
    }
    compared
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

#[test]
fn shipped_games_move_alike_on_every_path() {
    let start = Instant::now();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("games"))
        .expect("games folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "zrf"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
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
    let list = std::fs::read_to_string(root().join("tests/corpus/loads.txt")).expect("loads.txt");
    let dir = root().join("tests/corpus/dagaz");
    let files: Vec<&str> = list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    assert!(files.len() > 300);
    let (mut positions, mut moves, mut n) = (0, 0, 0);
    // Every fourth file: about a hundred games of every family (checkers, chess, shogi, go...).
    for f in files.iter().step_by(CORPUS_STEP) {
        let (p, m) = compare_file(&dir.join(f), CORPUS, false);
        (positions, moves, n) = (positions + p, moves + m, n + 1);
    }
    eprintln!(
        "{n} corpus files: {positions} positions, {moves} moves, each on {} paths, in {:.1?}",
        FastPath::ALL.len(),
        start.elapsed()
    );
    assert!(positions > 2000, "{positions} positions compared");
}

/// Each shipped variant: (games, plies per game, moves compared at most).
const SHIPPED: (usize, usize, usize) = (4, 80, 2500);
/// The corpus sample: every `CORPUS_STEP`th file's first game, as [`SHIPPED`].
const CORPUS_STEP: usize = 4;
const CORPUS: (usize, usize, usize) = (2, 50, 700);
