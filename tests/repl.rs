//! The play session: transcripts of `tests/scenarios/*.txt` replayed through `Session` and
//! compared with insta snapshots, the real binary with piped standard input, `zrf replay`,
//! and the terminal interface through a pseudo-terminal.
//!
//! A scenario is one command per line. `#` starts a comment line; `@game FILE`,
//! `@variant NAME` and `@setup POSITION` choose what the session opens (before any command).
//! Files that `save` writes and `load` reads live in a temporary folder.

use std::path::Path;
use std::process::{Command, Stdio};

mod common;

use common::{TempDir, TestFiles};

use zrf::repl::{Files, Session};

/// Runs a scenario and returns its transcript: the banner, then `> line` and the answer.
fn transcript(script: &str) -> String {
    let dir = TempDir::new("scenario");
    let files = TestFiles(&dir.0);
    let (mut game, mut variant, mut setup) = (None, None, None);
    let mut lines = Vec::new();
    for line in script.lines() {
        if let Some(rest) = line.strip_prefix('@') {
            let (key, value) = rest.split_once(' ').expect("`@key value`");
            let value = Some(value.trim().to_string());
            match key {
                "game" => game = value,
                "variant" => variant = value,
                "setup" => setup = value,
                _ => panic!("unknown scenario directive @{key}"),
            }
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            lines.push(line);
        }
    }
    let game = game.expect("a scenario names its game with `@game FILE`");
    let mut s = Session::open(&game, &files, variant.as_deref(), setup.as_deref())
        .unwrap_or_else(|e| panic!("cannot open {game}: {e}"));
    s.today = Some("2025-01-31".into());
    let mut out = s.banner();
    for line in lines {
        out += &format!("> {line}\n");
        let o = s.run_line(line, &files);
        out += &mask_times(&o.text);
        if o.quit {
            break;
        }
    }
    out
}

/// Replaces the durations the computer reports (`0.04 s`) by `*.** s`, so transcripts of
/// searches limited by depth or nodes stay the same from run to run.
fn mask_times(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let is_time = i > start
            && (start == 0 || !b[start - 1].is_ascii_alphanumeric())
            && text[i..].len() >= 5
            && b[i] == b'.'
            && b[i + 1].is_ascii_digit()
            && b[i + 2].is_ascii_digit()
            && &text[i + 3..i + 5] == " s";
        if is_time {
            out += "*.** s";
            i += 5;
        } else if i > start {
            out += &text[start..i];
        } else {
            let c = text[i..].chars().next().expect("a char");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

#[test]
fn scenarios() {
    insta::glob!("scenarios/*.txt", |path| {
        let script = std::fs::read_to_string(path).expect("read the scenario");
        insta::assert_snapshot!(transcript(&script));
    });
}

fn session(game: &str) -> (TempDir, Session) {
    let dir = TempDir::new("session");
    let s = Session::open(game, &TestFiles(&dir.0), None, None).expect("open the game");
    (dir, s)
}

#[test]
fn a_bad_move_changes_nothing() {
    let (_dir, mut s) = session("games/chess.zrf");
    s.eval_line("e2e4");
    let before = zrf::setup::native(&s.game().rules, &s.game().pos);
    for bad in ["e2e4", "e7e4", "z9z8", "e7e5 e2e3", "Ke2"] {
        let o = s.eval_line(bad);
        assert!(o.error, "`{bad}` should be refused: {}", o.text);
        assert!(o.text.starts_with("error: "), "{}", o.text);
        let after = zrf::setup::native(&s.game().rules, &s.game().pos);
        assert_eq!(before, after, "`{bad}` changed the position");
        assert_eq!(s.game().played(), ["e2-e4"]);
    }
}

#[test]
fn an_ambiguous_move_lists_the_candidates() {
    let (_dir, mut s) = session("games/checkers.zrf");
    // Two white men can reach 18 after this setup.
    s.eval_line("setup W:W22,23:B1");
    let o = s.eval_line("18");
    assert!(o.error, "{}", o.text);
    assert!(
        o.text.contains("ambiguous") && o.text.contains("22-18") && o.text.contains("23-18"),
        "{}",
        o.text
    );
}

#[test]
fn undo_and_redo_go_back_to_the_start_and_forward_again() {
    let (_dir, mut s) = session("games/chess.zrf");
    let start = zrf::setup::native(&s.game().rules, &s.game().pos);
    assert!(!s.eval_line("e2e4 e7e5 g1f3").error);
    let end = zrf::setup::native(&s.game().rules, &s.game().pos);
    assert!(!s.eval_line("undo all").error);
    assert_eq!(zrf::setup::native(&s.game().rules, &s.game().pos), start);
    assert!(s.eval_line("undo").error, "nothing left to take back");
    assert!(!s.eval_line("redo 2").error);
    assert_eq!(s.game().played(), ["e2-e4", "e7-e5"]);
    assert!(!s.eval_line("redo").error);
    assert_eq!(zrf::setup::native(&s.game().rules, &s.game().pos), end);
    // Replaying the move taken back keeps the moves after it; another move forgets them.
    s.eval_line("undo 2");
    s.eval_line("e7e5");
    assert_eq!(s.game().redo_texts(), ["g1-f3"]);
    s.eval_line("d2d4");
    assert!(s.game().redo_len() == 0);
}

#[test]
fn save_comes_back_as_a_request_and_load_restores_the_game() {
    let (dir, mut s) = session("games/chess.zrf");
    s.today = Some("2025-01-31".into());
    s.eval_line("e2e4 e7e5");
    let o = s.eval_line("save x.game");
    let Some(zrf::repl::Request::Save { path, contents }) = o.request else {
        panic!("save should ask the caller to write: {o:?}");
    };
    assert_eq!(path, "x.game");
    assert_eq!(
        contents,
        "[Game \"games/chess.zrf\"]\n[Variant \"Chess\"]\n[Date \"2025-01-31\"]\n\
         [Result \"*\"]\n\n1. e2-e4 e7-e5\n"
    );
    std::fs::write(dir.0.join("x.game"), &contents).unwrap();
    s.eval_line("new");
    let o = s.run_line("load x.game", &TestFiles(&dir.0));
    assert!(!o.error, "{}", o.text);
    assert_eq!(s.game().played(), ["e2-e4", "e7-e5"]);
}

#[test]
fn fen_reads_back_to_the_same_position() {
    let (_dir, mut s) = session("games/chess.zrf");
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/4pP2/8/8/R3K2R b Kq f3 12 40",
        "8/2k5/8/8/8/8/5K2/8 w - - 99 80",
    ] {
        s.eval_line(&format!("setup {fen}"));
        assert_eq!(s.eval_line("fen").text.trim(), fen);
    }
    s.eval_line("variant crazyhouse");
    let zh = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 2 3";
    s.eval_line(&format!("setup {zh}"));
    assert_eq!(s.eval_line("fen").text.trim(), zh);
}

#[test]
fn pdn_fen_reads_back_to_the_same_position() {
    let (_dir, mut s) = session("games/checkers.zrf");
    for pdn in ["B:W14,19,K32:B1,2,K22", "W:W18:B14,K22", "W:W:B5"] {
        s.eval_line(&format!("setup {pdn}"));
        assert_eq!(s.eval_line("fen").text.trim(), pdn);
    }
}

#[test]
fn replaying_a_record_names_the_bad_move() {
    let dir = TempDir::new("bad-record");
    let files = TestFiles(&dir.0);
    let text = "[Game \"games/chess.zrf\"]\n\n1. e2-e4 e7-e5\n2. e4-e5\n";
    let Err(e) = Session::from_record(text, "bad.game", &files) else {
        panic!("the record has an illegal move");
    };
    match e {
        zrf::repl::OpenError::Record(msg, Some(3)) => {
            assert!(msg.starts_with("move 3 (2. e4-e5)"), "{msg}")
        }
        e => panic!("unexpected error {e:?}"),
    }
}

// The real binary.

fn zrf() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_zrf"));
    c.env_remove("NO_COLOR");
    c
}

fn piped(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut child = zrf()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run zrf");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the script");
    let out = child.wait_with_output().expect("wait for zrf");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_binary_plays_a_piped_script_without_prompts_or_colour() {
    let script = "e2e4\ne7e5\nnonsense\nhistory\nfen\nquit\nboard\n";
    let keep_going = ["play", "games/chess.zrf", "--keep-going"];
    for args in [&keep_going[..], &["games/chess.zrf", "--keep-going"][..]] {
        let (code, out, err) = piped(args, script);
        assert_eq!(code, Some(0), "stderr: {err}");
        assert!(!out.contains('\x1b'), "no colour on a pipe:\n{out}");
        assert!(!out.contains("> "), "no prompt on a pipe:\n{out}");
        assert!(out.starts_with("Chess: type a move"), "{out}");
        assert!(out.contains("Last move: e5 (e7-e5)."), "{out}");
        assert!(
            out.contains("error: `nonsense` is neither a command nor a move"),
            "{out}"
        );
        assert!(out.contains("\n1. e4 e5\n"), "{out}");
        assert!(
            out.ends_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n"),
            "`quit` ends the session:\n{out}"
        );
    }
}

#[test]
fn a_piped_script_stops_at_the_first_refused_command_with_exit_1() {
    let (code, out, _) = piped(&["play", "games/chess.zrf"], "e4\nNd4\nhistory\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("error: `Nd4` is not a legal move here: no Knight can go to d4"),
        "{out}"
    );
    assert!(
        !out.contains("1. e4"),
        "nothing runs after the refused line:\n{out}"
    );
}

#[test]
fn moves_given_on_the_command_line_are_played_before_the_script() {
    let (code, out, err) = piped(
        &["play", "games/chess.zrf", "--moves", "e2-e4 e5 Nf3"],
        "history\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.ends_with("1. e4 e5\n2. Nf3\n"), "{out}");
    // Nothing on standard input: the session ends after the moves.
    let (code, out, _) = piped(&["play", "games/chess.zrf", "--moves", "d4"], "");
    assert_eq!(code, Some(0));
    assert!(out.contains("Last move: d4 (d2-d4)."), "{out}");
    // A bad move is refused before anything is read.
    let (code, _, err) = piped(
        &["play", "games/chess.zrf", "--moves", "e4 e4"],
        "history\n",
    );
    assert_eq!(code, Some(1));
    assert!(err.contains("--moves"), "{err}");
}

#[test]
fn the_binary_saves_and_replays_a_record() {
    let dir = TempDir::new("binary-record");
    let path = dir.0.join("mate.game");
    let p = path.to_str().expect("a UTF-8 temp path");
    let script = format!(
        "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5xf7\nsave {p}\n",
        p = path.display()
    );
    let (code, out, err) = piped(&["play", "games/chess.zrf", "--variant", "1"], &script);
    assert_eq!(code, Some(0), "stderr: {err}");
    assert!(out.contains("Saved 7 moves"), "{out}");
    let text = std::fs::read_to_string(&path).expect("the record was written");
    assert!(
        text.contains("[Result \"White wins (checkmated)\"]"),
        "{text}"
    );
    let run = zrf().args(["replay", p]).output().expect("run zrf replay");
    let out = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(out.ends_with("result: White wins (checkmated)\n"), "{out}");
    assert!(
        run.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    // An illegal move: exit 1, with its number.
    std::fs::write(&path, text.replace("h5xf7", "h5xf8")).unwrap();
    let run = zrf().args(["replay", p]).output().expect("run zrf replay");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("move 7 (4. h5xf8)"), "{err}");

    // A missing record: exit 2.
    let run = zrf()
        .args(["replay", &format!("{p}.missing")])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn the_binary_refuses_a_bad_setup_or_variant_with_exit_2() {
    let (code, _, err) = piped(&["play", "games/chess.zrf", "--setup", "nonsense"], "");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("bad setup"), "{err}");
    let (code, _, err) = piped(&["play", "games/chess.zrf", "--variant", "Crazyhous"], "");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("did you mean `Crazyhouse`?"), "{err}");
}

/// The terminal interface through a pseudo-terminal: tab completion of moves and command
/// names, and the history file kept between sessions.
#[test]
fn the_terminal_interface_completes_moves_and_keeps_history() {
    let dir = TempDir::new("pty");
    let history = dir.0.join("history.txt");
    let start = || {
        let mut cmd = zrf();
        cmd.args(["play", "games/chess.zrf"])
            .env("ZRF_HISTORY", &history)
            .env("NO_COLOR", "1")
            .env("TERM", "xterm");
        rexpect::session::spawn_command(cmd, Some(20_000)).expect("spawn zrf on a pty")
    };
    let mut p = start();
    p.exp_string("White 1> ").expect("the prompt");
    // `g1` then Tab: the two knight moves are listed after the common prefix `g1-`.
    p.send("g1\t").unwrap();
    p.flush().unwrap();
    p.exp_string("g1-").expect("the common prefix completed");
    p.send("\t").unwrap();
    p.flush().unwrap();
    p.exp_regex("g1-h3 +g1-f3|g1-f3 +g1-h3")
        .expect("the candidates listed");
    p.send("f3\r").unwrap();
    p.flush().unwrap();
    p.exp_string("Last move: Nf3 (g1-f3).")
        .expect("the move played");
    // Input sent before the editor is back in raw mode may be flushed: wait for the prompt.
    p.exp_string("Black 1> ").expect("the prompt");
    // A command name completes too.
    p.send("hist\t").unwrap();
    p.flush().unwrap();
    p.exp_string("history").expect("`hist` completed");
    p.send("\r").unwrap();
    p.flush().unwrap();
    p.exp_string("1. Nf3").expect("the history printed");
    p.exp_string("Black 1> ").expect("the prompt");
    p.send_control('d').unwrap();
    p.exp_eof().expect("Ctrl-D quits");

    let saved = std::fs::read_to_string(&history).expect("the history file");
    assert!(saved.contains("g1-f3"), "{saved}");

    // A new session recalls the last line with the Up arrow.
    let mut p = start();
    p.exp_string("White 1> ").expect("the prompt");
    p.send("\x1b[A").unwrap();
    p.flush().unwrap();
    p.exp_string("history").expect("the last line recalled");
    // Ctrl-C cancels it; the next line is read as usual.
    p.send_control('c').unwrap();
    p.exp_string("White 1> ").expect("a fresh prompt");
    p.send("e2e4\r").unwrap();
    p.flush().unwrap();
    p.exp_string("Last move: e4 (e2-e4).")
        .expect("the move played");
    p.exp_string("Black 1> ").expect("the prompt");
    p.send("quit\r").unwrap();
    p.flush().unwrap();
    p.exp_eof().expect("`quit` ends the session");
}

/// Random games in every shipped game and variant: no command panics, `undo all` gets back to
/// the start and `redo all` to the end, and a saved record loads back to the same position.
#[test]
fn random_games_survive_every_command_and_round_trip_through_records() {
    let dir = TempDir::new("random");
    let files = TestFiles(&dir.0);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let odd = [
        "",
        "   ",
        "#",
        "@",
        "-",
        "x",
        "=",
        "P@",
        "@e4",
        "e2-",
        "[",
        "}",
        "é",
        "1x",
        "0",
        "setup",
        "setup ;",
        "setup turn 99",
        "perft x",
        "divide -1",
        "undo 99999999999999999999",
        "redo all",
        "variant 0",
        "help help",
        "fen",
        "position",
        "history",
        "moves",
        "board",
        "rules",
        "variants",
        "ai nodes 30",
        "go depth 1",
        "go nodes",
        "analyse nodes 30",
        "engine",
        "engine mcts nodes 5",
        "engine alphabeta depth 1",
        "play-as",
        "play-as nobody",
        "load",
        "save",
    ];
    let mut games: Vec<String> = std::fs::read_dir("games")
        .expect("the games folder")
        .map(|e| e.expect("an entry").path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".zrf"))
        .collect();
    games.sort();
    for game in &games {
        let (_d, probe) = session(game);
        let n_variants = probe.variant_count();
        for v in 1..=n_variants {
            let mut s = Session::open(game, &files, Some(&v.to_string()), None)
                .unwrap_or_else(|e| panic!("{game} variant {v}: {e}"));
            let native = |s: &Session| zrf::setup::native(&s.game().rules, &s.game().pos);
            let start = native(&s);
            for ply in 0..30 {
                let line = odd[next(odd.len())];
                s.eval_line(line);
                let moves = s.game_mut().legal_texts();
                if moves.is_empty() || s.result().is_some() {
                    break;
                }
                let mv = moves[next(moves.len())].clone();
                let o = s.eval_line(&mv);
                assert!(
                    !o.error,
                    "{game} v{v} ply {ply}: `{mv}` refused: {}",
                    o.text
                );
            }
            let end = native(&s);
            let played = s.game().played();
            let o = s.run_line("save r.game", &files);
            assert!(!o.error, "{}", o.text);
            let text = std::fs::read_to_string(dir.0.join("r.game")).unwrap();
            let back = Session::from_record(&text, "r.game", &files)
                .unwrap_or_else(|e| panic!("{game} v{v}: the record does not load: {e}\n{text}"));
            assert_eq!(native(&back), end, "{game} v{v}: {text}");
            assert_eq!(back.game().played(), played);
            s.eval_line("undo all");
            assert_eq!(native(&s), start, "{game} v{v}: undo all");
            s.eval_line("redo all");
            assert_eq!(native(&s), end, "{game} v{v}: redo all");
        }
    }
}

/// `play-as both` hands each move to the front end as it is played, and plays a new game
/// out after `new`.
#[test]
fn play_as_both_shows_each_move_as_played_and_goes_on_after_new() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let (dir, mut s) = session("games/tic-tac-toe.zrf");
    let files = TestFiles(&dir.0);
    let seen = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = Rc::clone(&seen);
    s.computer.said = Some(Box::new(move |line: &str| {
        sink.borrow_mut().push(line.into())
    }));
    s.run_line("engine depth 2", &files);
    let o = s.run_line("play-as both", &files);
    let first = seen.borrow().len();
    assert!(
        first >= 6,
        "a game of tic-tac-toe has at least five moves: {:?}",
        seen.borrow()
    );
    assert_eq!(seen.borrow()[0], "The computer plays X and O.");
    assert!(
        seen.borrow()[1].starts_with("X plays "),
        "{:?}",
        seen.borrow()
    );
    assert!(
        !o.text.contains("X plays"),
        "the moves went to the front end: {}",
        o.text
    );
    assert!(o.text.contains("Game over"), "{}", o.text);
    let o = s.run_line("new", &files);
    assert!(seen.borrow().len() >= first + 5, "{:?}", seen.borrow());
    assert!(
        o.text.contains("Game over"),
        "the new game is played out: {}",
        o.text
    );
}

/// `analyse` with no limit searches until the stop flag is set (Ctrl-C on a terminal).
#[test]
fn analyse_without_limits_runs_until_stopped() {
    let (dir, mut s) = session("games/chess.zrf");
    let files = TestFiles(&dir.0);
    s.computer.stoppable = true;
    let stop = std::sync::Arc::clone(&s.computer.stop);
    let started = std::time::Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(1500));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let o = s.run_line("analyse", &files);
    stopper.join().unwrap();
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(1400),
        "the search ran past the engine's one second, until stopped"
    );
    assert!(o.text.contains("best "), "{}", o.text);
}

/// `analyse lines 3`: the three best moves at each depth, distinct and best first.
#[test]
fn analyse_shows_several_lines() {
    let (dir, mut s) = session("games/chess.zrf");
    let files = TestFiles(&dir.0);
    // Black's queen on e8 hangs to the rook: Rxe8+ is far ahead of anything else.
    let o = s.run_line("setup 4q1k1/5pp1/7p/8/8/8/5PPP/4R1K1 w - - 0 1", &files);
    assert!(!o.text.contains("error"), "{}", o.text);
    let o = s.run_line("analyse lines 3 depth 2", &files);
    let last: Vec<&str> = o.text.lines().filter(|l| l.contains("depth 2 ")).collect();
    assert_eq!(last.len(), 3, "{}", o.text);
    assert!(
        last[0].starts_with("depth 2  +") && last[0].contains("Rxe8+"),
        "{}",
        o.text
    );
    assert!(last[1].starts_with("line 2  depth 2  -"), "{}", o.text);
    assert!(last[2].starts_with("line 3  depth 2  -"), "{}", o.text);
    assert!(o.text.contains("best Rxe8+"), "{}", o.text);
    let o = s.run_line("analyse lines 0", &files);
    assert!(o.text.contains("`lines` needs a number"), "{}", o.text);
}

// Input and files that used to end a session or lose a game.

/// Runs the binary with piped standard input given as bytes.
fn piped_bytes(args: &[&str], dir: &Path, input: &[u8]) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut child = zrf()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run zrf");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write the script");
    let out = child.wait_with_output().expect("wait for zrf");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn chess_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/chess.zrf")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn piped_lines_are_commands_each_on_its_own() {
    let dir = TempDir::new("piped-lines");
    let script: &[u8] = b"(\n[\n{\n\x1b[A\n\xff\xfe not UTF-8\ne2e4\nhistory\nquit\nboard\n";
    // With `--keep-going` every line is answered; without it the first refused line ends
    // the run with exit code 1 (checked last).
    let (code, out, err) = piped_bytes(&["play", &chess_path(), "--keep-going"], &dir.0, script);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains('\x1b'), "no control character echoed:\n{out}");
    assert!(
        out.contains("error: the line holds control characters (\\u{1b}[A)"),
        "{out}"
    );
    assert!(
        out.contains("error: line 5 is not UTF-8 text; it was skipped"),
        "{out}"
    );
    // The brackets did not swallow the lines after them: the move was played, then `quit`
    // ended the session before `board`.
    assert!(out.contains("Last move: e4 (e2-e4)."), "{out}");
    assert!(out.ends_with("1. e4\n"), "{out}");
    for bracket in ["(", "[", "{"] {
        assert!(
            out.contains(&format!("error: `{bracket}` is neither")),
            "{out}"
        );
    }
    // A script stops at its first refused line, with exit code 1.
    let (code, out, _) = piped_bytes(&["play", &chess_path()], &dir.0, script);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("error: `(` is neither"), "{out}");
    assert!(!out.contains("Last move"), "{out}");
}

#[test]
fn zrf_moves_stdin_reads_past_bad_lines() {
    let dir = TempDir::new("moves-stdin");
    let (code, out, err) = piped_bytes(
        &["moves", &chess_path(), "--stdin"],
        &dir.0,
        b"\xff\nmoves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "error: the line is not UTF-8 text");
    // 30 legal replies in this Ruy Lopez position (python-chess agrees).
    assert_eq!(lines[1].split(' ').count(), 30, "{}", lines[1]);
}

/// A saved record names its rules file relative to its own folder, so the folder can move.
#[test]
fn a_saved_record_replays_after_its_folder_moves() {
    let base = TempDir::new("moved");
    let old = base.0.join("old");
    std::fs::create_dir_all(old.join("rules")).unwrap();
    std::fs::create_dir_all(old.join("records")).unwrap();
    std::fs::copy(chess_path(), old.join("rules/chess.zrf")).unwrap();
    let (code, out, err) = piped_bytes(
        &["play", "rules/chess.zrf", "--variant", "1"],
        &old,
        b"e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5xf7\nsave records/mate.game\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Saved 7 moves to records/mate.game."), "{out}");
    let text = std::fs::read_to_string(old.join("records/mate.game")).unwrap();
    assert!(
        text.starts_with("[Game \"../rules/chess.zrf\"]\n"),
        "{text}"
    );
    let new = base.0.join("new");
    std::fs::rename(&old, &new).unwrap();
    // From another folder, by a relative and by an absolute path.
    let record = new.join("records/mate.game");
    for (cwd, arg) in [
        (base.0.clone(), "new/records/mate.game".to_string()),
        (std::env::temp_dir(), record.to_string_lossy().into_owned()),
    ] {
        let run = zrf()
            .args(["replay", &arg])
            .current_dir(&cwd)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&run.stdout);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(out.ends_with("result: White wins (checkmated)\n"), "{out}");
    }
}

/// A save that cannot be written (here: no file may grow past 0 bytes) says so and leaves the
/// old record whole, with no temporary file beside it.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_save_keeps_the_old_record() {
    let dir = TempDir::new("full");
    std::fs::write(dir.0.join("x.game"), "the old record\n").unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 0; exec \"$0\" play \"$1\" --keep-going")
        .arg(env!("CARGO_BIN_EXE_zrf"))
        .arg(chess_path())
        .current_dir(&dir.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run zrf under sh");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"e2e4\nsave x.game\nhistory\n").unwrap();
    }
    let run = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(
        out.contains("error: cannot write x.game: ")
            && out.contains("the game is not saved (any old file there is unchanged)"),
        "{out}"
    );
    assert!(out.ends_with("1. e4\n"), "the session went on:\n{out}");
    assert_eq!(
        std::fs::read_to_string(dir.0.join("x.game")).unwrap(),
        "the old record\n"
    );
    let names: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["x.game"]);
}

/// Files that serve one rules file whose reading panics (standing for any bug met while the
/// rules of a record load), and a record naming it.
struct Panicking<'a>(TestFiles<'a>);

impl Files for Panicking<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        if path.ends_with("boom.zrf") {
            panic!("a bug while reading {path}");
        }
        self.0.read(path)
    }

    fn write(&self, path: &str, contents: &str) -> Result<(), String> {
        self.0.write(path, contents)
    }
}

#[test]
fn a_failed_load_leaves_the_game_in_progress() {
    let dir = TempDir::new("failed-load");
    let files = Panicking(TestFiles(&dir.0));
    let mut s = Session::open("games/chess.zrf", &files, None, None).unwrap();
    s.run_line("e2e4 e7e5", &files);
    let broken = "(game (title \"Broken\") (players A B) (turn-order A B) (board (grid \
                  (dimensions (\"a\" (1 0)) (\"1\" (0 1))))) (piece (name p) (moves (nowhere))))";
    dir.write("broken.zrf", broken);
    let cases = [
        ("missing.game", None),
        // Without a `Game` header the session's rules play it: here an illegal move.
        ("no-game.game", Some("1. e2-e5\n")),
        (
            "no-rules.game",
            Some("[Game \"nowhere.zrf\"]\n\n1. e2-e4\n"),
        ),
        ("bad-rules.game", Some("[Game \"broken.zrf\"]\n\n")),
        (
            "bad-move.game",
            Some("[Game \"games/chess.zrf\"]\n\n1. e2-e5\n"),
        ),
        (
            "bad-variant.game",
            Some("[Game \"games/chess.zrf\"]\n[Variant \"Nope\"]\n"),
        ),
        (
            "bad-setup.game",
            Some("[Game \"games/chess.zrf\"]\n[Setup \"x/y\"]\n"),
        ),
        ("bad-header.game", Some("[Game games/chess.zrf]\n")),
        ("panics.game", Some("[Game \"boom.zrf\"]\n\n1. e2-e4\n")),
    ];
    for (name, text) in cases {
        if let Some(t) = text {
            dir.write(name, t);
        }
        let o = s.run_line(&format!("load {name}"), &files);
        assert!(o.error, "{name}: {}", o.text);
        assert_eq!(s.game().played(), ["e2-e4", "e7-e5"], "{name}");
        assert_eq!(s.title(), "Chess", "{name}");
    }
    let o = s.run_line("load panics.game", &files);
    assert!(
        o.text
            .contains("internal error while loading (a bug in zrf); the game in progress"),
        "{}",
        o.text
    );
    // The session goes on.
    assert!(!s.run_line("g1f3", &files).error);
    assert_eq!(s.game().played(), ["e2-e4", "e7-e5", "g1-f3"]);
}

/// A setup or a variant title holding a line break is escaped in the header and reads back.
#[test]
fn headers_with_line_breaks_round_trip() {
    let dir = TempDir::new("newline-header");
    let files = TestFiles(&dir.0);
    let rules = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/tic-tac-toe.zrf"),
    )
    .unwrap()
    .replacen("(title \"Tic-Tac-Toe\")", "(title \"Tic\nTac-Toe\")", 1);
    assert!(rules.contains("Tic\nTac"), "the title was replaced");
    dir.write("ttt.zrf", &rules);
    let setup = "turn 0; last - -;\noff X man 5; off O man 4";
    let mut s = Session::open("ttt.zrf", &files, None, Some(setup)).unwrap();
    assert_eq!(s.title(), "Tic\nTac-Toe");
    s.run_line("M@b2", &files);
    let o = s.run_line("save nl.game", &files);
    assert!(!o.error, "{}", o.text);
    let text = std::fs::read_to_string(dir.0.join("nl.game")).unwrap();
    assert!(
        text.starts_with(
            "[Game \"ttt.zrf\"]\n[Variant \"Tic\\nTac-Toe\"]\n[Setup \"turn 0; last - -;\\noff X man 5; off O man 4\"]\n"
        ),
        "{text}"
    );
    let back = Session::from_record(&text, "nl.game", &files).unwrap();
    assert_eq!(back.title(), "Tic\nTac-Toe");
    assert_eq!(back.game().played(), ["M@b2"]);
}

/// The history file survives a line that is not UTF-8: later entries are recalled, and the
/// session only appends to the file.
#[test]
fn the_terminal_history_keeps_lines_it_cannot_read() {
    let dir = TempDir::new("pty-history");
    let history = dir.0.join("history.txt");
    std::fs::write(&history, b"#V2\ne2e4\n\xff\xfe\nboard\n").unwrap();
    let mut cmd = zrf();
    cmd.args(["play", "games/chess.zrf"])
        .env("ZRF_HISTORY", &history)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = rexpect::session::spawn_command(cmd, Some(20_000)).expect("spawn zrf on a pty");
    p.exp_string("White 1> ").expect("the prompt");
    // Up recalls `board`, the entry after the unreadable line.
    p.send("\x1b[A").unwrap();
    p.flush().unwrap();
    p.exp_string("board").expect("the last entry recalled");
    p.send("\r").unwrap();
    p.flush().unwrap();
    p.exp_string("White to move, move 1.")
        .expect("the board shown");
    p.exp_string("White 1> ").expect("the prompt");
    p.send("quit\r").unwrap();
    p.flush().unwrap();
    p.exp_eof().expect("`quit` ends the session");
    assert_eq!(
        std::fs::read(&history).unwrap(),
        b"#V2\ne2e4\n\xff\xfe\nboard\nquit\n"
    );
}

/// A FEN rank with a run of digits too long for any number is refused, not a panic (found by
/// the `record_native` fuzz target, through a record's `Setup` header).
#[test]
fn a_fen_with_an_endless_digit_run_is_refused() {
    let (_dir, mut s) = session("games/chess.zrf");
    s.eval_line("e2e4");
    let digits = "6".repeat(60);
    let o = s.eval_line(&format!(
        "setup r1bqk{digits}bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    ));
    assert!(o.error, "{}", o.text);
    assert!(o.text.contains("rank 1 of the FEN"), "{}", o.text);
    assert_eq!(s.game().played(), ["e2-e4"]);
}

/// A `~` (a promoted piece, in Crazyhouse FEN) that follows no piece is refused; it used to
/// mark an empty square (found by the `setup_text` fuzz target).
#[test]
fn a_promotion_mark_after_no_piece_is_refused() {
    let (_dir, mut s) = session("games/chess.zrf");
    s.eval_line("variant crazyhouse");
    let o = s.eval_line("setup r3k2r/8/8/8/8~/8/8/R3K2R w KQkq - 0 1");
    assert!(o.error, "{}", o.text);
    assert!(
        o.text
            .contains("rank 5 of the FEN has a `~` that follows no piece"),
        "{}",
        o.text
    );
    // After a piece it marks that piece.
    let o = s.eval_line("setup r3k2r/8/8/8/4Q~3/8/8/R3K2R[] w KQkq - 0 1");
    assert!(!o.error, "{}", o.text);
    assert_eq!(
        s.eval_line("fen").text.trim(),
        "r3k2r/8/8/8/4Q~3/8/8/R3K2R[] w KQkq - 0 1"
    );
}
