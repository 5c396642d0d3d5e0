//! Diagnostics as data, the one function that renders them, and "did you mean" suggestions.

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term;

use crate::source::{SourceMap, Span};
pub use crate::suggest::{edit_distance, nearest};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The file cannot be used.
    Error,
    /// The file loads, but something was ignored or looks wrong.
    Warning,
}

/// What a diagnostic is about, for programs that act on it: match the code, never the text.
///
/// Only the diagnostics a program may want to act on carry a code (unbalanced parentheses,
/// the limits that stop reading, a file without a game, diagnostics left out); the code's
/// text ([`Code::as_str`]) is stable across versions, the message may be reworded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// `missing )`: a list is not closed (placed by indentation).
    MissingClose,
    /// `extra )`: a `)` closes its list too early (placed by indentation).
    ExtraClose,
    /// `unexpected )`: a `)` with no `(` open.
    UnexpectedClose,
    /// `unclosed (`: the file ends inside a list.
    UnclosedOpen,
    /// The file holds more atoms and lists than the reader takes; reading stopped.
    FileTooLarge,
    /// The rules with includes and macros expanded pass the node budget; expansion stopped.
    RulesTooLarge,
    /// A macro's expansion passes the node budget (a macro calling itself); expansion stopped.
    ExpansionTooLarge,
    /// Lists nested deeper than the reader accepts (they are flattened).
    NestedTooDeeply,
    /// Lists nested too deeply once macros are expanded.
    ExpansionNestedTooDeeply,
    /// Includes nested deeper than allowed.
    IncludesTooDeep,
    /// The file defines no game.
    NoGame,
    /// More diagnostics were found than are kept or shown; this one counts them.
    TooManyDiagnostics,
}

impl Code {
    /// The code as stable text, as shown to programs (`Z0001` ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::MissingClose => "Z0001",
            Code::ExtraClose => "Z0002",
            Code::UnexpectedClose => "Z0003",
            Code::UnclosedOpen => "Z0004",
            Code::FileTooLarge => "Z0010",
            Code::RulesTooLarge => "Z0011",
            Code::ExpansionTooLarge => "Z0012",
            Code::NestedTooDeeply => "Z0013",
            Code::ExpansionNestedTooDeeply => "Z0014",
            Code::IncludesTooDeep => "Z0015",
            Code::NoGame => "Z0020",
            Code::TooManyDiagnostics => "Z0030",
        }
    }

    /// An error about unbalanced parentheses, which changes the meaning of everything after it.
    pub fn is_delimiter(self) -> bool {
        matches!(
            self,
            Code::MissingClose | Code::ExtraClose | Code::UnexpectedClose | Code::UnclosedOpen
        )
    }

    /// A limit that stopped reading or expansion: what follows the stop was not read.
    pub fn stopped_reading(self) -> bool {
        matches!(
            self,
            Code::FileTooLarge | Code::RulesTooLarge | Code::ExpansionTooLarge
        )
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A span with a short explanation.
#[derive(Clone, Debug)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What about it (may be empty).
    pub text: String,
}

/// One error or warning about a rules file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The headline, e.g. "unknown direction `nw`".
    pub message: String,
    /// The main place.
    pub primary: Label,
    /// Other places worth showing.
    pub secondary: Vec<Label>,
    /// Extra sentences shown after the snippet.
    pub notes: Vec<String>,
    /// A suggestion, e.g. "did you mean `nw1`?".
    pub help: Option<String>,
    /// What it is about, for the diagnostics a program may act on.
    pub code: Option<Code>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            primary: Label {
                span,
                text: String::new(),
            },
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
            code: None,
        }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    /// Sets the text under the primary caret.
    pub fn with_label(mut self, text: impl Into<String>) -> Diagnostic {
        self.primary.text = text.into();
        self
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Sets the code.
    pub fn with_code(mut self, code: Code) -> Diagnostic {
        self.code = Some(code);
        self
    }

    /// True when the diagnostic has this code.
    pub fn is(&self, code: Code) -> bool {
        self.code == Some(code)
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds "did you mean `x`?" when one of `known` is close to `name`.
    pub fn suggest<'a>(self, name: &str, known: impl IntoIterator<Item = &'a str>) -> Diagnostic {
        match nearest(name, known) {
            Some(best) => self.with_help(format!("did you mean `{best}`?")),
            None => self,
        }
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

/// How to render.
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderOptions {
    /// ANSI colours.
    pub color: bool,
}

/// Renders diagnostics as text in the style of rustc: file, line, column, the source line, a caret.
///
/// A span that came out of a macro is shown at the call the user wrote, with a note at the
/// token inside the `define`.
pub fn render(map: &SourceMap, diags: &[Diagnostic], opts: RenderOptions) -> String {
    let files = MapFiles {
        map,
        shown: map
            .files()
            .iter()
            .map(|f| (visible_source(&f.text), escape_controls(&f.name)))
            .collect(),
    };
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let mut out: Vec<u8> = Vec::new();
    let short = term::Config {
        display_style: term::DisplayStyle::Medium,
        ..config.clone()
    };
    for diag in diags {
        let cs_diag = to_codespan(map, diag);
        // A line too long to show usefully (minified or generated text) is not printed.
        let config = if cs_diag
            .labels
            .iter()
            .any(|l| line_len(map, l.file_id, l.range.start) > MAX_SHOWN_LINE)
        {
            &short
        } else {
            &config
        };
        let res = if opts.color {
            let mut w = term::termcolor::Ansi::new(&mut out);
            term::emit(&mut w, config, &files, &cs_diag)
        } else {
            let mut w = term::termcolor::NoColor::new(&mut out);
            term::emit(&mut w, config, &files, &cs_diag)
        };
        if res.is_err() {
            out.extend_from_slice(
                format!("error: {}\n", escape_controls(&diag.message)).as_bytes(),
            );
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn to_codespan(map: &SourceMap, diag: &Diagnostic) -> cs::Diagnostic<u32> {
    let severity = match diag.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let mut labels = Vec::new();
    let mut notes = Vec::new();
    let mut push = |span: Span, text: &str, primary: bool, labels: &mut Vec<cs::Label<u32>>| {
        let site = map.use_site(span);
        let range = clamp(map, site);
        let label = if primary {
            cs::Label::primary(site.file.0, range)
        } else {
            cs::Label::secondary(site.file.0, range)
        };
        labels.push(label.with_message(escape_controls(text)));
        if site != span {
            // Show the token inside the macro body and name the chain of macros.
            let mut chain = Vec::new();
            let mut cur = span;
            while let Some(exp) = map.expansion(cur.exp) {
                chain.push(exp.name.clone());
                cur = exp.call;
                if chain.len() > 64 {
                    break;
                }
            }
            let inner = Span {
                exp: Default::default(),
                ..span
            };
            labels.push(
                cs::Label::secondary(inner.file.0, clamp(map, inner)).with_message(
                    escape_controls(&format!("in the expansion of `{}`", chain[0])),
                ),
            );
            if chain.len() > 1 {
                chain.reverse();
                if chain.len() > 8 {
                    let tail = chain.split_off(chain.len() - 3);
                    chain.truncate(4);
                    chain.push("...".into());
                    chain.extend(tail);
                }
                notes.push(format!("expanded through {}", quote_chain(&chain)));
            }
        }
    };
    push(diag.primary.span, &diag.primary.text, true, &mut labels);
    for label in &diag.secondary {
        push(label.span, &label.text, false, &mut labels);
    }
    notes.extend(diag.notes.iter().cloned());
    if let Some(help) = &diag.help {
        notes.push(format!("help: {help}"));
    }
    let notes = notes.iter().map(|n| escape_controls(n)).collect();
    cs::Diagnostic::new(severity)
        .with_message(escape_controls(&diag.message))
        .with_labels(labels)
        .with_notes(notes)
}

/// Lines longer than this are not shown under a diagnostic.
const MAX_SHOWN_LINE: usize = 400;

fn line_len(map: &SourceMap, file: u32, offset: usize) -> usize {
    let Some(f) = map.files().get(file as usize) else {
        return 0;
    };
    let starts = f.line_starts();
    let i = match starts.binary_search(&offset) {
        Ok(i) => i,
        Err(i) => i.saturating_sub(1),
    };
    let end = starts.get(i + 1).copied().unwrap_or(f.text.len());
    end - starts.get(i).copied().unwrap_or(0)
}

fn quote_chain(chain: &[String]) -> String {
    chain
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(" -> ")
}

fn clamp(map: &SourceMap, span: Span) -> std::ops::Range<usize> {
    let text = &map.file(span.file).text;
    let mut lo = (span.lo as usize).min(text.len());
    let mut hi = (span.hi as usize).clamp(lo, text.len());
    while !text.is_char_boundary(lo) {
        lo -= 1;
    }
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    lo..hi
}

/// `text` with every control character but tab and line ends written as an escape
/// (`\u{1b}`), so that a message quoting a file's text cannot drive the terminal.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && !matches!(c, '\n' | '\t' | '\r') {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// A source text as diagnostics show it: control characters but tab and line ends replaced by
/// a visible character of the same length in bytes (`?` or `¿`), so spans still fit; `None`
/// when there is none.
fn visible_source(text: &str) -> Option<String> {
    let bad = |c: char| c.is_control() && !matches!(c, '\n' | '\t' | '\r');
    if !text.chars().any(bad) {
        return None;
    }
    Some(
        text.chars()
            .map(|c| match c {
                c if bad(c) && c.len_utf8() == 1 => '?',
                c if bad(c) => '¿',
                c => c,
            })
            .collect(),
    )
}

/// The files of a [`SourceMap`] as codespan sees them: texts and names made safe to print.
struct MapFiles<'a> {
    map: &'a SourceMap,
    /// Per file: the text with control characters made visible (when it has any), the name.
    shown: Vec<(Option<String>, String)>,
}

impl<'a> Files<'a> for MapFiles<'a> {
    type FileId = u32;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: u32) -> Result<&'a str, FilesError> {
        self.shown
            .get(id as usize)
            .map(|(_, name)| name.as_str())
            .ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: u32) -> Result<&'a str, FilesError> {
        let file = self
            .map
            .files()
            .get(id as usize)
            .ok_or(FilesError::FileMissing)?;
        Ok(match self.shown.get(id as usize) {
            Some((Some(text), _)) => text.as_str(),
            _ => file.text.as_str(),
        })
    }

    fn line_index(&'a self, id: u32, byte_index: usize) -> Result<usize, FilesError> {
        let file = self
            .map
            .files()
            .get(id as usize)
            .ok_or(FilesError::FileMissing)?;
        Ok(match file.line_starts().binary_search(&byte_index) {
            Ok(i) => i,
            Err(i) => i - 1,
        })
    }

    fn line_range(
        &'a self,
        id: u32,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, FilesError> {
        let file = self
            .map
            .files()
            .get(id as usize)
            .ok_or(FilesError::FileMissing)?;
        let starts = file.line_starts();
        let start = *starts.get(line_index).ok_or(FilesError::LineTooLarge {
            given: line_index,
            max: starts.len() - 1,
        })?;
        let end = starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(file.text.len());
        Ok(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_shows_file_line_and_caret() {
        let mut map = SourceMap::new();
        let f = map.add("g.zrf", "(game\n  (players A B)\n  (bord))\n");
        let d = Diagnostic::error(Span::new(f, 25, 29), "unknown form `bord`")
            .with_label("not a game form")
            .with_help("did you mean `board`?");
        let text = render(&map, &[d], RenderOptions::default());
        assert!(text.contains("g.zrf:3:4"), "{text}");
        assert!(text.contains("(bord))"), "{text}");
        assert!(text.contains("^^^^ not a game form"), "{text}");
        assert!(text.contains("did you mean `board`?"), "{text}");
    }

    #[test]
    fn codes_are_distinct_and_found_by_code() {
        let all = [
            Code::MissingClose,
            Code::ExtraClose,
            Code::UnexpectedClose,
            Code::UnclosedOpen,
            Code::FileTooLarge,
            Code::RulesTooLarge,
            Code::ExpansionTooLarge,
            Code::NestedTooDeeply,
            Code::ExpansionNestedTooDeeply,
            Code::IncludesTooDeep,
            Code::NoGame,
            Code::TooManyDiagnostics,
        ];
        let texts: std::collections::HashSet<&str> = all.iter().map(|c| c.as_str()).collect();
        assert_eq!(texts.len(), all.len());
        assert_eq!(Code::MissingClose.to_string(), "Z0001");
        let loaded = crate::load("m.zrf", b"(define x 1)", &crate::expand::NoFiles);
        let codes: Vec<_> = loaded.diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Some(Code::NoGame)]);
        let (_, diags) =
            crate::check_source("p.zrf", b"(game (title \"t\")\n", &crate::expand::NoFiles);
        assert!(diags[0].is(Code::UnclosedOpen), "{diags:?}");
        let (_, diags) = crate::check_source("u.zrf", b")", &crate::expand::NoFiles);
        assert!(diags[0].is(Code::UnexpectedClose), "{diags:?}");
    }
}
