//! Compatibility with real rules files: every file of the public Dagaz corpus that is listed
//! in `tests/corpus/loads.txt` must load without an error, and at least 390 of the 400 must.

use std::path::{Path, PathBuf};

use zrf::diagnostic::has_errors;
mod common;

use common::FsLoader;
use common::Rng;

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

/// Plays one seeded random game of a rules file's default game, to its end or `plies`; at
/// every ply the incremental hash must equal the hash from scratch, each legal move must be
/// playable by its own text, and taking a move back must restore the position exactly.
fn random_game(path: &Path, plies: usize) -> Result<usize, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let name = path.to_string_lossy();
    let loaded = zrf::load(&name, &bytes, &FsLoader);
    let idx = zrf::summary::select_variant(&loaded.games, None).map_err(|e| e.to_string())?;
    let (def, _) = zrf::resolve_game(&loaded.games[idx]);
    let def = def.ok_or("does not resolve")?;
    let rules = zrf::engine::Rules::new(def);
    let start = rules.initial();
    let mut game = zrf::play::Game::new(rules, start);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ name.len() as u64);
    for ply in 0..plies {
        if game.outcome().is_some() {
            return Ok(ply);
        }
        let texts = game.legal_texts();
        if texts.is_empty() {
            return Ok(ply);
        }
        let before = game.pos.clone();
        let text = &texts[rng.below(texts.len())];
        game.play(text)
            .map_err(|e| format!("ply {ply}: its own move {text} is refused: {e}"))?;
        if game.pos.hash != game.pos.full_hash() {
            return Err(format!("ply {ply}: after {text} the hash is stale"));
        }
        game.undo();
        if game.pos != before {
            return Err(format!(
                "ply {ply}: taking {text} back does not restore the position"
            ));
        }
        game.redo();
    }
    Ok(plies)
}

#[test]
fn every_loading_corpus_game_plays_random_games() {
    let dir = corpus_dir();
    let list = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/loads.txt"),
    )
    .expect("loads.txt");
    let mut failures = Vec::new();
    let mut played = 0;
    for line in list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let path = dir.join(line.trim());
        if !path.is_file() {
            continue;
        }
        let r = std::panic::catch_unwind(|| random_game(&path, 24));
        match r {
            Ok(Ok(n)) => played += n,
            Ok(Err(e)) => failures.push(format!("{line}: {e}")),
            Err(_) => failures.push(format!("{line}: panicked")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(played > 5000, "only {played} plies were played");
}
