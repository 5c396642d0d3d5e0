//! The buffers reused by move generation and the turn layer, one per thread of play.

use crate::engine::legal::Safety;
use crate::engine::{MoveList, Scratch, UndoLog};

/// Buffers reused by move generation.
#[derive(Default)]
pub struct Workspace {
    pub(super) scratch: Scratch,
    pub(super) bufs: Vec<MoveList>,
    pub(super) log: UndoLog,
    pub(super) keep: Vec<bool>,
    pub(super) dead: Vec<bool>,
    pub(super) fingerprints: Vec<u64>,
    pub(super) sorted: Vec<u64>,
    /// The list being filtered holds no two equal moves (`Scratch::note_group`).
    pub(super) distinct: bool,
    /// The list being filtered was generated from the blocks of one rank (one rank pass).
    pub(super) one_rank: bool,
    /// The keys of `"maximal captures"`.
    pub(super) keys: Vec<u64>,
    /// In [`Mode::Captures`](crate::engine::scratch::Mode::Captures): a legal move was left
    /// out.
    pub(super) other_legal: bool,
    /// `Rules::legal_captures_in` keeps the drops that attack another side's royal piece
    /// ([`Workspace::set_checking_drops`]).
    pub(super) checking_drops: bool,
    pub(super) safety: Safety,
    /// The whole turns the last call of `Rules::legal_moves_in` held before its filters
    /// (without partial moves, the single steps generated).
    pub(super) generated: usize,
    /// Repetition keys of the positions the chain being expanded has passed through, its
    /// start first.
    pub(super) chain_keys: Vec<u64>,
    /// By square (64 once used), the destinations `Rules::count_legal` counted for the piece
    /// there (read on the squares it counted in part, and by `Rules::legal_move_at`).
    pub(super) counted_to: Vec<u64>,
    /// What the last `Rules::count_legal_noted` learnt of its position.
    pub(super) counted: CountMemo,
}

/// What [`Rules::count_legal_noted`](super::Rules::count_legal_noted) learnt of a position, for
/// `Rules::legal_move_at` to find one move without writing the others.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CountMemo {
    /// The position's hash; `None` when nothing is known.
    pub hash: Option<u64>,
    /// The list that `count_legal_noted` was given holds every legal move, in order.
    pub whole: bool,
    /// Else it holds the legal moves of what was generated (the rest), unless only a pass
    /// that the counted moves make illegal (`rest_void`).
    pub rest_void: bool,
    /// The squares whose moves were counted whole, and those counted in part.
    pub skip: u64,
    pub part: u64,
    /// Where the counted moves of a piece neither royal nor pinned may land.
    pub kept: u64,
    /// The royal piece whose steps were counted (`NONE` for none), and where they may land.
    pub king: u16,
    pub king_safe: u64,
}

impl Workspace {
    /// Whether `Rules::legal_captures_in` also keeps the drops that would attack a royal
    /// piece of another side (found from the attack tables: leaps and slides).
    pub fn set_checking_drops(&mut self, on: bool) {
        self.checking_drops = on;
    }

    /// Whether a piece of type `piece` (index) standing on the empty square `sq` would
    /// attack a royal piece of another side, as last marked by `Rules::mark_checks`.
    #[inline]
    pub fn gives_check_from(&self, piece: usize, sq: u16, n_pos: usize) -> bool {
        (self.scratch.check_mask)
            .get(piece * n_pos + sq as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Whether the list given to the last [`Rules::count_legal_noted`](super::Rules::count_legal_noted)
    /// holds every legal move of its position, in order (the count took the full list).
    pub fn counted_whole(&self) -> bool {
        self.counted.hash.is_some() && self.counted.whole
    }

    pub(super) fn take_buf(&mut self) -> MoveList {
        let mut b = self.bufs.pop().unwrap_or_default();
        b.clear();
        b
    }
}
