//! Random games in the shipped games and the corpus files that load: the first three bytes
//! pick a file and a variant, each later byte picks a legal move (or, when its top bit is
//! set and a move has been made, takes the last one back).
//!
//! Checked at every step: the incremental hash equals the hash computed from scratch; taking
//! a move back restores the position exactly (cells, stores, counters, turn, hash); every
//! legal move's canonical text reads back as that move; and taking every move back at the
//! end gives the starting position.
#![no_main]

#[path = "shared/mod.rs"]
mod shared;

use libfuzzer_sys::fuzz_target;
use zrf::engine::{revert, GoalContext, MoveList, UndoLog};

/// The most moves (made or taken back) one input plays.
const MAX_STEPS: usize = 200;

fuzz_target!(|data: &[u8]| {
    let Some((rules, rest)) = shared::pick(shared::all_games(), data) else {
        return;
    };
    if rules.turns.is_empty() {
        return;
    }
    let start = rules.initial();
    assert_eq!(start.hash, start.full_hash(), "initial hash");
    let mut pos = start.clone();
    let mut log = UndoLog::new();
    let mut before = Vec::new();
    let mut history = vec![pos.repetition_key()];
    let mut list = MoveList::new();
    for &b in rest.iter().take(MAX_STEPS) {
        if b & 0x80 != 0 {
            if let Some(prev) = before.pop() {
                revert(&mut pos, &mut log);
                history.pop();
                assert_eq!(pos, prev, "undo restores the position");
                continue;
            }
        }
        rules.legal_moves(&mut pos, &mut list);
        let now = pos.repetition_key();
        let cx = GoalContext {
            pos: &pos,
            has_moves: !list.is_empty(),
            repetitions: history.iter().filter(|&&h| h == now).count(),
        };
        if rules.outcome(&cx).is_some() || list.moves.is_empty() {
            break;
        }
        let texts = zrf::notation::move_texts(&rules.def, &list);
        let i = usize::from(b & 0x7f) % list.moves.len();
        let back = zrf::notation::parse_move(&rules.def, &list, &texts[i]);
        assert!(
            matches!(back, Ok(j) if j == i),
            "`{}` reads back as {back:?}, not move {i} (moves: {texts:?})",
            texts[i]
        );
        let m = list.moves[i];
        before.push(pos.clone());
        rules.make(&mut pos, &list, &m, &mut log);
        history.push(pos.repetition_key());
        assert_eq!(pos.hash, pos.full_hash(), "hash after `{}`", texts[i]);
    }
    while before.pop().is_some() {
        revert(&mut pos, &mut log);
    }
    assert_eq!(pos, start, "taking every move back gives the start");
});
