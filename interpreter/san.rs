//! Standard algebraic notation (SAN), as PGN and chess programs write moves: `Nf3`, `exd5`,
//! `O-O`, `e8=Q`, `N@f3`, with `+` for check and `#` for mate.
//!
//! SAN applies to a chess-like game: one with a royal piece (a `checkmated` goal), whose
//! squares are named file then rank (`e4`) and whose pieces all have a one-letter `notation`
//! (draughts, whose men have letters too, have no royal piece). The piece lettered `P` is the
//! pawn, whose letter is left out.
//! A king's move along its rank of two squares or more is castling (`O-O` towards the higher
//! files, `O-O-O` towards the lower). A piece's move names its origin only when another piece
//! of its type can reach the same square: by file, else by rank, else by both, as the PGN
//! standard says, among the legal moves only. Two legal moves that would still read alike
//! (which chess never has) keep zrf's canonical text.
//!
//! Check is a royal piece (one named by a `checkmated` goal) of the side to move attacked, by
//! the engine's own test; mate is check with no legal move.

use crate::def::{GameDef, NONE};
use crate::engine::{revert, MoveList, Position, Rules, UndoLog};
use crate::notation::{self, MoveError};

/// A square name's file letters and rank digits (`e4` → `e`, `4`; `aa10` → `aa`, `10`).
fn split(name: &str) -> Option<(&str, &str)> {
    let i = name.find(|c: char| !c.is_ascii_lowercase())?;
    let (file, rank) = name.split_at(i);
    (i > 0 && !rank.is_empty() && rank.bytes().all(|b| b.is_ascii_digit())).then_some((file, rank))
}

/// A file's order: `a` < `b` < … < `z` < `aa`.
fn file_index(file: &str) -> usize {
    file.bytes()
        .fold(0, |n, b| n * 26 + (b - b'a') as usize + 1)
}

/// Why a game has no SAN, for messages.
pub const NOT_APPLICABLE: &str =
    "this game has no algebraic notation (SAN is for chess-like games: \
     a royal piece, one-letter piece notations, squares named file and rank)";

/// Whether SAN applies to the game (see the module documentation).
pub fn applies(def: &GameDef) -> bool {
    let mut letters = Vec::new();
    for p in def.pieces.iter().filter(|p| !p.dummy) {
        let mut cs = p.notation.as_deref().unwrap_or("").chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => {
                let c = c.to_ascii_uppercase();
                if letters.contains(&c) {
                    return false;
                }
                letters.push(c);
            }
            _ => return false,
        }
    }
    !letters.is_empty()
        && def.goals.iter().any(|g| checkmate(&g.cond))
        && !def.board.numbers.iter().any(|&n| n > 0)
        && def.board.positions.iter().all(|p| split(&p.name).is_some())
}

/// Whether a goal condition names a royal piece (`checkmated`).
fn checkmate(c: &crate::def::GoalCond) -> bool {
    use crate::def::GoalCond;
    match c {
        GoalCond::Checkmated(_) => true,
        GoalCond::Not(x) => checkmate(x),
        GoalCond::And(xs) | GoalCond::Or(xs) => xs.iter().any(checkmate),
        _ => false,
    }
}

/// A piece type's SAN letter (upper case); `None` for the pawn.
fn letter(def: &GameDef, piece: u16) -> Option<char> {
    let c = def.pieces[piece as usize]
        .notation
        .as_deref()?
        .chars()
        .next()?
        .to_ascii_uppercase();
    (c != 'P').then_some(c)
}

fn name(def: &GameDef, sq: u16) -> &str {
    &def.board.positions[sq as usize].name
}

/// `Some(true)` for a castling move towards the higher files, `Some(false)` towards the lower.
fn castling(def: &GameDef, list: &MoveList, i: usize) -> Option<bool> {
    let m = &list.moves[i];
    if m.drop != 0 || m.pass || m.piece == 0 || letter(def, m.piece - 1) != Some('K') {
        return None;
    }
    let path = list.path(m);
    let (from, to) = (path[0], path[path.len() - 1]);
    let (ff, fr) = split(name(def, from))?;
    let (tf, tr) = split(name(def, to))?;
    let (a, b) = (file_index(ff), file_index(tf));
    (fr == tr && a.abs_diff(b) >= 2).then_some(b > a)
}

/// The SAN of every legal move, without check marks; unique within the list.
pub fn texts(def: &GameDef, list: &MoveList) -> Vec<String> {
    let mut out: Vec<String> = (0..list.len()).map(|i| text(def, list, i)).collect();
    let canonical = notation::move_texts(def, list);
    for i in 0..out.len() {
        if out.iter().filter(|t| **t == out[i]).count() > 1 {
            let same = out[i].clone();
            for j in 0..out.len() {
                if out[j] == same {
                    out[j] = canonical[j].clone();
                }
            }
        }
    }
    out
}

fn text(def: &GameDef, list: &MoveList, i: usize) -> String {
    let m = &list.moves[i];
    if m.pass {
        return "pass".into();
    }
    let path = list.path(m);
    let to = path[path.len() - 1];
    let mut s = String::new();
    if m.huff != 0 {
        s += &format!("h{}:", notation::square(def, m.huff - 1));
    }
    if m.drop != 0 {
        s += &notation::piece_letter(def, m.drop - 1).to_ascii_uppercase();
        s.push('@');
        s += name(def, to);
        return s;
    }
    if let Some(high) = castling(def, list, i) {
        s += if high { "O-O" } else { "O-O-O" };
        return s;
    }
    let from = path[0];
    let capture = m.n_captures() > 0;
    let piece = m.piece.saturating_sub(1);
    match letter(def, piece) {
        None => {
            if capture {
                s += split(name(def, from)).map_or("", |(f, _)| f);
            }
        }
        Some(c) => {
            s.push(c);
            s += &disambiguation(def, list, i, from, to);
        }
    }
    if capture {
        s.push('x');
    }
    s += name(def, to);
    if m.promote != 0 && m.promote != m.piece {
        s.push('=');
        s += &notation::piece_letter(def, m.promote - 1).to_ascii_uppercase();
    }
    s
}

/// What tells this move from other legal moves of the same piece type to the same square.
fn disambiguation(def: &GameDef, list: &MoveList, i: usize, from: u16, to: u16) -> String {
    let m = &list.moves[i];
    let others: Vec<u16> = list
        .moves
        .iter()
        .filter(|o| o.drop == 0 && !o.pass && o.piece == m.piece && o.huff == m.huff)
        .map(|o| {
            let p = list.path(o);
            (p[0], p[p.len() - 1])
        })
        .filter(|&(f, t)| t == to && f != from)
        .map(|(f, _)| f)
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let Some((file, rank)) = split(name(def, from)) else {
        return name(def, from).to_string();
    };
    let parts = |sq: u16| split(name(def, sq)).unwrap_or(("", ""));
    if others.iter().all(|&o| parts(o).0 != file) {
        file.to_string()
    } else if others.iter().all(|&o| parts(o).1 != rank) {
        rank.to_string()
    } else {
        format!("{file}{rank}")
    }
}

/// `+` when the move gives check, `#` when it mates, else nothing.
pub fn suffix(rules: &Rules, pos: &mut Position, list: &MoveList, i: usize) -> &'static str {
    if !rules.royal.iter().any(|&r| r) {
        return "";
    }
    let mut log = UndoLog::new();
    rules.make(pos, list, &list.moves[i], &mut log);
    let mark = after_move(rules, pos);
    revert(pos, &mut log);
    mark
}

/// `+` when the side to move in `pos` is in check, `#` when it is mated, else nothing.
pub fn after_move(rules: &Rules, pos: &mut Position) -> &'static str {
    if rules.turns.is_empty() || !rules.royal.iter().any(|&r| r) {
        return "";
    }
    let side = rules.entry(pos.turn).owner;
    if !rules.royal_attacked(pos, side) {
        return "";
    }
    let mut replies = MoveList::new();
    rules.legal_moves(pos, &mut replies);
    if replies.is_empty() {
        "#"
    } else {
        "+"
    }
}

/// The SAN of every legal move with its check mark: `Qxf7#`.
pub fn texts_marked(rules: &Rules, pos: &mut Position, list: &MoveList) -> Vec<String> {
    let plain = texts(&rules.def, list);
    plain
        .into_iter()
        .enumerate()
        .map(|(i, t)| t + suffix(rules, pos, list, i))
        .collect()
}

/// A move as SAN input reads it.
#[derive(Debug, Default)]
struct Parsed {
    castle: Option<bool>,
    drop: bool,
    piece: Option<char>,
    file: Option<String>,
    rank: Option<String>,
    to: String,
    promote: Option<char>,
}

fn parse_text(s: &str, is_square: impl Fn(&str) -> bool) -> Option<Parsed> {
    let s = s.trim_end_matches(['+', '#', '!', '?']);
    match s {
        "O-O" | "0-0" | "o-o" => {
            return Some(Parsed {
                castle: Some(true),
                ..Parsed::default()
            })
        }
        "O-O-O" | "0-0-0" | "o-o-o" => {
            return Some(Parsed {
                castle: Some(false),
                ..Parsed::default()
            })
        }
        _ => {}
    }
    if let Some((piece, to)) = s.split_once('@') {
        let mut cs = piece.chars();
        let piece = match (cs.next(), cs.next()) {
            (None, _) => 'P',
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => return None,
        };
        return Some(Parsed {
            drop: true,
            piece: Some(piece),
            to: to.to_string(),
            ..Parsed::default()
        });
    }
    let mut rest = s;
    let mut p = Parsed::default();
    // A promotion: `=Q`, `Q` or `q` after the rank.
    if let Some(last) = rest.chars().last() {
        if last.is_ascii_alphabetic() {
            let before = &rest[..rest.len() - 1];
            let before = before.strip_suffix('=').unwrap_or(before);
            if before.ends_with(|c: char| c.is_ascii_digit()) {
                p.promote = Some(last.to_ascii_uppercase());
                rest = before;
            }
        }
    }
    // The destination: the longest ending that names a square.
    let at = (0..rest.len())
        .filter(|&k| rest.is_char_boundary(k))
        .find(|&k| is_square(&rest[k..]))?;
    p.to = rest[at..].to_string();
    let head = &rest[..at];
    let mut head = head.strip_suffix(['x', ':', '-']).unwrap_or(head);
    if let Some(c) = head.chars().next().filter(|c| c.is_ascii_uppercase()) {
        p.piece = Some(c);
        head = &head[1..];
    }
    // What is left names the origin: file, rank or both.
    let f = head.len()
        - head
            .trim_start_matches(|c: char| c.is_ascii_lowercase())
            .len();
    let (file, rank) = head.split_at(f);
    if !rank.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    p.file = (!file.is_empty()).then(|| file.to_string());
    p.rank = (!rank.is_empty()).then(|| rank.to_string());
    Some(p)
}

/// Finds the legal move a SAN text names. Check marks, `!` and `?` are ignored, and so is a
/// missing or extra `x`; a fuller origin than needed (`Ng1f3`) is accepted. A pawn move
/// without a file never captures, and a piece move never castles (docs/game-records.md).
pub fn parse(def: &GameDef, list: &MoveList, input: &str) -> Result<usize, MoveError> {
    let found = find(def, list, input)?;
    if found.len() == 1 {
        return Ok(found[0]);
    }
    let all = texts(def, list);
    Err(MoveError::Ambiguous(
        found.iter().map(|&i| all[i].clone()).collect(),
    ))
}

/// The legal moves a SAN text may name (one, or several when it is ambiguous); an error when
/// none.
pub fn find(def: &GameDef, list: &MoveList, input: &str) -> Result<Vec<usize>, MoveError> {
    let input = input.trim();
    let is_square = |t: &str| def.board.positions.iter().any(|p| p.name == t);
    let Some(p) = parse_text(input, is_square) else {
        // `Nz3`: a piece letter, then something that is no square.
        let tail = input.trim_end_matches(['+', '#', '!', '?']);
        let sq = tail.trim_start_matches(|c: char| c.is_ascii_uppercase() || c == '@');
        let sq = sq.rsplit(['x', '-', '@', ':']).next().unwrap_or(sq);
        if sq.ends_with(|c: char| c.is_ascii_digit()) && !sq.is_empty() {
            return Err(MoveError::Illegal(format!(
                "there is no square `{sq}` on this board"
            )));
        }
        return Err(MoveError::Illegal(format!(
            "`{input}` is neither a legal move here nor algebraic notation"
        )));
    };
    let square = |text: &str| (0..def.board.n_pos() as u16).find(|&sq| name(def, sq) == text);
    let to = if p.castle.is_some() {
        NONE
    } else {
        square(&p.to).ok_or_else(|| {
            MoveError::Illegal(format!("there is no square `{}` on this board", p.to))
        })?
    };
    let piece_ok = |piece: u16| match letter(def, piece) {
        None => matches!(p.piece, None | Some('P')),
        Some(c) => p.piece == Some(c),
    };
    let found: Vec<usize> = (0..list.len())
        .filter(|&i| {
            let m = &list.moves[i];
            if m.pass || m.huff != 0 {
                return false;
            }
            if let Some(high) = p.castle {
                return castling(def, list, i) == Some(high);
            }
            let path = list.path(m);
            if path[path.len() - 1] != to {
                return false;
            }
            // Castling reads only as `O-O` or `O-O-O` (or zrf's own `e1-g1`), not `Kg1`.
            if castling(def, list, i).is_some() {
                return false;
            }
            if p.drop {
                return m.drop != 0
                    && letter(def, m.drop - 1).unwrap_or('P') == p.piece.unwrap_or('P');
            }
            if m.drop != 0 || m.piece == 0 || !piece_ok(m.piece - 1) {
                return false;
            }
            // A pawn's capture names its file (`axb5`): a pawn move without one (`b5`) is a
            // move that takes nothing, never a capture read leniently.
            if letter(def, m.piece - 1).is_none() && p.file.is_none() && m.n_captures() > 0 {
                return false;
            }
            let Some((file, rank)) = split(name(def, path[0])) else {
                return false;
            };
            if p.file.as_deref().is_some_and(|f| f != file)
                || p.rank.as_deref().is_some_and(|r| r != rank)
            {
                return false;
            }
            match p.promote {
                Some(c) => {
                    m.promote != 0
                        && m.promote != m.piece
                        && letter(def, m.promote - 1).unwrap_or('P') == c
                }
                None => true,
            }
        })
        .collect();
    match found.len() {
        0 if list.is_empty() => Err(MoveError::Illegal(
            "there are no legal moves in this position".into(),
        )),
        0 => Err(MoveError::Illegal(why_not(def, list, &p, input))),
        _ => Ok(found),
    }
}

/// Why a SAN text names no legal move.
fn why_not(def: &GameDef, list: &MoveList, p: &Parsed, input: &str) -> String {
    let base = format!("`{input}` is not a legal move here");
    if !p.drop && p.castle.is_none() && p.file.is_none() && matches!(p.piece, None | Some('P')) {
        // A pawn capture to this square, written without its file.
        let all = texts(def, list);
        let captures: Vec<&str> = (0..list.len())
            .filter(|&i| {
                let m = &list.moves[i];
                let path = list.path(m);
                m.drop == 0
                    && !m.pass
                    && m.piece != 0
                    && letter(def, m.piece - 1).is_none()
                    && m.n_captures() > 0
                    && name(def, path[path.len() - 1]) == p.to
            })
            .map(|i| all[i].as_str())
            .collect();
        if !captures.is_empty() {
            return format!(
                "{base}: a pawn move without a file takes nothing; a pawn's capture names \
                 its file ({})",
                captures.join(", ")
            );
        }
    }
    if let Some(high) = p.castle {
        let side = if high { "kingside" } else { "queenside" };
        return format!("{base}: castling {side} is not allowed now");
    }
    let letter_of = |c: char| {
        def.pieces.iter().position(|q| {
            !q.dummy
                && q.notation
                    .as_deref()
                    .is_some_and(|n| n.eq_ignore_ascii_case(&c.to_string()))
        })
    };
    let piece = p.piece.unwrap_or('P');
    match letter_of(piece) {
        None => format!("{base}: no piece is lettered `{piece}` in this game"),
        Some(i) if p.drop => format!(
            "{base}: no {} can be dropped on {}",
            def.pieces[i].name, p.to
        ),
        Some(i) => format!("{base}: no {} can go to {}", def.pieces[i].name, p.to),
    }
}

/// Whether a text looks like SAN rather than zrf's own notation, which names the square a
/// move starts from and the one it ends on (`e2-e4`, `e2e4`, `a7a8`): SAN names a piece
/// (`Nf3`, `N@f3`), castles, or names one square, perhaps after a file (`e4`, `exd5`, `e8=Q`).
pub fn looks_like_san(input: &str) -> bool {
    let t = input.trim().trim_end_matches(['+', '#', '!', '?']);
    if t.starts_with(|c: char| c.is_ascii_uppercase() || c == '@')
        || matches!(t, "0-0" | "0-0-0" | "o-o" | "o-o-o")
    {
        return true;
    }
    // A square: letters then digits; returns the rest.
    let square = |s: &str| -> Option<usize> {
        let letters = s.len() - s.trim_start_matches(|c: char| c.is_ascii_lowercase()).len();
        let rest = &s[letters..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        (letters > 0 && digits > 0).then_some(letters + digits)
    };
    let Some(n) = square(t) else {
        return true;
    };
    let rest = t[n..].trim_start_matches(['-', 'x', ':']);
    square(rest).is_none()
}

/// A line of moves in canonical text, played from `pos`, in SAN with check marks; a move that
/// does not read (which a line from the engine never has) and the rest stay as they are.
pub fn line(rules: &Rules, pos: &Position, moves: &[String]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut list = MoveList::new();
    let mut log = UndoLog::new();
    let mut out = Vec::with_capacity(moves.len());
    for (k, mv) in moves.iter().enumerate() {
        rules.legal_moves(&mut pos, &mut list);
        let Ok(i) = notation::parse_move(&rules.def, &list, mv) else {
            out.extend(moves[k..].iter().cloned());
            break;
        };
        let text = texts(&rules.def, &list)[i].clone();
        let m = list.moves[i];
        rules.make(&mut pos, &list, &m, &mut log);
        out.push(text + after_move(rules, &mut pos));
    }
    out
}
