//! Pruning by static exchange near the horizon, beside the counts and margins of the node
//! search: quiet moves that leave their piece to be taken, and check evasions beyond the
//! first few (as strong engines prune them; nodes and matches in docs/strength.md).

use super::*;

/// A quiet check is dropped when it loses more than this by exchange, times the depth.
const CHECK_LOSS: i32 = 110;
/// Other quiet moves are dropped when they lose more than `a r² + b r` by exchange, `r` the
/// depth left after the move and its late-move reduction.
const QUIET_LOSS_SQUARE: i32 = 12;
const QUIET_LOSS_LINEAR: i32 = 8;
/// Check evasions are pruned at this depth or less (away from the principal variation).
pub(super) const EVASION_DEPTH: i32 = 3;
/// Quiet evasions searched there before the rest are dropped.
pub(super) const QUIET_EVASIONS: usize = 2;

/// What static exchange says of a quiet move.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum QuietExchange {
    /// Searched as any other.
    Keep,
    /// Dropped unless it gives check (it is made, then tested).
    UnlessCheck,
    /// Dropped, check or not.
    Drop,
}

impl Search<'_> {
    /// The static exchange value of a quiet move at `ply`: what its piece stands to lose on
    /// the square it goes to (0 where exchanges are not judged).
    pub(super) fn see_quiet(&self, ply: usize, m: &Move) -> i32 {
        let list = &self.lists[ply];
        let path = list.path(m);
        let (from, to) = (path[0], path[path.len() - 1]);
        if !self.see_ok
            || m.drop != 0
            || from == crate::def::NONE
            || to == crate::def::NONE
            || !list.captured(m).is_empty()
        {
            return 0;
        }
        let side = self.rules.entry(self.pos.turn).owner.0;
        self.exchange(from, to, side, 0)
    }

    /// [`crate::ai::see::exchange`] in the current position, over square sets where the board
    /// allows (the occupancy computed once per position).
    pub(super) fn exchange(&self, from: u16, to: u16, side: u8, victim: i32) -> i32 {
        use crate::ai::see;
        let Some(bits) = &self.see_bits else {
            return see::exchange(self.rules, &self.ev.base, &self.pos, from, to, side, victim);
        };
        let key = self.pos.board_key();
        let occ = match self.see_occ.get() {
            Some((k, occ)) if k == key => occ,
            _ => {
                let occ = bits.occupancy(&self.pos);
                self.see_occ.set(Some((key, occ)));
                occ
            }
        };
        let base = &self.ev.base;
        see::exchange_bits(
            self.rules, bits, occ, base, &self.pos, from, to, side, victim,
        )
    }

    /// The `k`-th quiet move at `depth` (not in check, a move already searched, no mate score
    /// in the window): how much it loses by exchange decides whether it is searched. A check
    /// that loses a piece near the horizon is dropped like any other move; one that loses
    /// little, or deeper, is kept (mates are quiet moves too).
    pub(super) fn quiet_exchange(
        &self,
        ply: usize,
        m: &Move,
        depth: i32,
        k: usize,
    ) -> QuietExchange {
        if !self.prune {
            return QuietExchange::Keep;
        }
        // 0 where exchanges are not judged (drops, no usable attack tables).
        let v = self.see_quiet(ply, m);
        if v >= 0 {
            return QuietExchange::Keep;
        }
        if v < -CHECK_LOSS * depth {
            return QuietExchange::Drop;
        }
        let r = (depth - 1 - lmr(depth, k)).max(0);
        if v < -(QUIET_LOSS_SQUARE * r * r + QUIET_LOSS_LINEAR * r) {
            QuietExchange::UnlessCheck
        } else {
            QuietExchange::Keep
        }
    }

    /// At a node in check where evasions are pruned (after one was searched): whether the
    /// move at `ply` is dropped, a quiet one once `quiet_evasions` were searched, any that
    /// loses material by exchange (`key`: its ordering key).
    pub(super) fn evasion_pruned(
        &self,
        ply: usize,
        m: &Move,
        key: i32,
        quiet: bool,
        quiet_evasions: usize,
    ) -> bool {
        if quiet && quiet_evasions >= QUIET_EVASIONS {
            return true;
        }
        if !self.see_ok || m.drop != 0 || m.promote != 0 {
            return false;
        }
        if quiet {
            self.see_quiet(ply, m) < 0
        } else {
            key < BAD_CAPTURE / 2
        }
    }
}
