//! The `zrf` command line, run as a separate process: exit codes, what goes to stdout and
//! what to stderr, and variant selection.
//!
//! Exit codes: 0 when the file loads (warnings allowed), 1 when it has errors, 2 for a usage
//! problem (a missing file, an unknown flag, an unknown variant).

use std::path::Path;
use std::process::{Command, Output};

mod common;

use common::TempDir;

/// A small valid game with one variant, written inline so the tests need no other file.
const TIC_TAC_TOE: &str = r#"; A valid game with a variant, for the command-line tests.
(define drop-anywhere ((verify empty?) add))

(game
  (title "Tic-Tac-Toe")
  (players X O)
  (turn-order X O)
  (board
    (grid
      (start-rectangle 0 0 60 60)
      (dimensions ("a/b/c" (60 0)) ("3/2/1" (0 60)))
      (directions (n 0 -1) (e 1 0) (ne 1 -1) (se 1 1))))
  (board-setup (X (man off 5)) (O (man off 4)))
  (piece
    (name man)
    (drops (drop-anywhere)))
  (win-condition (X O)
    (or (relative-config man n man n man)
        (relative-config man e man e man)
        (relative-config man ne man ne man)
        (relative-config man se man se man)))
  (draw-condition (X O) stalemated))

(variant
  (title "Misere Tic-Tac-Toe")
  (loss-condition (X O)
    (or (relative-config man n man n man)
        (relative-config man e man e man)
        (relative-config man ne man ne man)
        (relative-config man se man se man)))
  (draw-condition (X O) stalemated))
"#;

/// What one run of the binary did.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn zrf(args: &[&str]) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("run the zrf binary");
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

fn check(path: &Path, extra: &[&str]) -> Run {
    let path = path.to_str().expect("a UTF-8 temp path");
    let mut args = vec!["check", path];
    args.extend_from_slice(extra);
    zrf(&args)
}

#[test]
fn valid_file_exits_0_and_prints_a_summary() {
    let dir = TempDir::new("valid");
    let file = dir.write("ttt.zrf", TIC_TAC_TOE);
    let run = check(&file, &[]);
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert!(run.stdout.contains("title: Tic-Tac-Toe"), "{}", run.stdout);
    assert!(run.stdout.contains("players: X, O"), "{}", run.stdout);
    assert!(
        run.stderr.is_empty(),
        "a clean file prints nothing on stderr: {}",
        run.stderr
    );
}

#[test]
fn broken_file_exits_1_with_the_diagnostic_on_stderr() {
    let dir = TempDir::new("broken");
    let text = TIC_TAC_TOE.replace("(turn-order X O)", "(turn-order X Oh)");
    let file = dir.write("broken.zrf", &text);
    let run = check(&file, &[]);
    assert_eq!(run.code, Some(1), "stderr:\n{}", run.stderr);
    let err = &run.stderr;
    assert!(err.contains("error: unknown player `Oh`"), "{err}");
    // File, line and column of the `Oh`, the line itself and a caret under it.
    assert!(err.contains("broken.zrf:7:17"), "{err}");
    assert!(err.contains("(turn-order X Oh)"), "{err}");
    assert!(err.contains("^^"), "{err}");
    assert!(err.contains("1 error(s)"), "{err}");
    assert!(
        !err.contains('\x1b'),
        "no colour when stderr is not a terminal: {err:?}"
    );
    assert!(
        !run.stdout.contains("title:"),
        "no summary for a broken file: {}",
        run.stdout
    );
}

#[test]
fn every_error_of_a_file_is_reported_in_one_run() {
    let dir = TempDir::new("several");
    let text = TIC_TAC_TOE
        .replace("(turn-order X O)", "(turn-order X Oh)")
        .replace(
            "(draw-condition (X O) stalemated))\n\n",
            "(draw-condition (X O) stalemate))\n\n",
        )
        .replace("(verify empty?)", "(verify emtpy?)");
    let file = dir.write("several.zrf", &text);
    let run = check(&file, &[]);
    assert_eq!(run.code, Some(1), "stderr:\n{}", run.stderr);
    for needle in ["`Oh`", "`stalemate`", "`emtpy?`", "3 error(s)"] {
        assert!(run.stderr.contains(needle), "{needle} in:\n{}", run.stderr);
    }
}

#[test]
fn warnings_alone_exit_0() {
    let dir = TempDir::new("warning");
    let text = TIC_TAC_TOE.replace(
        "(turn-order X O)",
        "(turn-order X O)\n  (option \"pass trun\" true)",
    );
    let file = dir.write("warn.zrf", &text);
    let run = check(&file, &[]);
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert!(
        run.stderr.contains("warning: unknown option"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("did you mean `pass turn`?"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("title: Tic-Tac-Toe"), "{}", run.stdout);
}

#[test]
fn includes_are_read_beside_the_file() {
    let dir = TempDir::new("include");
    dir.write(
        "macros.inc",
        "(define drop-anywhere ((verify empty?) add))\n",
    );
    let text = TIC_TAC_TOE.replace(
        "(define drop-anywhere ((verify empty?) add))",
        "(include \"macros.inc\")",
    );
    let file = dir.write("main.zrf", &text);
    let run = check(&file, &[]);
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert!(run.stdout.contains("title: Tic-Tac-Toe"), "{}", run.stdout);
}

#[test]
fn missing_file_exits_2() {
    let dir = TempDir::new("missing");
    let run = check(&dir.0.join("no-such-file.zrf"), &[]);
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    assert!(run.stderr.contains("no-such-file.zrf"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

#[test]
fn unknown_flag_exits_2() {
    let dir = TempDir::new("flag");
    let file = dir.write("ttt.zrf", TIC_TAC_TOE);
    let run = check(&file, &["--no-such-flag"]);
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert!(run.stderr.contains("--no-such-flag"), "{}", run.stderr);
}

#[test]
fn no_subcommand_exits_2() {
    let run = zrf(&[]);
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert!(
        run.stderr.contains("check"),
        "the usage names `check`: {}",
        run.stderr
    );
}

#[test]
fn list_variants_numbers_games_and_variants() {
    let dir = TempDir::new("list");
    let file = dir.write("ttt.zrf", TIC_TAC_TOE);
    let run = check(&file, &["--list-variants"]);
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert_eq!(
        run.stdout,
        "  1. Tic-Tac-Toe (default)  [game]\n  2. Misere Tic-Tac-Toe  [variant]\n"
    );
}

#[test]
fn variant_is_selected_by_number() {
    let dir = TempDir::new("by-number");
    let file = dir.write("ttt.zrf", TIC_TAC_TOE);
    let run = check(&file, &["--variant", "2"]);
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert!(
        run.stdout.contains("title: Misere Tic-Tac-Toe"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("loss for X, O"), "{}", run.stdout);
}

#[test]
fn variant_is_selected_by_title_in_any_case() {
    let dir = TempDir::new("by-title");
    let file = dir.write("ttt.zrf", TIC_TAC_TOE);
    let run = check(&file, &["--variant", "MISERE tic-tac-toe"]);
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert!(
        run.stdout.contains("title: Misere Tic-Tac-Toe"),
        "{}",
        run.stdout
    );
}

#[test]
fn unknown_variant_exits_2_with_a_suggestion() {
    let dir = TempDir::new("unknown-variant");
    let file = dir.write("ttt.zrf", TIC_TAC_TOE);
    let run = check(&file, &["--variant", "Misery Tic-Tac-Toe"]);
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert!(
        run.stderr.contains("did you mean `Misere Tic-Tac-Toe`?"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("title:"), "{}", run.stdout);

    let run = check(&file, &["--variant", "3"]);
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert!(run.stderr.contains("no variant number 3"), "{}", run.stderr);
}

#[test]
fn new_writes_a_starter_game_that_loads_and_plays() {
    let dir = TempDir::new("new");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_zrf"))
            .args(args)
            .current_dir(&dir.0)
            .output()
            .expect("zrf runs")
    };
    assert!(run(&["new", "Racer"]).status.success());
    let check = run(&["check", "Racer.zrf"]);
    assert!(check.status.success());
    assert!(
        check.stderr.is_empty(),
        "no warnings: {}",
        String::from_utf8_lossy(&check.stderr)
    );
    let perft = run(&["perft", "Racer.zrf", "2"]);
    assert_eq!(String::from_utf8_lossy(&perft.stdout), "1 9\n2 81\n");
    // A second `new` with the same name refuses to overwrite.
    assert_eq!(run(&["new", "Racer"]).status.code(), Some(2));
}

#[test]
fn test_runs_the_cases_of_the_shipped_games() {
    for (file, summary) in [
        ("games/english-draughts.zrf", "9 passed, 0 failed\n"),
        ("games/tic-tac-toe.zrf", "6 passed, 0 failed\n"),
        ("games/capablanca.zrf", "5 passed, 0 failed\n"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_zrf"))
            .args(["test", file])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("zrf runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert!(text.ends_with(summary), "{text}");
    }
}

#[test]
fn test_reports_a_failing_case_with_the_difference() {
    let dir = TempDir::new("tests");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("games/checkers.zrf"), dir.0.join("c.zrf")).expect("copy");
    dir.write(
        "c.tests",
        "(test \"wrong\" (expect-moves \"9-13\"))\n(test \"right\" (perft 1 7))\n",
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(["test", "c.zrf"])
        .current_dir(&dir.0)
        .output()
        .expect("zrf runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(text.contains("FAIL c.tests:1:1: wrong"), "{text}");
    assert!(text.contains("unexpected [\"10-14\""), "{text}");
    assert!(text.ends_with("1 passed, 1 failed\n"), "{text}");
}

fn selfplay(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zrf"))
        .arg("selfplay")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("zrf runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn selfplay_prints_a_results_table_per_side() {
    let (ok, text, err) = selfplay(&[
        "games/tic-tac-toe.zrf",
        "--games",
        "6",
        "--engine",
        "depth 9",
        "--vs",
        "random",
        "--random-plies",
        "0",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Tic-Tac-Toe");
    assert_eq!(lines[1], "A = alphabeta depth 9 opponent random");
    assert_eq!(lines[2], "B = random");
    // The perfect player never loses tic-tac-toe, from either side.
    let all: Vec<&str> = lines
        .iter()
        .find(|l| l.starts_with("all "))
        .expect("a total row")
        .split_whitespace()
        .collect();
    assert_eq!(all[1], "6", "{text}");
    assert_eq!(all[4], "0", "no loss: {text}");
    assert!(lines.iter().any(|l| l.starts_with("X ")), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("O ")), "{text}");
}

#[test]
fn selfplay_is_reproducible_from_its_seed() {
    let args = [
        "games/checkers.zrf",
        "--games",
        "2",
        "--engine",
        "depth 2",
        "--vs",
        "nodes 300",
        "--seed",
        "7",
        "--max-plies",
        "60",
        "--verbose",
    ];
    let (ok, first, err) = selfplay(&args);
    assert!(ok, "{err}");
    let (_, second, _) = selfplay(&args);
    assert_eq!(first, second);
    assert!(first.starts_with("game 1 (A Black): "), "{first}");
    // Another seed opens differently.
    let mut other = args;
    other[8] = "8";
    let (_, third, _) = selfplay(&other);
    assert_ne!(first.lines().next(), third.lines().next());
}

#[test]
fn selfplay_refuses_a_bad_setting() {
    let (ok, _, err) = selfplay(&["games/chess.zrf", "--vs", "depth two"]);
    assert!(!ok);
    assert!(err.contains("bad depth `two`"), "{err}");
}

#[test]
fn selfplay_tells_an_engine_facing_the_random_mover_unless_told_otherwise() {
    let run = |engine: &str| {
        let (ok, text, err) = selfplay(&[
            "games/tic-tac-toe.zrf",
            "--games",
            "2",
            "--engine",
            engine,
            "--vs",
            "random",
        ]);
        assert!(ok, "{err}");
        text.lines().nth(1).unwrap_or_default().to_string()
    };
    assert_eq!(run("nodes 500"), "A = alphabeta nodes 500 opponent random");
    assert_eq!(run("nodes 500 opponent best"), "A = alphabeta nodes 500");
    let (ok, _, err) = selfplay(&["games/chess.zrf", "--engine", "opponent"]);
    assert!(!ok);
    assert!(err.contains("`opponent` needs `random`"), "{err}");
}
