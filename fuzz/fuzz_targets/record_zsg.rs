//! Any text as a `.zsg` record read the way `zrf replay` and `load` read one
//! (`Session::from_records`), the rules coming from the shipped games only. A record that
//! replays must be written back in the same format to a text that replays to the same moves
//! and position.
#![no_main]

#[path = "shared/mod.rs"]
mod shared;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    shared::record_round_trip(data, "fuzz.zsg");
});
