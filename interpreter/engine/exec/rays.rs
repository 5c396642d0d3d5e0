//! Generation of the `rays` fast path's slides (`compiled/rays.rs`): the moves the straight
//! runner writes, found over the occupied squares with one mask and one bit scan.

use super::{Exec, Generator, Scratch, STEP_LIMIT};
use crate::def::NONE;
use crate::engine::gate_test::passes;
use crate::engine::gates::{RowFlags, SqGate};
use crate::engine::moves::{Cut, MoveList};
use crate::engine::rays::Occupied;
use crate::engine::special::GateEntry;

impl Generator {
    /// Runs the slide of gate `g` (entry `e`, `RowFlags::RAY`) from `sq` (`Rules::gen_rows`): the
    /// moves the straight runner writes, found over the occupied squares `occ`.
    #[inline(never)]
    pub(super) fn run_ray(
        &self,
        ex: &mut Exec,
        (g, e, sq): (&SqGate, &GateEntry, u16),
        occ: &mut Occupied,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        let rays = &self.rays;
        let Some(r) = rays.rays.get(g.simple as usize) else {
            return;
        };
        if scratch.out_of_work(out) {
            return;
        }
        let Some(squares) = (rays.squares)
            .get(r.at as usize..)
            .and_then(|s| s.get(..r.len as usize))
        else {
            return;
        };
        ex.move_type = e.move_type;
        ex.from = sq;
        ex.first_move = out.moves.len();
        // The commonest ray in play: its first square (the gate's) holds a piece it does not
        // take. No move, no round counted.
        let first = ex.pos.cell_or_empty(g.q);
        if !first.is_empty() && !passes(r.capture_mask, first, ex.side.0) {
            ex.steps = 0;
            scratch.work = scratch.work.saturating_add(e.weight as u64);
            return;
        }
        let occ = occ.get(ex.pos);
        let (empty, rounds, blocker) = if r.mask & occ == 0 {
            // Off the board after the last square: its step is not counted.
            (r.len, r.len - 1, NONE)
        } else {
            // The nearest occupied square of the ray (its squares are few: a scan of them
            // costs less than counting the mask's bits below the blocker).
            let k = (squares.iter())
                .position(|&q| occ >> (q & 63) & 1 != 0)
                .unwrap_or(squares.len());
            let b = squares.get(k).copied().unwrap_or(NONE);
            (k as u32, k as u32, b)
        };
        if let Some(quiet) = rays.heads.get(r.quiet as usize) {
            let quiet_squares = squares.get(..empty as usize).unwrap_or(squares);
            ex.push_quiet_run(quiet, e.move_type, sq, quiet_squares, out);
        }
        if blocker != NONE {
            let c = ex.pos.cells[blocker as usize];
            if passes(r.capture_mask, c, ex.side.0) {
                if let Some(capture) = rays.heads.get(r.capture as usize) {
                    ex.push_simple(capture, e.move_type, sq, blocker, out);
                }
            }
        }
        ex.steps = rounds.saturating_mul(r.round);
        scratch.work = scratch
            .work
            .saturating_add(ex.steps as u64)
            .saturating_add(e.weight as u64);
        if ex.steps > STEP_LIMIT {
            out.note_cut(Cut::Steps);
        }
    }

    /// The gate-row entries that the `rays` path answers (`Rules::path_counts`).
    pub(in crate::engine) fn ray_gates(&self) -> usize {
        (self.gate_rows.gates.iter())
            .filter(|g| g.flags.contains(RowFlags::RAY))
            .count()
    }
}
