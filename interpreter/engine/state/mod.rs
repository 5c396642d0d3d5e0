//! The bottom layer: the position and what moves write into it.

pub(super) mod moves;
pub(super) mod position;
pub(super) mod scratch;
pub(super) mod undo;
