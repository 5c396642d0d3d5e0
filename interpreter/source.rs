//! Source files, byte spans and the record of macro expansions that spans point into.

use std::fmt;

/// Identifies one file in a [`SourceMap`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Debug)]
pub struct FileId(pub u32);

/// Identifies one macro expansion in a [`SourceMap`]; `ExpId(0)` means "not from a macro".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct ExpId(pub u32);

impl ExpId {
    /// The id of text that came from no macro.
    pub const NONE: ExpId = ExpId(0);
}

/// A byte range in one file, plus the macro expansion (if any) that produced the node.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the bytes are in.
    pub file: FileId,
    /// First byte.
    pub lo: u32,
    /// One past the last byte.
    pub hi: u32,
    /// The expansion that copied this node out of a macro body, or `ExpId::NONE`.
    pub exp: ExpId,
}

impl Span {
    /// A span of `lo..hi` in `file`, not from a macro.
    pub fn new(file: FileId, lo: usize, hi: usize) -> Span {
        Span {
            file,
            lo: lo as u32,
            hi: hi as u32,
            exp: ExpId::NONE,
        }
    }

    /// The smallest span covering both (same file and expansion assumed).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file || self.exp != other.exp {
            return self;
        }
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
            ..self
        }
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}:{}-{}", self.file.0, self.lo, self.hi)?;
        if self.exp != ExpId::NONE {
            write!(f, "!{}", self.exp.0)?;
        }
        Ok(())
    }
}

/// One loaded file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (a path as the user gave it, or `<stdlib>/x.zrf`).
    pub name: String,
    /// The decoded text.
    pub text: String,
    line_starts: Vec<usize>,
    /// For an included file, the `(include ...)` form that read it (in the including file).
    pub included_from: Option<Span>,
}

impl SourceFile {
    /// Byte offsets where each line starts.
    pub fn line_starts(&self) -> &[usize] {
        &self.line_starts
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// One macro call that was expanded: where it was called and which `define` it used.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// The macro's name.
    pub name: String,
    /// The call, `(name args…)`.
    pub call: Span,
    /// The `(define name …)` form.
    pub define: Span,
}

/// Every file read while loading a game, and every macro expansion made.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    expansions: Vec<Expansion>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file whose text is already decoded.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        self.files.push(SourceFile {
            name: name.into(),
            text,
            line_starts,
            included_from: None,
        });
        FileId(self.files.len() as u32 - 1)
    }

    /// Adds a file from raw bytes: UTF-8 when valid, otherwise Latin-1.
    pub fn add_bytes(&mut self, name: impl Into<String>, bytes: &[u8]) -> FileId {
        self.add(name, decode(bytes))
    }

    /// Records the `(include ...)` form that read a file.
    pub fn set_included_from(&mut self, file: FileId, form: Span) {
        if let Some(f) = self.files.get_mut(file.0 as usize) {
            f.included_from = Some(form);
        }
    }

    /// The file behind an id.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// All files, in the order they were added.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let text = &self.file(span.file).text;
        text.get(span.lo as usize..span.hi as usize).unwrap_or("")
    }

    /// Records an expansion and returns its id.
    pub fn add_expansion(&mut self, exp: Expansion) -> ExpId {
        self.expansions.push(exp);
        ExpId(self.expansions.len() as u32)
    }

    /// The expansion behind an id (`None` for `ExpId::NONE`).
    pub fn expansion(&self, id: ExpId) -> Option<&Expansion> {
        (id.0 as usize)
            .checked_sub(1)
            .and_then(|i| self.expansions.get(i))
    }

    /// Follows a span out of nested macro expansions to the call written in user text.
    pub fn use_site(&self, mut span: Span) -> Span {
        let mut guard = 0;
        while let Some(exp) = self.expansion(span.exp) {
            span = exp.call;
            guard += 1;
            if guard > 10_000 {
                break;
            }
        }
        span
    }

    /// 1-based line and column of the start of a span.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        self.file(span.file).line_col(span.lo as usize)
    }
}

/// Decodes bytes as UTF-8 when valid, otherwise as Latin-1 (every byte is one character).
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        // Latin-1, except for a leading UTF-8 byte-order mark, which stays one mark.
        Err(_) => match bytes.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) => std::iter::once('\u{feff}')
                .chain(rest.iter().map(|&b| b as char))
                .collect(),
            None => bytes.iter().map(|&b| b as char).collect(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_fallback_keeps_every_byte() {
        assert_eq!(decode(b"caf\xe9"), "café");
        assert_eq!(decode("café".as_bytes()), "café");
        assert_eq!(decode(b"\xef\xbb\xbfcaf\xe9"), "\u{feff}café");
    }

    #[test]
    fn line_col_counts_crlf_lines() {
        let mut map = SourceMap::new();
        let id = map.add("t", "ab\r\ncd\nef");
        assert_eq!(map.file(id).line_col(0), (1, 1));
        assert_eq!(map.file(id).line_col(5), (2, 2));
        assert_eq!(map.file(id).line_col(7), (3, 1));
    }
}
