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
    let mut gone = [NONE; MAX_SWAPS + 1];
    gone[0] = from;
    let mut n_gone = 1;
    let mut gains = [0i32; MAX_SWAPS + 1];
    gains[0] = victim;
    let Some(first) = pos.cells[from as usize].piece_id() else {
        return victim;
    };
    let mut on_square = value(first.idx());
    let mut stm = 1 - side.min(1);
    let mut d = 0;
    while d < MAX_SWAPS {
        // The least valuable piece of `stm` that attacks `to`.
        let is_gone = |q: u16, n: usize| gone[..n].contains(&q);
        let pl = stm as usize;
        let mut best: Option<(i32, u16)> = None;
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
    use super::exchange;
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
            exchange(
                &rules,
                &worth,
                &pos,
                sq(&rules, from),
                sq(&rules, to),
                side,
                victim,
            )
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
