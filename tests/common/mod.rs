//! Helpers shared by the integration tests (each test file is its own crate and includes this
//! module; not every crate uses every helper).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use zrf::engine::Rules;
use zrf::expand::NoFiles;
use zrf::play::Game;

/// A folder under the system temp dir, unique to this process and call, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new empty folder; `tag` makes its name readable.
    pub fn new(tag: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("zrf-test-{}-{n}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }

    /// Writes `text` to `name` inside the folder and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write a temp file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The rules of game or variant number `variant` (from 0) of a source text, which must load
/// with no diagnostic.
pub fn rules_of(source: &str, bytes: &[u8], variant: usize) -> Rules {
    let loaded = zrf::load(source, bytes, &NoFiles);
    let (def, diags) = zrf::resolve_game(&loaded.games[variant]);
    assert!(diags.is_empty(), "{source}: {diags:?}");
    Rules::new(def.expect("resolves"))
}

/// The rules of a file of the repository: the variant by title or number (the default when
/// `None`), which must load with no diagnostic.
pub fn rules(file: &str, variant: Option<&str>) -> Rules {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let loaded = zrf::load(file, &bytes, &NoFiles);
    let idx = zrf::summary::select_variant(&loaded.games, variant).expect("variant");
    rules_of(file, &bytes, idx)
}

/// A game of a file of the repository: the variant by title or number (the default when
/// `None`), the setup (the rules' own when `None`), then `moves` played.
pub fn game(file: &str, variant: Option<&str>, setup: Option<&str>, moves: &str) -> Game {
    let rules = rules(file, variant);
    let pos = match setup {
        Some(s) => zrf::setup::parse(&rules, s).expect("setup"),
        None => rules.initial(),
    };
    let mut g = Game::new(rules, pos);
    for m in moves.split_whitespace() {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// Files for a session in tests: read from a folder, else as the path is given (the
/// repository's own files); written into the folder.
pub struct TestFiles<'a>(pub &'a Path);

impl zrf::repl::Files for TestFiles<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        std::fs::read(self.0.join(path))
            .or_else(|_| std::fs::read(path))
            .map_err(|e| e.to_string())
    }

    fn write(&self, path: &str, contents: &str) -> Result<(), String> {
        std::fs::write(self.0.join(path), contents).map_err(|e| e.to_string())
    }

    fn list(&self, dir: &str) -> Vec<String> {
        let dir = if dir.is_empty() {
            Path::new(".")
        } else {
            Path::new(dir)
        };
        std::fs::read_dir(self.0.join(dir))
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Includes read straight from the file system.
pub struct FsLoader;

impl zrf::expand::Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

/// The games of a rules file that resolve, each with its index in the file: every variant,
/// or only the first. Includes are read from disk.
pub fn resolved_games(path: &Path, all_variants: bool) -> Vec<(usize, zrf::def::GameDef)> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let loaded = zrf::load(&path.to_string_lossy(), &bytes, &FsLoader);
    let n = if all_variants { loaded.games.len() } else { 1 };
    (loaded.games.iter().take(n).enumerate())
        .filter_map(|(i, game)| zrf::resolve_game(game).0.map(|def| (i, def)))
        .collect()
}

/// The vendored corpus files that load (`tests/corpus/loads.txt`), in the list's order.
pub fn corpus_loads() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let list = std::fs::read_to_string(root.join("tests/corpus/loads.txt")).expect("loads.txt");
    let dir = root.join("tests/corpus/dagaz");
    let files: Vec<PathBuf> = (list.lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| dir.join(l))
        .collect();
    assert!(files.len() > 300, "{} corpus files", files.len());
    files
}

/// A path's file name, as the tests name a rules file in their messages.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// A small seeded generator (xorshift), so that random games are the same on every run.
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Whether python3 can import `module`, a Python library (`name` for messages) that a test
/// checks zrf against. Under CI (`CI` set) a missing library fails the test, since `.ci/run`
/// installs it; elsewhere the test is skipped with a note.
pub fn python_has(module: &str, name: &str) -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have {name} (.ci/run installs it with pip)"
        );
        eprintln!("note: python3 with {name} is not installed; skipping");
    }
    ok
}

/// Runs `tests/SCRIPT` with python3 and these arguments; its output.
pub fn python_script<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> std::process::Output {
    std::process::Command::new("python3")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests")
                .join(script),
        )
        .args(args)
        .output()
        .expect("python3 runs")
}

/// Runs a check script of `tests/` against the binary: it must exit 0 and print `lines` lines,
/// each starting `ok `.
pub fn python_checks(script: &str, lines: usize) {
    let out = python_script(script, &[env!("CARGO_BIN_EXE_zrf")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fails: Vec<&str> = text.lines().filter(|l| !l.starts_with("ok ")).collect();
    assert!(fails.is_empty(), "{}", fails.join("\n"));
    assert_eq!(text.lines().count(), lines, "{text}");
}

/// The shipped rules files (`games/*.zrf`), in name order.
#[allow(dead_code)]
pub fn shipped_files() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .expect("games folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "zrf"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    files
}
