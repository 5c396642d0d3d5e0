//! Singular extensions: the table's move is searched a ply deeper when every other move fails
//! low against a beta lowered below the table's score, at about half the depth; when the other
//! moves hold that lowered beta and it is at or above the window's beta, the node is cut
//! (multi-cut); when they hold it but the table's score alone is at or above beta, the
//! table's move is searched a ply shallower. As Stockfish does, from depth 4 away from the
//! principal variation and 6 on it; in games without drops or compulsory captures, and with no
//! extension once fewer than a quarter of the starting pieces are left (measured in chess only,
//! docs/strength.md).

use super::*;

/// Singular extensions are tried from this depth on away from the principal variation.
const SINGULAR_DEPTH: i32 = 4;
/// And from this depth on at principal-variation nodes.
const SINGULAR_PV_DEPTH: i32 = 6;
/// The lowered beta: the table's score less this a ply of depth.
const SINGULAR_MARGIN: i32 = 4;

/// What the singular test decided for a node.
pub(super) enum Singular {
    /// The node's value (multi-cut, or the search was stopped).
    Cut(i32),
    /// Plies added to the table's move's depth (-1, 0 or 1).
    Extend(i32),
}

impl Search<'_> {
    /// The singular test at `ply` (not the root, not in check, not within another test), for
    /// a table entry that is a lower bound from at most three plies shallower, not a mate
    /// score. The other moves are searched by [`Search::alphabeta`] at the same ply with the
    /// table's move left out ([`Search::excluded`]): no table probe or store, no null move.
    pub(super) fn singular(
        &mut self,
        entry: Option<tt::Entry>,
        depth: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        pv_node: bool,
    ) -> Singular {
        let Some(e) = entry else {
            return Singular::Extend(0);
        };
        if !self.singular_ok
            || ply == 0
            || in_check
            || depth < SINGULAR_DEPTH
            || (pv_node && depth < SINGULAR_PV_DEPTH)
            || self.excluded[ply] != 0
            || e.fp == 0
            || e.bound() & tt::LOWER == 0
            || (e.depth as i32) < depth - 3
        {
            return Singular::Extend(0);
        }
        let tv = from_tt(e.score as i32, ply);
        if tv.abs() >= MATE_BOUND {
            return Singular::Extend(0);
        }
        let sbeta = tv - SINGULAR_MARGIN * depth;
        self.excluded[ply] = e.fp;
        let v = self.alphabeta((depth - 1) / 2, sbeta - 1, sbeta, ply);
        self.excluded[ply] = 0;
        if self.aborted {
            Singular::Cut(0)
        } else if v < sbeta {
            // Extended up to twice the iteration's depth from the root, as single replies, and
            // not in sparse endings: there the lines a single move holds are long and narrow
            // (a royal piece walking), and extending them cost a rook ending 2.8 times the
            // nodes to depth 7 for no gain in games.
            Singular::Extend(((ply as i32) < 2 * self.root_depth && !self.sparse()) as i32)
        } else if sbeta >= beta {
            Singular::Cut(sbeta)
        } else if tv >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Fewer than a quarter of the pieces of the starting position are on the board.
    fn sparse(&self) -> bool {
        4 * self.pos.cells.iter().filter(|c| !c.is_empty()).count() < self.start_pieces
    }
}
