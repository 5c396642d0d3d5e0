//! `zrf fmt`: rewrites rules files (and `.tests` files) in the canonical layout of
//! `zrf::format`, or with `--check` only says which ones it would change.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::fsio;

/// Formats each file in place (only when its layout changes); with `check`, writes nothing
/// and exits 1 when any file would change. A file that cannot be read or formatted is
/// reported and makes the exit code 1 (2 when it could not be read).
pub fn fmt(files: &[PathBuf], check: bool) -> ExitCode {
    let mut code = ExitCode::SUCCESS;
    for path in files {
        let shown = fsio::shown(path);
        let bytes = match fsio::read_file(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: cannot read {shown}: {e}");
                code = ExitCode::from(2);
                continue;
            }
        };
        let utf8 = std::str::from_utf8(&bytes).is_ok();
        let text = zrf::source::decode(&bytes);
        let out = match zrf::format::format(&text) {
            Ok(out) => out,
            Err(e) => {
                let (line, col) = line_col(&text, e.offset);
                eprintln!("error: {shown}:{line}:{col}: {e}");
                code = ExitCode::FAILURE;
                continue;
            }
        };
        if out == text {
            continue;
        }
        if check {
            println!("{shown} is not formatted");
            code = ExitCode::FAILURE;
            continue;
        }
        // A file that was not UTF-8 was read as Latin-1 and is written back so.
        let bytes: Vec<u8> = if utf8 {
            out.into_bytes()
        } else {
            out.chars()
                .map(|c| u8::try_from(c).unwrap_or(b'?'))
                .collect()
        };
        match fsio::write_atomic(path, &bytes, fsio::Existing::Replace) {
            Ok(()) => println!("formatted {shown}"),
            Err(e) => {
                eprintln!("error: cannot write {shown}: {e}");
                code = ExitCode::FAILURE;
            }
        }
    }
    code
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}
