//! `zrf fmt` keeps what a file means: every corpus file and shipped game, formatted (with its
//! includes formatted too), expands to the same forms, gets the same diagnostics, and
//! formatting again changes nothing. A sample (every twentieth corpus file, every shipped game)
//! also resolves to the same `zrf check` summary and the same perft 2 in every variant; the
//! whole corpus would take minutes in a debug build.

use std::path::{Path, PathBuf};

use zrf::engine::Rules;
use zrf::expand::Loader;

mod common;

/// Includes read from disk, formatted when `formatted` (a file that does not format is read as
/// it is).
struct Includes {
    formatted: bool,
}

impl Loader for Includes {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        let bytes = std::fs::read(path).ok()?;
        if !self.formatted {
            return Some(bytes);
        }
        let text = zrf::source::decode(&bytes);
        Some(zrf::format::format(&text).map_or(bytes, String::into_bytes))
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "zrf") {
            out.push(p);
        }
    }
}

/// What a file means: its expanded games and variants as text, its diagnostics' messages, and
/// (when `deep`) each variant's summary and perft 2.
fn meaning(name: &str, text: &[u8], formatted: bool, deep: bool) -> Vec<String> {
    let loader = Includes { formatted };
    let loaded = zrf::load(name, text, &loader);
    let mut out: Vec<String> = loaded.diags.iter().map(|d| d.message.clone()).collect();
    for g in &loaded.games {
        out.push(format!("== {}", g.title));
        out.extend(g.forms.iter().map(|f| f.to_string()));
        let (def, diags) = zrf::resolve_game(g);
        out.extend(diags.iter().map(|d| d.message.clone()));
        if let (true, Some(def), false) = (deep, def, zrf::diagnostic::has_errors(&diags)) {
            let rules = Rules::new(def);
            out.push(zrf::summary::describe_rules(&rules));
            let mut pos = rules.initial();
            out.push(format!("perft 2: {}", rules.perft(&mut pos, 2)));
        }
    }
    out
}

#[test]
fn formatting_keeps_the_meaning_of_every_corpus_file_and_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut corpus = Vec::new();
    files(&root.join("tests/corpus/dagaz"), &mut corpus);
    assert_eq!(corpus.len(), 400);
    let mut games = Vec::new();
    files(&root.join("games"), &mut games);
    assert!(games.len() >= 10);
    let mut refused = 0;
    let mut deep = 0;
    let all = corpus
        .iter()
        .enumerate()
        .map(|(i, p)| (p, i % 20 == 0))
        .chain(games.iter().map(|p| (p, true)));
    for (path, sample) in all {
        let name = path.to_string_lossy();
        let bytes = std::fs::read(path).expect("read");
        let text = zrf::source::decode(&bytes);
        let once = match zrf::format::format(&text) {
            Ok(s) => s,
            Err(e) => {
                // Only a file whose parentheses or strings do not close may be refused.
                let (_, diags) = zrf::syntax::parse_file(zrf::source::FileId(0), &text);
                assert!(
                    diags.iter().any(|d| d.is_error()),
                    "{name}: refused ({e}) though it reads without error"
                );
                refused += 1;
                continue;
            }
        };
        let twice = zrf::format::format(&once).expect("formats again");
        assert!(twice == once, "{name}: formatting twice changes the text");
        let before = meaning(&name, &bytes, false, sample);
        let after = meaning(&name, once.as_bytes(), true, sample);
        if before != after {
            let at = before.iter().zip(&after).position(|(a, b)| a != b);
            panic!(
                "{name}: the formatted file means something else (first difference at item {at:?}: {:?} vs {:?})",
                at.map(|i| &before[i]),
                at.map(|i| &after[i])
            );
        }
        deep += usize::from(sample);
    }
    assert!(refused <= 3, "{refused} files refused");
    assert!(deep >= 30, "{deep} files compared by summary and perft");
}

#[test]
fn fmt_check_reports_and_fmt_rewrites() {
    let dir = common::TempDir::new("fmt");
    let path = dir.write("g.zrf", "(game (title \"T\")   (players A B))\n");
    let zrf = env!("CARGO_BIN_EXE_zrf");
    let check = std::process::Command::new(zrf)
        .args(["fmt", "--check"])
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(check.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&check.stdout).contains("is not formatted"));
    let run = std::process::Command::new(zrf)
        .arg("fmt")
        .arg(&path)
        .output()
        .expect("runs");
    assert!(run.status.success());
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "(game\n  (title \"T\")\n  (players A B))\n"
    );
    let again = std::process::Command::new(zrf)
        .args(["fmt", "--check"])
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(again.status.code(), Some(0));
    let bad = dir.write("bad.zrf", "(game (title \"T\")\n");
    let out = std::process::Command::new(zrf)
        .arg("fmt")
        .arg(&bad)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.zrf:1:1: a `(` is never closed"));
}
