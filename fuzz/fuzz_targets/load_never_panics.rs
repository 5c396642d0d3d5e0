//! Any bytes given as a rules file must go through every stage of `check_source`, and its
//! diagnostics through rendering (as `zrf check` does), without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zrf::diagnostic::{render, RenderOptions};
use zrf::expand::NoFiles;

fuzz_target!(|data: &[u8]| {
    let (map, diags) = zrf::check_source("fuzz.zrf", data, &NoFiles);
    let _ = render(&map, &diags, RenderOptions { color: false });
});
