//! The position: board cells, off-board stores, turn, last move and an incremental hash.

use crate::def::{PieceId, PlayerId, PosId, NONE};

/// What stands on one position. `piece == 0` means empty. Laid out as one little-endian
/// 64-bit word (`bits`), so the hash tests a cell's common case with one mask.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug, Hash)]
#[repr(C, align(8))]
pub struct Cell {
    /// Piece type id + 1, or 0 for an empty cell.
    pub piece: u16,
    /// Owner (meaningless when empty).
    pub owner: u8,
    /// Engine marks: bit 0 = captured but not yet removed (deferred captures).
    pub marks: u8,
    /// Attribute bits, by attribute id.
    pub attrs: u32,
}

/// Mark bit: captured in the current chain, removed when the chain ends.
pub const DEAD: u8 = 1;
/// Engine mark: the piece neglected a compelled move and may be huffed (`"huffing"`).
pub const HUFFABLE: u8 = 2;

impl Cell {
    /// The empty cell.
    pub const EMPTY: Cell = Cell {
        piece: 0,
        owner: 0,
        marks: 0,
        attrs: 0,
    };

    /// A piece of a type and owner, with the given attribute bits.
    #[inline]
    pub fn new(piece: PieceId, owner: PlayerId, attrs: u32) -> Cell {
        Cell {
            piece: piece.0 + 1,
            owner: owner.0,
            marks: 0,
            attrs,
        }
    }

    /// True when no piece stands here.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.piece == 0
    }

    /// The piece type, if any.
    #[inline]
    pub fn piece_id(self) -> Option<PieceId> {
        (self.piece != 0).then(|| PieceId(self.piece - 1))
    }

    /// The owner, if any piece stands here.
    #[inline]
    pub fn owner_id(self) -> Option<PlayerId> {
        (self.piece != 0).then_some(PlayerId(self.owner))
    }

    #[inline]
    fn bits(self) -> u64 {
        (self.piece as u64)
            | (self.owner as u64) << 16
            | (self.marks as u64) << 24
            | (self.attrs as u64) << 32
    }
}

/// A full game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// One cell per board position.
    pub cells: Vec<Cell>,
    /// Off-board stores: `store[player * n_pieces + piece]`.
    pub store: Vec<u32>,
    /// Counter values (a per-player counter has one slot per player).
    pub counters: Vec<i32>,
    /// Index into the turn sequence (`once` entries, then `cycle` entries repeating).
    pub turn: u32,
    /// From-square of the last move (`NONE` for a drop or at the start).
    pub last_from: u16,
    /// Destination of the last move (`NONE` at the start).
    pub last_to: u16,
    /// Zobrist-style hash of everything above.
    pub hash: u64,
    /// The part of `hash` that comes from counters.
    pub counters_hash: u64,
    /// The part of `hash` that comes from the turn and the last move.
    pub(super) turn_key: u64,
    /// The squares of each owner's pieces (bit `k`: position `k`), for owners below
    /// [`SET_OWNERS`], kept up to date by every write while `owned.ok` (`Owned`).
    pub(in crate::engine) owned: Owned,
}

/// The owners whose pieces [`Owned`] keeps as square sets.
pub(in crate::engine) const SET_OWNERS: usize = 2;

/// The squares of the pieces of each owner, as one-word square sets, on boards of at most 64
/// squares: `sets[o]` has bit `k` set when position `k` holds a piece (live or captured) of
/// owner `o`. Exact while `ok`, which is false on larger boards, once a piece of an owner
/// past [`SET_OWNERS`] is written, and in perft's leaves (`undo::make_simple_leaf`), until
/// the move that made it so is taken back (the sets are restored with the rest of the
/// position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) struct Owned {
    pub(in crate::engine) sets: [u64; SET_OWNERS],
    pub(in crate::engine) ok: bool,
}

impl Owned {
    /// What writing `new` over `old` on position `sq` changes.
    #[inline(always)]
    pub(in crate::engine) fn write(&mut self, sq: u16, old: Cell, new: Cell) {
        if !self.ok {
            return;
        }
        let bit = 1u64 << (sq & 63);
        // No piece, no bit (an empty cell's owner is meaningless).
        let gone = bit & 0u64.wrapping_sub(u64::from(old.piece != 0));
        let came = bit & 0u64.wrapping_sub(u64::from(new.piece != 0));
        self.sets[old.owner as usize % SET_OWNERS] &= !gone;
        self.sets[new.owner as usize % SET_OWNERS] |= came;
        self.ok = came == 0 || (new.owner as usize) < SET_OWNERS;
    }

    /// The squares of the pieces of all owners, when the sets are exact.
    #[inline(always)]
    pub(in crate::engine) fn occupied(&self) -> Option<u64> {
        let [a, b] = self.sets;
        self.ok.then_some(a | b)
    }

    /// The squares of the pieces of owner `o`, when the sets are exact.
    #[inline(always)]
    pub(in crate::engine) fn of(&self, o: u8) -> Option<u64> {
        (self.ok && (o as usize) < SET_OWNERS).then(|| self.sets[o as usize % SET_OWNERS])
    }
}

/// Mixes a 64-bit value (splitmix64 finaliser); the keys of cells past [`KEYS`].
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Zobrist keys of the common cells, by position (below 256), then `owner << 4 | piece`
/// (owners below 4, `Cell::piece` below 16): one table read instead of a mix. Made at compile
/// time; the entries of empty cells (`piece == 0`) are 0. Attribute bits and marks add a
/// mixed key of their own.
static KEYS: [[u64; 64]; 256] = {
    let mut keys = [[0u64; 64]; 256];
    let mut i = 0;
    while i < 1 << 14 {
        if i & 15 != 0 {
            keys[i >> 6][i & 63] = mix(0x2545_F491_4F6C_DD1D ^ (i as u64) << 20);
        }
        i += 1;
    }
    keys
};

/// The bits of a cell that [`KEYS`] does not cover: a cell with none of them set is hashed by
/// one table read (an empty cell among them).
const RARE_BITS: u64 = !0x3_000F;

/// The column of [`KEYS`] of a cell without [`RARE_BITS`], `owner << 4 | piece`: with only
/// bits 0-3 (piece) and 16-17 (owner) set, one multiplication moves the piece bits to 58-61
/// and the owner bits to 62-63 with no carries (the other products fall below bit 50 or past
/// bit 63).
#[inline(always)]
fn key_col(b: u64) -> usize {
    (b.wrapping_mul(1 << 58 | 1 << 46) >> 58) as usize
}

/// The hash contribution of a cell at a position (0 for an empty cell).
#[inline(always)]
pub fn cell_hash(pos: u16, cell: Cell) -> u64 {
    let b = cell.bits();
    match KEYS.get(pos as usize) {
        Some(row) if b & RARE_BITS == 0 => row[key_col(b)],
        _ => cell_hash_rest(pos, cell),
    }
}

/// `cell_hash(pos, a) ^ cell_hash(pos, b)`: what writing `b` over `a` changes in the hash.
#[inline(always)]
pub fn change_hash(pos: u16, a: Cell, b: Cell) -> u64 {
    let (x, y) = (a.bits(), b.bits());
    match KEYS.get(pos as usize) {
        Some(row) if (x | y) & RARE_BITS == 0 => row[key_col(x)] ^ row[key_col(y)],
        _ => cell_hash_rest(pos, a) ^ cell_hash_rest(pos, b),
    }
}

/// [`cell_hash`] of the cells past the table.
#[inline(never)]
fn cell_hash_rest(pos: u16, cell: Cell) -> u64 {
    if cell.is_empty() && cell.marks == 0 {
        0
    } else if pos < 256 && cell.piece < 16 && cell.owner < 4 {
        let key = KEYS[pos as usize][(cell.owner as usize) << 4 | cell.piece as usize];
        if cell.attrs == 0 && cell.marks == 0 {
            key
        } else {
            key ^ mix(0x7F4A_0000_0000_0000
                ^ (cell.attrs as u64) << 8
                ^ cell.marks as u64
                ^ (pos as u64) << 40)
        }
    } else {
        mix(cell.bits() ^ (pos as u64) << 48)
    }
}

#[inline]
fn store_hash(idx: u32, count: u32) -> u64 {
    if count == 0 {
        0
    } else {
        mix(0xA5A5_0000_0000_0000 ^ (idx as u64) << 24 ^ count as u64)
    }
}

#[inline]
fn counter_hash(idx: u32, value: i32) -> u64 {
    if value == 0 {
        0
    } else {
        mix(0xC3C3_0000_0000_0000 ^ (idx as u64) << 32 ^ value as u32 as u64)
    }
}

#[inline]
fn turn_hash(turn: u32, last_from: u16, last_to: u16) -> u64 {
    mix(0x5A5A_0000_0000_0000 ^ (turn as u64) << 32 ^ (last_from as u64) << 16 ^ last_to as u64)
}

impl Position {
    /// An empty board with empty stores.
    pub fn empty(n_pos: usize, n_store: usize, n_counters: usize) -> Position {
        let mut p = Position {
            cells: vec![Cell::EMPTY; n_pos],
            store: vec![0; n_store],
            counters: vec![0; n_counters],
            turn: 0,
            last_from: NONE,
            last_to: NONE,
            hash: 0,
            counters_hash: 0,
            turn_key: turn_hash(0, NONE, NONE),
            owned: Owned {
                sets: [0; SET_OWNERS],
                ok: n_pos <= 64,
            },
        };
        p.hash = p.full_hash();
        p
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn full_hash(&self) -> u64 {
        let mut h = turn_hash(self.turn, self.last_from, self.last_to);
        for (i, &c) in self.cells.iter().enumerate() {
            h ^= cell_hash(i as u16, c);
        }
        for (i, &n) in self.store.iter().enumerate() {
            h ^= store_hash(i as u32, n);
        }
        for (i, &n) in self.counters.iter().enumerate() {
            h ^= counter_hash(i as u32, n);
        }
        h
    }

    /// Adds to a counter, keeping the hash up to date.
    #[inline]
    pub fn add_counter(&mut self, idx: u32, delta: i32) {
        let old = self.counters[idx as usize];
        let new = old.wrapping_add(delta);
        self.counters[idx as usize] = new;
        let change = counter_hash(idx, old) ^ counter_hash(idx, new);
        self.hash ^= change;
        self.counters_hash ^= change;
    }

    /// What setting counter `idx` from `old` to `new` changes in the hash.
    #[inline]
    pub(in crate::engine) fn counter_change(idx: u32, old: i32, new: i32) -> u64 {
        counter_hash(idx, old) ^ counter_hash(idx, new)
    }

    /// Sets a counter whose hash change ([`Position::counter_change`]) is known.
    #[inline(always)]
    pub(in crate::engine) fn set_counter_changed(&mut self, idx: u32, new: i32, change: u64) {
        if let Some(c) = self.counters.get_mut(idx as usize) {
            *c = new;
            self.hash ^= change;
            self.counters_hash ^= change;
        }
    }

    /// What threefold repetition compares: the board, the stores and the turn, but not the
    /// counters or the last move.
    pub fn repetition_key(&self) -> u64 {
        self.board_key() ^ turn_hash(self.turn, NONE, NONE)
    }

    /// The part of the hash that comes from the board and the stores alone (not the turn, the
    /// last move or the counters): equal for positions that differ only in those.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.hash ^ self.counters_hash ^ self.turn_key
    }

    /// The cell at a position.
    #[inline]
    pub fn at(&self, pos: PosId) -> Cell {
        self.cells[pos.idx()]
    }

    /// The cell of square `q`, empty off the board (a gate square of `NONE`).
    #[inline(always)]
    pub fn cell_or_empty(&self, q: u16) -> Cell {
        self.cells.get(q as usize).copied().unwrap_or(Cell::EMPTY)
    }

    /// Writes a cell, keeping the hash up to date; returns the old cell.
    #[inline(always)]
    pub fn set(&mut self, pos: u16, cell: Cell) -> Cell {
        let old = std::mem::replace(&mut self.cells[pos as usize], cell);
        self.hash ^= change_hash(pos, old, cell);
        self.owned.write(pos, old, cell);
        old
    }

    /// Adds to a store count, keeping the hash up to date.
    #[inline]
    pub fn add_store(&mut self, idx: u32, delta: i32) {
        let old = self.store[idx as usize];
        let new = (old as i64 + delta as i64).clamp(0, u32::MAX as i64) as u32;
        self.store[idx as usize] = new;
        self.hash ^= store_hash(idx, old) ^ store_hash(idx, new);
    }

    /// Whether [`Position::owned`] says what the cells hold (when it claims to be exact).
    pub(in crate::engine) fn owned_agrees(&self) -> bool {
        let mut sets = [0u64; SET_OWNERS];
        for (k, c) in self.cells.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
            if k >= 64 || c.owner as usize >= SET_OWNERS {
                return !self.owned.ok;
            }
            sets[c.owner as usize] |= 1 << k;
        }
        !self.owned.ok || sets == self.owned.sets
    }

    /// Sets the turn index and last move, keeping the hash up to date.
    #[inline]
    pub fn set_turn(&mut self, turn: u32, last_from: u16, last_to: u16) {
        let key = turn_hash(turn, last_from, last_to);
        self.hash ^= self.turn_key ^ key;
        self.turn_key = key;
        self.turn = turn;
        self.last_from = last_from;
        self.last_to = last_to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_column_is_owner_and_piece() {
        for owner in 0..4u8 {
            for piece in 0..16u16 {
                let c = Cell {
                    piece,
                    owner,
                    marks: 0,
                    attrs: 0,
                };
                assert_eq!(c.bits() & RARE_BITS, 0);
                assert_eq!(key_col(c.bits()), (owner as usize) << 4 | piece as usize);
            }
        }
    }
}
