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
fn perft_only_counts_the_last_depth() {
    // English checkers: 7, 49, 302 (published); `--only` prints depth 3 alone.
    let all = zrf(&["perft", "games/checkers.zrf", "3"]);
    assert_eq!(all.stdout, "1 7\n2 49\n3 302\n");
    let only = zrf(&["perft", "games/checkers.zrf", "3", "--only"]);
    assert_eq!((only.code, only.stdout.as_str()), (Some(0), "3 302\n"));
}

#[test]
fn test_runs_the_cases_of_the_shipped_games() {
    for (file, summary) in [
        ("games/english-draughts.zrf", "9 passed, 0 failed\n"),
        ("games/tic-tac-toe.zrf", "6 passed, 0 failed\n"),
        ("games/checkers.zrf", "4 passed, 0 failed\n"),
        ("games/international-draughts.zrf", "11 passed, 0 failed\n"),
        ("games/polish-draughts.zrf", "4 passed, 0 failed\n"),
        ("games/russian-draughts.zrf", "7 passed, 0 failed\n"),
        ("games/capablanca.zrf", "5 passed, 0 failed\n"),
        ("games/frisian-draughts.zrf", "8 passed, 0 failed\n"),
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

#[test]
fn moves_san_lists_algebraic_notation_with_check_marks() {
    let r = zrf(&[
        "moves",
        "games/chess.zrf",
        "--san",
        "--setup",
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let moves: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(moves.len(), 30);
    assert!(moves.contains(&"Qh4#"), "{moves:?}");
    assert!(moves.contains(&"Nc6"), "{moves:?}");
    let r = zrf(&["moves", "games/checkers.zrf", "--san"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("no algebraic notation"), "{}", r.stderr);
}

#[test]
fn replay_reads_pgn_and_pdn_and_picks_a_game_of_several() {
    let dir = TempDir::new("cli-records");
    let pgn = dir.write(
        "two.pgn",
        "[Event \"a\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
         [Event \"b\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n1. e4 d5 2. exd5 Qxd5 *\n",
    );
    let p = pgn.to_str().expect("UTF-8");
    // The record names no rules file: the variant's shipped game is found in games/.
    let r = zrf(&["replay", p]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains("result: Black wins (checkmated)"),
        "{}",
        r.stdout
    );
    assert!(r
        .stderr
        .contains("the record says the result is `1-0`; its moves give `0-1`"));
    let r = zrf(&["replay", p, "--game", "2"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains("In hand: White 1 Pawn; Black 1 Pawn."),
        "{}",
        r.stdout
    );
    let r = zrf(&["replay", p, "--game", "3"]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("there is no game 3"), "{}", r.stderr);
    // A PDN without tags plays the rules given.
    let pdn = dir.write("plain.pdn", "1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n");
    let p = pdn.to_str().expect("UTF-8");
    let r = zrf(&["replay", p]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("names no game"), "{}", r.stderr);
    let r = zrf(&["replay", p, "--rules", "games/russian-draughts.zrf"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("Last move: g7xe5."), "{}", r.stdout);
    // A bad move names its number.
    let bad = dir.write("bad.pgn", "[Variant \"Standard\"]\n1. e4 e5 2. Ke3 *\n");
    let r = zrf(&["replay", bad.to_str().expect("UTF-8")]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("move 3 (2. Ke3)"), "{}", r.stderr);
}

/// Records that name no rules file, or only a shipped one by its bare name, replay in a folder
/// without `games/` from the games built into zrf (PGN: chess or its `Variant`; PDN: its
/// `GameType`); `zrf replay` ends with the final FEN, PDN FEN or position text; `zrf play` takes
/// `--rules` for a record too.
#[test]
fn records_replay_anywhere_with_the_shipped_games_and_print_the_final_fen() {
    let dir = TempDir::new("cli-shipped");
    dir.write("plain.pgn", "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n");
    dir.write(
        "house.pgn",
        "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n",
    );
    dir.write("named.game", "[Game \"chess.zrf\"]\n\n1. e2-e4 e7-e5\n");
    dir.write(
        "ten.pdn",
        "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n",
    );
    dir.write("ttt.game", "[Game \"tic-tac-toe.zrf\"]\n\n1. a1 b2\n");
    for (file, want) in [
        (
            "plain.pgn",
            "fen: r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        ),
        (
            "house.pgn",
            "fen: rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 0 3",
        ),
        (
            "named.game",
            "fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
        ),
        (
            "ten.pdn",
            "fen: W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:\
             B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23",
        ),
    ] {
        let run = zrf_within(&["replay", file], &dir.0, 60);
        assert_eq!(run.code, Some(0), "{file}: {}", run.stderr);
        assert!(
            run.stdout.lines().any(|l| l == want),
            "{file}: {}",
            run.stdout
        );
    }
    let run = zrf_within(&["replay", "ttt.game"], &dir.0, 60);
    assert!(
        run.stdout
            .lines()
            .any(|l| l == "fen: 3/1m1/M2[MMMMmmm] w - - 0 2"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    // `zrf play RECORD --rules FILE`: a PGN without a Variant plays the file's default game.
    let rules = std::fs::canonicalize("games/halfgi.zrf").expect("halfgi");
    let mut child = Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(["play", "plain.pgn", "--rules"])
        .arg(&rules)
        .current_dir(&dir.0)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("zrf runs");
    assert_eq!(child.status.code(), Some(1), "Halfgi has no knight");
    let err = String::from_utf8_lossy(&child.stderr);
    assert!(err.contains("move 3 (2. Nf3)"), "{err}");
    dir.write("half.pgn", "[Event \"a\"]\n\n1. e4 e5 *\n");
    child = Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(["play", "half.pgn", "--rules"])
        .arg(&rules)
        .current_dir(&dir.0)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("zrf runs");
    let out = String::from_utf8_lossy(&child.stdout);
    assert_eq!(child.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with("Halfgi: ") && out.contains("Last move: e5"),
        "{out}"
    );
    let run = zrf_within(&["play", "games/chess.zrf", "--rules", "x.zrf"], &dir.0, 20);
    assert_eq!(run.code, Some(2), "--rules is for records");
}

/// A start position with no legal move and no goal for it (the corpus' Hex) is warned about;
/// a playable game gets no such warning.
#[test]
fn check_warns_when_nothing_can_be_played_at_the_start() {
    let r = zrf(&["check", "tests/corpus/dagaz/arrange/hex.zrf"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "warning: tests/corpus/dagaz/arrange/hex.zrf: the start position: Red has no legal move"
        ),
        "{}",
        r.stderr
    );
    let r = zrf(&["check", "games/tic-tac-toe.zrf"]);
    assert!(!r.stderr.contains("no legal move"), "{}", r.stderr);
}

// Files that cannot be read whole: every command reads only regular files of at most 8 MiB,
// and says why it refuses one. A named pipe is never opened, so nothing waits on it.

/// Runs zrf with a time limit; a run past it is killed and fails the test (as a hang).
fn zrf_within(args: &[&str], dir: &Path, secs: u64) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run the zrf binary");
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().expect("wait for zrf").is_some() {
            break;
        }
        if start.elapsed() > std::time::Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`zrf {}` ran past {secs} s", args.join(" "));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("zrf output");
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// Makes a named pipe; false where `mkfifo` is missing.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(unix)]
#[test]
fn devices_folders_and_pipes_are_refused_at_once() {
    let dir = TempDir::new("unbounded");
    let fifo = dir.0.join("pipe.zrf");
    let has_fifo = mkfifo(&fifo);
    let mut cases = vec![
        (
            "/dev/zero",
            "cannot read /dev/zero: it is a device, not a regular file",
        ),
        (".", "cannot read .: it is a directory, not a regular file"),
    ];
    if has_fifo {
        cases.push((
            "pipe.zrf",
            "cannot read pipe.zrf: it is a named pipe, not a regular file",
        ));
    }
    for (file, said) in cases {
        for args in [
            vec!["check", file],
            vec!["moves", file],
            vec!["perft", file, "1"],
            vec!["play", file],
            vec!["replay", file],
        ] {
            let run = zrf_within(&args, &dir.0, 20);
            assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
            assert_eq!(run.stderr, format!("error: {said}\n"), "{args:?}");
        }
    }
}

#[test]
fn a_file_over_8_mib_is_refused_with_the_limit() {
    let dir = TempDir::new("huge");
    let path = dir.0.join("huge.zrf");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(9 << 20).unwrap();
    let run = zrf_within(&["check", "huge.zrf"], &dir.0, 20);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "error: cannot read huge.zrf: it is 9 MiB or more; zrf reads files of at most 8 MiB\n"
    );
}

#[cfg(unix)]
#[test]
fn includes_of_devices_folders_and_pipes_are_errors() {
    let dir = TempDir::new("include-dev");
    let has_fifo = mkfifo(&dir.0.join("pipe.zrf"));
    let mut targets = vec![
        ("/dev/zero", "it is a device, not a regular file"),
        ("sub", "it is a directory, not a regular file"),
    ];
    std::fs::create_dir(dir.0.join("sub")).unwrap();
    if has_fifo {
        targets.push(("pipe.zrf", "it is a named pipe, not a regular file"));
    }
    for (target, why) in targets {
        let text = TIC_TAC_TOE.replace(
            "(define drop-anywhere",
            &format!("(include \"{target}\")\n(define drop-anywhere"),
        );
        dir.write("main.zrf", &text);
        let run = zrf_within(&["check", "main.zrf"], &dir.0, 20);
        assert_eq!(run.code, Some(1), "{target}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("error: cannot read included file `{target}`")),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains(why), "{}", run.stderr);
    }
}

#[cfg(unix)]
#[test]
fn a_record_naming_a_device_or_pipe_as_its_rules_is_refused() {
    let dir = TempDir::new("record-dev");
    let mut rules = vec!["/dev/zero"];
    if mkfifo(&dir.0.join("pipe.zrf")) {
        rules.push("pipe.zrf");
    }
    for r in rules {
        dir.write("x.game", &format!("[Game \"{r}\"]\n\n1. a1\n"));
        let run = zrf_within(&["replay", "x.game"], &dir.0, 20);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(
            run.stderr.contains("not a regular file"),
            "{r}: {}",
            run.stderr
        );
    }
}

#[test]
fn new_never_replaces_a_file_and_leaves_no_temporary_file() {
    let dir = TempDir::new("new-keep");
    dir.write("Mine.zrf", "my own rules");
    let run = zrf_within(&["new", "Mine"], &dir.0, 20);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.0.join("Mine.zrf")).unwrap(),
        "my own rules"
    );
    let run = zrf_within(&["new", "Other"], &dir.0, 20);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut names: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["Mine.zrf", "Other.zrf"]);
}

#[test]
fn check_warns_about_a_runaway_move_program() {
    let dir = TempDir::new("runaway");
    let file = dir.write(
        "endless.zrf",
        r#"(game (title "Endless") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d/e/f/g/h" (1 0)) ("8/7/6/5/4/3/2/1" (0 1)))
    (directions (n 0 -1))))
  (board-setup (A (P off 1)) (B (P off 1)))
  (piece (name P) (drops ((while true add))))
  (draw-condition (A B) stalemated))
"#,
    );
    let run = check(&file, &[]);
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "warning: {}: a move block added more than 10000 moves from one square and was \
             stopped (an endless loop?)\n",
            file.display()
        )
    );
    assert!(run.stdout.contains("title: Endless"), "{}", run.stdout);
}

/// Runs `zrf ARGS` in `dir` with `input` on standard input.
fn zrf_piped(args: &[&str], dir: &Path, input: &[u8]) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run the zrf binary");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write stdin");
    drop(stdin);
    let out = child.wait_with_output().expect("zrf output");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A game whose texts and names hold terminal escapes: a title that sets the terminal's title
/// (OSC 0), a description and a help that clear the screen, a file label (so position names)
/// and a piece notation with escapes.
const ESCAPES: &str = "(game (title \"T\x1b]0;pwned\x07\") (description \"line one\r\nline \x1b[2J two\")\n \
     (players W B) (turn-order W B)\n \
     (board (grid (dimensions (\"a/b\x1b[2J/c\" (1 0)) (\"3/2/1\" (0 1))) (directions (n 0 -1))))\n \
     (piece (name P) (notation \"\x1bc\") (help \"h\x1b[2J\") (moves (n add)))\n \
     (board-setup (W (P a1)) (B (P c3))))\n";

#[test]
fn texts_and_names_from_a_rules_file_reach_the_terminal_escaped() {
    let dir = TempDir::new("escapes");
    dir.write("esc.zrf", ESCAPES);
    dir.write(
        "esc.tests",
        "(test \"a1 \x1b[2J\" (expect-moves \"a1-a2 x\"))\n",
    );
    let runs = [
        zrf_piped(&["check", "esc.zrf"], &dir.0, b""),
        zrf_piped(&["moves", "esc.zrf"], &dir.0, b""),
        zrf_piped(&["perft", "esc.zrf", "1", "--divide"], &dir.0, b""),
        zrf_piped(
            &["play", "esc.zrf", "--keep-going"],
            &dir.0,
            b"rules\nmoves\nboard\na1-a2\nhistory\nquit\n",
        ),
        zrf_piped(&["test", "esc.zrf"], &dir.0, b""),
    ];
    for r in &runs {
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(!all.contains(['\x1b', '\x07', '\r']), "{all:?}");
    }
    assert!(
        runs[0]
            .stdout
            .starts_with("title: T\\u{1b}]0;pwned\\u{7}\n"),
        "{}",
        runs[0].stdout
    );
    assert!(
        runs[0].stdout.contains("  P [\\u{1b}c]: 1 move block(s)"),
        "{}",
        runs[0].stdout
    );
    assert_eq!(runs[1].stdout, "a1-a2\n");
    assert_eq!(runs[2].stdout, "1 1\na1-a2 1\n");
    let play = &runs[3].stdout;
    assert!(play.contains("line one line \\u{1b}[2J two"), "{play}");
    assert!(play.contains("\\u{1b}C P: h\\u{1b}[2J"), "{play}");
    assert!(play.contains("  a     b\\u{1b}[2J c\n"), "{play}");
    assert!(play.contains("1. a1-a2"), "{play}");
    let test = &runs[4].stdout;
    assert!(test.contains("FAIL esc.tests:1:1: a1 \\u{1b}[2J"), "{test}");
}

#[test]
fn new_refuses_names_that_would_not_make_a_visible_loadable_file() {
    let dir = TempDir::new("new-names");
    for (name, why) in [
        ("", "the name is empty"),
        (".zrf", "the name is empty"),
        (".", "would make a hidden file"),
        (".hidden", "would make a hidden file"),
        ("sub/game", "the name holds a path separator"),
        ("a\\b", "the name holds a path separator"),
        ("say \"hi\"", "may not hold `\"`"),
        ("two\nlines", "may not hold control characters"),
        ("bell\x07", "may not hold control characters"),
    ] {
        let r = zrf_piped(&["new", name], &dir.0, b"");
        assert_eq!(r.code, Some(2), "{name:?}: {}", r.stderr);
        assert!(
            r.stderr.starts_with("error: cannot make a game called \""),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains(why), "{name:?}: {}", r.stderr);
        assert!(!r.stderr.contains(['\n', '\x07']) || r.stderr.ends_with('\n'));
    }
    // Nothing was written, hidden or not.
    assert_eq!(std::fs::read_dir(&dir.0).expect("read dir").count(), 0);
    // A plain name, with or without `.zrf`, makes a file that loads.
    let r = zrf_piped(&["new", "Mine.zrf"], &dir.0, b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = zrf_piped(&["check", "Mine.zrf"], &dir.0, b"");
    assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""));
    assert!(r.stdout.contains("\ntitle: Mine\n"), "{}", r.stdout);
}

/// A UTF-8 byte-order mark, as Windows editors write before a file's text.
const BOM: &str = "\u{feff}";

#[test]
fn a_byte_order_mark_is_skipped_by_every_reader() {
    let dir = TempDir::new("bom");
    let chess =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf"))
            .expect("chess");
    dir.write("chess.zrf", &chess);
    // Records: PGN, zrf's own, and a position text in a file.
    dir.write(
        "g.pgn",
        &format!("{BOM}[Event \"x\"]\n[Game \"chess.zrf\"]\n\n1. e4 e5 2. Nf3 *\n"),
    );
    dir.write(
        "g.game",
        &format!("{BOM}[Game \"chess.zrf\"]\ne2-e4\ne7-e5\n"),
    );
    for rec in ["g.pgn", "g.game"] {
        let r = zrf_piped(&["replay", rec, "--rules", "chess.zrf"], &dir.0, b"");
        assert_eq!(r.code, Some(0), "{rec}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("result: *"), "{rec}: {}", r.stdout);
    }
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    // A position given on the command line, and lines piped to `moves --stdin`.
    let r = zrf_piped(
        &["moves", "chess.zrf", "--setup", &format!("{BOM}{fen}")],
        &dir.0,
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("\ng1-f3\n"), "{}", r.stdout);
    assert!(r.stdout.contains("\ne1-e2\n"), "{}", r.stdout);
    let piped = format!("{BOM}moves e2-e4\n");
    let r = zrf_piped(&["moves", "chess.zrf", "--stdin"], &dir.0, piped.as_bytes());
    assert!(r.stdout.starts_with("b8-c6 b8-a6 "), "{}", r.stdout);
    // `play`'s piped script: the first line is a command like the others.
    let piped = format!("{BOM}e2-e4\nhistory\n");
    let r = zrf_piped(&["play", "chess.zrf"], &dir.0, piped.as_bytes());
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("1. e4"), "{}", r.stdout);
    // `load` in a session.
    let r = zrf_piped(&["play", "chess.zrf"], &dir.0, b"load g.pgn\nhistory\n");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("2. Nf3"), "{}", r.stdout);
    // A tests file and its snapshots.
    dir.write(
        "chess.tests",
        &format!("{BOM}(test \"start\" (perft 1 20) (snapshot (perft 1)))\n"),
    );
    dir.write(
        "chess.snap",
        &format!("{BOM}; snapshots\n\n=== start [perft 1]\n  1 20\n"),
    );
    let r = zrf_piped(&["test", "chess.zrf"], &dir.0, b"");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("1 passed, 0 failed"), "{}", r.stdout);
}
