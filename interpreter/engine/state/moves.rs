//! Moves as data: a header per move and shared arenas of board writes and squares, so that
//! generating a move allocates nothing once the buffers have grown.

use crate::engine::position::Cell;

/// One elementary change a move makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Write a cell.
    Set(u16, Cell),
    /// Add to an off-board store (`player * n_pieces + piece`).
    Store(u32, i32),
    /// Add to a counter slot.
    Counter(u32, i32),
}

/// A move's fixed fields; its ops and squares live in the [`MoveList`] arenas, except for a
/// simple move (`simple`: one piece lifted from `sq[0]` and put on `sq[1]` as `cell`,
/// capturing at most the occupant of `sq[1]`), which is all in its header: its two ops
/// (`Set(sq[0], EMPTY)`, `Set(sq[1], cell)`) and its squares are read from there, and the
/// arena bounds are 0 but for `cap_hi`, the number of pieces it captures (0 or 1). Read a
/// move's ops, path and captured squares through [`MoveList::ops`], [`MoveList::path`] and
/// [`MoveList::captured`], never through the bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Move {
    /// `ops[op_lo..op_hi]`.
    pub op_lo: u32,
    /// End of the ops.
    pub op_hi: u32,
    /// `squares[path_lo..path_hi]`: the from-square (or `NONE` for a drop), then every landing square.
    pub path_lo: u32,
    /// End of the path.
    pub path_hi: u32,
    /// `squares[path_hi..cap_hi]`: the squares of captured pieces, in capture order.
    pub cap_hi: u32,
    /// Dropped piece type + 1 (0: not a drop).
    pub drop: u16,
    /// Type + 1 of the piece that made the move (the dropped type for a drop).
    pub piece: u16,
    /// Promotion type + 1 (0: none), as chosen by `(add T…)`.
    pub promote: u16,
    /// The promotion was one of several offered (and so is part of the move's name).
    pub promote_choice: bool,
    /// The move type of the first step's block (`u16::MAX`: untyped).
    pub move_type: u16,
    /// The move type continuations must use, for a partial step (`u16::MAX`: any).
    pub cont_type: u16,
    /// Piece type + 1 to promote to if the chain ends with this step (0: none).
    pub finally: u16,
    /// The step is legal only if the chain goes on from it.
    pub must_continue: bool,
    /// A partial step (`add-partial`) that the same piece may continue.
    pub partial: bool,
    /// A pass (no piece moves).
    pub pass: bool,
    /// The chain stopped although the piece could go on (`"pass partial"`).
    pub stopped: bool,
    /// Square + 1 of the enemy piece huffed before the move (0: none; `"huffing"`).
    pub huff: u16,
    /// A simple move, kept in the header (see [`Move`]).
    pub simple: bool,
    /// A simple move's from-square, destination, and destination again (its captured
    /// square, when `cap_hi` is 1).
    pub sq: [u16; 3],
    /// The cell a simple move writes at its destination.
    pub cell: Cell,
}

/// The ops of a move ([`MoveList::ops`]): a slice of the list's arena, or a simple move's
/// two ops made from its header.
#[derive(Clone, Copy, Debug)]
pub enum Ops<'a> {
    /// Ops in the arena.
    Slice(&'a [Op]),
    /// A simple move's ops.
    Two([Op; 2]),
}

impl std::ops::Deref for Ops<'_> {
    type Target = [Op];
    #[inline]
    fn deref(&self) -> &[Op] {
        match self {
            Ops::Slice(s) => s,
            Ops::Two(a) => a,
        }
    }
}

impl PartialEq for Ops<'_> {
    fn eq(&self, other: &Ops<'_>) -> bool {
        **self == **other
    }
}

impl Move {
    /// Number of pieces captured.
    pub fn n_captures(&self) -> usize {
        (self.cap_hi - self.path_hi) as usize
    }

    /// Whether the move took a piece, as `after-move`'s `capture-made?` reads it (a huffed
    /// piece counts).
    #[inline(always)]
    pub fn capture_made(&self) -> bool {
        self.cap_hi > self.path_hi || self.huff != 0
    }
}

/// Why a generation left moves out: the first limit it reached (docs/semantics.md, "Limits").
/// Only a broken rules file reaches one; front ends turn it into a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// A block ran more than [`crate::engine::STEP_LIMIT`] instructions.
    Steps,
    /// A block run added more than [`crate::engine::BLOCK_MOVE_LIMIT`] moves.
    BlockMoves,
    /// One generation reached [`crate::engine::GEN_MOVE_LIMIT`] moves.
    TotalMoves,
    /// Chain expansion played [`crate::engine::CHAIN_WORK_LIMIT`] partial steps.
    ChainWork,
    /// One generation did more than [`crate::engine::GEN_WORK_LIMIT`] units of work.
    GenWork,
}

impl Cut {
    /// What happened, for a warning.
    pub fn describe(self) -> String {
        match self {
            Cut::Steps => format!(
                "a move block ran more than {} instructions and was stopped (an endless loop?)",
                crate::engine::STEP_LIMIT
            ),
            Cut::BlockMoves => format!(
                "a move block added more than {} moves from one square and was stopped (an endless loop?)",
                crate::engine::BLOCK_MOVE_LIMIT
            ),
            Cut::TotalMoves => format!(
                "one position has more than {} moves; the rest were left out",
                crate::engine::GEN_MOVE_LIMIT
            ),
            Cut::ChainWork => format!(
                "chains of partial moves took more than {} steps; the longer chains were ended early",
                crate::engine::CHAIN_WORK_LIMIT
            ),
            Cut::GenWork => format!(
                "one position's move blocks ran more than {} instructions in all; the blocks left were not run (an endless loop?)",
                crate::engine::GEN_WORK_LIMIT
            ),
        }
    }
}

/// A list of moves with their arenas; cleared and reused between calls.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    /// Move headers in generation order.
    pub moves: Vec<Move>,
    /// Board writes of all moves.
    pub ops: Vec<Op>,
    /// Paths and captured squares of all moves.
    pub squares: Vec<u16>,
    /// Set when a limit left moves out (the first one reached).
    pub cut: Option<Cut>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Empties the list, keeping its capacity.
    pub fn clear(&mut self) {
        self.moves.clear();
        self.ops.clear();
        self.squares.clear();
        self.cut = None;
    }

    /// Records that a limit left moves out (the first reason is kept).
    #[inline]
    pub fn note_cut(&mut self, why: Cut) {
        self.cut.get_or_insert(why);
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when there are no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The ops of a move.
    #[inline]
    pub fn ops<'a>(&'a self, m: &Move) -> Ops<'a> {
        if m.simple {
            Ops::Two([Op::Set(m.sq[0], Cell::EMPTY), Op::Set(m.sq[1], m.cell)])
        } else {
            Ops::Slice(&self.ops[m.op_lo as usize..m.op_hi as usize])
        }
    }

    /// Number of ops of a move.
    #[inline]
    pub fn n_ops(&self, m: &Move) -> usize {
        if m.simple {
            2
        } else {
            (m.op_hi - m.op_lo) as usize
        }
    }

    /// The path of a move: from-square (or `NONE`), then landing squares.
    #[inline]
    pub fn path<'a>(&'a self, m: &'a Move) -> &'a [u16] {
        if m.simple {
            &m.sq[..2]
        } else {
            &self.squares[m.path_lo as usize..m.path_hi as usize]
        }
    }

    /// The first and last squares of a move's path.
    #[inline(always)]
    pub fn ends(&self, m: &Move) -> (u16, u16) {
        if m.simple {
            (m.sq[0], m.sq[1])
        } else {
            (
                self.squares[m.path_lo as usize],
                self.squares[m.path_hi as usize - 1],
            )
        }
    }

    /// The squares of the pieces a move captures.
    #[inline]
    pub fn captured<'a>(&'a self, m: &'a Move) -> &'a [u16] {
        if m.simple {
            &m.sq[2..2 + m.cap_hi as usize]
        } else {
            &self.squares[m.path_hi as usize..m.cap_hi as usize]
        }
    }

    /// Copies move `i` of `other` to the end of this list.
    pub fn push_from(&mut self, other: &MoveList, i: usize) {
        let m = other.moves[i];
        if m.simple {
            // All in the header.
            self.moves.push(m);
            return;
        }
        let ops_lo = self.ops.len() as u32;
        self.ops.extend_from_slice(&other.ops(&m));
        self.close_move(ops_lo, other, &m);
    }

    /// Ends a move whose ops were written to this list from `op_lo` on: copies the path and
    /// captured squares of `m`, a move of `other`, and pushes a header like `m`'s.
    pub fn close_move(&mut self, op_lo: u32, other: &MoveList, m: &Move) -> &mut Move {
        let sq_lo = self.squares.len() as u32;
        self.squares.extend_from_slice(other.path(m));
        let path_hi = self.squares.len() as u32;
        self.squares.extend_from_slice(other.captured(m));
        self.moves.push(Move {
            op_lo,
            op_hi: self.ops.len() as u32,
            path_lo: sq_lo,
            path_hi,
            cap_hi: self.squares.len() as u32,
            simple: false,
            ..*m
        });
        let n = self.moves.len() - 1;
        &mut self.moves[n]
    }

    /// Keeps only the moves for which `keep` is true (arenas are left as they are).
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        self.moves.retain(|m| keep(m));
    }
}
