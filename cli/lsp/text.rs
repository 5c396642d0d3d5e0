//! Text positions as LSP counts them (lines, UTF-16 code units), file URIs and paths.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{Position, Uri};

/// Where each line of a text starts.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes a text's lines.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The LSP position of a byte offset.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        position_in(&self.starts, text, offset)
    }

    /// The byte offset of an LSP position (clamped to the text).
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(text.len(), |&e| e.saturating_sub(1));
        let line = text.get(start..end).unwrap_or("");
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units >= pos.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        end
    }
}

/// The LSP position of a byte offset, given the text's line starts.
pub fn position_in(starts: &[usize], text: &str, offset: usize) -> Position {
    let offset = offset.min(text.len());
    let line = starts.partition_point(|&s| s <= offset).saturating_sub(1);
    let start = starts.get(line).copied().unwrap_or(0);
    let character = text
        .get(start..offset)
        .map_or(0, |s| s.chars().map(char::len_utf16).sum::<usize>());
    Position::new(line as u32, character as u32)
}

/// The path of a `file:` URI.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///c:/x` on Windows; `file://host/x` is not a local file.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(rest.get(i + 1..i + 3).unwrap_or(""), 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let path = String::from_utf8(out).ok()?;
    if cfg!(windows) {
        return Some(PathBuf::from(path.trim_start_matches('/')));
    }
    Some(PathBuf::from(path))
}

/// The `file:` URI of a path (made absolute against the current folder).
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    let text = abs.to_str()?.replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

/// A file of the embedded standard library, written once to a folder of its own so an
/// editor can open it (go to definition of a library macro).
pub fn stdlib_path(name: &str) -> Option<PathBuf> {
    let text = zrf::stdlib::file(name)?;
    let dir = std::env::temp_dir().join(format!("zrf-stdlib-{}", env!("CARGO_PKG_VERSION")));
    let path = dir.join(name);
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
        std::fs::create_dir_all(&dir).ok()?;
        crate::fsio::write_atomic(&path, text.as_bytes(), crate::fsio::Existing::Replace).ok()?;
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_round_trip() {
        let text = "ab\n\u{1F600}c\nd";
        let ix = LineIndex::new(text);
        let at = text.find('c').unwrap_or(0);
        let p = ix.position(text, at);
        assert_eq!((p.line, p.character), (1, 2));
        assert_eq!(ix.offset(text, p), at);
    }

    #[test]
    fn uris_and_paths() {
        let p = PathBuf::from("/tmp/a b/c.zrf");
        let uri = path_to_uri(&p).expect("a uri");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/c.zrf");
        assert_eq!(uri_to_path(&uri), Some(p));
    }
}
