//! The executor's scratch buffers, reused across block runs: what a run has pending, and what
//! one generation notes about the moves it wrote. Below both the executor, which fills them,
//! and the undo log, which keeps one for the `after-move` interpreter.

use super::moves::MoveList;
use super::position::Cell;
use crate::def::{AttrId, PieceId};

#[derive(Clone, Copy, Debug)]
pub(in crate::engine) enum Pending {
    Capture(u16),
    ChangeType(u16, PieceId),
    Owner(u16, u8),
    Flip(u16),
    Attr(u16, AttrId, bool),
    Create(u16, u8, Option<PieceId>),
    Counter(u32, i64),
}

/// The `Scratch::work` past which no block runs; by default none.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct WorkStop(pub(in crate::engine) u64);

impl Default for WorkStop {
    fn default() -> WorkStop {
        WorkStop(u64::MAX)
    }
}

/// Scratch buffers reused across blocks.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub(in crate::engine) pending: Vec<Pending>,
    pub(in crate::engine) subs: Vec<(u16, u16)>,
    pub(in crate::engine) pos_flags: Vec<(u16, u16, bool)>,
    pub(in crate::engine) captured: Vec<(u16, Cell)>,
    /// Pieces a `create` replaced, recycled like captures under `"recycle captures"`.
    pub(in crate::engine) replaced: Vec<Cell>,
    pub(in crate::engine) locals: Vec<i64>,
    /// Instructions run by the blocks run with this scratch, for callers that bound their
    /// work (the evaluator's derivation, `Rules::legal_moves_in`).
    pub work: u64,
    /// Past this `work`, no block runs: it notes [`Cut::GenWork`] and adds nothing
    /// (`Rules::legal_moves_in` sets it for one generation).
    pub(in crate::engine) work_stop: WorkStop,
    /// Set by `Rules::gen_steps` when two of the moves it wrote may be equal (see there).
    pub(in crate::engine) may_repeat: bool,
    /// By square: `stamp` when a move of the current group ends there.
    pub(in crate::engine) dest_stamp: Vec<u32>,
    pub(in crate::engine) stamp: u32,
    /// Leave out drops that cannot capture or promote (`Rules::legal_captures_in`).
    pub(in crate::engine) skip_quiet_drops: bool,
    /// Set when drops were left out that the side had pieces in hand for.
    pub(in crate::engine) drops_skipped: bool,
    /// Write only the first [`QUIET_KEPT`](crate::engine::QUIET_KEPT) quiet simple moves of a generation of first
    /// steps (`Rules::legal_captures_in`): a simple move that neither captures nor promotes.
    pub(in crate::engine) skip_quiet: bool,
    /// The quiet simple moves left out so far.
    pub(in crate::engine) quiet_skipped: usize,
    /// Set when the moves written and left out by one generation reach
    /// [`BLOCK_MOVE_LIMIT`](crate::engine::BLOCK_MOVE_LIMIT), where leaving moves out could change which the limit cuts.
    pub(in crate::engine) quiet_overflow: bool,
    /// With `skip_quiet_drops`: the drops generated all the same, by type and square
    /// (`check_mask[type * n_pos + square]`, `Rules::mark_checking_drops`), when set.
    pub(in crate::engine) check_drops: bool,
    pub(in crate::engine) check_mask: Vec<bool>,
    /// The entries of `check_mask` set.
    pub(in crate::engine) check_marked: Vec<u32>,
}

impl Scratch {
    /// Starts a group of moves for [`Scratch::note_group`].
    #[inline]
    pub(in crate::engine) fn new_group(&mut self, n_pos: usize) {
        if self.dest_stamp.len() != n_pos || self.stamp == u32::MAX {
            self.dest_stamp.clear();
            self.dest_stamp.resize(n_pos, 0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// [`Scratch::note_group`] of a group of one move, `out.moves[at]`: it reaches one
    /// destination, so only its path's start and its destination's square are checked.
    #[inline]
    pub(in crate::engine) fn note_single(
        &mut self,
        out: &MoveList,
        at: usize,
        start: u16,
        n_pos: usize,
    ) {
        let m = &out.moves[at];
        let (from, to) = out.ends(m);
        if from != start || to as usize >= n_pos {
            self.may_repeat = true;
        }
    }

    /// Notes the moves one start square `start` wrote, `out.moves[first..]`: none, one
    /// ([`Scratch::note_single`]) or a group ([`Scratch::note_group`]).
    #[inline(always)]
    pub(in crate::engine) fn note_square(
        &mut self,
        out: &MoveList,
        first: usize,
        start: u16,
        n_pos: usize,
    ) {
        match out.moves.len() - first {
            0 => {}
            1 => self.note_single(out, first, start, n_pos),
            _ => {
                self.new_group(n_pos);
                self.note_group(out, first, start);
            }
        }
    }

    /// Notes the moves `out.moves[first..]`, all of one group (the moves of one start square,
    /// or all drops, whose path begins at `start`): two equal moves have one path, so a list
    /// whose groups each reach every destination at most once, from their own start, holds
    /// no two equal moves. Anything else sets `may_repeat`.
    #[inline]
    pub(in crate::engine) fn note_group(&mut self, out: &MoveList, first: usize, start: u16) {
        for m in &out.moves[first..] {
            let (from, to) = out.ends(m);
            match self.dest_stamp.get_mut(to as usize) {
                Some(st) if from == start && *st != self.stamp => *st = self.stamp,
                _ => self.may_repeat = true,
            }
        }
    }
}
