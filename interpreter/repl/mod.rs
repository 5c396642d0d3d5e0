//! Playing a game by typed commands: a [`Session`] reads one line at a time and answers with
//! the text to print.
//!
//! The session does no I/O. `save` and `load` come back as a [`Request`] for the caller to
//! carry out; [`Session::run_line`] does that through the [`Files`] trait, which the binary
//! implements over the file system and tests over a temporary folder. The terminal front end
//! is the binary's (`cli/readline.rs`), not this library's.

pub mod computer;
pub mod diagram;
pub mod fen;
mod help;
mod history;
mod moves;
pub mod records;
mod zsg;

use crate::diagnostic::{has_errors, render, Diagnostic, RenderOptions};
use crate::engine::Rules;
use crate::expand::{Loader, ReadError};
use crate::play::Game;
use crate::records::native::Record;
use crate::source::SourceMap;
use crate::Loaded;
use diagram::ansi;
pub use help::command_names;

/// A message of several lines made safe to print: [`printable`] line by line, the line
/// breaks kept.
pub fn printable_lines(text: &str) -> String {
    text.split('\n')
        .map(printable)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Text with every control character but tab written as an escape (`\n`, `\u{1b}`), for
/// echoing what the user typed or named without letting it drive the terminal.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// Text for a terminal, whole lines of it: every control character but newline and tab is
/// written as an escape (`\u{1b}`), and a carriage return that ends a line is dropped, so
/// that names and texts from a rules file or a record cannot drive the terminal (set its
/// title, clear the screen). With `colour`, the colour codes zrf writes itself (`ESC [`,
/// digits and `;`, then `m`) are kept; they can change only colours.
pub fn terminal_text(text: &str, colour: bool) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let sgr = match rest.strip_prefix("\u{1b}[") {
            Some(r) if colour => r
                .find(|c: char| !c.is_ascii_digit() && c != ';')
                .filter(|&n| r[n..].starts_with('m'))
                .map(|n| n + 3),
            _ => None,
        };
        if let Some(n) = sgr {
            out.push_str(&rest[..n]);
            rest = &rest[n..];
            continue;
        }
        rest = &rest[c.len_utf8()..];
        if c == '\r' && rest.starts_with('\n') {
            continue;
        }
        if bad(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// Reading and writing files, supplied by the caller.
pub trait Files {
    /// The bytes of a file.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
    /// Writes a file, replacing it (atomically, so a failed write leaves the old file).
    fn write(&self, path: &str, contents: &str) -> Result<(), String>;
    /// Like [`Files::read`], but [`ReadError::Missing`] when there is no such file (so that an
    /// include can fall back on the standard library) and [`ReadError::Unreadable`] when it
    /// cannot be read. By default every failure counts as a missing file.
    fn read_if_exists(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        self.read(path).map_err(|_| ReadError::Missing)
    }
    /// `path` as an absolute path, so that a saved record can name its rules file relative to
    /// its own folder; `None` (the default) keeps paths as they were given.
    fn absolute(&self, _path: &str) -> Option<String> {
        None
    }
    /// The names of the files in a folder (`""`: the current one), for finding a file whose
    /// name differs in case; empty when unknown.
    fn list(&self, _dir: &str) -> Vec<String> {
        Vec::new()
    }
}

/// Includes of a rules file, read through [`Files`].
struct Includes<'a>(&'a dyn Files);

impl Loader for Includes<'_> {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        self.0.read(path).ok()
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        self.0.read_if_exists(path)
    }
}

/// What the caller should do after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Write `contents` (a game record) to `path`, then report with [`Session::saved`].
    Save {
        /// Where.
        path: String,
        /// The record.
        contents: String,
    },
    /// Read the game record at `path` and pass it to [`Session::load_record`].
    Load {
        /// Where.
        path: String,
    },
}

/// The longest line the session reads, in bytes (docs/semantics.md, "Limits"); a longer one is
/// refused as a whole, without being echoed.
pub const MAX_LINE: usize = 1_000_000;

/// The answer to one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// Text to print (ends with a newline unless empty).
    pub text: String,
    /// The user asked to quit.
    pub quit: bool,
    /// The line was refused (a bad move, an unknown command, a failed request).
    pub error: bool,
    /// File work for the caller.
    pub request: Option<Request>,
}

impl Output {
    fn text(text: impl Into<String>) -> Output {
        let mut text = text.into();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        Output {
            text,
            ..Output::default()
        }
    }
}

/// Why a session could not start.
#[derive(Debug)]
pub enum OpenError {
    /// A file could not be read (a usage problem).
    Read(String),
    /// The rules have errors; render them with `diagnostic::render`.
    Rules {
        /// The files read, for rendering.
        map: SourceMap,
        /// Every diagnostic (errors and warnings).
        diags: Vec<Diagnostic>,
    },
    /// No such variant (a usage problem).
    Variant(crate::summary::VariantError),
    /// A bad starting position (a usage problem).
    Setup(crate::setup::SetupError),
    /// A game record that cannot be read or replayed; `Some(n)` is the number (from 1) of the
    /// move that is not legal (for a `.zsg` record, the number of the line).
    Record(String, Option<usize>),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Read(m) | OpenError::Record(m, _) => f.write_str(m),
            OpenError::Variant(e) => write!(f, "{e}"),
            OpenError::Setup(m) => write!(f, "bad setup: {m}"),
            OpenError::Rules { map, diags } => {
                f.write_str(&render(map, diags, RenderOptions { color: false }))
            }
        }
    }
}

/// A game being played from typed lines.
pub struct Session {
    /// The rules file as given.
    path: String,
    /// The file's games and variants.
    loaded: Loaded,
    /// The selected game or variant.
    variant: usize,
    /// The game in progress.
    game: Game,
    /// The position text the game started from, when not the rules' own start.
    setup: Option<String>,
    /// The number of the first move (a FEN's fullmove field).
    first_number: u64,
    /// Answer with ANSI colours.
    pub color: bool,
    /// Draw the board turned half round (`flip`).
    pub flipped: bool,
    /// Today's date (`YYYY-MM-DD`) for the records `save` writes; the caller supplies it.
    pub today: Option<String>,
    /// The computer player.
    pub computer: computer::Computer,
}

fn resolve(loaded: &Loaded, idx: usize) -> Result<Rules, Vec<Diagnostic>> {
    let (def, mut diags) = crate::resolve_game(&loaded.games[idx]);
    diags.extend(loaded.diags.iter().cloned());
    crate::tidy(&loaded.map, &mut diags);
    match def {
        Some(def) if !has_errors(&diags) => Ok(Rules::new(def)),
        _ => Err(diags),
    }
}

/// A FEN's fullmove field, if the text is a FEN that has one.
fn fullmove(text: &str) -> Option<u64> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() >= 6 && fields[0].contains('/') {
        // `setup::parse` refuses a fullmove past `u32::MAX`, so counting on never overflows.
        fields[5]
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .map(u64::from)
    } else {
        None
    }
}

/// The path from the folder `from` to `to`, both absolute: `../games/chess.zrf`. `None` when
/// they share no root (two drives).
fn relative_path(from: &std::path::Path, to: &std::path::Path) -> Option<std::path::PathBuf> {
    use std::path::Component;
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    if a.first() != b.first() {
        return None;
    }
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = std::path::PathBuf::new();
    for _ in common..a.len() {
        rel.push("..");
    }
    for c in &b[common..] {
        rel.push(c);
    }
    Some(rel)
}

/// `dir/name` for a path written relative to the folder of `base`.
fn beside(base: &str, path: &str) -> Option<String> {
    let dir = std::path::Path::new(base).parent()?;
    if dir.as_os_str().is_empty() || std::path::Path::new(path).is_absolute() {
        return None;
    }
    Some(dir.join(path).to_string_lossy().into_owned())
}

/// Splits words into lines of at most `width` columns, continuation lines indented.
fn wrap(head: &str, words: &[String], width: usize) -> String {
    let mut out = String::from(head);
    let mut col = head.chars().count();
    let indent = "  ";
    for (i, w) in words.iter().enumerate() {
        let len = w.chars().count();
        if i > 0 && col + 1 + len > width {
            out.push('\n');
            out += indent;
            col = indent.len();
        } else if col > 0 && !out.ends_with(' ') {
            out.push(' ');
            col += 1;
        }
        out += w;
        col += len;
    }
    out
}

impl Session {
    /// Reads a rules file through `files`, selects a variant (its title or number; the default
    /// when `None`) and sets up the position (the rules' own when `None`).
    pub fn open(
        path: &str,
        files: &dyn Files,
        variant: Option<&str>,
        setup: Option<&str>,
    ) -> Result<Session, OpenError> {
        let bytes = files
            .read(path)
            .map_err(|e| OpenError::Read(format!("cannot read {}: {e}", printable(path))))?;
        let loaded = crate::load(path, &bytes, &Includes(files));
        let idx =
            crate::summary::select_variant(&loaded.games, variant).map_err(OpenError::Variant)?;
        let rules = match resolve(&loaded, idx) {
            Ok(r) => r,
            Err(diags) => {
                return Err(OpenError::Rules {
                    map: loaded.map,
                    diags,
                })
            }
        };
        let (pos, setup) = match setup {
            Some(text) => (
                crate::setup::parse(&rules, text).map_err(OpenError::Setup)?,
                Some(text.trim().to_string()),
            ),
            None => (rules.initial(), None),
        };
        let first_number = setup.as_deref().and_then(fullmove).unwrap_or(1);
        let n_players = rules.def.players.len();
        Ok(Session {
            path: path.to_string(),
            loaded,
            variant: idx,
            game: Game::new(rules, pos),
            setup,
            first_number,
            color: false,
            flipped: false,
            today: None,
            computer: computer::Computer::new(n_players),
        })
    }

    /// Opens the game a record names (`Game` header, read as written, then beside the record)
    /// and replays its moves. `record_path` is where the record was read from.
    pub fn from_record(
        text: &str,
        record_path: &str,
        files: &dyn Files,
    ) -> Result<Session, OpenError> {
        if crate::records::zsg::is_zsg(text) {
            return Session::from_zsg(text, record_path, files, None);
        }
        if let Some(e) = records::not_a_saved_game(text, record_path) {
            return Err(e);
        }
        let rec = Record::parse(text).map_err(|e| OpenError::Record(e.to_string(), None))?;
        let game = rec.get("Game").ok_or_else(|| {
            OpenError::Record(
                "the record has no [Game \"FILE\"] header naming its rules file".into(),
                None,
            )
        })?;
        // Beside the record first (how zrf writes it), then as written (older records).
        let game = match beside(record_path, game) {
            Some(near) if files.read_if_exists(&near) != Err(ReadError::Missing) => near,
            _ => game.to_string(),
        };
        let mut s = Session::open(
            &game,
            &records::Shipped(files),
            rec.get("Variant"),
            rec.get("Setup"),
        )?;
        s.replay(&rec.moves)?;
        Ok(s)
    }

    /// Plays moves from the start; on a bad move the error gives its number.
    fn replay(&mut self, moves: &[String]) -> Result<(), OpenError> {
        for (k, mv) in moves.iter().enumerate() {
            if let Err(e) = self.play_one(mv) {
                let e = self.explain(mv, e);
                let number = self.number_of_next();
                let dots = if self.next_is_round_start() {
                    "."
                } else {
                    "..."
                };
                return Err(OpenError::Record(
                    format!("move {} ({number}{dots} {mv}): {e}", k + 1),
                    Some(k + 1),
                ));
            }
        }
        Ok(())
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game in progress, to change it directly.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// How many games and variants the rules file has.
    pub fn variant_count(&self) -> usize {
        self.loaded.games.len()
    }

    /// The rules file as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The title of the selected game or variant.
    pub fn title(&self) -> &str {
        &self.game.rules.def.title
    }

    /// Words to complete: command names, variant titles and the legal moves here.
    pub fn completions(&mut self) -> Vec<String> {
        let mut words: Vec<String> = command_names().map(String::from).collect();
        words.push("exit".into());
        if self.game.outcome().is_none() {
            words.extend(self.game.legal_texts());
            if self.game.has_san {
                let list = self.game.legal().clone();
                words.extend(crate::san::texts(&self.game.rules.def, &list));
            }
        }
        words
    }

    /// The prompt: who moves, and the move number.
    pub fn prompt(&mut self) -> String {
        let n = self.number_of_next();
        match self.game.outcome() {
            Some(_) => "game over> ".into(),
            None => format!("{} {n}> ", self.mover_name()),
        }
    }

    /// What to print when the session starts: the title, the board and a hint.
    pub fn banner(&mut self) -> String {
        let def = &self.game.rules.def;
        let mut out = format!("{}: type a move, or `help`.\n", def.title);
        out += &format!("Pieces: {}.\n", diagram::legend(def));
        out += &self.show();
        out
    }

    fn mover_name(&self) -> String {
        let rules = &self.game.rules;
        if rules.turns.is_empty() {
            return "nobody".into();
        }
        let e = rules.entry(self.game.pos.turn);
        rules.def.players[e.mover.idx()].name.clone()
    }

    fn paint(&self, style: &str, text: &str) -> String {
        if self.color {
            format!("{style}{text}{}", ansi::RESET)
        } else {
            text.to_string()
        }
    }

    fn error(&self, msg: impl AsRef<str>) -> Output {
        // The message may quote what was typed: control characters are shown as escapes.
        let mut o = Output::text(format!(
            "{} {}",
            self.paint(ansi::RED, "error:"),
            crate::diagnostic::escape_controls(msg.as_ref())
        ));
        o.error = true;
        o
    }

    /// An error whose message is followed by rendered diagnostics (already safe to print, and
    /// coloured as the session is).
    fn error_then(&self, msg: impl AsRef<str>, rendered: String) -> Output {
        let mut o = self.error(msg);
        o.text += &rendered;
        if !o.text.ends_with('\n') {
            o.text.push('\n');
        }
        o
    }

    /// Reads one line and answers it: a move, or a command.
    pub fn eval_line(&mut self, line: &str) -> Output {
        if line.len() > MAX_LINE {
            return self.error(format!(
                "the line is {} bytes long; a line may hold at most {MAX_LINE}",
                line.len()
            ));
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Output::default();
        }
        // No command or move uses control characters; refusing them here also keeps every
        // message that quotes the line from echoing them to the terminal.
        if line.chars().any(|c| c.is_control() && c != '\t') {
            return self.error(format!(
                "the line holds control characters ({}); no command or move uses them",
                printable(line)
            ));
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let lower = word.to_lowercase();
        match lower.as_str() {
            "moves" => self.moves(rest),
            "undo" => self.undo(rest),
            "redo" => self.redo(rest),
            "new" => {
                let pos = self.game.rules.initial();
                self.game.reset(pos);
                self.setup = None;
                self.first_number = 1;
                // The computer moves at once if it plays the side to move (`play-as both`
                // plays the new game out).
                let replies = self.auto_replies();
                Output::text(format!("New game.\n{replies}{}", self.show()))
            }
            "board" => Output::text(self.show()),
            "flip" => {
                self.flipped = !self.flipped;
                Output::text(self.show())
            }
            "setup" => self.setup(rest),
            "position" => Output::text(crate::setup::native(&self.game.rules, &self.game.pos)),
            "fen" if self.pdn_applies() => match fen::pdn(&self.game.rules, &self.game.pos) {
                Ok(t) => Output::text(t),
                Err(e) => self.error(e),
            },
            "fen" => match fen::write(&self.game.rules, &self.game.pos, self.number_of_next()) {
                Ok(t) => Output::text(t),
                Err(e) => self.error(e),
            },
            "history" => Output::text(self.history()),
            "save" if rest.is_empty() => self.error("`save` needs a file name: save FILE"),
            "save" => match self.record_as(rest) {
                Ok(contents) => Output {
                    request: Some(Request::Save {
                        path: rest.to_string(),
                        contents,
                    }),
                    ..Output::default()
                },
                Err(e) => self.error(format!("cannot save {rest}: {e}")),
            },
            "load" if rest.is_empty() => self.error("`load` needs a file name: load FILE"),
            "load" => Output {
                request: Some(Request::Load {
                    path: rest.to_string(),
                }),
                ..Output::default()
            },
            "perft" | "divide" => self.perft(&lower, rest),
            "variant" => self.variant(rest),
            "variants" => {
                let mut out = crate::summary::variant_list(&self.loaded.games);
                out += &format!("playing: {}", self.title());
                Output::text(out)
            }
            "rules" => Output::text(self.rules_text()),
            "help" | "?" => self.help(rest),
            "ai" => self.ai(rest),
            "go" => self.go(rest),
            "analyse" | "analyze" => self.analyse(rest),
            "engine" => self.engine(rest),
            "play-as" => self.play_as(rest),
            "quit" | "exit" => Output {
                quit: true,
                ..Output::default()
            },
            _ => self.moves_line(line),
        }
    }

    /// Reads one line and carries out any file work it asks for through `files`.
    pub fn run_line(&mut self, line: &str, files: &dyn Files) -> Output {
        let out = self.eval_line(line);
        match &out.request {
            Some(Request::Save { path, contents }) => {
                // Written again with the rules named from the record's folder.
                let contents = self
                    .record_at(path, files)
                    .unwrap_or_else(|_| contents.clone());
                let result = files.write(path, &contents);
                self.saved(path, result)
            }
            Some(Request::Load { path }) => {
                // `load FILE N`: game N of a file of several (PGN, PDN).
                let (path, n) = match files.read(path) {
                    Ok(_) => (path.as_str(), None),
                    Err(_) => records::split_game_number(path),
                };
                match files.read(path) {
                    Ok(bytes) => self.load_game(path, n, &String::from_utf8_lossy(&bytes), files),
                    Err(e) => self.error(format!("cannot read {}: {e}", printable(path))),
                }
            }
            None => out,
        }
    }

    /// The answer to a `save` once the caller has written the file.
    pub fn saved(&self, path: &str, result: Result<(), String>) -> Output {
        match result {
            Ok(()) => Output::text(format!("Saved {} moves to {path}.", self.game.plies())),
            Err(e) => self.error(format!(
                "cannot write {}: {e}; the game is not saved (any old file there is unchanged)",
                printable(path)
            )),
        }
    }

    /// The answer to a `load` once the caller has read the record: the game it holds replaces
    /// this one, or, when any part of it fails, nothing changes.
    pub fn load_record(&mut self, path: &str, text: &str, files: &dyn Files) -> Output {
        self.load_game(path, None, text, files)
    }

    /// [`Session::load_record`] of game number `n` (from 1) of a file, in the format its name
    /// says (`.pgn`, `.pdn`, else native). A PGN or PDN record that names no rules file is
    /// played with this session's rules when they have its variant.
    pub fn load_game(
        &mut self,
        path: &str,
        n: Option<usize>,
        text: &str,
        files: &dyn Files,
    ) -> Output {
        let hint = self.hint();
        // The new session is built apart from this one, so even a panic while its rules load
        // (a bug) leaves the game in progress as it was.
        let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Session::from_records(text, path, n, &hint, files).map(|(s, _)| s)
        }));
        let path = &printable(path);
        let opened = match opened {
            Ok(o) => o,
            Err(_) => {
                return self.error(format!(
                    "{path}: internal error while loading (a bug in zrf); the game in progress \
                     is unchanged"
                ))
            }
        };
        match opened {
            Ok(mut s) => {
                s.color = self.color;
                s.flipped = self.flipped;
                s.today = self.today.clone();
                let n = s.game.rules.def.players.len();
                std::mem::swap(&mut s.computer, &mut self.computer);
                *self = s;
                self.computer.new_rules(n);
                let n = self.game.plies();
                let title = self.title().to_string();
                let board = self.show();
                Output::text(format!("Loaded {n} moves of {title} from {path}.\n{board}"))
            }
            Err(OpenError::Rules { map, diags }) => self.error_then(
                format!("the rules named by {path} have errors:"),
                render(&map, &diags, RenderOptions { color: self.color }),
            ),
            Err(e) => self.error(format!("{path}: {}", printable_lines(&e.to_string()))),
        }
    }

    fn setup(&mut self, text: &str) -> Output {
        if text.is_empty() {
            return self
                .error("`setup` needs a position: a FEN, a PDN FEN or the text `position` prints");
        }
        match crate::setup::parse(&self.game.rules, text) {
            Ok(pos) => {
                self.game.reset(pos);
                self.setup = Some(text.to_string());
                self.first_number = fullmove(text).unwrap_or(1);
                Output::text(self.show())
            }
            Err(e) => self.error(format!("bad position: {e}")),
        }
    }

    fn variant(&mut self, name: &str) -> Output {
        if name.is_empty() {
            return self.error("`variant` needs a title or a number (`variants` lists them)");
        }
        let idx = match crate::summary::select_variant(&self.loaded.games, Some(name)) {
            Ok(i) => i,
            Err(e) => return self.error(e.pointing_to(Some("`variants`"))),
        };
        match resolve(&self.loaded, idx) {
            Ok(rules) => {
                let pos = rules.initial();
                let n = rules.def.players.len();
                self.game = Game::new(rules, pos);
                self.computer.new_rules(n);
                self.variant = idx;
                self.setup = None;
                self.first_number = 1;
                let board = self.show();
                Output::text(format!("Playing {}.\n{board}", self.title()))
            }
            Err(diags) => self.error_then(
                "the variant has errors:",
                render(
                    &self.loaded.map,
                    &diags,
                    RenderOptions { color: self.color },
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn relative_paths_between_folders() {
        let rel = |from: &str, to: &str| relative_path(Path::new(from), Path::new(to));
        assert_eq!(
            rel("/home/a/records", "/home/a/games/chess.zrf"),
            Some("../games/chess.zrf".into())
        );
        assert_eq!(
            rel("/home/a", "/home/a/chess.zrf"),
            Some("chess.zrf".into())
        );
        assert_eq!(
            rel("/home/a/x/y", "/srv/chess.zrf"),
            Some("../../../../srv/chess.zrf".into())
        );
        assert_eq!(rel("/", "/chess.zrf"), Some("chess.zrf".into()));
        // Nothing in common (another drive, or a relative path): no relative path.
        assert_eq!(rel("/home/a", "games/chess.zrf"), None);
    }

    #[test]
    fn printable_escapes_control_characters_but_tab() {
        assert_eq!(printable("e2e4"), "e2e4");
        assert_eq!(printable("a\tb"), "a\tb");
        assert_eq!(printable("\x1b[31mred\n\r\0"), "\\u{1b}[31mred\\n\\r\\u{0}");
        let t = "\x1b]0;title\x07a\r\nb\tc\x1b[1;31mred\x1b[0m\r";
        assert_eq!(
            terminal_text(t, false),
            "\\u{1b}]0;title\\u{7}a\nb\tc\\u{1b}[1;31mred\\u{1b}[0m\\r"
        );
        assert_eq!(
            terminal_text(t, true),
            "\\u{1b}]0;title\\u{7}a\nb\tc\x1b[1;31mred\x1b[0m\\r"
        );
        assert_eq!(terminal_text("plain\n", true), "plain\n");
    }
}
