//! The `rays` fast path (`FastPath::Rays`): plain slides over one-word square sets.
//!
//! On a board of at most 64 squares, a gate row whose block is a plain slide
//! (`Special::slide`: a step, a move on each empty square that way, then at most one move onto
//! the blocking piece) is marked `RowFlags::RAY` when the squares of its ray, from the start square
//! on, come in one order of their indexes (checked at load; a ray that turns back, or a board
//! whose direction table is not in index order, keeps the straight runner). Generation then
//! tests the ray's mask against the board's occupied squares (made once per generation):
//! when none of its squares is occupied, each takes a quiet move; otherwise the nearest
//! occupied one is found in the ray's list of squares. It writes the simple moves to the
//! squares before it from that list (their shared fields filled once), and the capture onto
//! it when its test holds there: the same moves in the same order as the straight runner,
//! with the same steps counted against the limits.

use super::gate_test::Classes;
use super::gates::{GateRows, RowFlags};
use super::special::Special;
use crate::def::{GameDef, NONE};
use crate::engine::moves::Move;
use crate::engine::position::Position;

/// One slide from one square.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Ray {
    /// The ray's squares (bit `q` for square `q`), the start square left out.
    pub(in crate::engine) mask: u64,
    /// Where its squares begin in [`Rays::squares`], nearest first.
    pub(in crate::engine) at: u32,
    /// How many squares it has (at least one, the gate's).
    pub(in crate::engine) len: u32,
    /// The header of the move to an empty square, in [`Rays::heads`].
    pub(in crate::engine) quiet: u32,
    /// The header of the move onto the blocking piece, in [`Rays::heads`] (`u32::MAX`: none).
    pub(in crate::engine) capture: u32,
    /// The classes (`gate_test::class`) of the blocking square on which that move is written.
    pub(in crate::engine) capture_mask: Classes,
    /// What a round over an empty square counts against the step limit.
    pub(in crate::engine) round: u32,
}

/// The rays of a game's gate rows (empty without [`FastPath::Rays`](super::FastPath::Rays),
/// or on a board of more than 64 squares).
#[derive(Clone, Debug, Default)]
pub(in crate::engine) struct Rays {
    pub(in crate::engine) rays: Vec<Ray>,
    pub(in crate::engine) squares: Vec<u16>,
    pub(in crate::engine) heads: Vec<Move>,
}

/// The occupied squares of the position being generated, made at the first slide that needs
/// them (`Generator::gen_rows`).
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine) struct Occupied(Option<u64>, bool);

impl Occupied {
    /// The occupied squares of a generation, made on first use: with `sets`
    /// (`FastPath::PieceSets`) from the position's square sets when they are exact.
    #[inline(always)]
    pub(in crate::engine) fn new(sets: bool) -> Occupied {
        Occupied(None, sets)
    }

    #[inline(always)]
    pub(in crate::engine) fn get(&mut self, pos: &Position) -> u64 {
        match self.0 {
            Some(occ) => occ,
            None => {
                let sets = pos.owned.occupied().filter(|_| self.1);
                let occ = sets.unwrap_or_else(|| {
                    (pos.cells.iter().take(64).enumerate())
                        .fold(0u64, |m, (q, c)| m | u64::from(!c.is_empty()) << q)
                });
                self.0 = Some(occ);
                occ
            }
        }
    }
}

impl Rays {
    /// Marks the gates of `rows` that are plain slides along a ray in index order
    /// (`RowFlags::RAY`) and builds their rays. Captures that are recycled or deferred write
    /// more than a simple move, and keep the straight runner.
    pub(in crate::engine) fn build(def: &GameDef, special: &Special, rows: &mut GateRows) -> Rays {
        let mut rays = Rays::default();
        let board = &def.board;
        let n_pos = board.n_pos();
        let o = &def.options;
        if n_pos == 0 || n_pos > 64 || o.recycle_captures || o.deferred_captures {
            return rays;
        }
        let (n_players, n_pieces) = (def.players.len(), def.pieces.len());
        let n_dirs = board.directions.len();
        let mut head_ids: rustc_hash::FxHashMap<*const Move, u32> = Default::default();
        let mut head = |m: &Move, heads: &mut Vec<Move>| {
            let n = heads.len() as u32;
            let id = *head_ids.entry(m as *const Move).or_insert(n);
            if id == n {
                heads.push(*m);
            }
            id
        };
        let mut line = Vec::new();
        for (i, &(a, b)) in rows.span.iter().enumerate() {
            let sq = (i % n_pos) as u16;
            let pl = i / (n_pos * n_pieces.max(1)) % n_players.max(1);
            let Some(gates) = rows.gates.get_mut(a as usize..b as usize) else {
                continue;
            };
            for g in gates {
                let other = RowFlags::RUN
                    | RowFlags::TEST
                    | RowFlags::SIMPLE
                    | RowFlags::SIMPLE2
                    | RowFlags::JUMP;
                if g.flags.intersects(other) || g.mask != Classes::ANY || g.mask2 != Classes::ANY {
                    continue;
                }
                let Some(e) = rows.entries.get(g.entry as usize) else {
                    continue;
                };
                let Some(shape) = special.slide(e.id) else {
                    continue;
                };
                let Some(capture_mask) = shape.capture_mask(def) else {
                    continue;
                };
                let next = (board.next)
                    .get(pl * n_dirs * n_pos + shape.off as usize..)
                    .and_then(|t| t.get(..n_pos));
                let Some(next) = next else { continue };
                if next.get(sq as usize) != Some(&g.q) || !ray(next, sq, &mut line) {
                    continue;
                }
                let mask = line.iter().fold(0u64, |m, &q| m | 1 << q);
                rays.rays.push(Ray {
                    mask,
                    at: rays.squares.len() as u32,
                    len: line.len() as u32,
                    quiet: head(shape.quiet, &mut rays.heads),
                    capture: (shape.capture_head()).map_or(u32::MAX, |m| head(m, &mut rays.heads)),
                    capture_mask,
                    round: shape.round,
                });
                rays.squares.extend_from_slice(&line);
                g.flags |= RowFlags::RAY;
                g.simple = rays.rays.len() as u32 - 1;
            }
        }
        rays
    }
}

/// The squares one direction's table `next` leads through from `sq` (not included) until it
/// leaves the board, into `line`: false unless their indexes, with `sq`'s, strictly ascend
/// or strictly descend (which also rules out a ray that comes back on itself).
fn ray(next: &[u16], sq: u16, line: &mut Vec<u16>) -> bool {
    line.clear();
    let mut prev = sq;
    let mut up = None;
    let mut q = next.get(sq as usize).copied().unwrap_or(NONE);
    while q != NONE {
        if q as usize >= next.len() || q == prev || up.is_some_and(|u| u != (q > prev)) {
            return false;
        }
        up = Some(q > prev);
        line.push(q);
        prev = q;
        q = next[q as usize];
    }
    !line.is_empty()
}

#[cfg(test)]
mod tests {
    use super::ray;
    use crate::def::NONE;

    #[test]
    fn rays_must_keep_one_order_of_indexes() {
        let mut line = Vec::new();
        // 0 -> 1 -> 2 -> off: ascending.
        assert!(ray(&[1, 2, NONE], 0, &mut line));
        assert_eq!(line, [1, 2]);
        // 3 -> 1 -> 0 -> off: descending.
        assert!(ray(&[NONE, 0, NONE, 1], 3, &mut line));
        assert_eq!(line, [1, 0]);
        // 0 -> 2 -> 1: turns back; 0 -> 1 -> 0: comes back to the start; 1 -> 1: stays.
        assert!(!ray(&[2, NONE, 1], 0, &mut line));
        assert!(!ray(&[1, 0], 0, &mut line));
        assert!(!ray(&[NONE, 1], 1, &mut line));
        // A square past the table's end, or no square at all.
        assert!(!ray(&[5, NONE], 0, &mut line));
        assert!(!ray(&[NONE, NONE], 0, &mut line));
    }
}
