//! Running the compiled `after-move` program (`compiled/after/`) for the move just applied,
//! without the interpreter: its settings applied as counter ops, remembered in the undo log.

use super::Generator;
use crate::def::*;
use crate::engine::after::{count, PCond, PExpr, PInstr};
use crate::engine::arith::arith;
use crate::engine::position::Position;
use crate::engine::rules::Tables;
use crate::engine::undo::{apply_counter, Memo, UndoLog, MAX_SETS, MAX_TALLY, MEMO_SIZE};

/// One run of a plain program.
struct Plain<'a> {
    rules: &'a Tables,
    pos: &'a Position,
    mover: PlayerId,
    /// Whether the move captured, and the type + 1 of the piece that moved.
    after: (bool, u16),
    /// `here`, `move-from`, `move-to`.
    at: [u16; 3],
    /// Settings so far: (counter slot, value).
    sets: [(u32, i64); MAX_SETS],
    n: usize,
    /// Live pieces by `owner * n_pieces + type` (read only when some `count-pieces` does).
    tally: &'a [u32; MAX_TALLY],
    /// The tally-only conditions for the mover (`PCond::Cached`).
    bits: u64,
}

impl Plain<'_> {
    /// Runs a body; false when it sets more counters than `sets` holds.
    fn run(&mut self, body: &[PInstr]) -> bool {
        for i in body {
            match i {
                PInstr::Set(c, e) => {
                    // Applied in order once the program ends, each to the counter as the
                    // ones before left it, so a later setting replaces an earlier one.
                    let value = self.eval(e);
                    if self.n == MAX_SETS {
                        return false;
                    }
                    self.sets[self.n] = (c.of(self.mover), value);
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
            PCond::Cached(k) => self.bits >> k & 1 != 0,
        }
    }

    /// [`Rules::eval`], with `count-pieces` over the whole board read from the tally.
    fn eval(&mut self, e: &PExpr) -> i64 {
        match e {
            PExpr::Int(n) => *n,
            PExpr::Counter(c) => self.pos.counters[c.of(self.mover) as usize] as i64,
            PExpr::Arith(op, a, b) => {
                let a = self.eval(a);
                arith(*op, a, self.eval(b))
            }
            PExpr::Count(masks) => count(masks, self.tally, self.mover.idx()),
            PExpr::Other(e) => self.rules.eval(self.pos, self.mover, &[], self.at, e),
        }
    }
}

impl Generator {
    /// Runs a plain `after-move` program for the move just applied and applies its counter
    /// changes; false (nothing done) when it needs the interpreter after all.
    #[inline]
    pub(in crate::engine) fn after_move_plain_run(
        &self,
        pos: &mut Position,
        mover: PlayerId,
        after: (bool, u16),
        ends: (u16, u16),
        log: &mut UndoLog,
    ) -> bool {
        let limit = |v: i64, old: i64| (v.clamp(i32::MIN as i64, i32::MAX as i64) - old) as i32;
        let Some(prog) = &self.after_prog else {
            return false;
        };
        const NO_TALLY: [u32; MAX_TALLY] = [0; MAX_TALLY];
        if log.after_prog != prog.id {
            // Kept for another program: forgotten.
            log.after_prog = prog.id;
            log.after_tallies.clear();
            log.after_memo.clear();
            log.after_bits.clear();
        }
        let at = prog.counts.then(|| prog.tally_after(pos, log));
        let (tally, bits) = match at {
            Some(i) => {
                let t = &log.after_tallies[i];
                (&t.counts, t.bits.get(mover.idx()).copied().unwrap_or(0))
            }
            None => (&NO_TALLY, 0),
        };
        let key = prog.memo_key(pos, mover, after, bits);
        let memo_at = key.map(|k| {
            let h = k
                .iter()
                .fold(0u64, |h, &x| (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            (h >> 58) as usize & (MEMO_SIZE - 1)
        });
        if let (Some(k), Some(i)) = (key, memo_at) {
            if let Some(e) = log.after_memo.get(i).filter(|e| e.valid && e.key == k) {
                let (sets, n) = (e.sets, e.n as usize);
                for &(slot, value) in &sets[..n] {
                    let delta = (value as i64 - pos.counters[slot as usize] as i64) as i32;
                    if delta != 0 {
                        apply_counter(pos, slot, delta, log);
                    }
                }
                if let Some(i) = at {
                    log.after_tallies[i].hash = pos.hash;
                }
                return true;
            }
        }
        let mut run = Plain {
            rules: self,
            pos,
            mover,
            after,
            at: [NONE, ends.0, ends.1],
            sets: [(0, 0); MAX_SETS],
            n: 0,
            tally,
            bits,
        };
        if !run.run(&prog.body) {
            return false;
        }
        let (sets, n) = (run.sets, run.n);
        if let (Some(k), Some(i)) = (key, memo_at) {
            if log.after_memo.is_empty() {
                log.after_memo.resize(MEMO_SIZE, Memo::default());
            }
            let e = &mut log.after_memo[i];
            e.key = k;
            e.valid = true;
            e.n = n as u8;
            for (m, &(slot, value)) in e.sets.iter_mut().zip(&sets[..n]) {
                *m = (slot, value.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
            }
        }
        for &(slot, value) in &sets[..n] {
            // A setting that leaves the counter as it is writes nothing.
            let delta = limit(value, pos.counters[slot as usize] as i64);
            if delta != 0 {
                apply_counter(pos, slot, delta, log);
            }
        }
        if let Some(i) = at {
            // The position's tally, for the moves made from it.
            log.after_tallies[i].hash = pos.hash;
        }
        true
    }
}
