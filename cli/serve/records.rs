//! What a record sent to `load` may read: the record itself is the request's text, and the
//! only files its tags can name are rules files (`.zrf`) in the served file's folder, by bare
//! name, and the files the served rules read (their includes). Every other name gets the
//! same answer whether or not it exists, so a record cannot learn what is on disk.

use std::path::{Component, Path, PathBuf};

use zrf::repl::records::Format;
use zrf::repl::Files;

use crate::fsio;

/// The number of moves (or, for a Zillions saved game, move lines) of the game a record
/// holds; `None` when it does not read (the load then says why).
pub fn moves_in(path: &str, text: &str) -> Option<usize> {
    if zrf::records::zsg::is_zsg(text) {
        return zrf::records::zsg::Record::parse(text)
            .ok()
            .map(|r| r.lines.len());
    }
    Format::of(path)
        .game(text, None)
        .ok()
        .map(|r| r.moves.len())
}

/// The one answer for a file a record may not read or that cannot be read.
const REFUSED: &str = "not a rules file of the served folder";

pub struct RecordFiles {
    /// The served rules file's folder (absolute).
    dir: PathBuf,
    /// The served rules file and its includes (absolute).
    served: Vec<PathBuf>,
}

impl RecordFiles {
    pub fn new(dir: PathBuf, served: Vec<PathBuf>) -> RecordFiles {
        RecordFiles { dir, served }
    }

    /// The file `path` names, when a record may read it.
    fn allowed(&self, path: &str) -> Option<PathBuf> {
        let p = Path::new(path);
        if self.served.iter().any(|s| s == p) {
            return Some(p.to_path_buf());
        }
        // A bare name is looked for in the served folder, whatever the current folder.
        let name = match (p.parent(), p.file_name()) {
            (Some(parent), Some(name)) if parent == self.dir || parent.as_os_str().is_empty() => {
                name
            }
            _ => return None,
        };
        let bare = Path::new(name);
        let single = bare.components().count() == 1
            && matches!(bare.components().next(), Some(Component::Normal(_)));
        let zrf = bare
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zrf"));
        (single && zrf).then(|| self.dir.join(bare))
    }
}

impl Files for RecordFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let p = self.allowed(path).ok_or(REFUSED)?;
        fsio::read_file(&p).map_err(|_| REFUSED.to_string())
    }

    fn write(&self, _path: &str, _contents: &str) -> Result<(), String> {
        Err("the web board writes no files".into())
    }

    fn list(&self, dir: &str) -> Vec<String> {
        // Only the served folder, and only its rules files.
        if Path::new(dir) != self.dir {
            return Vec::new();
        }
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        entries
            .flatten()
            .take(10_000)
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| {
                Path::new(n)
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("zrf"))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rules_files_of_the_folder() {
        let f = RecordFiles::new(
            PathBuf::from("/srv/games"),
            vec![PathBuf::from("/srv/lib/common.zrf")],
        );
        assert_eq!(
            f.allowed("/srv/games/chess.zrf"),
            Some(PathBuf::from("/srv/games/chess.zrf"))
        );
        assert_eq!(
            f.allowed("Chess.ZRF"),
            Some(PathBuf::from("/srv/games/Chess.ZRF"))
        );
        assert!(f.allowed("/srv/lib/common.zrf").is_some(), "an include");
        for bad in [
            "/etc/passwd",
            "/srv/games/../secret.zrf",
            "/srv/games/sub/x.zrf",
            "games/chess.zrf",
            "../x.zrf",
            "/srv/games/notes.txt",
            "/srv/games",
            "",
        ] {
            assert_eq!(f.allowed(bad), None, "{bad}");
        }
    }
}
