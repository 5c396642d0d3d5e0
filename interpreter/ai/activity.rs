//! Mobility and royal safety, read from the attack patterns the engine derives from the move
//! programs (`engine::attack`): each piece's leaps and slides are walked on the board, counting
//! the squares it could capture on or move to (empty, or an enemy's), and the attacks on the
//! squares next to each royal piece (those its own leaps reach).
//!
//! Only games whose attack tables are usable have these terms (games with royal pieces or
//! `attacked?`); the weights are fractions of the game's unit, so nothing depends on a game.

use crate::def::{DirId, NONE};
use crate::engine::{Position, Rules};

use super::Rng;

/// Worth of one square of mobility, as a share of what one square of mobility is worth in the
/// piece values (which are mobility on random boards).
const MOBILITY_SHARE: f64 = 0.08;
/// Penalty for `n` attacks on the squares around a side's royal piece: `n² × UNIT /
/// ROYAL_DIV`, at most `ROYAL_CAP` units.
const ROYAL_DIV: i32 = 24;
const ROYAL_CAP: i32 = 4;
/// The most leap entries the forward tables may hold (past it, no activity terms).
const MAX_ENTRIES: usize = 4_000_000;
/// Random boards sampled for a type's expected mobility.
const SAMPLES: usize = 4;
/// Boards larger than this (or more players than [`MAX_SIDES`]) skip the royal term, whose
/// square sets are kept on the stack.
const ZONE_SQUARES: usize = 512;
const MAX_SIDES: usize = 4;

/// The walking tables of one game.
#[derive(Clone, Debug)]
pub struct Activity {
    n_pos: usize,
    n_pieces: usize,
    n_players: usize,
    /// `to[lo[i]..lo[i + 1]]` with `i = (player * n_pieces + type) * n_pos + square`: the
    /// squares a leap of that piece reaches.
    lo: Vec<u32>,
    to: Vec<u16>,
    /// Per (player, type): the offsets `(player * n_dirs + dir) * n_pos` of its slides.
    slides: Vec<Vec<usize>>,
    /// Board links, as `Board::next`.
    next: Vec<u16>,
    /// Royal types.
    royal: Vec<bool>,
    /// Expected mobility per (player, type), in squares times 16.
    expected: Vec<i32>,
    /// Worth of one square of mobility, in sixteenths of a hundredth.
    weight: i32,
    /// One unit (`eval::UNIT`).
    unit: i32,
    royal_div: i32,
    zones: bool,
}

impl Activity {
    /// The tables, or `None` when the game has no usable attack tables or they would be large.
    /// `square_worth`: what one square of mobility is worth in the piece values, in hundredths.
    pub fn new(rules: &Rules, square_worth: f64, unit: i32) -> Option<Activity> {
        let a = &rules.attacks;
        if !a.usable || a.capped || a.leap_to.is_empty() {
            return None;
        }
        let def = &rules.def;
        let n_pos = def.board.n_pos();
        let n_pieces = def.pieces.len();
        let n_players = def.players.len().max(1);
        let n_dirs = def.board.directions.len();
        if a.slides.len() != n_players || a.leap_to.len() != n_players * n_pos {
            return None;
        }
        let cells = n_players * n_pieces * n_pos;
        let entries: usize = a.leap_to.iter().map(Vec::len).sum();
        if cells > MAX_ENTRIES || entries > MAX_ENTRIES {
            return None;
        }
        // Forward leap tables: the engine keeps them by target square.
        let mut count = vec![0u32; cells + 1];
        for pl in 0..n_players {
            for target in 0..n_pos {
                for &(src, t) in &a.leap_to[pl * n_pos + target] {
                    count[(pl * n_pieces + t as usize) * n_pos + src as usize + 1] += 1;
                }
            }
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let lo = count.clone();
        let mut fill = count;
        let mut to = vec![0u16; entries];
        for pl in 0..n_players {
            for target in 0..n_pos {
                for &(src, t) in &a.leap_to[pl * n_pos + target] {
                    let i = (pl * n_pieces + t as usize) * n_pos + src as usize;
                    to[fill[i] as usize] = target as u16;
                    fill[i] += 1;
                }
            }
        }
        let mut slides = vec![Vec::new(); n_players * n_pieces];
        for (pl, list) in a.slides.iter().enumerate() {
            for (d, pieces) in list {
                for (t, &p) in pieces.iter().enumerate() {
                    if p {
                        slides[pl * n_pieces + t].push((pl * n_dirs + DirId::idx(*d)) * n_pos);
                    }
                }
            }
        }
        let mut act = Activity {
            n_pos,
            n_pieces,
            n_players,
            lo,
            to,
            slides,
            next: def.board.next.clone(),
            royal: rules.royal.clone(),
            expected: vec![0; n_players * n_pieces],
            weight: (square_worth
                * std::env::var("ZRF_MOB")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(MOBILITY_SHARE)
                * 16.0)
                .round() as i32,
            unit,
            royal_div: std::env::var("ZRF_ROYAL")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(ROYAL_DIV),
            zones: n_pos <= ZONE_SQUARES && n_players <= MAX_SIDES,
        };
        if act.weight <= 0 {
            return None;
        }
        act.expected = act.expect(rules);
        if std::env::var_os("ZRF_STATS").is_some() {
            eprintln!("ACT weight {} expected {:?}", act.weight, act.expected);
        }
        Some(act)
    }

    /// Each type's mobility on random boards filled to a third with the setup's pieces,
    /// averaged over the squares it stands on in the setup or could reach (all squares).
    fn expect(&self, rules: &Rules) -> Vec<i32> {
        let def = &rules.def;
        let mut types: Vec<u16> = def.setup.placements.iter().map(|p| p.piece.0 + 1).collect();
        if types.is_empty() {
            types = (1..=self.n_pieces as u16).collect();
        }
        let squares: Vec<usize> = (0..self.n_pos)
            .filter(|&sq| !def.board.positions[sq].dummy)
            .collect();
        let mut rng = Rng::new(0xAC71_0000);
        let mut sum = vec![0u64; self.n_players * self.n_pieces];
        let mut cells = vec![(0u16, 0u8); self.n_pos];
        for _ in 0..SAMPLES {
            for c in cells.iter_mut() {
                *c = (0, 0);
            }
            for &sq in &squares {
                if rng.unit() < 0.3 {
                    let t = types[rng.below(types.len())];
                    cells[sq] = (t, rng.below(self.n_players) as u8);
                }
            }
            for pl in 0..self.n_players {
                for t in 0..self.n_pieces {
                    for &sq in &squares {
                        let mut n = 0;
                        self.walk(pl, t, sq, |q| {
                            let (piece, owner) = cells[q];
                            if piece == 0 || owner as usize != pl {
                                n += 1;
                            }
                            piece == 0
                        });
                        sum[pl * self.n_pieces + t] += n;
                    }
                }
            }
        }
        let div = (SAMPLES * squares.len().max(1)) as u64;
        sum.iter().map(|&s| (s * 16 / div) as i32).collect()
    }

    /// Calls `f` on each square a piece of `player` and type `t` on `sq` attacks (leaps, then
    /// slides up to and including the first occupied square; `f` says whether a square is
    /// empty, so the slide goes on).
    #[inline]
    fn walk(&self, player: usize, t: usize, sq: usize, mut f: impl FnMut(usize) -> bool) {
        let i = (player * self.n_pieces + t) * self.n_pos + sq;
        for &q in &self.to[self.lo[i] as usize..self.lo[i + 1] as usize] {
            f(q as usize);
        }
        for &base in &self.slides[player * self.n_pieces + t] {
            let mut q = self.next[base + sq];
            while q != NONE {
                if !f(q as usize) {
                    break;
                }
                q = self.next[base + q as usize];
            }
        }
    }

    /// Mobility and royal safety of each player, in hundredths, added to `out[player]`
    /// (nothing when `out` has fewer entries than the game has players).
    pub fn score(&self, pos: &Position, out: &mut [i64]) {
        if out.len() < self.n_players {
            return;
        }
        let cells = &pos.cells;
        // Squares around each side's royal pieces.
        let mut zone = [[0u64; ZONE_SQUARES / 64]; MAX_SIDES];
        let mut has_zone = [false; MAX_SIDES];
        if self.zones {
            for (sq, c) in cells.iter().enumerate() {
                if c.is_empty() || !self.royal[c.piece as usize - 1] {
                    continue;
                }
                let pl = c.owner as usize;
                if pl >= MAX_SIDES {
                    continue;
                }
                has_zone[pl] = true;
                let i = (pl * self.n_pieces + c.piece as usize - 1) * self.n_pos + sq;
                zone[pl][sq / 64] |= 1 << (sq % 64);
                for &q in &self.to[self.lo[i] as usize..self.lo[i + 1] as usize] {
                    zone[pl][q as usize / 64] |= 1 << (q % 64);
                }
            }
        }
        let mut hits = [0i32; MAX_SIDES];
        let any_zone = has_zone.iter().any(|&z| z);
        for (sq, c) in cells.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            let pl = c.owner as usize;
            let t = c.piece as usize - 1;
            if pl >= self.n_players {
                continue;
            }
            let mut n = 0i32;
            self.walk(pl, t, sq, |q| {
                let d = cells[q];
                if d.is_empty() || d.owner as usize != pl {
                    n += 1;
                }
                if any_zone {
                    for (side, z) in zone.iter().enumerate().take(self.n_players) {
                        if side != pl && has_zone[side] && z[q / 64] >> (q % 64) & 1 == 1 {
                            hits[side] += 1;
                        }
                    }
                }
                d.is_empty()
            });
            if !self.royal[t] {
                let e = self.expected[pl * self.n_pieces + t];
                out[pl] += ((n * 16 - e) * self.weight / 256) as i64;
            }
        }
        for (side, &h) in hits.iter().enumerate().take(out.len()) {
            if h > 0 {
                out[side] -= (h * h * self.unit / self.royal_div).min(ROYAL_CAP * self.unit) as i64;
            }
        }
    }
}
