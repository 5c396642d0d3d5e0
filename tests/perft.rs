//! Perft counts of the reference games against published tables (`tests/perft/*.perft`).
//!
//! By default each entry runs when its count is at most `BUDGET` leaves, which keeps
//! `cargo test` short; `ZRF_DEEP_PERFT=1 cargo test --release --test perft` runs every entry.
//!
//! File format: `game PATH` (relative to the repository), then for each position `id NAME`,
//! an optional `setup TEXT` and `variant NAME`, and lines `perft DEPTH NODES` or
//! `perft-unique DEPTH NODES` (draughts captures merged by start, end and captured set).

use std::path::Path;

use zrf::engine::PerftOptions;

mod common;

use common::rules;

const BUDGET: u64 = 250_000;

struct Case {
    id: String,
    variant: Option<String>,
    setup: Option<String>,
    depth: u32,
    nodes: u64,
    unique: bool,
}

fn run_file(name: &str) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/perft")
            .join(name),
    )
    .expect("perft file");
    let deep = std::env::var_os("ZRF_DEEP_PERFT").is_some();
    let mut game = String::new();
    let mut cases = Vec::new();
    let (mut id, mut variant, mut setup) = (String::new(), None, None);
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "game" => game = rest.to_string(),
            "id" => {
                id = rest.to_string();
                variant = None;
                setup = None;
            }
            "variant" => variant = Some(rest.to_string()),
            "setup" => setup = Some(rest.to_string()),
            "perft" | "perft-unique" => {
                let (d, n) = rest.split_once(' ').expect("perft DEPTH NODES");
                cases.push(Case {
                    id: id.clone(),
                    variant: variant.clone(),
                    setup: setup.clone(),
                    depth: d.parse().expect("depth"),
                    nodes: n.parse().expect("nodes"),
                    unique: key == "perft-unique",
                });
            }
            _ => panic!("{name}: unknown line `{line}`"),
        }
    }
    let mut ran = 0;
    for c in cases.iter().filter(|c| deep || c.nodes <= BUDGET) {
        let rules = rules(&game, c.variant.as_deref());
        let mut pos = match &c.setup {
            Some(s) => zrf::setup::parse(&rules, s).expect("setup"),
            None => rules.initial(),
        };
        let opts = PerftOptions {
            unique: c.unique,
            bulk: false,
        };
        let got = rules.perft_with(&mut pos, c.depth, opts);
        assert_eq!(got, c.nodes, "{name} {} perft {}", c.id, c.depth);
        // The last level counted in bulk (most moves without being written).
        let bulk = PerftOptions { bulk: true, ..opts };
        let got = rules.perft_with(&mut pos, c.depth, bulk);
        assert_eq!(got, c.nodes, "{name} {} perft {} bulk", c.id, c.depth);
        ran += 1;
    }
    assert!(ran > 0, "{name}: no entry within the budget");
}

#[test]
fn chess() {
    run_file("chess.perft");
}

/// A 10x8 game written only with the documented stdlib macros (castling three squares).
#[test]
fn capablanca_chess() {
    run_file("capablanca.perft");
}

/// The flying-kings example of docs/stdlib.md.
#[test]
fn checkers_with_flying_kings() {
    run_file("flying-kings.perft");
}

#[test]
fn checkers() {
    run_file("checkers.perft");
}

#[test]
fn international_and_brazilian_draughts() {
    run_file("international-draughts.perft");
}

#[test]
fn russian_draughts() {
    run_file("russian-draughts.perft");
}

#[test]
fn frisian_draughts() {
    run_file("frisian-draughts.perft");
}

#[test]
fn halfgi_with_chess_pieces_is_chessgi() {
    run_file("halfgi.perft");
}

#[test]
fn frisian_2_traditional_variant() {
    run_file("frisian-draughts-2.perft");
}
