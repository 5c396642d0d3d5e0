//! Rules of the reference games, position by position: exact move lists and results.
//! Draughts positions were checked against pydraughts (`../shared/oracles/draughts_oracle.py`).

mod common;

use common::game;

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
    // Without men the limit does not apply (two kings against one: a king against a king
    // would be drawn by the fourth half-move).
    let kings = moves(f, None, "W:WK46,K50:BK1", three);
    assert!(kings.contains(&"41-46".to_string()), "{kings:?}");
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

#[test]
fn a_chain_that_comes_back_to_a_position_it_passed_is_dropped() {
    // A piece that may hop east or west as often as it likes: without the loop rule its
    // chains would run back and forth up to the chain limit. Positions already passed in the
    // turn (the start too) end a chain there, so every chain is a straight run.
    let mut g = game(
        "tests/fixtures/turns.zrf",
        Some("Loops"),
        Some("turn 0; last - -; A P c1; B P f1"),
        "",
    );
    assert_eq!(
        sorted(g.legal_texts()),
        list("c1-b1 c1-b1-a1 c1-d1 c1-d1-e1")
    );
}

#[test]
fn branching_chains_stop_at_the_work_limit() {
    // Self-avoiding walks on 8x8: generation ends, with a bounded number of moves.
    let mut g = game("tests/fixtures/wander.zrf", None, None, "");
    let n = g.legal().len();
    assert!(n > 1000, "{n}");
    assert!(n <= 2 * zrf::engine::CHAIN_WORK_LIMIT, "{n}");
    // The first steps are all there, each a move of its own under "pass partial".
    let texts = g.legal_texts();
    for to in ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"] {
        assert!(texts.contains(&format!("d4-{to}")), "d4-{to}");
    }
}

const HALFGI: &str = "games/halfgi.zrf";

fn piece_moves(file: &str, variant: Option<&str>, setup: &str, from: &str) -> Vec<String> {
    moves(file, variant, setup, "")
        .into_iter()
        .filter(|m| m.starts_with(from) && !m.contains('@'))
        .collect()
}

#[test]
fn halfgi_halflings_move_half_way_to_the_edge() {
    let rook = |sq: &str| {
        piece_moves(
            HALFGI,
            None,
            &format!("turn 0; last - -; White Rook {sq}; White King h1; Black King h8"),
            sq,
        )
    };
    // The text's examples: a1 reaches a5 and e1; a5 reaches a3, a7, e5; a6 reaches a3, a7, e6.
    assert_eq!(
        rook("a1"),
        list("a1-a2 a1-a3 a1-a4 a1-a5 a1-b1 a1-c1 a1-d1 a1-e1")
    );
    assert_eq!(
        rook("a5"),
        list("a5-a3 a5-a4 a5-a6 a5-a7 a5-b5 a5-c5 a5-d5 a5-e5")
    );
    assert_eq!(
        rook("a6"),
        list("a6-a3 a6-a4 a6-a5 a6-a7 a6-b6 a6-c6 a6-d6 a6-e6")
    );
    // An edge is reached only from the next rank: from a3 the rook stops at a2, from a2 it reaches a1.
    assert!(!rook("a3").contains(&"a3-a1".to_string()));
    assert!(rook("a2").contains(&"a2-a1".to_string()));
    let queen = piece_moves(
        HALFGI,
        None,
        "turn 0; last - -; White Queen d4; White King h1; Black King h8",
        "d4",
    );
    // Three or four squares to each edge from d4: two squares every way.
    assert_eq!(queen, list("d4-b4 d4-c4 d4-e4 d4-f4 d4-d2 d4-d3 d4-d5 d4-d6 d4-c3 d4-b2 d4-e5 d4-f6 d4-c5 d4-b6 d4-e3 d4-f2"));
}

#[test]
fn halfgi_crabs_and_captures() {
    let white = piece_moves(
        HALFGI,
        None,
        "turn 0; last - -; White Crab d4; White King h1; Black King h8",
        "d4",
    );
    assert_eq!(white, list("d4-b3 d4-c6 d4-e6 d4-f3"));
    let black = piece_moves(
        HALFGI,
        None,
        "turn 1; last - -; Black Crab d4; White King h1; Black King a8",
        "d4",
    );
    assert_eq!(black, list("d4-b5 d4-c2 d4-e2 d4-f5"));
    // A halfling captures within its range only: the rook on a1 takes on a4, not on a6.
    let near = piece_moves(
        HALFGI,
        None,
        "turn 0; last - -; White Rook a1; Black Pawn a4; White King h1; Black King h8",
        "a1",
    );
    assert!(near.contains(&"a1xa4".to_string()));
    let far = piece_moves(
        HALFGI,
        None,
        "turn 0; last - -; White Rook a1; Black Pawn a6; White King h1; Black King h8",
        "a1",
    );
    assert!(!far.iter().any(|m| m.contains('x')));
}

#[test]
fn halfgi_drops_and_promotion() {
    // A captured piece changes sides and can be dropped; pawns not on the last rank.
    let mut g = game(HALFGI, None, Some("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"), "");
    let drops: Vec<String> = g
        .legal_texts()
        .into_iter()
        .filter(|m| m.starts_with("P@"))
        .collect();
    assert!(drops.contains(&"P@a1".to_string()), "first rank allowed");
    assert!(!drops.iter().any(|m| m.ends_with('8')), "last rank refused");
    // 62 empty squares, of which 7 on the last rank (e8 holds the king).
    assert_eq!(drops.len(), 55, "every empty square but the last rank");
    // A dropped pawn on its second rank may make the double step.
    let mut d = game(
        HALFGI,
        None,
        Some("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"),
        "P@c2 e8d8",
    );
    assert!(d.legal_texts().contains(&"c2-c4".to_string()));
    assert_eq!(
        piece_moves(HALFGI, None, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7"),
        list("a7-a8=B a7-a8=C a7-a8=Q a7-a8=R")
    );
    // Captures go to the capturer's hand as the type they had.
    let mut c = game(
        HALFGI,
        None,
        Some("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1"),
        "e4d5",
    );
    assert!(zrf::setup::native(&c.rules, &c.pos).contains("off White Queen 1"));
    assert!(
        c.legal_texts().iter().all(|m| !m.starts_with("Q@")),
        "Black has nothing in hand"
    );
    // Half Chess has no drops.
    let h = moves(
        HALFGI,
        Some("Half Chess"),
        "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1",
        "",
    );
    assert!(h.iter().all(|m| !m.contains('@')));
}

const POLISH: &str = "games/polish-draughts.zrf";

#[test]
fn polish_queens_take_the_most_and_pieces_leave_as_taken() {
    let eight = Some("8x8");
    // The text's examples (8x8 numbering).
    assert_eq!(
        moves(POLISH, eight, "W:WK29:B22,16,24,14", ""),
        list("29x11x20x27x9 29x11x20x27x5")
    );
    // All five must be taken; the last landing may be 22, emptied earlier in the capture.
    assert_eq!(
        moves(POLISH, eight, "W:WK7:B10,18,19,22,27", ""),
        list("7x17x31x24x15x22 7x17x31x24x15x25 7x17x31x24x15x29")
    );
}

#[test]
fn polish_men_are_crowned_only_where_the_move_ends() {
    let eight = Some("8x8");
    assert_eq!(moves(POLISH, eight, "W:W11:B7,6", ""), list("11x2x9"));
    let passed = game(POLISH, eight, Some("W:W11:B7,6"), "11x2x9");
    assert!(
        zrf::setup::native(&passed.rules, &passed.pos).contains("White Man b6"),
        "passing the row does not crown"
    );
    let ended = game(POLISH, eight, Some("W:W11:B7,K29"), "11x2");
    assert!(zrf::setup::native(&ended.rules, &ended.pos).contains("White Queen d8"));
}

const LONG: &str = "games/english-long-checkers.zrf";

#[test]
fn english_long_checkers_captures() {
    // A man's first capture is short; later in the chain it may jump long, landing just behind.
    assert_eq!(
        moves(
            LONG,
            None,
            "turn 1; last - -; White Man c3; Black Man d4 g7; Black King a9",
            ""
        ),
        list("c3xe5xh8")
    );
    assert_eq!(
        moves(
            LONG,
            None,
            "turn 1; last - -; White Man c3; Black Man e5; Black King a9",
            ""
        ),
        list("c3-b4 c3-d4")
    );
    // A king jumps long at once and does not turn back.
    assert_eq!(
        moves(
            LONG,
            None,
            "turn 1; last - -; White King c3; Black Man e5 g5; Black King a9",
            ""
        ),
        list("c3xf6xh4")
    );
}

#[test]
fn english_long_checkers_worked_example() {
    let setup = "turn 0; last - -; Black King b6; White King g7; White Man h2";
    let line =
        "b6-c7 g7-f6 c7-d6 f6-g7 d6-e7 h2-g3 e7-d8 g7-f8 d8-c7 g3-h4 c7-d8 f8-g7 d8-e7 g7-f8 e7-f6";
    let eight = Some("8x8");
    let replies = moves(LONG, eight, setup, line);
    assert_eq!(replies, list("f8-e7 f8-g7 h4-g5"));
    for reply in &replies {
        let after = moves(LONG, eight, setup, &format!("{line} {reply}"));
        assert!(
            !after.is_empty() && after.iter().all(|m| m.contains('x')),
            "{reply}: {after:?}"
        );
    }
}

const FRISIAN2: &str = "games/frisian-draughts-2.zrf";

#[test]
fn frisian_2_deferred_orthogonal_capture() {
    let b = "turn 0; last - -";
    // (1) The man cannot capture eastward at once; (2) it can capture southward later.
    assert_eq!(
        moves(
            FRISIAN2,
            None,
            &format!("{b}; White Man c3; Black Man e3 a9"),
            ""
        ),
        list("37-31 37-32")
    );
    assert_eq!(
        moves(
            FRISIAN2,
            None,
            &format!("{b}; White Man c3; Black Man d4 e3 a9"),
            ""
        ),
        list("37x28x48")
    );
    // (1) The Dame cannot capture northward at once; (2) it can capture westward later.
    let dame_north = moves(
        FRISIAN2,
        None,
        &format!("{b}; White Dame e1; Black Man e5 a9"),
        "",
    );
    assert!(
        dame_north.iter().all(|m| !m.contains('x')),
        "{dame_north:?}"
    );
    assert_eq!(
        moves(
            FRISIAN2,
            None,
            &format!("{b}; White Dame c1; Black Man e3 e5 a9"),
            ""
        ),
        list("47x29x27 47x33x22")
    );
}

#[test]
fn frisian_2_dame_halt_and_precedence() {
    let b = "turn 0; last - -";
    // After the last capture the Dame halts just behind the piece taken.
    assert_eq!(
        moves(
            FRISIAN2,
            None,
            &format!("{b}; White Dame c1; Black Man e3 a9"),
            ""
        ),
        list("47x33")
    );
    // Equal length: taking a Dame comes first.
    assert_eq!(
        moves(
            FRISIAN2,
            None,
            &format!("{b}; White Man c3 g3; Black Man d4 a9; Black Dame f4"),
            ""
        ),
        list("39x28")
    );
}

const ENGLISH: &str = "games/english-draughts.zrf";

#[test]
fn english_draughts_text_examples() {
    assert_eq!(moves(ENGLISH, None, "W:W18:B1", ""), list("18-14 18-15"));
    assert_eq!(moves(ENGLISH, None, "W:W18:B14,1", ""), list("18x9"));
    assert_eq!(
        moves(ENGLISH, None, "W:W29:B25,18,10", ""),
        list("29x22x15x6")
    );
    // Crowned on 2 after taking 6, the man does not go on to take 7.
    assert_eq!(moves(ENGLISH, None, "W:W9:B7,6", ""), list("9x2"));
}

#[test]
fn english_draughts_forty_move_law() {
    let over = |setup: &str, played: &str| {
        let mut g = game(ENGLISH, None, Some(setup), played);
        g.outcome().map(|o| o.describe(&g.rules.def))
    };
    // Three pieces against one with a man: forty moves each.
    let strong = "turn 1; last - -; White King d4; White Man f2; Black King b8; counter forty 78";
    assert_eq!(over(strong, "18-14"), None);
    assert_eq!(
        over(strong, "18-14 1-5"),
        Some("draw (counter condition)".into())
    );
    // Two kings against one: twenty moves each.
    let two = "turn 1; last - -; White King d4 f4; Black King b8; counter forty 38";
    assert_eq!(
        over(two, "18-14 1-5"),
        Some("draw (counter condition)".into())
    );
    // Equal material does not count.
    let equal = "turn 1; last - -; White King d4; Black King b8; counter forty 78";
    assert_eq!(over(equal, "18-14 1-5"), None);
}

const HUFFING: Option<&str> = Some("English Draughts with huffing");

#[test]
fn english_draughts_huffing_leaves_capturing_to_the_player() {
    // White may capture with 18 but need not; every move of 30 neglects the capture.
    assert_eq!(
        moves(ENGLISH, HUFFING, "W:W18,30:B14,1", ""),
        list("18x9 18-15 30-25 30-26")
    );
    // A chain may stop before it is complete; crowning still ends it.
    assert_eq!(
        moves(ENGLISH, HUFFING, "W:W29:B25,18,10,1", ""),
        list("29x22 29x22x15 29x22x15x6")
    );
    // The main game does not offer the neglect: capturing is forced there.
    assert_eq!(moves(ENGLISH, None, "W:W18,30:B14,1", ""), list("18x9"));
}

#[test]
fn english_draughts_huffing_removes_the_piece_that_neglected() {
    // White's 30-26 neglects 18x9: Black may let it stand or huff 18 first, then move.
    let after = moves(ENGLISH, HUFFING, "W:W18,30:B14,1", "30-26");
    assert_eq!(
        after,
        list(
            "1-5 1-6 14-17 14x23 14x23x30 \
             h18:1-5 h18:1-6 h18:14-17 h18:14-18"
        )
    );
    let mut g = game(ENGLISH, HUFFING, Some("W:W18,30:B14,1"), "30-26 h18:14-18");
    let white: Vec<String> = g.legal_texts();
    assert_eq!(sorted(white), list("26-22 26-23"));
    assert_eq!(g.pos.cells.iter().filter(|c| !c.is_empty()).count(), 3);
    // Huffing is a turn of its own kind: the huffed piece is named, and undo restores it.
    g.undo();
    assert_eq!(g.legal_texts().len(), 9);
    // A move that neglects nothing leaves nothing to huff.
    assert!(moves(ENGLISH, HUFFING, "W:W18,30:B14,1", "18x9")
        .iter()
        .all(|m| !m.starts_with('h')));
}

#[test]
fn english_draughts_huffing_an_incomplete_capture_or_a_later_neglect() {
    // 29x22 stops with 18 still en prise: the capturer is huffable where it stands.
    let stop = moves(ENGLISH, HUFFING, "W:W29:B25,18,10,1", "29x22");
    assert!(stop.contains(&"h22:18-22".to_string()), "{stop:?}");
    assert_eq!(stop.iter().filter(|m| m.starts_with("h22:")).count(), 6);
    // Crowned on 2 after taking 6: the move was complete, so 9 cannot be huffed for 7.
    let crowned = moves(ENGLISH, HUFFING, "W:W9,32:B7,6,1", "9x2");
    assert_eq!(crowned, list("1-5 1-6 7-10 7-11"));
    // Black neglects in turn: its 18x25 was possible when it played 1-5.
    let again = moves(ENGLISH, HUFFING, "W:W29:B25,18,10,1", "29x22 1-5");
    assert_eq!(again, list("22-17 22x15 22x15x6 h18:22-17 h18:22-18"));
    // Letting a neglect stand clears it: after 1-5 and a Black reply, 18 is no longer marked.
    let stood = moves(ENGLISH, HUFFING, "W:W18,30:B14,1", "30-26 1-5");
    assert!(stood.iter().all(|m| !m.starts_with("h18")), "{stood:?}");
}

#[test]
fn english_draughts_huff_counts_as_a_material_change_for_the_forty_moves() {
    // The counter stands at 70; White's 26-22 neglects a capture, Black huffs and moves.
    let setup = "turn 1; last - -; White Man e3 c3; White King a7; Black Man d4; counter forty 70";
    let mut g = game(ENGLISH, HUFFING, Some(setup), "");
    let neglect: Vec<String> = g
        .legal_texts()
        .into_iter()
        .filter(|m| !m.contains('x'))
        .collect();
    g.play(&neglect[0]).expect("a quiet move");
    assert_eq!(g.pos.counters[0], 71);
    let huff = g
        .legal_texts()
        .into_iter()
        .find(|m| m.starts_with('h'))
        .expect("a huff");
    g.play(&huff).expect("huff and move");
    let slot = g.pos.counters[0];
    assert_eq!(slot, 0, "the huff restarted the count");
}

#[test]
fn scored_results() {
    let f = "games/tic-tac-toe.zrf";
    let scored = Some("Scored Tic-Tac-Toe");
    let mut win = game(f, scored, None, "M@a1 M@b1 M@a2 M@b2 M@a3");
    let o = win.outcome().expect("over");
    assert_eq!(o.scores, Some(vec![2, 0]));
    assert_eq!(o.describe(&win.rules.def), "X wins 2-0 (relative-config)");
    let mut draw = game(
        f,
        scored,
        None,
        "M@b2 M@a1 M@c3 M@a3 M@a2 M@c2 M@b1 M@b3 M@c1",
    );
    assert_eq!(
        draw.outcome().expect("over").describe(&draw.rules.def),
        "draw 1-1 (stalemated)"
    );
}

const HAFT: &str = "games/haft-draughts.zrf";

#[test]
fn haft_esquires_and_stevedores() {
    let b = "turn 0; last - -";
    // An Esquire steps diagonally forward and captures by overtaking straight forward.
    assert_eq!(
        moves(
            HAFT,
            None,
            &format!("{b}; White Esquire d4; Black Esquire a8 h8"),
            ""
        ),
        list("d4-c5 d4-e5")
    );
    assert_eq!(
        moves(
            HAFT,
            None,
            &format!("{b}; White Esquire d4; Black Esquire d5 a8 h8"),
            ""
        ),
        list("d4xd6")
    );
    // A capturing Esquire goes on while it can.
    assert_eq!(
        moves(
            HAFT,
            None,
            &format!("{b}; White Esquire d2; Black Esquire d3 d5 a8"),
            ""
        ),
        list("d2xd4xd6")
    );
    // Promotion ends the capture, though the new Stevedore could overtake e8.
    assert_eq!(
        moves(
            HAFT,
            None,
            &format!("{b}; White Esquire d6; Black Esquire d7 e8 a1"),
            ""
        ),
        list("d6xd8")
    );
    let g = game(
        HAFT,
        None,
        Some(&format!("{b}; White Esquire d6; Black Esquire d7 e8 a1")),
        "d6xd8",
    );
    assert!(zrf::setup::native(&g.rules, &g.pos).contains("White Stevedore d8"));
    // A Stevedore overtakes along any orthogonal.
    assert_eq!(
        moves(
            HAFT,
            None,
            &format!("{b}; White Stevedore d4; Black Esquire d3 a8 h8"),
            ""
        )
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect::<Vec<_>>(),
        list("d4xd2")
    );
}

#[test]
fn haft_contrastewardess_takes_every_enemy_it_passes() {
    let setup = "turn 0; last - -; White Contrastewardess a1; Black Esquire a2 a3 a4 h8";
    assert_eq!(
        moves(HAFT, Some("French-style"), setup, ""),
        list("a1xa5 a1xa6 a1xa7 a1xa8")
    );
    let g = game(HAFT, Some("French-style"), Some(setup), "a1xa5");
    let text = zrf::setup::native(&g.rules, &g.pos);
    assert!(
        !text.contains("a2") && !text.contains("a3") && !text.contains("a4"),
        "{text}"
    );
}

#[test]
fn haft_impasse_results() {
    let b = "turn 0; last - -";
    let over = |variant: Option<&str>, setup: &str| result_of(HAFT, variant, setup);
    // Every piece on the dark squares: no capture is possible any more.
    assert_eq!(
        over(
            None,
            &format!("{b}; White Esquire a1 c1; Black Esquire b8 d8")
        ),
        "draw 2-2 (counter condition)"
    );
    let lesser = Some("Lesser win at impasse");
    assert_eq!(
        over(
            lesser,
            &format!("{b}; White Esquire a1 c1 e1; Black Esquire b8 d8")
        ),
        "White wins 3-1 (counter condition)"
    );
    assert_eq!(
        over(
            lesser,
            &format!("{b}; White Esquire a1 c1; Black Esquire b8 d8")
        ),
        "draw 2-2 (counter condition)"
    );
    // Running out of pieces loses 4-0.
    assert_eq!(
        over(None, "turn 1; last - -; White Esquire a1"),
        "White wins 4-0 (Black has no pieces left)"
    );
}

#[test]
fn haft_revert_to_draughts() {
    let setup = "turn 0; last - -; White Esquire d4; Black Esquire d5 c7";
    let revert = Some("Revert to Draughts, impasse drawn");
    // The capture leaves every piece on the dark squares; now draughts captures apply.
    assert_eq!(moves(HAFT, revert, setup, "d4xd6"), list("c7xe5"));
    assert_eq!(
        result_of(HAFT, None, &format!("{setup}; counter reverted 0")).as_str(),
        "ongoing"
    );
}

fn result_of(file: &str, variant: Option<&str>, setup: &str) -> String {
    let mut g = game(file, variant, Some(setup), "");
    g.outcome()
        .map_or("ongoing".into(), |o| o.describe(&g.rules.def))
}

/// Abalone (Marguerite) after its 57th legal opening move: three moves of the marble on c7
/// to d6 push different marbles and capture nothing, so brackets alone cannot tell them
/// apart; the later ones are numbered, and every text reads back as its own move (found by
/// the `play_random` fuzz target).
#[test]
fn moves_that_read_alike_even_with_captures_are_numbered() {
    let file = "tests/corpus/dagaz/elimination/abalone.zrf";
    let mut g = game(file, Some("Abalone (Marguerite)"), None, "");
    let first = g.legal_texts()[56].clone();
    g.play(&first).unwrap();
    let texts = g.legal_texts();
    let alike: Vec<&String> = texts.iter().filter(|t| t.starts_with("c7-d6")).collect();
    assert_eq!(alike, ["c7-d6[]", "c7-d6[]~2", "c7-d6"]);
    for (i, t) in texts.iter().enumerate() {
        let list = g.legal().clone();
        assert_eq!(
            zrf::notation::parse_move(&g.rules.def, &list, t),
            Ok(i),
            "{t}"
        );
    }
}
