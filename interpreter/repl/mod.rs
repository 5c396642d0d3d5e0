//! Playing a game by typed commands: a [`Session`] reads one line at a time and answers with
//! the text to print.
//!
//! The session does no I/O. `save` and `load` come back as a [`Request`] for the caller to
//! carry out; [`Session::run_line`] does that through the [`Files`] trait, which the binary
//! implements over the file system and tests over a temporary folder. The terminal front end
//! (`readline.rs`) is compiled into the binary, not into this library.

pub mod computer;
pub mod diagram;
pub mod fen;
pub mod records;
mod zsg;

use std::fmt::Write;

use crate::diagnostic::{has_errors, render, Diagnostic, RenderOptions};
use crate::engine::Rules;
use crate::expand::Loader;
use crate::notation::{self, MoveError};
use crate::play::Game;
use crate::records::native::{self as record, Record};
use crate::source::SourceMap;
use crate::Loaded;
use diagram::ansi;

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

/// Reading and writing files, supplied by the caller.
pub trait Files {
    /// The bytes of a file.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
    /// Writes a file, replacing it (atomically, so a failed write leaves the old file).
    fn write(&self, path: &str, contents: &str) -> Result<(), String>;
    /// Like [`Files::read`], but `Err(None)` when there is no such file (so that an include
    /// can fall back on the standard library) and `Err(Some(why))` when it cannot be read.
    /// By default every failure counts as a missing file.
    fn read_if_exists(&self, path: &str) -> Result<Vec<u8>, Option<String>> {
        self.read(path).map_err(|_| None)
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

    fn read(&self, path: &str) -> Result<Vec<u8>, Option<String>> {
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
    Variant(String),
    /// A bad starting position (a usage problem).
    Setup(String),
    /// A game record that cannot be read or replayed; `Some(n)` is the number (from 1) of the
    /// move that is not legal (for a `.zsg` record, the number of the line).
    Record(String, Option<usize>),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Read(m) | OpenError::Variant(m) | OpenError::Record(m, _) => f.write_str(m),
            OpenError::Setup(m) => write!(f, "bad setup: {m}"),
            OpenError::Rules { map, diags } => {
                f.write_str(&render(map, diags, RenderOptions { color: false }))
            }
        }
    }
}

/// A command: name, arguments, one-line summary, longer help.
struct Command {
    name: &'static str,
    args: &'static str,
    summary: &'static str,
    detail: &'static str,
}

const COMMANDS: &[Command] = &[
    Command {
        name: "moves",
        args: "[san]",
        summary: "list the legal moves, grouped by the piece that moves (`moves san`: in SAN)",
        detail: "Drops form their own group. Any of the moves may be typed as it is shown, or in\n\
                 the other forms zrf reads: e2e4, e7e8q, 29-9 for a whole capture chain, and in\n\
                 games whose pieces have letters, algebraic notation: Nf3, exd5, O-O, e8=Q, N@f3.",
    },
    Command {
        name: "undo",
        args: "[N|all]",
        summary: "take back the last move (or N moves, or all of them)",
        detail: "Moves taken back can be played again with `redo`, until another move is played.",
    },
    Command {
        name: "redo",
        args: "[N|all]",
        summary: "play again a move taken back (or N, or all)",
        detail: "",
    },
    Command {
        name: "new",
        args: "",
        summary: "start a new game from the rules' starting position",
        detail: "Forgets the moves and any position given with `setup`.",
    },
    Command {
        name: "board",
        args: "",
        summary: "show the board, whose turn it is and the state of the game",
        detail: "",
    },
    Command {
        name: "flip",
        args: "",
        summary: "turn the board round (and back): the other side at the bottom",
        detail: "",
    },
    Command {
        name: "setup",
        args: "POSITION",
        summary: "start from a position: FEN, PDN FEN or zrf's native text",
        detail: "Examples: `setup 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1`, `setup W:W31,32:B1,K7`,\n\
                 or the text that `position` prints. The moves so far are forgotten.",
    },
    Command {
        name: "position",
        args: "",
        summary: "print the position in zrf's native text (it reads back with `setup`)",
        detail: "",
    },
    Command {
        name: "fen",
        args: "",
        summary: "print the position as FEN (as PDN FEN on numbered draughts boards)",
        detail: "FEN needs a two-dimensional grid, two players and one-letter piece notations.\n\
                 Castling rights come from the attribute that kings and rooks share, en passant\n\
                 from a pawn's double step, the halfmove clock from a `halfmove-clock` counter.",
    },
    Command {
        name: "history",
        args: "",
        summary: "list the moves played, numbered",
        detail: "",
    },
    Command {
        name: "save",
        args: "FILE",
        summary: "save the game as a record: FILE.game, FILE.pgn, FILE.pdn or FILE.zsg",
        detail: "The format follows the file name: zrf's own record (any name but these), PGN\n\
                 with moves in SAN (chess-like games), PDN (draughts), or a Zillions of Games\n\
                 saved game (.zsg). See docs/game-records.md.",
    },
    Command {
        name: "load",
        args: "FILE [N]",
        summary: "load a record (.game, .pgn, .pdn, .zsg) and replay it; N: game N of a file",
        detail: "The record may name another rules file or variant; they are loaded too. A PGN or\n\
                 PDN record that names no rules file is played with these rules when they have\n\
                 its variant, else with the shipped game its [Variant] or [GameType] names.\n\
                 Zillions of Games saved games (.zsg) are read too. If a move of the record is\n\
                 not legal, nothing changes.",
    },
    Command {
        name: "perft",
        args: "N",
        summary: "count the move sequences of length N from here",
        detail: "",
    },
    Command {
        name: "divide",
        args: "N",
        summary: "perft N split by the first move",
        detail: "",
    },
    Command {
        name: "variant",
        args: "NAME|NUMBER",
        summary: "switch to another game or variant of the file (a new game)",
        detail: "",
    },
    Command {
        name: "variants",
        args: "",
        summary: "list the games and variants of the file",
        detail: "",
    },
    Command {
        name: "rules",
        args: "",
        summary: "describe the game: description, history, strategy and pieces",
        detail: "",
    },
    Command {
        name: "help",
        args: "[COMMAND]",
        summary: "list the commands, or explain one",
        detail: "",
    },
    Command {
        name: "ai",
        args: "[SETTING]",
        summary: "let the computer make the move for the side to play",
        detail: "It searches with the session's setting (see `engine`; one second of alpha-beta\n\
                 at first), or with SETTING for this move only, e.g. `ai depth 6`.",
    },
    Command {
        name: "go",
        args: "LIMITS",
        summary: "let the computer move, searching within these limits: go depth 6, go time 2s",
        detail: "Limits: `depth N`, `time T` (2s, 0.5s, 200ms), `nodes N`, in any combination;\n\
                 `mcts` or `alphabeta` picks the engine. They hold for this move only.",
    },
    Command {
        name: "analyse",
        args: "[LIMITS]",
        summary: "search without moving: the best line and its score, depth by depth",
        detail: "A progress line shows the search as it goes. Scores are from the point of view of\n\
                 the side to move: +1.00 is about a pawn (or a man) ahead; `win in 3` counts plies.\n\
                 `lines 3` shows the three best moves, each with its line and score, best first.\n\
                 Without limits, on a terminal, it searches until Ctrl-C (elsewhere it uses the\n\
                 `engine` setting); Ctrl-C stops the search and keeps what it found.",
    },
    Command {
        name: "engine",
        args: "[SETTING]",
        summary: "show or change the computer's setting: engine mcts time 2s, engine depth 5",
        detail: "The setting is used by `ai` and by the replies of `play-as`.\n\
                 `opponent random` plays for the best expected result against random replies\n\
                 where the rest of the game can be searched; `opponent best` (the default)\n\
                 assumes the best replies.",
    },
    Command {
        name: "play-as",
        args: "SIDE",
        summary: "let the computer play a side (or both, or none) and reply by itself",
        detail: "SIDE is a player, `both` or `none`. With a side, the computer answers each of\n\
                 your moves; with `both` it plays the game out (Ctrl-C stops it).",
    },
    Command {
        name: "quit",
        args: "",
        summary: "leave (also `exit`, or Ctrl-D)",
        detail: "",
    },
];

/// The names of the commands, for completion.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|c| c.name)
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
    first_number: u32,
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
fn fullmove(text: &str) -> Option<u32> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() >= 6 && fields[0].contains('/') {
        fields[5].parse().ok().filter(|&n| n >= 1)
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

/// ZoG help text: a backslash ends a line; other line breaks and runs of spaces are one space.
fn reflow(text: &str) -> String {
    text.split('\\')
        .map(|part| part.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// Move text without separators, in lower case (as `notation` compares typed moves).
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | 'x' | 'X' | '=' | ':' | ' ' | '@'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The parts of a move's text that look like squares: letters then digits (`e2`, `11`), after
/// splitting at separators, so `e2e4` gives `e2` and `e4`.
fn square_tokens(input: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in input.split(['-', ':', '@', '=', ' ']) {
        let b = part.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            let digits = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i > digits {
                out.push(&part[start..i]);
            } else if i == start {
                i += 1;
            }
        }
    }
    out
}

/// Each line of a text wrapped at 78 columns.
fn paragraphs(text: &str) -> String {
    text.lines()
        .map(|l| {
            let indent = l.len() - l.trim_start().len();
            let words: Vec<String> = l.split_whitespace().map(String::from).collect();
            let head = " ".repeat(indent);
            let mut w = wrap(&head, &words, 78);
            if indent > 0 {
                w = w.replace("\n  ", &format!("\n{head}    "));
            } else {
                w = w.replace("\n  ", "\n");
            }
            w
        })
        .collect::<Vec<_>>()
        .join("\n")
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
        let rec = Record::parse(text).map_err(|e| OpenError::Record(e, None))?;
        let game = rec.get("Game").ok_or_else(|| {
            OpenError::Record(
                "the record has no [Game \"FILE\"] header naming its rules file".into(),
                None,
            )
        })?;
        // Beside the record first (how zrf writes it), then as written (older records).
        let game = match beside(record_path, game) {
            Some(near) if files.read_if_exists(&near) != Err(None) => near,
            _ => game.to_string(),
        };
        let mut s = Session::open(&game, files, rec.get("Variant"), rec.get("Setup"))?;
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
            Ok(()) => Output::text(format!("Saved {} moves to {path}.", self.game.played.len())),
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
                let n = self.game.played.len();
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

    /// One move, or several separated by spaces; all or nothing.
    fn moves_line(&mut self, line: &str) -> Output {
        let words: Vec<&str> = line.split_whitespace().collect();
        let redo = self.game.redo.clone();
        let mut played = 0;
        for w in &words {
            match self.play_one(w) {
                Ok(_) => played += 1,
                Err(e) => {
                    // A word that is no move and looks like a mistyped command.
                    if played == 0 && words.len() == 1 && !self.looks_like_move(w) {
                        return self.unknown_command(w);
                    }
                    let mut msg = self.explain(w, e);
                    if played > 0 {
                        let n = self.game.played.len();
                        let before = self.game.played[n - played..].join(" ");
                        msg += &format!(" (after {before}); nothing on the line was played");
                    }
                    for _ in 0..played {
                        self.game.undo();
                    }
                    self.game.redo = redo;
                    return self.error(msg);
                }
            }
        }
        let replies = self.auto_replies();
        Output::text(format!("{replies}{}", self.show()))
    }

    /// Plays a move; a lone square names the one legal move that ends there (a drop in
    /// tic-tac-toe, say).
    fn play_one(&mut self, w: &str) -> Result<String, MoveError> {
        let e = match self.game.play(w) {
            Ok(m) => return Ok(m),
            Err(e) => e,
        };
        // In algebraic notation a lone square is a pawn's move, which SAN has read already.
        if self.game.outcome().is_some()
            || matches!(e, MoveError::Ambiguous(_))
            || self.game.has_san
        {
            return Err(e);
        }
        let list = self.game.legal().clone();
        let def = &self.game.rules.def;
        let texts = notation::move_texts(def, &list);
        let Some(sq) = (0..def.board.n_pos() as u16)
            .find(|&q| notation::square(def, q).eq_ignore_ascii_case(w))
        else {
            // The start of several moves (`a7a8` for the promotions) is ambiguous.
            let want = squash(w);
            let starting: Vec<String> = texts
                .iter()
                .filter(|t| want.len() >= 2 && squash(t).starts_with(&want))
                .cloned()
                .collect();
            return Err(if starting.len() > 1 {
                MoveError::Ambiguous(starting)
            } else {
                e
            });
        };
        let ending: Vec<String> = list
            .moves
            .iter()
            .zip(texts)
            .filter(|(m, _)| !m.pass && list.path(m).last() == Some(&sq))
            .map(|(_, t)| t)
            .collect();
        match ending.len() {
            1 => self.game.play(&ending[0]),
            0 => Err(e),
            _ => Err(MoveError::Ambiguous(ending)),
        }
    }

    fn looks_like_move(&self, w: &str) -> bool {
        w.eq_ignore_ascii_case("pass")
            || w.chars()
                .any(|c| c.is_ascii_digit() || c == '@' || c == '-')
    }

    fn unknown_command(&self, w: &str) -> Output {
        let names: Vec<&str> = command_names().chain(["exit"]).collect();
        let hint = crate::diagnostic::nearest(w, names.iter().copied())
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_default();
        self.error(format!(
            "`{w}` is neither a command nor a move{hint} (`help` lists the commands)"
        ))
    }

    /// A bad move's error, with what the square named first holds and can do.
    fn explain(&mut self, input: &str, e: MoveError) -> String {
        let msg = match &e {
            MoveError::Ambiguous(c) => {
                return format!("`{input}` is ambiguous: it could be {}", c.join(", "))
            }
            MoveError::Illegal(m) => m.clone(),
        };
        if self.game.outcome().is_some() {
            return format!("{msg} (`undo` takes moves back, `new` starts again)");
        }
        if self.game.has_san && crate::san::looks_like_san(input) {
            return msg;
        }
        let def = &self.game.rules.def;
        let square_of = |text: &str| {
            (0..def.board.n_pos() as u16)
                .find(|&sq| notation::square(def, sq).eq_ignore_ascii_case(text))
        };
        let mut squares = Vec::new();
        for token in square_tokens(input) {
            match square_of(token) {
                Some(sq) => squares.push(sq),
                None => match token.strip_prefix(['x', 'X']).and_then(square_of) {
                    Some(sq) => squares.push(sq),
                    None => return format!("there is no square `{token}` on this board"),
                },
            }
        }
        let Some(&from) = squares.first() else {
            return msg;
        };
        if squares.len() == 1 && notation::square(def, from).eq_ignore_ascii_case(input.trim()) {
            return format!(
                "{msg}: no legal move ends on {}",
                notation::square(def, from)
            );
        }
        if input.contains('@') {
            return msg;
        }
        let list = self.game.legal().clone();
        let def = &self.game.rules.def;
        let cell = self.game.pos.cells[from as usize];
        let name = notation::square(def, from);
        let mover = self.game.rules.entry(self.game.pos.turn).owner;
        let extra = if cell.is_empty() {
            format!("there is no piece on {name}")
        } else {
            let piece = &def.pieces[cell.piece as usize - 1].name;
            if cell.owner != mover.0 {
                format!(
                    "the {piece} on {name} is {}'s",
                    def.players[cell.owner as usize].name
                )
            } else {
                let texts = notation::move_texts(def, &list);
                let from_here: Vec<String> = list
                    .moves
                    .iter()
                    .zip(&texts)
                    .filter(|(m, _)| !m.pass && m.drop == 0 && list.path(m)[0] == from)
                    .map(|(_, t)| t.clone())
                    .collect();
                let captures: Vec<&String> = list
                    .moves
                    .iter()
                    .zip(&texts)
                    .filter(|(m, _)| m.n_captures() > 0)
                    .map(|(_, t)| t)
                    .collect();
                if from_here.is_empty() && !captures.is_empty() && captures.len() == list.len() {
                    let c: Vec<&str> = captures.iter().map(|s| s.as_str()).collect();
                    format!(
                        "the {piece} on {name} has no legal move; a capture is compulsory: {}",
                        c.join(" ")
                    )
                } else if from_here.is_empty() {
                    format!("the {piece} on {name} has no legal move")
                } else {
                    format!("the {piece} on {name} can play {}", from_here.join(" "))
                }
            }
        };
        format!("{msg}: {extra}")
    }

    fn moves(&mut self, arg: &str) -> Output {
        let san = match arg.to_lowercase().as_str() {
            "" => false,
            "san" if self.game.has_san => true,
            "san" => return self.error(crate::san::NOT_APPLICABLE),
            _ => return self.error(format!("`moves` takes nothing or `san`, not `{arg}`")),
        };
        if let Some(o) = self.game.outcome() {
            return Output::text(format!(
                "The game is over: {}.",
                o.describe(&self.game.rules.def)
            ));
        }
        let list = self.game.legal().clone();
        let texts = match self.game.legal_sans() {
            Some(t) if san => t,
            _ => notation::move_texts(&self.game.rules.def, &list),
        };
        let def = &self.game.rules.def;
        // Groups in order of first appearance: piece types, then drops, then pass.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for (m, t) in list.moves.iter().zip(texts) {
            let head = if m.pass {
                "pass".to_string()
            } else if m.drop != 0 {
                "drops".to_string()
            } else if m.piece == 0 {
                "other".to_string()
            } else {
                def.pieces[m.piece as usize - 1].name.clone()
            };
            match groups.iter_mut().find(|(h, _)| *h == head) {
                Some((_, v)) => v.push(t),
                None => groups.push((head, vec![t])),
            }
        }
        let key = |h: &str| match h {
            "drops" => def.pieces.len() + 1,
            "pass" => def.pieces.len() + 2,
            _ => def
                .pieces
                .iter()
                .position(|p| p.name == h)
                .unwrap_or(def.pieces.len()),
        };
        groups.sort_by_key(|(h, _)| key(h));
        let n = list.len();
        let mut out = format!("{n} legal move{}:\n", if n == 1 { "" } else { "s" });
        for (head, moves) in groups {
            if head == "pass" {
                out += "pass\n";
                continue;
            }
            out += &wrap(&format!("{head}:"), &moves, 78);
            out.push('\n');
        }
        Output::text(out)
    }

    fn count(&self, arg: &str, available: usize) -> Result<usize, String> {
        match arg {
            "" => Ok(1),
            "all" => Ok(available),
            n => n
                .parse::<usize>()
                .map_err(|_| format!("expected a number or `all`, found `{n}`")),
        }
    }

    fn undo(&mut self, arg: &str) -> Output {
        let n = match self.count(arg, self.game.played.len()) {
            Ok(n) => n,
            Err(e) => return self.error(e),
        };
        if self.game.played.is_empty() {
            return self.error("there is no move to take back");
        }
        let mut done = 0;
        while done < n && self.game.undo() {
            done += 1;
        }
        let what = if done == 1 {
            format!("Took back {}.", self.game.redo.last().map_or("", |s| s))
        } else {
            format!("Took back {done} moves.")
        };
        Output::text(format!("{what}\n{}", self.show()))
    }

    fn redo(&mut self, arg: &str) -> Output {
        let n = match self.count(arg, self.game.redo.len()) {
            Ok(n) => n,
            Err(e) => return self.error(e),
        };
        if self.game.redo.is_empty() {
            return self.error("there is no move to redo");
        }
        let mut done = 0;
        while done < n && self.game.redo().is_some() {
            done += 1;
        }
        let what = if done == 1 {
            format!(
                "Played {} again.",
                self.game.played.last().map_or("", |s| s)
            )
        } else {
            format!("Played {done} moves again.")
        };
        Output::text(format!("{what}\n{}", self.show()))
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

    fn perft(&mut self, which: &str, arg: &str) -> Output {
        let depth: u32 = match arg.parse() {
            Ok(d) => d,
            Err(_) => return self.error(format!("`{which}` needs a depth: {which} N")),
        };
        let g = &mut self.game;
        if which == "perft" {
            let n = g.rules.perft(&mut g.pos, depth);
            return Output::text(format!("perft {depth}: {n}"));
        }
        if depth == 0 {
            return Output::text("total 1");
        }
        let list = g.legal().clone();
        let texts = notation::move_texts(&g.rules.def, &list);
        let mut log = crate::engine::UndoLog::new();
        let mut out = String::new();
        let mut total = 0;
        for (i, t) in texts.iter().enumerate() {
            let m = list.moves[i];
            g.rules.make(&mut g.pos, &list, &m, &mut log);
            let n = g.rules.perft(&mut g.pos, depth - 1);
            crate::engine::revert(&mut g.pos, &mut log);
            total += n;
            let _ = writeln!(out, "{t} {n}");
        }
        let _ = write!(out, "total {total}");
        Output::text(out)
    }

    fn variant(&mut self, name: &str) -> Output {
        if name.is_empty() {
            return self.error("`variant` needs a title or a number (`variants` lists them)");
        }
        let idx = match crate::summary::select_variant(&self.loaded.games, Some(name)) {
            Ok(i) => i,
            Err(e) => return self.error(e.replace("--list-variants", "`variants`")),
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

    fn rules_text(&self) -> String {
        let def = &self.game.rules.def;
        let mut out = self.paint(ansi::BOLD, &def.title);
        out.push('\n');
        for (head, text) in [
            ("", &def.description),
            ("History: ", &def.history),
            ("Strategy: ", &def.strategy),
        ] {
            if !text.trim().is_empty() {
                let _ = writeln!(out, "\n{}", paragraphs(&format!("{head}{}", reflow(text))));
            }
        }
        let players: Vec<&str> = def.players.iter().map(|p| p.name.as_str()).collect();
        let _ = writeln!(out, "\nPlayers: {}", players.join(", "));
        out += "Pieces:";
        let letters = diagram::piece_letters(def);
        for (i, p) in def.pieces.iter().enumerate() {
            if p.dummy {
                continue;
            }
            let letter = &letters[i];
            let help = reflow(&p.help);
            let mut line = format!("  {letter} {}", p.name);
            if !help.is_empty() {
                line += ": ";
                line += help.trim_start_matches(&format!("{}: ", p.name));
            }
            let _ = write!(out, "\n{}", paragraphs(&line));
        }
        out
    }

    fn help(&self, topic: &str) -> Output {
        if !topic.is_empty() {
            let t = topic.to_lowercase();
            let t = if t == "exit" { "quit".into() } else { t };
            return match COMMANDS.iter().find(|c| c.name == t) {
                Some(c) => {
                    let mut out = format!("{} {}\n  {}", c.name, c.args, c.summary);
                    if !c.detail.is_empty() {
                        out += "\n";
                        out += &c
                            .detail
                            .lines()
                            .map(|l| format!("  {l}\n"))
                            .collect::<String>();
                    }
                    Output::text(out.replace(&format!("{} \n", c.name), &format!("{}\n", c.name)))
                }
                None => {
                    let names: Vec<&str> = command_names().collect();
                    let hint = crate::diagnostic::nearest(&t, names.iter().copied())
                        .map(|n| format!("; did you mean `{n}`?"))
                        .unwrap_or_default();
                    self.error(format!("there is no command `{topic}`{hint}"))
                }
            };
        }
        let mut out = String::from(
            "Type a move to play it: e2-e4, e2e4, e7e8q, P@e4, 11-15, 11x18x25, pass.\n\
             Several moves on one line are played in turn. Commands:\n",
        );
        for c in COMMANDS {
            let usage = format!("{} {}", c.name, c.args);
            let _ = writeln!(out, "  {:<20} {}", usage.trim_end(), c.summary);
        }
        out += "`help COMMAND` tells more.";
        Output::text(out)
    }

    /// The number of the round the next move belongs to.
    fn number_of_next(&self) -> u32 {
        let g = &self.game;
        let mut n = self.first_number;
        for k in 1..g.turns.len() {
            if g.turns[k] <= g.turns[k - 1] {
                n += 1;
            }
        }
        if self.next_is_round_start() && !g.turns.is_empty() {
            n += 1;
        }
        n
    }

    /// Whether the next move starts a round (the turn index does not go up).
    fn next_is_round_start(&self) -> bool {
        let g = &self.game;
        match g.turns.last() {
            Some(&t) => g.pos.turn <= t,
            None => !self.mid_round(g.pos.turn),
        }
    }

    /// Whether a turn index is not the first of its round.
    fn mid_round(&self, turn: u32) -> bool {
        let once = self.game.rules.once as u32;
        turn > if turn < once { 0 } else { once }
    }

    /// The moves played, numbered by rounds of the turn order: `1. e2-e4 e7-e5`.
    fn numbered(&self, san: bool) -> Vec<String> {
        let g = &self.game;
        let mut lines: Vec<String> = Vec::new();
        let mut n = self.first_number;
        let moves = if san && g.has_san { &g.sans } else { &g.played };
        for (k, mv) in moves.iter().enumerate() {
            if k == 0 {
                let dots = if self.mid_round(g.turns[0]) {
                    "..."
                } else {
                    "."
                };
                lines.push(format!("{n}{dots} {mv}"));
            } else if g.turns[k] <= g.turns[k - 1] {
                n += 1;
                lines.push(format!("{n}. {mv}"));
            } else if let Some(l) = lines.last_mut() {
                l.push(' ');
                l.push_str(mv);
            }
        }
        lines
    }

    fn history(&self) -> String {
        let lines = self.numbered(true);
        if lines.is_empty() {
            "No moves yet.".into()
        } else {
            lines.join("\n")
        }
    }

    /// The result once the game is over (`White wins (checkmated)`), else `None`.
    pub fn result(&mut self) -> Option<String> {
        let o = self.game.outcome()?;
        Some(o.describe(&self.game.rules.def))
    }

    /// The game record of the game so far, in the format `record_path` names, to be saved
    /// there: its `Game` header
    /// names the rules file relative to the record's folder when `files` can tell where both
    /// are ([`Files::absolute`]), else as the rules path was given.
    pub fn record_at(&mut self, record_path: &str, files: &dyn Files) -> Result<String, String> {
        let rules = files.absolute(&self.path);
        let record = files.absolute(record_path);
        let game = match (rules, record) {
            (Some(rules), Some(record)) => {
                let rules = std::path::Path::new(&rules);
                std::path::Path::new(&record)
                    .parent()
                    .and_then(|dir| relative_path(dir, rules))
                    .unwrap_or_else(|| rules.to_path_buf())
                    .to_string_lossy()
                    .into_owned()
            }
            _ => self.path.clone(),
        };
        let saved = std::mem::replace(&mut self.path, game);
        let text = self.record_as(record_path);
        self.path = saved;
        text
    }

    /// The game record of the game so far.
    pub fn record(&mut self) -> String {
        let result = self
            .result()
            .unwrap_or_else(|| record::UNFINISHED.to_string());
        let mut headers = vec![
            ("Game", self.path.clone()),
            ("Variant", self.title().to_string()),
        ];
        if let Some(s) = &self.setup {
            headers.push(("Setup", s.clone()));
        }
        if let Some(d) = &self.today {
            headers.push(("Date", d.clone()));
        }
        headers.push(("Result", result));
        Record::write(&headers, &self.numbered(false))
    }

    /// The board and the state of the game: whose turn, move number, last move, pieces in
    /// hand, counters, and the result once the game is over.
    pub fn show(&mut self) -> String {
        let mut out =
            diagram::diagram_turned(&self.game.rules, &self.game.pos, self.color, self.flipped);
        if let Some(cut) = self.game.take_cut() {
            let text = format!("warning: {} (said once per game)", cut.describe());
            let _ = writeln!(out, "{}", self.paint(ansi::BOLD, &text));
        }
        let outcome = self.game.outcome();
        let n = self.number_of_next();
        let g = &self.game;
        let def = &g.rules.def;
        match &outcome {
            Some(o) => {
                let text = format!("Game over: {}.", o.describe(def));
                let _ = writeln!(out, "{}", self.paint(ansi::BOLD, &text));
            }
            None if g.rules.turns.is_empty() => out += "Nobody moves in this game.\n",
            None => {
                let e = g.rules.entry(g.pos.turn);
                let mut who = format!("{} to move", def.players[e.mover.idx()].name);
                if e.owner != e.mover {
                    who += &format!(" {}'s pieces", def.players[e.owner.idx()].name);
                }
                if let Some(t) = e.move_type {
                    who += &format!(" ({} moves only)", def.move_types[t.idx()]);
                }
                let _ = writeln!(out, "{who}, move {n}.");
            }
        }
        match (g.played.last(), g.sans.last()) {
            (Some(last), Some(san)) => {
                let _ = writeln!(out, "Last move: {san} ({last}).");
            }
            (Some(last), None) => {
                let _ = writeln!(out, "Last move: {last}.");
            }
            _ => {}
        }
        let n_pieces = def.pieces.len();
        let mut hands = Vec::new();
        for (pl, player) in def.players.iter().enumerate() {
            let items: Vec<String> = (0..n_pieces)
                .filter_map(|pi| {
                    let k = g.pos.store[pl * n_pieces + pi];
                    (k > 0).then(|| format!("{k} {}", def.pieces[pi].name))
                })
                .collect();
            if !items.is_empty() {
                hands.push(format!("{} {}", player.name, items.join(", ")));
            }
        }
        if !hands.is_empty() {
            let _ = writeln!(out, "In hand: {}.", hands.join("; "));
        }
        let mut counters = Vec::new();
        for (c, counter) in def.counters.iter().enumerate() {
            let base = g.rules.counter_base[c] as usize;
            if counter.per_player {
                let values: Vec<String> = def
                    .players
                    .iter()
                    .enumerate()
                    .map(|(pl, p)| format!("{} {}", p.name, g.pos.counters[base + pl]))
                    .collect();
                counters.push(format!("{} {}", counter.name, values.join(" ")));
            } else {
                counters.push(format!("{} {}", counter.name, g.pos.counters[base]));
            }
        }
        if !counters.is_empty() {
            let _ = writeln!(out, "Counters: {}.", counters.join(", "));
        }
        let huffable: Vec<String> = (0..g.pos.cells.len())
            .filter(|&sq| g.pos.cells[sq].marks & crate::engine::HUFFABLE != 0)
            .map(|sq| notation::square(def, sq as u16))
            .collect();
        if !huffable.is_empty() && outcome.is_none() {
            let _ = writeln!(
                out,
                "May be huffed before the next move: {} (write `h{}:` before the move).",
                huffable.join(", "),
                huffable[0]
            );
        }
        out
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
    }
}
