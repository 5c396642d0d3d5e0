//! Which specialised trees are plain slides ([`Special::slide`]), for the `rays` fast path
//! (`compiled/rays.rs`, `exec/rays.rs`): a step, then a move on each empty square in that direction, then at
//! most one move onto the piece that blocks the way.

use super::{test_code, Kind, Node, SCond, Special, Test, Tgt};
use crate::def::GameDef;
use crate::engine::gate_test::Classes;
use crate::engine::gate_test::GateTest;

/// A block that is a plain slide, as [`Special::slide`] reads it.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine::compiled) struct SlideShape<'a> {
    /// The step's offset into the mover's part of `Board::next` (the block's gate).
    pub off: u32,
    /// The simple move written on each empty square (`Adder::simple`).
    pub quiet: &'a crate::engine::moves::Move,
    /// What one round over an empty square counts against the step limit, as the straight
    /// runner counts it.
    pub round: u32,
    /// The move onto the blocking piece, with the test it must pass there, when the slide
    /// ends with one ([`SlideShape::capture_head`], [`SlideShape::capture_mask`]).
    capture: Option<(Test, &'a crate::engine::moves::Move)>,
}

impl Special {
    /// Block `id` as a plain slide, when it is one: a straight tree made of a bare step in a
    /// direction, a loop that adds a move and steps the same way while the current square is
    /// empty (`(while empty? add d)`, or with a fused `set-attribute` before the add), and
    /// optionally a test of the blocking square followed by one add, each add writing a simple
    /// move (no promotion choice, chain or copy).
    pub(in crate::engine::compiled) fn slide(&self, id: u32) -> Option<SlideShape<'_>> {
        let seq = self.blocks.get(id as usize)?;
        if !seq.straight {
            return None;
        }
        let empty = Test {
            kind: Kind::Empty,
            neg: false,
        };
        let (first, rest) = seq.nodes.split_first()?;
        let &Node::Step(off) = first else {
            return None;
        };
        let (looped, tail) = rest.split_first()?;
        let (quiet, round) = match looped {
            Node::AddWhile(t, a, o) if *t == empty && *o == off => (a, 3),
            Node::While(SCond::Test(t, Tgt::Here), body) if *t == empty => {
                match body.nodes.as_slice() {
                    [Node::Add(a), Node::Step(o)] if *o == off => (a, body.cost.saturating_add(1)),
                    _ => return None,
                }
            }
            _ => return None,
        };
        let quiet = quiet.simple()?;
        let capture = match tail {
            [] => None,
            [Node::Verify(SCond::Test(t, Tgt::Here)), Node::Add(a)] => Some((*t, a.simple()?)),
            _ => return None,
        };
        Some(SlideShape {
            off,
            quiet,
            round,
            capture,
        })
    }
}

impl<'a> SlideShape<'a> {
    /// The simple move written onto the blocking piece, when the slide ends with one.
    pub(in crate::engine::compiled) fn capture_head(
        &self,
    ) -> Option<&'a crate::engine::moves::Move> {
        self.capture.map(|(_, m)| m)
    }

    /// The classes of the blocking square (`gate_test::class`) on which the capture's test
    /// holds (none without a capture, or for a test that never holds on the board),
    /// `None` when the test asks more than the cell's class (a piece type, an attribute, a
    /// zone, which depend on the square).
    pub(in crate::engine::compiled) fn capture_mask(&self, def: &GameDef) -> Option<Classes> {
        let Some((t, _)) = self.capture else {
            return Some(Classes::empty());
        };
        if !matches!(
            t.kind,
            Kind::Empty | Kind::Enemy | Kind::Friend | Kind::OnBoard
        ) {
            return None;
        }
        match test_code(t, def, 0, 0) {
            None => Some(Classes::empty()),
            Some(GateTest::Other) => None,
            Some(test) => Some(test.classes()),
        }
    }
}
