//! Royal squares by the phase of the game: safe while material is high, central in the
//! ending.

use super::*;

/// Royal squares by the phase: safe while material is high, central in the ending. Indexes
/// are those of `Evaluator::pst`.
#[derive(Clone, Debug)]
pub(super) struct Phased {
    /// Phase weight of each type: its worth, 0 for royal pieces, liabilities and promoters
    /// (promoters count when no other type would).
    pub(super) phase_w: Vec<i32>,
    /// The phase weight of the setup (the most).
    pub(super) phase_max: i64,
    /// Worth of a piece on a square while material is high and in the ending, added to
    /// `pst` by the phase (non-zero for royal pieces only).
    pub(super) mg: Vec<i32>,
    pub(super) eg: Vec<i32>,
    /// The promoters' structure and the pieces it concerns (`structure.rs`), where it can
    /// be derived.
    pub(super) structure: Option<Box<super::structure::Structure>>,
}

/// Royal safety while material is high: the most exposed square costs this many units.
const ROYAL_EXPOSED: f64 = 0.5;
/// Royal safety while material is high: three moves or more from the side's setup squares
/// cost this many units.
const ROYAL_AWAY: f64 = 0.5;
/// Royal centre in the ending: units per unit of the royal's mobility ratio over average.
const ROYAL_CENTRE: f64 = 0.6;
/// The share, in percent, of everything but the material (the types' average worths) that
/// the evaluation keeps: the square tables, structure, royal squares and activity together
/// outweighed material (a pawn given up for what they promised; docs/strength.md, session
/// 13 "diag").
const POSITION_SHARE: i64 = 80;
/// The royal squares by phase ([`Phased`]), derived from the empty-board graphs and the
/// mobility on random boards; `None` in games without royal pieces or with drops (where a
/// captured piece stays in play; not measured there).
#[allow(clippy::too_many_arguments)]
pub(super) fn phased_terms(
    rules: &Rules,
    graphs: &[Option<Graph>],
    players: &[PlayerId],
    reach: &[bool],
    mob: &[f64],
    promo_raw: &[f64],
    means: &[f64],
    liability: &[bool],
    scale: f64,
) -> Option<Box<Phased>> {
    if !rules.royal.iter().any(|&r| r) || rules.def.pieces.iter().any(|p| !p.drops.is_empty()) {
        return None;
    }
    let def = &rules.def;
    let n_pieces = def.pieces.len();
    let n_pos = def.board.n_pos();
    let n_players = def.players.len();
    let idx = |p: usize, t: usize, sq: usize| (p * n_pieces + t) * n_pos + sq;
    let promoter: Vec<bool> = (0..n_pieces)
        .map(|t| {
            players
                .iter()
                .any(|p| (0..n_pos).any(|sq| promo_raw[idx(p.idx(), t, sq)] > 0.0))
        })
        .collect();
    // Phase: material of the types that are neither royal nor liabilities; promoters count
    // only when nothing else would.
    let weight = |t: usize, with_promoters: bool| {
        if rules.royal[t] || liability[t] || def.pieces[t].dummy || promoter[t] && !with_promoters {
            0
        } else {
            (means[t] * scale).round().max(0.0) as i32
        }
    };
    let setup_total = |w: &dyn Fn(usize) -> i32| -> i64 {
        def.setup
            .placements
            .iter()
            .map(|pl| w(pl.piece.idx()) as i64)
            .sum::<i64>()
            + def
                .setup
                .off
                .iter()
                .map(|o| w(o.piece.idx()) as i64 * o.count as i64)
                .sum::<i64>()
    };
    let without = setup_total(&|t| weight(t, false));
    let with_promoters = without == 0;
    let phase_w: Vec<i32> = (0..n_pieces).map(|t| weight(t, with_promoters)).collect();
    let phase_max = setup_total(&|t| phase_w[t]).max(1);

    let n_reach = reach.iter().filter(|&&r| r).count().max(1) as f64;
    let avg = |p: usize, t: usize| -> f64 {
        ((0..n_pos)
            .filter(|&sq| reach[sq])
            .map(|sq| mob[idx(p, t, sq)])
            .sum::<f64>()
            / n_reach)
            .max(FLOOR)
    };
    let mut mg = vec![0i32; n_players * n_pieces * n_pos];
    let mut eg = vec![0i32; n_players * n_pieces * n_pos];
    {
        // Setup pieces per player and type.
        let mut count = vec![0f64; n_players * n_pieces];
        for pl in &def.setup.placements {
            count[pl.player.idx() * n_pieces + pl.piece.idx()] += 1.0;
        }
        for &p in players {
            // Exposure: how many of the others' setup pieces (neither royal nor promoters)
            // reach a square on random boards, each by its mobility there over its average.
            let mut exposure = vec![0f64; n_pos];
            for &q in players.iter().filter(|&&q| q != p) {
                for u in 0..n_pieces {
                    let c = count[q.idx() * n_pieces + u];
                    if c == 0.0 || rules.royal[u] || promoter[u] {
                        continue;
                    }
                    let a = avg(q.idx(), u);
                    for (sq, e) in exposure.iter_mut().enumerate() {
                        *e += c * mob[idx(q.idx(), u, sq)] / a;
                    }
                }
            }
            let (lo, hi) = (0..n_pos)
                .filter(|&sq| reach[sq])
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), sq| {
                    (lo.min(exposure[sq]), hi.max(exposure[sq]))
                });
            let span = if hi > lo { hi - lo } else { 1.0 };
            let mut home = vec![false; n_pos];
            for pl in def.setup.placements.iter().filter(|pl| pl.player == p) {
                if !promoter[pl.piece.idx()] {
                    home[pl.pos.idx()] = true;
                }
            }
            for t in (0..n_pieces).filter(|&t| rules.royal[t]) {
                let Some(g) = graphs[p.idx() * n_pieces + t].as_ref() else {
                    continue;
                };
                let away = g.distances(n_pos, |sq| home[sq]);
                let a = avg(p.idx(), t);
                for sq in (0..n_pos).filter(|&sq| reach[sq]) {
                    let i = idx(p.idx(), t, sq);
                    let e = (exposure[sq] - lo) / span;
                    let d = if away.iter().all(|&d| d == u32::MAX) {
                        0.0
                    } else {
                        away[sq].min(3) as f64 / 3.0
                    };
                    mg[i] = (-(ROYAL_EXPOSED * e + ROYAL_AWAY * d) * UNIT as f64).round() as i32;
                    let ratio = (mob[i] / a).clamp(0.0, 2.0);
                    eg[i] = (ROYAL_CENTRE * (ratio - 1.0) * UNIT as f64).round() as i32;
                }
            }
        }
    }
    let structure = super::structure::structure(rules, graphs, players, &promoter);
    Some(Box::new(Phased {
        phase_w,
        phase_max,
        mg,
        eg,
        structure,
    }))
}

impl Evaluator {
    /// [`Evaluator::eval`] with the royal squares by phase.
    pub(super) fn eval_phased(&self, pos: &Position, me: PlayerId, ph: &Phased) -> i32 {
        // Index 0: `me`, 1: the others.
        let mut sum = [0i64; 2];
        let mut mg = [0i64; 2];
        let mut eg = [0i64; 2];
        let mut phase = 0i64;
        let mut at = [(0usize, 0usize, 0usize); 64];
        let mut n_at = 0;
        let mut own = [[0u64; 4]; 2];
        let mut occupied = [0u64; 4];
        let mut liners = [(0usize, 0usize); 16];
        let mut n_liners = 0;
        // The complexes each side's bound types stand on: `parts[type * 2 + side]`.
        let mut parts = [0u8; 64];
        let mut material = [0i64; 2];
        for (sq, &c) in pos.cells.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            let t = c.piece as usize - 1;
            let i = (c.owner as usize * self.n_pieces + t) * self.stride + sq;
            let side = (c.owner != me.0) as usize;
            sum[side] += self.pst[i] as i64;
            material[side] += self.base[t] as i64;
            if let Some(s) = &ph.structure {
                occupied[sq / 64] |= 1 << (sq % 64);
                if s.promoter[t] && n_at < at.len() {
                    at[n_at] = (i, side, c.owner as usize * self.stride + sq);
                    n_at += 1;
                    own[side][sq / 64] |= 1 << (sq % 64);
                } else {
                    if s.line[i] != [0; 4] && n_liners < liners.len() {
                        liners[n_liners] = (i, side);
                        n_liners += 1;
                    }
                    let k = s.complex[i];
                    if k != super::structure::NO_COMPLEX && t < 32 {
                        parts[t * 2 + side] |= 1 << k;
                    }
                }
            }
            phase += ph.phase_w[t] as i64;
            mg[side] += ph.mg[i] as i64;
            eg[side] += ph.eg[i] as i64;
        }
        for line in &self.lines {
            let v = self.line_worth(pos, line) as i64;
            sum[(line.player != me.0) as usize] += v;
        }
        if let Some(s) = &ph.structure {
            sum[0] += s.worth(&at[..n_at], &own, &liners[..n_liners], &parts) as i64;
        }
        let phase = phase.min(ph.phase_max);
        if let Some(s) = &ph.structure {
            sum[0] += s.passers(&at[..n_at], &own, &occupied, phase, ph.phase_max);
        }
        let gone = ph.phase_max - phase;
        let total = |s: usize| sum[s] + (mg[s] * phase + eg[s] * gone) / ph.phase_max;
        let others = (self.n_active.max(2) - 1) as i64;
        let act = self
            .activity
            .as_ref()
            .map_or(0, |a| a.score(pos, me, gone, ph.phase_max));
        let v = (total(0) - total(1) / others + act).clamp(-EVAL_MAX as i64, EVAL_MAX as i64);
        let m = material[0] - material[1] / others;
        (m + (v - m) * POSITION_SHARE / 100) as i32
    }
}
