//! The S-expression tree that the reader produces and the expander rewrites.

use std::fmt;
use std::rc::Rc;

use crate::source::Span;

/// One node of a rules file: an atom, a string, an integer or a list.
#[derive(Clone, PartialEq)]
pub struct Sexp {
    /// What it is.
    pub kind: SexpKind,
    /// Where it came from.
    pub span: Span,
}

/// The four kinds of node.
#[derive(Clone, PartialEq)]
pub enum SexpKind {
    /// A symbol such as `n`, `add`, `a1`, `3d-board`, `$1`, `?Dice`.
    Sym(Rc<str>),
    /// A string between double quotes, without the quotes.
    Str(Rc<str>),
    /// A signed integer.
    Int(i64),
    /// A parenthesised list.
    List(Vec<Sexp>),
}

impl Sexp {
    /// The symbol's text, if this is a symbol.
    pub fn sym(&self) -> Option<&str> {
        match &self.kind {
            SexpKind::Sym(s) => Some(s),
            _ => None,
        }
    }

    /// The list's items, if this is a list.
    pub fn list(&self) -> Option<&[Sexp]> {
        match &self.kind {
            SexpKind::List(items) => Some(items),
            _ => None,
        }
    }

    /// The head symbol of a list, if it starts with one.
    pub fn head(&self) -> Option<&str> {
        self.list().and_then(|l| l.first()).and_then(Sexp::sym)
    }

    /// An atom's text: a symbol, a string's contents or an integer's decimal form.
    pub fn atom_text(&self) -> Option<String> {
        match &self.kind {
            SexpKind::Sym(s) | SexpKind::Str(s) => Some(s.to_string()),
            SexpKind::Int(n) => Some(n.to_string()),
            SexpKind::List(_) => None,
        }
    }

    /// A short description for "expected …, found …" messages.
    pub fn describe(&self) -> String {
        match &self.kind {
            SexpKind::Sym(s) => format!("`{s}`"),
            SexpKind::Str(_) => "a string".into(),
            SexpKind::Int(n) => format!("the number {n}"),
            SexpKind::List(items) => match items.first().and_then(Sexp::sym) {
                Some(h) => format!("a `({h} ...)` form"),
                None => "a list".into(),
            },
        }
    }

    /// Makes an atom from text, reading it as an integer when it is one.
    pub fn atom(text: &str, span: Span) -> Sexp {
        let kind = match parse_int(text) {
            Some(n) => SexpKind::Int(n),
            None => SexpKind::Sym(text.into()),
        };
        Sexp { kind, span }
    }
}

/// Reads `-12` or `7` as an integer. Text that would not print back the same (`007`, `+3`,
/// `-0`) stays a symbol, so position names such as `00` keep their spelling when pasted.
pub fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

/// Prints the tree back as rules-file text (strings keep their quotes; spans are not shown).
impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SexpKind::Sym(s) => f.write_str(s),
            SexpKind::Str(s) => write!(f, "\"{s}\""),
            SexpKind::Int(n) => write!(f, "{n}"),
            SexpKind::List(items) => {
                f.write_str("(")?;
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{it}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Debug for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}{:?}", self.span)
    }
}
