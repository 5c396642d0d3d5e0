//! Game records, side by side: zrf's native `.game` format (`native`), Zillions' saved games
//! (`zsg`, with `zsg_play` matching their moves against the rules and `zsg_describe` writing
//! legal moves as their steps), PGN for chess-like games
//! (`pgn`) and PDN for draughts (`pdn`), which share their tag and movetext reader
//! (`movetext`). Each format turns text into moves and headers, or back; this module does
//! no I/O.

pub mod movetext;
pub mod native;
pub mod pdn;
pub mod pgn;
pub mod zsg;
mod zsg_describe;
pub mod zsg_play;

/// Why the text of a native, PGN or PDN record was not read (Zillions' records have their
/// own, [`zsg::ZsgError`]). `Display` gives the message shown to the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A comment `{` not closed on the line given or after it.
    #[error("line {line}: a comment `{{` is not closed by `}}`")]
    UnclosedComment {
        /// The line (from 1) where the comment begins.
        line: usize,
    },
    /// A `)` outside any variation.
    #[error("line {line}: `)` closes no variation")]
    StrayClose {
        /// The line (from 1).
        line: usize,
    },
    /// A variation `(` still open at the end of the text.
    #[error("a variation `(` is not closed by `)`")]
    UnclosedVariation,
    /// A PGN or PDN tag not written `[Key "value"]`: the text found, when the tag closes.
    #[error("line {line}: a tag is written `[Key \"value\"]`{}", found_text(.found))]
    BadTag {
        /// The line (from 1).
        line: usize,
        /// The tag as written, from `[` to `]`.
        found: Option<String>,
    },
    /// A native record's header line not written `[Key "value"]`.
    #[error("line {line}: a header is written `[Key \"value\"]`, found `{found}`")]
    BadHeader {
        /// The line (from 1).
        line: usize,
        /// The line as written.
        found: String,
    },
    /// A file of games holds no game number `wanted` (from 1).
    #[error("{}", no_game_text(*.wanted, *.count))]
    NoGame {
        /// The number asked for.
        wanted: usize,
        /// The number of games the file holds.
        count: usize,
    },
}

fn no_game_text(wanted: usize, count: usize) -> String {
    match count {
        0 => "the file holds no game".into(),
        1 => format!("there is no game {wanted}: the file holds 1 game"),
        _ => format!("there is no game {wanted}: the file holds {count} games"),
    }
}

fn found_text(found: &Option<String>) -> String {
    found
        .as_ref()
        .map_or(String::new(), |f| format!(", found `{f}`"))
}

/// How a finished two-player game ended, for the result tokens of PGN and PDN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result2 {
    /// The rules' first player won (`1-0`, `2-0`): White in chess, Black in checkers.
    First,
    /// The second player won (`0-1`, `0-2`).
    Second,
    /// A draw (`1/2-1/2`, `1-1`).
    Draw,
}

/// What PGN and PDN writers need to know of a game.
#[derive(Clone, Debug, Default)]
pub struct Export {
    /// The rules file, as the session was given it (written as zrf's own `Game` tag).
    pub rules_path: String,
    /// The title of the game or variant played.
    pub title: String,
    /// The starting position as given, when not the rules' own.
    pub setup: Option<String>,
    /// `YYYY-MM-DD`, when known.
    pub date: Option<String>,
    /// The players' names, in the rules' order.
    pub players: Vec<String>,
    /// The result, `None` while the game goes on (or when it has no two-player result).
    pub result: Option<Result2>,
    /// The moves in the format's notation.
    pub moves: Vec<String>,
    /// The number of the first move.
    pub first_number: u64,
    /// Whether the first move is the second player's (`1... e5`).
    pub second_first: bool,
}

/// `text` without a UTF-8 byte-order mark at its start (or after leading white space): records
/// and position texts saved by Windows editors begin with one, and every reader skips it.
pub fn strip_bom(text: &str) -> &str {
    let t = text.trim_start();
    match t.strip_prefix('\u{feff}') {
        Some(rest) => rest,
        None => text,
    }
}

/// Upper case, without spaces, hyphens or underscores: how variant names are compared.
pub fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}
