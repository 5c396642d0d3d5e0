//! The reader: nom combinators for tokens, and a loop with an explicit stack for nesting.
//!
//! The loop (rather than recursive descent) means that no input, however deeply nested,
//! can overflow the stack; nesting beyond [`MAX_DEPTH`] is reported and flattened, so every
//! later stage may recurse over the tree safely.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_till1, take_while};
use nom::character::complete::char;
use nom::combinator::{map, opt, recognize};
use nom::sequence::{pair, preceded};
use nom::{IResult, Parser};

use super::sexp::{Sexp, SexpKind};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::{FileId, Span};

/// True for an error about unbalanced parentheses, which explains most errors after it and
/// so is shown first.
pub fn is_delimiter_error(d: &Diagnostic) -> bool {
    d.is_error() && d.code.is_some_and(Code::is_delimiter)
}

/// The deepest list nesting the reader accepts.
pub const MAX_DEPTH: usize = 200;

/// The most atoms and lists the reader takes from one file; it stops there with an error.
/// The expander accepts at least twice as many in all (`expand::MAX_EXPANDED_NODES`, more for
/// big files), and stopping bounds the memory a huge file takes (about 40 bytes a node).
pub const MAX_NODES: usize = 2_000_000;

pub(super) enum Token<'a> {
    Open,
    Close,
    Str(&'a str),
    /// A string with no closing quote: runs to the end of the file.
    OpenStr(&'a str),
    Atom(&'a str),
}

fn is_delim(c: char) -> bool {
    c.is_whitespace() || c.is_control() || matches!(c, '(' | ')' | '"' | ';')
}

/// Skips white space (any control character counts) and `;` comments.
fn trivia(input: &str) -> IResult<&str, ()> {
    let mut rest = input;
    loop {
        let (r, _) = take_while(|c: char| c.is_whitespace() || c.is_control())(rest)?;
        let (r, comment) = opt(recognize(pair(char(';'), take_till(|c| c == '\n')))).parse(r)?;
        rest = r;
        if comment.is_none() {
            return Ok((rest, ()));
        }
    }
}

pub(super) fn token(input: &str) -> IResult<&str, Token<'_>> {
    alt((
        map(char('('), |_| Token::Open),
        map(char(')'), |_| Token::Close),
        map(
            (char('"'), take_till(|c| c == '"'), char('"')),
            |(_, s, _)| Token::Str(s),
        ),
        map(preceded(tag("\""), nom::combinator::rest), Token::OpenStr),
        map(take_till1(is_delim), Token::Atom),
    ))
    .parse(input)
}

struct Frame {
    open: usize,
    /// The column of the `(` (in bytes from the start of its line).
    col: usize,
    /// The indentation of the line the `(` is on.
    indent: usize,
    items: Vec<Sexp>,
    /// True when this frame is deeper than `MAX_DEPTH` and is being flattened.
    flattened: bool,
    /// The first line, while this list is open, indented no deeper than the line of its `(`: where
    /// its `)` is most likely missing if the file ends with lists open.
    outdent: Option<usize>,
    /// The `(` column and the `)` offset of the last item when it is a list.
    last_list: Option<(usize, usize)>,
}

impl Frame {
    fn new(open: usize, col: usize, indent: usize, flattened: bool) -> Frame {
        Frame {
            open,
            col,
            indent,
            items: Vec::new(),
            flattened,
            outdent: None,
            last_list: None,
        }
    }
}

/// The line the reader is on, found by scanning forward only, so that placing every token of
/// a file costs time linear in its length (a file of one long line included).
#[derive(Default)]
struct Lines {
    /// Text before this has been scanned for line ends.
    scanned: usize,
    /// Where the current line starts.
    start: usize,
    /// Its indentation (spaces and tabs at its start).
    indent: usize,
}

impl Lines {
    /// Where a token stands: its column, the indentation of its line, and whether it is the
    /// first on its line. Tokens come in order of `start`.
    fn place(&mut self, text: &str, start: usize) -> (usize, usize, bool) {
        if start > self.scanned {
            if let Some(i) = text[self.scanned..start].rfind('\n') {
                self.start = self.scanned + i + 1;
                let line = &text[self.start..];
                self.indent = line.len() - line.trim_start_matches([' ', '\t']).len();
            }
            self.scanned = start;
        }
        let col = start - self.start;
        (col, self.indent.min(col), self.indent >= col)
    }
}

/// Reads a whole file into top-level forms, reporting every syntax error found.
///
/// Never panics and never fails: on errors the tree is the best reading of the text
/// (an unclosed list is closed at the end of the file, a stray `)` is dropped).
pub fn parse_file(file: FileId, text: &str) -> (Vec<Sexp>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut stack: Vec<Frame> = vec![Frame::new(0, 0, 0, false)];
    // Lists whose `)` is probably missing: (the outdented line, the list's `(`).
    let mut missing: Vec<(usize, usize)> = Vec::new();
    // The first `)` that probably closed its list too early: the next line starts deeper
    // than that list's `(`.
    let mut early_close: Option<usize> = None;
    let mut depth_reported = false;
    // One shared copy of each distinct symbol: big files repeat a few names many times.
    let mut symbols: std::collections::HashMap<&str, std::rc::Rc<str>> =
        std::collections::HashMap::new();
    let mut rest = text;
    // A UTF-8 byte-order mark, which Windows editors put before the text, is not part of it.
    if let Some(r) = text.strip_prefix('\u{feff}') {
        diags.push(
            Diagnostic::warning(
                Span::new(file, 0, text.len() - r.len()),
                "the file starts with a byte-order mark",
            )
            .with_label("ignored")
            .with_note("an editor saving in UTF-8 wrote it; the rules start after it"),
        );
        rest = r;
    }
    let offset = |rest: &str| text.len() - rest.len();
    let mut nodes = 0usize;
    let mut stopped = false;
    let mut lines = Lines::default();
    loop {
        rest = match trivia(rest) {
            Ok((r, ())) => r,
            Err(_) => rest,
        };
        if rest.is_empty() {
            break;
        }
        let start = offset(rest);
        let Ok((r, tok)) = token(rest) else {
            // Unreachable in practice: every character starts some token. Skip one char.
            let skip = rest.chars().next().map_or(1, char::len_utf8);
            rest = &rest[skip..];
            continue;
        };
        rest = r;
        let end = offset(rest);
        let span = Span::new(file, start, end);
        let depth = stack.len() - 1;
        if !matches!(tok, Token::Close) {
            nodes += 1;
            if nodes > MAX_NODES {
                diags.push(
                    Diagnostic::error(span, "the file is too large")
                        .with_code(Code::FileTooLarge)
                        .with_label(format!(
                            "reading stops here, after {MAX_NODES} atoms and lists"
                        ))
                        .with_note(format!(
                            "a rules file may hold at most {MAX_NODES} atoms and lists"
                        )),
                );
                stopped = true;
                break;
            }
        }
        let (col, indent, first_on_line) = lines.place(text, start);
        if first_on_line && !matches!(tok, Token::Close) {
            for frame in stack[1..].iter_mut() {
                if frame.outdent.is_none() && col <= frame.indent {
                    frame.outdent = Some(start);
                }
            }
            let frame = stack.last().expect("stack has a frame");
            if let Some((open_col, close)) = frame.last_list {
                if col > open_col && early_close.is_none() {
                    early_close = Some(close);
                }
            }
        }
        match tok {
            Token::Open => {
                let flattened = depth >= MAX_DEPTH;
                if flattened && !depth_reported {
                    depth_reported = true;
                    diags.push(
                        Diagnostic::error(span, "lists are nested too deeply")
                            .with_code(Code::NestedTooDeeply)
                            .with_label(format!("nesting deeper than {MAX_DEPTH} starts here")),
                    );
                }
                stack.push(Frame::new(start, col, indent, flattened));
            }
            Token::Close => {
                if stack.len() == 1 {
                    diags.push(match early_close.take() {
                        Some(early) => Diagnostic::error(
                            Span::new(file, early, early + 1),
                            "extra `)`",
                        )
                        .with_code(Code::ExtraClose)
                        .with_label("this `)` probably closes its list too early")
                        .with_secondary(span, "so this `)` has no `(` to close")
                        .with_note(
                            "the line after the first `)` is indented deeper than the list it closes",
                        ),
                        None => Diagnostic::error(span, "unexpected `)`")
                            .with_code(Code::UnexpectedClose)
                            .with_label("no `(` is open here"),
                    });
                    continue;
                }
                let frame = stack.pop().expect("stack has a frame");
                if let Some(line) = frame.outdent {
                    missing.push((line, frame.open));
                }
                let open_col = frame.col;
                close(&mut stack, frame, file, end);
                stack.last_mut().expect("a parent").last_list = Some((open_col, start));
            }
            Token::Str(s) => push(&mut stack, SexpKind::Str(s.into()), span),
            Token::OpenStr(s) => {
                diags.push(
                    Diagnostic::error(Span::new(file, start, start + 1), "unterminated string")
                        .with_label("this `\"` has no closing quote"),
                );
                push(&mut stack, SexpKind::Str(s.into()), span);
            }
            Token::Atom(a) => {
                let kind = match super::sexp::parse_int(a) {
                    Some(n) => SexpKind::Int(n),
                    None => SexpKind::Sym(std::rc::Rc::clone(
                        symbols.entry(a).or_insert_with(|| a.into()),
                    )),
                };
                push(&mut stack, kind, span);
            }
        }
    }
    // Unclosed lists: one error where a `)` is most likely missing (the first line indented no
    // deeper than the line where a list still open there starts), else at the outermost `(`.
    missing.extend(
        stack[1..]
            .iter()
            .filter_map(|f| f.outdent.map(|l| (l, f.open))),
    );
    if stack.len() > 1 && !stopped && !missing.is_empty() {
        let unclosed = stack.len() - 1;
        let (line, open) = *missing.iter().min().expect("not empty");
        diags.push(
            Diagnostic::error(Span::new(file, line, line + 1), "missing `)`")
                .with_code(Code::MissingClose)
                .with_label("a `)` is probably missing before this line")
                .with_secondary(Span::new(file, open, open + 1), "this list is not closed before the line")
                .with_note(format!(
                    "the file ends with {unclosed} list{} open, and this line is indented no deeper than the line where a list open here starts",
                    if unclosed == 1 { "" } else { "s" }
                )),
        );
    } else if stack.len() > 1 && !stopped {
        let unclosed = stack.len() - 1;
        let outer = Span::new(file, stack[1].open, stack[1].open + 1);
        let inner_open = stack[stack.len() - 1].open;
        let mut d = Diagnostic::error(outer, "unclosed `(`")
            .with_code(Code::UnclosedOpen)
            .with_label("this list is never closed")
            .with_note("the file ends before the matching `)`");
        if unclosed > 1 {
            d = d
                .with_secondary(
                    Span::new(file, inner_open, inner_open + 1),
                    "the innermost unclosed list",
                )
                .with_note(format!("{unclosed} lists are open at the end of the file"));
        }
        diags.push(d);
    }
    // After a stop, the form being read is incomplete: it is dropped rather than closed (it
    // would only bring errors about its missing end).
    stack.truncate(if stopped { 1 } else { stack.len() });
    while stack.len() > 1 {
        let frame = stack.pop().expect("stack has a frame");
        close(&mut stack, frame, file, text.len());
    }
    let top = stack.pop().expect("the top frame").items;
    (top, diags)
}

fn push(stack: &mut [Frame], kind: SexpKind, span: Span) {
    let frame = stack.last_mut().expect("stack has a frame");
    frame.last_list = None;
    frame.items.push(Sexp { kind, span });
}

fn close(stack: &mut [Frame], mut frame: Frame, file: FileId, end: usize) {
    let parent = stack.last_mut().expect("stack has a parent frame");
    if frame.flattened {
        parent.items.extend(frame.items);
    } else {
        // The tree lives as long as the file is loaded: no room to grow is kept.
        frame.items.shrink_to_fit();
        parent.items.push(Sexp {
            kind: SexpKind::List(frame.items),
            span: Span::new(file, frame.open, end),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (String, usize) {
        let (forms, diags) = parse_file(FileId(0), text);
        let printed: Vec<String> = forms.iter().map(|f| f.to_string()).collect();
        (printed.join(" "), diags.len())
    }

    #[test]
    fn reads_atoms_strings_ints_and_comments() {
        let src = "(game ; a comment\r\n (title \"Tic\ntac\") (n 0 -1) 3d-board ?Dice $1 line-$1)";
        assert_eq!(
            read(src),
            (
                "(game (title \"Tic\ntac\") (n 0 -1) 3d-board ?Dice $1 line-$1)".into(),
                0
            )
        );
        let (forms, _) = parse_file(FileId(0), "(-1 2 3d - 00)");
        let items = forms[0].list().unwrap();
        assert!(matches!(items[0].kind, SexpKind::Int(-1)));
        assert!(matches!(items[1].kind, SexpKind::Int(2)));
        assert_eq!(items[2].sym(), Some("3d"));
        assert_eq!(items[3].sym(), Some("-"));
        assert_eq!(items[4].sym(), Some("00"));
    }

    #[test]
    fn backslashes_are_literal_in_strings() {
        assert_eq!(read(r#"(image "a\b.bmp")"#).0, r#"(image "a\b.bmp")"#);
    }

    #[test]
    fn spans_cover_the_text() {
        let (forms, _) = parse_file(FileId(0), "  (a (bc))");
        assert_eq!((forms[0].span.lo, forms[0].span.hi), (2, 10));
        let inner = &forms[0].list().unwrap()[1];
        assert_eq!((inner.span.lo, inner.span.hi), (5, 9));
    }

    #[test]
    fn errors_are_all_reported_and_recovered() {
        let (text, n) = read("(a)) (b \"oops");
        assert_eq!(n, 3, "stray ), unterminated string, unclosed (");
        assert_eq!(text, "(a) (b \"oops\")");
    }

    #[test]
    fn a_missing_paren_is_placed_by_indentation() {
        let text = "(game\n  (piece (name a)\n  (piece (name b))\n)\n";
        let (_, diags) = parse_file(FileId(0), text);
        assert_eq!(diags.len(), 1);
        assert!(diags[0].is(Code::MissingClose), "{:?}", diags[0]);
        assert!(is_delimiter_error(&diags[0]));
        assert_eq!(
            diags[0].primary.span.lo as usize,
            text.find("(piece (name b)").unwrap()
        );
    }

    #[test]
    fn an_extra_paren_is_placed_by_indentation() {
        let text = "(game\n  (piece (name a))\n    (moves x))\n  (piece (name b)))\n";
        let (_, diags) = parse_file(FileId(0), text);
        assert_eq!(diags.len(), 1);
        assert!(diags[0].is(Code::ExtraClose), "{:?}", diags[0]);
        assert!(is_delimiter_error(&diags[0]));
        assert_eq!(
            diags[0].primary.span.lo as usize,
            text.find("a))").unwrap() + 2
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = "(".repeat(100_000) + &")".repeat(100_000);
        let (forms, diags) = parse_file(FileId(0), &src);
        assert_eq!(forms.len(), 1);
        assert_eq!(diags.len(), 1);
        assert!(diags[0].is(Code::NestedTooDeeply), "{:?}", diags[0]);
    }
}
