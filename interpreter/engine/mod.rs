//! The move engine: positions, the move-program interpreter and the turn layer that turns
//! program output into legal moves (whole turns), plus make/unmake and perft.
//!
//! The modules form layers, each importing only from the layers below it:
//!
//! - `state/`: the position, moves and move lists, the undo log and the executor's scratch
//!   buffers (plain data);
//! - `compiled/`: the compiled form of the move programs (specialised trees, gate entries and
//!   rows, adders, attack tables, the compiled `after-move`, the engine configuration), each
//!   built from the resolved game at load;
//! - `rules.rs`: [`Tables`], the game with those tables, and the build step
//!   (`Tables::configure`);
//! - `exec/`: the executor, running one block from one square in one mode (generation,
//!   attack test, `after-move`, captures only), and [`Generator`], the tables with the
//!   generation of single steps, attack tests and the `after-move` run;
//! - `turn/`: [`Rules`], the generator with whole turns (chains of partial steps), legality,
//!   goals, make and perft.
//!
//! Each of the three types holds the one below and reaches its methods and fields through
//! `Deref`, so every `impl` block sits in its type's own layer.

mod compiled;
mod exec;
mod rules;
mod state;
mod turn;

pub use compiled::arith::arith;
pub use compiled::attack;
use compiled::{after, arith, config, count, gate_test, gates, goal_plan, rays, special};
use state::{moves, position, scratch, undo};
pub use turn::pick::Picked;
pub use turn::workspace::Workspace;
use turn::{coverage, goals, legal, make};

pub use config::{EngineConfig, FastPath};
pub use coverage::PathCount;
pub use exec::{Generator, Scratch, BLOCK_MOVE_LIMIT, STEP_LIMIT};
pub use goals::{GoalContext, Outcome};
pub use make::{unique_captures, PerftOptions};
pub use moves::{Cut, Move, MoveList, Op};
pub use position::{Cell, Position, DEAD, HUFFABLE};
pub use rules::{Tables, CHAIN_WORK_LIMIT, GEN_MOVE_LIMIT, GEN_WORK_LIMIT, MAX_CHAIN};
pub use turn::Rules;
pub use undo::{apply, apply_more, revert, UndoLog};

use exec::Exec;
