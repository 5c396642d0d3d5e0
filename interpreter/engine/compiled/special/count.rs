//! What the specialised trees cover: their nodes, and those left to the plain interpreter
//! (`EngineConfig` coverage, `Rules::path_counts`).

use super::{Adder, Node, SCond, Seq, Special};

/// Counts over the specialised trees of a game.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine) struct TreeCount {
    /// Nodes of every tree, nested ones included.
    pub nodes: usize,
    /// Nodes run by the plain interpreter: `Node::Plain`, and nodes whose condition is or
    /// holds a plain one.
    pub plain: usize,
    /// Adds, and those that can write a simple move (`Adder::simple`).
    pub adds: usize,
    pub simple_adds: usize,
    /// Adds of partial steps.
    pub partial_adds: usize,
    /// Blocks whose tree is straight (`Seq::straight`).
    pub straight: usize,
    /// Drop blocks whose prefix is answered from masks (`DropPrefix`), and those that then
    /// only add (`Seq::lone_add`).
    pub drop_masks: usize,
    pub lone_drops: usize,
}

impl Special {
    /// Counts the trees of every block (by id).
    pub(in crate::engine) fn count(&self) -> TreeCount {
        let mut c = TreeCount::default();
        for (id, seq) in self.blocks.iter().enumerate() {
            seq.count(&mut c);
            c.straight += usize::from(seq.straight);
            if let Some(Some(_)) = self.drop_prefixes.get(id) {
                c.drop_masks += 1;
                c.lone_drops += usize::from(seq.lone_add().is_some());
            }
        }
        c
    }
}

impl Seq {
    fn count(&self, c: &mut TreeCount) {
        for node in &self.nodes {
            c.nodes += 1;
            let add = |a: &Adder, c: &mut TreeCount| {
                c.adds += 1;
                c.simple_adds += usize::from(a.simple().is_some());
                c.partial_adds += usize::from(a.partial);
            };
            let plain = match node {
                Node::Plain(_) => true,
                Node::Verify(s) | Node::CheckStep(s, ..) => s.has_plain(),
                Node::Add(a) | Node::AddWhile(_, a, _) => {
                    add(a, c);
                    false
                }
                Node::If(s, a, b) => {
                    a.count(c);
                    b.count(c);
                    s.has_plain()
                }
                Node::While(s, body) | Node::Walk(s, body, _) => {
                    body.count(c);
                    s.has_plain()
                }
                _ => false,
            };
            c.plain += usize::from(plain);
        }
    }
}

impl SCond {
    fn has_plain(&self) -> bool {
        match self {
            SCond::Plain(_) => true,
            SCond::And(xs) | SCond::Or(xs) => xs.iter().any(SCond::has_plain),
            _ => false,
        }
    }
}
