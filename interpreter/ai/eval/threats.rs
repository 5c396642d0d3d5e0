//! Threats: the other side's pieces a side attacks where the exchange plainly favours it, in
//! the style of the classical chess engines' threat terms, from the attack sets the mobility
//! term (`activity.rs`) builds on boards of at most 64 squares, so nothing is walked again.
//!
//! For each side and each of the other side's non-royal pieces: attacked by a promoter when it
//! is not one itself; attacked by a non-promoting piece of lesser worth; attacked and defended
//! by nothing (hanging). Each such piece counts its weight for the attacking side. The side to
//! move's threats count as the other's: the search remembers evaluations by the board alone
//! (`Position::board_key`), so the evaluation may not read the turn.

use super::weights::hundredths;
use super::Weights;

/// The most piece types the term handles (square sets per side and type).
pub(super) const MAX_TYPES: usize = 16;

/// The term's tables.
#[derive(Clone, Debug)]
pub(super) struct Threats {
    n_pieces: usize,
    /// The non-royal types by worth, ascending, each with whether the next one is worth more
    /// (a group of equal worth ends there).
    order: Vec<(usize, bool)>,
    /// Per type: whether it promotes.
    promoter: Vec<bool>,
    /// The promoting types, the non-royal types, and those neither royal nor promoting.
    promoters: Vec<usize>,
    non_royal: Vec<usize>,
    pieces: Vec<usize>,
    lesser: i64,
    by_promoter: i64,
    hanging: i64,
}

/// The square sets of one evaluation: per side (0 and 1, the cells' owners) and type, the
/// pieces and the squares they attack.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Sets {
    pub(super) at: [[u64; MAX_TYPES]; 2],
    pub(super) att: [[u64; MAX_TYPES]; 2],
}

impl Threats {
    /// The term for types of worth `base` (royal and promoting types marked), or `None` when
    /// all its weights are 0 or the game has too many types.
    pub(super) fn new(
        base: &[i32],
        royal: &[bool],
        promoter: &[bool],
        w: &Weights,
    ) -> Option<Threats> {
        let n_pieces = base.len();
        let weights = [w.threat_lesser, w.threat_promoter, w.hanging];
        if n_pieces > MAX_TYPES || weights.iter().all(|&x| hundredths(x) == 0) {
            return None;
        }
        let mut types: Vec<usize> = (0..n_pieces)
            .filter(|&t| !royal[t] && base[t] > 0)
            .collect();
        types.sort_by_key(|&t| base[t]);
        let order = (0..types.len())
            .map(|k| {
                let ends = k + 1 == types.len() || base[types[k + 1]] > base[types[k]];
                (types[k], ends)
            })
            .collect();
        Some(Threats {
            n_pieces,
            order,
            promoter: promoter.to_vec(),
            promoters: (0..n_pieces).filter(|&t| promoter[t]).collect(),
            non_royal: (0..n_pieces).filter(|&t| !royal[t]).collect(),
            pieces: (0..n_pieces)
                .filter(|&t| !royal[t] && !promoter[t])
                .collect(),
            lesser: hundredths(w.threat_lesser) as i64,
            by_promoter: hundredths(w.threat_promoter) as i64,
            hanging: hundredths(w.hanging) as i64,
        })
    }

    /// The threats of side `me` less the other's, in hundredths.
    pub(super) fn score(&self, s: &Sets, me: usize) -> i64 {
        let union =
            |sets: &[u64; MAX_TYPES], types: &[usize]| types.iter().fold(0u64, |u, &t| u | sets[t]);
        let all = [0, 1].map(|side| s.att[side][..self.n_pieces].iter().fold(0, |u, &a| u | a));
        let pawns = [0, 1].map(|side| union(&s.att[side], &self.promoters));
        let victims = [0, 1].map(|side| union(&s.at[side], &self.non_royal));
        let mut v = 0i64;
        for side in 0..2 {
            let other = 1 - side;
            // Attacked by a lesser piece that does not promote: the types by worth, each group
            // of equal worth against the attacks of the groups below it.
            let (mut below, mut group) = (0u64, 0u64);
            let mut lesser = 0u32;
            for &(t, ends) in &self.order {
                lesser += (s.at[other][t] & below).count_ones();
                if !self.promoter[t] {
                    group |= s.att[side][t];
                }
                if ends {
                    below |= group;
                    group = 0;
                }
            }
            let pieces = union(&s.at[other], &self.pieces);
            let by_promoter = (pieces & pawns[side]).count_ones();
            let hanging = (victims[other] & all[side] & !all[other]).count_ones();
            let x = self.lesser * lesser as i64
                + self.by_promoter * by_promoter as i64
                + self.hanging * hanging as i64;
            v += if side == me { x } else { -x };
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use crate::ai::eval::{Evaluator, Weights};
    use crate::def::PlayerId;
    use crate::engine::Rules;

    /// A knight attacking an undefended rook: attacked by a lesser piece and hanging, for
    /// White and against Black; with the weights at 0 the term is gone.
    #[test]
    fn knight_on_a_hanging_rook() {
        let src = crate::shipped::GAMES[0].1;
        let loaded = crate::load("chess.zrf", src.as_bytes(), &crate::expand::NoFiles);
        let (def, _) = crate::resolve_game(&loaded.games[0]);
        let rules = Rules::new(def.expect("chess resolves"));
        let w = Weights::default();
        let off = Weights {
            threat_lesser: 0.0,
            threat_promoter: 0.0,
            hanging: 0.0,
            ..w.clone()
        };
        let (on, off) = (
            Evaluator::with_weights(&rules, &w),
            Evaluator::with_weights(&rules, &off),
        );
        let pos = crate::setup::parse(&rules, "4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1").expect("fen");
        let gain = (w.threat_lesser + w.hanging).round() as i32;
        for (me, sign) in [(PlayerId(0), 1), (PlayerId(1), -1)] {
            assert_eq!(on.eval(&pos, me) - off.eval(&pos, me), sign * gain);
        }
    }
}
