//! Zillions of Games saved games (`.zsg`): the text format, read and written. Matching the
//! moves against the rules is in `zsg_play.rs`. The format is described in
//! `docs/game-records.md`.
//!
//! ```text
//! Zillions Save Game File Version 0.02 HC
//! RulesFile=chess.zrf
//! VariantName=Chess
//! (x a1)
//! (White Rook b1)
//! 1. Pawn e2 - e4
//! 1. Pawn d7 - d5
//! 2. Pawn e4 x d5
//! ```
//!
//! A move line is `N. BODY`, N the round. The body is `Pass`, or an optional `partial K` (a
//! partial move: the turn may go on with a further step, on the next line), then the main part
//! and its effects, in the order Zillions carried them out:
//!
//! - main part: `PIECE FROM - TO`, `PIECE FROM x TO` (a capture on TO), a placement
//!   `[PLAYER] PIECE SQUARE` (a drop; a drop may also be written as a move from a square the
//!   board lacks), or nothing (a turn of effects only);
//! - `= TYPE` right after it: the moving piece becomes TYPE;
//! - effects: `x SQUARE` (a piece removed), `PLAYER PIECE SQUARE` (a piece of that player and
//!   type appears, or changes, there), `= TYPE on SQUARE` (the piece there changes type),
//!   `PIECE FROM - TO` (another piece moves, as the rook in castling or a captured piece
//!   carried to a hand square), `= TYPE` or `= PLAYER` after such a move (that piece changes
//!   type or owner), `flip SQUARE` (the piece there changes owner), `@ SQUARE INDEX VALUE` (an
//!   attribute of the piece there is set or cleared).
//!
//! The rules' names are needed to tell the forms apart (a square may be named `X`, a player's
//! name may start a placement), so a body is read with [`parse_move`] and a [`Names`].

use std::fmt;

/// The first words of a record.
pub const MAGIC: &str = "Zillions Save Game File Version";
/// The version zrf writes.
pub const VERSION: &str = "0.02";
/// Longest record read, in bytes.
pub const MAX_BYTES: usize = 16 << 20;
/// Longest line read, in bytes.
pub const MAX_LINE: usize = 4096;
/// Most words in one move line.
pub const MAX_WORDS: usize = 1024;

/// A record as read: headers, start-position edits and move lines (bodies not yet parsed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The version after the magic words (`0.02`).
    pub version: String,
    /// One letter per player slot: `C` computer, `H` human (may be longer than the players).
    pub players: String,
    /// `RulesFile=`: the rules file, as Zillions wrote it (may be a Windows path).
    pub rules_file: String,
    /// `VariantName=`: the title of the variant (`None` when absent or empty).
    pub variant: Option<String>,
    /// Changes to the start position, in order.
    pub edits: Vec<Edit>,
    /// The move lines, in order.
    pub lines: Vec<MoveLine>,
}

/// A change to the start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// Line number (from 1).
    pub line: usize,
    /// What changes.
    pub kind: EditKind,
}

/// What an edit line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditKind {
    /// `(x SQUARE)`: the square is emptied.
    Remove(String),
    /// `(PLAYER PIECE SQUARE)`: a piece is put there.
    Put {
        /// Owner.
        player: String,
        /// Type.
        piece: String,
        /// Where.
        square: String,
    },
}

/// One `N. BODY` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// Line number (from 1).
    pub line: usize,
    /// The round number N.
    pub number: u32,
    /// The body, after `N.`.
    pub body: String,
}

/// One move line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDesc {
    /// `partial K`: the step is a partial move and the turn may go on with another step (K, as
    /// Zillions writes it, numbers the move type the next step must have; zrf does not need it).
    pub partial: Option<u32>,
    /// The main part.
    pub main: Main,
    /// `= TYPE` after the main part: the mover's new type.
    pub promote: Option<String>,
    /// The effects after it, in the order written.
    pub effects: Vec<Effect>,
}

/// The main part of a move line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Main {
    /// `Pass`.
    Pass,
    /// Nothing before the effects (a turn that only changes pieces, such as `= King on c2`).
    None,
    /// `PIECE FROM - TO`, or with `x` for a capture on TO.
    Move {
        /// The moving piece's type.
        piece: String,
        /// Start square (a square the board lacks for a drop).
        from: String,
        /// Destination.
        to: String,
        /// Written with `x`: the piece on TO is captured.
        capture: bool,
    },
    /// `[PLAYER] PIECE SQUARE`: a drop.
    Place {
        /// The player, if written.
        player: Option<String>,
        /// The type dropped.
        piece: String,
        /// Where.
        square: String,
    },
}

/// An effect after the main part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// `x SQUARE`.
    Capture(String),
    /// `PLAYER PIECE SQUARE`.
    Put {
        /// Owner.
        player: String,
        /// Type.
        piece: String,
        /// Where.
        square: String,
    },
    /// `= TYPE on SQUARE`.
    Change {
        /// New type.
        piece: String,
        /// Where.
        square: String,
    },
    /// `PIECE FROM - TO` (or `x TO`, removing what stood there): another piece moves, as the
    /// rook in castling or a captured piece carried to a hand.
    Move {
        /// Type.
        piece: String,
        /// Start.
        from: String,
        /// Destination.
        to: String,
        /// Written with `x`.
        capture: bool,
    },
    /// `= NAME` after an effect (or a second one after the main part): the piece last moved or
    /// placed becomes that type, or, when NAME is a player, changes owner to that player.
    Become(String),
    /// `flip SQUARE`: the piece there changes owner.
    Flip(String),
    /// `@ SQUARE INDEX VALUE`: attribute INDEX (counted from 0 in the piece's declaration)
    /// of the piece there becomes VALUE (0 false, 1 true).
    Attribute {
        /// Where.
        square: String,
        /// The attribute's place among the piece's attributes.
        index: u32,
        /// The new value.
        value: bool,
    },
}

/// A record that cannot be read: the line (from 1; 0 for the whole file) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZsgError {
    /// Line number, 0 when the problem is not on one line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ZsgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

fn err(line: usize, message: impl Into<String>) -> ZsgError {
    ZsgError {
        line,
        message: message.into(),
    }
}

/// Whether a text starts like a ZSG record.
pub fn is_zsg(text: &str) -> bool {
    super::strip_bom(text).trim_start().starts_with(MAGIC)
}

impl Record {
    /// Reads a record: the first line, the headers, edits and move lines. Move bodies are
    /// checked later by [`parse_move`]; every other line that makes no sense is an error.
    pub fn parse(text: &str) -> Result<Record, ZsgError> {
        if text.len() > MAX_BYTES {
            return Err(err(
                0,
                format!("the record is larger than {} MiB", MAX_BYTES >> 20),
            ));
        }
        let mut rec = Record::default();
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let first = loop {
            match lines.next() {
                Some((_, l)) if l.trim().is_empty() => continue,
                Some((n, l)) => break (n, l.trim_start_matches('\u{feff}').trim()),
                None => return Err(err(0, "the record is empty")),
            }
        };
        let rest = first.1.strip_prefix(MAGIC).ok_or_else(|| {
            err(
                first.0,
                format!("a ZSG record starts with `{MAGIC} 0.02 ...`"),
            )
        })?;
        let mut words = rest.split_whitespace();
        rec.version = words.next().unwrap_or_default().to_string();
        rec.players = words.next().unwrap_or_default().to_string();
        if words.next().is_some() {
            return Err(err(
                first.0,
                "the first line has more words than the version and the player letters",
            ));
        }
        if !rec
            .players
            .chars()
            .all(|c| matches!(c.to_ascii_uppercase(), 'C' | 'H'))
        {
            return Err(err(
                first.0,
                format!(
                    "the player letters `{}` should be C (computer) or H (human)",
                    rec.players
                ),
            ));
        }
        let mut last_number = 0;
        for (n, raw) in lines {
            if raw.len() > MAX_LINE {
                return Err(err(n, format!("the line is longer than {MAX_LINE} bytes")));
            }
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(v) = header(line, "RulesFile") {
                rec.rules_file = v.to_string();
            } else if let Some(v) = header(line, "VariantName") {
                rec.variant = (!v.is_empty()).then(|| v.to_string());
            } else if let Some(inner) = line.strip_prefix('(') {
                if !rec.lines.is_empty() {
                    return Err(err(
                        n,
                        "an edit of the position after the moves began is not supported",
                    ));
                }
                let inner = inner
                    .strip_suffix(')')
                    .ok_or_else(|| err(n, "an edit line ends with `)`"))?;
                let w: Vec<&str> = inner.split_whitespace().collect();
                let kind = match w.as_slice() {
                    [x, sq] if x.eq_ignore_ascii_case("x") => EditKind::Remove(sq.to_string()),
                    [pl, pc, sq] => EditKind::Put {
                        player: pl.to_string(),
                        piece: pc.to_string(),
                        square: sq.to_string(),
                    },
                    _ => {
                        return Err(err(
                            n,
                            format!(
                                "an edit is `(x SQUARE)` or `(PLAYER PIECE SQUARE)`, found `{line}`"
                            ),
                        ))
                    }
                };
                rec.edits.push(Edit { line: n, kind });
            } else if let Some((num, body)) = numbered(line) {
                let number: u32 = num
                    .parse()
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| err(n, format!("`{num}` is not a move number")))?;
                if number < last_number {
                    return Err(err(
                        n,
                        format!("move number {number} comes after {last_number}"),
                    ));
                }
                last_number = number;
                if body.is_empty() {
                    return Err(err(n, format!("move {number} has no move after `{num}.`")));
                }
                rec.lines.push(MoveLine {
                    line: n,
                    number,
                    body: body.to_string(),
                });
            } else {
                return Err(err(
                    n,
                    format!("expected `RulesFile=`, `VariantName=`, an edit `( ... )` or a move `N. ...`, found `{line}`"),
                ));
            }
        }
        if rec.rules_file.trim().is_empty() {
            return Err(err(0, "the record has no `RulesFile=` line"));
        }
        Ok(rec)
    }

    /// The rules file's name without any folder (Windows or Unix separators).
    pub fn rules_file_name(&self) -> &str {
        let f = self.rules_file.trim();
        f.rsplit(['\\', '/']).next().unwrap_or(f)
    }
}

/// `Key=value` (key without regard to case).
fn header<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let (k, v) = line.split_once('=')?;
    k.trim().eq_ignore_ascii_case(key).then(|| v.trim())
}

/// `N. BODY` → (N, BODY).
fn numbered(line: &str) -> Option<(&str, &str)> {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let rest = line[digits..].strip_prefix('.')?;
    Some((&line[..digits], rest.trim()))
}

/// The names a move line is read with: which words are players, squares and piece types of
/// the rules. They tell `PLAYER PIECE SQUARE` from `PIECE FROM x TO` when a square is named
/// `X`, a capture `x SQUARE` from a piece named `x`, and so on.
pub trait Names {
    /// A player of the rules.
    fn is_player(&self, word: &str) -> bool;
    /// A position of the board.
    fn is_square(&self, word: &str) -> bool;
    /// A piece type.
    fn is_piece(&self, word: &str) -> bool;
}

/// Words that introduce an effect rather than name something.
fn is_keyword(w: &str) -> bool {
    matches!(w, "=" | "-" | "x" | "@") || w.eq_ignore_ascii_case("flip")
}

/// Reads a move body with the rules' names.
pub fn parse_move(body: &str, names: &dyn Names) -> Result<MoveDesc, String> {
    let w: Vec<&str> = body.split_whitespace().collect();
    if w.len() > MAX_WORDS {
        return Err(format!("a move line has more than {MAX_WORDS} words"));
    }
    // A word that may stand for a square: a known one, or one the rules lack (a drop's
    // off-board start) that is no other kind of name.
    let squareish = |t: Option<&&str>| {
        t.is_some_and(|t| {
            names.is_square(t) || !(is_keyword(t) || names.is_player(t) || names.is_piece(t))
        })
    };
    // A player named where a placement would begin (a piece type of the same name wins).
    let player_at = |i: usize| {
        w.get(i)
            .is_some_and(|t| names.is_player(t) && !names.is_piece(t))
    };
    // `PIECE FROM - TO` or `PIECE FROM x TO` at i.
    let move_at = |i: usize| {
        w.len() >= i + 4
            && !is_keyword(w[i])
            && !player_at(i)
            && squareish(w.get(i + 1))
            && matches!(w[i + 2], "-" | "x")
            && squareish(w.get(i + 3))
    };
    let mut i = 0;
    let mut partial = None;
    if w.first().is_some_and(|t| t.eq_ignore_ascii_case("partial")) {
        let k = w
            .get(1)
            .and_then(|t| t.parse::<u32>().ok())
            .ok_or("`partial` is followed by a number")?;
        partial = Some(k);
        i = 2;
    }
    let effect_at = |i: usize| {
        w.get(i).is_some_and(|t| {
            *t == "="
                || *t == "@"
                || (*t == "x" || t.eq_ignore_ascii_case("flip")) && squareish(w.get(i + 1))
        })
    };
    let main = if w.len() == i + 1 && w[i].eq_ignore_ascii_case("pass") {
        i += 1;
        Main::Pass
    } else if move_at(i) {
        let m = Main::Move {
            piece: w[i].into(),
            from: w[i + 1].into(),
            to: w[i + 3].into(),
            capture: w[i + 2] == "x",
        };
        i += 4;
        m
    } else if w.len() >= i + 3 && player_at(i) {
        let m = Main::Place {
            player: Some(w[i].into()),
            piece: w[i + 1].into(),
            square: w[i + 2].into(),
        };
        i += 3;
        m
    } else if i < w.len() && effect_at(i) {
        Main::None
    } else if w.len() >= i + 2 && !is_keyword(w[i]) {
        let m = Main::Place {
            player: None,
            piece: w[i].into(),
            square: w[i + 1].into(),
        };
        i += 2;
        m
    } else {
        return Err(format!(
            "expected `PIECE FROM - TO`, a placement `PIECE SQUARE`, an effect or `Pass`, found `{body}`"
        ));
    };
    let mut promote = None;
    let changes_type = |t: &str| !names.is_player(t) || names.is_piece(t);
    if matches!(main, Main::Move { .. } | Main::Place { .. })
        && w.get(i) == Some(&"=")
        && w.get(i + 1).is_some_and(|t| changes_type(t))
        && !w.get(i + 2).is_some_and(|t| t.eq_ignore_ascii_case("on"))
    {
        promote = Some(w[i + 1].to_string());
        i += 2;
    }
    let mut effects = Vec::new();
    while i < w.len() {
        let t = w[i];
        if t == "=" {
            let name = w
                .get(i + 1)
                .ok_or("`=` is followed by a type or a player")?;
            if w.get(i + 2).is_some_and(|t| t.eq_ignore_ascii_case("on")) {
                let sq = w.get(i + 3).ok_or("`= TYPE on` is followed by a square")?;
                effects.push(Effect::Change {
                    piece: name.to_string(),
                    square: sq.to_string(),
                });
                i += 4;
                // Zillions lists every square that changes to the same type after one
                // `on`: `= EV on 1F 19J`.
                while w
                    .get(i)
                    .is_some_and(|t| names.is_square(t) && !is_keyword(t))
                    && !move_at(i)
                    && !player_at(i)
                {
                    effects.push(Effect::Change {
                        piece: name.to_string(),
                        square: w[i].to_string(),
                    });
                    i += 1;
                }
            } else {
                if matches!(main, Main::Pass) {
                    return Err("a pass cannot change a piece".into());
                }
                effects.push(Effect::Become(name.to_string()));
                i += 2;
            }
        } else if t == "@" {
            let (Some(sq), Some(a), Some(v)) = (w.get(i + 1), w.get(i + 2), w.get(i + 3)) else {
                return Err("`@` is followed by a square, an attribute number and a value".into());
            };
            let (Ok(index), Ok(value)) = (a.parse::<u32>(), v.parse::<u32>()) else {
                return Err(format!(
                    "`@ {sq} {a} {v}`: the attribute number and value are numbers"
                ));
            };
            effects.push(Effect::Attribute {
                square: sq.to_string(),
                index,
                value: value != 0,
            });
            i += 4;
        } else if move_at(i) {
            effects.push(Effect::Move {
                piece: t.into(),
                from: w[i + 1].into(),
                to: w[i + 3].into(),
                capture: w[i + 2] == "x",
            });
            i += 4;
        } else if t == "x" && i + 1 == w.len() {
            return Err("`x` is followed by a square".into());
        } else if t == "x" && squareish(w.get(i + 1)) {
            effects.push(Effect::Capture(w[i + 1].to_string()));
            i += 2;
        } else if t.eq_ignore_ascii_case("flip") && squareish(w.get(i + 1)) {
            effects.push(Effect::Flip(w[i + 1].to_string()));
            i += 2;
        } else if w.len() >= i + 3 && player_at(i) {
            effects.push(Effect::Put {
                player: t.into(),
                piece: w[i + 1].into(),
                square: w[i + 2].into(),
            });
            i += 3;
        } else {
            return Err(format!(
                "cannot read `{}`: an effect is `x SQUARE`, `PLAYER PIECE SQUARE`, \
                 `= TYPE on SQUARE`, `= TYPE`, `= PLAYER`, `flip SQUARE`, \
                 `@ SQUARE ATTRIBUTE VALUE` or `PIECE FROM - TO`",
                w[i..].join(" ")
            ));
        }
    }
    Ok(MoveDesc {
        partial,
        main,
        promote,
        effects,
    })
}

/// `PIECE FROM - TO`, or with `x` for a capture on TO.
fn write_move(
    f: &mut fmt::Formatter<'_>,
    piece: &str,
    from: &str,
    to: &str,
    capture: bool,
) -> fmt::Result {
    write!(f, "{piece} {from} {} {to}", if capture { "x" } else { "-" })
}

impl fmt::Display for MoveDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = self.partial {
            write!(f, "partial {k} ")?;
        }
        match &self.main {
            Main::Pass => f.write_str("Pass")?,
            Main::None => {}
            Main::Move {
                piece,
                from,
                to,
                capture,
            } => write_move(f, piece, from, to, *capture)?,
            Main::Place {
                player,
                piece,
                square,
            } => match player {
                Some(p) => write!(f, "{p} {piece} {square}")?,
                None => write!(f, "{piece} {square}")?,
            },
        }
        let mut sep = if matches!(self.main, Main::None) {
            ""
        } else {
            " "
        };
        if let Some(t) = &self.promote {
            write!(f, "{sep}= {t}")?;
            sep = " ";
        }
        for e in &self.effects {
            f.write_str(sep)?;
            sep = " ";
            match e {
                Effect::Capture(sq) => write!(f, "x {sq}")?,
                Effect::Put {
                    player,
                    piece,
                    square,
                } => write!(f, "{player} {piece} {square}")?,
                Effect::Change { piece, square } => write!(f, "= {piece} on {square}")?,
                Effect::Move {
                    piece,
                    from,
                    to,
                    capture,
                } => write_move(f, piece, from, to, *capture)?,
                Effect::Become(name) => write!(f, "= {name}")?,
                Effect::Flip(sq) => write!(f, "flip {sq}")?,
                Effect::Attribute {
                    square,
                    index,
                    value,
                } => write!(f, "@ {square} {index} {}", u8::from(*value))?,
            }
        }
        Ok(())
    }
}

/// Writes a record: the first line, `RulesFile=`, `VariantName=`, the edits, then one line per
/// move, `N. BODY`. Lines end with CR LF, as Windows programs expect.
pub fn write(
    players: &str,
    rules_file: &str,
    variant: &str,
    edits: &[EditKind],
    moves: &[(u64, MoveDesc)],
) -> String {
    let mut out = format!("{MAGIC} {VERSION} {players}\r\n");
    out += &format!("RulesFile={rules_file}\r\nVariantName={variant}\r\n");
    for e in edits {
        match e {
            EditKind::Remove(sq) => out += &format!("(x {sq})\r\n"),
            EditKind::Put {
                player,
                piece,
                square,
            } => out += &format!("({player} {piece} {square})\r\n"),
        }
    }
    for (n, m) in moves {
        out += &format!("{n}. {m}\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Players White, Black, Second; squares a letter and digits, or `X`/`Y`; pieces the rest.
    struct Test;

    impl Names for Test {
        fn is_player(&self, w: &str) -> bool {
            matches!(w, "White" | "Black" | "Second")
        }
        fn is_square(&self, w: &str) -> bool {
            let mut c = w.chars();
            matches!(w, "X" | "Y")
                || c.next().is_some_and(|c| c.is_ascii_lowercase())
                    && !c.as_str().is_empty()
                    && c.all(|c| c.is_ascii_digit())
        }
        fn is_piece(&self, w: &str) -> bool {
            !self.is_player(w) && !self.is_square(w) && !is_keyword(w)
        }
    }

    fn mv(body: &str) -> MoveDesc {
        parse_move(body, &Test).unwrap()
    }

    #[test]
    fn reads_headers_edits_and_lines() {
        let text = "Zillions Save Game File Version 0.02 CHH\r\nRulesFile=.\\Chess.zrf\r\n\
                    VariantName=Chess\r\n(x a1)\r\n(White Rook b1)\r\n1. Pawn e2 - e4\r\n\
                    1. Pawn e7 - e5\r\n";
        let r = Record::parse(text).unwrap();
        assert_eq!(r.version, "0.02");
        assert_eq!(r.players, "CHH");
        assert_eq!(r.rules_file_name(), "Chess.zrf");
        assert_eq!(r.variant.as_deref(), Some("Chess"));
        assert_eq!(
            r.edits,
            [
                Edit {
                    line: 4,
                    kind: EditKind::Remove("a1".into())
                },
                Edit {
                    line: 5,
                    kind: EditKind::Put {
                        player: "White".into(),
                        piece: "Rook".into(),
                        square: "b1".into()
                    }
                }
            ]
        );
        assert_eq!(r.lines.len(), 2);
        assert_eq!((r.lines[1].line, r.lines[1].number), (7, 1));
        assert_eq!(r.lines[1].body, "Pawn e7 - e5");
    }

    #[test]
    fn reads_every_move_form() {
        assert_eq!(
            mv("Pawn d4 x e5").main,
            Main::Move {
                piece: "Pawn".into(),
                from: "d4".into(),
                to: "e5".into(),
                capture: true
            }
        );
        let m = mv("Pawn e7 - e8 = Queen");
        assert_eq!(m.promote.as_deref(), Some("Queen"));
        let m = mv("Pawn e5 - d6 x d5 White Pawn e5 = Chariot on e2 Rook h1 - f1 Second p4 f2");
        assert_eq!(
            m.effects,
            [
                Effect::Capture("d5".into()),
                Effect::Put {
                    player: "White".into(),
                    piece: "Pawn".into(),
                    square: "e5".into()
                },
                Effect::Change {
                    piece: "Chariot".into(),
                    square: "e2".into()
                },
                Effect::Move {
                    piece: "Rook".into(),
                    from: "h1".into(),
                    to: "f1".into(),
                    capture: false
                },
                Effect::Put {
                    player: "Second".into(),
                    piece: "p4".into(),
                    square: "f2".into()
                },
            ]
        );
        let m = mv("partial 2 Checker d4 - d6 x d5");
        assert_eq!(m.partial, Some(2));
        assert_eq!(mv("Pass").main, Main::Pass);
        assert_eq!(
            mv("White Stone g7").main,
            Main::Place {
                player: Some("White".into()),
                piece: "Stone".into(),
                square: "g7".into()
            }
        );
        let m = mv("Stone g7 White Stone h8");
        assert_eq!(
            m.main,
            Main::Place {
                player: None,
                piece: "Stone".into(),
                square: "g7".into()
            }
        );
        assert_eq!(m.effects.len(), 1);
        // A placement followed by `x SQUARE` reads as a capturing move: the format cannot
        // tell them apart.
        assert!(matches!(
            mv("Stone g7 x h8").main,
            Main::Move { capture: true, .. }
        ));
        // `= NAME` after an effect changes the piece last moved: its type or its owner.
        assert_eq!(
            mv("Man c5 - e3 x d4 = King").effects[1],
            Effect::Become("King".into())
        );
        let m = mv("Rook b5 x b2 Bishop b2 - n6 = RookP on b2 flip n6");
        assert_eq!(
            m.effects,
            [
                Effect::Move {
                    piece: "Bishop".into(),
                    from: "b2".into(),
                    to: "n6".into(),
                    capture: false
                },
                Effect::Change {
                    piece: "RookP".into(),
                    square: "b2".into()
                },
                Effect::Flip("n6".into()),
            ]
        );
        let m = mv("partial 3 King d6 - g3 = Checker on e5 @ e5 0 1");
        assert_eq!(
            m.effects[1],
            Effect::Attribute {
                square: "e5".into(),
                index: 0,
                value: true
            }
        );
        assert_eq!(mv("Za b3 - g1 = Black").promote, None);
        // A square named X is not a capture sign when a player's name starts the line.
        let m = mv("Black D1 X Black Mark z1");
        assert!(matches!(m.main, Main::Place { ref square, .. } if square == "X"));
        assert_eq!(m.effects.len(), 1);
        // One `on` may list several squares that change to the same type.
        let m = mv("CL h17 - f17 = EV on f1 j19 = HV on n19 p1 = MA on f17");
        let changed: Vec<(&str, &str)> = m
            .effects
            .iter()
            .map(|e| match e {
                Effect::Change { piece, square } => (piece.as_str(), square.as_str()),
                other => panic!("not a type change: {other:?}"),
            })
            .collect();
        assert_eq!(
            changed,
            [
                ("EV", "f1"),
                ("EV", "j19"),
                ("HV", "n19"),
                ("HV", "p1"),
                ("MA", "f17")
            ]
        );
        // A line of effects only.
        let m = mv("= EKing on c2");
        assert_eq!(m.main, Main::None);
        assert_eq!(m.to_string(), "= EKing on c2");
    }

    #[test]
    fn written_lines_read_back() {
        for body in [
            "Pawn e2 - e4",
            "Pawn d4 x e5",
            "Pawn e7 - e8 = Queen x d8 White Pawn e5 = Chariot on e2",
            "partial 3 Checker d4 - d6 x d5",
            "Pass",
            "Pawn e4",
            "King e1 - g1 Rook h1 - f1",
            "Rook b5 x b2 Bishop b2 - n6 = RookP on b2 flip n6",
            "Gold b1 x b2 RookP b2 - y1 = Rook flip y1",
            "Za b2 x b3 Za b3 - g1 = Black = Za on g1",
            "King f6 - h4 @ e3 0 0 x g5",
            "= EKing on c2",
        ] {
            assert_eq!(mv(body).to_string(), body);
        }
        let text = write(
            "HH",
            "chess.zrf",
            "Chess",
            &[EditKind::Remove("a1".into())],
            &[(1, mv("Pawn e2 - e4")), (1, mv("Pawn e7 - e5"))],
        );
        let r = Record::parse(&text).unwrap();
        assert_eq!(r.rules_file, "chess.zrf");
        assert_eq!(r.edits.len(), 1);
        assert_eq!(r.lines[1].body, "Pawn e7 - e5");
    }

    #[test]
    fn mangled_records_never_panic() {
        let good = "Zillions Save Game File Version 0.02 HC\nRulesFile=a.zrf\nVariantName=A\n\
                    (x a1)\n(White Rook b1)\n1. Pawn e2 - e4 = Queen x d5 White Pawn e5\n\
                    1. partial 2 Pawn e4 x e5 = Queen on e2 Rook h1 - f1\n2. Pass\n";
        let bytes = good.as_bytes();
        let mut x: u64 = 12345;
        for _ in 0..3000 {
            let mut b = bytes.to_vec();
            for _ in 0..4 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                let i = (x >> 33) as usize % b.len();
                match (x >> 20) % 3 {
                    0 => {
                        b.remove(i);
                    }
                    1 => b.insert(i, b" x=(.-\n9"[(x >> 8) as usize % 8]),
                    _ => b[i] = (x >> 40) as u8,
                }
            }
            let text = String::from_utf8_lossy(&b);
            if let Ok(r) = Record::parse(&text) {
                for l in &r.lines {
                    let _ = parse_move(&l.body, &Test);
                }
            }
        }
    }

    #[test]
    fn bad_lines_name_their_line() {
        let head = "Zillions Save Game File Version 0.02 HH\nRulesFile=a.zrf\n";
        for (tail, line, what) in [
            ("1. Pawn e2 - e4\n(x a1)\n", 4, "after the moves"),
            ("(x)\n", 3, "an edit is"),
            ("hello\n", 3, "expected"),
            ("2. Pass\n1. Pass\n", 4, "comes after"),
            ("0. Pass\n", 3, "not a move number"),
        ] {
            let e = Record::parse(&format!("{head}{tail}")).unwrap_err();
            assert_eq!(e.line, line, "{e}");
            assert!(e.message.contains(what), "{e}");
        }
        assert!(Record::parse("1. e2-e4").is_err());
        assert!(Record::parse("Zillions Save Game File Version 0.02 HX\nRulesFile=a\n").is_err());
        assert!(parse_move("Pawn", &Test).is_err());
        assert!(parse_move("Pawn e2 - e4 bogus", &Test).is_err());
        assert!(parse_move("partial Pawn e2 - e4", &Test).is_err());
    }
}
