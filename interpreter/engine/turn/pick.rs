//! Finding a legal move by its index without writing the others (`Rules::legal_move_at`,
//! random playouts), after a count that noted what it learnt (`Rules::count_legal_noted`).
//!
//! The legal list holds the moves of the mover's pieces by square, ascending, each square's
//! in its row's order, then the drops; the filters of the games the count plan takes judge
//! each move alone. So the square holding an index is found from each square's counted moves
//! (`Workspace::counted_to`, restricted as royal safety allows) and the rest's (the list the
//! count generated); there, a piece whose counted moves come first in its row
//! (`RowOrder::counted_first`) has the wanted one written by running its one gate
//! (`RowOrder::squares`, `Generator::gen_gate`), and any other has its moves generated alone
//! and filtered (`Rules::legal_moves_from`).

use super::workspace::Workspace;
use super::Rules;
use crate::engine::moves::MoveList;
use crate::engine::position::Position;
use crate::engine::scratch::Mode;

/// Where [`Rules::legal_move_at`] found a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picked {
    /// At this index of the list given to [`Rules::count_legal_noted`].
    Listed(usize),
    /// At this index of the list [`Rules::legal_move_at`] wrote.
    Written(usize),
}

impl Rules {
    /// The `i`-th legal move of the position that [`Rules::count_legal_noted`] last counted with
    /// `list` (the `i`-th of [`Rules::legal_moves_in`]'s list), found without writing the
    /// others: in `list`, or in `out`, which then holds the moves of its piece. `None` when
    /// the count was of another position or other buffers, or `i` is past it.
    ///
    /// The legal list holds the moves of the mover's pieces by square, ascending, each
    /// square's in its row's order, then the drops; the filters judge each move alone (the
    /// count plan holds only such games). So the move is found by counting each square's
    /// legal moves (the counted ones, then those of `list` that start there), and then, on
    /// the square that holds it, generating that piece's moves alone.
    pub fn legal_move_at(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        list: &MoveList,
        i: usize,
        out: &mut MoveList,
    ) -> Option<Picked> {
        let memo = ws.counted;
        if memo.hash != Some(pos.hash) {
            return None;
        }
        if memo.whole {
            return (i < list.len()).then_some(Picked::Listed(i));
        }
        // Counted only in `Mode::Generate`, and in games of one rank of blocks (no move
        // priorities: `compiled/count.rs`); the generation below runs in the same mode.
        if ws.scratch.mode != Mode::Generate {
            return None;
        }
        let rest = if memo.rest_void {
            &[][..]
        } else {
            &list.moves[..]
        };
        let (mut left, mut j, mut last) = (i, 0, 0);
        let mut squares = memo.skip | memo.part;
        loop {
            // Past the board's squares once the counted ones are done (drops, a pass).
            let next = match squares {
                0 => u32::MAX,
                s => s.trailing_zeros(),
            };
            while let Some(m) = rest.get(j) {
                let from = u32::from(list.ends(m).0);
                if from >= next {
                    break;
                }
                if from < last {
                    // Not in the order this relies on.
                    return None;
                }
                last = from;
                if left == 0 {
                    return Some(Picked::Listed(j));
                }
                left -= 1;
                j += 1;
            }
            if squares == 0 {
                return None;
            }
            squares &= squares - 1;
            let sq = next as u16;
            let lands = if sq == memo.king {
                memo.king_safe
            } else {
                memo.kept
            };
            let counted = ws.counted_to.get(next as usize).map_or(0, |&t| t & lands);
            let (mut here, at) = (counted.count_ones() as usize, j);
            while rest.get(j).is_some_and(|m| list.ends(m).0 == sq) {
                (here, j, last) = (here + 1, j + 1, next);
            }
            if left < here {
                return self.legal_move_on(ws, pos, (sq, left), at, out);
            }
            left -= here;
        }
    }

    /// The `k`-th legal move of the piece on `sq` (`Rules::legal_move_at`), whose moves in
    /// `list` (the rest's, if any) begin at index `j`: that one, or one written into `out` with
    /// the other moves of its gate or of its piece.
    fn legal_move_on(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        (sq, k): (u16, usize),
        j: usize,
        out: &mut MoveList,
    ) -> Option<Picked> {
        let memo = ws.counted;
        let entry = self.entry(pos.turn);
        let c = pos.cells[sq as usize];
        let pi = (c.piece as usize).checked_sub(1)?;
        let row = self.count.order(entry.owner.idx(), pi, sq as usize)?;
        // Its counted moves: a piece neither royal nor pinned moves where they land on
        // `kept`, the royal piece where its steps are safe.
        let lands = if sq == memo.king {
            memo.king_safe
        } else {
            memo.kept
        };
        let legal = ws.counted_to.get(sq as usize)? & lands;
        let counted = legal.count_ones() as usize;
        // The other gates write nothing here, or only after the counted ones: the counted
        // moves, in the order of the row's squares, then the rest's (in `list`).
        let first = memo.skip >> sq & 1 != 0 || row.counted_first;
        if !first {
            // The piece's moves, filtered.
            self.legal_moves_from(ws, pos, sq, out);
            return (out.cut.is_none() && k < out.len()).then_some(Picked::Written(k));
        }
        if k >= counted {
            return Some(Picked::Listed(j + k - counted));
        }
        // Only the gate of the one wanted is run.
        let (a, b) = row.squares;
        let order = self.count.order.get(a as usize..b as usize)?;
        let mut squares = order.iter().filter(|&&(q, _)| legal >> (q & 63) & 1 != 0);
        let &(to, gate) = squares.nth(k)?;
        out.clear();
        let sel = self.type_selector(entry.move_type);
        (self.gen_gate(pos, (entry.owner, sel), (sq, gate), &mut ws.scratch, out));
        let at = out.moves.iter().position(|m| out.ends(m) == (sq, to))?;
        Some(Picked::Written(at))
    }
}
