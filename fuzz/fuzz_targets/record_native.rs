//! Any text as a native game record (`records::native::Record::parse`), then, when it names a
//! shipped game, replayed the way `zrf replay` and `load` do (`Session::from_record`).
//! A record that replays must be written back (`Session::record`) to a text that reads and
//! replays to the same moves.
#![no_main]

#[path = "shared/mod.rs"]
mod shared;

use libfuzzer_sys::fuzz_target;
use zrf::records::native::Record;
use zrf::repl::{Files, Session};

/// The shipped games by their repository path (`games/chess.zrf`), read from memory; nothing
/// else exists.
struct Shipped;

impl Files for Shipped {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let path = path.trim_start_matches("./");
        if shared::shipped().iter().any(|f| f == path) {
            std::fs::read(shared::repo().join(path)).map_err(|e| e.to_string())
        } else {
            Err("no such file".into())
        }
    }

    fn write(&self, _path: &str, _contents: &str) -> Result<(), String> {
        Err("read-only".into())
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(rec) = Record::parse(&text) else {
        return;
    };
    // At most 300 moves, so that one input stays fast.
    if rec.moves.len() > 300 {
        return;
    }
    let Ok(mut s) = Session::from_record(&text, "fuzz.game", &Shipped) else {
        return;
    };
    let played = s.game().played();
    let written = s.record();
    let again = Record::parse(&written)
        .unwrap_or_else(|e| panic!("a written record does not read back: {e}\n{written}"));
    assert_eq!(again.moves, played, "moves written:\n{written}");
    let s2 = Session::from_record(&written, "fuzz.game", &Shipped)
        .unwrap_or_else(|e| panic!("a written record does not replay: {e}\n{written}"));
    assert_eq!(s2.game().played(), played);
    assert_eq!(s2.game().pos, s.game().pos);
});
