//! The transposition table: a fixed array of four-entry buckets, keyed by `Position::hash`.
//!
//! An entry keeps the best move as its index in the legal list together with a fingerprint of
//! the move, so that a stale or colliding entry can never name a move that is not legal: the
//! search accepts a stored move only when a legal move has that fingerprint.

/// The bound an entry's score is.
pub const EXACT: u8 = 3;
/// The score is at least this (the search failed high).
pub const LOWER: u8 = 1;
/// The score is at most this (no move reached alpha).
pub const UPPER: u8 = 2;

/// The bound a search result `best` is, for a window opened at `(alpha, beta)`.
pub fn bound(best: i32, alpha: i32, beta: i32) -> u8 {
    if best >= beta {
        LOWER
    } else if best > alpha {
        EXACT
    } else {
        UPPER
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The full position hash (0: empty slot).
    pub key: u64,
    /// Fingerprint of the best move (0: none).
    pub fp: u32,
    /// Index of the best move in the legal list.
    pub idx: u16,
    /// The score, mate scores relative to this position.
    pub score: i16,
    /// Remaining depth searched.
    pub depth: i8,
    /// Bound (2 bits) and the search generation (6 bits).
    flags: u8,
}

impl Entry {
    /// `EXACT`, `LOWER` or `UPPER`.
    pub fn bound(&self) -> u8 {
        self.flags & 3
    }

    fn age(&self) -> u8 {
        self.flags >> 2
    }
}

const BUCKET: usize = 4;

/// The table.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl Table {
    /// A table of about `mb` megabytes (a power of two of buckets, at least one).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let per_bucket = BUCKET * std::mem::size_of::<Entry>();
        let mut buckets = 1usize;
        while buckets * 2 * per_bucket <= bytes {
            buckets *= 2;
        }
        // Written element by element (not zeroed lazily by the allocator), so the memory is
        // committed now and the first search's clock does not pay the page faults.
        let mut entries = Vec::with_capacity(buckets * BUCKET);
        entries.resize(buckets * BUCKET, Entry::default());
        Table {
            entries,
            mask: buckets - 1,
            age: 0,
        }
    }

    /// The size asked for, in megabytes (rounded down).
    pub fn megabytes(&self) -> usize {
        ((self.entries.len() * std::mem::size_of::<Entry>()) >> 20).max(1)
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.age = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    fn bucket(&self, key: u64) -> usize {
        ((key >> 20) as usize & self.mask) * BUCKET
    }

    /// The entry of a position, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| e.key == key && key != 0)
            .copied()
    }

    /// Stores a result, replacing the entry of the same position or the least useful one.
    pub fn store(&mut self, key: u64, fp: u32, idx: u16, score: i32, depth: i32, bound: u8) {
        let b = self.bucket(key);
        let age = self.age;
        let flags = bound | age << 2;
        let depth = depth.clamp(-100, 100) as i8;
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let mut new = Entry {
            key,
            fp,
            idx,
            score,
            depth,
            flags,
        };
        let bucket = &mut self.entries[b..b + BUCKET];
        if let Some(e) = bucket.iter_mut().find(|e| e.key == key) {
            if bound == EXACT || depth + 2 >= e.depth || e.age() != age {
                if fp == 0 {
                    (new.fp, new.idx) = (e.fp, e.idx);
                }
                *e = new;
            }
            return;
        }
        let worth = |e: &Entry| {
            if e.key == 0 {
                return i32::MIN;
            }
            let stale = (age.wrapping_sub(e.age()) & 63) as i32;
            e.depth as i32 - 8 * stale
        };
        let victim = bucket
            .iter_mut()
            .min_by_key(|e| worth(e))
            .expect("a bucket has entries");
        *victim = new;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_replaces() {
        let mut t = Table::new(1);
        t.store(42, 7, 3, -15, 4, EXACT);
        let e = t.probe(42).expect("stored");
        assert_eq!(
            (e.fp, e.idx, e.score, e.depth, e.bound()),
            (7, 3, -15, 4, EXACT)
        );
        assert_eq!(t.probe(43), None);
        // A shallower bound does not replace a deeper exact result of the same search.
        t.store(42, 9, 1, 99, 1, LOWER);
        assert_eq!(t.probe(42).expect("kept").fp, 7);
        // Five positions in one bucket: the table keeps four, the deepest among them.
        let same = |i: u64| (i << 40) | 42;
        for i in 1..=5u64 {
            t.store(same(i), 1, 0, 0, i as i32, EXACT);
        }
        assert!(t.probe(same(5)).is_some());
        assert!(t.probe(same(1)).is_none() || t.probe(42).is_none());
    }
}
