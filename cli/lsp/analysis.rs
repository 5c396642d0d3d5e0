//! One document analysed: the rules file loaded with its includes (from the open editors,
//! else from disk), every game and variant resolved for diagnostics, the default game kept
//! for hovers, and the name index of every file read.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, Uri,
};
use zrf::def::GameDef;
use zrf::diagnostic::{Diagnostic, Severity};
use zrf::expand::{GameSource, Loader};
use zrf::names::Index;
use zrf::source::{FileId, SourceMap, Span};

use super::text::{path_to_uri, position_in, stdlib_path};

/// Includes come from the open editors first (their unsaved text), then from disk.
pub struct DocLoader<'a> {
    /// The open documents' texts by path.
    pub open: &'a HashMap<PathBuf, String>,
}

impl Loader for DocLoader<'_> {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        self.read(path).ok()
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, zrf::expand::ReadError> {
        if let Some(text) = self.open.get(Path::new(path)) {
            return Ok(text.clone().into_bytes());
        }
        Ok(crate::fsio::read_file(Path::new(path))?)
    }
}

/// A load's diagnostics for the editor: the document's own, and those to show in the files
/// it includes.
#[derive(Default)]
pub struct Published {
    /// For the document.
    pub own: Vec<lsp_types::Diagnostic>,
    /// For other files, by their URI.
    pub elsewhere: Vec<(Uri, lsp_types::Diagnostic)>,
}

/// What is known about one open rules file.
pub struct Analysis {
    /// Every file read, the document first.
    pub map: SourceMap,
    /// The document.
    pub root: FileId,
    /// Its games and variants, expanded.
    pub games: Vec<GameSource>,
    /// The default game, resolved (when it resolves).
    pub def: Option<GameDef>,
    /// Every diagnostic of every stage.
    pub diags: Vec<Diagnostic>,
    /// The names and their places.
    pub index: Index,
    /// `zrf check`'s summary of the default game, computed on first use.
    pub summary: OnceCell<String>,
}

/// Loads and resolves a rules file; `is_tests` reads a `.tests` file only for its syntax.
pub fn analyse(path: &str, text: &str, loader: &dyn Loader, is_tests: bool) -> Analysis {
    if is_tests {
        let mut map = SourceMap::new();
        let root = map.add(path, text);
        let (_, diags) = zrf::syntax::parse_file(root, text);
        return Analysis {
            map,
            root,
            games: Vec::new(),
            def: None,
            diags,
            index: Index::default(),
            summary: OnceCell::new(),
        };
    }
    let mut a = zrf::names::analyse(path, text.as_bytes(), loader);
    if a.games.is_empty() {
        // A file of macros is an include: its mistakes show through the games that include
        // it, and its lack of a game is no mistake while it is edited.
        a.diags
            .retain(|d| d.message != "the file defines no game" || d.primary.span.hi != 0);
    }
    Analysis {
        map: a.map,
        root: a.root,
        games: a.games,
        def: a.def,
        diags: a.diags,
        index: a.index,
        summary: OnceCell::new(),
    }
}

impl Analysis {
    /// The location of a span, in the file it is in (the standard library's files are
    /// written to a folder of their own, so an editor can open them).
    pub fn location(&self, span: Span) -> Option<Location> {
        let file = self.map.file(span.file);
        let path = match file.name.strip_prefix("<stdlib>/") {
            Some(name) => stdlib_path(name)?,
            None => PathBuf::from(&file.name),
        };
        Some(Location {
            uri: path_to_uri(&path)?,
            range: self.range(span),
        })
    }

    /// The range of a span in its own file.
    pub fn range(&self, span: Span) -> Range {
        let file = self.map.file(span.file);
        let (starts, text) = (file.line_starts(), &file.text);
        Range {
            start: position_in(starts, text, span.lo as usize),
            end: position_in(starts, text, span.hi as usize),
        }
    }

    /// The diagnostics of the load for the editor. One in the document is shown where it is;
    /// one in an included file is shown in that file at its place (with the `include` form
    /// that read the file as related information), and briefly at the document's `include`
    /// form that leads to it. A macro's definition and the use that expanded it are related
    /// information; notes and help follow the message.
    pub fn lsp_diagnostics(&self) -> Published {
        let mut out = Published::default();
        for d in &self.diags {
            let site = self.map.use_site(d.primary.span);
            let full = self.lsp_diagnostic(d, site);
            if site.file == self.root {
                out.own.push(full);
                continue;
            }
            let mut short = lsp_types::Diagnostic {
                range: Range::default(),
                message: format!("in {}: {}", self.place(site), d.message),
                related_information: self.location(site).map(|location| {
                    vec![DiagnosticRelatedInformation {
                        location,
                        message: d.message.clone(),
                    }]
                }),
                ..full.clone()
            };
            if let Some(include) = self.include_in_root(site.file) {
                short.range = self.range(include);
            }
            out.own.push(short);
            let file = self.map.file(site.file);
            if file.name.starts_with("<stdlib>/") {
                continue;
            }
            let Some(uri) = path_to_uri(Path::new(&file.name)) else {
                continue;
            };
            let mut there = full;
            if let Some(include) = file.included_from.map(|s| self.map.use_site(s)) {
                if let Some(location) = self.location(include) {
                    let by = self.map.file(include.file).name.clone();
                    let related = there.related_information.get_or_insert_with(Vec::new);
                    related.insert(
                        0,
                        DiagnosticRelatedInformation {
                            location,
                            message: format!("included here, by {by}"),
                        },
                    );
                }
            }
            out.elsewhere.push((uri, there));
        }
        out
    }

    /// `file:line:column` of a span's start.
    fn place(&self, span: Span) -> String {
        let (l, c) = self.map.line_col(span);
        let name = &self.map.file(span.file).name;
        let short = Path::new(name)
            .file_name()
            .map_or(name.clone(), |n| n.to_string_lossy().into_owned());
        format!("{short}:{l}:{c}")
    }

    /// The document's `include` form through which a file was read (directly or through
    /// other includes).
    fn include_in_root(&self, mut file: FileId) -> Option<Span> {
        for _ in 0..self.map.files().len() {
            let site = self.map.use_site(self.map.file(file).included_from?);
            if site.file == self.root {
                return Some(site);
            }
            file = site.file;
        }
        None
    }

    fn lsp_diagnostic(&self, d: &Diagnostic, site: Span) -> lsp_types::Diagnostic {
        let mut message = d.message.clone();
        let range = self.range(site);
        if !d.primary.text.is_empty() {
            message = format!("{message}: {}", d.primary.text);
        }
        for n in &d.notes {
            message.push_str(&format!("\nnote: {n}"));
        }
        if let Some(h) = &d.help {
            message.push_str(&format!("\nhelp: {h}"));
        }
        let mut related = Vec::new();
        let mut relate = |span: Span, what: String| {
            if let Some(location) = self.location(span) {
                related.push(DiagnosticRelatedInformation {
                    location,
                    message: what,
                });
            }
        };
        if site != d.primary.span {
            relate(d.primary.span, "here, in the macro's text".into());
        }
        let mut exp = d.primary.span.exp;
        let mut guard = 0;
        while let Some(e) = self.map.expansion(exp) {
            relate(e.define, format!("the definition of `{}`", e.name));
            relate(e.call, format!("the use of `{}` that expanded it", e.name));
            exp = e.call.exp;
            guard += 1;
            if guard > 8 {
                break;
            }
        }
        for l in &d.secondary {
            relate(self.map.use_site(l.span), l.text.clone());
        }
        lsp_types::Diagnostic {
            range,
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: None::<NumberOrString>,
            source: Some("zrf".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..Default::default()
        }
    }
}
