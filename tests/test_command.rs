//! `zrf test` run as a separate process in a temporary folder: snapshot round trips
//! (pending, accepted, passing, failing with a diff after the rules change), failures located
//! at `FILE:LINE:COL`, and every malformed tests file an error rather than a silent pass.
//!
//! The runs use relative paths inside the folder, so the snapshots hold no temporary paths.

use std::path::Path;
use std::process::{Command, Stdio};

mod common;

use common::TempDir;

/// Tic-tac-toe, small enough that every snapshot is short.
const RULES: &str = r#"(game
  (title "Tic-Tac-Toe")
  (players X O)
  (turn-order X O)
  (board
    (grid
      (start-rectangle 0 0 60 60)
      (dimensions ("a/b/c" (60 0)) ("3/2/1" (0 60)))
      (directions (n 0 -1) (e 1 0) (ne 1 -1) (se 1 1))))
  (board-setup (X (man off 5)) (O (man off 4)))
  (piece (name man) (notation "M") (drops ((verify empty?) add)))
  (win-condition (X O)
    (or (relative-config man n man n man) (relative-config man e man e man)
        (relative-config man ne man ne man) (relative-config man se man se man)))
  (draw-condition (X O) stalemated))
"#;

const TESTS: &str = r#"; Snapshot cases.
(test "the empty board"
  (snapshot moves (perft 2)))

(test "after two marks"
  (moves "M@b2 M@a1")
  (snapshot position))
"#;

/// Runs `zrf ARGS` in `dir` and returns the exit code with stdout and stderr, as one text.
fn zrf(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run zrf");
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().map_or("none".into(), |c| c.to_string()),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn read(dir: &TempDir, name: &str) -> String {
    std::fs::read_to_string(dir.0.join(name)).expect("read")
}

#[test]
fn snapshots_go_from_pending_to_accepted_to_failing_with_a_diff() {
    let dir = TempDir::new("snap-round-trip");
    dir.write("ttt.zrf", RULES);
    dir.write("ttt.tests", TESTS);

    // New snapshots are pending: the run fails and says how to record them.
    let pending = zrf(&dir.0, &["test", "ttt.zrf"]);
    assert!(pending.starts_with("exit 1\n"), "{pending}");
    assert!(
        !dir.0.join("ttt.snap").exists(),
        "a plain run writes nothing"
    );
    insta::assert_snapshot!("pending", pending);

    // --accept records them, and passes.
    let accepted = zrf(&dir.0, &["test", "--accept", "ttt.zrf"]);
    assert!(accepted.starts_with("exit 0\n"), "{accepted}");
    insta::assert_snapshot!("accepted", accepted);
    let snap = read(&dir, "ttt.snap");
    assert!(
        snap.contains("=== the empty board [perft 2]\n  1 9\n  2 72\n"),
        "{snap}"
    );
    insta::assert_snapshot!("snap_file", snap);

    // A second run passes and leaves the file alone.
    let passed = zrf(&dir.0, &["test", "ttt.zrf"]);
    assert_eq!(
        passed,
        "exit 0\n--- stdout\nok   ttt.tests: the empty board\nok   ttt.tests: after two marks\n2 passed, 0 failed\n--- stderr\n"
    );
    assert_eq!(read(&dir, "ttt.snap"), snap);

    // The rules change: the board loses its last rank, and the run fails with diffs.
    dir.write(
        "ttt.zrf",
        &RULES
            .replace("\"3/2/1\"", "\"2/1\"")
            .replace("(man off 5)", "(man off 3)")
            .replace("(man off 4)", "(man off 3)"),
    );
    let changed = zrf(&dir.0, &["test", "ttt.zrf"]);
    assert!(changed.starts_with("exit 1\n"), "{changed}");
    assert!(
        changed.contains("FAIL ttt.tests:2:1: the empty board [perft 2]"),
        "{changed}"
    );
    assert!(
        changed.contains("-2 72\n") && changed.contains("+2 30\n"),
        "{changed}"
    );
    insta::assert_snapshot!("changed", changed);
    assert_eq!(read(&dir, "ttt.snap"), snap, "a failing run writes nothing");

    // Accepting again records the new truth; a case removed from the tests file loses its
    // snapshot.
    dir.write("ttt.tests", &TESTS[..TESTS.find("(test \"after").unwrap()]);
    let again = zrf(&dir.0, &["test", "--accept", "ttt.zrf"]);
    assert!(again.starts_with("exit 0\n"), "{again}");
    let snap = read(&dir, "ttt.snap");
    assert!(
        snap.contains("  2 30\n") && !snap.contains("after two marks"),
        "{snap}"
    );
}

#[test]
fn an_expectation_failure_names_the_case_at_file_line_col() {
    let dir = TempDir::new("snap-fail");
    dir.write("ttt.zrf", RULES);
    dir.write(
        "ttt.tests",
        "(test \"nine drops\" (perft 1 9))\n\n  (test \"wrong count\"\n    (perft 2 71))\n",
    );
    let run = zrf(&dir.0, &["test", "ttt.zrf"]);
    assert!(
        run.contains("FAIL ttt.tests:3:3: wrong count\n     perft 2: expected 71, got 72\n"),
        "{run}"
    );
    insta::assert_snapshot!(run);
}

#[test]
fn malformed_tests_files_are_errors() {
    let dir = TempDir::new("snap-errors");
    dir.write("ttt.zrf", RULES);
    for (name, tests) in [
        (
            "checks_nothing",
            "(test \"only a setup\" (moves \"M@a1\"))\n",
        ),
        ("unknown_form", "(test \"typo\" (expect-move \"M@a1\"))\n"),
        ("unknown_snapshot", "(test \"typo\" (snapshot positon))\n"),
        (
            "unclosed_paren",
            "(test \"open\"\n  (perft 1 9)\n(test \"next\" (perft 1 9))\n",
        ),
        ("not_a_test", "(perft 1 9)\n"),
        ("no_name", "(test (perft 1 9))\n"),
        (
            "same_name_twice",
            "(test \"a\" (perft 1 9))\n(test \"a\" (perft 2 72))\n",
        ),
        ("bad_perft", "(test \"p\" (perft 1))\n"),
    ] {
        dir.write("ttt.tests", tests);
        let run = zrf(&dir.0, &["test", "ttt.zrf"]);
        assert!(run.starts_with("exit 1\n"), "{name}: {run}");
        assert!(run.contains("error"), "{name}: {run}");
        insta::assert_snapshot!(name, run);
    }
}

#[test]
fn a_corrupt_snapshot_file_is_an_error_and_is_not_overwritten() {
    let dir = TempDir::new("snap-corrupt");
    dir.write("ttt.zrf", RULES);
    dir.write("ttt.tests", TESTS);
    dir.write("ttt.snap", "=== the empty board [moves]\nM@a1\n");
    let run = zrf(&dir.0, &["test", "--accept", "ttt.zrf"]);
    assert!(run.starts_with("exit 1\n"), "{run}");
    assert!(
        run.contains("ttt.snap: line 2: expected a `===` header"),
        "{run}"
    );
    assert_eq!(
        read(&dir, "ttt.snap"),
        "=== the empty board [moves]\nM@a1\n"
    );
}

#[test]
fn a_rules_file_without_tests_is_an_error() {
    let dir = TempDir::new("snap-none");
    dir.write("ttt.zrf", RULES);
    let run = zrf(&dir.0, &["test", "ttt.zrf"]);
    insta::assert_snapshot!(run);
    assert!(run.starts_with("exit 1\n"), "{run}");
}

#[test]
fn a_folder_is_searched_recursively() {
    let dir = TempDir::new("snap-folder");
    std::fs::create_dir_all(dir.0.join("games/small")).unwrap();
    dir.write("games/small/ttt.zrf", RULES);
    dir.write("games/small/ttt.tests", "(test \"nine\" (perft 1 9))\n");
    dir.write("games/lib.zrf", "(define x y)\n");
    let run = zrf(&dir.0, &["test", "games"]);
    assert_eq!(
        run,
        "exit 0\n--- stdout\nok   games/small/ttt.tests: nine\n1 passed, 0 failed\n--- stderr\n"
    );
    dir.write("games/orphan.tests", "(test \"x\" (perft 1 1))\n");
    let run = zrf(&dir.0, &["test", "games"]);
    assert!(run.starts_with("exit 1\n"), "{run}");
    assert!(run.contains("games/orphan.tests: no rules file"), "{run}");
    let empty = TempDir::new("snap-empty-folder");
    let run = zrf(&empty.0, &["test", "."]);
    assert!(
        run.starts_with("exit 1\n") && run.contains("no tests file"),
        "{run}"
    );
}

#[test]
fn review_refuses_without_a_terminal() {
    let dir = TempDir::new("snap-review");
    dir.write("ttt.zrf", RULES);
    dir.write("ttt.tests", TESTS);
    let run = zrf(&dir.0, &["test", "--review", "ttt.zrf"]);
    insta::assert_snapshot!(run);
    assert!(run.starts_with("exit 2\n"), "{run}");
    assert!(!dir.0.join("ttt.snap").exists());
}

/// Runs `zrf test --review ARGS` in `dir` on a pseudo-terminal (util-linux `script`, in
/// Debian's essential bsdutils), typing `answers`; returns the exit code and everything the
/// terminal showed (the answers echoed among the questions).
fn review(dir: &Path, args: &str, answers: &str) -> (i32, String) {
    use std::io::Write;
    let command = format!("'{}' test --review {args}", env!("CARGO_BIN_EXE_zrf"));
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux `script` runs (it gives zrf a terminal)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(answers.as_bytes())
        .expect("type the answers");
    let out = child.wait_with_output().expect("script ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
    )
}

#[test]
fn review_asks_about_each_change_and_records_only_the_accepted() {
    let dir = TempDir::new("snap-review-tty");
    dir.write("ttt.zrf", RULES);
    dir.write("ttt.tests", TESTS);
    const PROMPT: &str = "accept (a), reject (r) or skip (s)? ";
    // Three new snapshots: an answer that is none of the choices asks again, then the moves
    // are accepted, the perft rejected, the position accepted.
    let (code, shown) = review(&dir.0, "ttt.zrf", "x\na\nr\na\n");
    assert_eq!(code, 1, "a rejected new snapshot stays pending: {shown}");
    assert_eq!(shown.matches(PROMPT).count(), 4, "{shown}");
    assert!(
        shown.contains(
            "new snapshot: ttt.tests:2:1: the empty board [perft 2]\n     +1 9\n     +2 72\n"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("2 snapshot(s) accepted; 1 passed, 0 failed, 1 pending"),
        "{shown}"
    );
    let snap = read(&dir, "ttt.snap");
    assert!(
        snap.contains("=== the empty board [moves]\n  M@a1\n")
            && snap.contains("=== after two marks [position]\n")
            && !snap.contains("[perft 2]"),
        "{snap}"
    );
    // The rules change: the recorded moves differ. Rejecting keeps the old snapshot and the
    // run fails; accepting (the perft, still new, skipped) records the new moves.
    dir.write(
        "ttt.zrf",
        &RULES
            .replace("\"3/2/1\"", "\"2/1\"")
            .replace("(man off 5)", "(man off 3)")
            .replace("(man off 4)", "(man off 3)"),
    );
    let (code, shown) = review(&dir.0, "ttt.zrf", "r\ns\nr\n");
    assert_eq!(code, 1, "{shown}");
    assert!(
        shown.contains("snapshot changed: ttt.tests:2:1: the empty board [moves]"),
        "{shown}"
    );
    assert!(shown.contains("     -M@a3\n"), "{shown}");
    assert_eq!(
        read(&dir, "ttt.snap"),
        snap,
        "nothing accepted, nothing written"
    );
    let (code, shown) = review(&dir.0, "ttt.zrf", "a\ns\na\n");
    assert_eq!(code, 1, "the perft is still pending: {shown}");
    let now = read(&dir, "ttt.snap");
    assert!(
        !now.contains("M@a3") && now.contains("  M@a2\n") && !now.contains("[perft 2]"),
        "{now}"
    );
}

#[test]
fn deny_warnings_fails_check_and_test_on_a_warning() {
    let dir = TempDir::new("snap-deny");
    let rules = RULES.replace(
        "(turn-order X O)",
        "(turn-order X O)\n  (option \"pass trun\" true)",
    );
    dir.write("ttt.zrf", &rules);
    dir.write("ttt.tests", "(test \"nine\" (perft 1 9))\n");
    assert!(zrf(&dir.0, &["check", "ttt.zrf"]).starts_with("exit 0\n"));
    assert!(zrf(&dir.0, &["test", "ttt.zrf"]).starts_with("exit 0\n"));
    let check = zrf(&dir.0, &["check", "--deny-warnings", "ttt.zrf"]);
    assert!(check.starts_with("exit 1\n"), "{check}");
    assert!(
        check.contains("1 warning(s), denied by --deny-warnings"),
        "{check}"
    );
    let test = zrf(&dir.0, &["test", "--deny-warnings", "ttt.zrf"]);
    assert!(test.starts_with("exit 1\n"), "{test}");
    assert!(test.contains("warnings are denied"), "{test}");
}

#[test]
fn a_case_past_its_work_budget_fails_saying_so() {
    let dir = TempDir::new("budget");
    let checkers =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/checkers.zrf"))
            .expect("checkers");
    dir.write("checkers.zrf", &checkers);
    // Perft 12 of checkers would generate the moves of about 10^11 positions. Within 10,000:
    // depths 1 to 5 generate 1 + 8 + 57 + 359 + 1,828 = 2,253 (each depth all the positions
    // above it: 1, 7, 49, 302, 1,469), and depth 6 would need 9,189.
    dir.write(
        "checkers.tests",
        "(test \"deep\" (perft 12 1))\n(test \"shallow\" (perft 3 302))\n",
    );
    let run = zrf(&dir.0, &["test", "checkers.zrf", "--max-nodes", "10000"]);
    assert!(run.starts_with("exit 1\n"), "{run}");
    assert!(
        run.contains(
            "FAIL checkers.tests:1:1: deep\n     perft 6 would generate the moves of 9189 positions, \
             more than the 7747 left of this case's budget (zrf test --max-nodes)\n"
        ),
        "{run}"
    );
    // The budget is per case: the next one starts afresh and passes.
    assert!(run.contains("1 passed, 1 failed"), "{run}");
    // Snapshots of perft share the case's budget: (perft 3) needs 1 + 8 + 57 = 66.
    dir.write(
        "checkers.tests",
        "(test \"snap\" (perft 1 7) (snapshot (perft 3)))\n",
    );
    let run = zrf(&dir.0, &["test", "checkers.zrf", "--max-nodes", "60"]);
    assert!(
        run.contains(
            "perft 3 would generate the moves of 57 positions, more than the 50 left of this case's budget"
        ),
        "{run}"
    );
    let run = zrf(
        &dir.0,
        &["test", "checkers.zrf", "--max-nodes", "67", "--accept"],
    );
    assert!(run.starts_with("exit 0\n"), "{run}");
    assert!(read(&dir, "checkers.snap").contains("  1 7\n  2 49\n  3 302\n"));
    // The default budget, a million positions, is in the help.
    let help = zrf(&dir.0, &["test", "--help"]);
    assert!(help.contains("[default: 1000000]"), "{help}");
}
