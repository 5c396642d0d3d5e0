//! What each fast path covers in a game (`EngineConfig`): how many of the things it compiles
//! (tree nodes, blocks, gate-row entries, adds, programs) it takes, and how many are left to
//! the plain tree, as built for the configuration in force.

use super::Rules;
use crate::engine::config::FastPath;
use crate::engine::special;

/// One fast path's share of a game: `taken` of `of` units (`unit`) go its way; the rest fall
/// back to the plain tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathCount {
    /// The path.
    pub path: FastPath,
    /// What is counted.
    pub unit: &'static str,
    /// The units the path takes.
    pub taken: usize,
    /// All units.
    pub of: usize,
}

impl Rules {
    /// What each fast path covers here (see [`PathCount`]), in the order of
    /// [`FastPath::ALL`]; a path switched off takes nothing. `Distinct` is decided per
    /// position, so it counts the move blocks whose moves generation notes by start square.
    pub fn path_counts(&self) -> Vec<PathCount> {
        let c = self.config;
        let one = |b: bool| usize::from(b);
        let trees = self.special.count();
        let [gates, _, simple, jump] = self.gate_rows.count();
        let all = self.gen_lists.get(self.rank_passes.len());
        let entries = || all.into_iter().flatten().flatten();
        let move_blocks = entries().count();
        let gated = entries()
            .filter(|e| e.table != special::GateTable::None)
            .count();
        let o = &self.def.options;
        let straight = entries().filter(|e| e.straight).count()
            * one(!(o.recycle_captures && o.deferred_captures));
        let drops: usize = self.def.pieces.iter().map(|p| p.drops.len()).sum();
        let on = |p: FastPath, n: usize| if c.get(p) { n } else { 0 };
        let after = one(!self.def.after_move.is_empty());
        let royal = one(self.royal.iter().any(|&r| r));
        // The rows (player, piece type, square) of all blocks that hold a gate.
        let rows: usize = (0..self.def.players.len())
            .filter_map(|pl| self.gate_rows.base(self.rank_passes.len(), pl))
            .map(|b| {
                self.gate_rows
                    .spans(b)
                    .iter()
                    .filter(|(a, b)| a < b)
                    .count()
            })
            .sum();
        let count = |path, unit, taken, of| PathCount {
            path,
            unit,
            taken: on(path, taken),
            of,
        };
        vec![
            count(
                FastPath::Tree,
                "tree nodes",
                trees.nodes - trees.plain,
                trees.nodes,
            ),
            count(
                FastPath::GateRows,
                "move blocks",
                gated * one(gates > 0),
                move_blocks,
            ),
            count(FastPath::Straight, "move blocks", straight, move_blocks),
            count(FastPath::Simple, "row gates", simple, gates),
            count(FastPath::Jump, "row gates", jump, gates),
            count(FastPath::DropMasks, "drop blocks", trees.drop_masks, drops),
            count(FastPath::SimpleMoves, "adds", trees.simple_adds, trees.adds),
            count(
                FastPath::ChainEnds,
                "partial adds",
                trees.partial_adds * one(gates > 0),
                trees.partial_adds,
            ),
            count(FastPath::Distinct, "move blocks", move_blocks, move_blocks),
            count(
                FastPath::AfterMove,
                "programs",
                one(self.after_prog.is_some()) * after,
                after,
            ),
            count(
                FastPath::Clock,
                "programs",
                one(self.clock.is_some()),
                after,
            ),
            count(
                FastPath::Legality,
                "royal games",
                royal * one(self.attacks.usable),
                royal,
            ),
            count(FastPath::Rays, "row gates", self.ray_gates(), gates),
            count(
                FastPath::PieceSets,
                "games",
                one(gates > 0 && self.def.board.n_pos() <= 64 && self.def.players.len() <= 2),
                1,
            ),
            count(FastPath::Count, "rows", self.count.counted(), rows),
        ]
    }
}
