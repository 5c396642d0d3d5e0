//! Files for the library: the file system, plus rules texts given to `zrf.load` as text and the
//! shipped games by name.

use std::collections::HashMap;

use zrf::expand::ReadError;
use zrf::repl::Files;

/// The largest file read (rules, includes, records), in bytes.
pub const MAX_FILE: u64 = 64 << 20;

/// Reads the file system; `texts` answer for names that are not files (rules given as text).
#[derive(Clone, Debug, Default)]
pub struct PyFiles {
    /// Name to contents, looked at before the file system.
    pub texts: HashMap<String, Vec<u8>>,
}

impl PyFiles {
    /// Files that also know one text under `name`.
    pub fn with_text(name: &str, text: &[u8]) -> PyFiles {
        let mut texts = HashMap::new();
        texts.insert(name.to_string(), text.to_vec());
        PyFiles { texts }
    }
}

/// Reads a file, refusing directories and files over [`MAX_FILE`].
pub fn read_file(path: &str) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(ReadError::Unreadable("it is a directory".into()));
    }
    if meta.len() > MAX_FILE {
        return Err(ReadError::Unreadable(format!(
            "it is too large ({} bytes; the limit is {MAX_FILE})",
            meta.len()
        )));
    }
    std::fs::read(path).map_err(|e| ReadError::Unreadable(e.to_string()))
}

impl Files for PyFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.read_if_exists(path).map_err(|e| e.to_string())
    }

    fn write(&self, path: &str, _contents: &str) -> Result<(), String> {
        Err(format!("{path}: the Python package writes no files"))
    }

    fn read_if_exists(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        if let Some(t) = self.texts.get(path) {
            return Ok(t.clone());
        }
        match read_file(path) {
            // A record names a shipped game by its file name (`chess.zrf`).
            Err(ReadError::Missing) => {
                let name = std::path::Path::new(path)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                zrf::shipped::GAMES
                    .iter()
                    .find(|(file, _)| *file == name)
                    .map(|(_, text)| text.as_bytes().to_vec())
                    .ok_or(ReadError::Missing)
            }
            other => other,
        }
    }
}

/// The shipped rules file a name means: `chess`, `chess.zrf`, `Tic-Tac-Toe`.
pub fn shipped(name: &str) -> Option<(&'static str, &'static str)> {
    let want = name.trim().to_ascii_lowercase();
    let want = want.strip_suffix(".zrf").unwrap_or(&want).to_string();
    zrf::shipped::GAMES
        .iter()
        .find(|(file, _)| file.strip_suffix(".zrf") == Some(want.as_str()))
        .copied()
}

impl zrf::expand::Loader for PyFiles {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        self.read_if_exists(path).ok()
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        self.read_if_exists(path)
    }
}
