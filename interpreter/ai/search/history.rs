//! Continuation history: how well a quiet move (its piece type and destination) did after the
//! move before it (that move's piece type and destination), for each side. A cut-off by a
//! quiet move raises its entry and lowers the entries of the quiet moves searched before it;
//! entries stay within ±[`CONT_MAX`] by gravity (a change shrinks as the entry nears the
//! bound). Used in move ordering and in late move reductions, only in games without drops
//! (Crazyhouse at equal nodes scored 10 wins to 14 losses with it: docs/strength.md) and
//! without compulsory captures (draughts: not measured, so left as it was).

use super::*;

/// Entries of the table, a power of two (pairs of moves hashed into it).
pub(super) const CONT: usize = 1 << 20;
/// Entries stay within ±this.
pub(super) const CONT_MAX: i32 = 16_384;
/// Late move reductions: a ply less for every this much of a quiet move's continuation
/// history (both entries summed), a ply more for every this much below zero, two at most.
pub(super) const CONT_LMR: i32 = 4_096;

/// The key of a move for continuation history: its piece type and destination, and the side
/// that made it (never 0).
#[inline]
pub(super) fn move_key(list: &MoveList, m: &Move, team: bool) -> u32 {
    let to = if m.simple {
        m.sq[1] as u32
    } else {
        let path = list.path(m);
        path[path.len() - 1] as u32
    };
    ((to & 0xFFFF) << 12 | (m.piece as u32 & 0x7FF) << 1 | team as u32) + 1
}

/// Where the pair (earlier move, this move) is kept; `lag` (1 or 2) separates the move just
/// before from the one before that.
#[inline]
pub(super) fn cont_index(prev: u32, cur: u32, lag: u32) -> usize {
    let h = (prev as u64 ^ (lag as u64) << 40).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (cur as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    ((h ^ h >> 31) as usize) & (CONT - 1)
}

/// Moves an entry towards `bonus`'s sign, less as it nears the bound.
#[inline]
pub(super) fn gravity(e: &mut i16, bonus: i32) {
    let v = *e as i32;
    *e = (v + bonus - v * bonus.abs() / CONT_MAX).clamp(-CONT_MAX, CONT_MAX) as i16;
}

impl Search<'_> {
    /// The continuation-history keys of the moves made at the two plies before `ply` (0 when
    /// none, or a null move).
    #[inline]
    pub(super) fn prev_keys(&self, ply: usize) -> [u32; 2] {
        let at = |d: usize| ply.checked_sub(d).map_or(0, |p| self.made_key[p]);
        [at(1), at(2)]
    }

    /// The continuation-history score of a quiet move with key `cur` at a node whose previous
    /// moves have keys `prev`.
    #[inline]
    pub(super) fn cont_score(&self, prev: [u32; 2], cur: u32) -> i32 {
        let mut s = 0;
        if !self.prune || self.gen_first {
            return s;
        }
        for (lag, &p) in prev.iter().enumerate() {
            if p != 0 {
                s += self.heur.cont[cont_index(p, cur, lag as u32 + 1)] as i32;
            }
        }
        s
    }

    /// A quiet move cut off at `ply` after the quiet moves in `tried[ply]` (the cut move last
    /// among them): its entries gain, the others' lose.
    pub(super) fn reward_cont(&mut self, ply: usize, depth: i32) {
        if !self.prune || self.gen_first {
            return;
        }
        let prev = self.prev_keys(ply);
        let bonus = (depth * 150).min(1_500);
        let tried = std::mem::take(&mut self.tried[ply]);
        let n = tried.len();
        for (i, &cur) in tried.iter().enumerate() {
            let b = if i + 1 == n { bonus } else { -bonus };
            for (lag, &p) in prev.iter().enumerate() {
                if p != 0 {
                    gravity(&mut self.heur.cont[cont_index(p, cur, lag as u32 + 1)], b);
                }
            }
        }
        self.tried[ply] = tried;
    }
}
