//! Load speed: reading, expanding and resolving every corpus file and every shipped game.

use std::path::{Path, PathBuf};

use zrf::expand::Loader;

struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

fn files(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "zrf") {
            let bytes = std::fs::read(&p).expect("readable");
            out.push((p.to_string_lossy().into_owned(), bytes));
        }
    }
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    files(&root.join("tests/corpus/dagaz"), &mut out);
    out
}

/// Every corpus file (400) through read, expand, assemble and resolve of every variant.
#[divan::bench(sample_count = 10)]
fn load_whole_corpus(bencher: divan::Bencher) {
    let all = corpus();
    assert!(all.len() >= 390, "corpus missing");
    bencher.bench(|| {
        let mut n = 0;
        for (name, bytes) in &all {
            let (_, diags) = zrf::check_source(name, bytes, &FsLoader);
            n += diags.len();
        }
        n
    });
}

/// One large file: Cubic Chess (80 KB, heavy macro use).
#[divan::bench]
fn load_cubic_chess(bencher: divan::Bencher) {
    let all = corpus();
    let (name, bytes) = all
        .iter()
        .find(|(n, _)| n.ends_with("cubic-chess.zrf"))
        .expect("in corpus");
    bencher.bench(|| zrf::check_source(name, bytes, &FsLoader).1.len());
}

fn main() {
    divan::main();
}
