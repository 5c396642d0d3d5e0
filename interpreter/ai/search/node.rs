//! What a node of the search knows about its position before it searches: repetitions, a
//! finished game, the generated moves, the side in check and the royal pieces, the clock and
//! the node count.

use std::sync::atomic::Ordering;

use super::super::outcome_value;
use super::{Search, MAX_PLY};
use crate::def::PlayerId;
use crate::engine::{GoalContext, Move, MoveList};

impl Search<'_> {
    /// How often the current position (at `ply`) has occurred, counting the game before the
    /// root and the search path.
    pub(super) fn repetitions(&self, ply: usize) -> usize {
        if !self.has_rep_goal {
            return 1;
        }
        let key = self.path[ply];
        self.before.get(&key).copied().unwrap_or(0)
            + self.path[..=ply].iter().filter(|&&k| k == key).count()
    }

    /// Whether the current position occurred before (in the game or on the path), when
    /// repetition is a draw: it is then scored as one.
    pub(super) fn repeated(&self, ply: usize) -> bool {
        if !self.rep_draw || ply == 0 {
            return false;
        }
        let key = self.path[ply];
        self.path[..ply].contains(&key) || self.before.contains_key(&key)
    }

    /// The value of a finished game for the side to move, if the goals say it is over.
    pub(super) fn terminal(&self, ply: usize, moves: &MoveList, reps: usize) -> Option<i32> {
        let cx = GoalContext {
            pos: &self.pos,
            has_moves: !moves.is_empty(),
            repetitions: reps,
        };
        let o = self.rules.outcome(&cx)?;
        if o.scores.is_none() && o.winners.is_empty() && o.losers.is_empty() {
            return Some(self.draw_value());
        }
        let v = outcome_value(&o, self.root, self.ev.n_active, ply);
        Some(if self.team() { v } else { -v })
    }

    /// [`Search::terminal`] with the goals that do not depend on the moves (a placeholder
    /// stands for "the side to move has moves"), before they are generated.
    pub(super) fn terminal_before_moves(&mut self, ply: usize, reps: usize) -> Option<i32> {
        let placeholder = std::mem::take(&mut self.placeholder);
        let end = self.terminal(ply, &placeholder, reps);
        self.placeholder = placeholder;
        end
    }

    /// Generates the legal moves at `ply` into `lists[ply]`; `Some(value)` when the game is
    /// over there (a goal, or no move).
    pub(super) fn generate(&mut self, ply: usize, reps: usize) -> Option<i32> {
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.rules
            .legal_moves_in(&mut self.ws, &mut self.pos, &mut list);
        let end = self.terminal(ply, &list, reps);
        let empty = list.is_empty();
        self.lists[ply] = list;
        if end.is_some() {
            return end;
        }
        empty.then_some(0)
    }

    /// Whether the node at `ply`, not in check, has a single legal move, below twice the
    /// iteration depth: such a node is searched a ply deeper.
    pub(super) fn single_reply(&self, ply: usize, in_check: bool) -> bool {
        self.lists[ply].len() == 1 && (ply as i32) < 2 * self.root_depth && !in_check
    }

    /// Notes the origin and destination of the move `m` made at `ply`.
    pub(super) fn note_squares(&mut self, ply: usize, m: &Move) {
        let path = self.lists[ply].path(m);
        self.from[ply] = path.first().copied().unwrap_or(crate::def::NONE);
        self.dest[ply] = path.last().copied().unwrap_or(crate::def::NONE);
    }

    /// Whether the node at `ply`, in check, is checked by the piece that gave its side's last
    /// check: the move just made started where the same side's move two plies before, which
    /// checked, ended (games without drops).
    pub(super) fn checks_again(&self, ply: usize) -> bool {
        self.prune
            && ply >= 3
            && self.checked[ply - 2]
            && self.from[ply - 1] != crate::def::NONE
            && self.from[ply - 1] == self.dest[ply - 3]
    }

    /// Counts a node and notes when a limit is reached.
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        if let Some(n) = self.cfg.limits.nodes {
            if self.nodes >= n {
                self.aborted = true;
            }
        }
        if self.nodes & 15 == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
            if let Some(t) = self.cfg.limits.time {
                if self.start.elapsed() >= t {
                    self.aborted = true;
                }
            }
        }
    }

    /// Whether the side to move owns a piece that is not royal and is worth at least twice
    /// the least piece (so that passing is rarely its best move).
    pub(super) fn has_big_piece(&self) -> bool {
        let owner = self.rules.entry(self.pos.turn).owner;
        self.pos.cells.iter().any(|c| {
            !c.is_empty()
                && c.owner == owner.0
                && !self.rules.royal[c.piece as usize - 1]
                && self.ev.base[c.piece as usize - 1] >= 2 * self.min_base
        })
    }

    /// Whether the sides other than the one to move have no piece but royal ones.
    pub(super) fn others_bare(&self) -> bool {
        let owner = self.rules.entry(self.pos.turn).owner;
        !self
            .pos
            .cells
            .iter()
            .any(|c| !c.is_empty() && c.owner != owner.0 && !self.rules.royal[c.piece as usize - 1])
    }

    /// The transposition table's key for the current position: its hash, salted by the
    /// search's own salt.
    #[inline]
    pub(super) fn tt_key(&self) -> u64 {
        self.pos.hash ^ self.salt
    }

    pub(super) fn in_check(&self) -> bool {
        if !self.has_royal {
            return false;
        }
        let hash = self.pos.hash;
        if let Some((h, v)) = self.check_memo.get() {
            if h == hash {
                return v;
            }
        }
        let v = (self.rules).royal_attacked(&self.pos, self.rules.entry(self.pos.turn).owner);
        self.check_memo.set(Some((hash, v)));
        v
    }

    /// Before a move at `ply` is made to be tested for check: the royal squares of the side
    /// that will move after it, unless already found at this node.
    pub(super) fn note_kings(&mut self, ply: usize) {
        let side = self.rules.entry(self.rules.next_turn(self.pos.turn)).owner;
        let key = self.path[ply];
        let k = &mut self.kings[ply];
        if k.valid && k.key == key && k.side == side.0 {
            return;
        }
        k.squares.clear();
        for (sq, c) in self.pos.cells.iter().enumerate() {
            if self.rules.royal_of(*c, side) {
                k.squares.push(sq as u16);
            }
        }
        (k.key, k.side, k.valid) = (key, side.0, true);
    }

    /// After the move `m` at `ply` (prepared by [`Search::note_kings`]): whether the side to
    /// move is in check, as [`Search::in_check`] says, without looking for its royal pieces
    /// when the move's writes leave them where they were.
    pub(super) fn gives_check(&self, ply: usize, m: &Move) -> bool {
        let k = &self.kings[ply];
        let side = PlayerId(k.side);
        let moved = self.lists[ply].ops(m).iter().any(|op| match *op {
            crate::engine::Op::Set(sq, c) => {
                self.rules.royal_of(c, side) || k.squares.contains(&sq)
            }
            _ => false,
        });
        if !self.ops_only || moved {
            return self.in_check();
        }
        (k.squares.iter()).any(|&sq| self.rules.attacked(&self.pos, sq, side, None, true))
    }

    /// What every node does first: count itself, clear its line, note its position for
    /// repetitions. `Some(value)` when that already decides it (aborted search, repetition,
    /// the ply limit).
    pub(super) fn enter(&mut self, ply: usize) -> Option<i32> {
        self.tick();
        if self.aborted {
            return Some(0);
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        self.path[ply] = self.pos.repetition_key();
        if self.repeated(ply) {
            return Some(self.draw_value());
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate());
        }
        None
    }
}
