//! zrf: an open interpreter for Zillions-of-Games rules files.
#![deny(missing_docs)]

pub mod diagnostic;
pub mod expand;
pub mod source;
pub mod stdlib;
pub mod syntax;
