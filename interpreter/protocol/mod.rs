//! Engine protocols: zrf as an engine behind a GUI or a match runner.
//!
//! `uci` speaks UCI (chess GUIs, cutechess, python-chess), `hub` speaks the Hub protocol,
//! version 2 (draughts GUIs, pydraughts). Both are line-in, lines-out state machines: the front
//! end feeds each line it reads to `handle` and prints what the protocol sends to its [`Out`].
//! A search runs on its own thread ([`Runner`]), so reading never waits for it: `stop`,
//! `isready` and `quit` are answered while the engine thinks.
//!
//! What both share lives here: the catalogue of games a protocol can select, loading a game,
//! and the search runner. Nothing here reads files: rules files come through an
//! [`expand::Loader`](crate::expand::Loader).

pub mod hub;
pub mod uci;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::ai::{Engine, Info, SearchConfig, SearchResult};
use crate::diagnostic::has_errors;
use crate::engine::{MoveList, Position, Rules, UndoLog};
use crate::expand::Loader;
use crate::notation::MoveError;

/// Where a protocol writes its lines (one call per line, without the newline).
pub type Out = Arc<dyn Fn(&str) + Send + Sync>;

/// A rules loader a protocol may keep and use from its thread.
pub type SharedLoader = Arc<dyn Loader + Send + Sync>;

/// Which protocol [`serve`] speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// UCI ([`uci::Uci`]).
    Uci,
    /// Hub ([`hub::Hub`]).
    Hub,
}

/// Feeds each line of `input` to a protocol until `quit` or the end of the input (which
/// stops it like `quit`); the answers go to `out` as they come. A line is at most
/// [`uci::MAX_LINE`] bytes in memory: the rest of a longer one is skipped. `file` is a rules
/// file whose games become the protocol's variants (read through `loader`). The caller owns
/// the input (standard input for `zrf uci`); nothing here opens a file or a stream.
pub fn serve<R: std::io::BufRead>(
    kind: Kind,
    input: &mut R,
    out: Out,
    loader: SharedLoader,
    file: Option<&str>,
) {
    use std::io::{BufRead as _, Read as _};
    let mut handle: Box<dyn FnMut(&str) -> bool> = match kind {
        Kind::Uci => {
            let mut p = uci::Uci::new(out, loader, file);
            Box::new(move |l| p.handle(l))
        }
        Kind::Hub => {
            let mut p = hub::Hub::new(out, loader, file);
            Box::new(move |l| p.handle(l))
        }
    };
    let mut buf = Vec::new();
    let limit = uci::MAX_LINE as u64 + 1;
    loop {
        buf.clear();
        match input.by_ref().take(limit).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.len() as u64 >= limit && buf.last() != Some(&b'\n') {
            // Skip the rest of an overlong line.
            let mut sink = Vec::new();
            let _ = input.read_until(b'\n', &mut sink);
        }
        let line = String::from_utf8_lossy(&buf);
        if !handle(line.trim_end_matches(['\n', '\r'])) {
            return;
        }
    }
    handle("quit");
}

/// One game or variant a protocol can select by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The protocol's name for it (`chess`, `crazyhouse`, `international-draughts`).
    pub name: String,
    /// The rules file it comes from (index into [`Catalogue::files`]).
    pub file: usize,
    /// The game or variant within that file (`expand::assemble` order).
    pub variant: usize,
    /// Its title as the rules file gives it.
    pub title: String,
}

/// Rules files (name and text) and the games and variants they define, by name.
#[derive(Clone, Debug, Default)]
pub struct Catalogue {
    /// `(file name, bytes)` of each rules file.
    pub files: Vec<(String, Vec<u8>)>,
    /// Every selectable game, in file order.
    pub entries: Vec<Entry>,
}

/// The names Fairy-Stockfish and pydraughts give games that zrf ships, by zrf title.
const WELL_KNOWN: &[(&str, &str)] = &[
    ("Chess", "chess"),
    ("Crazyhouse", "crazyhouse"),
    ("Loop", "loop"),
    ("Chessgi", "chessgi"),
    ("Capablanca Chess", "capablanca"),
    ("International Draughts", "normal"),
    ("Frisian Draughts", "frisian"),
    ("Russian Draughts", "russian"),
    ("Brazilian", "brazilian"),
    ("Checkers", "english"),
];

/// A title as a protocol token: lower case, runs of other characters as one `-`.
pub fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    if s.is_empty() {
        s.push_str("game");
    }
    s
}

impl Catalogue {
    /// A catalogue of rules files; `known_names` gives well-known games their usual names.
    pub fn new(files: Vec<(String, Vec<u8>)>, loader: &dyn Loader, known_names: bool) -> Catalogue {
        let mut entries: Vec<Entry> = Vec::new();
        for (fi, (name, bytes)) in files.iter().enumerate() {
            let loaded = crate::load(name, bytes, loader);
            let stem = std::path::Path::new(name)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            for (vi, g) in loaded.games.iter().enumerate() {
                let known = WELL_KNOWN
                    .iter()
                    .find(|(t, _)| known_names && *t == g.title)
                    .map(|(_, n)| n.to_string());
                let mut name = known.unwrap_or_else(|| slug(&g.title));
                if entries.iter().any(|e| e.name == name) {
                    name = format!("{}-{name}", slug(&stem));
                }
                let mut k = 2;
                let base = name.clone();
                while entries.iter().any(|e| e.name == name) {
                    name = format!("{base}-{k}");
                    k += 1;
                }
                entries.push(Entry {
                    name,
                    file: fi,
                    variant: vi,
                    title: g.title.clone(),
                });
            }
        }
        Catalogue { files, entries }
    }

    /// The games zrf ships (`games/*.zrf`), chess first.
    pub fn shipped(loader: &dyn Loader) -> Catalogue {
        let files = crate::shipped::GAMES
            .iter()
            .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
            .collect();
        Catalogue::new(files, loader, true)
    }

    /// The entry of a name (case-insensitive), else of a title.
    pub fn find(&self, name: &str) -> Option<&Entry> {
        let name = name.trim();
        self.entries
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
            .or_else(|| {
                self.entries
                    .iter()
                    .find(|e| e.title.eq_ignore_ascii_case(name))
            })
    }

    /// Resolves an entry into rules; an error says what is wrong with the file.
    pub fn rules(&self, entry: &Entry, loader: &dyn Loader) -> Result<Rules, ProtocolError> {
        let (name, bytes) = &self.files[entry.file];
        let loaded = crate::load(name, bytes, loader);
        let Some(game) = loaded.games.get(entry.variant) else {
            return Err(ProtocolError::Gone {
                file: name.clone(),
                title: entry.title.clone(),
            });
        };
        let (def, mut diags) = crate::resolve_game(game);
        diags.extend(loaded.diags.iter().cloned());
        match def {
            Some(def) if !has_errors(&diags) => Ok(Rules::new(def)),
            _ => {
                let first = diags
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .unwrap_or_else(|| "it does not resolve".into());
                Err(ProtocolError::DoesNotLoad {
                    file: name.clone(),
                    title: entry.title.clone(),
                    first,
                })
            }
        }
    }
}

/// Reads a rules file through a loader into a catalogue of its games and variants.
pub fn catalogue_of_file(path: &str, loader: &dyn Loader) -> Result<Catalogue, ProtocolError> {
    let bytes = (loader.load(path)).ok_or_else(|| ProtocolError::Unreadable(path.to_string()))?;
    let cat = Catalogue::new(vec![(path.to_string(), bytes)], loader, false);
    if cat.entries.is_empty() {
        return Err(ProtocolError::NoGame(path.to_string()));
    }
    Ok(cat)
}

/// Why a position command was refused (UCI `position`, Hub `pos` with `moves`). `Display`
/// gives the message the engine sends after `position refused: `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A UCI `position` command not written as the protocol says.
    #[error("it is written `position startpos|fen FEN [moves M1 M2 ...]`")]
    Usage,
    /// A UCI FEN that does not read.
    #[error("bad FEN: {}", printable(&.0.to_string()))]
    Fen(crate::setup::SetupError),
    /// A Hub position that does not read: why.
    #[error("bad position: {0}")]
    HubPosition(String),
    /// More moves than a position command may hold (the limit).
    #[error("more than {0} moves")]
    TooManyMoves(usize),
    /// A UCI move that names no legal move: its number (from 1) and why.
    #[error("move {number}: {}", printable(&.why.to_string()))]
    NoSuchMove {
        /// The move's number, from 1.
        number: usize,
        /// Why it names none.
        why: MoveError,
    },
    /// A UCI move named but not played.
    #[error("move {number} `{}`: {why}", printable(.text))]
    Unplayable {
        /// The move's number, from 1.
        number: usize,
        /// The move as sent.
        text: String,
        /// Why it was not played.
        why: MoveError,
    },
    /// A Hub move that names no legal move or was not played.
    #[error("move {number} {}: {why}", printable(.text))]
    HubMove {
        /// The move's number, from 1.
        number: usize,
        /// The move as sent.
        text: String,
        /// Why.
        why: String,
    },
}

/// Why a protocol line or the rules it asks for were refused (UCI and Hub alike). `Display`
/// gives the message the engine sends.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// A line over the protocol's length limit, ignored.
    #[error("line of {len} bytes ignored (at most {max})")]
    LineTooLong {
        /// The line's length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A Hub `key="value` whose quote does not close.
    #[error("unclosed quote in `{0}=`")]
    UnclosedQuote(String),
    /// The rules file named cannot be read.
    #[error("cannot read the rules file {0}")]
    Unreadable(String),
    /// The rules file named defines no game.
    #[error("{0} defines no game")]
    NoGame(String),
    /// A game or variant of the catalogue that its file no longer defines.
    #[error("{file} no longer defines `{title}`")]
    Gone {
        /// The rules file.
        file: String,
        /// The game's or variant's title.
        title: String,
    },
    /// A game or variant whose rules have errors: the first error's message.
    #[error("{file}: `{title}` does not load: {first}")]
    DoesNotLoad {
        /// The rules file.
        file: String,
        /// The game's or variant's title.
        title: String,
        /// The first error's message.
        first: String,
    },
}

/// Text from outside as it may be echoed: control characters written as `\u{..}` escapes, and
/// at most 200 characters.
pub fn printable(s: &str) -> String {
    let mut out = String::new();
    for (n, c) in s.chars().enumerate() {
        if n == 200 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out += &c.escape_unicode().to_string();
        } else {
            out.push(c);
        }
    }
    out
}

/// A protocol line as its command word and the rest, both trimmed; a line longer than `max`
/// bytes is refused with a message.
pub fn command_of(line: &str, max: usize) -> Result<(&str, &str), ProtocolError> {
    if line.len() > max {
        return Err(ProtocolError::LineTooLong {
            len: line.len(),
            max,
        });
    }
    let line = line.trim();
    Ok(line
        .split_once(char::is_whitespace)
        .map(|(c, r)| (c, r.trim()))
        .unwrap_or((line, "")))
}

/// Plays canonical move texts (a principal variation) from a position, writing each as
/// `write` does; stops at the first text that is not legal.
pub fn convert_line(
    rules: &Rules,
    pos: &Position,
    texts: &[String],
    write: &dyn Fn(&Rules, &MoveList, usize) -> String,
) -> Vec<String> {
    let mut pos = pos.clone();
    let mut list = MoveList::new();
    let mut log = UndoLog::new();
    let mut out = Vec::new();
    for t in texts {
        rules.legal_moves(&mut pos, &mut list);
        let Ok(i) = crate::notation::parse_move(&rules.def, &list, t) else {
            break;
        };
        let m = list.moves[i];
        out.push(write(rules, &list, i));
        rules.make(&mut pos, &list, &m, &mut log);
    }
    out
}

/// What a finished search reports to its protocol.
pub struct Finished {
    /// The chosen move, `None` when there was none to choose.
    pub result: Option<SearchResult>,
}

/// One search at a time on its own thread, with a stop flag and an engine kept between
/// searches (its transposition table and learnt ordering survive from move to move).
pub struct Runner {
    engine: Arc<Mutex<Option<Engine>>>,
    stop: Arc<AtomicBool>,
    hold: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// The time the pondering search gets once the opponent plays the expected move.
    ponder_time: Option<Duration>,
    /// Transposition table size in megabytes for the next engine built.
    pub tt_mb: usize,
}

impl Default for Runner {
    fn default() -> Self {
        Runner {
            engine: Arc::new(Mutex::new(None)),
            stop: Arc::new(AtomicBool::new(false)),
            hold: Arc::new(AtomicBool::new(false)),
            thread: None,
            ponder_time: None,
            tt_mb: crate::ai::DEFAULT_TT_MB,
        }
    }
}

/// A position to search, with the repetition keys of the game that led to it.
pub struct Job {
    /// The rules.
    pub rules: std::sync::Arc<Rules>,
    /// The position.
    pub pos: Position,
    /// Repetition keys of the game so far, this position last.
    pub history: Vec<u64>,
    /// Engine setting and limits.
    pub cfg: SearchConfig,
    /// Report nothing until `stop` even after the search ends (`go infinite`, `go ponder`).
    pub hold: bool,
    /// Pondering: the search runs without a time limit until the opponent's expected move
    /// is played (`ponderhit`), then stops this long after it.
    pub ponder_time: Option<Duration>,
}

impl Runner {
    /// True while a search runs (or holds its result until `stop`).
    pub fn busy(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Builds the engine for `rules` now (its tables take time), so the next search's clock
    /// starts with the tables ready.
    pub fn prepare(&mut self, rules: &Rules) {
        self.stop();
        let mut e = self.engine.lock().unwrap_or_else(|p| p.into_inner());
        *e = Some(Engine::with_tt_size(rules, self.tt_mb));
    }

    /// Forgets what the engine learnt (a new game).
    pub fn clear(&mut self) {
        self.stop();
        let mut e = self.engine.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = e.as_mut() {
            e.clear();
        }
    }

    /// Drops the engine, so the next search builds one with the current `tt_mb`.
    pub fn reset(&mut self) {
        self.stop();
        *self.engine.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// Starts a search. `info` hears each iteration, `done` the result (once, on the search's
    /// thread). A search already running is stopped first (its result still reported).
    pub fn start(
        &mut self,
        job: Job,
        mut info: impl FnMut(&Rules, &Position, &Info) + Send + 'static,
        done: impl FnOnce(&Rules, &Position, Finished) + Send + 'static,
    ) {
        self.stop();
        // A flag of its own for each search, so that a ponder clock armed for one never
        // stops another.
        self.stop = Arc::new(AtomicBool::new(false));
        self.hold.store(job.hold, Ordering::SeqCst);
        self.ponder_time = if job.hold { job.ponder_time } else { None };
        let engine = Arc::clone(&self.engine);
        let stop = Arc::clone(&self.stop);
        let hold = Arc::clone(&self.hold);
        let tt_mb = self.tt_mb;
        let spawned = std::thread::Builder::new()
            .name("zrf-search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let Job {
                    rules,
                    pos,
                    history,
                    cfg,
                    ..
                } = job;
                let mut guard = engine.lock().unwrap_or_else(|p| p.into_inner());
                let e = guard.get_or_insert_with(|| Engine::with_tt_size(&rules, tt_mb));
                let result = e.search(&rules, &pos, &history, &cfg, &stop, &mut |i: &Info| {
                    info(&rules, &pos, i)
                });
                drop(guard);
                // `go infinite` and pondering report only when told to stop.
                while hold.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(2));
                }
                done(&rules, &pos, Finished { result });
            });
        self.thread = spawned.ok();
    }

    /// Lets a held search report as soon as it ends (`ponderhit`); a pondering search now
    /// has its time to think, counted from here.
    pub fn release(&mut self) {
        if !self.busy() {
            // Nothing is pondering (a `ponderhit` out of turn): nothing to release.
            self.ponder_time = None;
        }
        if let Some(t) = self.ponder_time.take() {
            let stop = Arc::clone(&self.stop);
            let deadline = std::time::Instant::now() + t;
            let _ = std::thread::Builder::new()
                .name("zrf-ponder-clock".into())
                .spawn(move || {
                    // Wakes now and then to end early once its search is over.
                    while Arc::strong_count(&stop) > 1 && !stop.load(Ordering::SeqCst) {
                        let now = std::time::Instant::now();
                        if now >= deadline {
                            stop.store(true, Ordering::SeqCst);
                            break;
                        }
                        std::thread::sleep((deadline - now).min(Duration::from_millis(50)));
                    }
                });
        }
        self.hold.store(false, Ordering::SeqCst);
    }

    /// Stops the search, if any, and waits until it has reported.
    pub fn stop(&mut self) {
        self.ponder_time = None;
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Waits for the running search to end by itself (tests, `quit` after `go depth`).
    pub fn wait(&mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Splits `key=value` words as Hub writes them (`pv="32-28 19-23"` keeps its spaces), and
/// UCI-style `name ... value ...` phrases are left to the caller.
pub fn hub_pairs(args: &str) -> Result<Vec<(String, String)>, ProtocolError> {
    let mut out = Vec::new();
    let b = args.trim();
    let mut rest = b;
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else {
            // A bare word (`go think`): a key without value.
            let (w, r) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            out.push((w.to_string(), String::new()));
            rest = r.trim_start();
            continue;
        };
        let key_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if key_end < eq {
            let (w, r) = rest.split_at(key_end);
            out.push((w.to_string(), String::new()));
            rest = r.trim_start();
            continue;
        }
        let key = rest[..eq].to_string();
        let after = &rest[eq + 1..];
        if let Some(q) = after.strip_prefix('"') {
            let end = (q.find('"')).ok_or_else(|| ProtocolError::UnclosedQuote(key.clone()))?;
            out.push((key, q[..end].to_string()));
            rest = q[end + 1..].trim_start();
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            out.push((key, after[..end].to_string()));
            rest = after[end..].trim_start();
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_pairs() {
        assert_eq!(slug("English Draughts (1902)"), "english-draughts-1902");
        assert_eq!(slug("8x8"), "8x8");
        assert_eq!(slug("!!"), "game");
        let p = hub_pairs(r#"pos=Wbbb moves="32-28 19-23" think"#).unwrap();
        assert_eq!(
            p,
            vec![
                ("pos".into(), "Wbbb".into()),
                ("moves".into(), "32-28 19-23".into()),
                ("think".into(), String::new())
            ]
        );
        assert!(hub_pairs(r#"pv="32-28"#).is_err());
    }
}
