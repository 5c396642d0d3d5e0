//! UCI, as chess GUIs and match runners speak it, for any game zrf loads.
//!
//! Moves are written the UCI way (`e2e4`, `e7e8q`, `P@e4`, castling as the king's move
//! `e1g1`) in games whose squares are named like chess squares; in other games zrf's own
//! canonical move text is used. `UCI_Variant` selects a shipped game or variant (chess,
//! crazyhouse, loop, chessgi, ... as Fairy-Stockfish names them), or, after `RulesFile`, a game
//! or variant of that file. Errors never end the session: they are reported as
//! `info string` lines and the engine stays usable.

use std::sync::Arc;
use std::time::Duration;

use super::{convert_line, Catalogue, Finished, Job, Out, PositionError, Runner, SharedLoader};
use crate::ai::{Info, Limits, Score, SearchConfig};
use crate::engine::{MoveList, Position, Rules};
use crate::notation;
use crate::play::Game;

/// The longest line the protocol looks at; longer input is refused (a GUI never sends one).
pub const MAX_LINE: usize = 1 << 20;
/// The most moves a `position` command may list.
pub const MAX_MOVES: usize = 100_000;
/// The most lines `MultiPV` may ask for.
pub const MAX_MULTI_PV: u32 = 256;
/// The words of `go`, which end the move list of `searchmoves`.
const GO_WORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// A UCI session.
pub struct Uci {
    out: Out,
    loader: SharedLoader,
    shipped: Catalogue,
    file: Option<Catalogue>,
    /// The name of the selected game (an entry of the active catalogue).
    variant: String,
    rules: Option<Rules>,
    game: Option<Game>,
    runner: Runner,
    overhead: Duration,
    /// Lag measured on the clock: what the GUI charged for our last move beyond the search
    /// time planned for it (or the time we took, if less) (pipes, the GUI, a busy machine), kept as a slowly decaying maximum
    /// (a sixteenth a move: one lag spike is remembered for a few dozen moves).
    lag: Duration,
    /// The side, clock, increment and planned search time of the last timed `go`, to
    /// measure the lag by.
    last_clock: Option<(bool, Duration, Duration, Duration)>,
    /// How long the last search took from `go` to `bestmove`, set by the search thread.
    answered: Arc<std::sync::Mutex<Option<Duration>>>,
    /// `MultiPV`: root moves reported with a line each.
    multi_pv: u32,
    /// `Contempt`: what a draw costs, in percent of the least piece ([`SearchConfig::contempt`]).
    contempt: i32,
    /// The fullmove number of the position's FEN (1 after `startpos`), to number moves by.
    first_number: u64,
    /// Why the last `position` was refused: until the next good one, `go` searches nothing.
    refused: Option<String>,
}

/// The fullmove number of the FEN `fen`, else 1 (zero counts as 1, as in most programs).
fn fullmove_of(fen: &str) -> u64 {
    fen.split_whitespace()
        .nth(5)
        .and_then(|f| f.parse::<u32>().ok())
        .map_or(1, |n| u64::from(n.max(1)))
}

/// The fullmove number of the game's position: `first` counted on by one for every round of
/// the turn order (each time the turn index does not go up).
fn fullmove_now(game: &Game, first: u64) -> u64 {
    let t = &game.turns;
    let mut n = first;
    for k in 1..t.len() {
        if t[k] <= t[k - 1] {
            n += 1;
        }
    }
    if t.last().is_some_and(|&last| game.pos.turn <= last) {
        n += 1;
    }
    n
}

/// How a game writes moves for UCI.
fn chess_like(rules: &Rules) -> bool {
    let b = &rules.def.board;
    !b.positions.is_empty()
        && b.numbers.iter().all(|&n| n == 0)
        && b.positions.iter().all(|p| {
            let s = p.name.as_bytes();
            s.len() >= 2
                && s[0].is_ascii_lowercase()
                && s[1..].iter().all(u8::is_ascii_digit)
                && s[1] != b'0'
        })
}

/// The UCI text of the legal move `i`: `e2e4`, `e7e8q`, `P@e4` where squares are chess-like,
/// else zrf's canonical text (unique among the legal moves).
pub fn move_text(rules: &Rules, list: &MoveList, i: usize) -> String {
    let def = &rules.def;
    let m = &list.moves[i];
    let canonical = || notation::move_texts(def, list)[i].clone();
    if !chess_like(rules) || m.pass || m.huff != 0 {
        return canonical();
    }
    let one = |m: &crate::engine::Move| -> String {
        let path = list.path(m);
        if m.drop != 0 {
            let letter = notation::piece_letter(def, m.drop - 1).to_uppercase();
            return format!("{letter}@{}", notation::square(def, path[path.len() - 1]));
        }
        let mut s = notation::square(def, path[0]);
        s += &notation::square(def, path[path.len() - 1]);
        if m.promote != 0 && m.promote_choice {
            s += &notation::piece_letter(def, m.promote - 1).to_lowercase();
        }
        s
    };
    let text = one(m);
    if list.moves.iter().filter(|o| one(o) == text).count() > 1 {
        return canonical();
    }
    text
}

/// Finds the legal move a UCI move names (zrf's own move forms are accepted too).
pub fn parse_move(
    rules: &Rules,
    list: &MoveList,
    text: &str,
) -> Result<usize, notation::MoveError> {
    if chess_like(rules) {
        if let Some(i) = (0..list.len()).find(|&i| move_text(rules, list, i) == text) {
            return Ok(i);
        }
    }
    notation::parse_move(&rules.def, list, text)
}

/// The time to spend on one move: a share of the clock plus most of the increment, less the
/// overhead that every move costs on top of the search, never more than the clock less the
/// overhead allows.
pub fn allot(
    time: Duration,
    inc: Duration,
    moves_to_go: Option<u32>,
    overhead: Duration,
) -> Duration {
    let left = time.saturating_sub(overhead);
    let n = moves_to_go.unwrap_or(30).clamp(1, 50);
    // Each move costs the overhead besides its search: with a share less the overhead, the
    // clock settles above zero even when the overhead eats a quarter of the increment.
    let share = (left / n + inc * 3 / 4).saturating_sub(overhead);
    // Keep a reserve: never more than 40% of what is left, unless it is the last move.
    let cap = if moves_to_go == Some(1) {
        left
    } else {
        left * 2 / 5
    };
    share.min(cap).max(Duration::from_millis(1))
}

/// `score cp 31`, `score mate 3`, `score mate -2`.
fn score_text(s: Score) -> String {
    match s {
        Score::Cp(v) => format!("cp {v}"),
        Score::Win(n) => format!("mate {}", n.div_ceil(2).max(1)),
        Score::Loss(n) => format!("mate -{}", n.div_ceil(2)),
    }
}

fn info_line(rules: &Rules, pos: &Position, i: &Info) -> String {
    let ms = i.elapsed.as_millis().max(1) as u64;
    let nps = i.nodes.saturating_mul(1000) / ms;
    let pv = convert_line(rules, pos, &i.pv, &move_text).join(" ");
    format!(
        "info depth {d} seldepth {d} multipv {} score {} nodes {} nps {nps} time {} pv {pv}",
        i.multipv.max(1),
        score_text(i.score),
        i.nodes,
        i.elapsed.as_millis(),
        d = i.depth.max(1)
    )
    .trim_end()
    .to_string()
}

impl Uci {
    /// A session over the shipped games; `file` is a rules file to open at once (its games
    /// become the `UCI_Variant` values).
    pub fn new(out: Out, loader: SharedLoader, file: Option<&str>) -> Uci {
        let shipped = Catalogue::shipped(loader.as_ref());
        let mut uci = Uci {
            variant: shipped
                .entries
                .first()
                .map(|e| e.name.clone())
                .unwrap_or_default(),
            out,
            loader,
            shipped,
            file: None,
            rules: None,
            game: None,
            runner: Runner::default(),
            overhead: Duration::from_millis(20),
            lag: Duration::ZERO,
            last_clock: None,
            answered: Arc::default(),
            multi_pv: 1,
            contempt: crate::ai::DEFAULT_CONTEMPT,
            first_number: 1,
            refused: None,
        };
        if let Some(path) = file {
            uci.open_file(path);
        }
        uci
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    fn tell(&self, msg: &str) {
        for l in msg.lines() {
            self.say(&format!("info string {l}"));
        }
    }

    fn catalogue(&self) -> &Catalogue {
        self.file.as_ref().unwrap_or(&self.shipped)
    }

    fn open_file(&mut self, path: &str) {
        if path.is_empty() || path == "<empty>" {
            self.file = None;
            self.variant = self.shipped.entries[0].name.clone();
        } else {
            match super::catalogue_of_file(path, self.loader.as_ref()) {
                Ok(cat) => {
                    let d = crate::summary::default_index(
                        &crate::load(&cat.files[0].0, &cat.files[0].1, self.loader.as_ref()).games,
                    );
                    let entry = cat.entries[d.min(cat.entries.len() - 1)].clone();
                    // A file whose game does not load leaves the rules in play as they were.
                    if let Err(e) = cat.rules(&entry, self.loader.as_ref()) {
                        self.tell(&format!("{e}; the rules in play are kept"));
                        return;
                    }
                    self.variant = entry.name;
                    self.file = Some(cat);
                }
                Err(e) => {
                    self.tell(&format!("{e}; the rules in play are kept"));
                    return;
                }
            }
        }
        self.rules = None;
        self.game = None;
        self.refused = None;
    }

    /// The rules of the selected game, loaded on first use.
    fn rules(&mut self) -> Option<&Rules> {
        if self.rules.is_none() {
            let cat = self.catalogue();
            let Some(entry) = cat.find(&self.variant).cloned() else {
                self.tell(&format!("unknown variant `{}`", self.variant));
                return None;
            };
            match cat.rules(&entry, self.loader.as_ref()) {
                Ok(r) => {
                    self.runner.prepare(&r);
                    self.rules = Some(r);
                }
                Err(e) => {
                    self.tell(&e.to_string());
                    return None;
                }
            }
        }
        self.rules.as_ref()
    }

    /// Answers one line; false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let (cmd, rest) = match super::command_of(line, MAX_LINE) {
            Ok(parts) => parts,
            Err(e) => {
                self.tell(&e.to_string());
                return true;
            }
        };
        match cmd {
            "" => {}
            "uci" => self.uci(),
            "isready" => {
                self.rules();
                self.say("readyok");
            }
            "setoption" => self.setoption(rest),
            "ucinewgame" => {
                self.runner.clear();
                self.game = None;
                self.refused = None;
                self.first_number = 1;
                self.last_clock = None;
            }
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.runner.stop(),
            "ponderhit" => self.runner.release(),
            "quit" => {
                self.runner.stop();
                return false;
            }
            "d" => self.show(),
            "debug" | "register" => {}
            _ => self.tell(&format!("unknown command `{}`", super::printable(cmd))),
        }
        true
    }

    /// The lag learnt from the clock so far: kept back from each move besides `Move Overhead`.
    pub fn lag(&self) -> Duration {
        self.lag
    }

    /// Waits until the running search, if any, has reported (for tests and scripts).
    pub fn wait(&mut self) {
        self.runner.wait();
    }

    fn uci(&mut self) {
        self.say(&format!("id name zrf {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the zrf developers");
        let names: Vec<&str> = self
            .catalogue()
            .entries
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        let mut combo = format!(
            "option name UCI_Variant type combo default {}",
            self.variant
        );
        for n in names {
            combo += " var ";
            combo += n;
        }
        self.say(&combo);
        let file = self
            .file
            .as_ref()
            .map(|c| c.files[0].0.clone())
            .unwrap_or_else(|| "<empty>".into());
        self.say(&format!("option name RulesFile type string default {file}"));
        self.say(&format!(
            "option name Hash type spin default {} min 1 max 4096",
            crate::ai::DEFAULT_TT_MB
        ));
        self.say("option name Clear Hash type button");
        self.say("option name Threads type spin default 1 min 1 max 1");
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"
        ));
        self.say(&format!(
            "option name Contempt type spin default {} min {} max {}",
            crate::ai::DEFAULT_CONTEMPT,
            crate::ai::CONTEMPT_RANGE.start(),
            crate::ai::CONTEMPT_RANGE.end()
        ));
        self.say("option name Move Overhead type spin default 20 min 0 max 5000");
        self.say("option name Ponder type check default false");
        self.say("uciok");
    }

    fn setoption(&mut self, rest: &str) {
        let Some(rest) = rest.strip_prefix("name") else {
            self.tell("setoption is written `setoption name NAME [value VALUE]`");
            return;
        };
        let (name, value) = match rest.find(" value") {
            Some(i) => (rest[..i].trim(), rest[i + 6..].trim()),
            None => (rest.trim(), ""),
        };
        self.runner.stop();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                if let Some(entry) = self.catalogue().find(value).cloned() {
                    match self.catalogue().rules(&entry, self.loader.as_ref()) {
                        Ok(r) => {
                            self.variant = entry.name;
                            self.runner.prepare(&r);
                            self.rules = Some(r);
                            self.game = None;
                            self.refused = None;
                        }
                        Err(e) => self.tell(&format!("{e}; the rules in play are kept")),
                    }
                } else {
                    let names: Vec<&str> = self
                        .catalogue()
                        .entries
                        .iter()
                        .map(|e| e.name.as_str())
                        .collect();
                    let hint = crate::diagnostic::nearest(value, names.iter().copied())
                        .map(|n| format!("; did you mean `{n}`?"))
                        .unwrap_or_default();
                    self.tell(&format!(
                        "unknown variant `{}`{hint}",
                        super::printable(value)
                    ));
                }
            }
            "rulesfile" => self.open_file(value),
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    self.runner.tt_mb = mb;
                    self.runner.reset();
                    if let Some(r) = self.rules.clone() {
                        self.runner.prepare(&r);
                    }
                }
                _ => self.tell("Hash takes megabytes from 1 to 4096"),
            },
            "clear hash" => self.runner.clear(),
            "threads" => {
                if value != "1" {
                    self.tell(&format!("{name} is 1 in this engine"));
                }
            }
            "multipv" => match value.parse::<u32>() {
                Ok(n) if (1..=MAX_MULTI_PV).contains(&n) => self.multi_pv = n,
                _ => self.tell(&format!("MultiPV takes a number from 1 to {MAX_MULTI_PV}")),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(c) if crate::ai::CONTEMPT_RANGE.contains(&c) => self.contempt = c,
                _ => self.tell(&format!(
                    "Contempt takes a number from {} to {} (percent of the least piece)",
                    crate::ai::CONTEMPT_RANGE.start(),
                    crate::ai::CONTEMPT_RANGE.end()
                )),
            },
            "move overhead" => match value.parse::<u64>() {
                Ok(ms) if ms <= 5000 => self.overhead = Duration::from_millis(ms),
                _ => self.tell("Move Overhead takes milliseconds from 0 to 5000"),
            },
            "uci_chess960" | "ponder" | "uci_analysemode" | "uci_showwdl" => {}
            _ => self.tell(&format!("unknown option `{}`", super::printable(name))),
        }
    }

    /// Sets the position; a refused one (a bad FEN, an illegal move) leaves none, and `go`
    /// then says why and answers `bestmove (none)` rather than search a position the GUI did
    /// not send.
    fn position(&mut self, rest: &str) {
        self.runner.stop();
        self.game = None;
        self.refused = Some("no rules are loaded".into());
        let Some(rules) = self.rules().cloned() else {
            return;
        };
        match self.set_position(rules, rest) {
            Ok(()) => self.refused = None,
            Err(e) => {
                self.tell(&format!("position refused: {e}"));
                self.game = None;
                self.refused = Some(e.to_string());
            }
        }
    }

    fn set_position(&mut self, rules: Rules, rest: &str) -> Result<(), PositionError> {
        let (setup, moves) = match rest.find("moves") {
            Some(i) => (rest[..i].trim(), rest[i + 5..].trim()),
            None => (rest.trim(), ""),
        };
        let (pos, first) = if setup == "startpos" {
            (rules.initial(), 1)
        } else if let Some(fen) = setup.strip_prefix("fen") {
            let fen = fen.trim();
            let pos = crate::setup::parse(&rules, fen).map_err(PositionError::Fen)?;
            (pos, fullmove_of(fen))
        } else {
            return Err(PositionError::Usage);
        };
        let mut game = Game::new(rules, pos);
        for (k, mv) in moves.split_whitespace().enumerate() {
            if k >= MAX_MOVES {
                return Err(PositionError::TooManyMoves(MAX_MOVES));
            }
            let list = game.legal().clone();
            let i = (parse_move(&game.rules, &list, mv))
                .map_err(|why| PositionError::NoSuchMove { number: k + 1, why })?;
            let text = notation::move_texts(&game.rules.def, &list)[i].clone();
            game.play(&text).map_err(|why| PositionError::Unplayable {
                number: k + 1,
                text: mv.to_string(),
                why,
            })?;
        }
        self.game = Some(game);
        self.first_number = first;
        Ok(())
    }

    fn go(&mut self, rest: &str) {
        self.runner.stop();
        if let Some(why) = &self.refused {
            self.tell(&format!(
                "no position to search: the last `position` was refused ({why})"
            ));
            self.say("bestmove (none)");
            return;
        }
        if self.game.is_none() {
            let Some(rules) = self.rules().cloned() else {
                self.say("bestmove (none)");
                return;
            };
            let pos = rules.initial();
            self.game = Some(Game::new(rules, pos));
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut limits = Limits::default();
        let (mut wtime, mut btime, mut winc, mut binc, mut mtg) = (None, None, None, None, None);
        let mut hold = false;
        let mut ponder = false;
        let num = |i: usize| words.get(i + 1).and_then(|w| w.parse::<i64>().ok());
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        let mut i = 0;
        let mut bad = Vec::new();
        let mut searchmoves = Vec::new();
        while i < words.len() {
            let w = words[i];
            let v = num(i);
            let takes = matches!(
                w,
                "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "depth"
                    | "nodes"
                    | "movetime"
                    | "mate"
            );
            match (w, v) {
                ("wtime", Some(v)) => wtime = Some(ms(v)),
                ("btime", Some(v)) => btime = Some(ms(v)),
                ("winc", Some(v)) => winc = Some(ms(v)),
                ("binc", Some(v)) => binc = Some(ms(v)),
                ("movestogo", Some(v)) => mtg = Some(v.clamp(0, 1000) as u32),
                ("depth", Some(v)) => limits.depth = Some(v.clamp(1, 128) as u32),
                ("mate", Some(v)) => limits.depth = Some((v.clamp(1, 64) * 2) as u32),
                ("nodes", Some(v)) => limits.nodes = Some(v.max(1) as u64),
                ("movetime", Some(v)) => {
                    limits.time = Some(
                        ms(v)
                            .saturating_sub(self.overhead)
                            .max(Duration::from_millis(1)),
                    );
                    limits.fixed_time = true;
                }
                ("infinite", _) => hold = true,
                ("ponder", _) => {
                    hold = true;
                    ponder = true;
                }
                ("searchmoves", _) => {
                    // The moves up to the next keyword, each read as a legal move.
                    let game = self.game.as_mut().expect("set above");
                    let list = game.legal().clone();
                    let texts = notation::move_texts(&game.rules.def, &list);
                    while i + 1 < words.len() && !GO_WORDS.contains(&words[i + 1]) {
                        i += 1;
                        match parse_move(&game.rules, &list, words[i]) {
                            Ok(k) => searchmoves.push(texts[k].clone()),
                            Err(_) => bad.push(words[i]),
                        }
                    }
                }
                _ => bad.push(w),
            }
            i += if takes { 2 } else { 1 };
        }
        if !bad.is_empty() {
            self.tell(&format!(
                "ignored in go: {}",
                super::printable(&bad.join(" "))
            ));
        }
        let game = self.game.as_mut().expect("set above");
        let first = game.rules.entry(game.pos.turn).mover.idx() == 0;
        let (time, inc) = if first { (wtime, winc) } else { (btime, binc) };
        let answered = self.answered.lock().map(|mut a| a.take()).unwrap_or(None);
        if let Some(t) = time {
            let inc = inc.unwrap_or_default();
            // The clock tells what our last move really cost: learn the lag from it.
            // What it cost beyond the planned search time is lag, whether the search overran
            // its time (a busy machine runs it late) or the answer took long to arrive.
            if let (Some((side, before, prev_inc, planned)), Some(took)) =
                (self.last_clock, answered)
            {
                let charged = (before + prev_inc).checked_sub(t);
                if let Some(lag) = charged.and_then(|c| c.checked_sub(took.min(planned))) {
                    if side == first && lag < Duration::from_secs(2) {
                        self.lag = lag.max(self.lag * 15 / 16);
                    }
                }
            }
            if limits.time.is_none() {
                limits.time = Some(allot(t, inc, mtg, self.overhead.max(self.lag)));
            }
            let planned = limits.time.unwrap_or(Duration::MAX);
            self.last_clock = (!ponder).then_some((first, t, inc, planned));
        }
        // Pondering thinks without a clock; the time counts from `ponderhit`.
        let ponder_time = if ponder { limits.time.take() } else { None };
        let cfg = SearchConfig {
            limits,
            multi_pv: self.multi_pv,
            contempt: self.contempt,
            searchmoves,
            ..SearchConfig::default()
        };
        let job = Job {
            rules: game.rules.clone(),
            pos: game.pos.clone(),
            history: game.hashes.clone(),
            cfg,
            hold,
            ponder_time,
        };
        let outcome = game.outcome().map(|o| o.describe(&game.rules.def));
        let out_info = Arc::clone(&self.out);
        let out_done = Arc::clone(&self.out);
        let answered = Arc::clone(&self.answered);
        let asked = std::time::Instant::now();
        self.runner.start(
            job,
            move |rules, pos, i| out_info(&info_line(rules, pos, i)),
            move |rules, pos, f: Finished| match f.result {
                Some(r) => {
                    if let Ok(mut a) = answered.lock() {
                        *a = Some(asked.elapsed());
                    }
                    let line = convert_line(rules, pos, &r.info.pv, &move_text);
                    let best =
                        convert_line(rules, pos, std::slice::from_ref(&r.best_text), &move_text);
                    let best = best.first().cloned().unwrap_or(r.best_text.clone());
                    match line.get(1) {
                        Some(p) if line.first() == Some(&best) => {
                            out_done(&format!("bestmove {best} ponder {p}"))
                        }
                        _ => out_done(&format!("bestmove {best}")),
                    }
                }
                None => {
                    if let Some(o) = &outcome {
                        out_done(&format!("info string the game is over: {o}"));
                    }
                    out_done("bestmove (none)");
                }
            },
        );
    }

    fn show(&mut self) {
        if let Some(why) = &self.refused {
            self.tell(&format!(
                "no position: the last `position` was refused ({why})"
            ));
            return;
        }
        let Some(rules) = self.rules().cloned() else {
            return;
        };
        let game = self
            .game
            .get_or_insert_with(|| Game::new(rules.clone(), rules.initial()));
        let text = crate::setup::native(&game.rules, &game.pos);
        let number = fullmove_now(game, self.first_number);
        let fen = crate::repl::fen::fen(&game.rules, &game.pos, number).ok();
        let legal = {
            let list = game.legal().clone();
            (0..list.len())
                .map(|i| move_text(&game.rules, &list, i))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut msg = format!("variant {}\nposition {text}", self.variant);
        if let Some(f) = fen {
            msg += &format!("\nfen {f}");
        }
        msg += &format!("\nlegal {legal}");
        self.tell(&msg);
    }
}
