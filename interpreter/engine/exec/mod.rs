//! The move-program interpreter: runs one block from one square and emits the moves it adds.
//!
//! Reads see the position as it was when the step began (the generator never writes to it);
//! effects are collected as pending and turned into board writes when a move is added.

use super::moves::{Cut, MoveList, Op};
use super::position::{Cell, Position, DEAD};
use super::rules::Tables;
pub use super::scratch::Scratch;
pub(super) use super::scratch::{Mode, Pending};
use super::special::Seq;
use crate::def::*;

mod after_move;
mod attacked;
mod emit;
pub(super) mod generate;
mod rays;
mod run;

/// The most instructions one block may execute before it is stopped (a `while` that never
/// ends, for example). The moves it added until then are kept.
pub const STEP_LIMIT: u32 = 1_000_000;

/// The most moves one block run may add (from one square, or one drop square); past it the
/// block stops, keeping them.
pub const BLOCK_MOVE_LIMIT: usize = 10_000;

/// The game's tables with the executor's entry points: single steps of the side to move
/// (`generate.rs`), attack tests (`attacked.rs`), the compiled `after-move` run
/// (`after_move.rs`). [`Rules`](crate::engine::Rules) holds one and adds whole turns; the
/// tables' own methods are reached through `Deref`.
#[derive(Clone, Debug)]
pub struct Generator {
    tables: Tables,
}

impl Generator {
    /// The executor's entry points over `tables`.
    pub(super) fn new(tables: Tables) -> Generator {
        Generator { tables }
    }
}

impl std::ops::Deref for Generator {
    type Target = Tables;
    #[inline(always)]
    fn deref(&self) -> &Tables {
        &self.tables
    }
}

impl std::ops::DerefMut for Generator {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Tables {
        &mut self.tables
    }
}

/// One block run.
pub struct Exec<'a> {
    pub rules: &'a Generator,
    pub pos: &'a Position,
    /// Whose pieces move (zones, symmetry, friend and enemy follow this player). Fixed by
    /// [`Exec::new`], which also picks the player's direction table (`base`).
    pub side: PlayerId,
    /// What the run is for.
    mode: Mode,
    /// With [`Mode::Attack`], its target (only moves capturing it count); else `NONE`.
    /// Copied out of the mode, as the cell reads compare with it.
    target: u16,
    /// Set when an attack on `target` was found.
    pub hit: bool,
    /// With [`Mode::Attack`], the player whose piece it imagines on an empty target.
    defender: u8,
    pub(super) cp: u16,
    pub(super) from: u16,
    to: u16,
    mark: u16,
    flags: u64,
    pub(super) steps: u32,
    drop: Option<PieceId>,
    pub(super) move_type: u16,
    /// With [`Mode::AfterMove`]: whether the move captured, and the type + 1 that moved.
    after: Option<(bool, u16)>,
    /// While running `after-move`: the move's first and last squares.
    move_ends: (u16, u16),
    /// `out.moves.len()` when the block run began.
    pub(super) first_move: usize,
    /// Set when the run added [`BLOCK_MOVE_LIMIT`] moves: it stops.
    pub(super) stop: bool,
    /// The mover's part of `Board::next` (for the specialised tree).
    pub(super) base: usize,
    /// Quiet simple moves still to write before the others are left out (`u32::MAX`: all
    /// are written; see [`Scratch::skip_quiet`]).
    pub(super) quiet_left: u32,
    /// Quiet simple moves left out.
    pub(super) quiet_skipped: usize,
}

#[derive(PartialEq, Eq)]
pub(super) enum Flow {
    Go,
    Stop,
}

impl<'a> Exec<'a> {
    /// A runner for `side` on `pos`, in `mode`.
    pub(super) fn new(
        rules: &'a Generator,
        pos: &'a Position,
        side: PlayerId,
        mode: Mode,
    ) -> Exec<'a> {
        let (target, defender) = match mode {
            Mode::Attack { target, defender } => (target, defender),
            _ => (NONE, 0),
        };
        let after = match mode {
            Mode::AfterMove { captured, piece } => Some((captured, piece)),
            _ => None,
        };
        Exec {
            rules,
            pos,
            side,
            mode,
            target,
            hit: false,
            defender,
            cp: NONE,
            from: NONE,
            to: NONE,
            mark: NONE,
            flags: 0,
            steps: 0,
            drop: None,
            move_type: u16::MAX,
            after,
            move_ends: (NONE, NONE),
            first_move: 0,
            stop: false,
            base: side.idx() * rules.def.board.directions.len() * rules.def.board.n_pos(),
            quiet_left: u32::MAX,
            quiet_skipped: 0,
        }
    }

    /// Runs a move block for the piece on `start`, or a drop block at `start` for `drop`.
    #[inline(always)]
    pub fn run(
        &mut self,
        block: &Block,
        start: u16,
        drop: Option<PieceId>,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        self.cp = start;
        let tree = self.rules.special.tree(block, self.rules.config.tree);
        // Most blocks end in their first steps (off the board, or a square that fails its
        // test): the specialised tree's read-only prefix runs before the run is set up.
        if let Some(t) = tree {
            if !self.enter(t) {
                return;
            }
            // A drop block whose prefix passed and that then only adds: the drop is written
            // without setting up a run, when its square is empty (else the add would capture)
            // and no attack test runs.
            if let (Some(p), Some(a), true) = (drop, t.lone_add(), self.rules.config.drop_masks) {
                if self.target == NONE && self.pos.cells[self.cp as usize].is_empty() {
                    self.emit_drop(block, (a, start, p), scratch, out);
                    return;
                }
            }
        }
        self.run_set_up(block, tree, start, drop, scratch, out);
    }

    #[inline(never)]
    pub(super) fn run_set_up(
        &mut self,
        block: &Block,
        tree: Option<&Seq>,
        start: u16,
        drop: Option<PieceId>,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        if scratch.out_of_work(out) {
            return;
        }
        self.from = if drop.is_some() { NONE } else { start };
        self.to = NONE;
        self.mark = start;
        self.flags = 0;
        self.steps = 0;
        self.drop = drop;
        self.move_type = block.move_type.map_or(u16::MAX, |t| t.0);
        scratch.pending.clear();
        scratch.subs.clear();
        scratch.pos_flags.clear();
        scratch.locals.clear();
        scratch.locals.resize(self.rules.def.vars.len(), 0);
        self.first_move = out.moves.len();
        self.stop = false;
        // The work a run cost: the loop rounds counted (`steps`), and the straight-line part
        // by the block's whole size (conditions and nested instructions included), so that
        // a block of long conditions is not counted as a few instructions.
        match tree {
            Some(tree) => self.run_special(tree, scratch, out),
            None => {
                self.exec(&block.body, scratch, out);
            }
        };
        scratch.work = scratch
            .work
            .saturating_add(self.steps as u64)
            .saturating_add(self.rules.special.weight(block) as u64);
        if self.steps > STEP_LIMIT {
            out.note_cut(Cut::Steps);
        }
    }

    /// Runs the `after-move` program for a move ([`Mode::AfterMove`]) and appends its counter
    /// changes to `ops`.
    pub(super) fn run_after_move(
        &mut self,
        ends: (u16, u16),
        scratch: &mut Scratch,
        ops: &mut Vec<Op>,
    ) {
        debug_assert!(matches!(self.mode, Mode::AfterMove { .. }));
        self.move_ends = ends;
        self.cp = NONE;
        self.from = NONE;
        self.to = NONE;
        self.mark = NONE;
        self.steps = 0;
        scratch.pending.clear();
        scratch.subs.clear();
        scratch.pos_flags.clear();
        scratch.locals.clear();
        scratch.locals.resize(self.rules.def.vars.len(), 0);
        let mut sink = MoveList::new();
        self.first_move = 0;
        self.stop = false;
        self.exec(&self.rules.def.after_move, scratch, &mut sink);
        for p in &scratch.pending {
            if let Pending::Counter(slot, value) = *p {
                let old = self.pos.counters[slot as usize] as i64;
                let delta = value.clamp(i32::MIN as i64, i32::MAX as i64) - old;
                ops.push(Op::Counter(slot, delta as i32));
            }
        }
    }

    fn exec(&mut self, body: &[Instr], s: &mut Scratch, out: &mut MoveList) -> Flow {
        for instr in body {
            self.steps += 1;
            if self.steps > STEP_LIMIT || self.hit || self.stop {
                return Flow::Stop;
            }
            if self.instr(instr, s, out) == Flow::Stop {
                return Flow::Stop;
            }
        }
        Flow::Go
    }

    /// `here`, `move-from` and `move-to` for expressions.
    #[inline]
    fn places(&self) -> [u16; 3] {
        [self.cp, self.move_ends.0, self.move_ends.1]
    }

    #[inline]
    fn step(&self, dir: DirId, from: u16) -> u16 {
        if from == NONE {
            return NONE;
        }
        match self.rules.def.board.step(self.side, dir, PosId(from)) {
            Some(p) => p.0,
            None => NONE,
        }
    }

    #[inline]
    fn target_pos(&self, t: Option<Target>) -> u16 {
        match t {
            None => self.cp,
            Some(Target::Pos(p)) => p.0,
            Some(Target::Dir(d)) => self.step(d, self.cp),
            Some(Target::Opposite(d)) => match self.rules.def.board.opposite[d.idx()] {
                Some(o) => self.step(o, self.cp),
                None => NONE,
            },
        }
    }

    pub(super) fn instr(&mut self, instr: &Instr, s: &mut Scratch, out: &mut MoveList) -> Flow {
        match instr {
            Instr::Step(d) => {
                self.cp = self.step(*d, self.cp);
                if self.cp == NONE {
                    return Flow::Stop;
                }
            }
            Instr::Opposite(d) => {
                let Some(o) = self.rules.def.board.opposite[d.idx()] else {
                    return Flow::Stop;
                };
                self.cp = self.step(o, self.cp);
                if self.cp == NONE {
                    return Flow::Stop;
                }
            }
            Instr::Goto(p) => self.cp = p.0,
            Instr::Mark => self.mark = self.cp,
            Instr::Back => self.cp = self.mark,
            Instr::Go(t) => {
                let p = match t {
                    GoTarget::From => self.from,
                    GoTarget::To => self.to,
                    GoTarget::Mark => self.mark,
                    GoTarget::LastFrom => self.pos.last_from,
                    GoTarget::LastTo => self.pos.last_to,
                };
                if p == NONE {
                    return Flow::Stop;
                }
                self.cp = p;
            }
            Instr::From => self.from = self.cp,
            Instr::To => self.to = self.cp,
            Instr::Cascade => {
                let to = if self.to == NONE { self.cp } else { self.to };
                s.subs.push((self.from, to));
                self.from = self.cp;
                self.to = NONE;
            }
            Instr::Capture(t) => {
                let p = self.target_pos(*t);
                if p != NONE {
                    s.pending.push(Pending::Capture(p));
                }
            }
            Instr::ChangeType(piece, t) => {
                let p = self.target_pos(*t);
                if p != NONE {
                    s.pending.push(Pending::ChangeType(p, *piece));
                }
            }
            Instr::ChangeOwner(t) => {
                let p = self.target_pos(*t);
                if p != NONE {
                    s.pending.push(Pending::Owner(p, self.side.0));
                }
            }
            Instr::Flip(t) => {
                let p = self.target_pos(*t);
                if p != NONE {
                    s.pending.push(Pending::Flip(p));
                }
            }
            Instr::Create { player, piece, at } => {
                let p = self.target_pos(*at);
                if p != NONE {
                    let owner = player.map_or(self.side.0, |pl| pl.0);
                    s.pending.push(Pending::Create(p, owner, *piece));
                }
            }
            Instr::SetAttribute(a, c, t) => {
                let v = self.cond(c, s);
                let p = self.target_pos(*t);
                if p != NONE {
                    s.pending.push(Pending::Attr(p, *a, v));
                }
            }
            Instr::SetFlag(f, c) => {
                let v = self.cond(c, s);
                let bit = 1u64 << (f.0 % 64);
                if v {
                    self.flags |= bit;
                } else {
                    self.flags &= !bit;
                }
            }
            Instr::SetPositionFlag(f, c, t) => {
                let v = self.cond(c, s);
                let p = self.target_pos(*t);
                if p != NONE {
                    match s
                        .pos_flags
                        .iter_mut()
                        .find(|(ff, pp, _)| *ff == f.0 && *pp == p)
                    {
                        Some(e) => e.2 = v,
                        None => s.pos_flags.push((f.0, p, v)),
                    }
                }
            }
            Instr::Add(spec) => self.add(spec, s, out),
            Instr::SetVar(v, e) => {
                let value = self
                    .rules
                    .eval(self.pos, self.side, &s.locals, self.places(), e);
                if let Some(slot) = s.locals.get_mut(*v as usize) {
                    *slot = value;
                }
            }
            Instr::SetCounter(c, e) => {
                let value = self
                    .rules
                    .eval(self.pos, self.side, &s.locals, self.places(), e);
                let slot = self.rules.counter_slot(*c, self.side);
                // A later set of the same counter in this block wins.
                s.pending
                    .retain(|p| !matches!(p, Pending::Counter(q, _) if *q == slot));
                s.pending.push(Pending::Counter(slot, value));
            }
            Instr::Verify(c) => {
                if !self.cond(c, s) {
                    return Flow::Stop;
                }
            }
            Instr::If(c, then, els) => {
                let body = if self.cond(c, s) { then } else { els };
                return self.exec(body, s, out);
            }
            Instr::While(c, body) => {
                while self.cond(c, s) {
                    if self.exec(body, s, out) == Flow::Stop {
                        return Flow::Stop;
                    }
                    self.steps += 1;
                    if self.steps > STEP_LIMIT {
                        return Flow::Stop;
                    }
                }
            }
        }
        Flow::Go
    }

    /// The cell as the program sees it. During an attack test an empty target square holds a
    /// phantom piece of the defender, so that "could capture here" covers empty squares too.
    #[inline]
    pub(super) fn cell(&self, p: u16) -> Cell {
        let c = self.pos.cells[p as usize];
        if p == self.target && c.is_empty() {
            return Cell {
                piece: u16::MAX,
                owner: self.defender,
                marks: 0,
                attrs: 0,
            };
        }
        c
    }

    /// Evaluates a condition against the position as it was when the step began.
    pub fn cond(&self, c: &Cond, s: &Scratch) -> bool {
        let live = |p: u16| p != NONE;
        match c {
            Cond::Const(b) => *b,
            Cond::Not(x) => !self.cond(x, s),
            Cond::And(xs) => xs.iter().all(|x| self.cond(x, s)),
            Cond::Or(xs) => xs.iter().any(|x| self.cond(x, s)),
            Cond::Empty(t) => {
                let p = self.target_pos(*t);
                live(p) && self.cell(p).is_empty()
            }
            Cond::Friend(t) => {
                let p = self.target_pos(*t);
                live(p) && {
                    let c = self.cell(p);
                    !c.is_empty() && c.owner == self.side.0 && c.marks & DEAD == 0
                }
            }
            Cond::Enemy(t) => {
                let p = self.target_pos(*t);
                live(p) && {
                    let c = self.cell(p);
                    !c.is_empty() && c.owner != self.side.0 && c.marks & DEAD == 0
                }
            }
            Cond::Neutral(t) => {
                let p = self.target_pos(*t);
                live(p) && {
                    let c = self.cell(p);
                    !c.is_empty() && !self.rules.in_turn_order[c.owner as usize]
                }
            }
            Cond::Piece(piece, t) => {
                let p = self.target_pos(*t);
                live(p) && self.cell(p).piece == piece.0 + 1
            }
            Cond::OnBoard(t) => live(self.target_pos(*t)),
            Cond::InZone(z, t) => {
                let p = self.target_pos(*t);
                live(p) && self.rules.def.board.in_zone(*z, self.side, PosId(p))
            }
            Cond::LastFrom(t) => {
                let p = self.target_pos(*t);
                live(p) && p == self.pos.last_from
            }
            Cond::LastTo(t) => {
                let p = self.target_pos(*t);
                live(p) && p == self.pos.last_to
            }
            Cond::Marked(t) => {
                let p = self.target_pos(*t);
                live(p) && p == self.mark
            }
            Cond::Position(q, t) => self.target_pos(*t) == q.0,
            Cond::Flag(f) => self.flags >> (f.0 % 64) & 1 == 1,
            Cond::PositionFlag(f, t) => {
                let p = self.target_pos(*t);
                s.pos_flags
                    .iter()
                    .any(|&(ff, pp, v)| ff == f.0 && pp == p && v)
            }
            Cond::Attribute(a, t) => {
                let p = self.target_pos(*t);
                live(p) && {
                    let c = self.cell(p);
                    !c.is_empty() && c.attrs >> a.0 & 1 == 1
                }
            }
            // Inside an attack test these are false: the test must not recurse into itself.
            Cond::Attacked(mt, t) => {
                let p = self.target_pos(*t);
                live(p)
                    && self.target == NONE
                    && self.rules.attacked(self.pos, p, self.side, *mt, true)
            }
            Cond::Defended(mt, t) => {
                let p = self.target_pos(*t);
                live(p)
                    && self.target == NONE
                    && self.rules.attacked(self.pos, p, self.side, *mt, false)
            }
            Cond::AdjacentToEnemy(t) => {
                let p = self.target_pos(*t);
                live(p)
                    && (0..self.rules.def.board.directions.len()).any(|d| {
                        let q = self.step(DirId(d as u16), p);
                        q != NONE && {
                            let c = self.cell(q);
                            !c.is_empty() && c.owner != self.side.0
                        }
                    })
            }
            Cond::GoalPosition(t) => {
                let p = self.target_pos(*t);
                live(p) && self.rules.goal_squares[p as usize]
            }
            Cond::Compare(op, a, b) => op.test(
                self.rules
                    .eval(self.pos, self.side, &s.locals, self.places(), a),
                self.rules
                    .eval(self.pos, self.side, &s.locals, self.places(), b),
            ),
            Cond::CaptureMade => self.after.is_some_and(|(c, _)| c),
            Cond::MovedPiece(ts) => self
                .after
                .is_some_and(|(_, p)| ts.iter().any(|t| t.0 + 1 == p)),
        }
    }
}
