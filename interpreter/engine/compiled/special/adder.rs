//! An `add` of the specialised tree, with the move header it fixes made at load.

use crate::def::{AddSpec, AttrId};
use crate::engine::moves::Move;
use crate::engine::position::Cell;

/// The header fields that an add fixes for every move it writes: promotion offered, the
/// continuation's type, `finally`, `must-continue`, `add-partial` (the rest are zero).
pub(in crate::engine) fn head_of(spec: &AddSpec) -> Move {
    Move {
        promote_choice: spec.promote.len() > 1,
        cont_type: spec.move_type.map_or(u16::MAX, |t| t.0),
        finally: spec.finally.map_or(0, |p| p.0 + 1),
        must_continue: spec.must_continue,
        partial: spec.partial,
        ..Move::default()
    }
}

/// An `add` of the specialised tree: the spec, with its [`head_of`] made at load, so that
/// generation copies the header instead of assembling it from the spec at every move.
#[derive(Clone, Debug)]
pub(in crate::engine) struct Adder {
    spec: AddSpec,
    pub(in crate::engine) head: Move,
    /// The header of the simple moves it writes (`Move::simple`), when it can write them
    /// (at most one promotion type, no chain, `finally` or `must-continue`); the squares,
    /// cell, captures, piece and move type are filled in per move (`Exec::push_simple`).
    pub(in crate::engine) simple: Option<Move>,
    /// A `(set-attribute A v)` of the current square just before the add, fused into it
    /// ([`Adder::with_attr`]): the tree's walk leaves it pending as the plain instruction
    /// would, and the simple moves carry it in their header's cell.
    pub(in crate::engine) attr: Option<(AttrId, bool)>,
}

impl Adder {
    pub(super) fn new(spec: AddSpec) -> Adder {
        let head = head_of(&spec);
        let simple =
            (spec.promote.len() <= 1 && !head.partial && !head.must_continue && head.finally == 0)
                .then_some(Move {
                    simple: true,
                    promote: spec.promote.first().map_or(0, |p| p.0 + 1),
                    ..head
                });
        Adder {
            head,
            simple,
            spec,
            attr: None,
        }
    }

    /// An add that first sets attribute `a` of the piece on the current square to `v`
    /// (`(set-attribute a v) add`, as a rook's or king's first move clears `never-moved?`),
    /// when it writes simple moves without promotion; `None` otherwise. The simple moves'
    /// header holds the attribute's bit in its cell (`attrs`, and `marks` 1 to set it, 0 to
    /// clear it), which `Exec::push_simple` applies to the piece as it lands: the cell the
    /// plain `emit` writes when the current square is the destination.
    pub(super) fn with_attr(spec: AddSpec, a: AttrId, v: bool) -> Option<Adder> {
        if !spec.promote.is_empty() || spec.copy {
            return None;
        }
        let mut add = Adder::new(spec);
        let simple = add.simple.as_mut()?;
        simple.cell = Cell {
            attrs: a.bit(),
            marks: v as u8,
            ..Cell::EMPTY
        };
        add.attr = Some((a, v));
        Some(add)
    }

    /// The header of the simple moves this add writes, if it writes them.
    pub(super) fn simple(&self) -> Option<&Move> {
        self.simple.as_ref()
    }
}

impl std::ops::Deref for Adder {
    type Target = AddSpec;
    fn deref(&self) -> &AddSpec {
        &self.spec
    }
}
