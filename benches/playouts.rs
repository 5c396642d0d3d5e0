//! Random playouts (`zrf::arena::playouts`): whole games of uniformly random legal moves,
//! without text, on one core. Divan reports the plies per second (items/s) beside the time of
//! one batch; the batch is seeded, so every sample plays the same games.

use std::sync::Arc;

use divan::counter::ItemsCount;

#[path = "../tests/common/mod.rs"]
mod common;

/// `games` playouts of at most 400 plies (`zrf selfplay`'s limit), seed 1.
fn playouts(b: divan::Bencher, file: &str, games: usize) {
    let rules = Arc::new(common::rules(file, None));
    let start = rules.initial();
    let run = || zrf::arena::playouts(Arc::clone(&rules), &start, games, 1, 400);
    let plies: usize = run().iter().map(|p| p.plies).sum();
    b.counter(ItemsCount::new(plies)).bench_local(run);
}

/// Chess: 20 games (about 6,500 plies).
#[divan::bench(sample_count = 10)]
fn chess(b: divan::Bencher) {
    playouts(b, "games/chess.zrf", 20);
}

/// English checkers: 100 games (about 7,000 plies).
#[divan::bench(sample_count = 10)]
fn checkers(b: divan::Bencher) {
    playouts(b, "games/checkers.zrf", 100);
}

/// Tic-tac-toe: 1,000 games (about 7,600 plies).
#[divan::bench(sample_count = 10)]
fn tic_tac_toe(b: divan::Bencher) {
    playouts(b, "games/tic-tac-toe.zrf", 1000);
}

fn main() {
    divan::main();
}
