//! What `zrf lsp` does after a keystroke (once the author pauses): the document loaded with
//! its includes, every game and variant resolved for diagnostics, and the name index built,
//! on the corpus' largest files and on a 200 KB file made of three of them.

use std::path::Path;

use zrf::expand::NoFiles;

fn read(rel: &str) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/dagaz");
    std::fs::read(root.join(rel)).expect("a corpus file")
}

/// The server's analysis of one text (`zrf::names::analyse`, as `lsp/analysis.rs` runs it).
fn analyse(name: &str, bytes: &[u8]) -> usize {
    let a = zrf::names::analyse(name, bytes, &NoFiles);
    a.diags.len() + a.index.names.len()
}

/// The texts measured: the three largest corpus files and the three shogi files joined into
/// one of about 218 KB.
const FILES: &[&str] = &[
    "checkmate/cubic-chess.zrf",
    "shogi/suzumu-shogi.zrf",
    "shogi/ko-shogi.zrf",
    "three shogi files (218 KB)",
];

#[divan::bench(args = FILES)]
fn reanalyse(bencher: divan::Bencher, file: &str) {
    let bytes = if file.starts_with("three") {
        let mut all = read("shogi/tenjiku-shogi.zrf");
        all.extend(read("shogi/ko-shogi.zrf"));
        all.extend(read("shogi/suzumu-shogi.zrf"));
        all
    } else {
        read(file)
    };
    bencher.bench(|| analyse(file, &bytes));
}

/// Formatting the largest corpus file.
#[divan::bench]
fn format_cubic_chess(bencher: divan::Bencher) {
    let text = String::from_utf8_lossy(&read("checkmate/cubic-chess.zrf")).into_owned();
    bencher.bench(|| zrf::format::format(&text).map(|s| s.len()));
}

fn main() {
    divan::main();
}
