//! zrf's legal moves in ZSG terms: a move is played and the change of the board read as ZSG
//! steps (a main part per landing, captures, drops, promotions, other squares changed), for
//! writing `.zsg` records and for listing the nearest moves of a divergence.

use super::zsg::{Effect, Main, MoveDesc};
use crate::def::NONE;
use crate::engine::{revert, Cell, MoveList, Position, Rules, UndoLog};
use crate::notation;

/// What a legal move does to the board, found by playing it.
struct Diff {
    pass: bool,
    drop: bool,
    mover: u16,
    from: u16,
    landings: Vec<u16>,
    captures: Vec<u16>,
    promote: Option<u16>,
    /// What stands on the last landing afterwards.
    to_cell: Cell,
    moved: Vec<(u16, u16, u16)>,
    /// (square, the cell after, same owner as before).
    puts: Vec<(u16, Cell, bool)>,
}

fn diff(rules: &Rules, pos: &mut Position, list: &MoveList, i: usize) -> Diff {
    let m = list.moves[i];
    let path = list.path(&m);
    let mut d = Diff {
        pass: m.pass,
        drop: m.drop != 0,
        mover: if m.drop != 0 {
            m.drop - 1
        } else {
            m.piece.wrapping_sub(1)
        },
        from: path.first().copied().unwrap_or(NONE),
        landings: path.iter().skip(1).copied().collect(),
        captures: Vec::new(),
        promote: None,
        to_cell: Cell::EMPTY,
        moved: Vec::new(),
        puts: Vec::new(),
    };
    if m.pass {
        return d;
    }
    let before = pos.cells.clone();
    let mut log = UndoLog::new();
    rules.make(pos, list, &m, &mut log);
    let after = pos.cells.clone();
    revert(pos, &mut log);
    for &sq in list.captured(&m) {
        if !d.captures.contains(&sq) {
            d.captures.push(sq);
        }
    }
    let to = d.landings.last().copied().unwrap_or(NONE);
    let same = |a: Cell, b: Cell| (a.piece, a.owner) == (b.piece, b.owner);
    let mut vacated = Vec::new();
    let mut appeared = Vec::new();
    for sq in 0..before.len() {
        let (b, a) = (before[sq], after[sq]);
        if same(a, b) || a.is_empty() && b.is_empty() {
            continue;
        }
        let sq16 = sq as u16;
        if a.is_empty() {
            if sq16 != d.from && !d.captures.contains(&sq16) {
                vacated.push(sq16);
            }
        } else if sq16 != to {
            appeared.push(sq16);
        }
    }
    for v in vacated {
        let c = before[v as usize];
        match appeared.iter().position(|&a| same(after[a as usize], c)) {
            Some(k) => {
                let a = appeared.remove(k);
                d.moved.push((c.piece - 1, v, a));
            }
            None => d.captures.push(v),
        }
    }
    for a in appeared {
        let (b, c) = (before[a as usize], after[a as usize]);
        d.puts.push((a, c, !b.is_empty() && b.owner == c.owner));
    }
    if to != NONE {
        let c = after[to as usize];
        d.to_cell = c;
        if !c.is_empty() && c.piece - 1 != d.mover {
            d.promote = Some(c.piece - 1);
        }
    }
    d
}

/// A legal move as ZSG steps. `owners`: every piece that appears elsewhere is written with
/// its owner (for matching); otherwise a type change that keeps the owner is written
/// `= TYPE on SQUARE` (for records).
pub fn describe(
    rules: &Rules,
    pos: &mut Position,
    list: &MoveList,
    i: usize,
    owners: bool,
) -> Vec<MoveDesc> {
    let def = &rules.def;
    let d = diff(rules, pos, list, i);
    let sq = |s: u16| def.board.positions[s as usize].name.clone();
    let piece = |p: u16| {
        def.pieces
            .get(p as usize)
            .map_or_else(|| "?".to_string(), |p| p.name.clone())
    };
    if d.pass {
        return vec![MoveDesc {
            partial: None,
            main: Main::Pass,
            promote: None,
            effects: Vec::new(),
        }];
    }
    let n = d.landings.len().max(1);
    // One capture per step when the counts agree, else every capture on the last step.
    let per_step = d.captures.len() == n && n > 1;
    let mut steps = Vec::with_capacity(n);
    let mut prev = d.from;
    for k in 0..n {
        let to = d.landings.get(k).copied().unwrap_or(NONE);
        let caps: Vec<u16> = if per_step {
            vec![d.captures[k]]
        } else if k + 1 == n {
            d.captures.clone()
        } else {
            Vec::new()
        };
        let capture = caps.contains(&to) && to != NONE;
        let main = if d.drop && k == 0 {
            Main::Place {
                player: owners.then(|| {
                    let c = d.to_cell;
                    def.players[c.owner as usize].name.clone()
                }),
                piece: piece(d.mover),
                square: if to == NONE { "?".into() } else { sq(to) },
            }
        } else {
            Main::Move {
                piece: piece(d.mover),
                from: if prev == NONE { "?".into() } else { sq(prev) },
                to: if to == NONE { "?".into() } else { sq(to) },
                capture,
            }
        };
        let mut effects: Vec<Effect> = caps
            .iter()
            .filter(|&&c| !(capture && c == to))
            .map(|&c| Effect::Capture(sq(c)))
            .collect();
        let last = k + 1 == n;
        if last {
            for &(p, f, t) in &d.moved {
                effects.push(Effect::Move {
                    piece: piece(p),
                    from: sq(f),
                    to: sq(t),
                    capture: false,
                });
            }
            for &(s, c, same_owner) in &d.puts {
                effects.push(if same_owner && !owners {
                    Effect::Change {
                        piece: piece(c.piece - 1),
                        square: sq(s),
                    }
                } else {
                    Effect::Put {
                        player: def.players[c.owner as usize].name.clone(),
                        piece: piece(c.piece - 1),
                        square: sq(s),
                    }
                });
            }
        }
        steps.push(MoveDesc {
            // Zillions numbers the move type the next step must have; zrf's chains do not keep
            // it, so every step but the last is written `partial 1` (`docs/game-records.md`).
            partial: (k + 1 < n).then_some(1),
            main,
            promote: if last { d.promote.map(piece) } else { None },
            effects,
        });
        prev = to;
    }
    steps
}

pub(super) fn steps_text(steps: &[MoveDesc]) -> String {
    steps
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The moves of a game from `start`, given in canonical notation, as ZSG steps, each with the
/// turn index before it.
pub fn describe_game(
    rules: &Rules,
    start: &Position,
    played: &[String],
) -> Result<Vec<(u32, Vec<MoveDesc>)>, String> {
    let mut pos = start.clone();
    let mut list = MoveList::new();
    let mut log = UndoLog::new();
    let mut out = Vec::with_capacity(played.len());
    for text in played {
        rules.legal_moves(&mut pos, &mut list);
        let i = notation::parse_move(&rules.def, &list, text)
            .map_err(|e| format!("move {text}: {e}"))?;
        let turn = pos.turn;
        out.push((turn, describe(rules, &mut pos, &list, i, false)));
        rules.make(&mut pos, &list, &list.moves[i], &mut log);
    }
    Ok(out)
}
