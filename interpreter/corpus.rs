//! One line per file for checking a corpus: `zrf check --folder DIR`, `zrf replay --check DIR` and the
//! cluster's parallel versions of both print what these functions return, so that a folder
//! checked on one machine or on many reads the same. Nothing here reads a folder or prints:
//! the caller lists the files, reads them and shows the lines.

use crate::diagnostic::Severity;
use crate::expand::Loader;
use crate::repl::{Files, Session};

/// The verdict on one file and the line that reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// True when the file passed.
    pub ok: bool,
    /// `ok   PATH: ...` or `FAIL PATH: ...`.
    pub text: String,
}

impl Line {
    fn ok(text: String) -> Line {
        Line { ok: true, text }
    }

    fn fail(text: String) -> Line {
        Line { ok: false, text }
    }

    /// The line for a file that could not be read.
    pub fn unreadable(path: &str, why: &str) -> Line {
        Line::fail(format!("FAIL {path}: cannot read it: {why}"))
    }
}

/// A game record rather than a rules file: named `.game`, `.pgn`, `.pdn` or `.zsg`.
pub fn is_record(path: &str) -> bool {
    extension_in(path, &["game", "pgn", "pdn", "zsg"])
}

/// A record `zrf replay --check` replays: a zrf record (`.game`) or a Zillions saved game
/// (`.zsg`), which name their rules file.
pub fn is_checked_record(path: &str) -> bool {
    extension_in(path, &["game", "zsg"])
}

/// A rules file: named `.zrf`.
pub fn is_rules(path: &str) -> bool {
    extension_in(path, &["zrf"])
}

fn extension_in(path: &str, exts: &[&str]) -> bool {
    std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Replays a record read from `path` (its text already read): `ok   PATH: N moves, RESULT`,
/// or `FAIL PATH: ` and the first line of the reason.
pub fn replay_record(text: &str, path: &str, files: &dyn Files) -> Line {
    match Session::from_record(text, path, files) {
        Ok(mut s) => {
            let n = s.game().plies();
            let result = s.result().unwrap_or_else(|| "*".into());
            Line::ok(format!("ok   {path}: {n} moves, {result}"))
        }
        Err(e) => {
            let msg = e.to_string();
            let first = msg.lines().next().unwrap_or_default();
            let first = first.strip_prefix(&format!("{path}: ")).unwrap_or(first);
            Line::fail(format!("FAIL {path}: {first}"))
        }
    }
}

/// Loads a rules file and resolves every game and variant in it: `ok   PATH: TITLE` (with the
/// number of variants and of warnings when there are any), or `FAIL PATH: N error(s), the
/// first at LINE:COL: MESSAGE`.
pub fn check_rules(path: &str, bytes: &[u8], loader: &dyn Loader) -> Line {
    let loaded = crate::load(path, bytes, loader);
    let mut diags = loaded.diags.clone();
    for game in &loaded.games {
        diags.extend(crate::resolve_game(game).1);
    }
    crate::tidy(&loaded.map, &mut diags);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    if let Some(first) = errors.first() {
        let site = loaded.map.use_site(first.primary.span);
        let (line, col) = loaded.map.line_col(site);
        let file = &loaded.map.file(site.file).name;
        let at = if file == path {
            format!("{line}:{col}")
        } else {
            format!("{file}:{line}:{col}")
        };
        let msg = crate::repl::printable(&first.message).into_owned();
        return Line::fail(format!(
            "FAIL {path}: {} error(s), the first at {at}: {msg}",
            errors.len()
        ));
    }
    let warnings = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let title = loaded
        .games
        .first()
        .map_or("", |g| g.title.as_str())
        .to_string();
    let mut text = format!("ok   {path}: {}", crate::repl::printable(&title));
    if loaded.games.len() > 1 {
        text += &format!(", {} games and variants", loaded.games.len());
    }
    if warnings > 0 {
        text += &format!(", {warnings} warning(s)");
    }
    Line::ok(text)
}

/// The last line of a corpus check: `N records: A ok, B failed` (`what` is `records` or
/// `files`).
pub fn totals(what: &str, n: usize, failed: usize) -> String {
    format!("{n} {what}: {} ok, {failed} failed", n - failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoFiles;
    impl Loader for NoFiles {
        fn load(&self, _path: &str) -> Option<Vec<u8>> {
            None
        }
    }

    #[test]
    fn a_good_and_a_broken_rules_file() {
        let (_, good) = crate::shipped::GAMES
            .iter()
            .find(|(n, _)| *n == "tic-tac-toe.zrf")
            .expect("shipped");
        let line = check_rules("ttt.zrf", good.as_bytes(), &NoFiles);
        assert!(line.ok, "{}", line.text);
        assert_eq!(line.text, "ok   ttt.zrf: Tic-Tac-Toe, 3 games and variants");
        let bad = "(game (title \"x\")\n (players A B) (turn-order A B)\n (board (grid (dimensions \"a_c\" \"1_3\") (directions (n 0 -1))))\n (piece (name P) (moves ((step nw) add))))";
        let line = check_rules("bad.zrf", bad.as_bytes(), &NoFiles);
        assert!(!line.ok);
        assert_eq!(
            line.text,
            "FAIL bad.zrf: 4 error(s), the first at 3:9: a grid needs one to 8 dimensions"
        );
        assert_eq!(totals("files", 2, 1), "2 files: 1 ok, 1 failed");
    }

    #[test]
    fn kinds_of_file_by_name() {
        assert!(is_record("a/b.PGN") && is_checked_record("x.zsg") && !is_checked_record("x.pgn"));
        assert!(is_rules("Chess.ZRF") && !is_rules("chess.zrf.txt"));
    }
}
