//! The subcommands of the `zrf` binary, a file per family; `main.rs` reads the command line
//! and calls them. Binary side: these print and read files (through `fsio`).

pub mod fmt;
pub mod play;
pub mod protocol;
pub mod rules;
pub mod selfplay;
