//! `after-move` without the interpreter, for the programs the resolver's output shows to be
//! plain: only `if` and counter settings, with conditions on the move just made
//! (`capture-made?`, `moved-piece?`), constants and comparisons. Such a program is run
//! straight over its tree, with the interpreter's semantics: expressions read the position
//! after the move, and a later setting of a counter replaces an earlier one. The fifty-move
//! clock idiom is recognised whole and costs one counter op. `count-pieces` without a zone is
//! answered from one tally of the board per move.

use super::moves::{apply_counter, apply_more, Op, UndoLog};
use super::position::{Position, DEAD};
use super::{arith, Rules};
use crate::def::*;

/// The most counter settings a plain program collects (more: the interpreter runs it).
const MAX_SETS: usize = 8;

/// The largest players × piece types whose counts the tally keeps (more: board scans).
const MAX_TALLY: usize = 64;

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
            on_capture,
            pieces,
            reset: *reset,
            op: *op,
            step: *step,
        })
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
    /// Live pieces by `owner * n_pieces + type`, counted at the first `count-pieces`.
    tally: Option<[u32; MAX_TALLY]>,
}

impl Plain<'_> {
    /// Runs a body; false when it sets more counters than `sets` holds.
    fn run(&mut self, body: &[Instr]) -> bool {
        for i in body {
            match i {
                Instr::SetCounter(c, e) => {
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
                Instr::If(c, a, b) => {
                    let branch = if self.cond(c) { a } else { b };
                    if !self.run(branch) {
                        return false;
                    }
                }
                _ => unreachable!("checked by plain_program"),
            }
        }
        true
    }

    fn cond(&mut self, c: &Cond) -> bool {
        match c {
            Cond::Const(b) => *b,
            Cond::Not(x) => !self.cond(x),
            Cond::And(xs) => xs.iter().all(|x| self.cond(x)),
            Cond::Or(xs) => xs.iter().any(|x| self.cond(x)),
            Cond::CaptureMade => self.after.0,
            Cond::MovedPiece(ts) => ts.iter().any(|t| t.0 + 1 == self.after.1),
            Cond::Compare(op, a, b) => {
                let a = self.eval(a);
                op.test(a, self.eval(b))
            }
            _ => unreachable!("checked by plain_program"),
        }
    }

    /// [`Rules::eval`], with `count-pieces` over the whole board read from the tally.
    fn eval(&mut self, e: &Expr) -> i64 {
        match e {
            Expr::Arith(op, a, b) => {
                let a = self.eval(a);
                arith(*op, a, self.eval(b))
            }
            Expr::CountPieces(owner, pieces, None) => {
                let (rules, side) = (self.rules, self.mover.idx());
                let Some(t) = self.tally() else {
                    return rules.eval(self.pos, self.mover, &[], self.at, e);
                };
                let n_pieces = rules.def.pieces.len();
                let mut n = 0i64;
                for pl in 0..rules.def.players.len() {
                    let wanted = match owner {
                        Owner::Mine => pl == side,
                        Owner::Opponent => pl != side,
                        Owner::Any => true,
                    };
                    if !wanted {
                        continue;
                    }
                    let row = &t[pl * n_pieces..(pl + 1) * n_pieces];
                    n += if pieces.is_empty() {
                        row.iter().map(|&c| c as i64).sum::<i64>()
                    } else {
                        (row.iter().enumerate())
                            .filter(|(t, _)| pieces.iter().any(|p| p.idx() == *t))
                            .map(|(_, &c)| c as i64)
                            .sum::<i64>()
                    };
                }
                n
            }
            _ => self.rules.eval(self.pos, self.mover, &[], self.at, e),
        }
    }

    fn tally(&mut self) -> Option<&[u32; MAX_TALLY]> {
        let n_pieces = self.rules.def.pieces.len();
        if self.rules.def.players.len() * n_pieces > MAX_TALLY {
            return None;
        }
        if self.tally.is_none() {
            let mut t = [0u32; MAX_TALLY];
            for c in &self.pos.cells {
                // Owners outside the player list are never counted as anyone's.
                if !c.is_empty() && c.marks & DEAD == 0 {
                    if let Some(slot) =
                        t.get_mut(c.owner as usize * n_pieces + c.piece as usize - 1)
                    {
                        *slot += 1;
                    }
                }
            }
            self.tally = Some(t);
        }
        self.tally.as_ref()
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
        if let Some(c) = &self.clock {
            let slot = self.counter_slot(c.counter, mover);
            let old = pos.counters[slot as usize] as i64;
            let reset = (after.0 && c.on_capture) || c.pieces.get(after.1 as usize) == Some(&true);
            let value = if reset {
                c.reset
            } else {
                arith(c.op, old, c.step)
            };
            apply_counter(pos, slot, limit(value, old), log);
            return true;
        }
        let mut run = Plain {
            rules: self,
            pos,
            mover,
            after,
            at: [NONE, ends.0, ends.1],
            sets: [(0, 0); MAX_SETS],
            n: 0,
            tally: None,
        };
        if !run.run(&self.def.after_move) {
            return false;
        }
        let mut ops = [Op::Counter(0, 0); MAX_SETS];
        for (op, &(slot, value)) in ops.iter_mut().zip(&run.sets[..run.n]) {
            *op = Op::Counter(slot, limit(value, pos.counters[slot as usize] as i64));
        }
        let n = run.n;
        apply_more(pos, &ops[..n], log);
        true
    }
}
