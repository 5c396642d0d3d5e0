//! Any bytes, decoded as a rules file would be, must read without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zrf::source::{decode, FileId};
use zrf::syntax::parse_file;

fuzz_target!(|data: &[u8]| {
    let text = decode(data);
    let _ = parse_file(FileId(0), &text);
});
