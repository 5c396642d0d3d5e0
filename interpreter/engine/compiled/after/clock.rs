//! The fifty-move clock idiom of `after-move`, recognised whole: one counter reset by a
//! capture or a move of listed types and stepped otherwise, played as one counter op.

use crate::def::{Cond, Expr, GameDef, Instr, PlayerId};
use crate::engine::arith::arith;
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::undo::{apply_counter, SimpleUndo, UndoLog};

/// An `after-move` program that is one counter's clock, as the fifty-move rule keeps it:
/// `(if (or capture-made? (moved-piece? T…)) (set C k) else (inc C d))`.
#[derive(Clone, Debug)]
pub(in crate::engine) struct Clock {
    counter: u16,
    /// By mover: the counter's slot in `Position::counters` (`Clock::resolve`).
    slots: Vec<u32>,
    /// A capture sets the counter to its reset value (`reset32`).
    on_capture: bool,
    /// By type + 1: moving a piece of this type sets the counter to its reset value.
    pieces: Vec<bool>,
    /// Otherwise the counter becomes `counter op step` (`+` or `-`).
    op: char,
    step: i64,
    /// The reset value, saturated to a counter's 32 bits.
    reset32: i32,
    /// `op step` as a change that fits 32 bits (`+ step` or `- step`): the saturating
    /// 32-bit sum is then the 64-bit result saturated.
    step32: Option<i32>,
}

/// [`Clock::leaves`]: the clock's outcomes for the moves of one position.
pub(in crate::engine) struct ClockLeaves<'a> {
    clock: &'a Clock,
    slot: u32,
    old: i32,
    /// The counter's value when the move resets it, and its hash change once computed.
    reset: (i32, Option<u64>),
    /// The same when it does not.
    step: (i32, Option<u64>),
}

impl ClockLeaves<'_> {
    /// [`Clock::run`] after [`super::undo::make_simple`] of `m`: the change is noted in its
    /// record instead of the log.
    #[inline(always)]
    pub(in crate::engine) fn run_simple(
        &mut self,
        pos: &mut Position,
        m: &Move,
        undo: &mut SimpleUndo,
    ) {
        let reset = self.clock.resets(m.capture_made(), m.piece);
        let (slot, old) = (self.slot, self.old);
        let (new, change) = if reset {
            &mut self.reset
        } else {
            &mut self.step
        };
        if *new != old {
            let change = *change.get_or_insert_with(|| Position::counter_change(slot, old, *new));
            pos.set_counter_changed(slot, *new, change);
            undo.note_counter(slot, old);
        }
    }
}

impl Clock {
    /// Runs the clock for the move just applied by `mover` (whether it captured, and the
    /// type + 1 of the piece that moved).
    #[inline(always)]
    pub(in crate::engine) fn run(
        &self,
        pos: &mut Position,
        mover: PlayerId,
        captured: bool,
        piece: u16,
        log: &mut UndoLog,
    ) {
        let slot = self.slots[mover.idx()];
        let old = pos.counters[slot as usize];
        let reset = self.resets(captured, piece);
        // A setting that leaves the counter as it is writes nothing.
        let delta = self.value(old, reset).wrapping_sub(old);
        if delta != 0 {
            apply_counter(pos, slot, delta, log);
        }
    }

    /// The clock's two possible outcomes for the moves of `mover` from `pos` (perft's
    /// leaves, all made from one position): the counter reset or stepped, each with its hash
    /// change, so that each leaf only chooses.
    #[inline]
    pub(in crate::engine) fn leaves<'a>(
        &'a self,
        pos: &Position,
        mover: PlayerId,
    ) -> ClockLeaves<'a> {
        let slot = self.slots[mover.idx()];
        let old = pos.counters[slot as usize];
        ClockLeaves {
            clock: self,
            slot,
            old,
            reset: (self.value(old, true), None),
            step: (self.value(old, false), None),
        }
    }

    /// Whether a move (whether it captured, and the type + 1 of the piece that moved) resets
    /// the counter rather than stepping it.
    #[inline(always)]
    fn resets(&self, captured: bool, piece: u16) -> bool {
        (captured && self.on_capture) || self.pieces.get(piece as usize) == Some(&true)
    }

    /// The counter's new value from `old`, reset or not; a counter holds 32 bits, so the
    /// setting saturates there.
    #[inline(always)]
    fn value(&self, old: i32, reset: bool) -> i32 {
        if reset {
            self.reset32
        } else if let Some(d) = self.step32 {
            old.saturating_add(d)
        } else {
            arith(self.op, old as i64, self.step).clamp(i32::MIN as i64, i32::MAX as i64) as i32
        }
    }

    /// Resolves the counter's slot for every mover (`slot`: `Rules::counter_slot`), once the
    /// slots are laid out.
    pub(in crate::engine) fn resolve(
        &mut self,
        n_players: usize,
        slot: impl Fn(u16, PlayerId) -> u32,
    ) {
        self.slots = (0..n_players.max(1))
            .map(|p| slot(self.counter, PlayerId(p as u8)))
            .collect();
    }

    /// The clock an `after-move` program is, if it is one.
    pub(in crate::engine) fn recognise(def: &GameDef) -> Option<Clock> {
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
            op: *op,
            step: *step,
            reset32: reset32(*reset),
            step32: step32(*op, *step),
        })
    }
}

/// [`Clock::reset32`] of a reset value.
fn reset32(reset: i64) -> i32 {
    reset.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// [`Clock::step32`] of `op step`.
fn step32(op: char, step: i64) -> Option<i32> {
    let d = if op == '+' {
        Some(step)
    } else {
        step.checked_neg()
    };
    d.and_then(|d| i32::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clock's 32-bit shortcut gives what the 64-bit setting saturated to 32 bits gives,
    /// at the bounds too.
    #[test]
    fn clock_values_saturate_as_the_setting_does() {
        let big = [
            i32::MIN as i64,
            i32::MAX as i64,
            1 << 40,
            i64::MIN,
            i64::MAX,
        ];
        let steps = [0, 1, -1, 7, -7, i32::MAX as i64 - 1]
            .into_iter()
            .chain(big);
        let olds = [0, 1, -1, 79, i32::MAX, i32::MAX - 1, i32::MIN, i32::MIN + 1];
        let mut checked = 0;
        for step in steps {
            for op in ['+', '-'] {
                for reset in [0, -3, 1 << 33, -(1 << 33)] {
                    let clock = Clock {
                        counter: 0,
                        slots: vec![0],
                        on_capture: true,
                        pieces: Vec::new(),
                        op,
                        step,
                        reset32: reset32(reset),
                        step32: step32(op, step),
                    };
                    for old in olds {
                        for r in [false, true] {
                            let want = if r {
                                reset
                            } else {
                                arith(op, old as i64, step)
                            };
                            let want = want.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                            assert_eq!(clock.value(old, r), want, "{old} {op} {step}, reset {r}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 11 * 2 * 4 * 8 * 2);
    }
}
