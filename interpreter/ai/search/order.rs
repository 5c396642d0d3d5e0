//! Move ordering: the stored best move, captures by gain, killers, counter-moves and the
//! history of quiet moves.

use super::*;

/// Move-ordering memory kept between searches: killer moves per ply, the history table and
/// counter-moves (the quiet move that last refuted a move, by that move's fingerprint).
#[derive(Clone)]
pub struct Heuristics {
    pub(super) killers: Vec<[u32; 2]>,
    pub(super) history: Vec<i32>,
    pub(super) counters: Vec<u32>,
    /// Continuation history ([`super::history`]).
    pub(super) cont: Vec<i16>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HIST],
            counters: vec![0; 2 * HIST],
            cont: vec![0; super::history::CONT],
        }
    }
}

/// A fingerprint of a move: its squares, captures, promotion, drop, pass and huff (never 0).
#[inline]
pub fn fingerprint(list: &MoveList, m: &Move) -> u32 {
    #[inline(always)]
    fn add(h: u64, x: u64) -> u64 {
        let h = (h ^ x).wrapping_mul(0x0000_0100_0000_01B3);
        h ^ h >> 29
    }
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    if m.simple {
        // The same words from the header: from, to, the separator, the capture if any.
        h = add(add(add(h, m.sq[0] as u64), m.sq[1] as u64), 0xFFFF_0000);
        if m.cap_hi > 0 {
            h = add(h, m.sq[2] as u64);
        }
    } else {
        for &sq in list.path(m) {
            h = add(h, sq as u64);
        }
        h = add(h, 0xFFFF_0000);
        for &sq in list.captured(m) {
            h = add(h, sq as u64);
        }
    }
    h = add(h, (m.promote as u64) << 16 | m.drop as u64);
    h = add(h, (m.pass as u64) << 1 | (m.huff as u64) << 8);
    ((h >> 32) as u32) | 1
}

pub(super) const TT_MOVE: i32 = 1 << 30;
pub(super) const CAPTURE: i32 = 1 << 28;
pub(super) const KILLER: i32 = 1 << 26;
/// Quiet moves and drops that give check, in games with drops: after the counter-move,
/// before the history (and never pruned by count).
pub(super) const QUIET_CHECK: i32 = KILLER - 2;

/// Captures that lose material by exchange: after every quiet move.
pub(super) const BAD_CAPTURE: i32 = -(1 << 27);

impl Search<'_> {
    /// Ordering keys of the moves at `ply`: the stored best move, then captures and
    /// promotions by gain, then killers, then the counter-move to the move just made, then
    /// (games with drops) quiet checks, then the history of quiet moves.
    pub(super) fn score_moves(&mut self, ply: usize, tt_fp: u32, captures_only: bool) {
        let list = &self.lists[ply];
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        let killers = self.heur.killers[ply];
        let team = self.rules.entry(self.pos.turn).mover == self.root;
        let counter = match ply.checked_sub(1).map(|p| self.made[p]) {
            Some(prev) if prev != 0 => self.heur.counters[counter_index(prev, team)],
            _ => 0,
        };
        // In games with drops, the quiet moves and drops that put a piece where it attacks a
        // royal piece (from the attack tables, no trial move) come before the other quiet
        // moves: checks by drops decide most games (Crazyhouse at equal nodes in
        // docs/strength.md).
        let checks = !captures_only
            && !self.prune
            && self.has_royal
            && self.rules.mark_checks(&mut self.ws, &self.pos);
        let n_pos = self.pos.cells.len();
        let prev = self.prev_keys(ply);
        for (i, m) in list.moves.iter().enumerate() {
            if captures_only && m.n_captures() == 0 && m.promote == 0 {
                continue;
            }
            let fp = fingerprint(list, m);
            let key = if fp == tt_fp {
                TT_MOVE
            } else if m.n_captures() > 0 || m.promote != 0 {
                let mut gain = 0;
                for &sq in list.captured(m) {
                    let c = self.pos.cells[sq as usize];
                    if !c.is_empty() {
                        gain += self.ev.base[c.piece as usize - 1].abs();
                    }
                }
                if m.promote != 0 && m.piece != 0 {
                    gain += (self.ev.base[m.promote as usize - 1]
                        - self.ev.base[m.piece as usize - 1])
                        .max(0);
                }
                let attacker = if m.piece != 0 {
                    self.ev.base[m.piece as usize - 1].abs()
                } else {
                    0
                };
                // A capture that loses material by exchange comes after the quiet moves.
                match (m.promote == 0).then(|| self.see_move(ply, m)).flatten() {
                    Some(v) if v < 0 => BAD_CAPTURE + v,
                    _ => CAPTURE + (gain * 16 - attacker).clamp(-CAPTURE / 2, CAPTURE / 2),
                }
            } else if fp == killers[0] {
                KILLER + 1
            } else if fp == killers[1] {
                KILLER
            } else if fp == counter {
                KILLER - 1
            } else if checks && m.piece != 0 && {
                let path = list.path(m);
                let to = path[path.len() - 1];
                to != crate::def::NONE && self.ws.gives_check_from(m.piece as usize - 1, to, n_pos)
            } {
                QUIET_CHECK
            } else {
                // The history by squares, plus the continuation history after the two moves
                // before.
                self.heur.history[hist_index(list, m, team)]
                    + self.cont_score(prev, super::history::move_key(list, m, team))
            };
            keys.push((key, i as u16));
        }
        self.keys[ply] = keys;
    }

    /// Moves the best remaining key at `ply` to place `k` and returns its move index.
    pub(super) fn pick(&mut self, ply: usize, k: usize) -> u16 {
        let keys = &mut self.keys[ply];
        let mut best = k;
        for j in k + 1..keys.len() {
            if keys[j].0 > keys[best].0 {
                best = j;
            }
        }
        keys.swap(k, best);
        keys[k].1
    }

    /// A quiet move caused a cut-off: remember it as a killer and in the history.
    pub(super) fn reward(&mut self, ply: usize, m: &Move, fp: u32, depth: i32, team: bool) {
        let k = &mut self.heur.killers[ply];
        if k[0] != fp {
            k[1] = k[0];
            k[0] = fp;
        }
        if let Some(prev) = ply.checked_sub(1).map(|p| self.made[p]) {
            if prev != 0 {
                self.heur.counters[counter_index(prev, team)] = fp;
            }
        }
        let h = &mut self.heur.history[hist_index(&self.lists[ply], m, team)];
        *h = (*h + depth * depth).min(KILLER - 3);
    }
}

/// Where the counter-move to a move (by its fingerprint) is kept, for the side replying.
pub(super) fn counter_index(prev: u32, team: bool) -> usize {
    (prev as usize & (HIST - 1)) + HIST * team as usize
}

pub(super) fn hist_index(list: &MoveList, m: &Move, team: bool) -> usize {
    let path = list.path(m);
    let from = path[0] as usize;
    let to = path[path.len() - 1] as usize;
    let h = from.wrapping_mul(0x9E37) ^ to.wrapping_mul(0x85EB) ^ (m.drop as usize) << 7;
    (h & (HIST - 1)) + HIST * team as usize
}
