//! Piece activity on the actual board: each piece's safe squares (mobility) from the attack
//! tables the engine derived for its royal test, with no move generation.
//!
//! Two sides, royal pieces and no drops (the games whose royal squares go by the phase,
//! `phase.rs`), a board of at most [`MAX_SQUARES`] squares and usable attack tables. A piece
//! that is neither royal nor a promoter counts the squares it leaps to or slides over (up to
//! and including the first occupied one) that hold no piece of its own side and that no
//! enemy promoter attacks; each square over the type's expected count is worth a share of
//! the type's worth over its average reach on the empty board.

use super::threats::{Sets, Threats};
use super::weights::hundredths;
use super::*;

/// The largest board measured: the squares the enemy promoters attack are one bit set.
pub(super) const MAX_SQUARES: usize = 256;
/// Fixed point of the per-square weights.
const SHIFT: i32 = 8;

/// The tables of the mobility term.
#[derive(Clone, Debug)]
pub(super) struct Activity {
    n_pos: usize,
    n_pieces: usize,
    /// Per player and type: weight of one safe square, in hundredths `<< SHIFT` (0: not
    /// counted).
    weight: Vec<i32>,
    /// Per player and type: the squares a piece is expected to reach, `<< SHIFT`.
    centre: Vec<i32>,
    /// Per player and type: whether the type is a promoter (its attacks make squares unsafe).
    guard: Vec<bool>,
    /// Forward leaps: `leaps[leap_lo[i]..leap_lo[i + 1]]` for `i = (player * n_pieces + type)
    /// * n_pos + square`.
    leap_lo: Vec<u32>,
    leaps: Vec<u16>,
    /// Per player and type: the first indexes into `fwd` of each sliding direction.
    slides: Vec<Vec<usize>>,
    /// Forward links per player and direction: `fwd[(player * n_dirs + dir) * n_pos + sq]`.
    fwd: Vec<u16>,
    /// Per player and type: whether the type is royal.
    royal: Vec<bool>,
    /// Royal moves between two squares on the empty board, per player:
    /// `royal_dist[(player * n_pos + from) * n_pos + to]` (at most [`FAR`]); empty unless the
    /// game has exactly one royal type.
    royal_dist: Vec<u8>,
    /// A promoter's advancement weight by player, type and square (`<< SHIFT`, 0 to 1).
    advance: Vec<i32>,
    /// The same leaps and slides as one-word sets, where the board allows ([`Bits`]).
    bits: Option<Bits>,
    /// In the ending, hundredths per royal move between a fully advanced promoter and the
    /// other side's royal piece, and its own side's (`Weights::prox_other`, `prox_own`).
    prox_other: i64,
    prox_own: i64,
    /// Hundredths a side gains per royal move its royal piece stands nearer the other
    /// side's, when that side has nothing left but its royal piece (the royal piece has to
    /// help mate it; `Weights::mop_up`).
    mop_up: i64,
    /// The threats term, where the square sets are (`threats.rs`).
    threats: Option<Threats>,
    /// Per player and type: whether only the threats need its attacks (royal, or neither
    /// counted nor a promoter).
    uncounted: Vec<bool>,
}

/// The leaps and slides as sets of squares in one word, on boards of at most 64 squares whose
/// every sliding direction runs through the squares in one order of their indexes (ascending
/// or descending) and whose leap lists name each square once: a slide's squares up to its
/// first occupied one are then its ray less the ray beyond that square, found by a bit scan,
/// and each count is a population count (the same counts as the walks).
#[derive(Clone, Debug)]
struct Bits {
    /// Leap targets, indexed as `leap_lo`'s rows.
    leap: Vec<u64>,
    /// The squares after each square along each direction, indexed as `fwd`.
    ray: Vec<u64>,
    /// Per player and type: its sliding directions (index bases of `fwd`), each with whether
    /// its squares ascend.
    slides: Vec<Vec<(usize, bool)>>,
    /// Whether every piece's leaps and slides reach disjoint squares on the empty board
    /// (then one population count of their union counts them all).
    disjoint: bool,
}

impl Bits {
    /// The tables, or `None` where the board does not allow them.
    fn new(
        n_pos: usize,
        leap_lo: &[u32],
        leaps: &[u16],
        fwd: &[u16],
        slides: &[Vec<usize>],
    ) -> Option<Bits> {
        if n_pos > 64 {
            return None;
        }
        let mut leap = vec![0u64; leap_lo.len() - 1];
        for (row, set) in leap.iter_mut().enumerate() {
            for &q in &leaps[leap_lo[row] as usize..leap_lo[row + 1] as usize] {
                if *set >> q & 1 != 0 {
                    return None;
                }
                *set |= 1 << q;
            }
        }
        let (ray, up) = crate::ai::see::rays(fwd, n_pos)?;
        let slides: Vec<Vec<(usize, bool)>> = (slides.iter())
            .map(|v| v.iter().map(|&b| (b, up[b / n_pos])).collect())
            .collect();
        let disjoint = (0..leap.len()).all(|row| {
            let (i, sq) = (row / n_pos, row % n_pos);
            let mut seen = leap[row];
            slides[i].iter().all(|&(b, _)| {
                let r = ray[b + sq];
                let apart = seen & r == 0;
                seen |= r;
                apart
            })
        });
        Some(Bits {
            leap,
            ray,
            slides,
            disjoint,
        })
    }

    /// The squares a slide from `sq` along `b` (an index base of `fwd`, its squares ascending
    /// or not) passes, up to and including the first occupied one.
    #[inline]
    fn slide(&self, (b, up): (usize, bool), sq: usize, occ: u64) -> u64 {
        let r = self.ray[b + sq];
        let blockers = r & occ;
        if blockers == 0 {
            return r;
        }
        r & !self.ray[b + crate::ai::see::nearest(blockers, up)]
    }
}

/// Royal distances are cut at this many moves.
const FAR: u8 = 8;

/// Whether the game is one the term can measure: two sides, royal pieces, no drops, a board
/// of at most [`MAX_SQUARES`] squares and usable attack tables.
pub(super) fn applies(rules: &Rules, players: &[PlayerId]) -> bool {
    let def = &rules.def;
    let a = &rules.attacks;
    players.len() == 2
        && def.players.len() == 2
        && def.board.n_pos() <= MAX_SQUARES
        && a.usable
        && !a.capped
        && rules.royal.iter().any(|&r| r)
        && def.pieces.iter().all(|p| p.drops.is_empty())
}

/// Builds the term, or `None` where it does not apply.
pub(super) fn activity(
    rules: &Rules,
    graphs: &[Option<Graph>],
    players: &[PlayerId],
    base: &[i32],
    w: &Weights,
) -> Option<Box<Activity>> {
    let def = &rules.def;
    let a = &rules.attacks;
    let n_pos = def.board.n_pos();
    let n_pieces = def.pieces.len();
    let n_players = def.players.len();
    let n_dirs = def.board.directions.len();
    if !applies(rules, players) {
        return None;
    }
    let promoter: Vec<bool> = (0..n_pieces)
        .map(|t| {
            players.iter().any(|p| {
                graphs[p.idx() * n_pieces + t]
                    .as_ref()
                    .is_some_and(|g| g.promotes.iter().any(|&b| b))
            })
        })
        .collect();
    // Forward links.
    let mut fwd = vec![NONE; n_players * n_dirs * n_pos];
    for (i, &r) in a.rev.iter().enumerate() {
        if r != NONE {
            let base = i / n_pos * n_pos;
            fwd[base + r as usize] = (i - base) as u16;
        }
    }
    // Forward leaps per player, type and square.
    let mut rows: Vec<Vec<u16>> = vec![Vec::new(); n_players * n_pieces * n_pos];
    for pl in 0..n_players {
        for target in 0..n_pos {
            for &(src, t) in &a.leap_to[pl * n_pos + target] {
                rows[(pl * n_pieces + t as usize) * n_pos + src as usize].push(target as u16);
            }
        }
    }
    let mut leap_lo = Vec::with_capacity(rows.len() + 1);
    let mut leaps = Vec::new();
    leap_lo.push(0u32);
    for r in &rows {
        leaps.extend_from_slice(r);
        leap_lo.push(leaps.len() as u32);
    }
    let mut slides = vec![Vec::new(); n_players * n_pieces];
    for pl in 0..n_players {
        for (dir, types) in &a.slides[pl] {
            for (t, _) in types.iter().enumerate().filter(|(_, on)| **on) {
                slides[pl * n_pieces + t].push((pl * n_dirs + dir.idx()) * n_pos);
            }
        }
    }
    let mut weight = vec![0i32; n_players * n_pieces];
    let mut centre = vec![0i32; n_players * n_pieces];
    let mut guard = vec![false; n_players * n_pieces];
    for &p in players {
        for t in 0..n_pieces {
            let i = p.idx() * n_pieces + t;
            guard[i] = promoter[t];
            if rules.royal[t] || promoter[t] || def.pieces[t].dummy || base[t] <= 0 {
                continue;
            }
            // Average reach on the empty board over the squares the type can stand on.
            let Some(g) = graphs[i].as_ref() else {
                continue;
            };
            let (mut sum, mut n) = (0usize, 0usize);
            for sq in (0..n_pos).filter(|&sq| g.lo[sq + 1] > g.lo[sq]) {
                sum += reach_empty(&leap_lo, &slides[i], &fwd, i * n_pos + sq, sq);
                n += 1;
            }
            if sum == 0 || n == 0 {
                continue;
            }
            let avg = sum as f64 / n as f64;
            weight[i] = (w.mobility * base[t] as f64 / avg * (1 << SHIFT) as f64).round() as i32;
            centre[i] = (avg / 2.0 * (1 << SHIFT) as f64).round() as i32;
        }
    }
    // The ending's royal proximity: royal distances and promoters' advancement.
    let royal_type: Vec<usize> = (0..n_pieces).filter(|&t| rules.royal[t]).collect();
    let mut royal_dist = Vec::new();
    let mut advance = vec![0i32; n_players * n_pieces * n_pos];
    if royal_type.len() == 1 {
        royal_dist = vec![FAR; n_players * n_pos * n_pos];
        for &p in players {
            let Some(g) = graphs[p.idx() * n_pieces + royal_type[0]].as_ref() else {
                continue;
            };
            for from in 0..n_pos {
                let row = &mut royal_dist[(p.idx() * n_pos + from) * n_pos..][..n_pos];
                row[from] = 0;
                let mut frontier = vec![from];
                let mut d = 0;
                while !frontier.is_empty() && d + 1 < FAR {
                    d += 1;
                    let mut next = Vec::new();
                    for sq in frontier {
                        for &to in &g.edges[g.lo[sq]..g.lo[sq + 1]] {
                            if row[to as usize] == FAR && to as usize != from {
                                row[to as usize] = d;
                                next.push(to as usize);
                            }
                        }
                    }
                    frontier = next;
                }
            }
            for t in (0..n_pieces).filter(|&t| promoter[t]) {
                let Some(g) = graphs[p.idx() * n_pieces + t].as_ref() else {
                    continue;
                };
                let dist = g.distances(n_pos, |sq| g.promotes[sq]);
                let most = dist.iter().filter(|&&d| d != u32::MAX).max().copied();
                let Some(most) = most else { continue };
                let most = (most + 1) as f64;
                for (sq, &d) in dist.iter().enumerate() {
                    if d != u32::MAX && g.lo[sq + 1] > g.lo[sq] {
                        let a = (most - d as f64) / most;
                        advance[(p.idx() * n_pieces + t) * n_pos + sq] =
                            (a * a * (1 << SHIFT) as f64).round() as i32;
                    }
                }
            }
        }
    }
    if weight.iter().all(|&w| w == 0) && royal_dist.is_empty() {
        return None;
    }
    let bits = Bits::new(n_pos, &leap_lo, &leaps, &fwd, &slides);
    let uncounted = (0..n_players * n_pieces)
        .map(|i| rules.royal[i % n_pieces] || weight[i] == 0 && !guard[i])
        .collect();
    let threats = match bits {
        Some(_) => Threats::new(base, &rules.royal, &promoter, w),
        None => None,
    };
    Some(Box::new(Activity {
        n_pos,
        n_pieces,
        weight,
        centre,
        guard,
        leap_lo,
        leaps,
        slides,
        fwd,
        royal: (0..n_players * n_pieces)
            .map(|i| rules.royal[i % n_pieces])
            .collect(),
        royal_dist,
        advance,
        bits,
        prox_other: hundredths(w.prox_other) as i64,
        prox_own: hundredths(w.prox_own) as i64,
        mop_up: hundredths(w.mop_up) as i64,
        threats,
        uncounted,
    }))
}

/// The squares a piece reaches from `sq` on the empty board by the attack tables.
fn reach_empty(leap_lo: &[u32], slides: &[usize], fwd: &[u16], row: usize, sq: usize) -> usize {
    let mut n = (leap_lo[row + 1] - leap_lo[row]) as usize;
    for &b in slides {
        let mut q = fwd[b + sq];
        while q != NONE {
            n += 1;
            q = fwd[b + q as usize];
        }
    }
    n
}

/// Words of a set of squares.
const WORDS: usize = MAX_SQUARES / 64;

/// Whether square `q` is in the set `set`.
#[inline]
fn has(set: &[u64; WORDS], q: u16) -> bool {
    set[q as usize / 64] >> (q % 64) & 1 != 0
}

impl Activity {
    /// The mobility of `me`'s pieces less the other side's, and the royal proximity to the
    /// promoters as far as the game is into the ending (`gone` of `phase_max`), in hundredths.
    pub(super) fn score(&self, pos: &Position, me: PlayerId, gone: i64, phase_max: i64) -> i64 {
        let n_pos = self.n_pos;
        // Occupied squares; per side, the squares it does not count: its own pieces' and
        // those the other side's promoters attack.
        let mut occ = [0u64; WORDS];
        let mut bad = [[0u64; WORDS]; 2];
        // The pieces counted: (square, player and type).
        let mut counted = [(0u16, 0u16); MAX_SQUARES];
        let mut n_counted = 0;
        let mut promoters = [(0u16, 0u16); MAX_SQUARES];
        let mut n_promoters = 0;
        let mut royal_at = [NONE; 2];
        // Per side: its pieces that are not royal, and those that neither are royal nor promote.
        let mut others = [0u32; 2];
        let mut big = [0u32; 2];
        // The threats' square sets (only with `threats`, whose boards have `bits`).
        let mut sets = Sets::default();
        let threats = self.threats.as_ref();
        // The pieces whose attacks only the threats need: royal ones and the uncounted.
        let mut uncounted = [(0u16, 0u16); 64];
        let mut n_uncounted = 0;
        for (sq, &c) in pos.cells[..n_pos].iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            let side = c.owner as usize & 1;
            occ[sq / 64] |= 1 << (sq % 64);
            bad[side][sq / 64] |= 1 << (sq % 64);
            let i = side * self.n_pieces + c.piece as usize - 1;
            others[side] += !self.royal[i] as u32;
            big[side] += !(self.royal[i] || self.guard[i]) as u32;
            if threats.is_some() {
                sets.at[side][c.piece as usize - 1] |= 1 << sq;
                if self.uncounted[i] {
                    uncounted[n_uncounted] = (sq as u16, i as u16);
                    n_uncounted += 1;
                }
            }
            if self.royal[i] {
                royal_at[side] = sq as u16;
            } else if self.guard[i] {
                promoters[n_promoters] = (sq as u16, i as u16);
                n_promoters += 1;
                let row = i * n_pos + sq;
                let other = &mut bad[1 - side];
                if let Some(bits) = &self.bits {
                    other[0] |= bits.leap[row];
                    if threats.is_some() {
                        sets.att[side][c.piece as usize - 1] |= bits.leap[row];
                    }
                    continue;
                }
                for &q in &self.leaps[self.leap_lo[row] as usize..self.leap_lo[row + 1] as usize] {
                    other[q as usize / 64] |= 1 << (q % 64);
                }
            } else if self.weight[i] != 0 {
                counted[n_counted] = (sq as u16, i as u16);
                n_counted += 1;
            }
        }
        let mut sum = [0i64; 2];
        for &(sq, i) in &counted[..n_counted] {
            let (sq, i) = (sq as usize, i as usize);
            let side = i / self.n_pieces;
            let bad = &bad[side];
            let row = i * n_pos + sq;
            let mut n = 0i32;
            if let Some(bits) = &self.bits {
                let good = !bad[0];
                let mut reach = bits.leap[row];
                if bits.disjoint {
                    for &s in &bits.slides[i] {
                        reach |= bits.slide(s, sq, occ[0]);
                    }
                    n = (reach & good).count_ones() as i32;
                } else {
                    n = (bits.leap[row] & good).count_ones() as i32;
                    for &s in &bits.slides[i] {
                        let r = bits.slide(s, sq, occ[0]);
                        n += (r & good).count_ones() as i32;
                        reach |= r;
                    }
                }
                if threats.is_some() {
                    sets.att[side][i % self.n_pieces] |= reach;
                }
                let v = self.weight[i] as i64 * ((n << SHIFT) - self.centre[i]) as i64;
                sum[(side != me.idx()) as usize] += v;
                continue;
            }
            for &q in &self.leaps[self.leap_lo[row] as usize..self.leap_lo[row + 1] as usize] {
                n += !has(bad, q) as i32;
            }
            for &b in &self.slides[i] {
                let mut q = self.fwd[b + sq];
                while q != NONE {
                    n += !has(bad, q) as i32;
                    if has(&occ, q) {
                        break;
                    }
                    q = self.fwd[b + q as usize];
                }
            }
            let v = self.weight[i] as i64 * ((n << SHIFT) - self.centre[i]) as i64;
            sum[(side != me.idx()) as usize] += v;
        }
        let mut v = (sum[0] - sum[1]) >> (2 * SHIFT);
        if let (Some(t), Some(bits)) = (threats, &self.bits) {
            for &(sq, i) in &uncounted[..n_uncounted] {
                let (sq, i) = (sq as usize, i as usize);
                let mut reach = bits.leap[i * n_pos + sq];
                for &s in &bits.slides[i] {
                    reach |= bits.slide(s, sq, occ[0]);
                }
                sets.att[i / self.n_pieces][i % self.n_pieces] |= reach;
            }
            v += t.score(&sets, me.idx());
        }
        if !self.royal_dist.is_empty() && gone > 0 && royal_at[0] != NONE && royal_at[1] != NONE {
            let n = self.n_pos;
            let dist = |side: usize, to: usize| {
                self.royal_dist[(side * n + royal_at[side] as usize) * n + to] as i64
            };
            let mut prox = 0i64;
            for &(sq, i) in &promoters[..n_promoters] {
                let (sq, i) = (sq as usize, i as usize);
                let side = i / self.n_pieces;
                let a = self.advance[i * n + sq] as i64;
                let w = self.prox_other * dist(1 - side, sq) - self.prox_own * dist(side, sq);
                prox += if side == me.idx() { a * w } else { -a * w };
            }
            v += (prox >> SHIFT) * gone / phase_max;
            // A bare royal piece against a side with pieces that do not promote (which mate
            // it): that side's royal piece walks up to it. With promoters only, the
            // promoters' proximity above leads the royal pieces.
            let bare = [others[0] == 0, others[1] == 0];
            if bare[0] != bare[1] && big[bare[0] as usize] > 0 {
                let strong = bare[0] as usize;
                let near = (FAR as i64 - dist(strong, royal_at[1 - strong] as usize)) * self.mop_up;
                v += if strong == me.idx() { near } else { -near };
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts over square sets are the walks' counts.
    #[test]
    fn square_sets_count_as_the_walks() {
        let src = crate::shipped::GAMES[0].1;
        let loaded = crate::load("chess.zrf", src.as_bytes(), &crate::expand::NoFiles);
        let (def, _) = crate::resolve_game(&loaded.games[0]);
        let rules = Rules::new(def.expect("chess resolves"));
        let ev = Evaluator::new(&rules);
        let mut sets = ev.activity.as_deref().expect("chess has the term").clone();
        assert!(sets.bits.is_some(), "chess has square sets");
        assert!(sets.threats.is_some(), "chess has the threats");
        sets.threats = None;
        let mut walks = sets.clone();
        walks.bits = None;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 b - - 0 6",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
        ] {
            let pos = crate::setup::parse(&rules, fen).expect("fen");
            for me in [PlayerId(0), PlayerId(1)] {
                for gone in [0, 20, 40] {
                    assert_eq!(
                        sets.score(&pos, me, gone, 40),
                        walks.score(&pos, me, gone, 40),
                        "{fen}"
                    );
                }
            }
        }
    }
}
