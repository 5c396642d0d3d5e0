//! Move text: the canonical form zrf prints, and the forms it accepts as input.
//!
//! Canonical text: squares by name (or by declared number); `from-to` for a plain move;
//! every landing square joined by `x` for a capture (`e4xd5`, `29x11x20x27x9`); `=L` for a
//! promotion; `L@sq` for a drop; `pass`; `h14:` before a move that first huffs the piece on 14. When two legal moves would still print alike, the
//! captured squares are appended in brackets.

use crate::def::{GameDef, NONE};
use crate::engine::{Move, MoveList};

/// The name of a square as notation shows it: its declared number, or its name.
pub fn square(def: &GameDef, sq: u16) -> String {
    if sq == NONE {
        return "-".into();
    }
    match def.board.numbers.get(sq as usize) {
        Some(&n) if n > 0 => n.to_string(),
        _ => def.board.positions[sq as usize].name.clone(),
    }
}

/// A piece type's letter: its `notation`, else its name.
pub fn piece_letter(def: &GameDef, piece: u16) -> String {
    let p = &def.pieces[piece as usize];
    p.notation.clone().unwrap_or_else(|| p.name.clone())
}

/// The canonical text of one move, without disambiguation.
pub fn move_text(def: &GameDef, list: &MoveList, m: &Move) -> String {
    if m.pass {
        return "pass".into();
    }
    let path = list.path(m);
    let mut s = String::new();
    if m.huff != 0 {
        s.push('h');
        s += &square(def, m.huff - 1);
        s.push(':');
    }
    if m.drop != 0 {
        s += &piece_letter(def, m.drop - 1);
        s.push('@');
        s += &square(def, path[path.len() - 1]);
    } else {
        let sep = if m.n_captures() > 0 { "x" } else { "-" };
        for (i, &sq) in path.iter().enumerate() {
            if i > 0 {
                s += sep;
            }
            s += &square(def, sq);
        }
    }
    if m.promote != 0 && m.promote_choice {
        s.push('=');
        s += &piece_letter(def, m.promote - 1);
    }
    s
}

/// The canonical texts of all moves of a list, unique within it.
pub fn move_texts(def: &GameDef, list: &MoveList) -> Vec<String> {
    let mut texts: Vec<String> = list.moves.iter().map(|m| move_text(def, list, m)).collect();
    let mut count: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for t in &texts {
        *count.entry(t.clone()).or_default() += 1;
    }
    // Within a group of equal texts, every move but the last gets its captures in brackets.
    for (text, m) in texts.iter_mut().zip(&list.moves) {
        let left = count.get_mut(text.as_str()).expect("counted");
        if *left > 1 {
            *left -= 1;
            let caps: Vec<String> = list.captured(m).iter().map(|&sq| square(def, sq)).collect();
            *text = format!("{text}[{}]", caps.join(","));
        }
    }
    // Moves that still read alike (the same captures, different pieces pushed along, as in
    // Abalone) are numbered in engine order: the second is `TEXT~2`, the third `TEXT~3`.
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for text in texts.iter_mut() {
        let n = seen.entry(text.clone()).or_default();
        *n += 1;
        if *n > 1 {
            *text = format!("{text}~{n}");
        }
    }
    texts
}

/// Why an input did not name a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// No legal move matches; the text says why.
    Illegal(String),
    /// Several legal moves match.
    Ambiguous(Vec<String>),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Illegal(why) => f.write_str(why),
            MoveError::Ambiguous(c) => write!(f, "ambiguous: it could be {}", c.join(", ")),
        }
    }
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | 'x' | 'X' | '=' | ':' | ' ' | '@'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Finds the legal move an input names: the canonical text, the same without separators or
/// in lower case (`e2e4`, `e7e8q`), or, for capture chains, just `from-to`/`fromxto`.
pub fn parse_move(def: &GameDef, list: &MoveList, input: &str) -> Result<usize, MoveError> {
    let input = input.trim();
    let texts = move_texts(def, list);
    if let Some(i) = texts.iter().position(|t| t == input) {
        return Ok(i);
    }
    let want = squash(input);
    let matches: Vec<usize> = (0..texts.len())
        .filter(|&i| squash(&texts[i]) == want)
        .collect();
    match matches.len() {
        1 => return Ok(matches[0]),
        n if n > 1 => {
            return Err(MoveError::Ambiguous(
                matches.iter().map(|&i| texts[i].clone()).collect(),
            ))
        }
        _ => {}
    }
    // Start and end only: `29-9` or `29x9` for a chain, after `h14:` for a huff.
    let (huff, input) = match input.split_once(':') {
        Some((h, rest)) if h.len() > 1 && h.starts_with(['h', 'H']) => {
            let sq = (0..def.board.n_pos())
                .find(|&sq| square(def, sq as u16).eq_ignore_ascii_case(&h[1..]));
            match sq {
                Some(sq) => (sq as u16 + 1, rest),
                None => {
                    return Err(MoveError::Illegal(format!(
                        "there is no square `{}` on this board to huff",
                        &h[1..]
                    )))
                }
            }
        }
        _ => (0, input),
    };
    let parts: Vec<&str> = input
        .split(['-', 'x', 'X'])
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() == 2 {
        let same = |sq: u16, text: &str| square(def, sq).eq_ignore_ascii_case(text);
        let ends: Vec<usize> = (0..list.len())
            .filter(|&i| {
                let m = &list.moves[i];
                let p = list.path(m);
                m.drop == 0
                    && !m.pass
                    && m.huff == huff
                    && same(p[0], parts[0])
                    && same(p[p.len() - 1], parts[1])
            })
            .collect();
        match ends.len() {
            1 => return Ok(ends[0]),
            n if n > 1 => {
                return Err(MoveError::Ambiguous(
                    ends.iter().map(|&i| texts[i].clone()).collect(),
                ))
            }
            _ => {}
        }
        for part in &parts {
            let known =
                (0..def.board.n_pos()).any(|sq| square(def, sq as u16).eq_ignore_ascii_case(part));
            if !known {
                return Err(MoveError::Illegal(format!(
                    "there is no square `{part}` on this board"
                )));
            }
        }
    }
    if list.is_empty() {
        return Err(MoveError::Illegal(
            "there are no legal moves in this position".into(),
        ));
    }
    Err(MoveError::Illegal(format!(
        "`{input}` is not a legal move here"
    )))
}
