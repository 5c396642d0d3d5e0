//! Playing moves on a position (make, with the turn advanced and `after-move` run) and perft.

use super::workspace::Workspace;
use super::Rules;
use crate::def::*;
use crate::engine::exec::Exec;
use crate::engine::moves::{Move, MoveList};
use crate::engine::position::Position;
use crate::engine::scratch::Mode;
use crate::engine::undo::{apply_more, UndoLog};
use crate::engine::{after, undo};

impl Rules {
    /// Plays a move from a list (no legality check), advances the turn, then runs `after-move`
    /// on the new position for the player who moved.
    pub fn make(&self, pos: &mut Position, list: &MoveList, m: &Move, log: &mut UndoLog) {
        let turns = (self.entry(pos.turn).owner, self.next_turn(pos.turn));
        self.make_from(pos, list, m, log, turns);
    }

    /// [`Rules::make`] given the mover and the next turn index (the same for every
    /// move of a position, so perft's loops find them once).
    #[inline(always)]
    fn make_from(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        log: &mut UndoLog,
        (mover, next): (PlayerId, u32),
    ) {
        undo::push_frame(pos, log);
        self.make_in_frame(pos, list, m, log, (mover, next));
    }

    /// [`Rules::make_from`] into the undo frame last opened, which must be empty
    /// (`undo::apply_in_frame`).
    #[inline(always)]
    fn make_in_frame(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        log: &mut UndoLog,
        (mover, next): (PlayerId, u32),
    ) {
        self.ops_in_frame(pos, list, m, log, next);
        if let Some(c) = &self.clock {
            c.run(pos, mover, m.capture_made(), m.piece, log);
        } else if !self.def.after_move.is_empty() {
            self.after_move(pos, list, m, mover, log);
        }
    }

    /// The `after-move` program of [`Rules::make`] when it is not a clock.
    #[inline(never)]
    fn after_move(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        mover: PlayerId,
        log: &mut UndoLog,
    ) {
        let path = list.path(m);
        let ends = (path[0], path[path.len() - 1]);
        let captured = m.capture_made();
        if self.after_move_plain
            && self.after_move_plain_run(pos, mover, (captured, m.piece), ends, log)
        {
            return;
        }
        let mut extra = std::mem::take(&mut log.after_ops);
        let mut scratch = std::mem::take(&mut log.after_scratch);
        extra.clear();
        let after = Mode::AfterMove {
            captured,
            piece: m.piece,
        };
        Exec::new(self, pos, mover, after).run_after_move(ends, &mut scratch, &mut extra);
        apply_more(pos, &extra, log);
        log.after_ops = extra;
        log.after_scratch = scratch;
    }

    /// Plays a move's own ops only (no `after-move`): enough to test what the move leaves attacked.
    #[inline(always)]
    pub(super) fn make_ops(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        log: &mut UndoLog,
    ) {
        undo::push_frame(pos, log);
        self.ops_in_frame(pos, list, m, log, self.next_turn(pos.turn));
    }

    /// [`Rules::make_ops`] into the undo frame last opened, with the next turn index given.
    #[inline(always)]
    fn ops_in_frame(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        log: &mut UndoLog,
        next: u32,
    ) {
        if m.simple {
            undo::apply_simple_in_frame(pos, m, next, log);
            return;
        }
        let path = list.path(m);
        let (from, to) = if m.pass || path.len() < 2 {
            (NONE, NONE)
        } else {
            (path[path.len() - 2], path[path.len() - 1])
        };
        undo::apply_in_frame(pos, &list.ops(m), next, from, to, log);
    }

    /// Counts leaf move sequences of length `depth` (every leaf move is made).
    pub fn perft(&self, pos: &mut Position, depth: u32) -> u64 {
        self.perft_with(pos, depth, PerftOptions::default())
    }

    /// Perft with options: merge equal draughts captures, or count the last level in bulk.
    pub fn perft_with(&self, pos: &mut Position, depth: u32, opts: PerftOptions) -> u64 {
        self.perft_leaves(pos, depth, opts, &mut |_| {})
    }

    /// Perft that shows `leaf` each leaf position made (none with `bulk`), as perft makes it:
    /// what tells perft's own ways of making a move apart from `make`'s.
    pub fn perft_leaves(
        &self,
        pos: &mut Position,
        depth: u32,
        opts: PerftOptions,
        leaf: &mut impl FnMut(&Position),
    ) -> u64 {
        let mut bufs: Vec<MoveList> = (0..=depth).map(|_| MoveList::new()).collect();
        let mut log = UndoLog::new();
        let mut ws = Workspace::default();
        if opts.bulk && !opts.unique {
            // The last level counted (`Rules::count_legal`).
            return self.perft_rec::<true>(&mut ws, pos, depth, &mut bufs, &mut log, opts, leaf);
        }
        self.perft_rec::<false>(&mut ws, pos, depth, &mut bufs, &mut log, opts, leaf)
    }

    /// Perft below `pos`; with `COUNT`, the last level by [`Rules::count_legal`].
    #[allow(clippy::too_many_arguments)]
    fn perft_rec<const COUNT: bool>(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        depth: u32,
        bufs: &mut [MoveList],
        log: &mut UndoLog,
        opts: PerftOptions,
        leaf: &mut impl FnMut(&Position),
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (list, rest) = bufs.split_first_mut().expect("a buffer per depth");
        if COUNT && depth == 1 {
            // Most moves counted without being written (`FastPath::Count`).
            return self.count_legal(ws, pos, list);
        }
        self.legal_moves_in(ws, pos, list);
        if opts.unique {
            unique_captures(list);
        }
        if opts.bulk && depth == 1 {
            return list.len() as u64;
        }
        // Every move of this position has the same mover and next turn.
        let turns = (self.entry(pos.turn).owner, self.next_turn(pos.turn));
        // A simple move is played and taken back without the log when `after-move` is
        // nothing or a clock (whose outcomes are the same for every move of the position).
        let mut clock = (self.clock.as_ref()).map(|c| c.leaves(pos, turns.0));
        let simple_ok = clock.is_some() || self.def.after_move.is_empty();
        if depth == 1 {
            // The leaves: each is made and taken back, all in one undo frame (the position
            // before each is the same).
            undo::push_frame(pos, log);
            for m in &list.moves {
                if m.simple && simple_ok {
                    let undo = make_simple_clocked(pos, m, turns.1, &mut clock, true);
                    leaf(pos);
                    undo::unmake_simple(pos, &undo);
                    continue;
                }
                self.make_in_frame(pos, list, m, log, turns);
                leaf(pos);
                undo::undo_in_frame(pos, log);
            }
            undo::pop_frame(log);
            return list.len() as u64;
        }
        let mut n = 0;
        for m in &list.moves {
            if m.simple && simple_ok {
                let undo = make_simple_clocked(pos, m, turns.1, &mut clock, false);
                n += self.perft_rec::<COUNT>(ws, pos, depth - 1, rest, log, opts, leaf);
                undo::unmake_simple(pos, &undo);
                continue;
            }
            self.make_from(pos, list, m, log, turns);
            n += self.perft_rec::<COUNT>(ws, pos, depth - 1, rest, log, opts, leaf);
            undo::revert_inline(pos, log);
        }
        n
    }
}

/// [`undo::make_simple`] (of a `leaf`: [`undo::make_simple_leaf`]), then the `after-move`
/// clock if there is one (perft's simple moves).
#[inline(always)]
fn make_simple_clocked(
    pos: &mut Position,
    m: &Move,
    next: u32,
    clock: &mut Option<after::ClockLeaves>,
    leaf: bool,
) -> undo::SimpleUndo {
    let mut undo = if leaf {
        undo::make_simple_leaf(pos, m, next)
    } else {
        undo::make_simple(pos, m, next)
    };
    if let Some(c) = clock {
        c.run_simple(pos, m, &mut undo);
    }
    undo
}

/// Perft counting conventions.
#[derive(Clone, Copy, Debug, Default)]
pub struct PerftOptions {
    /// Count capture chains with the same start, end and set of captured pieces once.
    pub unique: bool,
    /// Count the moves of the last level without making them.
    pub bulk: bool,
}

/// Keeps one move per (start, end, set of captured squares): the D convention of draughts perft.
pub fn unique_captures(list: &mut MoveList) {
    let mut seen: Vec<(u16, u16, Vec<u16>)> = Vec::new();
    let keys: Vec<(u16, u16, Vec<u16>)> = list
        .moves
        .iter()
        .map(|m| {
            let p = list.path(m);
            let mut caps = list.captured(m).to_vec();
            caps.sort_unstable();
            (p[0], p[p.len() - 1], caps)
        })
        .collect();
    let mut k = keys.into_iter();
    list.retain(|_| {
        let key = k.next().expect("a key per move");
        if key.2.is_empty() || !seen.contains(&key) {
            seen.push(key);
            true
        } else {
            false
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seeded random games of a shipped game: after every move made, every perft-style simple
    /// make and every move taken back, the square sets of the pieces agree with the cells.
    fn sets_follow_the_cells(text: &str, name: &str, exact: bool) {
        let loaded = crate::load(name, text.as_bytes(), &crate::expand::NoFiles);
        let (def, _) = crate::resolve_game(&loaded.games[0]);
        let rules = Rules::new(def.expect("resolves"));
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n.max(1)
        };
        let mut ws = Workspace::default();
        let mut log = UndoLog::new();
        let (mut made, mut simple) = (0, 0);
        for _game in 0..4 {
            let mut pos = rules.initial();
            log.clear();
            for _ply in 0..120 {
                let mut list = MoveList::new();
                rules.legal_moves_in(&mut ws, &mut pos, &mut list);
                if list.is_empty() {
                    break;
                }
                assert_eq!(pos.owned.ok, exact, "{name}: sets kept");
                let turn = pos.turn;
                for m in list.moves.iter().filter(|m| m.simple) {
                    let before = pos.clone();
                    let undo = undo::make_simple(&mut pos, m, turn);
                    assert!(pos.owned_agrees(), "{name}: a simple move");
                    undo::unmake_simple(&mut pos, &undo);
                    let undo = undo::make_simple_leaf(&mut pos, m, turn);
                    assert!(!pos.owned.ok && pos.owned_agrees(), "{name}: a leaf");
                    undo::unmake_simple(&mut pos, &undo);
                    assert_eq!(pos, before, "{name}: taken back");
                    simple += 1;
                }
                let m = list.moves[next(list.len())];
                let before = pos.clone();
                rules.make(&mut pos, &list, &m, &mut log);
                assert!(pos.owned_agrees(), "{name}: a move");
                undo::revert(&mut pos, &mut log);
                assert_eq!(pos, before, "{name}: taken back");
                rules.make(&mut pos, &list, &m, &mut log);
                made += 1;
            }
        }
        assert!(
            made > 100 && simple > 100,
            "{name}: {made} moves, {simple} simple"
        );
    }

    #[test]
    fn square_sets_follow_every_write() {
        sets_follow_the_cells(include_str!("../../../games/chess.zrf"), "chess.zrf", true);
        let checkers = include_str!("../../../games/checkers.zrf");
        sets_follow_the_cells(checkers, "checkers.zrf", true);
        let international = include_str!("../../../games/international-draughts.zrf");
        sets_follow_the_cells(international, "international-draughts.zrf", true);
        // 80 squares: no sets.
        let capablanca = include_str!("../../../games/capablanca.zrf");
        sets_follow_the_cells(capablanca, "capablanca.zrf", false);
    }
}
