//! Any text as a starting position (`setup::parse`: FEN, PDN FEN or the native position
//! text) for a shipped game or variant picked by the first three bytes. A position that
//! reads must write back (`setup::native`) to a text that reads to the same position, and its
//! legal moves must be generated, made and taken back without a panic.
#![no_main]

#[path = "shared/mod.rs"]
mod shared;

use libfuzzer_sys::fuzz_target;
use zrf::engine::{revert, MoveList, UndoLog};

fuzz_target!(|data: &[u8]| {
    let Some((rules, rest)) = shared::pick(shared::shipped(), data) else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let Ok(mut pos) = zrf::setup::parse(&rules, &text) else {
        return;
    };
    assert_eq!(pos.hash, pos.full_hash(), "hash of a parsed position");
    let native = zrf::setup::native(&rules, &pos);
    let back = zrf::setup::parse(&rules, &native)
        .unwrap_or_else(|e| panic!("the native text does not read back: {e}\n{native}"));
    assert_eq!(back, pos, "native text round trip:\n{native}");
    if rules.turns.is_empty() {
        return;
    }
    let mut list = MoveList::new();
    rules.legal_moves(&mut pos, &mut list);
    let _ = zrf::notation::move_texts(&rules.def, &list);
    let start = pos.clone();
    let mut log = UndoLog::new();
    for k in 0..list.moves.len().min(64) {
        let m = list.moves[k];
        rules.make(&mut pos, &list, &m, &mut log);
        assert_eq!(pos.hash, pos.full_hash(), "hash after a move");
        revert(&mut pos, &mut log);
        assert_eq!(pos, start, "undo restores the position");
    }
});
