//! Perft speed of the reference games (every leaf move made), asserting the published counts.
//! The same four workloads as `scripts/rbg-bench.sh`, which also times compiled Regular
//! Boardgames beside zrf.

#[path = "../tests/common/mod.rs"]
mod common;

fn perft(file: &str, variant: Option<&str>, depth: u32, expected: u64) -> impl FnMut() -> u64 {
    let rules = common::rules(file, variant);
    move || {
        let mut pos = rules.initial();
        let n = rules.perft(&mut pos, depth);
        assert_eq!(n, expected);
        n
    }
}

/// Chess from the start, perft 5: 4,865,609.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn chess_5(b: divan::Bencher) {
    let mut f = perft("games/chess.zrf", None, 5, 4_865_609);
    b.bench_local(&mut f);
}

/// English checkers, perft 9: 3,963,680.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn checkers_9(b: divan::Bencher) {
    let mut f = perft("games/checkers.zrf", None, 9, 3_963_680);
    b.bench_local(&mut f);
}

/// International draughts, perft 7: 1,049,442.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn international_7(b: divan::Bencher) {
    let mut f = perft("games/international-draughts.zrf", None, 7, 1_049_442);
    b.bench_local(&mut f);
}

/// Crazyhouse (the chess file's variant), perft 5: 4,888,832.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn crazyhouse_5(b: divan::Bencher) {
    let mut f = perft("games/chess.zrf", Some("Crazyhouse"), 5, 4_888_832);
    b.bench_local(&mut f);
}

fn main() {
    divan::main();
}
