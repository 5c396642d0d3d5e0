//! Chain expansion: partial steps joined into whole turns for one `legal_moves` call.

use super::workspace::Workspace;
use super::Rules;
use crate::def::*;
use crate::engine::moves::{Cut, Move, MoveList, Op};
use crate::engine::position;
use crate::engine::position::{Cell, Position, DEAD};
use crate::engine::rules::{CHAIN_WORK_LIMIT, GEN_MOVE_LIMIT, MAX_CHAIN};
use crate::engine::undo::{apply, revert};

/// The last write to a square among some ops.
pub(super) fn last_write(ops: &[Op], sq: u16) -> Option<Cell> {
    ops.iter().rev().find_map(|op| match op {
        Op::Set(q, c) if *q == sq => Some(*c),
        _ => None,
    })
}

/// Chain expansion state for one `legal_moves` call.
pub(super) struct Gen<'r, 'w> {
    pub(super) rules: &'r Rules,
    pub(super) ws: &'w mut Workspace,
    pub(super) side: PlayerId,
    /// Partial steps played so far (see [`CHAIN_WORK_LIMIT`]).
    pub(super) work: usize,
    /// Every first step expanded so far ended its chain as it stands, and none has been
    /// written: if all do, the list of first steps is the output, and nothing is copied. The
    /// first step that writes anything else writes those before it first ([`Gen::unlazy`]).
    pub(super) lazy: bool,
    /// Some list of steps generated so far may hold two equal moves (`Scratch::may_repeat`).
    pub(super) may_repeat: bool,
    /// The gate rows' base (`GateRows::base`) of the continuations of the last move type
    /// [`Gen::ends_unplayed`] looked at.
    pub(super) cont_base: Option<(u16, Option<usize>)>,
}

impl Gen<'_, '_> {
    /// Emits step `i` of `steps` (after the chain `prefix`) as whole turns into `out`.
    /// Returns whether the step was continued.
    fn expand(
        &mut self,
        pos: &mut Position,
        steps: &MoveList,
        i: usize,
        prefix: &mut MoveList,
        depth: usize,
        out: &mut MoveList,
    ) -> bool {
        let m = steps.moves[i];
        if !m.partial || depth >= MAX_CHAIN {
            if depth == 0 && self.lazy && self.plain(&m) {
                return false;
            }
            self.unlazy(steps, i, depth, out);
            let _ = self.emit(prefix, steps, i, out);
            return false;
        }
        if let Some(ended) = self.ends_unplayed(pos, steps, &m) {
            // Decided without playing the step: a loop (dropped), or no continuation.
            if ended {
                self.work += 1;
                if depth == 0 && self.lazy && !m.must_continue && self.plain(&m) {
                    return false;
                }
                self.unlazy(steps, i, depth, out);
                if !m.must_continue {
                    let _ = self.emit(prefix, steps, i, out);
                }
            } else {
                self.unlazy(steps, i, depth, out);
            }
            return false;
        }
        // Play the step and look for continuations by the same piece.
        let to = steps.path(&m)[steps.path(&m).len() - 1];
        apply(
            pos,
            &steps.ops(&m),
            pos.turn,
            steps.path(&m)[0],
            to,
            &mut self.ws.log,
        );
        // A step back to a position the chain has already been through is a loop: dropped.
        let key = pos.repetition_key();
        if self.ws.chain_keys.contains(&key) {
            revert(pos, &mut self.ws.log);
            self.unlazy(steps, i, depth, out);
            return false;
        }
        self.work += 1;
        let mut conts = self.ws.take_buf();
        let mt = (m.cont_type != u16::MAX).then_some(MoveTypeId(m.cont_type));
        let cell = pos.cells[to as usize];
        if !cell.is_empty() {
            if self.work <= CHAIN_WORK_LIMIT {
                self.rules
                    .gen_steps(pos, self.side, mt, to, &mut self.ws.scratch, &mut conts);
                self.may_repeat |= self.ws.scratch.may_repeat;
                if let Some(why) = conts.cut {
                    out.note_cut(why);
                }
            } else {
                out.note_cut(Cut::ChainWork);
            }
        }
        if depth == 0 && self.lazy && conts.is_empty() && !m.must_continue && self.plain(&m) {
            self.ws.bufs.push(conts);
            revert(pos, &mut self.ws.log);
            return false;
        }
        self.unlazy(steps, i, depth, out);
        // A `must-continue` landing never ends a chain.
        if !m.must_continue
            && (conts.is_empty() || self.rules.def.options.pass_partial)
            && self.emit(prefix, steps, i, out)
            && !conts.is_empty()
        {
            let n = out.moves.len() - 1;
            out.moves[n].stopped = true;
        }
        let continued = !conts.is_empty();
        if continued {
            // The chain's links are the moves of one list, one per step so far.
            let (n_ops, n_squares) = (prefix.ops.len(), prefix.squares.len());
            prefix.push_from(steps, i);
            self.ws.chain_keys.push(key);
            self.expand_all(pos, &conts, prefix, depth + 1, out);
            self.ws.chain_keys.pop();
            prefix.moves.pop();
            prefix.ops.truncate(n_ops);
            prefix.squares.truncate(n_squares);
        }
        self.ws.bufs.push(conts);
        revert(pos, &mut self.ws.log);
        continued
    }

    /// What [`Gen::expand`] would find for partial step `m` without playing it, when the
    /// board after it (the position with its cell writes laid over) decides it: `Some(false)`
    /// when it returns to a position the chain has been through (a loop, dropped), `Some(true)`
    /// when no continuation can follow (the moved piece's gate rows of the continuation's type,
    /// `GateRows::may_move`, pass nowhere). `None`: play it (a gate passes or cannot be
    /// decided by its masks, a store or counter op, many writes, the work limit, no rows).
    fn ends_unplayed(&mut self, pos: &Position, steps: &MoveList, m: &Move) -> Option<bool> {
        const MAX_WRITES: usize = 4;
        let rules = self.rules;
        if !rules.config.chain_ends || self.work >= CHAIN_WORK_LIMIT {
            return None;
        }
        let base = match self.cont_base {
            Some((t, base)) if t == m.cont_type => base,
            _ => {
                let mt = (m.cont_type != u16::MAX).then_some(MoveTypeId(m.cont_type));
                let base = (rules.gate_rows).base(rules.type_selector(mt), self.side.idx());
                self.cont_base = Some((m.cont_type, base));
                base
            }
        }?;
        let ops = steps.ops(m);
        if ops.len() > MAX_WRITES {
            return None;
        }
        // The writes as they leave each square, and what they change in the hash.
        let mut after = [(NONE, Cell::EMPTY); MAX_WRITES];
        let mut n = 0;
        let mut delta = 0;
        for op in ops.iter() {
            let Op::Set(sq, c) = *op else {
                return None;
            };
            let old = match after[..n].iter_mut().find(|w| w.0 == sq) {
                Some(w) => std::mem::replace(&mut w.1, c),
                None => {
                    after[n] = (sq, c);
                    n += 1;
                    *pos.cells.get(sq as usize)?
                }
            };
            delta ^= position::change_hash(sq, old, c);
        }
        let written = &after[..n];
        let at = |sq: u16| match written.iter().find(|w| w.0 == sq) {
            Some(w) => w.1,
            None => pos.cells.get(sq as usize).copied().unwrap_or(Cell::EMPTY),
        };
        // The position's repetition key (`Position::repetition_key`) changes by the cells
        // written only: the turn stays, the last move is not part of it.
        let here = *self.ws.chain_keys.last()?;
        if self.ws.chain_keys.contains(&(here ^ delta)) {
            return Some(false);
        }
        let path = steps.path(m);
        let to = *path.last()?;
        let moved = at(to);
        let may = rules.gate_rows.may_move(base, to, moved, self.side.0, at);
        (!may).then_some(true)
    }

    /// Expands every step of a list. With `"complete captures"`, a step that ends the chain is
    /// dropped when another step of the same jump (same start, same captured pieces) goes on.
    pub(super) fn expand_all(
        &mut self,
        pos: &mut Position,
        steps: &MoveList,
        prefix: &mut MoveList,
        depth: usize,
        out: &mut MoveList,
    ) {
        let complete = self.rules.def.options.complete_captures;
        let mut ends: Vec<(usize, usize, usize)> = Vec::new();
        let mut going_on: Vec<usize> = Vec::new();
        for i in 0..steps.len() {
            let before = out.len();
            let continued = self.expand(pos, steps, i, prefix, depth, out);
            if complete {
                self.ws.dead.resize(out.len(), false);
                if continued {
                    going_on.push(i);
                } else {
                    ends.push((i, before, out.len()));
                }
            }
        }
        if !complete || going_on.is_empty() {
            return;
        }
        let same_jump = |a: usize, b: usize| {
            let (ma, mb) = (&steps.moves[a], &steps.moves[b]);
            steps.path(ma)[0] == steps.path(mb)[0]
                && !steps.captured(ma).is_empty()
                && steps.captured(ma) == steps.captured(mb)
        };
        for (i, lo, hi) in ends {
            if going_on.iter().any(|&j| same_jump(i, j)) {
                for d in &mut self.ws.dead[lo..hi] {
                    *d = true;
                }
            }
        }
    }

    /// Whether a first step that ends its chain is written as it stands (see [`Gen::emit`]):
    /// no `finally` promotion, and no deferred capture to remove.
    #[inline]
    fn plain(&self, m: &Move) -> bool {
        m.finally == 0 && (!self.rules.deferred || m.cap_hi == m.path_hi)
    }

    /// Ends [`Gen::lazy`] before first step `i` writes anything: the first steps before it,
    /// which ended plain, are written as `emit` writes them.
    fn unlazy(&mut self, steps: &MoveList, i: usize, depth: usize, out: &mut MoveList) {
        if depth != 0 || !self.lazy {
            return;
        }
        self.lazy = false;
        for j in 0..i {
            if out.moves.len() >= GEN_MOVE_LIMIT {
                out.note_cut(Cut::TotalMoves);
                return;
            }
            out.push_from(steps, j);
        }
    }

    /// Writes the chain `prefix` + step `i` as one move, then finishes it: a `finally`
    /// promotion of the last step, and removal of pieces whose capture was deferred.
    /// Returns false when the move was left out because `out` is full ([`GEN_MOVE_LIMIT`]).
    fn emit(&mut self, prefix: &MoveList, steps: &MoveList, i: usize, out: &mut MoveList) -> bool {
        if out.moves.len() >= GEN_MOVE_LIMIT {
            out.note_cut(Cut::TotalMoves);
            return false;
        }
        self.join(prefix, steps, i, out);
        let last = steps.moves[i];
        let n = out.moves.len() - 1;
        let m = out.moves[n];
        let before = out.ops.len();
        if last.finally != 0 {
            let path = out.path(&m);
            let dest = path[path.len() - 1];
            let cell = last_write(&out.ops[m.op_lo as usize..], dest);
            if let Some(c) = cell.filter(|c| !c.is_empty()) {
                out.ops.push(Op::Set(
                    dest,
                    Cell {
                        piece: last.finally,
                        ..c
                    },
                ));
                out.moves[n].promote = last.finally;
            }
        }
        if self.rules.deferred {
            for k in m.path_hi..m.cap_hi {
                let sq = out.squares[k as usize];
                if last_write(&out.ops[m.op_lo as usize..], sq).is_some_and(|c| c.marks & DEAD != 0)
                {
                    out.ops.push(Op::Set(sq, Cell::EMPTY));
                }
            }
        }
        if out.ops.len() != before {
            // The move was written last, so its ops stay contiguous.
            out.moves[n].op_hi = out.ops.len() as u32;
        }
        true
    }

    /// Concatenates the chain `prefix` (one move per link) + step `i` into one move.
    fn join(&mut self, prefix: &MoveList, steps: &MoveList, i: usize, out: &mut MoveList) {
        if prefix.is_empty() {
            out.push_from(steps, i);
            return;
        }
        let last = steps.moves[i];
        let first = prefix.moves[0];
        let op_lo = out.ops.len() as u32;
        // The links were written one after another: their ops are one slice.
        let links_ops = first.op_lo as usize..prefix.moves[prefix.len() - 1].op_hi as usize;
        out.ops.extend_from_slice(&prefix.ops[links_ops]);
        out.ops.extend_from_slice(&steps.ops(&last));
        let path_lo = out.squares.len() as u32;
        out.squares.push(prefix.path(&first)[0]);
        for link in &prefix.moves {
            let p = prefix.path(link);
            out.squares.push(p[p.len() - 1]);
        }
        let lp = steps.path(&last);
        out.squares.push(lp[lp.len() - 1]);
        let path_hi = out.squares.len() as u32;
        let mut promote = 0;
        let mut promote_choice = false;
        for lm in &prefix.moves {
            out.squares.extend_from_slice(prefix.captured(lm));
            if lm.promote != 0 {
                promote = lm.promote;
                promote_choice = lm.promote_choice;
            }
        }
        out.squares.extend_from_slice(steps.captured(&last));
        if last.promote != 0 {
            promote = last.promote;
            promote_choice = last.promote_choice;
        }
        out.moves.push(Move {
            op_lo,
            op_hi: out.ops.len() as u32,
            path_lo,
            path_hi,
            cap_hi: out.squares.len() as u32,
            drop: first.drop,
            piece: first.piece,
            promote,
            promote_choice,
            move_type: first.move_type,
            cont_type: last.cont_type,
            finally: 0,
            must_continue: false,
            partial: false,
            pass: false,
            stopped: false,
            huff: 0,
            ..Move::default()
        });
    }
}
