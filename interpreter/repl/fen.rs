//! Writing positions as FEN and PDN FEN: the inverses of the readers in `setup.rs`.
//!
//! The FEN writer follows `setup::parse`'s reading exactly, so that `fen` then `setup` gives
//! back the same position: ranks from the one whose label is the largest number, squares named
//! `{file}{rank}` from the first grid's labels, pieces by their `notation` letter (upper case
//! for the first player), a pocket `[..]` when the game drops pieces, castling rights from the
//! attribute that the king and rook types share, en passant after a pawn's double step, and the
//! halfmove clock from a counter named `halfmove-clock`.

use crate::def::*;
use crate::engine::{Position, Rules};

/// The position as FEN, or as PDN FEN on boards with square numbers (draughts).
pub fn write(rules: &Rules, pos: &Position, fullmove: u64) -> Result<String, String> {
    if rules.def.board.numbers.iter().any(|&n| n > 0) {
        pdn(rules, pos)
    } else {
        fen(rules, pos, fullmove)
    }
}

fn letter_of(def: &GameDef, piece: usize) -> Result<char, String> {
    let p = &def.pieces[piece];
    let mut chars = p.notation.as_deref().unwrap_or("").chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_alphabetic() => Ok(c.to_ascii_uppercase()),
        _ => Err(format!(
            "the {} has no one-letter notation, so the position has no FEN (try `position`)",
            p.name
        )),
    }
}

fn piece_by_letter(def: &GameDef, letter: &str) -> Option<usize> {
    def.pieces.iter().position(|p| {
        p.notation
            .as_deref()
            .is_some_and(|n| n.eq_ignore_ascii_case(letter))
    })
}

/// The squares of the first grid, rank by rank from the top: the order FEN reading uses.
fn rows(def: &GameDef) -> Result<Vec<Vec<u16>>, String> {
    crate::setup::fen_rows(def).map_err(|e| format!("{e} (try `position`)"))
}

/// The position as FEN: `board[pocket] side castling en-passant halfmove fullmove`.
pub fn fen(rules: &Rules, pos: &Position, fullmove: u64) -> Result<String, String> {
    let def = &rules.def;
    if def.players.len() != 2 {
        return Err(format!(
            "FEN is for two players; this game has {} (try `position`)",
            def.players.len()
        ));
    }
    let rows = rows(def)?;
    let on_grid: std::collections::HashSet<u16> = rows.iter().flatten().copied().collect();
    if let Some(sq) =
        (0..pos.cells.len()).find(|&s| !pos.cells[s].is_empty() && !on_grid.contains(&(s as u16)))
    {
        return Err(format!(
            "a piece stands on {}, outside the grid that FEN describes (try `position`)",
            def.board.positions[sq].name
        ));
    }
    let promoted = def.attributes.iter().position(|a| a == "promoted?");
    let case = |c: char, owner: u8| {
        if owner == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        }
    };
    let mut board = Vec::new();
    for row in &rows {
        let mut s = String::new();
        let mut empty = 0;
        for &sq in row {
            let cell = if sq == NONE {
                crate::engine::Cell::EMPTY
            } else {
                pos.cells[sq as usize]
            };
            if cell.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s += &empty.to_string();
                empty = 0;
            }
            s.push(case(letter_of(def, cell.piece as usize - 1)?, cell.owner));
            if promoted.is_some_and(|a| cell.attrs >> a & 1 == 1) {
                s.push('~');
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        board.push(s);
    }
    let mut out = board.join("/");
    let n_pieces = def.pieces.len();
    let drops = def.pieces.iter().any(|p| !p.drops.is_empty());
    if drops || pos.store.iter().any(|&n| n > 0) {
        out.push('[');
        for owner in 0..2u8 {
            for piece in 0..n_pieces {
                let n = pos.store[owner as usize * n_pieces + piece];
                if n > 0 {
                    let c = case(letter_of(def, piece)?, owner);
                    out.extend(std::iter::repeat_n(c, n as usize));
                }
            }
        }
        out.push(']');
    }
    let side = if rules.turns.is_empty() {
        0
    } else {
        rules.entry(pos.turn).mover.0
    };
    out += if side == 0 { " w " } else { " b " };
    out += &castling(rules, pos);
    out.push(' ');
    out += &en_passant(def, pos).unwrap_or_else(|| "-".into());
    let halfmove = def
        .counters
        .iter()
        .position(|c| c.name == "halfmove-clock")
        .map_or(0, |c| pos.counters[rules.counter_base[c] as usize]);
    out += &format!(" {halfmove} {fullmove}");
    Ok(out)
}

fn file_and_rank(name: &str) -> (&str, &str) {
    name.split_at(
        name.find(|c: char| c.is_ascii_digit())
            .unwrap_or(name.len()),
    )
}

/// `KQkq` from the attribute that the king and rook types share, or `-`.
fn castling(rules: &Rules, pos: &Position) -> String {
    let def = &rules.def;
    let (Some(king), Some(rook)) = (piece_by_letter(def, "K"), piece_by_letter(def, "R")) else {
        return "-".into();
    };
    let rook_attrs: Vec<AttrId> = def.pieces[rook].attributes.iter().map(|a| a.0).collect();
    let Some(attr) = def.pieces[king]
        .attributes
        .iter()
        .map(|a| a.0)
        .find(|a| rook_attrs.contains(a))
    else {
        return "-".into();
    };
    let bit = attr.bit();
    let mut out = String::new();
    for owner in 0..2u8 {
        let with_right = |piece: usize| {
            (0..pos.cells.len()).filter(move |&s| {
                let c = pos.cells[s];
                c.piece as usize == piece + 1 && c.owner == owner && c.attrs & bit != 0
            })
        };
        let Some(ksq) = with_right(king).next() else {
            continue;
        };
        let (kfile, krank) = file_and_rank(&def.board.positions[ksq].name);
        let (mut k, mut q) = (false, false);
        for rsq in with_right(rook) {
            let (file, rank) = file_and_rank(&def.board.positions[rsq].name);
            if rank == krank {
                if file > kfile {
                    k = true;
                } else {
                    q = true;
                }
            }
        }
        let up = |c: char| {
            if owner == 0 {
                c
            } else {
                c.to_ascii_lowercase()
            }
        };
        if k {
            out.push(up('K'));
        }
        if q {
            out.push(up('Q'));
        }
    }
    if out.is_empty() {
        "-".into()
    } else {
        out
    }
}

/// The square a pawn passed over with the last move, if that move was a double step.
fn en_passant(def: &GameDef, pos: &Position) -> Option<String> {
    let (from, to) = (pos.last_from, pos.last_to);
    if from == NONE || to == NONE {
        return None;
    }
    let cell = pos.cells[to as usize];
    let pawn = piece_by_letter(def, "P")?;
    if cell.piece as usize != pawn + 1 {
        return None;
    }
    let (ff, fr) = file_and_rank(&def.board.positions[from as usize].name);
    let (tf, tr) = file_and_rank(&def.board.positions[to as usize].name);
    let (fr, tr): (i64, i64) = (fr.parse().ok()?, tr.parse().ok()?);
    if ff != tf || (fr - tr).abs() != 2 {
        return None;
    }
    let name = format!("{ff}{}", (fr + tr) / 2);
    def.board.pos_id(&name).map(|_| name)
}

/// The position as PDN FEN: `W:W21,22,K23:B1,2`, squares by number where declared.
pub fn pdn(rules: &Rules, pos: &Position) -> Result<String, String> {
    let def = &rules.def;
    let named = |want: &str| {
        def.players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(want))
    };
    // The reader's choice: the player called White (else the first) and Black (else the second).
    let white = named("white").unwrap_or(0);
    let black = named("black").unwrap_or(1);
    if def.players.len() != 2 || white == black {
        return Err("PDN FEN is for two players, White and Black (try `position`)".into());
    }
    let king = piece_by_letter(def, "K");
    let man = def
        .pieces
        .iter()
        .position(|p| p.notation.as_deref() != Some("K") && !p.dummy);
    let square = |sq: usize| match def.board.numbers.get(sq) {
        Some(&n) if n > 0 => n.to_string(),
        _ => def.board.positions[sq].name.clone(),
    };
    let mut groups = Vec::new();
    for (letter, player) in [('W', white), ('B', black)] {
        let mut items = Vec::new();
        let mut squares: Vec<usize> = (0..pos.cells.len()).collect();
        squares.sort_by_key(|&sq| match def.board.numbers.get(sq) {
            Some(&n) if n > 0 => n as usize,
            _ => usize::MAX,
        });
        for sq in squares {
            let c = &pos.cells[sq];
            if c.is_empty() || c.owner as usize != player {
                continue;
            }
            let piece = c.piece as usize - 1;
            if Some(piece) == king {
                items.push(format!("K{}", square(sq)));
            } else if Some(piece) == man {
                items.push(square(sq));
            } else {
                return Err(format!(
                    "PDN FEN has men and kings only; the {} on {} is neither (try `position`)",
                    def.pieces[piece].name, def.board.positions[sq].name
                ));
            }
        }
        groups.push(format!("{letter}{}", items.join(",")));
    }
    let side = if rules.turns.is_empty() {
        white
    } else {
        rules.entry(pos.turn).mover.idx()
    };
    let side = if side == white { 'W' } else { 'B' };
    Ok(format!("{side}:{}", groups.join(":")))
}
