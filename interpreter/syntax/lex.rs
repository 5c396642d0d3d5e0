//! The reader's tokens with the comments kept, for tools that work on the text as written
//! (the formatter, an editor's highlighting and completion) rather than on the tree.

use super::reader::{token, Token as Raw};

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// A string with its quotes.
    Str,
    /// A string with no closing quote, running to the end of the text.
    OpenStr,
    /// A symbol or an integer.
    Atom,
    /// A `;` comment, up to the end of its line (the line break and a `\r` before it left out).
    Comment,
}

/// One token: its kind and its byte range in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// First byte.
    pub lo: usize,
    /// One past the last byte.
    pub hi: usize,
}

/// Splits text into the tokens the reader sees, plus its comments, in order. White space
/// (any control character counts) is left out; a leading byte-order mark is skipped.
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut at = start;
    while at < text.len() {
        let rest = &text[at..];
        let Some(c) = rest.chars().next() else { break };
        if c.is_whitespace() || c.is_control() {
            at += c.len_utf8();
            continue;
        }
        if c == ';' {
            let len = rest.find('\n').unwrap_or(rest.len());
            let body = rest[..len].trim_end_matches('\r');
            out.push(Token {
                kind: TokenKind::Comment,
                lo: at,
                hi: at + body.len(),
            });
            at += len;
            continue;
        }
        let Ok((r, tok)) = token(rest) else {
            at += c.len_utf8();
            continue;
        };
        let kind = match tok {
            Raw::Open => TokenKind::Open,
            Raw::Close => TokenKind::Close,
            Raw::Str(_) => TokenKind::Str,
            Raw::OpenStr(_) => TokenKind::OpenStr,
            Raw::Atom(_) => TokenKind::Atom,
        };
        let hi = text.len() - r.len();
        out.push(Token { kind, lo: at, hi });
        at = hi.max(at + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_tokens_in_order() {
        let text = "(a \"b c\" ; note\r\n 12)";
        let kinds: Vec<(TokenKind, &str)> = tokens(text)
            .iter()
            .map(|t| (t.kind, &text[t.lo..t.hi]))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (TokenKind::Open, "("),
                (TokenKind::Atom, "a"),
                (TokenKind::Str, "\"b c\""),
                (TokenKind::Comment, "; note"),
                (TokenKind::Atom, "12"),
                (TokenKind::Close, ")"),
            ]
        );
    }
}
