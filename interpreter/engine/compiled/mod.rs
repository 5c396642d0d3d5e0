//! The compiled form of the move programs, built from the resolved game at load.

pub(super) mod after;
pub(super) mod arith;
pub mod attack;
pub(super) mod config;
pub(super) mod count;
pub(super) mod gate_test;
pub(super) mod gates;
pub(super) mod goal_plan;
pub(super) mod rays;
pub(super) mod special;
