//! Standard algebraic notation against Fairy-Stockfish: the SAN of every legal move in a few
//! positions, as pyffish 0.0.90 wrote them (`get_san`, run outside the tests with
//! `../shared/oracles`): start, Kiwipete, knights, rooks and queens that need their file,
//! rank or both, a pinned knight that needs nothing, promotion, en passant, mate and
//! crazyhouse drops; then SAN read back, ambiguity and games played in SAN.

mod common;

use common::game;

/// `uci:SAN` pairs of every legal move, from Fairy-Stockfish.
const CASES: &[(&str, &str, &str)] = &[
    (
        "Chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "a2a3:a3 a2a4:a4 b1a3:Na3 b1c3:Nc3 b2b3:b3 b2b4:b4 c2c3:c3 c2c4:c4 d2d3:d3 d2d4:d4 e2e3:e3 e2e4:e4 f2f3:f3 f2f4:f4 g1f3:Nf3 g1h3:Nh3 g2g3:g3 g2g4:g4 h2h3:h3 h2h4:h4",
    ),
    (
        "Chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "a1b1:Rb1 a1c1:Rc1 a1d1:Rd1 a2a3:a3 a2a4:a4 b2b3:b3 c3a4:Na4 c3b1:Nb1 c3b5:Nb5 c3d1:Nd1 d2c1:Bc1 d2e3:Be3 d2f4:Bf4 d2g5:Bg5 d2h6:Bh6 d5d6:d6 d5e6:dxe6 e1c1:O-O-O e1d1:Kd1 e1f1:Kf1 e1g1:O-O e2a6:Bxa6 e2b5:Bb5 e2c4:Bc4 e2d1:Bd1 e2d3:Bd3 e2f1:Bf1 e5c4:Nc4 e5c6:Nc6 e5d3:Nd3 e5d7:Nxd7 e5f7:Nxf7 e5g4:Ng4 e5g6:Nxg6 f3d3:Qd3 f3e3:Qe3 f3f4:Qf4 f3f5:Qf5 f3f6:Qxf6 f3g3:Qg3 f3g4:Qg4 f3h3:Qxh3 f3h5:Qh5 g2g3:g3 g2g4:g4 g2h3:gxh3 h1f1:Rf1 h1g1:Rg1",
    ),
    (
        "Chess",
        "3k4/8/8/2N1N3/8/2N1N3/8/R3K2R w - - 0 1",
        "a1a2:Ra2 a1a3:Ra3 a1a4:Ra4 a1a5:Ra5 a1a6:Ra6 a1a7:Ra7 a1a8:Ra8+ a1b1:Rb1 a1c1:Rc1 a1d1:Rd1+ c3a2:Na2 c3a4:N3a4 c3b1:Nb1 c3b5:Nb5 c3d1:Ncd1 c3d5:Ncd5 c3e2:Ne2 c3e4:N3e4 c5a4:N5a4 c5a6:Na6 c5b3:Nb3 c5b7:Nb7+ c5d3:Ncd3 c5d7:Ncd7 c5e4:N5e4 c5e6:Ne6+ e1d1:Kd1 e1d2:Kd2 e1e2:Ke2 e1f1:Kf1 e1f2:Kf2 e3c2:Nc2 e3c4:N3c4 e3d1:Ned1 e3d5:Ned5 e3f1:Nf1 e3f5:Nf5 e3g2:Ng2 e3g4:N3g4 e5c4:N5c4 e5c6:Nc6+ e5d3:Ned3 e5d7:Ned7 e5f3:Nf3 e5f7:Nf7+ e5g4:N5g4 e5g6:Ng6 h1f1:Rf1 h1g1:Rg1 h1h2:Rh2 h1h3:Rh3 h1h4:Rh4 h1h5:Rh5 h1h6:Rh6 h1h7:Rh7 h1h8:Rh8+",
    ),
    (
        "Chess",
        "4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",
        "b7b8b:b8=B b7b8n:b8=N b7b8q:b8=Q+ b7b8r:b8=R+ e1d1:Kd1 e1d2:Kd2 e1e2:Ke2 e1f2:Kf2 h1f1:Rf1 h1g1:Rg1 h1h2:Rh2 h1h3:Rh3 h1h4:Rh4 h1h5:Rh5 h1h6:Rh6 h1h7:Rh7 h1h8:Rh8+",
    ),
    (
        "Chess",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "a1a2:Ra2 a1a3:Ra3 a1a4:Ra4 a1a5:Ra5 a1a6:Ra6 a1a7:Ra7 a1a8:Ra8+ a1b1:Rb1 a1c1:Rc1 a1d1:Rd1 e1c1:O-O-O e1d1:Kd1 e1d2:Kd2 e1e2:Ke2 e1f1:Kf1 e1f2:Kf2 e1g1:O-O h1f1:Rf1 h1g1:Rg1 h1h2:Rh2 h1h3:Rh3 h1h4:Rh4 h1h5:Rh5 h1h6:Rh6 h1h7:Rh7 h1h8:Rh8+",
    ),
    (
        "Chess",
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "a7a5:a5 a7a6:a6 b7b5:b5 b7b6:b6 b8a6:Na6 b8c6:Nc6 c7c5:c5 c7c6:c6 d7d5:d5 d7d6:d6 d8e7:Qe7 d8f6:Qf6 d8g5:Qg5 d8h4:Qh4# e5e4:e4 e8e7:Ke7 f7f5:f5 f7f6:f6 f8a3:Ba3 f8b4:Bb4 f8c5:Bc5 f8d6:Bd6 f8e7:Be7 g7g5:g5 g7g6:g6 g8e7:Ne7 g8f6:Nf6 g8h6:Nh6 h7h5:h5 h7h6:h6",
    ),
    (
        "Chess",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        "e1d1:Kd1 e1d2:Kd2 e1e2:Ke2 e1f1:Kf1 e1f2:Kf2 e5d6:exd6 e5e6:e6",
    ),
    (
        "Chess",
        "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1",
        "a1a2:R1a2 a1a3:R1a3 a1a4:R1a4 a1b1:Rb1 a1c1:Rc1 a1d1:Rd1 a5a2:R5a2 a5a3:R5a3 a5a4:R5a4 a5a6:Ra6 a5a7:Ra7 a5a8:Ra8+ a5b5:Rb5 a5c5:Rc5 a5d5:Rd5 a5e5:Re5+ a5f5:Rf5 a5g5:Rg5 a5h5:Rh5 e1d1:Kd1 e1d2:Kd2 e1e2:Ke2 e1f1:Kf1 e1f2:Kf2",
    ),
    (
        "Chess",
        "4k3/8/8/8/8/1Q1Q4/8/1Q2K3 w - - 0 1",
        "b1a1:Qa1 b1a2:Q1a2 b1b2:Q1b2 b1c1:Qc1 b1c2:Q1c2 b1d1:Q1d1 b3a2:Q3a2 b3a3:Qa3 b3a4:Qa4+ b3b2:Q3b2 b3b4:Qb4 b3b5:Qbb5+ b3b6:Qb6 b3b7:Qb7 b3b8:Qb8+ b3c2:Qb3c2 b3c3:Qbc3 b3c4:Qbc4 b3d1:Qb3d1 b3d5:Qbd5 b3e6:Qe6+ b3f7:Qf7+ b3g8:Qg8+ d3a6:Qa6 d3b5:Qdb5+ d3c2:Qdc2 d3c3:Qdc3 d3c4:Qdc4 d3d1:Qdd1 d3d2:Qd2 d3d4:Qd4 d3d5:Qdd5 d3d6:Qd6 d3d7:Qd7+ d3d8:Qd8+ d3e2:Qe2+ d3e3:Qe3+ d3e4:Qe4+ d3f1:Qf1 d3f3:Qf3 d3f5:Qf5 d3g3:Qg3 d3g6:Qg6+ d3h3:Qh3 d3h7:Qh7 e1d1:Kd1 e1d2:Kd2 e1e2:Ke2 e1f1:Kf1 e1f2:Kf2",
    ),
    (
        "Chess",
        "4k3/8/8/8/1b6/8/3N4/1N2K3 w - - 0 1",
        "b1a3:Na3 b1c3:Nc3 e1d1:Kd1 e1e2:Ke2 e1f1:Kf1 e1f2:Kf2",
    ),
    (
        "Crazyhouse",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nn] w KQkq - 0 1",
        "N@a3:N@a3 N@a4:N@a4 N@a5:N@a5 N@a6:N@a6 N@b3:N@b3 N@b4:N@b4 N@b5:N@b5 N@b6:N@b6 N@b8:N@b8 N@c3:N@c3 N@c4:N@c4 N@c5:N@c5 N@d3:N@d3 N@d4:N@d4 N@d5:N@d5 N@d6:N@d6+ N@e2:N@e2 N@e3:N@e3 N@e6:N@e6 N@e7:N@e7 N@f4:N@f4 N@f5:N@f5 N@f6:N@f6+ N@g1:N@g1 N@g3:N@g3 N@g4:N@g4 N@g5:N@g5 N@g6:N@g6 N@h3:N@h3 N@h4:N@h4 N@h5:N@h5 N@h6:N@h6 a2a3:a3 a2a4:a4 b1a3:Na3 b1c3:Nc3 b2b3:b3 b2b4:b4 c2c3:c3 c2c4:c4 d1e2:Qe2 d2d3:d3 d2d4:d4 e1e2:Ke2 f1a6:Ba6 f1b5:Bb5 f1c4:Bc4 f1d3:Bd3 f1e2:Be2 f3d4:Nd4 f3e5:Nxe5 f3g1:Ng1 f3g5:Ng5 f3h4:Nh4 g2g3:g3 g2g4:g4 h1g1:Rg1 h2h3:h3 h2h4:h4",
    ),
    (
        "Crazyhouse",
        "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1",
        "P@a2:P@a2 P@a3:P@a3 P@a4:P@a4 P@a5:P@a5 P@a6:P@a6 P@a7:P@a7 P@b2:P@b2 P@b3:P@b3 P@b4:P@b4 P@b5:P@b5 P@b6:P@b6 P@b7:P@b7 P@c2:P@c2 P@c3:P@c3 P@c4:P@c4 P@c5:P@c5 P@c6:P@c6 P@c7:P@c7 P@d2:P@d2 P@d3:P@d3 P@d4:P@d4 P@d5:P@d5 P@d6:P@d6 P@d7:P@d7+ P@e2:P@e2 P@e3:P@e3 P@e4:P@e4 P@e5:P@e5 P@e6:P@e6 P@e7:P@e7 P@f2:P@f2 P@f3:P@f3 P@f4:P@f4 P@f5:P@f5 P@f6:P@f6 P@f7:P@f7+ P@g2:P@g2 P@g3:P@g3 P@g4:P@g4 P@g5:P@g5 P@g6:P@g6 P@g7:P@g7 P@h2:P@h2 P@h3:P@h3 P@h4:P@h4 P@h5:P@h5 P@h6:P@h6 P@h7:P@h7 e1d1:Kd1 e1d2:Kd2 e1e2:Ke2 e1f1:Kf1 e1f2:Kf2",
    ),
];

#[test]
fn san_of_every_legal_move_matches_fairy_stockfish() {
    for &(variant, fen, expected) in CASES {
        let mut g = game("games/chess.zrf", Some(variant), Some(fen), "");
        let list = g.legal().clone();
        let sans = g.legal_sans().expect("chess has SAN");
        let pairs: Vec<(&str, &str)> = expected
            .split_whitespace()
            .map(|p| p.split_once(':').expect("uci:san"))
            .collect();
        assert_eq!(list.len(), pairs.len(), "{fen}: the number of moves");
        for (uci, san) in pairs {
            let i = zrf::notation::parse_move(&g.rules.def, &list, uci)
                .unwrap_or_else(|e| panic!("{fen}: {uci}: {e}"));
            assert_eq!(sans[i], san, "{fen}: {uci}");
            // And the SAN reads back as the same move.
            let j = zrf::san::parse(&g.rules.def, &list, san)
                .unwrap_or_else(|e| panic!("{fen}: {san}: {e}"));
            assert_eq!(i, j, "{fen}: {san} read back");
        }
    }
}

#[test]
fn a_game_in_san_records_its_san_with_check_and_mate() {
    // The moves as Fairy-Stockfish's get_san_moves writes them.
    let g = game("games/chess.zrf", None, None, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
    assert_eq!(g.sans(), ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
    assert_eq!(g.played()[6], "h5xf7");
}

#[test]
fn san_input_is_lenient_with_marks_castling_zeros_and_full_origins() {
    let g = game(
        "games/chess.zrf",
        None,
        None,
        "e4! e5?! Nf3 Nc6 Bc4 Bc5 0-0 Ng8f6 d3 O-O",
    );
    assert_eq!(g.sans()[6], "O-O");
    assert_eq!(g.sans()[7], "Nf6");
    assert_eq!(g.sans()[9], "O-O");
    assert_eq!(g.played()[6], "e1-g1");
}

#[test]
fn an_ambiguous_san_names_the_candidates() {
    let mut g = game(
        "games/chess.zrf",
        None,
        Some("3k4/8/8/2N1N3/8/2N1N3/8/R3K2R w - - 0 1"),
        "",
    );
    let e = g.play("Nd5").unwrap_err().to_string();
    assert_eq!(e, "ambiguous: it could be Ncd5, Ned5");
    let e = g.play("b8").unwrap_err().to_string();
    assert!(e.contains("not a legal move"), "{e}");
    let mut g = game(
        "games/chess.zrf",
        None,
        Some("4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1"),
        "",
    );
    let e = g.play("b8").unwrap_err().to_string();
    assert_eq!(e, "ambiguous: it could be b8=Q, b8=R, b8=B, b8=N");
    g.play("b8=N").expect("an underpromotion");
    assert_eq!(g.sans(), ["b8=N"]);
}

#[test]
fn an_engine_line_reads_in_san() {
    let g = game("games/chess.zrf", None, None, "");
    let pv: Vec<String> = "e2-e4 e7-e5 d1-h5 b8-c6 f1-c4 g8-f6 h5xf7 nonsense"
        .split(' ')
        .map(String::from)
        .collect();
    assert_eq!(
        zrf::san::line(&g.rules, &g.pos, &pv),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#", "nonsense"]
    );
}

/// Whether python-chess is installed; under CI it must be (`.ci/run` installs it).
fn python_chess() -> bool {
    common::python_has("chess", "python-chess")
}

/// zrf's canonical text as UCI: `e7-e8=Q` → `e7e8q`.
fn as_uci(canonical: &str) -> String {
    canonical
        .chars()
        .filter(|c| !matches!(c, '-' | 'x' | '='))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The SAN of every legal move and variations of it (origin, `x`, piece letter, promotion and
/// square changed; tests/python_chess_san.py) in positions with pawn captures beside blocked
/// pushes, promotions, en passant, castling and ambiguous pieces: every token python-chess
/// refuses, zrf refuses (but for the leniencies docs/game-records.md lists), and every token
/// it reads, zrf reads as the same move.
#[test]
fn zrf_reads_san_as_python_chess_does() {
    if !python_chess() {
        return;
    }
    let fens = [
        // After 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Re1: `b5` is no move.
        "r1bqkb1r/1ppp1ppp/p1n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQR1K1 b kq - 5 5",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "3k4/8/8/2N1N3/8/2N1N3/8/R3K2R w - - 0 1",
        "1n2k3/2P3P1/8/8/3pP3/8/1p6/4K2R b K e3 0 1",
        "4k3/8/8/2p1p3/3P4/2P1P3/8/4K3 w - - 0 1",
    ];
    let mut child = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python_chess_san.py"
        ))
        .arg("classify")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(fens.join("\n").as_bytes())
        .expect("writes");
    let out = child.wait_with_output().expect("python3 ends");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let (mut refused, mut read) = (0, 0);
    let mut wrong = Vec::new();
    let rules = common::rules("games/chess.zrf", None);
    let mut games = std::collections::HashMap::new();
    for line in text.lines() {
        let [fen, token, uci] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("{line}");
        };
        let g = games.entry(fen).or_insert_with(|| {
            let pos = zrf::setup::parse(&rules, fen).expect("a FEN");
            zrf::play::Game::new(rules.clone(), pos)
        });
        let ours = g.play(token).ok().map(|c| as_uci(&c));
        if ours.is_some() {
            g.undo();
        }
        // Leniencies that python-chess does not share, each naming one move only.
        let lenient = token.starts_with('P') || token == "o-o";
        match (uci, ours) {
            ("-", None) => refused += 1,
            ("-", Some(_)) if lenient => {}
            ("-", Some(m)) => wrong.push(format!("{fen}: zrf read `{token}` as {m}")),
            (u, Some(m)) if u == m => read += 1,
            (u, m) => wrong.push(format!("{fen}: `{token}` is {u}, zrf read {m:?}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        refused > 300 && read > 300,
        "{refused} refused, {read} read"
    );
    eprintln!("{refused} tokens refused by both, {read} read alike");
}

/// A pawn push never names a capture: after 5. Re1, `b5` (b5 holds White's bishop) is no move,
/// and the message names the capture that is (`axb5`).
#[test]
fn a_pawn_move_without_a_file_never_captures() {
    let mut g = game(
        "games/chess.zrf",
        None,
        None,
        "e4 e5 Nf3 Nc6 Bb5 a6 O-O Nf6 Re1",
    );
    let e = g.play("b5").unwrap_err().to_string();
    assert_eq!(
        e,
        "`b5` is not a legal move here: a pawn move without a file takes nothing; \
         a pawn's capture names its file (axb5)"
    );
    assert!(g.play("Kg8").is_err(), "only O-O castles");
    assert_eq!(g.play("axb5").expect("the capture"), "a6xb5");
}
