//! Royal safety while material is high: the other side's pieces attacking the squares around
//! a royal piece. The cost is part of the middle-game worth of the royal squares by phase
//! ([`super::phase`]), so it fades as material leaves the board.

use super::*;

/// Attack on the royal zone: `units² / ATTACK_DIV` hundredths, `units` being the summed
/// worth (in hundredths) of the pieces attacking the zone, counted from two attackers on.
const ATTACK_DIV: i64 = 14_400;
/// The most the attack on one royal zone costs, in hundredths.
const ATTACK_CAP: i64 = 500;
/// The most squares for the tables (bit sets per royal square, type and attacker square).
const MAX_SQUARES: usize = 256;

/// What a type is to the royal-safety term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Role {
    Royal,
    /// Neither royal nor a promoter, with a worth: its attacks on the zone count.
    Attacker,
    Other,
}

/// The tables of the royal-safety term (two sides, royal pieces, no drops, usable attack
/// tables).
#[derive(Clone, Debug)]
pub(super) struct Royal {
    n_pos: usize,
    n_types: usize,
    /// Each type's role.
    roles: Vec<Role>,
    /// Worth of each type, hundredths (0 unless an attacker).
    worth: Vec<i32>,
    /// Words of a square bit set.
    words: usize,
    /// The zone of a royal piece of player `p` on `sq` (the square and those it steps to on
    /// the empty board): `zone[(p * n_pos + sq) * words..]`.
    zone: Vec<u64>,
    /// Squares from which a piece of type `t` attacks that zone on the empty board:
    /// `near[((p * n_pos + sq) * n_types + t) * words..]`. Only from these is a piece's
    /// attack traced on the board.
    near: Vec<u64>,
    /// Forward links of the attack tables' slides: `fwd[(p * n_dirs + d) * n_pos + sq]`.
    fwd: Vec<u16>,
    n_dirs: usize,
    /// Per player: the slide directions and the types that slide each way.
    slides: Vec<Vec<(usize, Vec<bool>)>>,
    /// `leaps[p * n_pos + sq]`: (target, type) of the leaps from `sq`.
    leaps: Vec<Vec<(u16, u16)>>,
}

impl Royal {
    /// The tables, or `None` when the game has not two sides, has more than [`MAX_SQUARES`]
    /// squares or attack tables that cannot be read backwards (`Attacks::usable`).
    pub(super) fn new(
        rules: &Rules,
        graphs: &[Option<Graph>],
        players: &[PlayerId],
        base: &[i32],
        phase_w: &[i32],
    ) -> Option<Box<Royal>> {
        let def = &rules.def;
        let a = &rules.attacks;
        let n_pos = def.board.n_pos();
        let n_types = def.pieces.len();
        let n_players = def.players.len();
        if players.len() != 2 || n_pos > MAX_SQUARES || !a.usable {
            return None;
        }
        // Attackers: the types that count in the phase (neither royal, nor promoters, nor
        // liabilities), by their worth.
        let worth: Vec<i32> = (0..n_types)
            .map(|t| if phase_w[t] > 0 { base[t].max(0) } else { 0 })
            .collect();
        let roles = (0..n_types)
            .map(|t| match (rules.royal[t], worth[t] > 0) {
                (true, _) => Role::Royal,
                (false, true) => Role::Attacker,
                _ => Role::Other,
            })
            .collect();
        let words = n_pos.div_ceil(64);
        let mut zone = vec![0u64; n_players * n_pos * words];
        for p in players.iter().map(|p| p.idx()) {
            for t in (0..n_types).filter(|&t| rules.royal[t]) {
                let Some(g) = graphs[p * n_types + t].as_ref() else {
                    continue;
                };
                for sq in 0..n_pos {
                    let z = &mut zone[(p * n_pos + sq) * words..][..words];
                    z[sq / 64] |= 1 << (sq % 64);
                    for &to in &g.edges[g.lo[sq]..g.lo[sq + 1]] {
                        z[to as usize / 64] |= 1 << (to % 64);
                    }
                }
            }
        }
        let n_dirs = def.board.directions.len();
        let mut fwd = vec![NONE; a.rev.len()];
        for (b, chunk) in a.rev.chunks(n_pos).enumerate() {
            for (x, &from) in chunk.iter().enumerate() {
                if from != NONE {
                    fwd[b * n_pos + from as usize] = x as u16;
                }
            }
        }
        let mut slides = vec![Vec::new(); n_players];
        let mut leaps = vec![Vec::new(); n_players * n_pos];
        for p in 0..n_players.min(a.slides.len()) {
            slides[p] = a.slides[p]
                .iter()
                .map(|(d, m)| (d.idx(), m.clone()))
                .collect();
            for to in 0..n_pos {
                for &(src, t) in &a.leap_to[p * n_pos + to] {
                    leaps[p * n_pos + src as usize].push((to as u16, t));
                }
            }
        }
        let mut r = Royal {
            n_pos,
            n_types,
            roles,
            worth,
            words,
            zone,
            near: Vec::new(),
            fwd,
            n_dirs,
            slides,
            leaps,
        };
        let mut near = vec![0u64; n_players * n_pos * n_types * words];
        let mut blank = rules.initial();
        for sq in 0..n_pos {
            blank.set(sq as u16, Cell::EMPTY);
        }
        let mut set = vec![0u64; words];
        for by in players.iter().map(|p| p.idx()) {
            for t in (0..n_types).filter(|&t| r.worth[t] > 0) {
                for from in 0..n_pos {
                    set.iter_mut().for_each(|w| *w = 0);
                    r.visit(&blank, by, t, from, |q| set[q / 64] |= 1 << (q % 64));
                    for p in players.iter().map(|p| p.idx()).filter(|&p| p != by) {
                        for k in 0..n_pos {
                            let z = &r.zone[(p * n_pos + k) * words..][..words];
                            if z.iter().zip(&set).any(|(a, b)| a & b != 0) {
                                let i = ((p * n_pos + k) * n_types + t) * words;
                                near[i + from / 64] |= 1 << (from % 64);
                            }
                        }
                    }
                }
            }
        }
        r.near = near;
        Some(Box::new(r))
    }

    /// The role of type `t`.
    #[inline]
    pub(super) fn role(&self, t: usize) -> Role {
        self.roles[t]
    }

    /// Calls `f` with every square a piece of `by` of type `t` on `from` attacks through the
    /// attack tables' leaps and slides (a slide up to the first occupied square).
    #[inline]
    fn visit(&self, pos: &Position, by: usize, t: usize, from: usize, mut f: impl FnMut(usize)) {
        for &(to, ty) in &self.leaps[by * self.n_pos + from] {
            if ty as usize == t {
                f(to as usize);
            }
        }
        for (d, pieces) in &self.slides[by] {
            if !pieces[t] {
                continue;
            }
            let base = (by * self.n_dirs + d) * self.n_pos;
            let mut q = self.fwd[base + from];
            while q != NONE {
                f(q as usize);
                if !pos.cells[q as usize].is_empty() {
                    break;
                }
                q = self.fwd[base + q as usize];
            }
        }
    }

    /// The middle-game cost of each side's royal piece, in hundredths: `kings[s]` is side
    /// `s`'s royal square (`NONE`: none), `attackers[s]` the squares of its attacking pieces.
    /// A side's cost grows with the square of the summed worth of the other side's pieces
    /// that attack its royal zone, when two or more do.
    pub(super) fn costs(
        &self,
        pos: &Position,
        kings: [u16; 2],
        attackers: [&[u16]; 2],
    ) -> [i64; 2] {
        let mut out = [0i64; 2];
        for s in 0..2 {
            let k = kings[s];
            if k == NONE {
                continue;
            }
            let owner = pos.cells[k as usize].owner as usize;
            let i = (owner * self.n_pos + k as usize) * self.words;
            let zone = &self.zone[i..i + self.words];
            let near = &self.near[i * self.n_types..];
            let (mut count, mut units) = (0, 0i64);
            for &q in attackers[1 - s] {
                let q = q as usize;
                let c = pos.cells[q];
                let t = c.piece as usize - 1;
                if near[t * self.words + q / 64] >> (q % 64) & 1 == 0 {
                    continue;
                }
                let mut hit = false;
                self.visit(pos, c.owner as usize, t, q, |z| {
                    hit |= zone[z / 64] >> (z % 64) & 1 != 0
                });
                if hit {
                    count += 1;
                    units += self.worth[t] as i64;
                }
            }
            if count >= 2 {
                out[s] = (units * units / ATTACK_DIV).min(ATTACK_CAP);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Rules {
        let src = crate::shipped::GAMES[0].1;
        let loaded = crate::load("chess.zrf", src.as_bytes(), &crate::expand::NoFiles);
        let (def, _) = crate::resolve_game(&loaded.games[0]);
        Rules::new(def.expect("chess resolves"))
    }

    #[test]
    fn attacks_on_the_royal_zone() {
        let rules = chess();
        let ev = Evaluator::new(&rules);
        let r = ev.royal.as_ref().expect("royal term in chess");
        // Indexes by owner here (0: White).
        let costs = |fen: &str| {
            let pos = crate::setup::parse(&rules, fen).expect("fen");
            let mut kings = [NONE; 2];
            let mut att = [Vec::new(), Vec::new()];
            for (sq, c) in pos.cells.iter().enumerate() {
                if !c.is_empty() {
                    match r.role(c.piece as usize - 1) {
                        Role::Royal => kings[c.owner as usize] = sq as u16,
                        Role::Attacker => att[c.owner as usize].push(sq as u16),
                        Role::Other => {}
                    }
                }
            }
            r.costs(&pos, kings, [&att[0], &att[1]])
        };
        // Nothing near either king.
        assert_eq!(costs("6k1/5ppp/8/8/8/5N2/5PPP/3Q2K1 b - - 0 1"), [0, 0]);
        // A knight on g5 (f7, h7) and a queen on h4 (h7 along the file): two attackers.
        let [w, b] = costs("6k1/5ppp/8/6N1/7Q/8/5PPP/6K1 b - - 0 1");
        assert_eq!(w, 0);
        assert!(b > 50 && b <= ATTACK_CAP, "{b}");
        // The queen alone: one attacker costs nothing.
        assert_eq!(costs("6k1/5ppp/8/8/7Q/8/5PPP/6K1 b - - 0 1"), [0, 0]);
        // A pawn on h5 blocks the queen: the knight alone.
        assert_eq!(costs("6k1/5ppp/8/6NP/7Q/8/5PP1/6K1 b - - 0 1"), [0, 0]);
    }
}
