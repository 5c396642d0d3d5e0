//! `zrf fmt`: one canonical layout for rules files, computed from the reader's tokens.
//!
//! Only the white space between tokens changes, so the reader sees the same tree before and
//! after. The layout:
//! - a list that fits in [`WIDTH`] columns, holds no comment, no blank line and no multi-line
//!   string, and is not one of the big forms (`game`, `variant`, `board`, `grid`, `piece`,
//!   `board-setup`), is written on one line;
//! - otherwise, a list whose items are atoms or lists of atoms is filled, as many items a
//!   line as fit, continuation lines indented by [`INDENT`];
//! - otherwise it is written one item a line, indented by [`INDENT`] under its `(`, the head
//!   and (when an atom, or the condition of `if`, `while`, `verify`) the first argument on the
//!   first line, and its `)` after the last item;
//! - comments stay where they are: one after an item on its line stays after it, one on a
//!   line of its own stays on a line of its own; one blank line is kept where the author left
//!   one or more between items.
//!
//! Formatting is idempotent: the layout depends only on the tokens, the comments and the
//! blank lines, which formatting keeps.

use crate::syntax::{tokens, Token, TokenKind};

/// The widest line the formatter writes where it has a choice.
pub const WIDTH: usize = 100;
/// Indentation of each nesting level.
pub const INDENT: usize = 2;
/// Forms always written one item a line.
const BIG_FORMS: &[&str] = &["game", "variant", "board", "grid", "piece", "board-setup"];
/// Forms whose first argument, a condition, stays beside the head.
const CONDITION_FORMS: &[&str] = &["if", "while", "verify", "and", "or", "not"];

/// Why a text was not formatted: its parentheses or strings do not close.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// What is wrong.
    pub message: String,
    /// The byte where it is.
    pub offset: usize,
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Formats a rules file (or a `.tests` file: the same syntax). Text whose lists or strings do
/// not close is refused, since where they close cannot be known.
pub fn format(text: &str) -> Result<String, FormatError> {
    let toks = tokens(text);
    let root = build(text, &toks)?;
    let mut out = Out::default();
    if text.starts_with('\u{feff}') {
        out.s.push('\u{feff}');
    }
    out.entries(&root, 0, true);
    if !out.s.ends_with('\n') && !out.s.trim_start_matches('\u{feff}').is_empty() {
        out.s.push('\n');
    }
    Ok(out.s)
}

enum Item<'a> {
    Atom(&'a str),
    Comment(&'a str),
    List(List<'a>),
}

struct Entry<'a> {
    item: Item<'a>,
    /// A blank line stood before it (never set on a list's first entry).
    blank: bool,
    /// A comment on the line of the entry before it.
    trailing: bool,
}

struct List<'a> {
    entries: Vec<Entry<'a>>,
    /// The width on one line, if it may be written on one line at all.
    flat: Option<usize>,
}

fn build<'a>(text: &'a str, toks: &[Token]) -> Result<Vec<Entry<'a>>, FormatError> {
    // (entries, `(` offset, a blank line before it) of each open list; the bottom one is the
    // top level.
    let mut stack: Vec<(Vec<Entry<'a>>, usize, bool)> = vec![(Vec::new(), 0, false)];
    let mut line = 0usize;
    let mut last_line: Option<usize> = None;
    let mut scanned = 0usize;
    for t in toks {
        line += text[scanned..t.lo].matches('\n').count();

        let slice = &text[t.lo..t.hi];
        let (entries, _, _) = stack.last_mut().expect("the top level");
        let blank = !entries.is_empty() && last_line.is_some_and(|l| line > l + 1);
        let same_line = last_line == Some(line);
        let push = |entries: &mut Vec<Entry<'a>>, item| {
            let trailing = matches!(item, Item::Comment(_)) && same_line && !entries.is_empty();
            entries.push(Entry {
                item,
                blank: blank && !trailing,
                trailing,
            });
        };
        match t.kind {
            TokenKind::Open => {
                // A blank line before a list is recorded on the list when it closes.
                stack.push((Vec::new(), t.lo, blank));
            }
            TokenKind::Close => {
                if stack.len() == 1 {
                    return Err(FormatError {
                        message: "a `)` has no `(` to close; fix it before formatting".into(),
                        offset: t.lo,
                    });
                }
                let (entries, _, blank) = stack.pop().expect("an open list");
                let list = Item::List(List {
                    flat: flat_width(&entries),
                    entries,
                });
                let parent = &mut stack.last_mut().expect("a parent").0;
                parent.push(Entry {
                    item: list,
                    blank: blank && !parent.is_empty(),
                    trailing: false,
                });
            }
            TokenKind::OpenStr => {
                return Err(FormatError {
                    message: "a string has no closing quote; fix it before formatting".into(),
                    offset: t.lo,
                })
            }
            TokenKind::Comment => push(entries, Item::Comment(slice.trim_end())),
            TokenKind::Atom | TokenKind::Str => push(entries, Item::Atom(slice)),
        }
        line += slice.matches('\n').count();
        scanned = t.hi;
        last_line = Some(line);
    }
    if stack.len() > 1 {
        let open = stack.last().map_or(0, |(_, o, _)| *o);
        return Err(FormatError {
            message: "a `(` is never closed; fix it before formatting".into(),
            offset: open,
        });
    }
    Ok(stack.pop().map(|(e, _, _)| e).unwrap_or_default())
}

fn flat_width(entries: &[Entry]) -> Option<usize> {
    let mut width = 1;
    for (i, e) in entries.iter().enumerate() {
        if e.blank {
            return None;
        }
        width += usize::from(i > 0)
            + match &e.item {
                Item::Atom(a) if a.contains('\n') => return None,
                Item::Atom(a) => a.chars().count(),
                Item::Comment(_) => return None,
                Item::List(l) => l.flat?,
            };
    }
    Some(width + 1)
}

fn head<'a>(l: &List<'a>) -> Option<&'a str> {
    match l.entries.first().map(|e| &e.item) {
        Some(Item::Atom(a)) => Some(a),
        _ => None,
    }
}

/// True when every item is an atom or a list of atoms, none of them blank-separated: such a
/// list is filled line by line.
fn fillable(l: &List) -> bool {
    l.entries.iter().all(|e| {
        !e.blank
            && match &e.item {
                Item::Atom(a) => !a.contains('\n'),
                Item::Comment(_) => false,
                Item::List(inner) => {
                    inner.flat.is_some()
                        && inner
                            .entries
                            .iter()
                            .all(|x| matches!(x.item, Item::Atom(_)))
                }
            }
    })
}

#[derive(Default)]
struct Out {
    s: String,
    col: usize,
}

impl Out {
    fn text(&mut self, t: &str) {
        self.s.push_str(t);
        match t.rfind('\n') {
            Some(i) => self.col = t[i + 1..].chars().count(),
            None => self.col += t.chars().count(),
        }
    }

    fn newline(&mut self, indent: usize, blank: bool) {
        while self.s.ends_with(' ') {
            self.s.pop();
        }
        self.s.push('\n');
        if blank {
            self.s.push('\n');
        }
        self.s.extend(std::iter::repeat_n(' ', indent));
        self.col = indent;
    }

    /// Writes entries one a line at `indent` (at the top level, the first where the output
    /// stands); a trailing comment stays on its line. Returns true when a comment ends them.
    fn entries(&mut self, entries: &[Entry], indent: usize, top: bool) -> bool {
        let mut ends_in_comment = false;
        for (i, e) in entries.iter().enumerate() {
            if e.trailing {
                self.text(" ");
            } else if !(top && i == 0) {
                self.newline(indent, e.blank);
            }
            self.item(&e.item);
            ends_in_comment = matches!(e.item, Item::Comment(_));
        }
        ends_in_comment
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Atom(a) | Item::Comment(a) => self.text(a),
            Item::List(l) => self.list(l),
        }
    }

    fn flat(&mut self, l: &List) {
        self.text("(");
        for (i, e) in l.entries.iter().enumerate() {
            if i > 0 {
                self.text(" ");
            }
            self.item(&e.item);
        }
        self.text(")");
    }

    fn list(&mut self, l: &List) {
        let col = self.col;
        let big = head(l).is_some_and(|h| BIG_FORMS.contains(&h));
        if !big && l.flat.is_some_and(|w| col + w <= WIDTH) {
            return self.flat(l);
        }
        self.text("(");
        if !big && fillable(l) {
            for (i, e) in l.entries.iter().enumerate() {
                if i > 0 {
                    let w = match &e.item {
                        Item::List(inner) => inner.flat.unwrap_or(0),
                        Item::Atom(a) => a.chars().count(),
                        Item::Comment(_) => 0,
                    };
                    if self.col + 1 + w + 1 > WIDTH {
                        self.newline(col + INDENT, false);
                    } else {
                        self.text(" ");
                    }
                }
                self.item(&e.item);
            }
            self.text(")");
            return;
        }
        let Some(first) = l.entries.first() else {
            self.text(")");
            return;
        };
        self.item(&first.item);
        let mut rest = &l.entries[1..];
        if let (Item::Atom(h), Some(second)) = (&first.item, rest.first()) {
            let beside = !second.blank
                && match &second.item {
                    Item::Atom(_) => true,
                    Item::List(inner) => {
                        CONDITION_FORMS.contains(h)
                            && inner.flat.is_some_and(|w| self.col + 1 + w <= WIDTH)
                    }
                    Item::Comment(_) => false,
                };
            if beside {
                self.text(" ");
                self.item(&second.item);
                rest = &rest[1..];
            }
        }
        let comment_last = if rest.is_empty() {
            matches!(first.item, Item::Comment(_))
        } else {
            self.entries(rest, col + INDENT, false)
        };
        if comment_last {
            self.newline(col, false);
        }
        self.text(")");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(s: &str) -> String {
        let once = format(s).expect("formats");
        assert_eq!(format(&once).expect("formats again"), once, "idempotent");
        once
    }

    #[test]
    fn big_forms_break_and_small_ones_stay_flat() {
        let s = "(game (title \"T\")   (players A B)\n(piece (name P) (moves (n))))";
        assert_eq!(
            fmt(s),
            "(game\n  (title \"T\")\n  (players A B)\n  (piece\n    (name P)\n    (moves (n))))\n"
        );
    }

    #[test]
    fn comments_stay_where_they_are() {
        let s = "; top\n(define x ; why\n  (a b)\n\n  ; own line\n  c)\n";
        assert_eq!(
            fmt(s),
            "; top\n(define x ; why\n  (a b)\n\n  ; own line\n  c)\n"
        );
        let s = "(a b ; end\n)";
        assert_eq!(fmt(s), "(a b ; end\n)\n");
    }

    #[test]
    fn long_lists_of_atoms_are_filled() {
        let names: Vec<String> = (0..60).map(|i| format!("p{i}")).collect();
        let s = format!("(positions {})", names.join(" "));
        let out = fmt(&s);
        assert!(out.lines().count() > 1);
        assert!(out.lines().all(|l| l.len() <= WIDTH));
        assert_eq!(out.split_whitespace().count(), 61);
    }

    #[test]
    fn any_token_soup_formats_idempotently_or_is_refused() {
        let pieces = [
            "(", ")", "a", "\"s\"", "\"x\ny\"", "; c", "\n", "\n\n", " ", "-1", "\t",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..(seed % 40) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            if let Ok(once) = format(&text) {
                let strip = |s: &str| -> Vec<String> {
                    tokens(s)
                        .iter()
                        .map(|t| s[t.lo..t.hi].trim_end().to_string())
                        .collect()
                };
                assert_eq!(strip(&once), strip(&text), "{text:?}");
                assert_eq!(format(&once).as_deref(), Ok(once.as_str()), "{text:?}");
            }
        }
    }

    #[test]
    fn unbalanced_text_is_refused() {
        assert!(format("(a (b)").is_err());
        assert!(format("(a))").is_err());
        assert!(format("(a \"b)").is_err());
    }

    #[test]
    fn multi_line_strings_are_kept() {
        let s = "(game (description \"one\n  two\") (x))";
        assert_eq!(fmt(s), "(game\n  (description \"one\n  two\")\n  (x))\n");
    }
}
