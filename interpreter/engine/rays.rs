//! The `rays` fast path (`FastPath::Rays`): plain slides over one-word square sets.
//!
//! On a board of at most 64 squares, a gate row whose block is a plain slide
//! (`Special::slide`: a step, a move on each empty square that way, then at most one move onto
//! the blocking piece) is marked [`F_RAY`] when the squares of its ray, from the start square
//! on, come in one order of their indexes (checked at load; a ray that turns back, or a board
//! whose direction table is not in index order, keeps the straight runner). Generation then
//! finds the nearest occupied square of the ray with one mask and one trailing or leading
//! zero count over the board's occupied squares (made once per generation), writes the simple
//! moves to the squares before it from the ray's list, and the capture onto it when its test
//! holds there: the same moves in the same order as the straight runner, with the same steps
//! counted against the limits.

use super::exec::{Exec, Scratch, STEP_LIMIT};
use super::gates::{self, SqGate, F_JUMP, F_RUN, F_SIMPLE, F_TEST};
use super::moves::{Cut, Move, MoveList};
use super::position::Position;
use super::special::GateEntry;
use super::Rules;
use crate::def::NONE;

/// [`SqGate::flags`]: the block is a plain slide answered from [`Rays`], whose ray is
/// `Rays::rays[SqGate::simple]`.
pub(super) const F_RAY: u8 = 32;

/// One slide from one square.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ray {
    /// The ray's squares (bit `q` for square `q`), the start square left out.
    mask: u64,
    /// Where its squares begin in [`Rays::squares`], nearest first.
    at: u32,
    /// How many squares it has (at least one, the gate's).
    len: u32,
    /// Its squares' indexes ascend from the start square (else they descend).
    up: bool,
    /// The header of the move to an empty square, in [`Rays::heads`].
    quiet: u32,
    /// The header of the move onto the blocking piece, in [`Rays::heads`] (`u32::MAX`: none).
    capture: u32,
    /// The classes (`gates::class`) of the blocking square on which that move is written.
    capture_mask: u8,
    /// What a round over an empty square counts against the step limit.
    round: u32,
}

/// The rays of a game's gate rows (empty without [`FastPath::Rays`](super::FastPath::Rays),
/// or on a board of more than 64 squares).
#[derive(Clone, Debug, Default)]
pub(super) struct Rays {
    rays: Vec<Ray>,
    squares: Vec<u16>,
    heads: Vec<Move>,
}

/// The occupied squares of the position being generated, made at the first slide that needs
/// them (`Rules::gen_rows`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Occupied(Option<u64>);

impl Occupied {
    #[inline(always)]
    fn get(&mut self, pos: &Position) -> u64 {
        match self.0 {
            Some(occ) => occ,
            None => {
                let occ = (pos.cells.iter().take(64).enumerate())
                    .fold(0u64, |m, (q, c)| m | u64::from(!c.is_empty()) << q);
                self.0 = Some(occ);
                occ
            }
        }
    }
}

impl Rays {
    /// Marks the gates of `rules.gate_rows` that are plain slides along a ray in index order
    /// ([`F_RAY`]) and builds their rays. Captures that are recycled or deferred write more
    /// than a simple move, and keep the straight runner.
    pub(super) fn build(rules: &mut Rules) -> Rays {
        let mut rays = Rays::default();
        let def = &rules.def;
        let board = &def.board;
        let n_pos = board.n_pos();
        let o = &def.options;
        if n_pos == 0 || n_pos > 64 || o.recycle_captures || o.deferred_captures {
            return rays;
        }
        let (n_players, n_pieces) = (def.players.len(), def.pieces.len());
        let n_dirs = board.directions.len();
        let rows = &mut rules.gate_rows;
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
                let other = F_RUN | F_TEST | F_SIMPLE | F_JUMP;
                if g.flags & other != 0 || g.mask != 0xFF || g.mask2 != 0xFF {
                    continue;
                }
                let Some(e) = rows.entries.get(g.entry as usize) else {
                    continue;
                };
                let Some(shape) = rules.special.slide(e.id) else {
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
                let Some(&last) = line.last() else { continue };
                let mask = line.iter().fold(0u64, |m, &q| m | 1 << q);
                rays.rays.push(Ray {
                    mask,
                    at: rays.squares.len() as u32,
                    len: line.len() as u32,
                    up: last > sq,
                    quiet: head(shape.quiet, &mut rays.heads),
                    capture: (shape.capture_head()).map_or(u32::MAX, |m| head(m, &mut rays.heads)),
                    capture_mask,
                    round: shape.round,
                });
                rays.squares.extend_from_slice(&line);
                g.flags |= F_RAY;
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

impl Rules {
    /// Runs the slide of gate `g` (entry `e`, [`F_RAY`]) from `sq` (`Rules::gen_rows`): the
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
            if gates::passes(r.capture_mask, c, ex.side.0) {
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
    pub(super) fn ray_gates(&self) -> usize {
        (self.gate_rows.gates.iter())
            .filter(|g| g.flags & F_RAY != 0)
            .count()
    }
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
