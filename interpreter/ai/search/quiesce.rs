//! The quiescence search beyond the horizon: captures and promotions until the position is
//! quiet, with delta and exchange pruning.

use super::*;
use crate::ai::see;

/// Delta pruning in quiescence: the margin over the captured material.
const DELTA_MARGIN: i32 = 200;
/// Captures a side that may stand pat searches before the rest are dropped, except those
/// that check, recapture on the square of the last move or promote (games without drops).
const QCAPTURES: usize = 2;

impl Search<'_> {
    /// Captures and promotions until the position is quiet; a side that must capture (or is
    /// in check) cannot stand pat.
    pub(super) fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        if let Some(v) = self.enter(ply) {
            return v;
        }
        // Games with drops keep searching evasions deeper: a piece in hand gives checks
        // without end (Crazyhouse at equal nodes lost with one ply).
        let qcheck = if self.prune { QCHECK } else { QCHECK_DROPS };
        let in_check = qply < qcheck && self.in_check();
        let reps = self.repetitions(ply);
        // The transposition table serves quiescence too: any stored result whose bound
        // decides the window ends the node, and its move is tried first (matches at equal
        // nodes in docs/strength.md).
        let qtt = !in_check;
        let hash = self.tt_key();
        let mut tt_fp = 0;
        if qtt {
            if let Some(e) = self.tt.probe(hash) {
                tt_fp = e.fp;
                if let Some(v) = tt_cut(&e, ply, alpha, beta) {
                    return v;
                }
            }
        }
        let alpha0 = alpha;
        let mut stand = None;
        if !self.gen_first && !in_check {
            // The goals that do not depend on the moves, before paying for generation.
            if let Some(v) = self.terminal_before_moves(ply, reps) {
                return v;
            }
            let v = self.evaluate();
            if v >= beta {
                return v;
            }
            stand = Some(v);
        }
        // Where captures are not compulsory and the side is not in check (also past the plies
        // where checks are searched, so a capture that mates is seen as before), it may stand
        // pat and only captures and promotions are searched: they are generated alone (royal
        // safety judges quiet moves only until one is legal). With a legal move left out, the
        // goals are the ones already tested (they do not depend on the moves).
        let captures_only = stand.is_some() && !self.in_check();
        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut other = false;
        // Drops that give check, searched with the captures in the first plies (`prune` is off
        // exactly in games with drops).
        let checks = captures_only && qply < QCHECK_DROP_PLIES && !self.prune && self.has_royal;
        if captures_only {
            self.ws.set_checking_drops(checks);
            other = (self.rules).legal_captures_in(&mut self.ws, &mut self.pos, &mut list);
            self.ws.set_checking_drops(false);
        } else {
            (self.rules).legal_moves_in(&mut self.ws, &mut self.pos, &mut list);
        }
        let end = if other {
            None
        } else {
            self.terminal(ply, &list, reps)
        };
        let empty = list.is_empty() && !other;
        let forced = in_check
            || (!other && (list.moves.iter()).all(|m| m.n_captures() > 0 || m.promote != 0));
        self.lists[ply] = list;
        if let Some(v) = end {
            return v;
        }
        if empty {
            return 0;
        }
        let forced = forced && qply < QFORCED;
        let mover = self.rules.entry(self.pos.turn).mover;
        if qply >= QMAX || self.rules.def.players[mover.idx()].random {
            return self.evaluate();
        }
        let mut best = -INF;
        if !forced {
            let stand = stand.unwrap_or_else(|| self.evaluate());
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let me = self.team();
        // Only captures and promotions unless forced.
        self.score_moves(ply, tt_fp, !forced && !checks);
        // Past the first plies, only the most promising captures of a side that may stand pat:
        // in games where captures never run out, the capture tree would grow without bound.
        let mut n = self.keys[ply].len();
        if !forced {
            n = n.min(if qply == 0 { QWIDE } else { QNARROW });
        }
        let mut best_idx = u16::MAX;
        let mut searched = 0;
        let last_to = if ply > 0 {
            self.dest[ply - 1]
        } else {
            crate::def::NONE
        };
        for k in 0..n {
            let idx = self.pick(ply, k);
            let m = self.lists[ply].moves[idx as usize];
            let to = self.lists[ply].path(&m).last().copied();
            let to = to.unwrap_or(crate::def::NONE);
            let limited = self.prune
                && !forced
                && searched >= QCAPTURES
                && m.promote == 0
                && to != last_to
                && best > -MATE_BOUND;
            if !forced && m.promote == 0 && best > -MATE_BOUND {
                // Delta pruning: even winning the captured pieces outright leaves the side
                // below alpha.
                // Where captured pieces join the capturer's hand (Crazyhouse), a capture
                // gains the piece twice: once off the board, once in hand (matches at equal
                // nodes in docs/strength.md).
                let mut gain = self.capture_gain(ply, &m);
                if self.rules.def.options.recycle_to_capturer {
                    gain *= 2;
                }
                if best + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
            }
            // A capture by a piece worth more than what it takes, onto a square the other side
            // attacks, likely loses material: skipped (a cheap stand-in for exchange
            // evaluation that any rules' attack test answers). Not in games with drops, where
            // the piece taken is one more to drop.
            let risky = self.prune
                && !forced
                && m.promote == 0
                && m.piece != 0
                && self.ev.base[m.piece as usize - 1].abs() > self.capture_gain(ply, &m) + 50;
            let mover = self.rules.entry(self.pos.turn).owner;
            self.rules
                .make(&mut self.pos, &self.lists[ply], &m, &mut self.log);
            if risky {
                let path = self.lists[ply].path(&m);
                let to = path[path.len() - 1];
                if to != crate::def::NONE && self.rules.attacked(&self.pos, to, mover, None, true) {
                    revert(&mut self.pos, &mut self.log);
                    continue;
                }
            }
            if limited && !self.in_check() {
                revert(&mut self.pos, &mut self.log);
                continue;
            }
            searched += 1;
            self.dest[ply] = to;
            let v = self.qchild(alpha, beta, ply, qply, me);
            revert(&mut self.pos, &mut self.log);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_idx = idx;
                    alpha = v;
                    self.set_pv(ply, idx);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if qtt && best > -INF {
            let fp = if best_idx == u16::MAX {
                0
            } else {
                let list = &self.lists[ply];
                fingerprint(list, &list.moves[best_idx as usize])
            };
            let bound = tt::bound(best, alpha0, beta);
            self.tt
                .store(hash, fp, best_idx, to_tt(best, ply), 0, bound);
        }
        best
    }

    /// The worth of the pieces a move at `ply` captures.
    pub(super) fn capture_gain(&self, ply: usize, m: &Move) -> i32 {
        self.lists[ply]
            .captured(m)
            .iter()
            .map(|&sq| self.pos.cells[sq as usize])
            .filter(|c| !c.is_empty())
            .map(|c| self.ev.base[c.piece as usize - 1].abs())
            .sum()
    }

    /// The static exchange value of a capture at `ply` whose one captured piece stands on its
    /// destination (`None` for other moves, where exchanges are not judged, or where the
    /// capture cannot lose by exchange).
    pub(super) fn see_move(&self, ply: usize, m: &Move) -> Option<i32> {
        if !self.see_ok || m.drop != 0 {
            return None;
        }
        let list = &self.lists[ply];
        let path = list.path(m);
        let (from, to) = (path[0], path[path.len() - 1]);
        let caps = list.captured(m);
        if from == crate::def::NONE || to == crate::def::NONE || caps != [to] {
            return None;
        }
        let victim = self.pos.cells[to as usize];
        if victim.is_empty() {
            return None;
        }
        let worth = self.ev.base[victim.piece as usize - 1].abs();
        // Taking a piece worth at least the mover never loses: the ordering asks only
        // whether a capture loses.
        let mover = &self.pos.cells[from as usize];
        if !mover.is_empty()
            && see::never_loses(self.rules, &self.ev.base, mover.piece as usize - 1, worth)
        {
            return None;
        }
        let side = self.rules.entry(self.pos.turn).owner.0;
        Some(self.exchange(from, to, side, worth))
    }
}
