//! Any bytes given as a rules file that resolves must play without a panic and within the
//! engine's limits: the legal moves of the start (a runaway block is cut, not run to the end),
//! a few moves made and their outcomes checked (rules arithmetic cannot overflow), the
//! position written as native text and read back, and the last line of the input read as a
//! setup of that game (counts are bounded).
#![no_main]

use libfuzzer_sys::fuzz_target;
use zrf::engine::{MoveList, Rules};
use zrf::expand::NoFiles;
use zrf::play::Game;

fuzz_target!(|data: &[u8]| {
    let loaded = zrf::load("fuzz.zrf", data, &NoFiles);
    let Some(game) = loaded.games.first() else {
        return;
    };
    let (Some(def), _) = zrf::resolve_game(game) else {
        return;
    };
    let rules = Rules::new(def);
    let text = String::from_utf8_lossy(data);
    if let Some(line) = text.lines().last() {
        let _ = zrf::setup::parse(&rules, line);
    }
    let pos = rules.initial();
    let mut g = Game::new(rules, pos);
    for ply in 0..8 {
        if g.outcome().is_some() {
            break;
        }
        let moves: &MoveList = g.legal();
        if moves.moves.is_empty() {
            break;
        }
        let texts = g.legal_texts();
        let pick = data.get(ply).copied().unwrap_or(0) as usize % texts.len();
        let _ = g.play(&texts[pick]);
        let native = zrf::setup::native(&g.rules, &g.pos);
        let _ = zrf::setup::parse(&g.rules, &native);
        let _ = g.take_cut();
    }
});
