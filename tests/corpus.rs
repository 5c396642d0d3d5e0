//! Compatibility with real rules files: every file of the public Dagaz corpus that is listed
//! in `tests/corpus/loads.txt` must load without an error, and at least 390 of the 400 must.

use std::path::{Path, PathBuf};

use zrf::diagnostic::has_errors;
use zrf::expand::Loader;

struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

fn corpus_dir() -> PathBuf {
    match std::env::var_os("ZRF_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/dagaz"),
    }
}

fn zrf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            zrf_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "zrf") {
            out.push(p);
        }
    }
}

/// Loads one file; returns the first error message when it does not load.
fn load(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let (_, diags) = zrf::check_source(&path.to_string_lossy(), &bytes, &FsLoader);
    if has_errors(&diags) {
        let first = diags.iter().find(|d| d.is_error()).expect("has an error");
        return Err(first.message.clone());
    }
    Ok(())
}

#[test]
fn corpus_files_keep_loading() {
    let dir = corpus_dir();
    assert!(
        dir.is_dir(),
        "the ZRF corpus is expected at {} (set ZRF_CORPUS to override)",
        dir.display()
    );
    let mut files = Vec::new();
    zrf_files(&dir, &mut files);
    assert_eq!(files.len(), 400, "the corpus has 400 files");
    let expected: Vec<&str> = include_str!("corpus/loads.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(
        expected.len() >= 390,
        "at least 390 files are expected to load"
    );
    let mut broken = Vec::new();
    let mut newly = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&dir)
            .expect("inside the corpus")
            .to_string_lossy()
            .replace('\\', "/");
        let listed = expected.contains(&rel.as_str());
        match load(path) {
            Err(msg) if listed => broken.push(format!("{rel}: {msg}")),
            Ok(()) if !listed => newly.push(rel),
            _ => {}
        }
    }
    if !newly.is_empty() {
        eprintln!("files that now load but are not listed in tests/corpus/loads.txt: {newly:?}");
    }
    assert!(
        broken.is_empty(),
        "files that stopped loading:\n{}",
        broken.join("\n")
    );
}

#[test]
fn files_that_do_not_load_say_why() {
    // Each of these has a mistake in the file itself; the first error names it.
    let cases = [
        ("checkmate/evoluchess.zrf", "unknown instruction `varify`"),
        ("checkmate/platform-chess.zrf", "unknown instruction `or`"),
        (
            "checkmate/sovereign-chess.zrf",
            "unknown instruction, direction or position `s-zone`",
        ),
        (
            "checkmate/swap-chess.zrf",
            "unknown instruction, direction or position `nw`",
        ),
        ("mancala/ohojichi.zrf", "`in-zone?` needs an argument"),
        ("races/ginseng.zrf", "unclosed `(`"),
        ("sliding-puzzles/common.zrf", "the file defines no game"),
    ];
    let dir = corpus_dir();
    for (file, msg) in cases {
        assert_eq!(load(&dir.join(file)), Err(msg.to_string()), "{file}");
    }
}
