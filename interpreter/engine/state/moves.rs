//! Moves as data: a header per move and shared arenas of board writes and squares, so that
//! generating a move allocates nothing once the buffers have grown.

use crate::engine::exec::Scratch;
use crate::engine::position::{change_hash, Cell, Position};

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

/// What `make` needs to take a move back.
#[derive(Clone, Debug, Default)]
pub struct UndoLog {
    cells: Vec<(u16, Cell)>,
    stores: Vec<(u32, i32)>,
    counters: Vec<(u32, i32)>,
    frames: Vec<Frame>,
    /// Buffers of the `after-move` program, reused by every `make`.
    pub(in crate::engine) after_ops: Vec<Op>,
    pub(in crate::engine) after_scratch: Scratch,
    /// The `after-move` program's piece tallies by depth, each with the hash of the position
    /// it counts (`after/`).
    pub(in crate::engine) after_tallies: Vec<crate::engine::after::Tally>,
    /// The plain `after-move` program's settings, remembered by their inputs (`after/`).
    pub(in crate::engine) after_memo: Vec<crate::engine::after::Memo>,
    /// The plain program's tally-only conditions, remembered by the tally (`after/`).
    pub(in crate::engine) after_bits: Vec<([u32; 8], [u64; 4])>,
    /// The program the three above were kept for (`after::Prog::id`; 0: none).
    pub(in crate::engine) after_prog: u64,
}

/// One applied move: where its entries begin, and the state that is restored whole.
#[derive(Clone, Copy, Debug)]
struct Frame {
    cells: u32,
    stores: u32,
    counters: u32,
    saved: Saved,
}

/// The position's turn, last move and hash parts as a move found them: what both an undo
/// frame and a [`SimpleUndo`] put back.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Saved {
    turn: u32,
    last_from: u16,
    last_to: u16,
    hash: u64,
    counters_hash: u64,
    turn_key: u64,
}

impl Saved {
    #[inline(always)]
    fn of(pos: &Position) -> Saved {
        Saved {
            turn: pos.turn,
            last_from: pos.last_from,
            last_to: pos.last_to,
            hash: pos.hash,
            counters_hash: pos.counters_hash,
            turn_key: pos.turn_key,
        }
    }

    #[inline(always)]
    fn restore(&self, pos: &mut Position) {
        pos.turn = self.turn;
        pos.last_from = self.last_from;
        pos.last_to = self.last_to;
        pos.hash = self.hash;
        pos.counters_hash = self.counters_hash;
        pos.turn_key = self.turn_key;
    }
}

impl UndoLog {
    /// An empty log.
    pub fn new() -> UndoLog {
        UndoLog::default()
    }

    /// Forgets every move, keeping the buffers (and what the `after-move` program remembers
    /// by its inputs, which does not depend on the position).
    pub fn clear(&mut self) {
        self.cells.clear();
        self.stores.clear();
        self.counters.clear();
        self.frames.clear();
        self.after_tallies.clear();
    }

    /// Number of moves that can be taken back.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// The last applied move: the hash of the position before it, and the cells it
    /// overwrote (square, old cell), in the order written.
    pub(in crate::engine) fn last_cells(&self) -> Option<(u64, &[(u16, Cell)])> {
        let f = self.frames.last()?;
        Some((f.saved.hash, &self.cells[f.cells as usize..]))
    }

    /// The cells overwritten since move `d` (0 = the first that can be taken back) was
    /// applied, (square, old cell) in the order written; none when there is no such move.
    pub(in crate::engine) fn cells_since(&self, d: usize) -> &[(u16, Cell)] {
        match self.frames.get(d) {
            Some(f) => &self.cells[f.cells as usize..],
            None => &[],
        }
    }
}

/// Applies ops to a position, recording what they overwrite, and sets turn and last move.
#[inline(always)]
pub fn apply(
    pos: &mut Position,
    ops: &[Op],
    turn: u32,
    last_from: u16,
    last_to: u16,
    log: &mut UndoLog,
) {
    push_frame(pos, log);
    apply_in_frame(pos, ops, turn, last_from, last_to, log);
}

/// Opens an undo frame: the position as it is now is what [`undo_in_frame`] and [`revert`]
/// restore.
#[inline(always)]
pub(in crate::engine) fn push_frame(pos: &Position, log: &mut UndoLog) {
    log.frames.push(Frame {
        cells: log.cells.len() as u32,
        stores: log.stores.len() as u32,
        counters: log.counters.len() as u32,
        saved: Saved::of(pos),
    });
}

/// [`apply`] into the frame last opened, which must hold nothing yet (opened by
/// [`push_frame`], or emptied by [`undo_in_frame`]): perft's leaves, all made from the same
/// position, share one frame.
#[inline(always)]
pub(in crate::engine) fn apply_in_frame(
    pos: &mut Position,
    ops: &[Op],
    turn: u32,
    last_from: u16,
    last_to: u16,
    log: &mut UndoLog,
) {
    apply_ops(pos, ops, log);
    pos.set_turn(turn, last_from, last_to);
}

/// [`apply_in_frame`] for a simple move (see [`Move`]): its two cell writes, hashed and
/// logged as [`apply_ops`] does, without the op interpreter.
#[inline(always)]
pub(in crate::engine) fn apply_simple_in_frame(pos: &mut Position, m: &Move, turn: u32, log: &mut UndoLog) {
    let [from, to, _] = m.sq;
    let (old_from, old_to) = write_simple(pos, m, turn);
    log.cells
        .extend_from_slice(&[(from, old_from), (to, old_to)]);
}

/// A simple move's two cell writes, hashed, and the turn set: the cells it overwrote.
#[inline(always)]
fn write_simple(pos: &mut Position, m: &Move, turn: u32) -> (Cell, Cell) {
    let [from, to, _] = m.sq;
    let old_from = std::mem::replace(&mut pos.cells[from as usize], Cell::EMPTY);
    let old_to = std::mem::replace(&mut pos.cells[to as usize], m.cell);
    pos.hash ^= change_hash(from, old_from, Cell::EMPTY) ^ change_hash(to, old_to, m.cell);
    pos.set_turn(turn, from, to);
    (old_from, old_to)
}

/// What [`make_simple`] overwrote: a simple move played outside the undo log and taken back
/// by [`unmake_simple`] (perft's leaves, where nothing is played on top of it).
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct SimpleUndo {
    from: u16,
    to: u16,
    old_from: Cell,
    old_to: Cell,
    saved: Saved,
    /// The counter slot the `after-move` clock changed and its value before (`u32::MAX`: none).
    counter: (u32, i32),
}

/// Plays a simple move (see [`Move`]) as [`apply_simple_in_frame`] does (the same cell writes,
/// hash and turn), keeping what it overwrote in the returned record instead of the log.
#[inline(always)]
pub(in crate::engine) fn make_simple(pos: &mut Position, m: &Move, turn: u32) -> SimpleUndo {
    let [from, to, _] = m.sq;
    let saved = Saved::of(pos);
    let (old_from, old_to) = write_simple(pos, m, turn);
    SimpleUndo {
        from,
        to,
        old_from,
        old_to,
        saved,
        counter: (u32::MAX, 0),
    }
}

/// Takes back a move played by [`make_simple`] (and the clock run after it).
#[inline(always)]
pub(in crate::engine) fn unmake_simple(pos: &mut Position, u: &SimpleUndo) {
    pos.cells[u.to as usize] = u.old_to;
    pos.cells[u.from as usize] = u.old_from;
    if let Some(c) = pos.counters.get_mut(u.counter.0 as usize) {
        *c = u.counter.1;
    }
    u.saved.restore(pos);
}

impl SimpleUndo {
    /// Notes that the counter in `slot` held `old` before the move changed it.
    #[inline(always)]
    pub(in crate::engine) fn note_counter(&mut self, slot: u32, old: i32) {
        self.counter = (slot, old);
    }
}

/// Applies more ops as part of the move last applied (undone with it).
pub fn apply_more(pos: &mut Position, ops: &[Op], log: &mut UndoLog) {
    apply_ops(pos, ops, log);
}

/// The ops of [`apply`]: cell writes hashed in one running value, each overwritten cell kept.
#[inline(always)]
fn apply_ops(pos: &mut Position, ops: &[Op], log: &mut UndoLog) {
    let mut h = pos.hash;
    for op in ops {
        if let Op::Set(sq, cell) = *op {
            let old = std::mem::replace(&mut pos.cells[sq as usize], cell);
            h ^= change_hash(sq, old, cell);
            log.cells.push((sq, old));
        } else {
            pos.hash = h;
            apply_other(pos, op, log);
            h = pos.hash;
        }
    }
    pos.hash = h;
}

/// A store or counter op of [`apply_ops`] (rarer than cell writes, so kept out of its loop).
#[inline(never)]
fn apply_other(pos: &mut Position, op: &Op, log: &mut UndoLog) {
    match *op {
        Op::Set(..) => apply_ops(pos, std::slice::from_ref(op), log),
        Op::Store(idx, delta) => {
            let before = pos.store[idx as usize];
            pos.add_store(idx, delta);
            log.stores
                .push((idx, pos.store[idx as usize] as i32 - before as i32));
        }
        Op::Counter(idx, delta) => {
            pos.add_counter(idx, delta);
            log.counters.push((idx, delta));
        }
    }
}

/// Adds to a counter as part of the move last applied (one counter op of [`apply_more`]).
#[inline]
pub(in crate::engine) fn apply_counter(pos: &mut Position, idx: u32, delta: i32, log: &mut UndoLog) {
    pos.add_counter(idx, delta);
    log.counters.push((idx, delta));
}

/// Takes back the last applied move. Cells, stores and counters are written back without
/// hashing; the hash is restored from the frame.
pub fn revert(pos: &mut Position, log: &mut UndoLog) {
    revert_inline(pos, log);
}

/// [`revert`], inlined (perft's loop over the leaves).
#[inline(always)]
pub(in crate::engine) fn revert_inline(pos: &mut Position, log: &mut UndoLog) {
    if undo_in_frame(pos, log) {
        log.frames.pop();
    }
}

/// Takes back what was applied since the last frame was opened, and keeps the frame (empty)
/// open; false when there is none.
#[inline(always)]
pub(in crate::engine) fn undo_in_frame(pos: &mut Position, log: &mut UndoLog) -> bool {
    let Some(&f) = log.frames.last() else {
        return false;
    };
    let lo = f.cells as usize;
    for &(sq, old) in log.cells[lo..].iter().rev() {
        pos.cells[sq as usize] = old;
    }
    log.cells.truncate(lo);
    if log.counters.len() > f.counters as usize {
        for &(idx, delta) in log.counters[f.counters as usize..].iter().rev() {
            let c = &mut pos.counters[idx as usize];
            *c = c.wrapping_sub(delta);
        }
        log.counters.truncate(f.counters as usize);
    }
    if log.stores.len() > f.stores as usize {
        for &(idx, delta) in log.stores[f.stores as usize..].iter().rev() {
            let n = &mut pos.store[idx as usize];
            *n = (*n as i64 - delta as i64).clamp(0, u32::MAX as i64) as u32;
        }
        log.stores.truncate(f.stores as usize);
    }
    f.saved.restore(pos);
    true
}

/// Closes the frame last opened without restoring anything (after [`undo_in_frame`]).
#[inline(always)]
pub(in crate::engine) fn pop_frame(log: &mut UndoLog) {
    log.frames.pop();
}
