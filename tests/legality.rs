//! Royal safety proven from the attack tables (`engine/turn/legal.rs`) must keep exactly the moves
//! that playing every move and testing the board keeps: both ways are run on the positions of
//! seeded random games of every shipped game with royal pieces and of a sample of corpus games
//! with royal pieces, and their move lists must be identical.

use std::path::Path;

use zrf::engine::{FastPath, MoveList, Rules, UndoLog, Workspace};
mod common;

use common::FsLoader;

/// splitmix64, so the games are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (((z >> 32) * n as u64) >> 32) as usize
    }
}

/// Every game and variant of a file that resolves without errors.
fn all_rules(file: &str) -> Vec<(String, Rules)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let loaded = zrf::load(&path.to_string_lossy(), &bytes, &FsLoader);
    let mut out = Vec::new();
    for (i, g) in loaded.games.iter().enumerate() {
        if let (Some(def), diags) = zrf::resolve_game(g) {
            if !zrf::diagnostic::has_errors(&diags) {
                out.push((format!("{file} #{i}"), Rules::new(def)));
            }
        }
    }
    assert!(!out.is_empty(), "{file}: no game resolves");
    out
}

/// Plays `games` random games of up to `plies` plies; at every position compares the moves
/// both ways. Returns the number of positions compared and how many had a move filtered out.
fn compare(name: &str, fast: &Rules, games: u64, plies: usize) -> (usize, usize) {
    assert!(fast.royal.iter().any(|&r| r), "{name}: no royal piece");
    let mut reference = fast.clone();
    reference.configure(
        (fast.config())
            .with(FastPath::Legality, false)
            .with(FastPath::AfterMove, false)
            .with(FastPath::Clock, false),
    );
    let mut no_royal = fast.clone();
    no_royal.royal.iter_mut().for_each(|r| *r = false);
    let (mut ws_a, mut ws_b) = (Workspace::default(), Workspace::default());
    let (mut a, mut b, mut all) = (MoveList::new(), MoveList::new(), MoveList::new());
    let (mut positions, mut filtered) = (0, 0);
    for seed in 0..games {
        let mut rng = Rng(seed * 7919 + name.len() as u64);
        let mut pos = fast.initial();
        let mut log = UndoLog::new();
        for ply in 0..plies {
            fast.legal_moves_in(&mut ws_a, &mut pos, &mut a);
            reference.legal_moves_in(&mut ws_b, &mut pos, &mut b);
            let paths = |l: &MoveList| -> Vec<Vec<u16>> {
                l.moves.iter().map(|m| l.path(m).to_vec()).collect()
            };
            assert_eq!(paths(&a), paths(&b), "{name}, game {seed}, ply {ply}");
            let same = a.moves == b.moves && a.ops == b.ops && a.squares == b.squares;
            assert!(
                same,
                "{name}, game {seed}, ply {ply}: same paths, other moves"
            );
            // Trial moves were taken back with the hash restored from the undo log.
            assert_eq!(pos.hash, pos.full_hash(), "{name}, game {seed}, ply {ply}");
            positions += 1;
            // Moves that leave a royal piece attacked exist here: the filter had work to do.
            no_royal.legal_moves_in(&mut ws_b, &mut pos, &mut all);
            if all.len() > a.len() {
                filtered += 1;
            }
            if a.is_empty() {
                break;
            }
            let m = a.moves[rng.below(a.len())];
            let before = pos.clone();
            let mut slow = pos.clone();
            reference.make(&mut slow, &a, &m, &mut UndoLog::new());
            fast.make(&mut pos, &a, &m, &mut log);
            assert!(
                pos == slow,
                "{name}, game {seed}, ply {ply}: after-move differs"
            );
            zrf::engine::revert(&mut pos, &mut log);
            assert!(
                pos == before,
                "{name}, game {seed}, ply {ply}: take-back differs"
            );
            fast.make(&mut pos, &a, &m, &mut log);
            assert_eq!(pos.hash, pos.full_hash(), "{name}, game {seed}, ply {ply}");
        }
    }
    (positions, filtered)
}

#[test]
fn shipped_royal_games_agree() {
    for file in [
        "games/chess.zrf",
        "games/capablanca.zrf",
        "games/halfgi.zrf",
    ] {
        for (name, rules) in all_rules(file) {
            let (n, filtered) = compare(&name, &rules, 6, 80);
            assert!(n > 100, "{name}: only {n} positions");
            assert!(
                filtered > 5,
                "{name}: only {filtered} positions with illegal moves"
            );
        }
    }
}

#[test]
fn corpus_royal_games_agree() {
    let dir = "tests/corpus/dagaz/";
    for file in [
        "checkmate/makruk.zrf",
        "checkmate/knights-court.zrf",
        "checkmate/neutral-king.zrf",
        "checkmate/benedict-chess.zrf",
        "checkmate/teleport-chess.zrf",
        "checkmate/glinski.zrf",
        "checkmate/courier-chess.zrf",
        "checkmate/sittuyin.zrf",
        "checkmate/anti-king.zrf",
        "checkmate/andalusia.zrf",
        "shogi/sho-shogi.zrf",
        "xiangqi/xiangqi.zrf",
        "xiangqi/janggi.zrf",
    ] {
        for (name, rules) in all_rules(&format!("{dir}{file}")) {
            if !rules.royal.iter().any(|&r| r) {
                continue;
            }
            let (n, _) = compare(&name, &rules, 2, 60);
            assert!(n > 10, "{name}: only {n} positions");
        }
    }
}

/// `after-move` programs run without the interpreter (`engine/compiled/after/`) must change the
/// counters exactly as the interpreter does: every shipped game with one, along random games
/// long enough to reach the endings the draughts draw rules count.
#[test]
fn plain_after_move_agrees() {
    let (mut games_with_program, mut changed, mut endings) = (0, 0, 0);
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("games")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "zrf") {
            continue;
        }
        let file = format!("games/{}", path.file_name().unwrap().to_string_lossy());
        for (name, fast) in all_rules(&file) {
            if fast.def.after_move.is_empty() {
                continue;
            }
            games_with_program += 1;
            let mut reference = fast.clone();
            reference.configure(
                (fast.config())
                    .with(FastPath::AfterMove, false)
                    .with(FastPath::Clock, false),
            );
            let mut ws = Workspace::default();
            let mut list = MoveList::new();
            // From the start, and from an ending the draughts draw rules count (a lone king
            // against three pieces, in international draughts).
            let ending = zrf::setup::parse(&fast, "W:WK46,K10,28:BK5")
                .ok()
                .filter(|_| name.starts_with("games/international"));
            endings += usize::from(ending.is_some());
            for seed in 0..4 {
                let mut rng = Rng(seed + 17);
                let mut pos = match (&ending, seed) {
                    (Some(p), 3) => p.clone(),
                    _ => fast.initial(),
                };
                let mut log = UndoLog::new();
                for ply in 0..200 {
                    fast.legal_moves_in(&mut ws, &mut pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    let m = list.moves[rng.below(list.len())];
                    let mut slow = pos.clone();
                    reference.make(&mut slow, &list, &m, &mut UndoLog::new());
                    let before = pos.counters.clone();
                    // A sibling made and taken back first, as search and perft do: what the
                    // fast way keeps between moves (its piece tallies) must stay right.
                    let other = list.moves[rng.below(list.len())];
                    fast.make(&mut pos, &list, &other, &mut log);
                    zrf::engine::revert(&mut pos, &mut log);
                    fast.make(&mut pos, &list, &m, &mut log);
                    assert!(
                        pos == slow,
                        "{name}, game {seed}, ply {ply}: counters differ"
                    );
                    changed += usize::from(pos.counters != before);
                }
            }
        }
    }
    assert!(
        games_with_program >= 8,
        "{games_with_program} games with after-move"
    );
    assert!(changed > 1000, "the counters changed only {changed} times");
    assert_eq!(endings, 1);
}

/// `Rules::legal_captures_in` leaves out drops that can neither capture nor promote: it must
/// still return exactly the legal captures and promotions, and say whether another legal move
/// exists, also where only drops are left (a check that only a drop can block). Seeded random
/// games of the shipped games with drops.
#[test]
fn captures_without_quiet_drops_agree() {
    let wanted = |m: &zrf::engine::Move| m.n_captures() > 0 || m.promote != 0;
    let (mut positions, mut drops_only) = (0, 0);
    for file in [
        "games/chess.zrf",
        "games/halfgi.zrf",
        "games/tic-tac-toe.zrf",
    ] {
        for (name, rules) in all_rules(file) {
            if rules.def.pieces.iter().all(|p| p.drops.is_empty()) {
                continue;
            }
            let (mut ws, mut all, mut caps) =
                (Workspace::default(), MoveList::new(), MoveList::new());
            for seed in 0..8 {
                let mut rng = Rng(seed * 31 + 5);
                let mut pos = rules.initial();
                let mut log = UndoLog::new();
                for ply in 0..120 {
                    rules.legal_moves_in(&mut ws, &mut pos, &mut all);
                    let other = rules.legal_captures_in(&mut ws, &mut pos, &mut caps);
                    let expect: Vec<_> = all.moves.iter().filter(|m| wanted(m)).collect();
                    let paths = |l: &MoveList, ms: &[&zrf::engine::Move]| -> Vec<Vec<u16>> {
                        ms.iter().map(|m| l.path(m).to_vec()).collect()
                    };
                    let got: Vec<_> = caps.moves.iter().collect();
                    assert_eq!(
                        paths(&caps, &got),
                        paths(&all, &expect),
                        "{name}, game {seed}, ply {ply}"
                    );
                    let quiet: Vec<_> = all.moves.iter().filter(|m| !wanted(m)).collect();
                    assert_eq!(other, !quiet.is_empty(), "{name}, game {seed}, ply {ply}");
                    positions += 1;
                    if !quiet.is_empty() && quiet.iter().all(|m| m.drop != 0) {
                        drops_only += 1;
                    }
                    if all.is_empty() {
                        break;
                    }
                    let m = all.moves[rng.below(all.len())];
                    rules.make(&mut pos, &all, &m, &mut log);
                }
            }
        }
    }
    assert!(positions > 1000, "only {positions} positions");
    assert!(
        drops_only > 5,
        "only {drops_only} positions where only drops are quiet"
    );
}

/// `Rules::legal_captures_in` writes only the first few quiet simple moves: it must still
/// return exactly the legal captures and promotions (the same moves, ops and paths, in the
/// same order), and say whether another legal move exists, also where the few quiet moves
/// written are all illegal (pins, a royal piece's steps into attack). Seeded random games of
/// every shipped game and variant.
#[test]
fn captures_without_quiet_moves_agree() {
    let wanted = |m: &zrf::engine::Move| m.n_captures() > 0 || m.promote != 0;
    let mut files: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("games"))
        .expect("games folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "zrf"))
        .map(|p| format!("games/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    let (mut positions, mut with_captures) = (0, 0);
    for file in &files {
        for (name, rules) in all_rules(file) {
            let (mut ws, mut all, mut caps) =
                (Workspace::default(), MoveList::new(), MoveList::new());
            for seed in 0..4 {
                let mut rng = Rng(seed * 17 + 3);
                let mut pos = rules.initial();
                let mut log = UndoLog::new();
                for ply in 0..100 {
                    rules.legal_moves_in(&mut ws, &mut pos, &mut all);
                    let other = rules.legal_captures_in(&mut ws, &mut pos, &mut caps);
                    let at = format!("{name}, game {seed}, ply {ply}");
                    let expect: Vec<_> = all.moves.iter().filter(|m| wanted(m)).collect();
                    assert_eq!(caps.moves.len(), expect.len(), "{at}");
                    for (a, b) in caps.moves.iter().zip(&expect) {
                        assert_eq!(caps.path(a), all.path(b), "{at}");
                        assert_eq!(caps.captured(a), all.captured(b), "{at}");
                        assert_eq!(&*caps.ops(a), &*all.ops(b), "{at}");
                    }
                    let quiet = all.moves.iter().any(|m| !wanted(m));
                    assert_eq!(other, quiet, "{at}");
                    positions += 1;
                    with_captures += usize::from(!expect.is_empty());
                    if all.is_empty() {
                        break;
                    }
                    let m = all.moves[rng.below(all.len())];
                    rules.make(&mut pos, &all, &m, &mut log);
                }
            }
        }
    }
    assert!(positions > 3000, "only {positions} positions");
    assert!(
        with_captures > 500,
        "only {with_captures} positions with captures"
    );
}

/// With `Workspace::set_checking_drops`, `Rules::legal_captures_in` also returns the legal
/// drops that attack a royal piece of the other side, found from the attack tables: exactly
/// those drops of the full list after which the other side is in check, besides the same
/// captures and promotions. Seeded random games of the shipped chess variants with drops,
/// positions not in check (where quiescence asks for them).
#[test]
fn checking_drops_agree() {
    let wanted = |m: &zrf::engine::Move| m.n_captures() > 0 || m.promote != 0;
    let (mut positions, mut checks) = (0, 0);
    for (name, rules) in all_rules("games/chess.zrf") {
        if rules.def.pieces.iter().all(|p| p.drops.is_empty()) {
            continue;
        }
        let (mut ws, mut all, mut caps) = (Workspace::default(), MoveList::new(), MoveList::new());
        for seed in 0..8 {
            let mut rng = Rng(seed * 17 + 3);
            let mut pos = rules.initial();
            let mut log = UndoLog::new();
            for ply in 0..120 {
                rules.legal_moves_in(&mut ws, &mut pos, &mut all);
                if all.is_empty() {
                    break;
                }
                let side = rules.entry(pos.turn).owner;
                if !rules.royal_attacked(&pos, side) {
                    ws.set_checking_drops(true);
                    rules.legal_captures_in(&mut ws, &mut pos, &mut caps);
                    ws.set_checking_drops(false);
                    let mut expect = Vec::new();
                    for m in &all.moves {
                        let keep = wanted(m)
                            || m.drop != 0 && {
                                rules.make(&mut pos, &all, m, &mut log);
                                let them = rules.entry(pos.turn).owner;
                                let check = rules.royal_attacked(&pos, them);
                                zrf::engine::revert(&mut pos, &mut log);
                                check
                            };
                        if keep {
                            checks += (m.drop != 0) as usize;
                            expect.push((all.path(m).to_vec(), m.drop));
                        }
                    }
                    let got: Vec<_> = (caps.moves.iter())
                        .map(|m| (caps.path(m).to_vec(), m.drop))
                        .collect();
                    assert_eq!(got, expect, "{name}, game {seed}, ply {ply}");
                    positions += 1;
                }
                let m = all.moves[rng.below(all.len())];
                rules.make(&mut pos, &all, &m, &mut log);
            }
        }
    }
    assert!(positions > 500, "only {positions} positions");
    assert!(checks > 100, "only {checks} checking drops");
}

/// The moves of `pos` and of every position one move on, both ways (`Legality` on and off)
/// and as `Game::legal_texts` gives them, compared; returns the first position's legal moves.
fn same_both_ways(fast: &Rules, pos: &mut zrf::engine::Position, what: &str) -> Vec<String> {
    let mut reference = fast.clone();
    reference.configure(fast.config().with(FastPath::Legality, false));
    let (mut ws_a, mut ws_b) = (Workspace::default(), Workspace::default());
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    let mut log = UndoLog::new();
    fast.legal_moves_in(&mut ws_a, pos, &mut a);
    let first = a.clone();
    for i in 0..=first.len() {
        if i > 0 {
            fast.make(pos, &first, &first.moves[i - 1], &mut log);
        }
        fast.legal_moves_in(&mut ws_a, pos, &mut a);
        reference.legal_moves_in(&mut ws_b, pos, &mut b);
        let same = a.moves == b.moves && a.ops == b.ops && a.squares == b.squares;
        assert!(same, "{what}: after move {i}, the moves differ");
        if i > 0 {
            zrf::engine::revert(pos, &mut log);
        }
    }
    let mut g = zrf::play::Game::new(fast.clone(), pos.clone());
    let mut texts = g.legal_texts();
    texts.sort();
    texts
}

/// En passant takes only a Pawn (`(verify (piece? Pawn))`), so the attack tables leave it out
/// of what can take a King: positions with an enemy pawn beside a king are judged from the
/// tables. It still attacks the pawn it could take, and every move list stays the one that
/// playing and testing every move gives.
#[test]
fn en_passant_beside_a_king() {
    let rules = common::rules("games/chess.zrf", None);
    let square = |name: &str| {
        let p = rules
            .def
            .board
            .positions
            .iter()
            .position(|p| p.name == name);
        p.expect(name) as u16
    };
    let black = zrf::def::PlayerId(1);
    // Black's d7-d5 has just passed White's e5 pawn: only en passant takes on d5.
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    let pos = zrf::setup::parse(&rules, fen).expect(fen);
    assert!(rules.attacked(&pos, square("d5"), black, None, true));
    assert!(rules.attacked_general(&pos, square("d5"), black, None, true));
    // Without the double step (no en passant), nothing attacks d5.
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1";
    let pos = zrf::setup::parse(&rules, fen).expect(fen);
    assert!(!rules.attacked(&pos, square("d5"), black, None, true));
    let cases = [
        // A White king beside Black pawns, one of which could take en passant if a White
        // pawn stood there.
        (
            "8/8/8/8/3Kp3/8/8/4k3 w - - 0 1",
            "d4-c3 d4-c4 d4-c5 d4-d5 d4-e3 d4-e5 d4xe4",
        ),
        // En passant would leave White's king in check along the fifth rank.
        (
            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1",
            "a5-a4 a5-a6 a5-b4 a5-b5 a5-b6 e5-e6",
        ),
        // Black's king beside the pawn en passant takes, and beside the landing square.
        ("8/8/8/2kpP3/8/8/8/4K3 w - d6 0 1", ""),
        // Black to take en passant, White's king beside both pawns.
        ("4k3/8/8/8/3pPK2/8/8/8 b - e3 0 1", ""),
    ];
    for (fen, expected) in cases {
        let mut pos = zrf::setup::parse(&rules, fen).expect(fen);
        let moves = same_both_ways(&rules, &mut pos, fen);
        if !expected.is_empty() {
            assert_eq!(moves.join(" "), expected, "{fen}");
        }
    }
}

/// A king's moves are judged from the squares the enemy attacks once the king has left its
/// square: it may not step back along the line of a slider checking it, whichever way the
/// line runs through the squares' order.
#[test]
fn a_king_does_not_hide_behind_itself() {
    let rules = common::rules("games/chess.zrf", None);
    for (fen, expected) in [
        (
            "8/8/8/8/r3K3/8/8/7k w - - 0 1",
            "e4-d3 e4-d5 e4-e3 e4-e5 e4-f3 e4-f5",
        ),
        (
            "8/8/8/8/4K2r/8/8/k7 w - - 0 1",
            "e4-d3 e4-d5 e4-e3 e4-e5 e4-f3 e4-f5",
        ),
        (
            "7k/8/8/8/4K3/8/8/1b6 w - - 0 1",
            "e4-d4 e4-d5 e4-e3 e4-e5 e4-f3 e4-f4",
        ),
        (
            "7k/6q1/8/8/3K4/8/8/8 w - - 0 1",
            "d4-c4 d4-c5 d4-d3 d4-d5 d4-e3 d4-e4",
        ),
    ] {
        let mut pos = zrf::setup::parse(&rules, fen).expect(fen);
        let moves = same_both_ways(&rules, &mut pos, fen);
        assert_eq!(moves.join(" "), expected, "{fen}");
    }
}

/// Pins along all eight lines round a king, checks by one piece (a slider, a leaper) and by
/// two, and en passant that would open a line to the king, judged over the one-word square
/// sets: the legal moves are python-chess's, and the same with every move played and tested
/// (also one move on); three published perft positions (pins, checks, en passant and
/// promotions in the first plies) give their counts.
#[test]
fn pins_and_checks_over_square_sets() {
    let rules = common::rules("games/chess.zrf", None);
    for (fen, expected) in [
        (
            "q3r2k/7b/4R1B1/3R4/r1N1K1Br/3Q1P2/4P3/1q2r2b w - - 0 1",
            "d3b1 d3c2 e2e3 e4d4 e4e3 e4e5 e4f4 e4f5 e6e5 e6e7 e6e8 g6f5 g6h7",
        ),
        (
            "q3r2k/7b/4R1B1/3R4/r1N1K1Br/3Q1P2/4P3/1q2r2b b - - 0 1",
            "a4a1 a4a2 a4a3 a4a5 a4a6 a4a7 a4b4 a4c4 a8a5 a8a6 a8a7 a8b7 a8b8 a8c6 a8c8 a8d5 \
             a8d8 b1a1 b1a2 b1b2 b1b3 b1b4 b1b5 b1b6 b1b7 b1b8 b1c1 b1c2 b1d1 b1d3 e1c1 e1d1 \
             e1e2 e1f1 e1g1 e8b8 e8c8 e8d8 e8e6 e8e7 e8f8 e8g8 h1f3 h1g2 h4g4 h4h2 h4h3 h4h5 \
             h4h6 h7g6 h7g8 h8g7 h8g8",
        ),
        // Two pieces give check: only the king moves.
        ("4k3/8/8/8/8/5n2/8/R3K2r w - - 0 1", "e1e2 e1f2"),
        // A rook checks: block, take it, or step aside.
        (
            "4k3/4r3/8/8/1B6/R7/3N4/4K3 w - - 0 1",
            "a3e3 b4e7 d2e4 e1d1 e1f1 e1f2",
        ),
        // A knight checks: take it or step aside.
        (
            "4k3/8/8/8/8/3n4/2P1P3/4K3 w - - 0 1",
            "c2d3 e1d1 e1d2 e1f1 e2d3",
        ),
        // En passant would leave both pawns' rank open to the rook.
        ("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "a5a4 a5a6 a5b6 b5b6"),
        // En passant would take the pawn that stands between the bishop and the king.
        (
            "8/8/8/2k5/3Pp3/8/8/6BK b - d3 0 1",
            "c5b4 c5b5 c5b6 c5c4 c5c6 c5d5 c5d6",
        ),
    ] {
        let mut pos = zrf::setup::parse(&rules, fen).expect(fen);
        let mut moves: Vec<String> = (same_both_ways(&rules, &mut pos, fen).iter())
            .map(|t| t.replace(['-', 'x'], ""))
            .collect();
        moves.sort();
        assert_eq!(moves.join(" "), expected, "{fen}");
    }
    for (fen, counts) in [
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            [6, 264, 9467],
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812]),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            [44, 1486, 62379],
        ),
    ] {
        let mut pos = zrf::setup::parse(&rules, fen).expect(fen);
        for (depth, &count) in (1..).zip(&counts) {
            assert_eq!(rules.perft(&mut pos, depth), count, "{fen}, perft {depth}");
        }
    }
}
