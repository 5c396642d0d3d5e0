//! Attack tests: whether a piece of another side could capture on a square, from the attack
//! tables (leaps and slides) or by running the blocks in attack mode. The executor's
//! `attacked?` and `defended?` ask them, and so do royal safety and the goals.

use super::Generator;
use crate::def::{MoveTypeId, PlayerId, NONE};
use crate::engine::exec::Mode;
use crate::engine::{Cell, Exec, MoveList, Position, Scratch, DEAD};

impl Generator {
    /// Whether a piece of a player other than `side` (or of `side` itself, when `by_enemy` is
    /// false) could capture on `sq` with moves of the given type.
    pub fn attacked(
        &self,
        pos: &Position,
        sq: u16,
        side: PlayerId,
        move_type: Option<MoveTypeId>,
        by_enemy: bool,
    ) -> bool {
        if by_enemy && move_type.is_none() && self.attacks.usable {
            return self.attacked_fast(pos, sq, side);
        }
        self.attacked_general(pos, sq, side, move_type, by_enemy)
    }

    /// Whether a piece of player `pl` attacks `sq` by a leap or a slide of the tables, on the
    /// board whose cells `cell` reads.
    #[inline(always)]
    pub(in crate::engine) fn leap_or_slide_hits(
        &self,
        pl: usize,
        sq: usize,
        cell: impl Fn(usize) -> Cell,
    ) -> bool {
        let a = &self.attacks;
        let n_pos = self.def.board.n_pos();
        let n_dirs = self.def.board.directions.len();
        let mine = |c: Cell| !c.is_empty() && c.owner as usize == pl && c.marks & DEAD == 0;
        for &(src, piece) in &a.leap_to[pl * n_pos + sq] {
            let c = cell(src as usize);
            if mine(c) && c.piece == piece + 1 {
                return true;
            }
        }
        for (d, pieces) in &a.slides[pl] {
            let base = (pl * n_dirs + d.idx()) * n_pos;
            let mut q = a.rev[base + sq];
            while q != NONE {
                let c = cell(q as usize);
                if !c.is_empty() {
                    if mine(c) && pieces[c.piece as usize - 1] {
                        return true;
                    }
                    break;
                }
                q = a.rev[base + q as usize];
            }
        }
        false
    }

    /// `attacked?` through the derived patterns, running only irregular blocks.
    pub(in crate::engine) fn attacked_fast(&self, pos: &Position, sq: u16, side: PlayerId) -> bool {
        let a = &self.attacks;
        let n_pos = pos.cells.len();
        let sq = sq as usize;
        for pl in 0..self.def.players.len() {
            if pl == side.idx() {
                continue;
            }
            let mine = |c: Cell| !c.is_empty() && c.owner as usize == pl && c.marks & DEAD == 0;
            if self.leap_or_slide_hits(pl, sq, |q| pos.cells[q]) {
                return true;
            }
            // Irregular blocks (castling, en passant, jumps over a piece) that could capture
            // here run as programs.
            let candidates = &a.irregular_to[pl * n_pos + sq];
            // Buffers only once a candidate stands where it could attack from.
            let mut run: Option<(Scratch, MoveList, Exec)> = None;
            for &(start, piece, bi) in candidates {
                let c = pos.cells[start as usize];
                if !mine(c) || c.piece != piece + 1 {
                    continue;
                }
                let (scratch, out, ex) = run.get_or_insert_with(|| {
                    let attack = Mode::Attack {
                        target: sq as u16,
                        defender: side.0,
                    };
                    let ex = Exec::new(self, pos, PlayerId(pl as u8), attack);
                    (Scratch::default(), MoveList::new(), ex)
                });
                ex.run(
                    &self.def.pieces[piece as usize].moves[bi as usize],
                    start,
                    None,
                    scratch,
                    out,
                );
                if ex.hit {
                    return true;
                }
            }
        }
        false
    }

    /// `attacked?` by running every block of the other side in attack mode.
    pub fn attacked_general(
        &self,
        pos: &Position,
        sq: u16,
        side: PlayerId,
        move_type: Option<MoveTypeId>,
        by_enemy: bool,
    ) -> bool {
        let mut scratch = Scratch::default();
        let mut out = MoveList::new();
        for p in 0..self.def.players.len() {
            let other = PlayerId(p as u8);
            if (other == side) == by_enemy {
                continue;
            }
            // The imagined piece on an empty target belongs to the side being attacked.
            let defender = if by_enemy {
                side.0
            } else {
                (side.0 + 1) % self.def.players.len().max(1) as u8
            };
            let attack = Mode::Attack {
                target: sq,
                defender,
            };
            let mut ex = Exec::new(self, pos, other, attack);
            for from in 0..pos.cells.len() {
                let cell = pos.cells[from];
                if cell.is_empty() || cell.owner != other.0 || cell.marks & DEAD != 0 {
                    continue;
                }
                for block in &self.def.pieces[cell.piece as usize - 1].moves {
                    if move_type.is_some() && block.move_type != move_type {
                        continue;
                    }
                    ex.run(block, from as u16, None, &mut scratch, &mut out);
                    if ex.hit {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the cell holds a royal piece of `side`.
    #[inline]
    pub fn royal_of(&self, c: Cell, side: PlayerId) -> bool {
        !c.is_empty() && c.owner == side.0 && self.royal[c.piece as usize - 1]
    }

    /// Whether any royal piece of `side` stands attacked.
    pub fn royal_attacked(&self, pos: &Position, side: PlayerId) -> bool {
        (0..pos.cells.len()).any(|sq| {
            self.royal_of(pos.cells[sq], side) && self.attacked(pos, sq as u16, side, None, true)
        })
    }
}
