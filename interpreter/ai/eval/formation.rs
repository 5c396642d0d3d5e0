//! The men's formation where captures are compulsory (the draughts games): how evenly a
//! side's men stand on the two wings, and how many hold the centre. Derived from the board's
//! coordinates and the empty-board move graphs of the types that promote (the men); nothing is
//! keyed on a game.

use super::*;

/// Hundredths of a unit lost per man of difference between a side's two wings.
const BALANCE: i64 = 4;
/// Hundredths of a unit gained per man on the centre squares.
const CENTRE_MEN: i64 = 5;
/// How far from the board's middle, in squares along both axes, the centre reaches.
const CENTRE_REACH: f64 = 1.5;

/// Bits of a [`Formation`] entry.
const LEFT: u8 = 1;
const RIGHT: u8 = 2;
const MIDDLE: u8 = 4;

/// Per player, type and square (indexed like the square tables): whether a man standing there
/// is on the left wing, the right wing, and on the centre squares.
#[derive(Clone, Debug)]
pub(super) struct Formation {
    bits: Vec<u8>,
}

/// A square's place on the board in squares: grid indices, else the drawn rectangle's middle
/// over its width and height.
fn coords(def: &GameDef, sq: usize) -> Option<(f64, f64)> {
    let pd = &def.board.positions[sq];
    if let Some((_, idx)) = pd.grid {
        return Some((idx[0] as f64, idx[1] as f64));
    }
    let r = pd.rect?;
    let (w, h) = ((r[2] - r[0]).max(1) as f64, (r[3] - r[1]).max(1) as f64);
    Some((
        (r[0] + r[2]) as f64 / (2.0 * w),
        (r[1] + r[3]) as f64 / (2.0 * h),
    ))
}

impl Formation {
    /// The tables, or `None` when no type promotes or the squares have no coordinates.
    pub(super) fn new(
        rules: &Rules,
        graphs: &[Option<Graph>],
        players: &[PlayerId],
        reach: &[bool],
        n_pieces: usize,
    ) -> Option<Formation> {
        let def = &rules.def;
        let n_pos = def.board.n_pos();
        let at: Vec<Option<(f64, f64)>> = (0..n_pos)
            .map(|sq| coords(def, sq).filter(|_| reach[sq]))
            .collect();
        let span = |f: fn(&(f64, f64)) -> f64| {
            let v = at.iter().flatten().map(f);
            let lo = v.clone().fold(f64::INFINITY, f64::min);
            let hi = v.fold(f64::NEG_INFINITY, f64::max);
            (lo.is_finite() && hi > lo).then_some((lo + hi) / 2.0)
        };
        let mid = (span(|c| c.0)?, span(|c| c.1)?);
        let mut bits = vec![0u8; def.players.len() * n_pieces * n_pos];
        let mut any = false;
        for &p in players {
            for t in 0..n_pieces {
                let Some(g) = &graphs[p.idx() * n_pieces + t] else {
                    continue;
                };
                if g.targets.is_empty() {
                    continue;
                }
                // The wings lie across the men's way: the axis along which the squares a man
                // promotes from spread the most.
                let from: Vec<(f64, f64)> = (0..n_pos)
                    .filter(|&sq| g.promotes[sq])
                    .filter_map(|sq| at[sq])
                    .collect();
                let spread = |f: fn(&(f64, f64)) -> f64| {
                    let v = from.iter().map(f);
                    v.clone().fold(f64::NEG_INFINITY, f64::max) - v.fold(f64::INFINITY, f64::min)
                };
                let across_x = spread(|c| c.0) >= spread(|c| c.1);
                for (sq, c) in at.iter().enumerate() {
                    let Some((x, y)) = *c else { continue };
                    let (a, m) = if across_x { (x, mid.0) } else { (y, mid.1) };
                    let mut b = if a < m {
                        LEFT
                    } else if a > m {
                        RIGHT
                    } else {
                        0
                    };
                    if (x - mid.0).abs() <= CENTRE_REACH && (y - mid.1).abs() <= CENTRE_REACH {
                        b |= MIDDLE;
                    }
                    bits[(p.idx() * n_pieces + t) * n_pos + sq] = b;
                    any = true;
                }
            }
        }
        any.then_some(Formation { bits })
    }

    /// The entry of a piece (`i` its square-table index).
    #[inline]
    pub(super) fn at(&self, i: usize) -> u8 {
        self.bits[i]
    }
}

/// A side's formation, summed over its men.
#[derive(Clone, Copy, Default)]
pub(super) struct Tally {
    left: i64,
    right: i64,
    centre: i64,
}

impl Tally {
    #[inline]
    pub(super) fn add(&mut self, b: u8) {
        self.left += (b & LEFT != 0) as i64;
        self.right += (b & RIGHT != 0) as i64;
        self.centre += (b & MIDDLE != 0) as i64;
    }

    /// Its worth in hundredths: the centre held, less the wings' difference.
    pub(super) fn worth(&self) -> i64 {
        CENTRE_MEN * self.centre - BALANCE * (self.left - self.right).abs()
    }
}
