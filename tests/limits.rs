//! Limits: inputs a hostile user might write end with a result or a located error, within
//! bounded time and memory (docs/semantics.md, "Limits"). Each test is one class of input that
//! used to panic, abort for lack of memory or run for minutes.

mod common;

use std::time::{Duration, Instant};

use common::rules_of;
use zrf::diagnostic::{render, RenderOptions};
use zrf::expand::NoFiles;
use zrf::play::Game;
use zrf::setup::SetupError;

/// Every diagnostic of `check_source` on `text`, rendered without colour.
fn check(text: &str) -> String {
    let (map, diags) = zrf::check_source("t.zrf", text.as_bytes(), &NoFiles);
    render(&map, &diags, RenderOptions { color: false })
}

/// A two-player game on a 3x3 board with `pieces` and `extra` game forms.
fn small_game(pieces: &str, extra: &str) -> String {
    format!(
        r#"(game (title "T") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1))) (directions (n 0 -1) (s 0 1))))
  {pieces}
  {extra})
"#
    )
}

#[test]
fn names_longer_than_the_limit_are_refused_where_they_stand() {
    let long = "P".repeat(70_000);
    let text = small_game(&format!("(piece (name {long}) (moves (n add)))"), "");
    let out = check(&text);
    assert!(out.contains("t.zrf:3:16"), "{}", &out[..out.len().min(600)]);
    assert!(
        out.contains("a piece name is 70000 characters long"),
        "{out:.600}"
    );
    assert!(
        out.contains("names are limited to 256 characters"),
        "{out:.600}"
    );
    // A file label too.
    let labels = format!("{}/b/c", "f".repeat(66_000));
    let text = small_game("(piece (name P) (moves (n add)))", "").replace("a/b/c", &labels);
    let out = check(&text);
    assert!(
        out.contains("a label is 66000 characters long"),
        "{out:.600}"
    );
}

#[test]
fn names_at_the_limit_are_shown_in_full() {
    let name = "P".repeat(256);
    let rank = "9".repeat(256);
    let text = small_game(&format!("(piece (name {name}) (moves (n add)))"), "")
        .replace("3/2/1", &format!("{rank}/2/1"));
    let rules = rules_of("t.zrf", text.as_bytes(), 0);
    let summary = zrf::summary::describe(&rules.def);
    assert!(summary.contains(&format!("  {name}  value ")), "{summary}");
    let diagram = zrf::repl::diagram::diagram(&rules, &rules.initial(), false);
    assert!(diagram.contains(&format!("{rank} ")), "{diagram}");
}

/// The value counter `c` has after A's first move, when that move sets it to `expr`.
fn counter_after(expr: &str) -> i32 {
    let text = small_game(
        &format!("(piece (name P) (moves (n (set c {expr}) add)))"),
        "(counter c) (board-setup (A (P a1)))",
    );
    let rules = rules_of("t.zrf", text.as_bytes(), 0);
    let pos = rules.initial();
    let mut g = Game::new(rules, pos);
    g.play("a1-a2").expect("the move");
    g.pos.counters[0]
}

#[test]
fn rules_arithmetic_never_overflows() {
    const MIN: &str = "-9223372036854775808";
    const MAX: &str = "9223372036854775807";
    // Counters hold 32 bits: a value beyond them is clamped when it is stored.
    assert_eq!(counter_after(&format!("(/ {MIN} -1)")), i32::MAX);
    assert_eq!(counter_after(&format!("(- 0 (/ {MIN} -1))")), i32::MIN);
    assert_eq!(counter_after(&format!("(* {MAX} {MAX})")), i32::MAX);
    assert_eq!(counter_after(&format!("(- {MIN} 1)")), i32::MIN);
    assert_eq!(counter_after(&format!("(+ {MAX} 1)")), i32::MAX);
    // Division rounds down, by zero gives 0.
    assert_eq!(counter_after("(/ 7 -2)"), -4);
    assert_eq!(counter_after("(/ -7 2)"), -4);
    assert_eq!(counter_after("(/ 7 2)"), 3);
    assert_eq!(counter_after("(/ -8 -2)"), 4);
    assert_eq!(counter_after("(/ 7 0)"), 0);
    assert_eq!(zrf::engine::arith('/', i64::MIN, -1), i64::MAX);
    assert_eq!(zrf::engine::arith('/', i64::MIN, 1), i64::MIN);
}

#[test]
fn goal_arithmetic_never_overflows() {
    let text = small_game(
        "(piece (name P) (moves (n add)))",
        "(board-setup (A (P a1))) (win-condition (A) (> (/ -9223372036854775808 -1) (* 2 4611686018427387904)))",
    );
    let rules = rules_of("t.zrf", text.as_bytes(), 0);
    let pos = rules.initial();
    let mut g = Game::new(rules, pos);
    g.play("a1-a2").expect("the move");
    // MAX > MAX is false: the game goes on.
    assert!(g.outcome().is_none());
}

#[test]
fn setups_cannot_hold_unbounded_counts() {
    let text = small_game("(piece (name P) (moves (n add)))", "");
    let rules = rules_of("t.zrf", text.as_bytes(), 0);
    let err = zrf::setup::parse(&rules, "turn 0; off A P 2147483647").unwrap_err();
    assert!(matches!(err, SetupError::Malformed(_)), "{err:?}");
    assert_eq!(err.to_string(), "bad count `2147483647` (0 to 10000)");
    let err = zrf::setup::parse(&rules, "turn 0; off A P -1").unwrap_err();
    assert_eq!(err.to_string(), "bad count `-1` (0 to 10000)");
    // Two entries that add up past the limit.
    let err = zrf::setup::parse(&rules, "turn 0; off A P 6000; off A P 6000").unwrap_err();
    assert!(matches!(err, SetupError::Invalid(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        "A holds 12000 P off the board; at most 10000 are allowed"
    );
    let pos = zrf::setup::parse(&rules, "turn 0; off A P 10000").expect("at the limit");
    assert_eq!(pos.store[0], 10_000);
    // In the rules file, where the count stands.
    let out = check(&small_game(
        "(piece (name P) (moves (n add)))",
        "(board-setup (A (P off 9000) (P off 2000)))",
    ));
    assert!(
        out.contains("error: 11000 pieces off the board is more than 10000\n  --> t.zrf:4:39"),
        "{out}"
    );
}

#[test]
fn a_sixty_fifth_flag_is_refused_where_it_stands() {
    let sets: String = (0..65).map(|i| format!("(set-flag f{i} true) ")).collect();
    let out = check(&small_game(
        &format!("(piece (name P) (moves (n {sets}(verify (flag? f0)) add)))"),
        "",
    ));
    let col = 1 + "  (piece (name P) (moves (n ".len() + 64 * "(set-flag f00 true) ".len() - 10
        + "(set-flag ".len();
    assert!(
        out.contains("error: too many flags: `f64` is flag number 65"),
        "{out}"
    );
    assert!(out.contains(&format!("t.zrf:3:{col}:")), "{col} {out}");
    assert!(
        out.contains("a game may use at most 64 flag names"),
        "{out}"
    );
    // Sixty-four are fine.
    let sets: String = (0..64).map(|i| format!("(set-flag f{i} true) ")).collect();
    let out = check(&small_game(
        &format!("(piece (name P) (moves (n {sets}(verify (flag? f63)) add)))"),
        "",
    ));
    assert!(!out.contains("error"), "{out}");
}

/// Rules files given to a session from memory.
struct MemFiles(Vec<(String, String)>);

impl zrf::repl::Files for MemFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.0
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, t)| t.clone().into_bytes())
            .ok_or_else(|| format!("no file {path}"))
    }

    fn write(&self, _: &str, _: &str) -> Result<(), String> {
        Err("read-only".into())
    }
}

/// A piece dropped with `(while true add)` on an 8x8 board: each drop square's block would add
/// a million moves.
fn endless_drops() -> String {
    r#"(game (title "Endless") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d/e/f/g/h" (1 0)) ("8/7/6/5/4/3/2/1" (0 1)))
    (directions (n 0 -1))))
  (board-setup (A (P off 1)) (B (P off 1)))
  (piece (name P) (drops ((while true add))))
  (draw-condition (A B) stalemated))
"#
    .to_string()
}

#[test]
fn runaway_blocks_are_cut_and_reported() {
    let text = endless_drops();
    let rules = rules_of("t.zrf", text.as_bytes(), 0);
    let mut pos = rules.initial();
    let mut moves = zrf::engine::MoveList::new();
    let t = Instant::now();
    rules.legal_moves(&mut pos, &mut moves);
    // Each square's block stops at 10,000 moves, the whole generation at 200,000, so after
    // 20 squares; the copies of one drop are then merged into one move.
    assert_eq!(moves.moves.len(), 20);
    assert_eq!(moves.cut, Some(zrf::engine::Cut::BlockMoves));
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(
        zrf::summary::runaway(&rules),
        Some(zrf::engine::Cut::BlockMoves)
    );
    let mut g = Game::new(rules, pos);
    assert_eq!(g.take_cut(), Some(zrf::engine::Cut::BlockMoves));
    assert_eq!(g.take_cut(), None, "told once per game");

    // A loop that adds nothing runs into the step limit.
    let text = small_game(
        "(piece (name P) (moves ((while true (set-flag x true)) add)))",
        "(board-setup (A (P a1)))",
    );
    let rules = rules_of("t.zrf", text.as_bytes(), 0);
    assert_eq!(zrf::summary::runaway(&rules), Some(zrf::engine::Cut::Steps));
    // A game that is fine reports nothing.
    let text = small_game(
        "(piece (name P) (moves (n add)))",
        "(board-setup (A (P a1)))",
    );
    assert_eq!(
        zrf::summary::runaway(&rules_of("t.zrf", text.as_bytes(), 0)),
        None
    );
}

#[test]
fn the_session_warns_once_about_a_cut() {
    let files = MemFiles(vec![("e.zrf".into(), endless_drops())]);
    let mut s = zrf::repl::Session::open("e.zrf", &files, None, None).expect("opens");
    let banner = s.banner();
    let warning = "warning: a move block added more than 10000 moves from one square and was \
                   stopped (an endless loop?) (said once per game)";
    assert!(banner.contains(warning), "{banner}");
    let out = s.run_line("board", &files);
    assert!(!out.text.contains("warning"), "{}", out.text);
    let out = s.run_line("new", &files);
    assert!(out.text.contains(warning), "{}", out.text);
}

#[test]
fn repetition_counts_follow_moves_take_backs_and_redos() {
    let text = small_game(
        "(piece (name P) (moves (n add) (s add)))",
        "(board-setup (A (P a1)) (B (P c3)))",
    );
    let rules = rules_of("t.zrf", text.as_bytes(), 0);
    let pos = rules.initial();
    let mut g = Game::new(rules, pos);
    let cycle = ["a1-a2", "c3-c2", "a2-a1", "c2-c3"];
    assert_eq!(g.repetitions(), 1);
    for m in cycle {
        g.play(m).expect("legal");
    }
    assert_eq!(g.repetitions(), 2);
    assert!(g.undo());
    assert_eq!(g.repetitions(), 1, "c3-c2 position, seen once");
    assert_eq!(g.redo().as_deref(), Some("c2-c3"));
    assert_eq!(g.repetitions(), 2);
    for m in cycle {
        g.play(m).expect("legal");
    }
    assert_eq!(g.repetitions(), 3);
    for _ in 0..8 {
        assert!(g.undo());
    }
    assert_eq!(g.repetitions(), 1);
    let start = g.rules.initial();
    g.play("a1-a2").expect("legal");
    g.reset(start);
    assert_eq!(g.repetitions(), 1);
}

#[test]
fn piece_values_fall_back_to_a_coarse_estimate_past_the_limit() {
    use zrf::ai::eval::Evaluator;
    let rules = common::rules("games/chess.zrf", None);
    let fine = Evaluator::new(&rules);
    assert!(!fine.coarse);
    // Past the square-table limit (2 players x 6 types x 64 squares = 768 entries).
    let coarse = Evaluator::with_limits(&rules, 767, usize::MAX);
    assert!(coarse.coarse);
    let value = |ev: &Evaluator, name: &str| {
        ev.values
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.value)
            .expect("a piece")
    };
    let shown: Vec<(String, f64)> = coarse
        .values
        .iter()
        .map(|v| (v.name.clone(), v.value))
        .collect();
    assert_eq!(value(&coarse, "Pawn"), 1.0);
    assert!(
        value(&coarse, "Queen") > value(&coarse, "Rook"),
        "{shown:?}"
    );
    assert!(
        value(&coarse, "Rook") > value(&coarse, "Bishop"),
        "{shown:?}"
    );
    assert!(
        value(&coarse, "Bishop") > value(&coarse, "Pawn"),
        "{shown:?}"
    );
    assert!(
        value(&coarse, "Knight") > value(&coarse, "Pawn"),
        "{shown:?}"
    );
    // The start is symmetric: even.
    assert_eq!(coarse.eval(&rules.initial(), zrf::def::PlayerId(0)), 0);
    // Past the limit on the moves of the empty-board graphs.
    assert!(Evaluator::with_limits(&rules, usize::MAX, 100).coarse);
}

/// A 19x19 game with `types` piece types built from macros (each slides in four directions
/// and leaps in eight), and a royal king: the shape of the large shogi variants.
fn large_game(types: usize) -> String {
    let files = "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s";
    let ranks: Vec<String> = (1..=19).rev().map(|r| r.to_string()).collect();
    let mut text = String::from(
        "(define slide ($1 (while empty? add $1) (verify not-friend?) add))\n\
         (define leap ($1 $2 (verify not-friend?) add))\n\
         (define rider (moves (slide $1) (slide $2) (slide $3) (slide $4)\n\
           (leap n ne) (leap n nw) (leap s se) (leap s sw) (leap e ne) (leap e se)\n\
           (leap w nw) (leap w sw)))\n",
    );
    text += &format!(
        "(game (title \"Large\") (players A B) (turn-order A B)\n\
         (board (grid (dimensions (\"{files}\" (1 0)) (\"{}\" (0 1)))\n\
           (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))\n\
         (piece (name K) (moves (leap n n) (leap s s) (leap e e) (leap w w)))\n",
        ranks.join("/")
    );
    for t in 0..types {
        let dirs = if t % 2 == 0 { "n s e w" } else { "ne nw se sw" };
        text += &format!("(piece (name T{t}) (rider {dirs}))\n");
    }
    text += "(board-setup (A (K j1)) (B (K j19)))\n(win-condition (A B) (checkmated K)))\n";
    text
}

#[test]
fn large_games_derive_their_values_within_a_fixed_work() {
    use zrf::ai::eval::{Evaluator, FINE_WORK};
    let text = large_game(128);
    let rules = rules_of("large.zrf", text.as_bytes(), 0);
    assert_eq!(rules.def.board.n_pos(), 361);
    assert_eq!(rules.def.pieces.len(), 129);
    // The king's leaps and the riders' slides and leaps have tables.
    assert!(rules.attacks.usable);
    // The empty-board graphs of 2 players x 129 types x 361 squares already pass their share
    // of the work limit (a third): the values are estimated on a sample of squares, within
    // the limit plus the sample's 2 players x 129 types x 64 squares block runs.
    let ev = Evaluator::new(&rules);
    assert!(ev.coarse);
    assert!(ev.work <= FINE_WORK / 3 + 2 * 129 * 64 * 400, "{}", ev.work);
    let value = |name: &str| ev.values.iter().find(|v| v.name == name).unwrap().value;
    // The riders move more than the king.
    assert!(value("T0") > value("K"), "{:?}", ev.values);
    // `zrf check`'s summary says the values are estimated.
    let summary = zrf::summary::describe_rules(&rules);
    assert!(summary.contains("values are estimated on a sample of squares"));
    // Chess stays well within the limit, and falls back only when the limit is lowered.
    let chess = common::rules("games/chess.zrf", None);
    let fine = Evaluator::new(&chess);
    assert!(!fine.coarse);
    assert!(fine.work < FINE_WORK / 4, "{}", fine.work);
    assert!(Evaluator::with_work_limit(&chess, fine.work / 2).coarse);
}

/// An 8x8 game of `types` piece types whose one move block runs `tests` conditions, each an
/// `or` of `piece?` tests on every type (the shape of macro-heavy mancala and counting games,
/// whose blocks are a few instructions with long conditions inside).
fn long_conditions_game(types: usize, tests: usize) -> String {
    let any: Vec<String> = (0..types).map(|t| format!("(piece? T{t})")).collect();
    let mut text = format!("(define any? (or {}))\n", any.join(" "));
    text += "(define body (n";
    for _ in 0..tests {
        text += " (if (any?) (set-flag seen true))";
    }
    text += " (verify (not-flag? seen)) add))\n";
    text += "(game (title \"Long\") (players A B) (turn-order A B)\n\
         (board (grid (dimensions (\"a/b/c/d/e/f/g/h\" (1 0)) (\"8/7/6/5/4/3/2/1\" (0 1)))\n\
           (directions (n 0 -1) (s 0 1))))\n";
    for t in 0..types {
        text += &format!("(piece (name T{t}) (moves (body)))\n");
    }
    text += "(board-setup (A (T0 a1)) (B (T0 h8)))\n(win-condition (A B) (pieces-remaining 0)))\n";
    text
}

#[test]
fn long_conditions_count_in_the_derivation_work() {
    use zrf::ai::eval::{Evaluator, COARSE_WORK};
    let rules = rules_of("long.zrf", long_conditions_game(40, 40).as_bytes(), 0);
    let block = &rules.def.pieces[0].moves[0];
    // Each of the 40 `if`s: the `if`, its `or` of 40 tests, the `set-flag` and its value.
    assert!(
        rules.block_weight(block) > 40 * 43,
        "{}",
        rules.block_weight(block)
    );
    // Counted by its instructions alone (a few per block run), deriving the square tables
    // would seem to take about 1.4 million steps; counted with its conditions it takes far more,
    // so a limit of 2 million falls back to the coarse estimate...
    let ev = Evaluator::with_work_limit(&rules, 2_000_000);
    assert!(ev.coarse);
    // ...which samples fewer squares than usual, so the whole derivation stays within the
    // limit plus the coarse estimate's own budget.
    assert!(ev.work <= 2_000_000 + COARSE_WORK, "{}", ev.work);
    assert!(ev.work > 2_000_000 / 3, "{}", ev.work);
    // Every type moves the same: one value.
    assert!(
        ev.values.iter().all(|v| v.value == ev.values[0].value),
        "{:?}",
        ev.values
    );
}

#[test]
fn a_file_past_the_reader_limit_stops_with_an_error() {
    let n = zrf::syntax::MAX_NODES;
    // A list of `n` atoms is n + 1 nodes: one too many.
    let mut text = String::with_capacity(3 * n);
    text.push('(');
    for _ in 0..n {
        text.push_str("a ");
    }
    text.push(')');
    let (forms, diags) = zrf::syntax::parse_file(zrf::source::FileId(0), &text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].message, "the file is too large");
    // Reading stopped at the last atom; the unfinished list is dropped.
    assert_eq!(diags[0].primary.span.lo as usize, 1 + 2 * (n - 1));
    assert!(forms.is_empty());
}

#[test]
fn diagnostics_past_ten_thousand_are_counted_not_kept() {
    let twice: String = (0..12_000).map(|_| "a1 ").collect();
    let text = small_game(
        "(piece (name P) (moves (n add)))",
        &format!("(board-setup (A (P {twice})))"),
    );
    let loaded = zrf::load("t.zrf", text.as_bytes(), &NoFiles);
    let (def, diags) = zrf::resolve_game(&loaded.games[0]);
    assert!(def.is_some(), "warnings only: the game loads");
    assert_eq!(diags.len(), 10_001);
    let last = diags.last().expect("the count");
    assert_eq!(last.message, "1999 more diagnostics were not kept");
    assert!(!last.is_error());
}

// ---------------------------------------------------------------------------------------------
// Properties that keep these classes closed.

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// `cases` random cases; failing seeds are kept in `proptest-regressions/limits.txt`.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/limits.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// The edit distance by the full matrix, as it was first written.
fn full_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let mut best = (d[(i - 1) * w + j - 1] + usize::from(a[i - 1] != b[j - 1]))
                    .min(d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * w + b.len()]
}

/// Short words over a small alphabet, so that near misses are common.
fn word() -> impl Strategy<Value = String> {
    "[abAB1c]{0,9}"
}

/// An integer expression over extreme values and the counter `c`.
fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("-9223372036854775808".to_string()),
        Just("9223372036854775807".to_string()),
        Just("-1".to_string()),
        Just("0".to_string()),
        Just("2".to_string()),
        Just("c".to_string()),
        Just("here".to_string()),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        (
            prop_oneof![Just('+'), Just('-'), Just('*'), Just('/')],
            inner.clone(),
            inner,
        )
            .prop_map(|(op, a, b)| format!("({op} {a} {b})"))
    })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn the_banded_distance_is_the_full_distance(a in word(), b in word()) {
        prop_assert_eq!(zrf::suggest::edit_distance(&a, &b), full_distance(&a, &b));
    }

    #[test]
    fn the_index_suggests_what_the_scan_suggests(
        names in prop::collection::vec(word(), 0..30),
        typo in word(),
    ) {
        let index = zrf::suggest::NameIndex::new(names.iter().map(String::as_str));
        prop_assert_eq!(
            index.nearest(&typo),
            zrf::suggest::nearest(&typo, names.iter().map(String::as_str))
        );
    }

    #[test]
    fn setups_never_panic_and_stay_bounded(
        fields in prop::collection::vec(
            prop_oneof![
                (any::<i64>()).prop_map(|n| format!("off A P {n}")),
                (any::<u32>()).prop_map(|n| format!("off B P {n}")),
                (any::<i64>()).prop_map(|n| format!("counter c {n}")),
                (any::<i64>()).prop_map(|n| format!("turn {n}")),
                Just("A P a1 b2!".to_string()),
                Just("last a1 zz".to_string()),
            ],
            0..6,
        ),
    ) {
        let text = small_game(
            "(piece (name P) (moves (n add)))",
            "(counter c (start 5))",
        );
        let rules = rules_of("t.zrf", text.as_bytes(), 0);
        let setup = format!("turn 0; {}", fields.join("; "));
        if let Ok(pos) = zrf::setup::parse(&rules, &setup) {
            prop_assert!(pos.store.iter().all(|&n| n <= zrf::def::MAX_OFF));
        }
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn rules_arithmetic_never_panics(set in expr(), goal in expr()) {
        let text = small_game(
            &format!("(piece (name P) (moves (n (set c {set}) (verify (>= {goal} c)) add) (s add)))"),
            &format!("(counter c) (board-setup (A (P a2)) (B (P c2))) (draw-condition (A B) (= c {goal}))"),
        );
        let rules = rules_of("t.zrf", text.as_bytes(), 0);
        let pos = rules.initial();
        let mut g = Game::new(rules, pos);
        for _ in 0..4 {
            if g.outcome().is_some() {
                break;
            }
            let Some(m) = g.legal_texts().first().cloned() else { break };
            g.play(&m).expect("a legal move");
        }
    }
}

#[test]
fn the_session_escapes_control_characters_and_skips_long_suggestions() {
    let files = MemFiles(vec![("e.zrf".into(), endless_drops())]);
    let mut s = zrf::repl::Session::open("e.zrf", &files, None, None).expect("opens");
    let out = s.run_line("variant \u{1b}[2J", &files);
    assert!(out.error);
    assert!(!out.text.contains('\u{1b}'), "{:?}", out.text);
    assert!(out.text.contains("\\u{1b}[2J"), "{:?}", out.text);
    // A line of 10 MB is refused as a whole; a word of 500 KB gets no "did you mean".
    let out = s.run_line(&"x".repeat(10_000_000), &files);
    assert_eq!(
        out.text,
        "error: the line is 10000000 bytes long; a line may hold at most 1000000\n"
    );
    let t = Instant::now();
    let out = s.run_line(&"x".repeat(500_000), &files);
    assert!(out.error);
    assert!(!out.text.contains("did you mean"));
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}

#[test]
fn ten_thousand_typos_on_a_big_board_are_suggested_quickly() {
    let files: Vec<String> = (0..200).map(|i| format!("f{i}")).collect();
    let ranks: Vec<String> = (0..200).map(|i| format!("r{i}")).collect();
    // Typos: `g` for `f`, every 4th one also with a rank past the board.
    let typos: Vec<String> = (0..10_000)
        .map(|k| {
            let rank = (k * 7) % 200 + if k % 4 == 0 { 300 } else { 0 };
            format!("g{}r{rank}", k % 200)
        })
        .collect();
    let text = format!(
        r#"(game (title "Big") (players A B) (turn-order A B)
 (board (grid (dimensions ("{}" (1 0)) ("{}" (0 1))) (directions (n 0 -1))))
 (board-setup (A (P {})))
 (piece (name P) (moves (n add))))
"#,
        files.join("/"),
        ranks.join("/"),
        typos.join(" ")
    );
    let t = Instant::now();
    let loaded = zrf::load("t.zrf", text.as_bytes(), &NoFiles);
    let (_, diags) = zrf::resolve_game(&loaded.games[0]);
    let took = t.elapsed();
    assert_eq!(diags.len(), 10_000);
    assert_eq!(diags[1].message, "unknown position `g1r7`");
    assert_eq!(diags[1].help.as_deref(), Some("did you mean `f1r7`?"));
    // Six characters allow two edits: `g` for `f`, one `0` too many.
    assert_eq!(diags[0].message, "unknown position `g0r300`");
    assert_eq!(diags[0].help.as_deref(), Some("did you mean `f0r30`?"));
    // Every typo is within its allowed edits of some position (a rank past the board loses a
    // digit: `g4r328` is two edits from `f4r28`).
    assert_eq!(diags.iter().filter(|d| d.help.is_some()).count(), 10_000);
    // Scanning every position for every typo took minutes in a debug build.
    assert!(took < Duration::from_secs(60), "{took:?}");
}

#[test]
fn a_runaway_after_move_program_is_cut_too() {
    let text = small_game(
        "(piece (name P) (moves (n add) (s add)))",
        "(counter c) (board-setup (A (P a2))) (after-move (while true (inc c) add))",
    );
    let loaded = zrf::load("t.zrf", text.as_bytes(), &NoFiles);
    let (def, diags) = zrf::resolve_game(&loaded.games[0]);
    let Some(def) = def else {
        // Refusing `add` in `after-move` would do as well.
        assert!(zrf::diagnostic::has_errors(&diags));
        return;
    };
    let rules = zrf::engine::Rules::new(def);
    let pos = rules.initial();
    let mut g = Game::new(rules, pos);
    let t = Instant::now();
    g.play("a2-a3").expect("legal");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    // `inc` reads the counter as it was before the move, so however long the loop ran, it
    // ends at 1.
    assert_eq!(g.pos.counters[0], 1);
}

/// A game with `n_types` piece types on a `width` x `width` board, every type with the move
/// block `moves`, and a royal piece (so that the engine derives its attack tables).
fn many_types(n_types: usize, width: usize, moves: &str) -> String {
    let files: Vec<String> = (0..width).map(|i| format!("f{i}")).collect();
    let ranks: Vec<String> = (0..width).map(|i| format!("r{i}")).collect();
    let mut text = format!(
        "(game (title \"Big\") (players White Black) (turn-order White Black)\n\
         (board (grid (dimensions (\"{}\" (1 0)) (\"{}\" (0 1)))\n\
         (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))\n",
        files.join("/"),
        ranks.join("/")
    );
    for i in 0..n_types {
        text.push_str(&format!("(piece (name P{i}) (moves {moves}))\n"));
    }
    let last = width - 1;
    text.push_str(&format!(
        "(board-setup (White (P0 f0r0)) (Black (P0 f{last}r{last})))\n\
         (win-condition (White Black) (checkmated P0)))\n"
    ));
    text
}

#[test]
fn attack_tables_stay_within_their_limit() {
    use zrf::engine::attack::{Attacks, MAX_BYTES};
    // Forty types whose block could capture anywhere (`from` jumps to a square the tables
    // cannot know) on a 50x50 board: an entry per player, start and target square, 6 bytes
    // each, 3 GB in all. The tables are dropped once past the limit.
    let text = many_types(40, 50, "(from n add) (n (verify enemy?) n add)");
    let rules = rules_of("big.zrf", text.as_bytes(), 0);
    assert!(rules.attacks.capped);
    assert!(!rules.attacks.usable);
    assert_eq!(rules.attacks.bytes(), 0);
    let out = zrf::summary::describe_rules(&rules);
    assert!(
        out.contains("the attack tables of this game would take over 128 MB"),
        "{out:.2000}"
    );
    // Six types on 20x20, within the limit: the tables are kept, and hold what was counted.
    let text = many_types(6, 20, "(from n add) (n (verify enemy?) n add)");
    let rules = rules_of("small.zrf", text.as_bytes(), 0);
    assert!(!rules.attacks.capped && rules.attacks.usable);
    // 6 types x 2 players x 400 starts x 400 targets, plus the leaps of the second block.
    let entries: usize = rules.attacks.irregular_to.iter().map(Vec::len).sum();
    assert_eq!(entries, 6 * 2 * 400 * 400 + 6 * 2 * 360);
    assert!(rules.attacks.bytes() < MAX_BYTES);
    // The same game under a limit it passes gets capped tables.
    assert!(Attacks::with_limit(&rules.def, 1 << 20).capped);
}

#[test]
fn capped_attack_tables_give_the_same_moves() {
    // Kiwipete (checks, pins, castling through attacked squares) with the tables and without:
    // the published perft either way (chessprogramming wiki "Perft Results").
    let mut rules = common::rules("games/chess.zrf", None);
    let setup = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut pos = zrf::setup::parse(&rules, setup).expect("setup");
    assert!(rules.attacks.usable && !rules.attacks.capped);
    assert_eq!(rules.perft(&mut pos, 2), 2039);
    rules.attacks = zrf::engine::attack::Attacks::with_limit(&rules.def, 0);
    assert!(rules.attacks.capped && !rules.attacks.usable);
    assert_eq!(rules.perft(&mut pos, 2), 2039);
}

#[test]
fn piece_values_of_many_types_on_a_big_board_are_coarse() {
    use zrf::ai::eval::{Evaluator, FINE_CELLS};
    // 2 players x 160 types x 14,400 squares = 4.6 million entries, past the square tables'
    // limit: one worth per player and type instead.
    let text = many_types(
        160,
        120,
        "(n (verify not-friend?) add) (e e (verify not-friend?) add)",
    )
    .replace("(checkmated P0)", "(pieces-remaining 0)");
    let rules = rules_of("big.zrf", text.as_bytes(), 0);
    const { assert!(2 * 160 * 120 * 120 > FINE_CELLS) };
    let ev = Evaluator::new(&rules);
    assert!(ev.coarse);
    assert_eq!(ev.values.len(), 160);
    assert!(
        ev.values.iter().all(|v| v.value == 1.0),
        "every type moves alike"
    );
}

/// A two-player game on a `cols` x `rows` grid with `dirs` directions in its grid and `links`
/// more declared by `links` forms.
fn many_directions(cols: usize, rows: usize, dirs: usize, links: usize) -> String {
    let labels = |n: usize, p: &str| (0..n).map(|i| format!("{p}{i}")).collect::<Vec<_>>();
    let directions: Vec<String> = (0..dirs)
        .map(|k| format!("(d{k} {} {})", k % 7, k / 7 % 7))
        .collect();
    let forms: Vec<String> = (0..links)
        .map(|k| format!("(links l{k} (c0r0 c1r0))"))
        .collect();
    format!(
        "(game (title \"Big\") (players A B) (turn-order A B)\n \
         (board (grid (dimensions (\"{}\" (1 0)) (\"{}\" (0 1))) (directions {}))\n  {})\n \
         (piece (name P)))\n",
        labels(cols, "c").join("/"),
        labels(rows, "r").join("/"),
        directions.join(" "),
        forms.join(" ")
    )
}

#[test]
fn direction_tables_past_the_limit_are_refused_where_the_directions_are_declared() {
    use zrf::resolve::MAX_LINK_TABLE;
    assert_eq!(MAX_LINK_TABLE, 4_000_000);
    // A 240x250 board with 4,000 directions (70 KB of text) used to take 5 GB and ten
    // seconds: 60,000 positions x 2 players allow 33 directions, and the 34th is refused
    // before any link is stored.
    let text = many_directions(240, 250, 4000, 0);
    let col = text
        .lines()
        .nth(1)
        .and_then(|l| l.find("(d33 "))
        .expect("d33")
        + 1;
    let (map, diags) = zrf::check_source("t.zrf", text.as_bytes(), &NoFiles);
    let out = render(&map, &diags, RenderOptions { color: false });
    assert!(out.contains(&format!("t.zrf:2:{col}")), "{out:.2000}");
    assert!(
        out.contains(
            "the board's direction table is too large: 60000 positions × 34 directions × 2 players = 4080000 links"
        ),
        "{out:.2000}"
    );
    assert_eq!(
        diags[0].primary.text,
        "direction `d33` is direction number 34"
    );
    assert!(
        out.contains("a board may have at most 4000000 links (players × directions × positions)"),
        "{out:.2000}"
    );
    // A table at the limit loads: 50x40 positions, 1,000 directions, 2 players.
    let loaded = zrf::load(
        "t.zrf",
        many_directions(50, 40, 1000, 0).as_bytes(),
        &NoFiles,
    );
    let (def, diags) = zrf::resolve_game(&loaded.games[0]);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(def.expect("resolves").board.next.len(), MAX_LINK_TABLE);
    // Directions declared by `links` forms count too: the 34th is refused at its form.
    let text = many_directions(240, 250, 1, 40);
    let (map, diags) = zrf::check_source("t.zrf", text.as_bytes(), &NoFiles);
    let out = render(&map, &diags, RenderOptions { color: false });
    let col = text
        .lines()
        .nth(2)
        .and_then(|l| l.find("(links l32 "))
        .expect("l32")
        + 1;
    assert!(out.contains(&format!("t.zrf:3:{col}")), "{out:.2000}");
    assert_eq!(
        diags[0].primary.text,
        "direction `l32` is direction number 34"
    );
}

/// A 100x100 board where a drop adds its move, then loops until the per-block instruction limit
/// stops it: a million instructions on each of 10,000 squares.
fn looping_drops() -> String {
    let labels = |p: &str| {
        (0..100)
            .map(|i| format!("{p}{i}"))
            .collect::<Vec<_>>()
            .join("/")
    };
    format!(
        "(game (title \"Loop\") (players A B) (turn-order A B)\n \
         (board (grid (dimensions (\"{}\" (1 0)) (\"{}\" (0 1))) (directions (n 0 -1))))\n \
         (board-setup (A (S off 10)) (B (S off 10)))\n \
         (piece (name S) (drops ((verify empty?) add (while true (set-flag f true)))))\n \
         (draw-condition (A B) stalemated))\n",
        labels("c"),
        labels("r")
    )
}

#[test]
fn one_generation_has_a_total_work_budget() {
    use zrf::engine::{Cut, Scratch, GEN_WORK_LIMIT, STEP_LIMIT};
    assert_eq!(GEN_WORK_LIMIT, 10 * STEP_LIMIT as u64);
    // Without the budget a generation ran 10,000 blocks of a million instructions (about 100
    // seconds). With it, blocks stop running once the generation has done GEN_WORK_LIMIT
    // work: the first ten drop squares, each a million instructions, give their move.
    let rules = rules_of("t.zrf", looping_drops().as_bytes(), 0);
    let mut pos = rules.initial();
    let mut moves = zrf::engine::MoveList::new();
    rules.legal_moves(&mut pos, &mut moves);
    assert_eq!(
        zrf::notation::move_texts(&rules.def, &moves),
        (0..10).map(|i| format!("S@c{i}r0")).collect::<Vec<_>>()
    );
    // The first limit reached is named: each block's own.
    assert_eq!(moves.cut, Some(Cut::Steps));
    // The budget holds for each generation, the same ten moves every time.
    rules.legal_moves(&mut pos, &mut moves);
    assert_eq!(moves.len(), 10);
    // Single steps (the computer player's derivations, `Rules::gen_steps`) have it too.
    let mut scratch = Scratch::default();
    moves.clear();
    let side = rules.entry(pos.turn).owner;
    rules.gen_steps(&pos, side, None, u16::MAX, &mut scratch, &mut moves);
    assert_eq!(moves.len(), 10);
    assert!(
        (GEN_WORK_LIMIT..GEN_WORK_LIMIT + STEP_LIMIT as u64 + 100).contains(&scratch.work),
        "{}",
        scratch.work
    );
    // Each game can play on: the whole game is cut and reported, not hung.
    assert_eq!(zrf::summary::runaway(&rules), Some(Cut::Steps));
}
