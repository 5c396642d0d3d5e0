//! The turn layer: whole turns from single steps, legality, goals, make and perft.

pub(super) mod chains;
pub(super) mod coverage;
pub(super) mod goals;
pub(super) mod legal;
pub(super) mod make;
pub(super) mod turns;
pub(super) mod workspace;
