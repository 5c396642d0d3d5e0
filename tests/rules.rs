//! Rules of the reference games, position by position: exact move lists and results.
//! Draughts positions were checked against pydraughts (`../shared/oracles/draughts_oracle.py`).

use std::path::Path;

use zrf::engine::Rules;
use zrf::expand::NoFiles;
use zrf::play::Game;

fn game(file: &str, variant: Option<&str>, setup: Option<&str>, moves: &str) -> Game {
    let bytes =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).expect("rules file");
    let loaded = zrf::load(file, &bytes, &NoFiles);
    let idx = zrf::summary::select_variant(&loaded.games, variant).expect("variant");
    let (def, diags) = zrf::resolve_game(&loaded.games[idx]);
    assert!(diags.is_empty(), "{diags:?}");
    let rules = Rules::new(def.expect("resolves"));
    let pos = match setup {
        Some(s) => zrf::setup::parse(&rules, s).expect("setup"),
        None => rules.initial(),
    };
    let mut g = Game::new(rules, pos);
    for m in moves.split_whitespace() {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn moves(file: &str, variant: Option<&str>, setup: &str, played: &str) -> Vec<String> {
    sorted(game(file, variant, Some(setup), played).legal_texts())
}

fn list(s: &str) -> Vec<String> {
    sorted(s.split_whitespace().map(String::from).collect())
}

fn result(file: &str, setup: Option<&str>, played: &str) -> String {
    let mut g = game(file, None, setup, played);
    match g.outcome() {
        Some(o) => o.describe(&g.rules.def),
        None => "ongoing".into(),
    }
}

const CHESS: &str = "games/chess.zrf";

#[test]
fn chess_castling_needs_safe_empty_squares() {
    let king = |setup: &str| -> Vec<String> {
        moves(CHESS, None, setup, "")
            .into_iter()
            .filter(|m| m.starts_with("e1-"))
            .collect()
    };
    assert_eq!(
        king("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        list("e1-c1 e1-d1 e1-d2 e1-e2 e1-f1 e1-f2 e1-g1")
    );
    // A rook on f2 attacks f1 (the king would cross it) and e2, d2, f2 squares.
    assert_eq!(
        king("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"),
        list("e1-c1 e1-d1")
    );
    // No rights, no castling.
    assert_eq!(
        king("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"),
        list("e1-d1 e1-d2 e1-e2 e1-f1 e1-f2")
    );
}

#[test]
fn chess_castling_moves_the_rook_and_spends_the_rights() {
    let mut g = game(
        CHESS,
        None,
        Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        "e1g1",
    );
    let text = zrf::setup::native(&g.rules, &g.pos);
    assert!(text.contains("White Rook a1 f1-never-moved?"), "{text}");
    assert!(text.contains("White King g1-never-moved?"), "{text}");
    assert!(g.legal_texts().iter().any(|m| m == "e8-c8"));
}

#[test]
fn chess_en_passant_and_promotion() {
    assert_eq!(
        moves(CHESS, None, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "")
            .into_iter()
            .filter(|m| m.starts_with("e5"))
            .collect::<Vec<_>>(),
        list("e5-e6 e5xd6")
    );
    let mut g = game(
        CHESS,
        None,
        Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
        "e5d6",
    );
    assert!(
        !zrf::setup::native(&g.rules, &g.pos).contains("Black Pawn"),
        "the d5 pawn is captured"
    );
    assert_eq!(
        moves(CHESS, None, "8/P7/8/8/8/8/8/k6K w - - 0 1", "")
            .into_iter()
            .filter(|m| m.starts_with("a7"))
            .collect::<Vec<_>>(),
        list("a7-a8=B a7-a8=N a7-a8=Q a7-a8=R")
    );
    assert!(g.play("e8e7").is_err(), "the d6 pawn guards e7");
    assert_eq!(g.play("e8f8").unwrap(), "e8-f8");
}

#[test]
fn chess_results() {
    assert_eq!(
        result(CHESS, Some("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), ""),
        "White wins (checkmated)"
    );
    assert_eq!(
        result(CHESS, Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), ""),
        "draw (stalemated)"
    );
    assert_eq!(
        result(CHESS, None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"),
        "ongoing"
    );
    assert_eq!(
        result(CHESS, None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"),
        "draw (repetition)"
    );
    assert_eq!(
        result(CHESS, Some("4k3/8/8/8/8/8/8/4K2R w K - 98 80"), "h1h2"),
        "ongoing"
    );
    assert_eq!(
        result(CHESS, Some("4k3/8/8/8/8/8/8/4K2R w K - 98 80"), "h1h2 e8d8"),
        "draw (counter condition)"
    );
    assert_eq!(
        result(CHESS, None, "f2f3 e7e5 g2g4 d8h4"),
        "Black wins (checkmated)"
    );
}

#[test]
fn checkers_numbering_and_captures() {
    let f = "games/checkers.zrf";
    assert_eq!(moves(f, None, "B:W18:B14,K22", ""), list("14x23 22x15"));
    // Oracle: pydraughts english.
    assert_eq!(
        moves(
            f,
            None,
            "W:W27,19,18,11,7,6,5:B28,26,25,20,17,10,9,4,3,2",
            ""
        ),
        list("5-1 6-1 11-8 18-14 18-15 19-15 19-16 27-23 27-24")
    );
    // Two jumps reach the king row; crowning ends the move, so Black replies next.
    assert_eq!(moves(f, None, "W:W10:B6,7,K28", ""), list("10x1 10x3"));
    assert!(moves(f, None, "W:W10:B6,7,K28", "10x1")
        .iter()
        .all(|m| m.starts_with("28") || m.starts_with('7')));
}

#[test]
fn draughts_captures_match_the_oracle() {
    let intl = "games/international-draughts.zrf";
    assert_eq!(moves(intl, None, "W:W33:B28,19,9", ""), list("33x22"));
    assert_eq!(moves(intl, None, "W:W38:B33,22,12", ""), list("38x29"));
    let russian = "games/russian-draughts.zrf";
    assert_eq!(
        moves(russian, None, "W:We5:Bd6,b6,d8", ""),
        list("e5xc7xa5")
    );
    // Crowned mid-capture, the new king goes on capturing along the long diagonal.
    assert_eq!(moves(russian, None, "W:Wf6:Be7,b6", ""), list("f6xd8xa5"));
    let frisian = "games/frisian-draughts.zrf";
    assert_eq!(
        moves(frisian, None, "W:W38:B33,43", ""),
        list("38x29 38x49")
    );
}

#[test]
fn frisian_king_move_limit() {
    let f = "games/frisian-draughts.zrf";
    let setup = "W:WK46,35:BK1";
    let three = "46-41 1-7 41-46 7-12 46-41 12-18";
    assert!(moves(f, None, setup, "").contains(&"46-37".to_string()));
    assert_eq!(moves(f, None, setup, three), list("35-30"));
    let free = moves(f, Some("No king-move limit"), setup, three);
    assert!(free.contains(&"41-46".to_string()) && free.contains(&"35-30".to_string()));
    // Without men the limit does not apply.
    assert!(moves(f, None, "W:WK46:BK1", three).len() > 1);
}

#[test]
fn tic_tac_toe_ends_in_a_win() {
    assert_eq!(
        result("games/tic-tac-toe.zrf", None, "M@a1 M@b1 M@a2 M@b2 M@a3"),
        "X wins (relative-config)"
    );
}

#[test]
fn native_position_text_round_trips() {
    for (file, variant, played) in [
        (CHESS, None, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"),
        (CHESS, Some("Crazyhouse"), "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"),
        ("games/frisian-draughts.zrf", None, "31-26 20-24 26-21"),
    ] {
        let g = game(file, variant, None, played);
        let text = zrf::setup::native(&g.rules, &g.pos);
        let back = zrf::setup::parse(&g.rules, &text).expect("reads back");
        assert_eq!(back, g.pos, "{text}");
    }
}

#[test]
fn bad_moves_explain_and_change_nothing() {
    let mut g = game(CHESS, None, None, "");
    let before = g.pos.clone();
    assert_eq!(
        g.play("e2e5").unwrap_err().to_string(),
        "`e2e5` is not a legal move here"
    );
    assert_eq!(
        g.play("z9-z10").unwrap_err().to_string(),
        "there is no square `z9` on this board"
    );
    assert_eq!(g.pos, before);
    let mut d = game(
        "games/russian-draughts.zrf",
        None,
        Some("W:Wc3:Bd4,f6,d6,b6"),
        "",
    );
    let err = d.play("c3-c3").unwrap_err().to_string();
    assert!(err.contains("not a legal move"), "{err}");
}

#[test]
fn turn_order_repeat_restrictions_and_other_players_pieces() {
    let f = "tests/fixtures/turns.zrf";
    // Once: A may only slide east.
    assert_eq!(sorted(game(f, None, None, "").legal_texts()), list("a1-b1"));
    // Then the cycle: B steps its own piece; B moves N's piece; A steps.
    assert_eq!(
        sorted(game(f, None, None, "a1-b1").legal_texts()),
        list("f1-e1")
    );
    assert_eq!(
        sorted(game(f, None, None, "a1-b1 f1-e1").legal_texts()),
        list("c1-d1")
    );
    assert_eq!(
        sorted(game(f, None, None, "a1-b1 f1-e1 c1-d1").legal_texts()),
        list("b1-a1 b1-c1")
    );
    // The cycle repeats from B.
    assert_eq!(
        sorted(game(f, None, None, "a1-b1 f1-e1 c1-d1 b1-c1").legal_texts()),
        list("e1-f1")
    );
}

#[test]
fn forced_pass_and_pass_partial() {
    let f = "tests/fixtures/turns.zrf";
    // B's piece on f1 is boxed in by N's piece on e1: B passes.
    let setup = "turn 1; last - -; A P a1; B P f1; N P e1";
    assert_eq!(moves(f, None, setup, ""), list("pass"));
    // With "pass partial", every stopping point of a chain is a move (N's piece on e1 stops it).
    let chains = game(
        f,
        Some("Chains"),
        Some("turn 0; last - -; A P a1; B P f1; N P e1"),
        "",
    );
    let mut chains = chains;
    assert_eq!(
        sorted(chains.legal_texts()),
        list("a1-b1 a1-b1-c1 a1-b1-c1-d1")
    );
}
