//! Making and taking back moves: the undo log, the ops applied with it, and what the compiled
//! `after-move` program keeps in it between moves.

use crate::engine::moves::{Move, Op};
use crate::engine::position::{change_hash, Cell, Owned, Position};
use crate::engine::scratch::Scratch;

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
    pub(in crate::engine) after_tallies: Vec<Tally>,
    /// The plain `after-move` program's settings, remembered by their inputs (`after/`).
    pub(in crate::engine) after_memo: Vec<Memo>,
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
struct Saved {
    turn: u32,
    last_from: u16,
    last_to: u16,
    hash: u64,
    counters_hash: u64,
    turn_key: u64,
    owned: Owned,
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
            owned: pos.owned,
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
        pos.owned = self.owned;
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
pub(in crate::engine) fn apply_simple_in_frame(
    pos: &mut Position,
    m: &Move,
    turn: u32,
    log: &mut UndoLog,
) {
    let [from, to, _] = m.sq;
    let (old_from, old_to) = write_simple(pos, m, turn, true);
    log.cells
        .extend_from_slice(&[(from, old_from), (to, old_to)]);
}

/// A simple move's two cell writes, hashed, and the turn set: the cells it overwrote. The
/// square sets of the pieces follow (`sets`), or are marked out of date (`Owned::ok`).
#[inline(always)]
fn write_simple(pos: &mut Position, m: &Move, turn: u32, sets: bool) -> (Cell, Cell) {
    let [from, to, _] = m.sq;
    let old_from = std::mem::replace(&mut pos.cells[from as usize], Cell::EMPTY);
    let old_to = std::mem::replace(&mut pos.cells[to as usize], m.cell);
    pos.hash ^= change_hash(from, old_from, Cell::EMPTY) ^ change_hash(to, old_to, m.cell);
    if sets {
        pos.owned.write(from, old_from, Cell::EMPTY);
        pos.owned.write(to, old_to, m.cell);
    } else {
        pos.owned.ok = false;
    }
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
    make_simple_sets(pos, m, turn, true)
}

/// [`make_simple`] of a leaf of perft, from which nothing is generated: the square sets of
/// the pieces are not kept up to date but marked so (`Owned::ok`), until [`unmake_simple`].
#[inline(always)]
pub(in crate::engine) fn make_simple_leaf(pos: &mut Position, m: &Move, turn: u32) -> SimpleUndo {
    make_simple_sets(pos, m, turn, false)
}

#[inline(always)]
fn make_simple_sets(pos: &mut Position, m: &Move, turn: u32, sets: bool) -> SimpleUndo {
    let [from, to, _] = m.sq;
    let saved = Saved::of(pos);
    let (old_from, old_to) = write_simple(pos, m, turn, sets);
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
            pos.owned.write(sq, old, cell);
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
pub(in crate::engine) fn apply_counter(
    pos: &mut Position,
    idx: u32,
    delta: i32,
    log: &mut UndoLog,
) {
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

// What the compiled `after-move` program (`compiled/after/`) keeps between moves.

/// The most counter settings a plain program collects (more: the interpreter runs it).
pub(in crate::engine) const MAX_SETS: usize = 16;

/// The largest players × piece types whose counts the tally keeps (more: board scans).
pub(in crate::engine) const MAX_TALLY: usize = 64;

/// The most counters a remembered program may read.
pub(in crate::engine) const MAX_MEMO_READS: usize = 8;
/// Entries of the memo of settings (a power of two).
pub(in crate::engine) const MEMO_SIZE: usize = 64;

/// The inputs of one run of a program with `Prog::reads`: mover, capture and piece type;
/// the cached conditions; the counters read, two to a word.
pub(in crate::engine) type MemoKey = [u64; 2 + MAX_MEMO_READS / 2];

/// A remembered run: its inputs and the counter settings it made (slot, value), in order.
#[derive(Clone, Debug)]
pub(in crate::engine) struct Memo {
    pub(in crate::engine) key: MemoKey,
    pub(in crate::engine) valid: bool,
    pub(in crate::engine) n: u8,
    pub(in crate::engine) sets: [(u32, i32); MAX_SETS],
}

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            key: [0; 2 + MAX_MEMO_READS / 2],
            valid: false,
            n: 0,
            sets: [(0, 0); MAX_SETS],
        }
    }
}

/// The most players, and conditions, whose cached bits a tally keeps (more: no caching).
pub(in crate::engine) const MAX_CACHED_PLAYERS: usize = 4;
pub(in crate::engine) const MAX_CACHED: usize = 64;

/// A position's pieces by `owner * n_pieces + type`, kept in the [`UndoLog`] by depth under
/// the position's hash, with the values of the program's tally-only conditions.
#[derive(Clone, Debug)]
pub(in crate::engine) struct Tally {
    /// The hash of the position counted.
    pub(in crate::engine) hash: u64,
    pub(in crate::engine) counts: [u32; MAX_TALLY],
    /// By player: bit `k` is condition `k` of `Prog::pure` for that mover.
    pub(in crate::engine) bits: [u64; MAX_CACHED_PLAYERS],
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            hash: 0,
            counts: [0; MAX_TALLY],
            bits: [0; MAX_CACHED_PLAYERS],
        }
    }
}
