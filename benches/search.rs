//! Speed of the computer player's alpha-beta search from the start of reference games, at a
//! fixed depth (so every run visits the same nodes), reported as nodes per second (divan's
//! `item/s`). The figures are in `docs/ai.md`.

use std::sync::atomic::AtomicBool;

use zrf::ai::{Engine, EngineKind, Limits, SearchConfig};
#[path = "../tests/common/mod.rs"]
mod common;

/// Searches the start position of `file` to `depth`, each run with a fresh engine built
/// outside the timed part; divan reports the nodes visited per second (`item/s`), as every run
/// visits the same nodes.
fn bench_search(b: divan::Bencher, file: &str, depth: u32) {
    let rules = common::rules(file, None);
    let pos = rules.initial();
    let cfg = SearchConfig {
        kind: EngineKind::AlphaBeta,
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        seed: 0,
        ..SearchConfig::default()
    };
    let history = [pos.repetition_key()];
    let search = |engine: &mut Engine| {
        let stop = AtomicBool::new(false);
        let r = engine
            .search(&rules, &pos, &history, &cfg, &stop, &mut |_| {})
            .expect("a move");
        assert_eq!(r.info.depth, depth);
        r.info.nodes
    };
    let nodes = search(&mut Engine::new(&rules));
    b.counter(divan::counter::ItemsCount::new(nodes))
        .with_inputs(|| Engine::new(&rules))
        .bench_local_values(|mut engine| search(&mut engine));
}

/// Chess from the start, depth 6.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn chess_depth_6(b: divan::Bencher) {
    bench_search(b, "games/chess.zrf", 6);
}

/// English checkers from the start, depth 10.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn checkers_depth_10(b: divan::Bencher) {
    bench_search(b, "games/checkers.zrf", 10);
}

/// International draughts from the start, depth 8.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn international_depth_8(b: divan::Bencher) {
    bench_search(b, "games/international-draughts.zrf", 8);
}

fn main() {
    divan::main();
}
