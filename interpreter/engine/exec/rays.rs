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
        if scratch.work >= scratch.work_stop.0 {
            out.note_cut(Cut::GenWork);
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
        let blockers = r.mask & occ.get(ex.pos);
        let (empty, rounds, blocker) = if blockers == 0 {
            // Off the board after the last square: its step is not counted.
            (r.len, r.len - 1, NONE)
        } else if r.up {
            let b = blockers.trailing_zeros();
            let k = (r.mask & ((1u64 << b) - 1)).count_ones();
            (k, k, b as u16)
        } else {
            let b = 63 - blockers.leading_zeros();
            let k = (r.mask >> b >> 1).count_ones();
            (k, k, b as u16)
        };
        if let Some(quiet) = rays.heads.get(r.quiet as usize) {
            for &q in squares.iter().take(empty as usize) {
                ex.push_simple(quiet, e.move_type, sq, q, out);
            }
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
