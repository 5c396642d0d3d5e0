//! Drop blocks whose prefix only tests the square dropped on, answered from masks made at
//! load.

use super::{test_code, Kind, Node, SCond, Seq, Tgt};
use crate::def::GameDef;
use crate::engine::position::Cell;

/// The prefix of a drop block (no gate) made only of tests of the square dropped on:
/// whether it must be empty, and the squares where its zone tests hold, by player, decided
/// at load. Generation answers the prefix from these instead of walking it
/// ([`Exec::enter`]), as Crazyhouse's `(verify empty?) (verify (not-in-zone? ...)) add`.
#[derive(Clone, Debug)]
pub(in crate::engine) struct DropPrefix {
    /// The square must be empty.
    pub empty: bool,
    /// Bit `player * n_pos + square`: the zone tests hold there.
    ok: Vec<u64>,
}

impl DropPrefix {
    pub(super) fn of(seq: &Seq, def: &GameDef) -> Option<DropPrefix> {
        if seq.gate.is_some() {
            return None;
        }
        let mut empty = false;
        let mut fixed = Vec::new();
        for node in seq.nodes.get(..seq.prefix)? {
            match node {
                Node::Verify(SCond::Test(t, Tgt::Here)) => match t.kind {
                    Kind::Empty if !t.neg => empty = true,
                    Kind::Zone(_) | Kind::OnBoard => fixed.push(*t),
                    _ => return None,
                },
                Node::Verify(SCond::Const(true)) => {}
                _ => return None,
            }
        }
        let n_pos = def.board.n_pos();
        let n = def.players.len() * n_pos;
        let mut ok = vec![0u64; n.div_ceil(64)];
        for pl in 0..def.players.len() {
            for q in 0..n_pos {
                if (fixed.iter()).all(|&t| test_code(t, def, pl, q as u16).is_some()) {
                    let i = pl * n_pos + q;
                    ok[i / 64] |= 1 << (i % 64);
                }
            }
        }
        Some(DropPrefix { empty, ok })
    }

    /// Whether the prefix passes on square `q` holding `c`, for player `pl`.
    #[inline(always)]
    pub fn passes(&self, pl: usize, n_pos: usize, q: usize, c: Cell) -> bool {
        let i = pl * n_pos + q;
        self.ok.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1) && (!self.empty || c.is_empty())
    }
}
