//! Constructs that real Zillions files use and Zillions accepted, which zrf once refused:
//! each class with a small file of its own, loaded and played.

use zrf::diagnostic::{has_errors, Severity};
use zrf::engine::Rules;
use zrf::expand::NoFiles;
use zrf::play::Game;

const BOARD: &str = r#"(players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (draw-condition (A B) stalemated)"#;

/// Loads a source, resolves game or variant `idx`, and returns its legal moves at the start
/// with the warnings' messages; panics on an error.
fn moves(source: &str, idx: usize) -> (Vec<String>, Vec<String>) {
    let loaded = zrf::load("t.zrf", source.as_bytes(), &NoFiles);
    let (def, mut diags) = zrf::resolve_game(&loaded.games[idx]);
    diags.extend(loaded.diags.iter().cloned());
    assert!(!has_errors(&diags), "{diags:#?}");
    let rules = Rules::new(def.expect("resolves"));
    let pos = rules.initial();
    let mut g = Game::new(rules, pos);
    let warnings = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| d.message.clone())
        .collect();
    (g.legal_texts(), warnings)
}

#[test]
fn a_variant_before_its_game_refines_the_game_that_follows() {
    let src = format!(
        r#"(variant (title "Eastward") (piece (name P) (moves (e add))))
(game (title "Base") {BOARD} (board-setup (A (P a1)) (B (P c3))) (piece (name P) (moves (n add))))"#
    );
    let loaded = zrf::load("t.zrf", src.as_bytes(), &NoFiles);
    let titles: Vec<&str> = loaded.games.iter().map(|g| g.title.as_str()).collect();
    assert_eq!(titles, ["Eastward", "Base"]);
    // Opened without a choice: the game, not the variant listed before it.
    assert_eq!(zrf::summary::default_index(&loaded.games), 1);
    let (game, _) = moves(&src, 1);
    assert_eq!(game, ["a1-a2"]);
    let (variant, warnings) = moves(&src, 0);
    assert_eq!(
        variant,
        ["a1-b1"],
        "the variant has the game's board and players"
    );
    assert_eq!(warnings, ["a variant should follow its game"]);
}

#[test]
fn piece_tests_of_an_undeclared_type_are_false_with_a_warning() {
    let src = format!(
        r#"(game (title "Ghosts") {BOARD} (board-setup (A (P a1)) (B (P c3)))
  (piece (name P) (moves
    (n (verify (not-piece? Ghost n)) add)
    (e (verify (piece? Ghost)) add)
    (e (verify (moved-piece? Ghost)) e add))))"#
    );
    let (legal, warnings) = moves(&src, 0);
    assert_eq!(legal, ["a1-a2"]);
    assert_eq!(warnings, ["unknown piece `Ghost`"; 3]);
}

#[test]
fn conditions_take_the_opposite_of_a_direction() {
    // White's piece on b2 with Black's right below it (b1, the opposite of north).
    let src = format!(
        r#"(define look ($1 (verify (empty? (opposite $1))) add))
(game (title "Opposites") {BOARD} (board-setup (A (P b2)) (B (P b1)))
  (piece (name P) (moves
    (look n)
    (e (verify (enemy? (opposite w))) (verify (not-empty? (opposite e))) add)
    (w (verify (empty? (opposite s))) add))))"#
    );
    // North: `look n` steps to b3 and asks whether the square south of it (the opposite of
    // north) is empty; that is b2, where the piece stands: no. East: from c2, the opposite of
    // west is east, off the board: no. West: from a2, the opposite of south is a3, empty: yes.
    let (legal, warnings) = moves(&src, 0);
    assert_eq!(legal, ["b2-a2"]);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn numeric_option_values_read_as_booleans_with_a_warning() {
    let src = format!(
        r#"(game (title "Numbers") {BOARD} (board-setup (A (P a1)) (B (P c3)))
  (option "pass turn" 2) (option "recycle captures" 0) (option "pass partial" sometimes)
  (piece (name P) (moves (n add))))"#
    );
    let (legal, warnings) = moves(&src, 0);
    assert_eq!(legal, ["a1-a2", "pass"]);
    assert_eq!(
        warnings,
        [
            "option \"pass turn\" expects `true`, `false` or `forced`, found `2`",
            "option \"recycle captures\" expects `true` or `false`, found `0`",
            "option \"pass partial\" expects `true` or `false`, found `sometimes`",
        ]
    );
}

/// A die-like random player between the two sides.
const DICE: &str = include_str!("fixtures/dice-race.zrf");

#[test]
fn random_players_moves_are_counted_and_played_by_the_session() {
    // A has two moves (b1, c1); the random player then drops on any of the 4 empty squares;
    // B's queen steps west when that square is free.
    let loaded = zrf::load("dice.zrf", DICE.as_bytes(), &NoFiles);
    let (def, diags) = zrf::resolve_game(&loaded.games[0]);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(def.as_ref().unwrap().players[1].random);
    let rules = Rules::new(def.unwrap());
    let mut pos = rules.initial();
    // Depth 3 by hand: after b1, drops on c1/d1/e1 leave B e1-free only for c1, d1 (2 replies)
    // and a1 (1): 3; after c1, drops a1, b1, d1 leave e1 free (3), e1 blocks B (0): 3.
    assert_eq!(
        (1..=3)
            .map(|d| rules.perft(&mut pos, d))
            .collect::<Vec<_>>(),
        [2, 8, 6]
    );
    // In a session the random player moves by itself, from a seeded generator.
    struct Mem;
    impl zrf::repl::Files for Mem {
        fn read(&self, path: &str) -> Result<Vec<u8>, String> {
            (path == "dice.zrf")
                .then(|| DICE.as_bytes().to_vec())
                .ok_or_else(|| "no such file".into())
        }
        fn write(&self, _: &str, _: &str) -> Result<(), String> {
            Err("read-only".into())
        }
    }
    let mut s = zrf::repl::Session::open("dice.zrf", &Mem, None, None).unwrap();
    let o = s.run_line("a1-c1", &Mem);
    assert!(
        o.text.contains("Dice plays D@a1 (at random, one of 4)."),
        "{}",
        o.text
    );
    assert_eq!(s.game().played(), ["a1-c1", "D@a1"]);
    // B's turn now; after it the random player moves again.
    let o = s.run_line("f1-e1", &Mem);
    assert!(o.text.contains("Dice plays D@"), "{}", o.text);
    assert_eq!(s.game().plies(), 4);
}

#[test]
fn a_big_but_linear_macro_expansion_loads() {
    // 450 piece types whose moves come from one macro of 192 move blocks: about 1.2 million
    // atoms and lists after expansion, past the old limit of 1,000,000, as big shogi files
    // are; the guard against exponential expansion (tests/robustness.rs) still holds.
    let body = ["n", "s", "e", "w", "ne", "nw", "se", "sw"]
        .iter()
        .map(|d| format!("(slide {d}) (slide {d}) (leap {d}) (leap {d}) "))
        .collect::<String>()
        .repeat(6);
    let pieces: String = (0..450)
        .map(|k| format!("(piece (name P{k}) (many-moves))\n"))
        .collect();
    let src = format!(
        r#"(define slide ($1 (while empty? add $1) (verify enemy?) add))
(define leap ((verify (not-friend? $1)) $1 add))
(define many-moves (moves {body}))
(game (title "Heavy") (players A B) (turn-order A B)
 (board (grid (dimensions ("a/b/c/d/e/f/g/h" (1 0)) ("8/7/6/5/4/3/2/1" (0 1)))
   (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
 (board-setup (A (P0 a1)) (B (P1 h8)))
 {pieces}
 (draw-condition (A B) stalemated))"#
    );
    let loaded = zrf::load("heavy.zrf", src.as_bytes(), &NoFiles);
    assert!(!has_errors(&loaded.diags), "{:?}", loaded.diags.first());
    assert_eq!(loaded.games.len(), 1);
    let pieces = loaded.games[0]
        .forms
        .iter()
        .filter(|f| f.head() == Some("piece"))
        .count();
    assert_eq!(pieces, 450);
}

#[test]
fn a_random_player_beside_a_plain_one_of_the_same_name_keeps_its_question_mark() {
    for players in ["Chu ?Chu Han ?Han", "?Chu Chu ?Han Han"] {
        let src = format!(
            r#"(game (title "Pairs") (players {players}) (turn-order Chu ?Chu Han ?Han)
  (board (grid (dimensions ("a/b/c" (1 0)) ("1" (0 1))) (directions (e 1 0))))
  (board-setup (Chu (P a1)) (Han (P c1)) (?Chu (D off 1)) (?Han (D off 1)))
  (piece (name P) (moves (e (verify empty?) add)))
  (piece (name D) (drops ((verify empty?) add)))
  (draw-condition (Chu Han) stalemated))"#
        );
        let loaded = zrf::load("t.zrf", src.as_bytes(), &NoFiles);
        let (def, diags) = zrf::resolve_game(&loaded.games[0]);
        assert!(!has_errors(&diags), "{players}: {diags:#?}");
        let def = def.unwrap();
        let mut seen: Vec<(String, bool)> = def
            .players
            .iter()
            .map(|p| (p.name.clone(), p.random))
            .collect();
        seen.sort();
        assert_eq!(
            seen,
            [
                ("?Chu".to_string(), true),
                ("?Han".to_string(), true),
                ("Chu".to_string(), false),
                ("Han".to_string(), false)
            ],
            "{players}"
        );
    }
}

#[test]
fn a_move_two_blocks_make_keeps_the_better_ranked_type() {
    // The step north is written under both types; `late` ranks first. Zillions offers it
    // (a Gwangsanghui record plays such a soldier step): the copy of the better-ranked type
    // stays, instead of the first one written, which the priorities would then drop.
    let src = format!(
        r#"(game (title "Twice") {BOARD} (move-priorities late early)
  (board-setup (A (P a1)) (B (P c3)))
  (piece (name P) (moves (move-type early) (n add) (move-type late) (n add) (e add))))"#
    );
    let (moves, _) = moves(&src, 0);
    assert_eq!(moves, ["a1-a2", "a1-b1"]);
}

#[test]
fn a_created_piece_belongs_to_the_move_it_was_added_with() {
    // The block creates a piece on c1, adds the step to a2, then goes on to a3 and adds
    // again: only the first move creates (as in a Zillions Focus record, where a piece sent
    // to the reserve while trying one drop target does not appear with the later drops).
    let src = format!(
        r#"(game (title "Seed") {BOARD}
  (board-setup (A (P a1)) (B (P c3)))
  (piece (name P) (moves (n mark c1 (create P) back add n add))))"#
    );
    let loaded = zrf::load("t.zrf", src.as_bytes(), &NoFiles);
    let (def, _) = zrf::resolve_game(&loaded.games[0]);
    let rules = Rules::new(def.expect("resolves"));
    let pos = rules.initial();
    let mut g = Game::new(rules, pos);
    assert_eq!(g.legal_texts(), ["a1-a2", "a1-a3"]);
    let after = |g: &mut Game, mv: &str| {
        g.play(mv).unwrap();
        let text = zrf::setup::native(&g.rules, &g.pos);
        g.undo();
        text
    };
    assert_eq!(
        after(&mut g, "a1-a2"),
        "turn 1; last a1 a2; A P a2 c1; B P c3"
    );
    assert_eq!(after(&mut g, "a1-a3"), "turn 1; last a1 a3; A P a3; B P c3");
}

#[test]
fn a_byte_order_mark_before_the_rules_is_skipped_with_a_warning() {
    // Windows editors saving in UTF-8 put U+FEFF first; the same file in Latin-1 (a byte
    // above 127 in a comment) keeps it as one mark too.
    let game = format!(
        "(game (title \"Marked\") {BOARD} (board-setup (A (P a1)) (B (P c3)))\r\n  (piece (name P) (moves (n add))))"
    );
    for src in [
        format!("\u{feff}{game}").into_bytes(),
        [b"\xef\xbb\xbf; caf\xe9\r\n".as_slice(), game.as_bytes()].concat(),
    ] {
        let loaded = zrf::load("t.zrf", &src, &NoFiles);
        let (def, diags) = zrf::resolve_game(&loaded.games[0]);
        assert!(
            !has_errors(&diags) && !has_errors(&loaded.diags),
            "{:#?}",
            loaded.diags
        );
        let warnings: Vec<&str> = loaded.diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(warnings, ["the file starts with a byte-order mark"]);
        let rules = Rules::new(def.expect("resolves"));
        let pos = rules.initial();
        assert_eq!(Game::new(rules, pos).legal_texts(), ["a1-a2"]);
    }
}

#[test]
fn extra_macro_arguments_are_ignored_with_a_warning() {
    // `twice` uses only `$1`; the second argument, as in `(block-2 e e)` of a real Klin Zha,
    // is ignored. A macro with an empty body swallows any arguments without a word.
    let src = format!(
        r#"(define twice ($1 (verify empty?) $1 (verify empty?) add))
(define nothing)
(game (title "Extra") {BOARD} (board-setup (A (P a1)) (B (P c3)))
  (piece (name P) (moves (twice n e) (twice e n) (nothing n))))"#
    );
    let (legal, warnings) = moves(&src, 0);
    assert_eq!(legal, ["a1-a3", "a1-c1"]);
    assert_eq!(warnings, ["`twice` takes 1 argument, 2 given"; 2]);
}

#[test]
fn a_sweep_over_the_board_inside_a_capture_keeps_royal_safety_fast_and_exact() {
    // Gwangsanghui-like: each rook move sweeps a row setting attributes (`mark a1 ... back`)
    // before it adds. The attack tables are still derived (the sweep comes back where it
    // started), attack tests skip the sweep's effects, and the moves stay those of the
    // reference (every move played, plain trees).
    let src = r#"(define sweep mark a1 (while (on-board? e) e (if friend? (set-attribute seen? true))) back)
(define slide ($1 (while empty? (sweep) add $1) (verify enemy?) (sweep) add))
(game (title "Sweep") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (board-setup (A (K a1)) (B (R b3)))
  (piece (name K) (moves (n (verify not-friend?) add) (e (verify not-friend?) add)))
  (piece (name R) (attribute seen? false) (moves (slide n) (slide s) (slide e) (slide w)))
  (loss-condition (A B) (checkmated K)))"#;
    let loaded = zrf::load("sweep.zrf", src.as_bytes(), &NoFiles);
    let (def, diags) = zrf::resolve_game(&loaded.games[0]);
    assert!(!has_errors(&diags), "{diags:#?}");
    let def = def.unwrap();
    let fast = Rules::new(def.clone());
    assert!(
        fast.attacks.usable,
        "the sweep must not stop the attack tables"
    );
    let reference = Rules::with_config(def, zrf::engine::EngineConfig::plain());
    for rules in [fast, reference] {
        let pos = rules.initial();
        let mut g = Game::new(rules, pos);
        // b1 is on the rook's file; a2 is safe.
        assert_eq!(g.legal_texts(), ["a1-a2"]);
        g.play("a1-a2").unwrap();
        // The rook's moves: down the b-file and along the third rank.
        assert_eq!(g.legal_texts(), ["b3-b2", "b3-b1", "b3-c3", "b3-a3"]);
        g.play("b3-a3").unwrap();
        // In check from a3: the king takes the rook or steps off the a-file.
        assert_eq!(g.legal_texts(), ["a2xa3", "a2-b2"]);
    }
}
