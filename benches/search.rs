//! Speed of the computer player's alpha-beta search from the start of reference games, at a
//! fixed depth (so every run visits the same nodes). Nodes per second are in `docs/ai.md`.

use std::sync::atomic::AtomicBool;

use zrf::ai::{Engine, EngineKind, Limits, SearchConfig};
#[path = "../tests/common/mod.rs"]
mod common;

/// Searches the start position to `depth` with a fresh engine; returns the nodes visited.
fn search(file: &str, depth: u32) -> impl FnMut() -> u64 {
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
    move || {
        let mut engine = Engine::new(&rules);
        let stop = AtomicBool::new(false);
        let r = engine
            .search(
                &rules,
                &pos,
                &[pos.repetition_key()],
                &cfg,
                &stop,
                &mut |_| {},
            )
            .expect("a move");
        assert_eq!(r.info.depth, depth);
        r.info.nodes
    }
}

/// Chess from the start, depth 6.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn chess_depth_6(b: divan::Bencher) {
    let mut f = search("games/chess.zrf", 6);
    b.bench_local(&mut f);
}

/// English checkers from the start, depth 10.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn checkers_depth_10(b: divan::Bencher) {
    let mut f = search("games/checkers.zrf", 10);
    b.bench_local(&mut f);
}

/// International draughts from the start, depth 8.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn international_depth_8(b: divan::Bencher) {
    let mut f = search("games/international-draughts.zrf", 8);
    b.bench_local(&mut f);
}

fn main() {
    divan::main();
}
