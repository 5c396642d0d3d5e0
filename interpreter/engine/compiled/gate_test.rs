//! A gate's test of its square as the generation loop asks it: reduced at load to one of a few
//! kinds ([`GateTest`]), each the set of cell classes ([`Classes`]) on which it holds, so that
//! the loop answers it with one cell read and a bit test. Below both the specialised tree,
//! which reduces its tests to these, and the gate rows, which store them.

use crate::engine::position::{Cell, DEAD};

/// A gate's test of a square on the board, as the specialised tree reduces it
/// (`GateEntry::gate_code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GateTest {
    /// The gate passes on any cell (a bare step that stays on the board).
    Pass,
    /// The gate's square must be empty.
    Empty,
    /// The gate's square must be occupied.
    Occupied,
    /// The gate's square must hold a live enemy piece.
    Enemy,
    /// The gate's square must not hold a live enemy piece.
    NotEnemy,
    /// The gate's square must hold a live friendly piece.
    Friend,
    /// The gate's square must not hold a live friendly piece.
    NotFriend,
    /// Any other test: asked of the block's `GateEntry` (`Exec::gate_passes`).
    Other,
}

bitflags::bitflags! {
    /// A set of cell classes ([`class`]): bit `k` is the class `k`. Every set a test makes
    /// ([`GateTest::classes`]) has its bits of empty classes (the even ones) all equal, so an
    /// empty cell, the commonest, is answered by bit 0 without its owner and marks.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(in crate::engine) struct Classes: u8 {
        /// The empty classes: `empty?`.
        const EMPTY = 0x55;
        /// The occupied classes: `not-empty?`.
        const OCCUPIED = 0xAA;
        /// Occupied, another side's, not captured: `enemy?`.
        const ENEMY = 0x02;
        /// Occupied by the mover, not captured: `friend?`.
        const FRIEND = 0x08;
        /// Every class: no test.
        const ANY = 0xFF;
    }
}

impl GateTest {
    /// The classes of cells on which the test holds (every class for [`GateTest::Other`],
    /// which the loop asks of the entry instead).
    pub(super) fn classes(self) -> Classes {
        match self {
            GateTest::Empty => Classes::EMPTY,
            GateTest::Occupied => Classes::OCCUPIED,
            GateTest::Enemy => Classes::ENEMY,
            GateTest::NotEnemy => Classes::ENEMY.complement(),
            GateTest::Friend => Classes::FRIEND,
            GateTest::NotFriend => Classes::FRIEND.complement(),
            GateTest::Pass | GateTest::Other => Classes::ANY,
        }
    }
}

/// The class of a cell for the mover `side`, an index into [`Classes`]: bit 0 occupied,
/// bit 1 owned by the mover, bit 2 captured (deferred).
#[inline(always)]
fn class(c: Cell, side: u8) -> u32 {
    u32::from(c.piece != 0) | u32::from(c.owner == side) << 1 | u32::from(c.marks & DEAD) << 2
}

/// Whether a set of classes holds the class of a cell for the mover `side`.
#[inline(always)]
pub(in crate::engine) fn passes(mask: Classes, c: Cell, side: u8) -> bool {
    let mask = mask.bits();
    if c.piece == 0 {
        mask & 1 != 0
    } else {
        mask >> class(c, side) & 1 != 0
    }
}

/// [`passes`] without a branch on whether the cell is empty (every set answers the empty
/// classes alike, so an empty cell's class, whatever its owner and marks, reads bit 0's
/// answer): for loops whose cells are empty or not at random.
#[inline(always)]
pub(in crate::engine) fn passes_flat(mask: Classes, c: Cell, side: u8) -> bool {
    mask.bits() >> class(c, side) & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `passes` answers as the class index does for every test and kind of cell (empty ones
    /// with any owner and marks among them).
    #[test]
    fn passes_is_the_class_bit() {
        let tests = [
            GateTest::Pass,
            GateTest::Empty,
            GateTest::Occupied,
            GateTest::Enemy,
            GateTest::NotEnemy,
            GateTest::Friend,
            GateTest::NotFriend,
            GateTest::Other,
        ];
        let mut checked = 0;
        for test in tests {
            let m = test.classes();
            for piece in [0u16, 1, 3] {
                for owner in 0..3u8 {
                    for marks in 0..4u8 {
                        let c = Cell {
                            piece,
                            owner,
                            marks,
                            attrs: 0,
                        };
                        for side in 0..2u8 {
                            assert_eq!(passes(m, c, side), m.bits() >> class(c, side) & 1 != 0);
                            assert_eq!(passes(m, c, side), passes_flat(m, c, side));
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 8 * 3 * 3 * 4 * 2);
        // The masks the bare codes had.
        assert_eq!(GateTest::NotEnemy.classes().bits(), 0xFD);
        assert_eq!(GateTest::NotFriend.classes().bits(), 0xF7);
        // An enemy piece passes `enemy?` and fails `empty?`; an empty cell the reverse.
        let enemy = Cell::new(crate::def::PieceId(0), crate::def::PlayerId(1), 0);
        assert!(passes(Classes::ENEMY, enemy, 0) && !passes(Classes::EMPTY, enemy, 0));
        assert!(!passes(Classes::ENEMY, Cell::EMPTY, 0) && passes(Classes::EMPTY, Cell::EMPTY, 0));
    }
}
