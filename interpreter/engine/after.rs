//! `after-move` without the interpreter, for the programs the resolver's output shows to be
//! plain: only `if` and counter settings, with conditions on the move just made
//! (`capture-made?`, `moved-piece?`), constants and comparisons. Such a program is run
//! straight over its tree, with the interpreter's semantics: expressions read the position
//! after the move, and a later setting of a counter replaces an earlier one. The fifty-move
//! clock idiom is recognised whole and costs one counter op. `count-pieces` without a zone is
//! answered from one tally of the board per move.

use super::moves::{apply_counter, apply_more, Op, UndoLog};
use super::position::{Cell, Position, DEAD};
use super::{arith, Rules};
use crate::def::*;

/// The most counter settings a plain program collects (more: the interpreter runs it).
const MAX_SETS: usize = 8;

/// The largest players × piece types whose counts the tally keeps (more: board scans).
pub(super) const MAX_TALLY: usize = 64;

/// Whether an `after-move` program is plain (see the module comment).
pub(super) fn plain_program(body: &[Instr]) -> bool {
    fn cond(c: &Cond) -> bool {
        match c {
            Cond::Const(_) | Cond::CaptureMade | Cond::MovedPiece(_) | Cond::Compare(..) => true,
            Cond::Not(x) => cond(x),
            Cond::And(xs) | Cond::Or(xs) => xs.iter().all(cond),
            _ => false,
        }
    }
    body.iter().all(|i| match i {
        Instr::SetCounter(..) => true,
        Instr::If(c, a, b) => cond(c) && plain_program(a) && plain_program(b),
        _ => false,
    })
}

/// An `after-move` program that is one counter's clock, as the fifty-move rule keeps it:
/// `(if (or capture-made? (moved-piece? T…)) (set C k) else (inc C d))`.
#[derive(Clone, Debug)]
pub(super) struct Clock {
    counter: u16,
    /// By mover: the counter's slot in `Position::counters` (`Clock::resolve`).
    slots: Vec<u32>,
    /// A capture sets the counter to `reset`.
    on_capture: bool,
    /// By type + 1: moving a piece of this type sets the counter to `reset`.
    pieces: Vec<bool>,
    reset: i64,
    /// Otherwise the counter becomes `counter op step` (`+` or `-`).
    op: char,
    step: i64,
}

impl Clock {
    /// Runs the clock for the move just applied by `mover` (whether it captured, and the
    /// type + 1 of the piece that moved).
    #[inline(always)]
    pub(super) fn run(
        &self,
        pos: &mut Position,
        mover: PlayerId,
        captured: bool,
        piece: u16,
        log: &mut UndoLog,
    ) {
        let slot = self.slots[mover.idx()];
        let old = pos.counters[slot as usize] as i64;
        let reset = (captured && self.on_capture) || self.pieces.get(piece as usize) == Some(&true);
        let value = if reset {
            self.reset
        } else {
            arith(self.op, old, self.step)
        };
        // A setting that leaves the counter as it is writes nothing.
        let delta = (value.clamp(i32::MIN as i64, i32::MAX as i64) - old) as i32;
        if delta != 0 {
            apply_counter(pos, slot, delta, log);
        }
    }

    /// Resolves the counter's slot for every mover, once the slots are laid out.
    pub(super) fn resolve(&mut self, rules: &Rules) {
        self.slots = (0..rules.def.players.len().max(1))
            .map(|p| rules.counter_slot(self.counter, PlayerId(p as u8)))
            .collect();
    }

    /// The clock an `after-move` program is, if it is one.
    pub(super) fn recognise(def: &GameDef) -> Option<Clock> {
        fn resets(c: &Cond, on_capture: &mut bool, pieces: &mut Vec<bool>) -> bool {
            match c {
                Cond::CaptureMade => *on_capture = true,
                Cond::MovedPiece(ts) => {
                    for t in ts {
                        if pieces.len() <= t.idx() + 1 {
                            pieces.resize(t.idx() + 2, false);
                        }
                        pieces[t.idx() + 1] = true;
                    }
                }
                Cond::Or(xs) => return xs.iter().all(|x| resets(x, on_capture, pieces)),
                _ => return false,
            }
            true
        }
        let [Instr::If(cond, then, els)] = def.after_move.as_slice() else {
            return None;
        };
        let [Instr::SetCounter(counter, Expr::Int(reset))] = then.as_slice() else {
            return None;
        };
        let [Instr::SetCounter(c2, Expr::Arith(op, x, y))] = els.as_slice() else {
            return None;
        };
        let (Expr::Counter(c3), Expr::Int(step)) = (&**x, &**y) else {
            return None;
        };
        if c2 != counter || c3 != counter || !matches!(op, '+' | '-') {
            return None;
        }
        let (mut on_capture, mut pieces) = (false, Vec::new());
        resets(cond, &mut on_capture, &mut pieces).then_some(Clock {
            counter: *counter,
            slots: Vec::new(),
            on_capture,
            pieces,
            reset: *reset,
            op: *op,
            step: *step,
        })
    }
}

/// A plain program compiled at load: the same tree, with each `count-pieces` over the whole
/// board turned into one mask per mover over the tally's slots.
#[derive(Clone, Debug)]
pub(super) struct Prog {
    body: Vec<PInstr>,
    /// Whether some `count-pieces` reads the tally.
    counts: bool,
}

#[derive(Clone, Debug)]
enum PInstr {
    Set(u16, PExpr),
    If(PCond, Vec<PInstr>, Vec<PInstr>),
}

#[derive(Clone, Debug)]
enum PCond {
    Const(bool),
    Not(Box<PCond>),
    And(Vec<PCond>),
    Or(Vec<PCond>),
    CaptureMade,
    /// By type + 1: whether moving a piece of that type makes it true.
    MovedPiece(Vec<bool>),
    Compare(CmpOp, PExpr, PExpr),
}

#[derive(Clone, Debug)]
enum PExpr {
    Int(i64),
    Counter(u16),
    Arith(char, Box<PExpr>, Box<PExpr>),
    /// `count-pieces` over the whole board: by mover, the tally slots it sums.
    Count(Vec<u64>),
    /// Anything else, evaluated by [`Rules::eval`].
    Other(Expr),
}

impl PInstr {
    fn counts(&self) -> bool {
        match self {
            PInstr::Set(_, e) => e.counts(),
            PInstr::If(c, a, b) => {
                c.counts() || a.iter().any(Self::counts) || b.iter().any(Self::counts)
            }
        }
    }
}

impl PCond {
    fn counts(&self) -> bool {
        match self {
            PCond::Not(x) => x.counts(),
            PCond::And(xs) | PCond::Or(xs) => xs.iter().any(Self::counts),
            PCond::Compare(_, a, b) => a.counts() || b.counts(),
            _ => false,
        }
    }
}

impl PExpr {
    fn counts(&self) -> bool {
        match self {
            PExpr::Count(_) => true,
            PExpr::Arith(_, a, b) => a.counts() || b.counts(),
            _ => false,
        }
    }
}

/// The tally slot a cell counts in, if any.
#[inline]
fn tally_slot(c: Cell, n_pieces: usize) -> Option<usize> {
    let slot = (c.owner as usize * n_pieces + c.piece as usize).wrapping_sub(1);
    (!c.is_empty() && c.marks & DEAD == 0 && slot < MAX_TALLY).then_some(slot)
}

/// The tally of `pos`, the position after the move last applied in `log`: the tally before
/// that move (kept in `log` under its hash) changed by the cells the move wrote, or one scan
/// of the board when the position before is not known. Hash equality stands for equal
/// positions here as it does for repetitions.
fn tally_after(pos: &Position, n_pieces: usize, log: &mut UndoLog) -> [u32; MAX_TALLY] {
    let Some((before, cells)) = log.last_cells() else {
        return scan(pos, n_pieces);
    };
    let d = log.depth() - 1;
    // The change: for each square written, its cell before the move out (the old cell of
    // its first write) and its cell now in.
    let mut delta = [0u32; MAX_TALLY];
    for (k, &(sq, old)) in cells.iter().enumerate() {
        if cells[..k].iter().any(|&(q, _)| q == sq) {
            continue;
        }
        if let Some(s) = tally_slot(old, n_pieces) {
            delta[s] = delta[s].wrapping_sub(1);
        }
        if let Some(s) = tally_slot(pos.cells[sq as usize], n_pieces) {
            delta[s] = delta[s].wrapping_add(1);
        }
    }
    let tallies = &mut log.after_tallies;
    let t = match tallies.get(d) {
        Some(&(h, base)) if h == before => {
            let mut t = base;
            for (x, dx) in t.iter_mut().zip(delta) {
                *x = x.wrapping_add(dx);
            }
            t
        }
        _ => {
            let t = scan(pos, n_pieces);
            let mut base = t;
            for (x, dx) in base.iter_mut().zip(delta) {
                *x = x.wrapping_sub(dx);
            }
            tallies.resize(d + 1, (0, [0; MAX_TALLY]));
            tallies[d] = (before, base);
            t
        }
    };
    t
}

/// The tally of a position, by one scan of its board.
fn scan(pos: &Position, n_pieces: usize) -> [u32; MAX_TALLY] {
    let mut t = [0u32; MAX_TALLY];
    for &c in &pos.cells {
        // Owners outside the player list are never counted as anyone's: their slots are
        // past the players' or beyond the tally, and no mask reads them.
        if let Some(s) = tally_slot(c, n_pieces) {
            t[s] += 1;
        }
    }
    t
}

impl Prog {
    /// Compiles a plain program (`plain_program` holds) for `def`.
    pub(super) fn compile(def: &GameDef) -> Prog {
        let body = Self::body(def, &def.after_move);
        let counts = body.iter().any(PInstr::counts);
        Prog { body, counts }
    }

    fn body(def: &GameDef, body: &[Instr]) -> Vec<PInstr> {
        body.iter()
            .filter_map(|i| match i {
                Instr::SetCounter(c, e) => Some(PInstr::Set(*c, Self::expr(def, e))),
                Instr::If(c, a, b) => Some(PInstr::If(
                    Self::cond(def, c),
                    Self::body(def, a),
                    Self::body(def, b),
                )),
                _ => None,
            })
            .collect()
    }

    fn cond(def: &GameDef, c: &Cond) -> PCond {
        match c {
            Cond::Not(x) => PCond::Not(Box::new(Self::cond(def, x))),
            Cond::And(xs) => PCond::And(xs.iter().map(|x| Self::cond(def, x)).collect()),
            Cond::Or(xs) => PCond::Or(xs.iter().map(|x| Self::cond(def, x)).collect()),
            Cond::CaptureMade => PCond::CaptureMade,
            Cond::MovedPiece(ts) => {
                let mut by_type = vec![false; def.pieces.len() + 1];
                for t in ts {
                    if let Some(b) = by_type.get_mut(t.idx() + 1) {
                        *b = true;
                    }
                }
                PCond::MovedPiece(by_type)
            }
            Cond::Compare(op, a, b) => PCond::Compare(*op, Self::expr(def, a), Self::expr(def, b)),
            Cond::Const(b) => PCond::Const(*b),
            // Not plain: `plain_program` keeps such programs from being compiled.
            _ => PCond::Const(false),
        }
    }

    fn expr(def: &GameDef, e: &Expr) -> PExpr {
        let (n_players, n_pieces) = (def.players.len(), def.pieces.len());
        match e {
            Expr::Int(n) => PExpr::Int(*n),
            Expr::Counter(c) => PExpr::Counter(*c),
            Expr::Arith(op, a, b) => PExpr::Arith(
                *op,
                Box::new(Self::expr(def, a)),
                Box::new(Self::expr(def, b)),
            ),
            Expr::CountPieces(owner, pieces, None) if n_players * n_pieces <= MAX_TALLY => {
                let masks = (0..n_players)
                    .map(|side| {
                        let mut m = 0u64;
                        for pl in 0..n_players {
                            let wanted = match owner {
                                Owner::Mine => pl == side,
                                Owner::Opponent => pl != side,
                                Owner::Any => true,
                            };
                            for t in 0..n_pieces {
                                if wanted
                                    && (pieces.is_empty() || pieces.iter().any(|p| p.idx() == t))
                                {
                                    m |= 1 << (pl * n_pieces + t);
                                }
                            }
                        }
                        m
                    })
                    .collect();
                PExpr::Count(masks)
            }
            _ => PExpr::Other(e.clone()),
        }
    }
}

/// One run of a plain program.
struct Plain<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    mover: PlayerId,
    /// Whether the move captured, and the type + 1 of the piece that moved.
    after: (bool, u16),
    /// `here`, `move-from`, `move-to`.
    at: [u16; 3],
    /// Settings so far: (counter slot, value).
    sets: [(u32, i64); MAX_SETS],
    n: usize,
    /// Live pieces by `owner * n_pieces + type`, counted at the first `count-pieces`
    /// (`tallied`).
    tally: [u32; MAX_TALLY],
    tallied: bool,
}

impl Plain<'_> {
    /// Runs a body; false when it sets more counters than `sets` holds.
    fn run(&mut self, body: &[PInstr]) -> bool {
        for i in body {
            match i {
                PInstr::Set(c, e) => {
                    let value = self.eval(e);
                    let slot = self.rules.counter_slot(*c, self.mover);
                    let n = self.n;
                    if let Some(k) = self.sets[..n].iter().position(|&(s, _)| s == slot) {
                        self.sets.copy_within(k + 1..n, k);
                        self.n -= 1;
                    }
                    if self.n == MAX_SETS {
                        return false;
                    }
                    self.sets[self.n] = (slot, value);
                    self.n += 1;
                }
                PInstr::If(c, a, b) => {
                    let branch = if self.cond(c) { a } else { b };
                    if !self.run(branch) {
                        return false;
                    }
                }
            }
        }
        true
    }

    fn cond(&mut self, c: &PCond) -> bool {
        match c {
            PCond::Const(b) => *b,
            PCond::Not(x) => !self.cond(x),
            PCond::And(xs) => xs.iter().all(|x| self.cond(x)),
            PCond::Or(xs) => xs.iter().any(|x| self.cond(x)),
            PCond::CaptureMade => self.after.0,
            PCond::MovedPiece(by_type) => by_type.get(self.after.1 as usize) == Some(&true),
            PCond::Compare(op, a, b) => {
                let a = self.eval(a);
                op.test(a, self.eval(b))
            }
        }
    }

    /// [`Rules::eval`], with `count-pieces` over the whole board read from the tally.
    fn eval(&mut self, e: &PExpr) -> i64 {
        match e {
            PExpr::Int(n) => *n,
            PExpr::Counter(c) => {
                self.pos.counters[self.rules.counter_slot(*c, self.mover) as usize] as i64
            }
            PExpr::Arith(op, a, b) => {
                let a = self.eval(a);
                arith(*op, a, self.eval(b))
            }
            PExpr::Count(masks) => {
                let mut m = masks.get(self.mover.idx()).copied().unwrap_or(0);
                let t = self.tally();
                let mut n = 0i64;
                while m != 0 {
                    n += t[m.trailing_zeros() as usize] as i64;
                    m &= m - 1;
                }
                n
            }
            PExpr::Other(e) => self.rules.eval(self.pos, self.mover, &[], self.at, e),
        }
    }

    /// The tally (the compiled program uses it only when players × types fit in it).
    fn tally(&mut self) -> &[u32; MAX_TALLY] {
        if !self.tallied {
            self.tallied = true;
            self.tally = scan(self.pos, self.rules.def.pieces.len());
        }
        &self.tally
    }
}

impl Rules {
    /// Runs a plain `after-move` program for the move just applied and applies its counter
    /// changes; false (nothing done) when it needs the interpreter after all.
    pub(super) fn after_move_plain_run(
        &self,
        pos: &mut Position,
        mover: PlayerId,
        after: (bool, u16),
        ends: (u16, u16),
        log: &mut UndoLog,
    ) -> bool {
        let limit = |v: i64, old: i64| (v.clamp(i32::MIN as i64, i32::MAX as i64) - old) as i32;
        let mut run = Plain {
            rules: self,
            pos,
            mover,
            after,
            at: [NONE, ends.0, ends.1],
            sets: [(0, 0); MAX_SETS],
            n: 0,
            tally: [0; MAX_TALLY],
            tallied: false,
        };
        let Some(prog) = &self.after_prog else {
            return false;
        };
        if prog.counts {
            run.tally = tally_after(run.pos, self.def.pieces.len(), log);
            run.tallied = true;
        }
        if !run.run(&prog.body) {
            return false;
        }
        let mut ops = [Op::Counter(0, 0); MAX_SETS];
        let mut n = 0;
        for &(slot, value) in &run.sets[..run.n] {
            // A setting that leaves the counter as it is writes nothing.
            let delta = limit(value, pos.counters[slot as usize] as i64);
            if delta != 0 {
                ops[n] = Op::Counter(slot, delta);
                n += 1;
            }
        }
        let t = run.tally;
        apply_more(pos, &ops[..n], log);
        if prog.counts {
            // The position's tally, for the moves made from it.
            let d = log.depth();
            log.after_tallies.resize(d + 1, (0, [0; MAX_TALLY]));
            log.after_tallies[d] = (pos.hash, t);
        }
        true
    }
}
