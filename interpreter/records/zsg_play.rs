//! ZSG moves against the rules: the start position after a record's edits, the turns of a
//! record, the matching of a turn against zrf's legal moves, and the description of a legal
//! move in ZSG terms (for writing records and for showing the nearest moves).
//!
//! Both sides are reduced to the same list of facts: who moved (type), from, each landing,
//! the squares emptied by captures, the mover's final type, pieces that appear or change type
//! elsewhere, other pieces that move. A legal move's facts come from playing it and comparing
//! the board before and after, so effects of `after-move`, cascades and flips all show. A turn
//! made of `partial` lines is one zrf move (zrf's legal moves are whole turns): its lines give
//! the landings in order and the union of their effects (`docs/game-records.md`).

use super::zsg::{EditKind, Effect, Main, MoveDesc, Record, ZsgError};
use crate::def::{GameDef, PieceId, PlayerId, NONE};
use crate::engine::{revert, Cell, MoveList, Position, Rules, UndoLog};
use crate::notation;
use crate::play::Game;

/// One turn of a record: one line, or the `partial` steps of one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// `(line number, the line as written)` of each step.
    pub lines: Vec<(usize, String)>,
    /// Each step, understood.
    pub steps: Vec<MoveDesc>,
}

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

/// The turns of a record: its move lines read with the rules' player names, `partial K` lines
/// (K > 1) joined to the turn before them.
pub fn turns(rec: &Record, def: &GameDef) -> Result<Vec<Turn>, ZsgError> {
    let is_player = |s: &str| def.players.iter().any(|p| p.name.eq_ignore_ascii_case(s));
    let mut out: Vec<Turn> = Vec::new();
    let mut number = 0;
    for l in &rec.lines {
        let desc = super::zsg::parse_move(&l.body, &is_player).map_err(|m| ZsgError {
            line: l.line,
            message: m,
        })?;
        let text = format!("{}. {}", l.number, l.body);
        match desc.partial {
            Some(k) if k > 1 => {
                let cur = out.last_mut().filter(|_| number == l.number);
                let Some(t) = cur else {
                    return Err(ZsgError {
                        line: l.line,
                        message: format!("partial step {k} does not follow a step of its turn"),
                    });
                };
                if t.steps.len() >= MAX_STEPS {
                    return Err(ZsgError {
                        line: l.line,
                        message: format!("a turn has more than {MAX_STEPS} partial steps"),
                    });
                }
                if t.steps.len() + 1 != k as usize {
                    return Err(ZsgError {
                        line: l.line,
                        message: format!(
                            "partial step {k} follows step {} of its turn",
                            t.steps.len()
                        ),
                    });
                }
                t.lines.push((l.line, text));
                t.steps.push(desc);
            }
            _ => out.push(Turn {
                lines: vec![(l.line, text)],
                steps: vec![desc],
            }),
        }
        number = l.number;
    }
    Ok(out)
}

/// One element of what a turn does; names are in lower case.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fact {
    Pass,
    Mover(String),
    From(String),
    /// A drop, by the player named (`None`: not named).
    Drop(Option<String>),
    Via(usize, String),
    To(String),
    Capture(String),
    Promote(String),
    /// A piece appears or changes there; `None`: any owner (`= TYPE on SQUARE`).
    Put(String, String, Option<String>),
    Moved(String, String, String),
}

fn agrees(record: &Fact, zrf: &Fact) -> bool {
    match (record, zrf) {
        (Fact::Put(s, p, None), Fact::Put(t, q, _)) => s == t && p == q,
        (Fact::Drop(None), Fact::Drop(_)) => true,
        _ => record == zrf,
    }
}

/// (facts agreeing, exact match).
fn compare(record: &[Fact], zrf: &[Fact]) -> (usize, bool) {
    let mut used = vec![false; zrf.len()];
    let mut agree = 0;
    for f in record {
        if let Some(j) = (0..zrf.len()).find(|&j| !used[j] && agrees(f, &zrf[j])) {
            used[j] = true;
            agree += 1;
        }
    }
    (agree, agree == record.len() && agree == zrf.len())
}

fn low(s: &str) -> String {
    s.to_lowercase()
}

/// The facts of a turn's steps. Squares that the board lacks as a move's start mark a drop.
fn facts(def: &GameDef, steps: &[MoveDesc]) -> Result<Vec<Fact>, String> {
    let mut out = Vec::new();
    let mut landings: Vec<String> = Vec::new();
    let mut captures: Vec<String> = Vec::new();
    let mut promote = None;
    for (k, s) in steps.iter().enumerate() {
        match &s.main {
            Main::Pass if steps.len() == 1 => out.push(Fact::Pass),
            Main::Pass => return Err("a pass cannot be a step of a partial turn".into()),
            Main::Move {
                piece,
                from,
                to,
                capture,
            } => {
                if k == 0 {
                    out.push(Fact::Mover(low(piece)));
                    if square_id(def, from).is_some() {
                        out.push(Fact::From(low(from)));
                    } else {
                        out.push(Fact::Drop(None));
                    }
                } else if landings.last() != Some(&low(from)) {
                    return Err(format!(
                        "partial step {} starts on {from}, not where the step before it ended",
                        k + 1
                    ));
                }
                landings.push(low(to));
                if *capture {
                    captures.push(low(to));
                }
            }
            Main::Place {
                player,
                piece,
                square,
            } => {
                if k > 0 {
                    return Err("a placement cannot be a later step of a partial turn".into());
                }
                out.push(Fact::Mover(low(piece)));
                out.push(Fact::Drop(player.as_deref().map(low)));
                landings.push(low(square));
            }
        }
        if let Some(t) = &s.promote {
            promote = Some(low(t));
        }
        for e in &s.effects {
            match e {
                Effect::Capture(sq) => captures.push(low(sq)),
                Effect::Put {
                    player,
                    piece,
                    square,
                } => out.push(Fact::Put(low(square), low(piece), Some(low(player)))),
                Effect::Change { piece, square } => {
                    out.push(Fact::Put(low(square), low(piece), None))
                }
                Effect::Move { piece, from, to } => {
                    out.push(Fact::Moved(low(piece), low(from), low(to)))
                }
            }
        }
    }
    // A turn that moves several pieces (castling) names the same moves whichever piece the
    // main part names: the one whose start square sorts first is taken as the mover.
    let from_at = out.iter().position(|f| matches!(f, Fact::From(_)));
    if let (Some(fi), [to], true) = (from_at, landings.as_slice(), steps.len() == 1) {
        let mi = out.iter().position(|f| matches!(f, Fact::Mover(_)));
        let best = out
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match f {
                Fact::Moved(_, from, _) => Some((from.clone(), i)),
                _ => None,
            })
            .min();
        if let (Some(mi), Some((best_from, bi)), Fact::From(from)) = (mi, best, &out[fi]) {
            if best_from < *from {
                let Fact::Mover(piece) = out[mi].clone() else {
                    unreachable!()
                };
                let Fact::Moved(p, f, t) = out[bi].clone() else {
                    unreachable!()
                };
                out[bi] = Fact::Moved(piece, from.clone(), to.clone());
                out[mi] = Fact::Mover(p);
                out[fi] = Fact::From(f);
                landings = vec![t];
            }
        }
    }
    if let Some((last, via)) = landings.split_last() {
        out.extend(via.iter().enumerate().map(|(i, s)| Fact::Via(i, s.clone())));
        out.push(Fact::To(last.clone()));
    }
    captures.sort();
    captures.dedup();
    out.extend(captures.into_iter().map(Fact::Capture));
    out.extend(promote.map(Fact::Promote));
    Ok(out)
}

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
            partial: (k > 0).then_some(k as u32 + 1),
            main,
            promote: if last { d.promote.map(piece) } else { None },
            effects,
        });
        prev = to;
    }
    steps
}

fn steps_text(steps: &[MoveDesc]) -> String {
    steps
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The legal move (index into `list`) that a turn names. Several moves with the same facts are
/// one when they lead to the same position.
pub fn match_turn(
    rules: &Rules,
    pos: &mut Position,
    list: &MoveList,
    turn: &Turn,
) -> Result<usize, Divergence> {
    let (line, text) = (turn.lines[0].0, turn_text(turn));
    let want = facts(&rules.def, &turn.steps).map_err(|reason| Divergence {
        line,
        text: text.clone(),
        reason,
        nearest: Vec::new(),
    })?;
    let mut scored = Vec::with_capacity(list.len());
    let mut exact = Vec::new();
    for i in 0..list.len() {
        let steps = describe(rules, pos, list, i, true);
        let got = facts(&rules.def, &steps).unwrap_or_default();
        let (agree, same) = compare(&want, &got);
        if same {
            exact.push(i);
        }
        scored.push((agree, got.len().abs_diff(want.len()), i));
    }
    if exact.len() > 1 {
        let mut log = UndoLog::new();
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
    let mut cand = |i: usize, agree: usize| Candidate {
        agree,
        of: want.len(),
        zsg: steps_text(&describe(rules, pos, list, i, false)),
        canonical: texts[i].clone(),
    };
    if exact.len() > 1 {
        let nearest = exact.iter().map(|&i| cand(i, want.len())).collect();
        return Err(Divergence {
            line,
            text,
            reason: format!("{} legal moves match it", exact.len()),
            nearest,
        });
    }
    scored.sort_by_key(|&(agree, extra, i)| (std::cmp::Reverse(agree), extra, i));
    let nearest = scored
        .iter()
        .take(NEAREST)
        .map(|&(agree, _, i)| cand(i, agree))
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

fn turn_text(turn: &Turn) -> String {
    turn.lines
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Plays a record's turns in a game; stops at the first turn that matches no legal move,
/// several, or comes after the end of the game.
pub fn replay(game: &mut Game, turns: &[Turn]) -> Result<(), Divergence> {
    for turn in turns {
        if let Some(o) = game.outcome() {
            return Err(Divergence {
                line: turn.lines[0].0,
                text: turn_text(turn),
                reason: format!("the game is already over: {}", o.describe(&game.rules.def)),
                nearest: Vec::new(),
            });
        }
        let list = game.legal().clone();
        let mut pos = game.pos.clone();
        let i = match_turn(&game.rules, &mut pos, &list, turn)?;
        let text = notation::move_texts(&game.rules.def, &list)[i].clone();
        game.play(&text).map_err(|e| Divergence {
            line: turn.lines[0].0,
            text: turn_text(turn),
            reason: format!("zrf could not play its own move {text}: {e}"),
            nearest: Vec::new(),
        })?;
    }
    Ok(())
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
