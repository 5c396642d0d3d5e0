//! Static exchange evaluation: what a capture on a square wins once both sides have
//! recaptured there with their least valuable pieces for as long as it pays, read from the
//! engine's attack patterns (`engine::attack`: leaps and slides, a slide seeing through the
//! pieces already traded off). Irregular attackers (blocks run as programs) are not counted.

use crate::def::NONE;
use crate::engine::{Position, Rules};

/// Worth given to a royal piece in an exchange: taking it ends the exchange.
const ROYAL_WORTH: i32 = 100_000;
/// The most captures an exchange looks at.
const MAX_SWAPS: usize = 32;

/// What capturing with the piece on `from` (worth `mover_worth`) on `to` (a piece worth
/// `victim` stands there) gains for the side `side`, once the exchange on `to` is over.
/// `worth[t]` is the worth of a piece of type `t`. Two sides only (players 0 and 1 take turns).
pub fn exchange(
    rules: &Rules,
    worth: &[i32],
    pos: &Position,
    from: u16,
    to: u16,
    side: u8,
    victim: i32,
) -> i32 {
    swap_off(rules, worth, pos, None, from, to, side, victim)
}

/// Whether a capture by a piece of type `mover` of a piece worth `victim` gains at least
/// nothing by [`exchange`] whatever stands around: the first recapture wins back at most the
/// mover's worth, so the exchange is worth at least `victim` less that.
pub fn never_loses(rules: &Rules, worth: &[i32], mover: usize, victim: i32) -> bool {
    let v = if rules.royal[mover] {
        ROYAL_WORTH
    } else {
        worth[mover]
    };
    victim >= 0 && victim >= v
}

/// [`exchange`] with the tables of [`Bits`] and the position's [`Occupancy`]: the same value.
#[allow(clippy::too_many_arguments)]
pub fn exchange_bits(
    rules: &Rules,
    bits: &Bits,
    occ: Occupancy,
    worth: &[i32],
    pos: &Position,
    from: u16,
    to: u16,
    side: u8,
    victim: i32,
) -> i32 {
    swap_off(rules, worth, pos, Some((bits, occ)), from, to, side, victim)
}

/// The attack tables as one-word square sets, on boards of at most 64 squares whose reverse
/// links run through the squares in one order of their indexes along each direction (ascending
/// or descending): the first piece a slide meets is then the nearest occupied square of its
/// ray, found by a bit scan, and a side with no piece on the squares that leap to a target
/// needs no look at the leap lists.
#[derive(Clone, Debug)]
pub struct Bits {
    n_pos: usize,
    n_dirs: usize,
    /// The squares along the reverse links from each square (not the square itself), indexed
    /// as the attack tables' `rev`.
    ray: Vec<u64>,
    /// Per player and direction: whether the squares of the rays ascend.
    up: Vec<bool>,
    /// Per player and target square: the squares of its `leap_to` list.
    leaps: Vec<u64>,
}

/// The occupied squares of a position, all and by player (0 and 1).
#[derive(Clone, Copy, Debug, Default)]
pub struct Occupancy {
    all: u64,
    side: [u64; 2],
}

impl Bits {
    /// The tables, or `None` where the board or the attack tables do not allow them.
    pub fn new(rules: &Rules) -> Option<Bits> {
        let a = &rules.attacks;
        let n_pos = rules.def.board.n_pos();
        let n_dirs = rules.def.board.directions.len();
        if !a.usable || a.capped {
            return None;
        }
        let (ray, up) = rays(&a.rev, n_pos)?;
        let mut leaps = vec![0u64; a.leap_to.len()];
        for (set, list) in leaps.iter_mut().zip(&a.leap_to) {
            for &(src, _) in list {
                if src as usize >= n_pos {
                    return None;
                }
                *set |= 1 << src;
            }
        }
        Some(Bits {
            n_pos,
            n_dirs,
            ray,
            up,
            leaps,
        })
    }

    /// The occupied squares of `pos`.
    pub fn occupancy(&self, pos: &Position) -> Occupancy {
        let mut occ = Occupancy::default();
        for (sq, c) in pos.cells[..self.n_pos].iter().enumerate() {
            if !c.is_empty() {
                occ.all |= 1 << sq;
                if let Some(s) = occ.side.get_mut(c.owner as usize) {
                    *s |= 1 << sq;
                }
            }
        }
        occ
    }
}

/// The squares along a link table (`links[d * n_pos + sq]`: the next square from `sq` along
/// direction `d`, or `NONE`) from each square, not the square itself, as one-word sets, and
/// per direction whether they ascend; `None` unless the board has at most 64 squares and
/// each direction runs through the squares in one order of their indexes (so that the
/// nearest square of a ray among a set is its lowest or highest bit, [`nearest`]).
pub(crate) fn rays(links: &[u16], n_pos: usize) -> Option<(Vec<u64>, Vec<bool>)> {
    if n_pos == 0 || n_pos > 64 || links.len() % n_pos != 0 {
        return None;
    }
    let mut ray = vec![0u64; links.len()];
    let mut up = vec![true; links.len() / n_pos];
    for (d, u) in up.iter_mut().enumerate() {
        let base = d * n_pos;
        // Ascending (Some(true)), descending (Some(false)), not known yet (None).
        let mut order = None;
        for sq in 0..n_pos {
            let (mut set, mut at, mut q) = (0u64, sq, links[base + sq]);
            while q != NONE {
                let next = q as usize;
                let asc = next > at;
                if next >= n_pos || next == at || *order.get_or_insert(asc) != asc {
                    return None;
                }
                set |= 1 << next;
                at = next;
                q = links[base + next];
            }
            ray[base + sq] = set;
        }
        *u = order.unwrap_or(true);
    }
    Some((ray, up))
}

/// The square of `set` (not empty) nearest along a ray whose squares ascend (`up`) or descend.
#[inline]
pub(crate) fn nearest(set: u64, up: bool) -> usize {
    if up {
        set.trailing_zeros() as usize
    } else {
        63 - set.leading_zeros() as usize
    }
}

/// The exchange on `to` ([`exchange`]), the attackers found by walking the tables or, with
/// `fast`, by their square sets.
#[allow(clippy::too_many_arguments)]
fn swap_off(
    rules: &Rules,
    worth: &[i32],
    pos: &Position,
    fast: Option<(&Bits, Occupancy)>,
    from: u16,
    to: u16,
    side: u8,
    victim: i32,
) -> i32 {
    let a = &rules.attacks;
    let n_pos = pos.cells.len();
    let n_dirs = rules.def.board.directions.len();
    let value = |t: usize| {
        if rules.royal[t] {
            ROYAL_WORTH
        } else {
            worth[t]
        }
    };
    let fast = fast.filter(|(bits, _)| bits.n_pos == n_pos);
    let mut gone = [NONE; MAX_SWAPS + 1];
    gone[0] = from;
    let mut n_gone = 1;
    // With `fast`, the same squares as a set.
    let mut gone_set = if fast.is_some() { 1u64 << from } else { 0 };
    let mut gains = [0i32; MAX_SWAPS + 1];
    gains[0] = victim;
    let Some(first) = pos.cells[from as usize].piece_id() else {
        return victim;
    };
    let mut on_square = value(first.idx());
    let mut stm = 1 - side.min(1);
    let mut d = 0;
    while d < MAX_SWAPS {
        // The least valuable piece of `stm` that attacks `to`, the first of equal ones in the
        // order of the tables (leaps, then slides).
        let pl = stm as usize;
        let mut best: Option<(i32, u16)> = None;
        if let Some((bits, occ)) = fast {
            if bits.leaps[pl * n_pos + to as usize] & occ.side[pl] & !gone_set != 0 {
                for &(src, t) in &a.leap_to[pl * n_pos + to as usize] {
                    let c = pos.cells[src as usize];
                    if c.owner == stm && c.piece == t + 1 && gone_set >> src & 1 == 0 {
                        let v = value(t as usize);
                        if best.is_none_or(|(b, _)| v < b) {
                            best = Some((v, src));
                        }
                    }
                }
            }
            let live = occ.all & !gone_set;
            for (dir, pieces) in &a.slides[pl] {
                let k = pl * bits.n_dirs + dir.idx();
                let blockers = bits.ray[k * n_pos + to as usize] & live;
                if blockers == 0 {
                    continue;
                }
                let q = nearest(blockers, bits.up[k]) as u16;
                let c = pos.cells[q as usize];
                if c.owner == stm && pieces[c.piece as usize - 1] {
                    let v = value(c.piece as usize - 1);
                    if best.is_none_or(|(b, _)| v < b) {
                        best = Some((v, q));
                    }
                }
            }
        } else {
            let is_gone = |q: u16, n: usize| gone[..n].contains(&q);
            for &(src, t) in &a.leap_to[pl * n_pos + to as usize] {
                let c = pos.cells[src as usize];
                if !c.is_empty() && c.owner == stm && c.piece == t + 1 && !is_gone(src, n_gone) {
                    let v = value(t as usize);
                    if best.is_none_or(|(b, _)| v < b) {
                        best = Some((v, src));
                    }
                }
            }
            for (dir, pieces) in &a.slides[pl] {
                let base = (pl * n_dirs + dir.idx()) * n_pos;
                let mut q = a.rev[base + to as usize];
                while q != NONE {
                    let c = pos.cells[q as usize];
                    if !c.is_empty() && !is_gone(q, n_gone) {
                        if c.owner == stm && pieces[c.piece as usize - 1] {
                            let v = value(c.piece as usize - 1);
                            if best.is_none_or(|(b, _)| v < b) {
                                best = Some((v, q));
                            }
                        }
                        break;
                    }
                    q = a.rev[base + q as usize];
                }
            }
        }
        let Some((v, sq)) = best else {
            break;
        };
        d += 1;
        gains[d] = on_square - gains[d - 1];
        if (-gains[d - 1]).max(gains[d]) < 0 {
            break;
        }
        on_square = v;
        gone[n_gone] = sq;
        n_gone += 1;
        if fast.is_some() {
            gone_set |= 1 << sq;
        }
        stm = 1 - stm;
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::{exchange, exchange_bits, Bits};
    use crate::engine::Rules;

    fn chess() -> Rules {
        let src = crate::shipped::GAMES[0].1;
        let loaded = crate::load("chess.zrf", src.as_bytes(), &crate::expand::NoFiles);
        let (def, _) = crate::resolve_game(&loaded.games[0]);
        Rules::new(def.expect("chess resolves"))
    }

    fn sq(rules: &Rules, name: &str) -> u16 {
        rules
            .def
            .board
            .positions
            .iter()
            .position(|p| p.name == name)
            .expect("square") as u16
    }

    #[test]
    fn exchanges_count_recaptures_and_pieces_behind() {
        let rules = chess();
        // Pawn 1, knight 3, bishop 3, rook 5, queen 9 (not the derived values, so that the
        // expected numbers are plain).
        let worth: Vec<i32> = rules
            .def
            .pieces
            .iter()
            .map(|p| match p.name.as_str() {
                "Pawn" => 100,
                "Knight" | "Bishop" => 300,
                "Rook" => 500,
                "Queen" => 900,
                _ => 0,
            })
            .collect();
        let case = |fen: &str, from: &str, to: &str, victim: i32| {
            let pos = crate::setup::parse(&rules, fen).expect("fen");
            let side = rules.entry(pos.turn).owner.0;
            let (from, to) = (sq(&rules, from), sq(&rules, to));
            let v = exchange(&rules, &worth, &pos, from, to, side, victim);
            // The square sets give the same value.
            let bits = Bits::new(&rules).expect("chess has square sets");
            let occ = bits.occupancy(&pos);
            let w = exchange_bits(&rules, &bits, occ, &worth, &pos, from, to, side, victim);
            assert_eq!(v, w, "{fen} {from} {to}");
            v
        };
        // Queen takes a pawn a pawn defends: loses the queen for a pawn.
        assert_eq!(
            case("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2", "d5", 100),
            -800
        );
        // Rook takes an undefended pawn.
        assert_eq!(
            case("4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2", "d5", 100),
            100
        );
        // Knight takes a knight a rook defends, a second rook behind the first backs it up:
        // black recaptures with the rook and loses it to the second rook, so it does not.
        assert_eq!(
            case("3rk3/8/8/3n4/8/2N5/8/3RK3 w - - 0 1", "c3", "d5", 300),
            300
        );
        // The same without the white rook: knight for knight.
        assert_eq!(
            case("3rk3/8/8/3n4/8/2N5/8/4K3 w - - 0 1", "c3", "d5", 300),
            0
        );
        // A rook behind the capturing rook on the same file (x-ray): rook takes a knight
        // defended by a rook, backed by the rook behind it.
        assert_eq!(
            case("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2", "d5", 300),
            300
        );
    }
}
