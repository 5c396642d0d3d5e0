//! ZSG moves against the rules: the start position after a record's edits, the turns of a
//! record, and the matching of a turn against zrf's legal moves. The description of a legal
//! move in ZSG terms (for writing records and for showing the nearest moves) is in
//! `zsg_describe.rs`.
//!
//! A turn's lines are carried out on a copy of the board as Zillions describes them (a piece
//! taken on a square and then written as moving from it is the taken piece, carried to a hand),
//! and the legal move after which zrf's board is the same, square by square, is the turn. So
//! `after-move` effects, cascades and flips count without being named alike on both sides. A
//! turn of `partial` lines is one zrf move, since zrf's legal moves are whole turns
//! (`docs/game-records.md`).

use super::zsg::{EditKind, Effect, Main, MoveDesc, Names, Record, ZsgError};
use super::zsg_describe::steps_text;
pub use super::zsg_describe::{describe, describe_game};
use crate::def::{GameDef, PieceId, PlayerId};
use crate::engine::{revert, Cell, MoveList, Position, Rules, UndoLog};
use crate::notation;
use crate::play::Game;
use std::collections::HashSet;

/// A legal move close to a turn that matched no move (or one of several that matched).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// How many facts of the record's turn the move agrees with.
    pub agree: usize,
    /// How many facts the record's turn has.
    pub of: usize,
    /// The move as a ZSG line would write it (steps joined by ` / `).
    pub zsg: String,
    /// The move in zrf's canonical notation.
    pub canonical: String,
}

/// Where a record and zrf part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The line number of the turn's first line.
    pub line: usize,
    /// The turn's lines as written, joined by ` / `.
    pub text: String,
    /// What went wrong.
    pub reason: String,
    /// The legal moves that came closest, best first.
    pub nearest: Vec<Candidate>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}: `{}`", self.line, self.reason, self.text)?;
        if !self.nearest.is_empty() {
            f.write_str("\nnearest legal moves:")?;
            for c in &self.nearest {
                write!(
                    f,
                    "\n  {} ({}; {} of {} agree)",
                    c.zsg, c.canonical, c.agree, c.of
                )?;
            }
        }
        Ok(())
    }
}

/// Most `partial` steps in one turn (zrf's chains are far shorter).
pub const MAX_STEPS: usize = 1024;

/// How many nearest moves a divergence lists.
pub const NEAREST: usize = 5;

fn find<'a>(names: impl Iterator<Item = &'a str>, want: &str) -> Option<usize> {
    let names: Vec<&str> = names.collect();
    names
        .iter()
        .position(|n| *n == want)
        .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(want)))
}

fn square_id(def: &GameDef, name: &str) -> Option<u16> {
    find(def.board.positions.iter().map(|p| p.name.as_str()), name).map(|i| i as u16)
}

fn piece_id(def: &GameDef, name: &str) -> Option<PieceId> {
    find(def.pieces.iter().map(|p| p.name.as_str()), name).map(|i| PieceId(i as u16))
}

fn player_id(def: &GameDef, name: &str) -> Option<PlayerId> {
    find(def.players.iter().map(|p| p.name.as_str()), name).map(|i| PlayerId(i as u8))
}

fn unknown(what: &str, name: &str, names: Vec<&str>) -> String {
    let hint = crate::diagnostic::nearest(name, names.iter().copied())
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_default();
    format!("the rules have no {what} `{name}`{hint}")
}

/// The rules' start position changed by the record's edits.
pub fn start_position(rules: &Rules, rec: &Record) -> Result<Position, ZsgError> {
    let def = &rules.def;
    let mut pos = rules.initial();
    for e in &rec.edits {
        let fail = |m: String| ZsgError {
            line: e.line,
            message: m,
        };
        let square = match &e.kind {
            EditKind::Remove(sq) | EditKind::Put { square: sq, .. } => sq,
        };
        let sq = square_id(def, square).ok_or_else(|| {
            fail(unknown(
                "square",
                square,
                def.board
                    .positions
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect(),
            ))
        })?;
        let cell = match &e.kind {
            EditKind::Remove(_) => Cell::EMPTY,
            EditKind::Put { player, piece, .. } => {
                let pl = player_id(def, player).ok_or_else(|| {
                    fail(unknown(
                        "player",
                        player,
                        def.players.iter().map(|p| p.name.as_str()).collect(),
                    ))
                })?;
                let pc = piece_id(def, piece).ok_or_else(|| {
                    fail(unknown(
                        "piece",
                        piece,
                        def.pieces.iter().map(|p| p.name.as_str()).collect(),
                    ))
                })?;
                Cell::new(pc, pl, rules.attr_defaults[pc.idx()])
            }
        };
        pos.set(sq, cell);
    }
    Ok(pos)
}

/// The edits that turn the rules' start position into `start`; an error when the difference
/// is more than pieces on squares (pieces in hand, counters, the side to move, attributes).
pub fn edits_for(rules: &Rules, start: &Position) -> Result<Vec<EditKind>, String> {
    let def = &rules.def;
    let initial = rules.initial();
    if initial.store != start.store || initial.counters != start.counters {
        return Err("a ZSG record cannot hold pieces in hand or counters that differ from the rules' start; save as .game".into());
    }
    if initial.turn != start.turn {
        return Err("a ZSG record cannot start with another side to move; save as .game".into());
    }
    let mut edits = Vec::new();
    for (sq, (a, b)) in initial.cells.iter().zip(&start.cells).enumerate() {
        let square = def.board.positions[sq].name.clone();
        if !b.is_empty() && b.attrs != rules.attr_defaults[b.piece as usize - 1] {
            return Err(format!(
                "a ZSG record cannot hold the attributes of the piece on {square}; save as .game"
            ));
        }
        if a.is_empty() && b.is_empty() || (a.piece, a.owner) == (b.piece, b.owner) {
            continue;
        }
        edits.push(match b.piece_id() {
            None => EditKind::Remove(square),
            Some(pc) => EditKind::Put {
                player: def.players[b.owner as usize].name.clone(),
                piece: def.pieces[pc.idx()].name.clone(),
                square,
            },
        });
    }
    Ok(edits)
}

/// One move line of a record, read with the rules' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Line number (from 1).
    pub line: usize,
    /// The round number N.
    pub number: u32,
    /// The line as written (`N. BODY`).
    pub text: String,
    /// The line, understood.
    pub desc: MoveDesc,
}

/// The rules' names, for reading move lines (without regard to case, as Zillions matches).
pub struct RulesNames {
    players: HashSet<String>,
    squares: HashSet<String>,
    pieces: HashSet<String>,
}

impl RulesNames {
    /// The names of a game.
    pub fn new(def: &GameDef) -> RulesNames {
        fn lower<'a>(names: impl Iterator<Item = &'a String>) -> HashSet<String> {
            names.map(|s| s.to_lowercase()).collect()
        }
        RulesNames {
            players: lower(def.players.iter().map(|p| &p.name)),
            squares: lower(def.board.positions.iter().map(|p| &p.name)),
            pieces: lower(def.pieces.iter().map(|p| &p.name)),
        }
    }
}

impl Names for RulesNames {
    fn is_player(&self, w: &str) -> bool {
        self.players.contains(&w.to_lowercase())
    }
    fn is_square(&self, w: &str) -> bool {
        self.squares.contains(&w.to_lowercase())
    }
    fn is_piece(&self, w: &str) -> bool {
        self.pieces.contains(&w.to_lowercase())
    }
}

/// The move lines of a record, each read with the rules' names.
pub fn steps(rec: &Record, def: &GameDef) -> Result<Vec<Step>, ZsgError> {
    let names = RulesNames::new(def);
    rec.lines
        .iter()
        .map(|l| {
            let desc = super::zsg::parse_move(&l.body, &names).map_err(|m| ZsgError {
                line: l.line,
                message: m,
            })?;
            Ok(Step {
                line: l.line,
                number: l.number,
                text: format!("{}. {}", l.number, l.body),
                desc,
            })
        })
        .collect()
}

/// The board a turn's lines describe: each square's cell, squares whose owner must differ
/// from the one given (`flip` among more than two players), the attribute bits the lines set,
/// and the landings of the main parts.
struct Expected {
    cells: Vec<Cell>,
    flipped: Vec<Option<u8>>,
    attrs: Vec<u32>,
    landings: Vec<u16>,
}

impl Expected {
    /// How far a board is from the expected one: (squares agreeing, squares that either
    /// changes from `before`); equal when the board is the expected one.
    fn score(&self, before: &[Cell], after: &[Cell]) -> (usize, usize) {
        let (mut agree, mut of) = (0, 0);
        for sq in 0..after.len() {
            let (w, z) = (self.cells[sq], after[sq]);
            let same_owner = match self.flipped[sq] {
                Some(o) => z.owner != o,
                None => z.owner == w.owner,
            };
            let ok = if w.is_empty() {
                z.is_empty()
            } else {
                z.piece == w.piece && same_owner && (z.attrs ^ w.attrs) & self.attrs[sq] == 0
            };
            // Cells are clean (`clean`), so an empty one equals only another empty one.
            let b = before[sq];
            if !ok || !is_same(w, b) || !is_same(z, b) {
                of += 1;
                agree += usize::from(ok);
            }
        }
        (agree, of)
    }
}

fn is_same(a: Cell, b: Cell) -> bool {
    (a.piece, a.owner, a.attrs) == (b.piece, b.owner, b.attrs)
}

/// Plays a turn's lines on a copy of the board, as Zillions carried them out.
fn expected(rules: &Rules, pos: &Position, lines: &[Step]) -> Result<Expected, String> {
    let def = &rules.def;
    let n = pos.cells.len();
    let mover = rules.entry(pos.turn).owner;
    let mut e = Expected {
        cells: pos.cells.iter().map(|c| clean(*c)).collect(),
        flipped: vec![None; n],
        attrs: vec![0; n],
        landings: Vec::new(),
    };
    let square = |s: &str| {
        square_id(def, s).map(usize::from).ok_or_else(|| {
            unknown(
                "square",
                s,
                def.board
                    .positions
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect(),
            )
        })
    };
    let piece = |s: &str| {
        piece_id(def, s).ok_or_else(|| {
            unknown(
                "piece",
                s,
                def.pieces.iter().map(|p| p.name.as_str()).collect(),
            )
        })
    };
    let new = |pc: PieceId, owner: PlayerId| Cell::new(pc, owner, rules.attr_defaults[pc.idx()]);
    // A piece moves (from a square the board lacks: it comes from outside, as a drop). When a
    // piece was taken on the square it moves from, the taken piece is the one that moves
    // (Zillions writes a captured piece carried to a hand as a move from where it was taken).
    let shift = |e: &mut Expected,
                 taken: &mut Vec<(usize, Cell)>,
                 name: &str,
                 from: &str,
                 to: &str,
                 capture: bool|
     -> Result<usize, String> {
        let pc = piece(name)?;
        let t = square(to)?;
        let cell = match square_id(def, from).map(usize::from) {
            Some(f) => {
                let here = e.cells[f];
                match taken.iter().rposition(|&(s, _)| s == f) {
                    Some(k) => taken.remove(k).1,
                    None => {
                        e.cells[f] = Cell::EMPTY;
                        e.flipped.swap(f, t);
                        e.attrs.swap(f, t);
                        if here.is_empty() {
                            new(pc, mover)
                        } else {
                            retype(here, pc)
                        }
                    }
                }
            }
            None => new(pc, mover),
        };
        if capture && !e.cells[t].is_empty() {
            taken.push((t, e.cells[t]));
        }
        e.cells[t] = cell;
        Ok(t)
    };
    // `= NAME` on a square: a new owner when NAME is a player, else a new type.
    let become_ = |e: &mut Expected, sq: usize, name: &str| -> Result<(), String> {
        match player_id(def, name).filter(|_| piece_id(def, name).is_none()) {
            Some(pl) => {
                e.cells[sq].owner = pl.0;
                e.flipped[sq] = None;
            }
            None => {
                let pc = piece(name)?;
                let c = e.cells[sq];
                e.cells[sq] = if c.is_empty() {
                    new(pc, mover)
                } else {
                    retype(c, pc)
                };
            }
        }
        Ok(())
    };
    let mut taken: Vec<(usize, Cell)> = Vec::new();
    for step in lines {
        let d = &step.desc;
        let mut cur = None;
        // A line's main part moves the mover, even from a square where an earlier step of
        // the turn took a piece: only the effects of the line that took it carry it away.
        taken.clear();
        match &d.main {
            Main::Pass | Main::None => {}
            Main::Move {
                piece,
                from,
                to,
                capture,
            } => {
                let t = shift(&mut e, &mut taken, piece, from, to, *capture)?;
                e.landings.push(t as u16);
                cur = Some(t);
            }
            Main::Place {
                player,
                piece: p,
                square: s,
            } => {
                let owner = match player {
                    Some(pl) => player_id(def, pl).ok_or_else(|| {
                        unknown(
                            "player",
                            pl,
                            def.players.iter().map(|p| p.name.as_str()).collect(),
                        )
                    })?,
                    None => mover,
                };
                let t = square(s)?;
                e.cells[t] = new(piece(p)?, owner);
                e.landings.push(t as u16);
                cur = Some(t);
            }
        }
        if let (Some(t), Some(p)) = (cur, &d.promote) {
            become_(&mut e, t, p)?;
        }
        for eff in &d.effects {
            match eff {
                Effect::Capture(s) => {
                    let s = square(s)?;
                    if !e.cells[s].is_empty() {
                        taken.push((s, e.cells[s]));
                    }
                    e.cells[s] = Cell::EMPTY;
                    e.flipped[s] = None;
                }
                Effect::Put {
                    player,
                    piece: p,
                    square: s,
                } => {
                    let pl = player_id(def, player).ok_or_else(|| {
                        unknown(
                            "player",
                            player,
                            def.players.iter().map(|p| p.name.as_str()).collect(),
                        )
                    })?;
                    let s = square(s)?;
                    e.cells[s] = new(piece(p)?, pl);
                    e.flipped[s] = None;
                    cur = Some(s);
                }
                Effect::Change {
                    piece: p,
                    square: s,
                } => {
                    let s = square(s)?;
                    become_(&mut e, s, p)?;
                }
                Effect::Move {
                    piece: p,
                    from,
                    to,
                    capture,
                } => cur = Some(shift(&mut e, &mut taken, p, from, to, *capture)?),
                Effect::Become(name) => {
                    let s = cur.ok_or("`= NAME` follows nothing that moved or appeared")?;
                    become_(&mut e, s, name)?;
                }
                Effect::Flip(s) => {
                    let s = square(s)?;
                    let c = e.cells[s];
                    if !c.is_empty() {
                        if def.players.len() == 2 {
                            e.cells[s].owner = 1 - c.owner.min(1);
                        } else {
                            e.flipped[s] = Some(c.owner);
                        }
                    }
                }
                Effect::Attribute {
                    square: s,
                    index,
                    value,
                } => {
                    let s = square(s)?;
                    // Zillions counts a piece's attributes from the last one declared.
                    let attr = e.cells[s].piece_id().and_then(|pc| {
                        let attrs = &def.pieces[pc.idx()].attributes;
                        (*index as usize)
                            .checked_add(1)
                            .and_then(|k| attrs.len().checked_sub(k))
                            .map(|k| &attrs[k])
                    });
                    if let Some(&(id, _)) = attr {
                        let bit = 1u32 << (id.0 as u32 % 32);
                        e.attrs[s] |= bit;
                        if *value {
                            e.cells[s].attrs |= bit;
                        } else {
                            e.cells[s].attrs &= !bit;
                        }
                    }
                }
            }
        }
    }
    Ok(e)
}

/// A cell as a record sees it: no engine marks.
fn clean(mut c: Cell) -> Cell {
    c.marks = 0;
    if c.is_empty() {
        Cell::EMPTY
    } else {
        c
    }
}

/// The cell with another type (attributes kept).
fn retype(mut c: Cell, pc: PieceId) -> Cell {
    c.piece = pc.0 + 1;
    c
}

fn lines_text(lines: &[Step]) -> String {
    lines
        .iter()
        .map(|s| s.text.as_str())
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The legal move (index into `list`) that a turn's lines name: the one after which the board
/// is the board the lines describe (pieces, owners, and the attributes the lines set). Several
/// such moves are one when they land where the lines land, or lead to the same position.
pub fn match_turn(
    rules: &Rules,
    pos: &mut Position,
    list: &MoveList,
    lines: &[Step],
) -> Result<usize, Divergence> {
    let (line, text) = (lines[0].line, lines_text(lines));
    let want = expected(rules, pos, lines).map_err(|reason| Divergence {
        line,
        text: text.clone(),
        reason,
        nearest: Vec::new(),
    })?;
    let before: Vec<Cell> = pos.cells.iter().map(|c| clean(*c)).collect();
    let mut scored = Vec::with_capacity(list.len());
    let mut exact = Vec::new();
    let mut log = UndoLog::new();
    for i in 0..list.len() {
        let m = list.moves[i];
        let (agree, of) = if m.pass {
            want.score(&before, &before)
        } else {
            rules.make(pos, list, &m, &mut log);
            let after: Vec<Cell> = pos.cells.iter().map(|c| clean(*c)).collect();
            revert(pos, &mut log);
            want.score(&before, &after)
        };
        let is_pass = matches!(lines, [s] if s.desc.main == Main::Pass);
        if agree == of && m.pass == is_pass {
            exact.push(i);
        }
        scored.push((agree, of, i));
    }
    if exact.len() > 1 {
        let same_path: Vec<usize> = exact
            .iter()
            .copied()
            .filter(|&i| list.path(&list.moves[i]).get(1..) == Some(&want.landings[..]))
            .collect();
        if !same_path.is_empty() {
            exact = same_path;
        }
    }
    if exact.len() > 1 {
        let mut keys = exact.iter().map(|&i| {
            rules.make(pos, list, &list.moves[i], &mut log);
            let h = pos.hash;
            revert(pos, &mut log);
            h
        });
        let first = keys.next();
        if keys.all(|k| Some(k) == first) {
            exact.truncate(1);
        }
    }
    if exact.len() == 1 {
        return Ok(exact[0]);
    }
    let texts = notation::move_texts(&rules.def, list);
    let mut cand = |i: usize, agree: usize, of: usize| Candidate {
        agree,
        of,
        zsg: steps_text(&describe(rules, pos, list, i, false)),
        canonical: texts[i].clone(),
    };
    if exact.len() > 1 {
        let nearest = exact
            .iter()
            .map(|&i| cand(i, scored[i].0, scored[i].1))
            .collect();
        return Err(Divergence {
            line,
            text,
            reason: format!("{} legal moves match it", exact.len()),
            nearest,
        });
    }
    scored.sort_by_key(|&(agree, of, i)| (of - agree, std::cmp::Reverse(agree), i));
    let nearest = scored
        .iter()
        .take(NEAREST)
        .map(|&(agree, of, i)| cand(i, agree, of))
        .collect();
    Err(Divergence {
        line,
        text,
        reason: if list.is_empty() {
            "there are no legal moves here".into()
        } else {
            "no legal move matches it".into()
        },
        nearest,
    })
}

/// Whether line `b` goes on from line `a`: `a` is a partial move and `b`'s main part moves
/// the piece from where `a`'s landed. (Records written by zrf before it followed Zillions
/// marked the later steps `partial` instead of the earlier ones; they are read too.)
fn continues(a: &MoveDesc, b: &MoveDesc) -> bool {
    if a.partial.is_none() && b.partial.is_none() {
        return false;
    }
    let landed = match &a.main {
        Main::Move { to, .. } => to,
        Main::Place { square, .. } => square,
        _ => return false,
    };
    matches!(&b.main, Main::Move { from, .. } if from.eq_ignore_ascii_case(landed))
}

/// Plays a record's lines in a game. zrf's legal moves are whole turns, so the `partial`
/// lines of one turn (each going on from where the one before it landed) are matched as one
/// move; when that fails, the turn is tried as ending after an earlier partial line, as it
/// does when no further step was possible. Stops at the first turn that matches no legal
/// move, several, or comes after the end of the game.
pub fn replay(game: &mut Game, steps: &[Step]) -> Result<(), Divergence> {
    let mut k = 0;
    while k < steps.len() {
        let mut end = k;
        while end + 1 < steps.len()
            && end - k + 1 < MAX_STEPS
            && continues(&steps[end].desc, &steps[end + 1].desc)
        {
            end += 1;
        }
        if let Some(o) = game.outcome() {
            return Err(Divergence {
                line: steps[k].line,
                text: steps[k].text.clone(),
                reason: format!("the game is already over: {}", o.describe(&game.rules.def)),
                nearest: Vec::new(),
            });
        }
        let list = game.legal().clone();
        let mut pos = game.pos.clone();
        let mut first_error = None;
        let mut found = None;
        for e in (k..=end).rev() {
            match match_turn(&game.rules, &mut pos, &list, &steps[k..=e]) {
                Ok(i) => {
                    found = Some((i, e));
                    break;
                }
                Err(d) => {
                    first_error.get_or_insert(d);
                }
            }
        }
        let Some((i, e)) = found else {
            return Err(first_error.expect("at least one turn was tried"));
        };
        let text = notation::move_texts(&game.rules.def, &list)[i].clone();
        game.play(&text).map_err(|err| Divergence {
            line: steps[k].line,
            text: lines_text(&steps[k..=e]),
            reason: format!("zrf could not play its own move {text}: {err}"),
            nearest: Vec::new(),
        })?;
        k = e + 1;
        // With "pass partial", Zillions ends a turn of partial steps early with a `Pass` line;
        // zrf's move already stopped there. The `Pass` belongs to the turn only under the same
        // round number: one numbered as the next round is the next player's pass.
        if steps[e].desc.partial.is_some()
            && game.rules.def.options.pass_partial
            && steps
                .get(k)
                .is_some_and(|s| s.desc.main == Main::Pass && s.number == steps[e].number)
        {
            k += 1;
        }
    }
    Ok(())
}
