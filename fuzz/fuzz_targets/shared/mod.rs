//! Helpers shared by the fuzz targets that need real games: the rules files of the
//! repository, read from disk once, and their rules, resolved once per file and variant.
#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use zrf::engine::Rules;
use zrf::expand::Loader;

/// The repository (the parent of `fuzz/`).
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz/ has a parent")
}

/// Includes, read from the file system.
pub struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

/// The shipped games (`games/*.zrf`), sorted, as paths relative to the repository.
pub fn shipped() -> &'static [String] {
    static FILES: OnceLock<Vec<String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut v: Vec<String> = std::fs::read_dir(repo().join("games"))
            .expect("games/")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".zrf"))
            .map(|n| format!("games/{n}"))
            .collect();
        v.sort();
        v
    })
}

/// The shipped games, then every corpus file that `tests/corpus/loads.txt` says loads.
pub fn all_games() -> &'static [String] {
    static FILES: OnceLock<Vec<String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut v = shipped().to_vec();
        let list = std::fs::read_to_string(repo().join("tests/corpus/loads.txt"))
            .expect("tests/corpus/loads.txt");
        v.extend(
            list.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| format!("tests/corpus/dagaz/{l}")),
        );
        v
    })
}

fn full(file: &str) -> PathBuf {
    repo().join(file)
}

thread_local! {
    /// Rules by (file, variant); `None` when that variant does not resolve.
    static RULES: RefCell<HashMap<(String, usize), Option<std::rc::Rc<Rules>>>> =
        RefCell::new(HashMap::new());
    /// How many games and variants each file has.
    static COUNTS: RefCell<HashMap<String, usize>> = RefCell::new(HashMap::new());
}

/// How many games and variants `file` (relative to the repository) has.
pub fn variant_count(file: &str) -> usize {
    if let Some(n) = COUNTS.with(|c| c.borrow().get(file).copied()) {
        return n;
    }
    let path = full(file);
    let bytes = std::fs::read(&path).unwrap_or_default();
    let loaded = zrf::load(&path.to_string_lossy(), &bytes, &FsLoader);
    let n = loaded.games.len();
    COUNTS.with(|c| c.borrow_mut().insert(file.to_string(), n));
    n
}

/// The rules of variant `variant` of `file`, if it resolves without errors.
pub fn rules(file: &str, variant: usize) -> Option<std::rc::Rc<Rules>> {
    let key = (file.to_string(), variant);
    if let Some(r) = RULES.with(|m| m.borrow().get(&key).cloned()) {
        return r;
    }
    let path = full(file);
    let bytes = std::fs::read(&path).unwrap_or_default();
    let loaded = zrf::load(&path.to_string_lossy(), &bytes, &FsLoader);
    let r = loaded.games.get(variant).and_then(|g| {
        let (def, mut diags) = zrf::resolve_game(g);
        diags.extend(loaded.diags.iter().cloned());
        zrf::tidy(&loaded.map, &mut diags);
        if zrf::diagnostic::has_errors(&diags) {
            None
        } else {
            def.map(|d| std::rc::Rc::new(Rules::new(d)))
        }
    });
    RULES.with(|m| m.borrow_mut().insert(key, r.clone()));
    r
}

/// Picks a file of `files` and one of its variants from the first three bytes of `data`;
/// returns the rules and the rest of the data.
pub fn pick<'d>(files: &[String], data: &'d [u8]) -> Option<(std::rc::Rc<Rules>, &'d [u8])> {
    if data.len() < 3 || files.is_empty() {
        return None;
    }
    let f = u16::from_le_bytes([data[0], data[1]]) as usize % files.len();
    let file = &files[f];
    let n = variant_count(file).max(1);
    let v = data[2] as usize % n;
    Some((rules(file, v)?, &data[3..]))
}

/// The shipped games by their repository path (`games/chess.zrf`) or bare name, read from the
/// repository; nothing else exists and nothing can be written.
pub struct ShippedFiles;

impl zrf::repl::Files for ShippedFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let path = path.trim_start_matches("./");
        let found = shipped()
            .iter()
            .find(|f| f.as_str() == path || f.strip_prefix("games/") == Some(path));
        match found {
            Some(f) => std::fs::read(repo().join(f)).map_err(|e| e.to_string()),
            None => Err("no such file".into()),
        }
    }

    fn write(&self, _path: &str, _contents: &str) -> Result<(), String> {
        Err("read-only".into())
    }
}

/// The record targets (PGN, PDN, ZSG): read `data` as a record named `name`; when it replays
/// (at most 300 moves), write it back in the same format and replay that to the same game.
pub fn record_round_trip(data: &[u8], name: &str) {
    use zrf::repl::records::RulesHint;
    use zrf::repl::Session;
    let text = String::from_utf8_lossy(data);
    if text.lines().count() > 400 {
        return;
    }
    let hint = RulesHint {
        path: None,
        titles: None,
        variant: None,
    };
    let Ok((mut s, _)) = Session::from_records(&text, name, None, &hint, &ShippedFiles) else {
        return;
    };
    let played = s.game().played();
    let Ok(written) = s.record_as(name) else {
        // A format that cannot hold this game (PGN of a game without SAN): refused cleanly.
        return;
    };
    let (back, _) = Session::from_records(&written, name, None, &hint, &ShippedFiles)
        .unwrap_or_else(|e| panic!("a written record does not replay: {e}\n{written}"));
    assert_eq!(back.game().played(), played, "moves written:\n{written}");
    assert_eq!(back.game().pos.cells, s.game().pos.cells, "{written}");
}
