//! Slider mobility: the squares a sliding piece reaches on the actual board, against what it
//! reaches on the empty one. The square tables (`eval`) hold each type's mobility measured on
//! random boards; this term adds what the position's own blockers do to the pieces that slide
//! (a bishop shut in by its pawns, a rook on an open file), read from the attack tables.

use crate::def::NONE;
use crate::engine::{Position, Rules};

/// Share of a slider's worth that its mobility moves, from none to all of its empty-board
/// squares (half of them counts as average).
const SHARE: f64 = 0.15;
/// Share of its empty-board squares a slider is taken to reach on an average board.
const AVERAGE: f64 = 0.5;

/// Per player and piece type, the worth of one square reached, in 1/1024 of a hundredth, and
/// what a piece of that type is taken to reach on average (both 0 for types that do not slide).
pub struct Mobility {
    n_pieces: usize,
    per_square: Vec<i32>,
    average: Vec<i32>,
}

impl Mobility {
    /// The weights of a two-sided game with usable attack tables; `worth[t]` is a type's worth.
    pub fn new(rules: &Rules, worth: &[i32]) -> Mobility {
        let def = &rules.def;
        let n_pieces = def.pieces.len();
        let n_players = def.players.len();
        let n_pos = def.board.n_pos();
        let n_dirs = def.board.directions.len();
        let mut per_square = vec![0; n_players * n_pieces];
        let mut average = vec![0; n_players * n_pieces];
        for pl in 0..n_players.min(rules.attacks.slides.len()) {
            for t in 0..n_pieces {
                if rules.royal[t] || worth[t] <= 0 {
                    continue;
                }
                // Squares reached on the empty board, averaged over the board.
                let mut total = 0usize;
                for (dir, pieces) in &rules.attacks.slides[pl] {
                    if !pieces[t] {
                        continue;
                    }
                    let base = (pl * n_dirs + dir.idx()) * n_pos;
                    for sq in 0..n_pos {
                        let mut q = def.board.next[base + sq];
                        while q != NONE {
                            total += 1;
                            q = def.board.next[base + q as usize];
                        }
                    }
                }
                if total == 0 {
                    continue;
                }
                let empty = total as f64 / n_pos as f64;
                let i = pl * n_pieces + t;
                per_square[i] = (SHARE * worth[t] as f64 / empty * 1024.0).round() as i32;
                average[i] = (AVERAGE * empty * per_square[i] as f64).round() as i32;
            }
        }
        Mobility {
            n_pieces,
            per_square,
            average,
        }
    }

    /// The mobility term of `side` less the other side's, in hundredths.
    pub fn eval(&self, rules: &Rules, pos: &Position, side: u8) -> i32 {
        let def = &rules.def;
        let n_pos = pos.cells.len();
        let n_dirs = def.board.directions.len();
        let mut sum = 0i64;
        for (sq, &c) in pos.cells.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            let pl = c.owner as usize;
            let i = pl * self.n_pieces + c.piece as usize - 1;
            let w = self.per_square[i];
            if w == 0 {
                continue;
            }
            let mut reach = 0i32;
            for (dir, pieces) in &rules.attacks.slides[pl] {
                if !pieces[c.piece as usize - 1] {
                    continue;
                }
                let base = (pl * n_dirs + dir.idx()) * n_pos;
                let mut q = def.board.next[base + sq];
                while q != NONE {
                    let d = pos.cells[q as usize];
                    if !d.is_empty() {
                        reach += (d.owner != c.owner) as i32;
                        break;
                    }
                    reach += 1;
                    q = def.board.next[base + q as usize];
                }
            }
            let v = (reach * w - self.average[i]) as i64;
            if c.owner == side {
                sum += v;
            } else {
                sum -= v;
            }
        }
        (sum / 1024) as i32
    }
}
