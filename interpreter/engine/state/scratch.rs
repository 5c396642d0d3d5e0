//! The executor's scratch buffers, reused across block runs: what a run has pending, and what
//! one generation notes about the moves it wrote. Below both the executor, which fills them,
//! and the undo log, which keeps one for the `after-move` interpreter.

use super::moves::{Cut, MoveList};
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

/// What a run of the executor is for: the one switch between its uses, fixed when an `Exec`
/// is made (`Exec::new`) and, for generations, kept in the [`Scratch`] they run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(in crate::engine) enum Mode {
    /// Every move of the side to move.
    #[default]
    Generate,
    /// The moves that capture or promote, as a search's quiescence wants them
    /// (`Rules::legal_captures_in`); what may be left out of the generation is [`Captures`].
    Captures(Captures),
    /// Whether a piece of the side running could capture on `target` (`Rules::attacked`): the
    /// run writes no move and sets `Exec::hit`; an empty `target` holds an imagined piece of
    /// `defender`, and `attacked?` and `defended?` are false, so that the test cannot recurse.
    Attack { target: u16, defender: u8 },
    /// The `after-move` program of a move, which read `capture-made?` (`captured`) and
    /// `moved-piece?` (`piece`: the type + 1 that moved).
    AfterMove { captured: bool, piece: u16 },
}

/// What a generation for [`Mode::Captures`] leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) struct Captures {
    /// Only the first [`QUIET_KEPT`](crate::engine::QUIET_KEPT) quiet simple moves (neither
    /// capturing nor promoting) of a generation of first steps are written.
    pub few_quiet: bool,
    /// Which drops are generated.
    pub drops: Drops,
}

/// The drops a generation for [`Mode::Captures`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) enum Drops {
    /// Every drop.
    All,
    /// None (the game's drops can neither capture nor promote).
    None,
    /// Only those that attack a royal piece of another side (`Scratch::check_mask`).
    Checking,
}

impl Mode {
    /// The first quiet simple moves only ([`Captures::few_quiet`]).
    #[inline]
    pub(in crate::engine) fn few_quiet(self) -> bool {
        matches!(
            self,
            Mode::Captures(Captures {
                few_quiet: true,
                ..
            })
        )
    }

    /// The drops written, [`Drops::All`] outside [`Mode::Captures`].
    #[inline]
    pub(in crate::engine) fn drops(self) -> Drops {
        match self {
            Mode::Captures(c) => c.drops,
            _ => Drops::All,
        }
    }

    /// Whether only captures and promotions are wanted.
    #[inline]
    pub(in crate::engine) fn captures(self) -> bool {
        matches!(self, Mode::Captures(_))
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
    dest_stamp: Vec<u32>,
    stamp: u32,
    /// What the generations run with this scratch are for ([`Mode::Generate`] or
    /// [`Mode::Captures`]; `Rules::legal_captures_in` sets the latter for its passes).
    pub(in crate::engine) mode: Mode,
    /// Set when drops were left out that the side had pieces in hand for.
    pub(in crate::engine) drops_skipped: bool,
    /// The quiet simple moves left out so far.
    pub(in crate::engine) quiet_skipped: usize,
    /// Set when the moves written and left out by one generation reach
    /// [`BLOCK_MOVE_LIMIT`](crate::engine::BLOCK_MOVE_LIMIT), where leaving moves out could change which the limit cuts.
    pub(in crate::engine) quiet_overflow: bool,
    /// With [`Drops::Checking`]: the drops generated all the same, by type and square
    /// (`check_mask[type * n_pos + square]`, `Rules::mark_checking_drops`).
    pub(in crate::engine) check_mask: Vec<bool>,
    /// The entries of `check_mask` set.
    pub(in crate::engine) check_marked: Vec<u32>,
    /// Squares whose pieces the next generation of the gate rows over the mover's square
    /// set leaves out, and clears (`Rules::count_legal` counts their moves instead).
    pub(in crate::engine) count_skip: u64,
    /// Squares on which that generation leaves out the gates marked `RowFlags::COUNTED`
    /// only, and clears.
    pub(in crate::engine) count_part: u64,
}

impl Scratch {
    /// Whether the work budget of this generation is spent (`work_stop`): then a block
    /// about to run adds nothing, and [`Cut::GenWork`] is noted on `out`.
    #[inline(always)]
    pub(in crate::engine) fn out_of_work(&self, out: &mut MoveList) -> bool {
        let spent = self.work >= self.work_stop.0;
        if spent {
            out.note_cut(Cut::GenWork);
        }
        spent
    }

    /// Opens one budget of `limit` more work for a whole generation (its blocks, chains and
    /// royal safety).
    #[inline(always)]
    pub(in crate::engine) fn open_budget(&mut self, limit: u64) {
        self.work_stop = WorkStop(self.work.saturating_add(limit));
    }

    /// Closes the budget [`Scratch::open_budget`] opened, noting on `out` a budget that
    /// royal safety's attack tests (which write into lists of their own) used up.
    #[inline(always)]
    pub(in crate::engine) fn close_budget(&mut self, out: &mut MoveList) {
        self.out_of_work(out);
        self.work_stop = WorkStop::default();
    }

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
    fn note_single(&mut self, out: &MoveList, at: usize, start: u16, n_pos: usize) {
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
