//! Which specialised trees are straight ([`Seq::straight`]): walked by generation without
//! setting up a run, their adds written at once.

use super::{Adder, Kind, Node, SCond, Test, Tgt};

/// Whether a condition is made only of tests of squares and constants.
fn pure_cond(c: &SCond) -> bool {
    match c {
        SCond::Const(_) | SCond::Test(..) => true,
        SCond::And(xs) | SCond::Or(xs) => xs.iter().all(pure_cond),
        SCond::Plain(_) => false,
    }
}

/// Whether nodes are straight (see [`Seq::straight`]); counts their captures (none may stand
/// in a loop, where their number has no bound).
pub(super) fn straight_nodes(nodes: &[Node], caps: &mut usize, in_loop: bool) -> bool {
    nodes.iter().all(|n| match n {
        Node::Step(_) | Node::StepTest(..) | Node::Leap(..) | Node::Skip(..) => true,
        Node::Verify(c) => pure_cond(c),
        Node::Capture(_) => {
            *caps += 1;
            !in_loop
        }
        Node::Add(spec) | Node::AddWhile(_, spec, _) => !spec.copy,
        Node::If(c, a, b) => {
            pure_cond(c)
                && straight_nodes(&a.nodes, caps, in_loop)
                && straight_nodes(&b.nodes, caps, in_loop)
        }
        Node::While(c, body) => pure_cond(c) && straight_nodes(&body.nodes, caps, true),
        _ => false,
    })
}

/// Whether a straight walk, which keeps no pending effects, writes the moves of the adds
/// with a fused attribute ([`Adder::with_attr`]) as the plain walk does. The plain walk
/// leaves each such `set-attribute` pending for the block's later adds too; it changes none
/// of them when every add of the block sets the same attribute to the same value (a second
/// setting of a landing square changes nothing), none captures, and each either ends the
/// block or begins the body of a loop on an empty current square (the setting then lies on
/// an empty square, which no later move of the piece writes unless it lands there).
pub(super) fn attrs_straight(nodes: &[Node], caps: usize) -> bool {
    fn adds<'a>(nodes: &'a [Node], out: &mut Vec<&'a Adder>) {
        for n in nodes {
            match n {
                Node::Add(a) | Node::AddWhile(_, a, _) => out.push(a),
                Node::If(_, a, b) => {
                    adds(&a.nodes, out);
                    adds(&b.nodes, out);
                }
                Node::While(_, b) | Node::Walk(_, b, _) => adds(&b.nodes, out),
                _ => {}
            }
        }
    }
    let mut all = Vec::new();
    adds(nodes, &mut all);
    let Some(first) = all.iter().find_map(|a| a.attr) else {
        return true;
    };
    let empty_here = |c: &SCond| {
        matches!(
            c,
            SCond::Test(
                Test {
                    kind: Kind::Empty,
                    neg: false
                },
                Tgt::Here
            )
        )
    };
    let placed = nodes.iter().enumerate().all(|(k, n)| match n {
        Node::Add(_) => k + 1 == nodes.len(),
        Node::While(c, b) => {
            let mut inner = Vec::new();
            adds(&b.nodes, &mut inner);
            inner.is_empty()
                || empty_here(c)
                    && inner.len() == 1
                    && matches!(b.nodes.first(), Some(Node::Add(_)))
        }
        Node::AddWhile(..) | Node::If(..) | Node::Walk(..) => false,
        _ => true,
    });
    caps == 0 && placed && all.iter().all(|a| a.attr == Some(first))
}
