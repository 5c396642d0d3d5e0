//! The engine protocols (`zrf uci`, `zrf hub`): scripted sessions, whole games played
//! through them, and a game against Stockfish, an engine no one here wrote.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use zrf::expand::NoFiles;
use zrf::play::Game;
use zrf::protocol::{hub::Hub, uci::Uci, Out, SharedLoader};

/// A protocol's output, collected.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<String>>>);

impl Lines {
    fn out(&self) -> Out {
        let me = self.clone();
        Arc::new(move |l: &str| me.0.lock().unwrap().push(l.to_string()))
    }
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

fn loader() -> SharedLoader {
    Arc::new(NoFiles)
}

/// Times and speeds vary from run to run; everything else must not.
fn redact(lines: &[String]) -> String {
    let mut out = String::new();
    for l in lines {
        let mut words: Vec<String> = l.split(' ').map(String::from).collect();
        for i in 0..words.len() {
            if i > 0 && (words[i - 1] == "time" || words[i - 1] == "nps") {
                words[i] = "_".into();
            }
            for key in ["time=", "nps="] {
                if words[i].starts_with(key) {
                    words[i] = format!("{key}_");
                }
            }
        }
        out += &words.join(" ");
        out.push('\n');
    }
    out
}

/// Feeds lines to a UCI session, waiting for each search to end.
fn uci_script(uci: &mut Uci, lines: &Lines, script: &[&str]) -> Vec<String> {
    let mut all = Vec::new();
    for l in script {
        all.push(format!("> {l}"));
        assert!(uci.handle(l) || *l == "quit");
        if l.starts_with("go") {
            uci.wait();
        }
        all.extend(lines.take());
    }
    all
}

#[test]
fn uci_session() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    let got = uci_script(
        &mut uci,
        &lines,
        &[
            "uci",
            "isready",
            "ucinewgame",
            "position startpos moves e2e4 e7e5 g1f3",
            "go depth 3",
            "position startpos moves e2e4 e7e5 e1e3 d2d4",
            "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "go depth 2",
            "setoption name UCI_Variant value crazyhouse",
            "position fen rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3 moves P@e4",
            "d",
            "setoption name UCI_Variant value crazyhose",
            "setoption name Hash value 0",
            "setoption name Nonsense value 3",
            "position fen not a fen",
            "frobnicate",
            "go depth 1 wibble",
            "setoption name UCI_Variant value chess",
            "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "go depth 2",
            "quit",
        ],
    );
    insta::assert_snapshot!(redact(&got));
}

#[test]
fn uci_promotion_and_castling_texts() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    uci.handle("position fen r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1");
    uci.handle("d");
    let shown = lines.take().join("\n");
    let legal = shown
        .lines()
        .find_map(|l| l.strip_prefix("info string legal "))
        .expect("legal moves shown");
    let legal: Vec<&str> = legal.split(' ').collect();
    for m in ["b7b8q", "b7b8n", "b7a8q", "b7a8r", "e1g1", "h1h8"] {
        assert!(legal.contains(&m), "{m} in {legal:?}");
    }
    // Castling and a promotion, typed the UCI way, are played.
    uci.handle("position fen r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1 moves e1g1 a8d8 b7b8n");
    uci.handle("d");
    let shown = lines.take().join("\n");
    assert!(
        shown.contains("fen 1N1rk3/8/8/8/8/8/8/5RK1 b - - 0 2"),
        "{shown}"
    );
}

/// The `multipv` lines of the last depth of a search: (line number, score in centipawns, first
/// move), in the order reported.
fn last_lines(out: &[String]) -> Vec<(u32, i32, String)> {
    let parse = |l: &str| {
        let w: Vec<&str> = l.split(' ').collect();
        let after = |k: &str| w.iter().position(|x| *x == k).map(|i| w[i + 1]);
        let depth: u32 = after("depth")?.parse().ok()?;
        let k: u32 = after("multipv")?.parse().ok()?;
        let cp: i32 = after("cp")?.parse().ok()?;
        Some((depth, k, cp, after("pv")?.to_string()))
    };
    let all: Vec<_> = out.iter().filter_map(|l| parse(l)).collect();
    let deepest = all.iter().map(|x| x.0).max().expect("info lines");
    all.into_iter()
        .filter(|x| x.0 == deepest)
        .map(|(_, k, cp, m)| (k, cp, m))
        .collect()
}

#[test]
fn uci_multipv_reports_distinct_moves_best_first() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    let got = uci_script(
        &mut uci,
        &lines,
        &[
            "setoption name MultiPV value 3",
            // White wins the queen for the rook with Rxe8+; other moves do not.
            "position fen 4q1k1/5pp1/7p/8/8/8/5PPP/4R1K1 w - - 0 1",
            "go depth 3",
            "setoption name MultiPV value 0",
            "setoption name MultiPV value 300",
            // More lines than legal moves: every move gets one.
            "setoption name MultiPV value 50",
            "position fen 7k/8/8/8/8/8/P7/K7 w - - 0 1",
            "go depth 1",
        ],
    );
    insta::assert_snapshot!(redact(&got));
    let cut = got
        .iter()
        .position(|l| l == "> setoption name MultiPV value 0")
        .expect("script line");
    let first = last_lines(&got[..cut]);
    assert_eq!(
        first.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![1, 2, 3],
        "{first:?}"
    );
    assert_eq!(first[0].2, "e1e8");
    assert!(first[0].1 > first[1].1 + 500, "{first:?}");
    assert!(first.windows(2).all(|w| w[0].1 >= w[1].1), "{first:?}");
    let moves: std::collections::HashSet<&String> = first.iter().map(|x| &x.2).collect();
    assert_eq!(moves.len(), 3, "{first:?}");
    assert!(got.iter().any(|l| l.starts_with("bestmove e1e8")));
    // King and pawn have four moves: four lines, no more.
    let second = last_lines(&got[cut..]);
    assert_eq!(second.len(), 4, "{second:?}");
}

/// Waits (at most 30 s) for a line that starts with `prefix`; all lines seen are kept.
fn wait_for(lines: &Lines, seen: &mut Vec<String>, prefix: &str) -> bool {
    for _ in 0..3000 {
        seen.extend(lines.take());
        if seen.iter().any(|l| l.starts_with(prefix)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn uci_ponders_without_a_clock_until_ponderhit() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    uci.handle("uci");
    assert!(lines
        .take()
        .contains(&"option name Ponder type check default false".to_string()));
    uci.handle("setoption name Ponder value true");
    uci.handle("position startpos moves e2e4 e7e5");
    // 3 s on the clock gives a move about 0.1 s: pondering goes on well past that.
    uci.handle("go ponder wtime 3000 btime 3000");
    let mut seen = Vec::new();
    assert!(wait_for(&lines, &mut seen, "info depth 2"), "{seen:?}");
    std::thread::sleep(Duration::from_millis(400));
    seen.extend(lines.take());
    assert!(!seen.iter().any(|l| l.starts_with("bestmove")), "{seen:?}");
    // The expected move came: the clock runs from here and ends the search by itself.
    uci.handle("ponderhit");
    assert!(wait_for(&lines, &mut seen, "bestmove"), "{seen:?}");
    uci.wait();
    // A pondering search the opponent did not play into is stopped and still answers.
    uci.handle("position startpos moves e2e4 e7e5 g1f3");
    uci.handle("go ponder wtime 3000 btime 3000");
    uci.handle("stop");
    uci.wait();
    let after: Vec<String> = lines.take();
    assert_eq!(
        after.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{after:?}"
    );
    // `ponderhit` with nothing pondering changes nothing.
    uci.handle("ponderhit");
    uci.handle("isready");
    assert_eq!(lines.take(), vec!["readyok"]);
}

#[test]
fn hub_ponders_without_a_clock_until_ponder_hit() {
    let lines = Lines::default();
    let mut hub = Hub::new(lines.out(), loader(), None);
    hub.handle("init");
    hub.handle("level time=3 inc=0");
    assert_eq!(lines.take(), vec!["ready"]);
    hub.handle("pos start moves=\"32-28 18-22\"");
    hub.handle("go ponder");
    let mut seen = Vec::new();
    assert!(wait_for(&lines, &mut seen, "info depth=2"), "{seen:?}");
    std::thread::sleep(Duration::from_millis(400));
    seen.extend(lines.take());
    assert!(!seen.iter().any(|l| l.starts_with("done")), "{seen:?}");
    hub.handle("ponder-hit");
    assert!(wait_for(&lines, &mut seen, "done move="), "{seen:?}");
    hub.wait();
    // Analysis has no clock at all: it answers after `stop`.
    hub.handle("go analyze");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!lines.take().iter().any(|l| l.starts_with("done")));
    hub.handle("stop");
    assert!(lines.take().iter().any(|l| l.starts_with("done move=")));
}

/// One protocol as a self-play loop drives it.
struct Driver<'a> {
    handle: &'a mut dyn FnMut(&str) -> bool,
    wait: &'a mut dyn FnMut(),
    /// The zrf text of a protocol move in the game's position.
    to_zrf: &'a dyn Fn(&mut Game, &str) -> String,
    /// The command that sets up the game after these moves.
    position: &'a dyn Fn(&[String]) -> String,
    go: &'a str,
    /// `Some(Some(move))` for the line with the best move, `Some(None)` for "no move".
    best: &'a dyn Fn(&str) -> Option<Option<String>>,
}

/// Plays one whole game through a protocol against itself, checking every move it gives
/// with an independent `Game`.
fn self_play(d: Driver, lines: &Lines, game: &mut Game, max_plies: usize) -> usize {
    let mut played: Vec<String> = Vec::new();
    for _ in 0..max_plies {
        (d.handle)(&(d.position)(&played));
        (d.handle)(d.go);
        (d.wait)();
        let out = lines.take();
        let answer = out
            .iter()
            .find_map(|l| (d.best)(l))
            .unwrap_or_else(|| panic!("no best move in {out:?}"));
        let Some(mv) = answer else {
            assert!(
                game.outcome().is_some(),
                "no move although the game goes on"
            );
            return played.len();
        };
        let text = (d.to_zrf)(game, &mv);
        game.play(&text)
            .unwrap_or_else(|e| panic!("{mv} after {played:?}: {e}"));
        played.push(mv);
        if game.outcome().is_some() {
            return played.len();
        }
    }
    panic!("no result within {max_plies} plies: {played:?}");
}

#[test]
fn uci_plays_a_whole_game_against_itself() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    uci.handle("setoption name UCI_Variant value tic-tac-toe");
    uci.handle("isready");
    assert_eq!(lines.take(), vec!["readyok"]);
    let rules = common::rules("games/tic-tac-toe.zrf", None);
    let mut game = Game::new(rules.clone(), rules.initial());
    let uci = std::cell::RefCell::new(uci);
    let plies = self_play(
        Driver {
            handle: &mut |l| uci.borrow_mut().handle(l),
            wait: &mut || uci.borrow_mut().wait(),
            to_zrf: &|g, mv| {
                let list = g.legal().clone();
                let i = zrf::protocol::uci::parse_move(&g.rules, &list, mv).expect("legal");
                zrf::notation::move_texts(&g.rules.def, &list)[i].clone()
            },
            position: &|moves| format!("position startpos moves {}", moves.join(" ")),
            go: "go depth 9",
            best: &|l| {
                l.strip_prefix("bestmove ").map(|b| {
                    let b = b.split(' ').next().unwrap_or("");
                    (b != "(none)").then(|| b.to_string())
                })
            },
        },
        &lines,
        &mut game,
        10,
    );
    // Perfect play on both sides fills the board: a draw after nine marks.
    assert_eq!(plies, 9);
    let o = game.outcome().expect("over");
    assert!(o.winners.is_empty(), "{}", o.describe(&game.rules.def));
}

#[test]
fn uci_chess_game_against_itself_ends() {
    // Chess through UCI from a bare endgame: king and queen against king, both sides at
    // depth 3, must end in mate for White (or a draw rule) with every move legal.
    let lines = Lines::default();
    let uci = Uci::new(lines.out(), loader(), None);
    let fen = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1";
    let rules = common::rules("games/chess.zrf", None);
    let pos = zrf::setup::parse(&rules, fen).expect("fen");
    let mut game = Game::new(rules, pos);
    let uci = std::cell::RefCell::new(uci);
    let plies = self_play(
        Driver {
            handle: &mut |l| uci.borrow_mut().handle(l),
            wait: &mut || uci.borrow_mut().wait(),
            to_zrf: &|g, mv| {
                let list = g.legal().clone();
                let i = zrf::protocol::uci::parse_move(&g.rules, &list, mv).expect("legal");
                zrf::notation::move_texts(&g.rules.def, &list)[i].clone()
            },
            position: &|moves| format!("position fen {fen} moves {}", moves.join(" ")),
            go: "go depth 3",
            best: &|l| {
                l.strip_prefix("bestmove ").map(|b| {
                    let b = b.split(' ').next().unwrap_or("");
                    (b != "(none)").then(|| b.to_string())
                })
            },
        },
        &lines,
        &mut game,
        200,
    );
    let o = game.outcome().expect("over");
    assert!(plies > 2);
    assert_eq!(o.describe(&game.rules.def), "White wins (checkmated)");
}

#[test]
fn hub_session() {
    let lines = Lines::default();
    let mut hub = Hub::new(lines.out(), loader(), None);
    let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    let mut squares = ['e'; 50];
    (squares[22], squares[40], squares[45]) = ('b', 'b', 'W');
    let king = format!("W{}", squares.iter().collect::<String>());
    let script = [
        "hub".to_string(),
        "init".into(),
        "new-game".into(),
        format!("pos pos={start} moves=\"32-28 19-23 28x19\""),
        "level depth=3".into(),
        "go think".into(),
        // A king on 46 with two men to take: both orders of the captured squares are one move.
        format!("pos pos={king} moves=\"46x5x23x41\""),
        format!("pos pos={king} moves=\"46x5x41x23\""),
        "go think".into(),
        "level depth=1".into(),
        "go think".into(),
        "pos pos=Wxyz".into(),
        format!("pos pos={start} moves=\"31-26 19-23 26-17\""),
        "set-param name=variant value=frysian".into(),
        "set-param name=colour value=red".into(),
        "level depth=lots".into(),
        "go sideways".into(),
        "launch".into(),
        "ping".into(),
        "quit".into(),
    ];
    let mut got = Vec::new();
    for l in &script {
        got.push(format!("> {l}"));
        hub.handle(l);
        if l.starts_with("go") {
            hub.wait();
        }
        got.extend(lines.take());
    }
    insta::assert_snapshot!(redact(&got));
}

#[test]
fn hub_plays_a_whole_game_against_itself() {
    let lines = Lines::default();
    let mut hub = Hub::new(lines.out(), loader(), None);
    hub.handle("set-param name=variant value=english-draughts-1902");
    hub.handle("init");
    hub.handle("level depth=3");
    assert_eq!(lines.take(), vec!["ready"]);
    let rules = common::rules("games/english-draughts.zrf", None);
    let mut game = Game::new(rules.clone(), rules.initial());
    let hub = std::cell::RefCell::new(hub);
    let plies = self_play(
        Driver {
            handle: &mut |l| hub.borrow_mut().handle(l),
            wait: &mut || hub.borrow_mut().wait(),
            to_zrf: &|g, mv| {
                let list = g.legal().clone();
                let nums = zrf::protocol::hub::Numbers::of(&g.rules).expect("numbered");
                let i = zrf::protocol::hub::parse_move(&g.rules, &nums, &list, mv).expect("legal");
                zrf::notation::move_texts(&g.rules.def, &list)[i].clone()
            },
            position: &|moves| format!("pos start moves=\"{}\"", moves.join(" ")),
            go: "go think",
            best: &|l| {
                l.strip_prefix("done").map(|b| {
                    b.split_whitespace()
                        .find_map(|w| w.strip_prefix("move="))
                        .map(String::from)
                })
            },
        },
        &lines,
        &mut game,
        400,
    );
    assert!(plies > 10, "{plies}");
    assert!(game.outcome().is_some());
}

#[test]
fn time_allotment() {
    use zrf::protocol::uci::allot;
    let ms = Duration::from_millis;
    // 10 s + 0.1 s: a thirtieth of the clock plus three quarters of the increment, less the
    // overhead the move costs besides.
    assert_eq!(
        allot(ms(10_000), ms(100), None, ms(20)),
        ms(9_980) / 30 + ms(75) - ms(20)
    );
    // Almost no time left: never more than 40% of what remains after the overhead.
    assert_eq!(allot(ms(100), ms(1_000), None, ms(20)), ms(32));
    // The last move before the time control may use what is left.
    assert_eq!(allot(ms(1_000), ms(0), Some(1), ms(20)), ms(960));
    // An overhead larger than the share leaves the least search there is.
    assert_eq!(allot(ms(300), ms(100), None, ms(200)), ms(1));
}

#[test]
fn uci_learns_the_lag_from_the_clock() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    uci.handle("position startpos");
    uci.handle("go depth 1 wtime 10000 btime 10000 winc 100 binc 100");
    uci.wait();
    assert_eq!(uci.lag(), Duration::ZERO);
    // The GUI charged our first move 1.1 s, though we answered a depth-1 search at once.
    uci.handle("position startpos moves e2e4 e7e5");
    uci.handle("go depth 1 wtime 9000 btime 10000 winc 100 binc 100");
    uci.wait();
    let lag = uci.lag();
    assert!(
        lag > Duration::from_millis(500) && lag <= Duration::from_millis(1100),
        "{lag:?}"
    );
    // Black's clock is another side's: it teaches nothing about ours.
    uci.handle("position startpos moves e2e4 e7e5 g1f3");
    uci.handle("go depth 1 wtime 9000 btime 5000 winc 100 binc 100");
    uci.wait();
    assert_eq!(uci.lag(), lag);
    // A new game forgets the last clock (the lag, a fact about the machine, stays).
    uci.handle("ucinewgame");
    uci.handle("position startpos");
    uci.handle("go depth 1 wtime 1000 btime 1000");
    uci.wait();
    assert_eq!(uci.lag(), lag);
}

// ---------------------------------------------------------------------------------------------
// Against Stockfish (the Debian package; `.ci/run` installs it).

fn stockfish() -> Option<String> {
    for p in ["/usr/games/stockfish", "/usr/bin/stockfish"] {
        if std::path::Path::new(p).is_file() {
            return Some(p.to_string());
        }
    }
    None
}

struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(cmd: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {cmd}: {e}"));
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Engine {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("write to engine");
        self.input.flush().expect("flush");
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn until(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        for _ in 0..100_000 {
            line.clear();
            let n = self.output.read_line(&mut line).expect("read from engine");
            assert!(n > 0, "engine closed before `{prefix}`");
            if line.starts_with(prefix) {
                return line.trim_end().to_string();
            }
        }
        panic!("no `{prefix}` line");
    }

    /// The FEN the engine has after a `position` command (both engines print it for `d`).
    fn fen(&mut self) -> String {
        self.send("d");
        let l = self.until_any(&["Fen: ", "info string fen "]);
        l.trim_start_matches("Fen: ")
            .trim_start_matches("info string fen ")
            .to_string()
    }

    fn until_any(&mut self, prefixes: &[&str]) -> String {
        let mut line = String::new();
        for _ in 0..100_000 {
            line.clear();
            let n = self.output.read_line(&mut line).expect("read from engine");
            assert!(n > 0, "engine closed");
            if prefixes.iter().any(|p| line.starts_with(p)) {
                return line.trim_end().to_string();
            }
        }
        panic!("none of {prefixes:?}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Board, side and castling fields: the clocks differ (zrf's `d` numbers moves from the
/// position it was given) and so may the en passant field (Stockfish writes it only when an
/// en passant capture is legal).
fn placement(fen: &str) -> String {
    fen.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

#[test]
fn a_game_against_stockfish_with_every_move_legal_both_ways() {
    let Some(sf) = stockfish() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Stockfish (.ci/run installs the Debian package)"
        );
        eprintln!("note: Stockfish is not installed; skipping the game against it");
        return;
    };
    let mut zrf = Engine::start(env!("CARGO_BIN_EXE_zrf"), &["uci"]);
    let mut fish = Engine::start(&sf, &[]);
    for e in [&mut zrf, &mut fish] {
        e.send("uci");
        e.until("uciok");
        e.send("isready");
        e.until("readyok");
        e.send("ucinewgame");
    }
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..24 {
        let position = format!("position startpos moves {}", moves.join(" "));
        let (mover, go) = if ply % 2 == 0 {
            (&mut zrf, "go depth 2")
        } else {
            (&mut fish, "go depth 1")
        };
        mover.send(&position);
        mover.send(go);
        let best = mover.until("bestmove");
        let mv = best.split_whitespace().nth(1).expect("a move").to_string();
        if mv == "(none)" {
            break;
        }
        moves.push(mv);
        // Both engines must take the whole line and reach the same position: a move one of
        // them found illegal would stop its line short.
        let position = format!("position startpos moves {}", moves.join(" "));
        zrf.send(&position);
        fish.send(&position);
        let (a, b) = (zrf.fen(), fish.fen());
        assert_eq!(placement(&a), placement(&b), "after {moves:?}");
    }
    assert!(moves.len() >= 20, "{moves:?}");
    zrf.send("quit");
    fish.send("quit");
}

#[test]
fn hub_numbers_draughts_boards_that_name_their_squares() {
    // Russian draughts names its squares; Hub moves number the dark squares as pydraughts
    // does: from a1 (1) row by row up to h8 (32); positions list them from b8 down to g1.
    let rules = common::rules("games/russian-draughts.zrf", None);
    let nums = zrf::protocol::hub::Numbers::of(&rules).expect("derived");
    let number = |name: &str| nums.number(rules.def.board.pos_id(name).expect("square").0);
    assert_eq!(
        ["b8", "h8", "a7", "c3", "d4", "g1", "a1"].map(number),
        [29, 32, 25, 10, 14, 4, 1]
    );
    let name = |k: u32| {
        &rules.def.board.positions[nums.square_in_position(k).expect("a square") as usize].name
    };
    assert_eq!(
        [1, 4, 5, 32].map(|k| name(k).as_str()),
        ["b8", "h8", "a7", "g1"]
    );
    // A light square has no number (the shipped file does not even declare them).
    assert!(rules
        .def
        .board
        .pos_id("a8")
        .is_none_or(|p| nums.number(p.0) == 0));
    let lines = Lines::default();
    let mut hub = Hub::new(lines.out(), loader(), None);
    for l in [
        "set-param name=variant value=russian",
        "init",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 23-19 14x23\"",
        "level depth=1",
        "go think",
    ] {
        hub.handle(l);
    }
    hub.wait();
    let out = lines.take();
    // Black must retake on f6 (23): from e7 (27) landing on g5 (20), or from g7 (28) to e5 (19).
    let done = out.iter().find(|l| l.starts_with("done")).expect("done");
    assert!(
        done.starts_with("done move=27x20x23") || done.starts_with("done move=28x19x23"),
        "{out:?}"
    );
}

/// pydraughts' `HubEngine.play` plays whole games of international, Frisian, English,
/// Russian and Brazilian draughts against itself through zrf, every move legal on its board
/// (tests/pydraughts_hub.py), and a game zrf's rules ended (a threefold repetition) still gets
/// a legal move. `.ci/run` installs pydraughts; without it the test fails under CI and is
/// skipped elsewhere with a note.
#[test]
fn pydraughts_plays_whole_games_through_the_hub_protocol() {
    if !common::python_has("draughts", "pydraughts") {
        return;
    }
    common::python_checks("pydraughts_hub.py", 6);
}

#[test]
fn contempt_is_an_option_of_both_protocols_and_a_bad_value_changes_nothing() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    let got = uci_script(
        &mut uci,
        &lines,
        &[
            "setoption name Contempt value 0",
            "setoption name Contempt value 101",
            "setoption name Contempt value -100",
            "setoption name Contempt value lots",
        ],
    );
    let told: Vec<&String> = got.iter().filter(|l| !l.starts_with("> ")).collect();
    assert_eq!(told.len(), 2, "{got:?}");
    assert!(
        told.iter()
            .all(|l| l.starts_with("info string Contempt takes a number from -100 to 100")),
        "{got:?}"
    );
    let lines = Lines::default();
    let mut hub = Hub::new(lines.out(), loader(), None);
    hub.handle("hub");
    let params = lines.take();
    assert!(
        params.contains(&"param name=contempt value=20 type=int min=-100 max=100".to_string()),
        "{params:?}"
    );
    hub.handle("set-param name=contempt value=-20");
    assert!(lines.take().is_empty());
    hub.handle("set-param name=contempt value=200");
    let got = lines.take();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("error message=\"contempt takes a number from -100 to 100"),
        "{got:?}"
    );
}

/// zrf under python-chess's engine module (tests/python_chess_uci.py): MultiPV lines of one
/// depth ranked by score (also when time cuts the last iteration), `searchmoves` (python-chess
/// `root_moves`) honoured, castling among them. `.ci/run` installs python-chess; without it
/// the test fails under CI and is skipped elsewhere with a note.
#[test]
fn python_chess_drives_zrf_as_a_uci_engine() {
    if !common::python_has("chess", "python-chess") {
        return;
    }
    common::python_checks("python_chess_uci.py", 22);
}

/// The `fen` line `d` shows.
fn shown_fen(uci: &mut Uci, lines: &Lines) -> Option<String> {
    uci.handle("d");
    lines
        .take()
        .iter()
        .find_map(|l| l.strip_prefix("info string fen ").map(String::from))
}

#[test]
fn uci_positions_keep_the_move_number_and_read_shredder_and_x_fen() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    uci.handle(&format!("position fen {start} w KQkq - 0 10"));
    assert_eq!(
        shown_fen(&mut uci, &lines).as_deref(),
        Some(&*format!("{start} w KQkq - 0 10"))
    );
    uci.handle(&format!(
        "position fen {start} w KQkq - 0 10 moves e2e4 e7e5 g1f3"
    ));
    assert_eq!(
        shown_fen(&mut uci, &lines).as_deref(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 11")
    );
    // The largest fullmove number counts on without wrapping; a larger one is refused.
    uci.handle(&format!(
        "position fen {start} w KQkq - 0 4294967295 moves d2d4 d7d5"
    ));
    assert_eq!(
        shown_fen(&mut uci, &lines).as_deref(),
        Some("rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 4294967296")
    );
    uci.handle(&format!("position fen {start} w KQkq - 0 4294967296"));
    assert!(lines.take()[0].contains("bad fullmove number `4294967296`"));
    // Shredder-FEN (`HAha`) and X-FEN file letters for the rooks' files, as `KQkq`.
    for rights in ["HAha", "KQkq", "HQka"] {
        let mut uci = Uci::new(lines.out(), loader(), None);
        uci.handle(&format!(
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w {rights} - 0 1 moves e1g1 e8c8"
        ));
        assert_eq!(
            shown_fen(&mut uci, &lines).as_deref(),
            Some("2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"),
            "{rights}"
        );
    }
    // Only the rights named: `A` (the a-file rook) allows O-O-O, not O-O.
    uci.handle("position fen r3k2r/8/8/8/8/8/8/R3K2R w A - 0 1");
    uci.handle("d");
    let legal = lines.take().join("\n");
    assert!(
        legal.contains(" e1c1") && !legal.contains(" e1g1"),
        "{legal}"
    );
    uci.handle("position fen r3k2r/8/8/8/8/8/8/R3K2R w B - 0 1");
    assert!(lines.take()[0].contains("no rook of that side on file b"));
}

/// A refused `position` (a bad FEN, an illegal move) leaves no position: `go` says why and
/// answers `bestmove (none)` instead of searching the previous one, until a good `position`.
#[test]
fn uci_go_after_a_refused_position_searches_nothing() {
    let lines = Lines::default();
    let mut uci = Uci::new(lines.out(), loader(), None);
    for bad in [
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkz - 0 1",
        "position startpos moves e2e4 e7e5 e1e3",
        "position sideways",
    ] {
        let got = uci_script(&mut uci, &lines, &["position startpos", bad, "go depth 2"]);
        assert!(
            got.iter()
                .any(|l| l.starts_with("info string position refused: ")),
            "{got:?}"
        );
        assert!(
            got.iter().any(|l| l
                .starts_with("info string no position to search: the last `position` was refused")),
            "{got:?}"
        );
        assert_eq!(got.last().map(String::as_str), Some("bestmove (none)"));
    }
    let got = uci_script(&mut uci, &lines, &["position startpos", "go depth 1"]);
    assert!(got
        .last()
        .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove (none)"));
}

/// A `RulesFile` that does not load, or a variant whose rules have errors, keeps the rules in
/// play and says why; Capablanca chess is a `UCI_Variant`.
#[test]
fn uci_keeps_its_rules_after_a_bad_rules_file() {
    let dir = common::TempDir::new("uci-rules");
    let broken = dir.write("broken.zrf", "(game (title \"Broken\") (board (grid (dimensions \"ab\" \"12\"))) (pieces (piece (name P) (moves (nowhere)))))");
    let nothing = dir.write("nothing.zrf", "; no game here\n");
    let lines = Lines::default();
    let fs: SharedLoader = Arc::new(common::FsLoader);
    let mut uci = Uci::new(lines.out(), fs, None);
    for file in [&broken, &nothing, &dir.0.join("missing.zrf")] {
        let got = uci_script(
            &mut uci,
            &lines,
            &[
                &format!("setoption name RulesFile value {}", file.display()),
                "position startpos moves e2e4",
                "go depth 1",
            ],
        );
        assert!(
            got.iter()
                .any(|l| l.starts_with("info string") && l.ends_with("the rules in play are kept")),
            "{got:?}"
        );
        assert!(
            got.last()
                .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove (none)"),
            "{got:?}"
        );
    }
    let got = uci_script(&mut uci, &lines, &["uci"]);
    assert!(
        got.iter()
            .any(|l| l.starts_with("option name UCI_Variant") && l.contains(" var capablanca")),
        "{got:?}"
    );
    let got = uci_script(
        &mut uci,
        &lines,
        &[
            "setoption name UCI_Variant value capablanca",
            "position startpos moves h1i3",
            "go depth 2",
        ],
    );
    assert!(
        got.last()
            .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove (none)"),
        "{got:?}"
    );
}

/// A refused Hub `pos` leaves no position: `go` says why and answers a bare `done` instead of
/// searching the previous one, until a good `pos`.
#[test]
fn hub_go_after_a_refused_pos_searches_nothing() {
    let lines = Lines::default();
    let mut hub = Hub::new(lines.out(), loader(), None);
    let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    for l in [
        "init",
        "level depth=1",
        &format!("pos pos={start} moves=\"32-28\""),
        &format!("pos pos={start} moves=\"31-26 19-23 26-17\""),
        "go think",
    ] {
        hub.handle(l);
        hub.wait();
    }
    let out = lines.take();
    assert!(
        out.iter()
            .any(|l| l
                .starts_with("error message=\"no position to search: the last pos was refused")),
        "{out:?}"
    );
    assert_eq!(out.last().map(String::as_str), Some("done"), "{out:?}");
    hub.handle(&format!("pos pos={start} moves=\"32-28\""));
    hub.handle("go think");
    hub.wait();
    let out = lines.take();
    assert!(out.iter().any(|l| l.starts_with("done move=")), "{out:?}");
}
