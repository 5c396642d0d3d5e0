//! Game records: headers in brackets, then the moves in canonical notation, numbered.
//! The format is described in `docs/game-records.md`.
//!
//! ```text
//! [Game "games/chess.zrf"]
//! [Variant "Chess"]
//! [Date "2025-01-31"]
//! [Result "*"]
//!
//! 1. e2-e4 e7-e5
//! 2. g1-f3
//! ```

/// A record as read: its headers in file order and its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// `(key, value)` pairs in file order.
    pub headers: Vec<(String, String)>,
    /// The moves, as written (move numbers, comments and result tokens removed).
    pub moves: Vec<String>,
}

/// The result written while a game is not over.
pub const UNFINISHED: &str = "*";

impl Record {
    /// The value of a header (keys compare without regard to case).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// Reads a record. Errors name the line.
    pub fn parse(text: &str) -> Result<Record, super::RecordError> {
        let text = super::strip_bom(text);
        let mut rec = Record::default();
        let mut in_comment = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if !in_comment && line.starts_with('[') {
                let (k, v) = header(line).ok_or_else(|| super::RecordError::BadHeader {
                    line: n + 1,
                    found: line.to_string(),
                })?;
                rec.headers.push((k, v));
                continue;
            }
            let mut rest = line;
            while !rest.is_empty() {
                if in_comment {
                    match rest.find('}') {
                        Some(i) => {
                            in_comment = false;
                            rest = &rest[i + 1..];
                        }
                        None => rest = "",
                    }
                    continue;
                }
                rest = rest.trim_start();
                if rest.starts_with(';') {
                    break;
                }
                if let Some(r) = rest.strip_prefix('{') {
                    in_comment = true;
                    rest = r;
                    continue;
                }
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '{' || c == ';')
                    .unwrap_or(rest.len());
                let token = &rest[..end];
                rest = &rest[end..];
                if let Some(mv) = move_of(token) {
                    rec.moves.push(mv.to_string());
                }
            }
        }
        Ok(rec)
    }

    /// Writes the headers, a blank line, then the numbered lines of moves.
    pub fn write(headers: &[(&str, String)], lines: &[String]) -> String {
        let mut out = String::new();
        for (k, v) in headers {
            out += &format!("[{k} \"{}\"]\n", escape(v));
        }
        out.push('\n');
        for l in lines {
            out += l;
            out.push('\n');
        }
        out
    }
}

/// A header value as written: `\` and `"` escaped, a line break as `\n` or `\r`, a tab as `\t`, every other
/// control character as `\u{HEX}`, so that the value stays on its line.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out += "\\\\",
            '"' => out += "\\\"",
            '\n' => out += "\\n",
            '\r' => out += "\\r",
            '\t' => out += "\\t",
            c if c.is_control() => out += &format!("\\u{{{:x}}}", c as u32),
            c => out.push(c),
        }
    }
    out
}

/// `[Key "value"]`; in the value, `\n`, `\r`, `\t` and `\u{HEX}` stand for those characters,
/// and a backslash before any other character for that character (`\"`, `\\`).
fn header(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut v = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            v.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => v.push('\n'),
            Some('r') => v.push('\r'),
            Some('t') => v.push('\t'),
            Some('u') if chars.as_str().starts_with('{') => {
                let rest = chars.as_str();
                let code = rest[1..]
                    .split_once('}')
                    .and_then(|(hex, _)| u32::from_str_radix(hex, 16).ok())
                    .and_then(char::from_u32)?;
                v.push(code);
                let close = rest.find('}')?;
                chars = rest[close + 1..].chars();
            }
            Some(other) => v.push(other),
            None => {}
        }
    }
    Some((key.to_string(), v))
}

/// The move in a token, without a move number (`12.`, `12...`, `12.e2-e4`); `None` for a bare
/// number or a result token.
fn move_of(token: &str) -> Option<&str> {
    if matches!(token, "*" | "1-0" | "0-1" | "1/2-1/2") {
        return None;
    }
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after = &token[digits..];
    if digits > 0 && after.starts_with('.') {
        let mv = after.trim_start_matches('.');
        return (!mv.is_empty()).then_some(mv);
    }
    Some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_headers_numbers_comments_and_results() {
        let text = "[Game \"games/chess.zrf\"]\n[Setup \"say \\\"hi\\\"\"]\n\n\
                    1. e2-e4 {best by test} e7-e5 ; a comment\n2.g1-f3 2... b8-c6 *\n";
        let r = Record::parse(text).unwrap();
        assert_eq!(r.get("game"), Some("games/chess.zrf"));
        assert_eq!(r.get("Setup"), Some("say \"hi\""));
        assert_eq!(r.moves, ["e2-e4", "e7-e5", "g1-f3", "b8-c6"]);
    }

    #[test]
    fn draughts_moves_are_not_move_numbers() {
        let r = Record::parse("1. 11-15 23-19\n2. 8-11 22x15\n").unwrap();
        assert_eq!(r.moves, ["11-15", "23-19", "8-11", "22x15"]);
    }

    #[test]
    fn written_headers_read_back() {
        let text = Record::write(&[("Setup", "a \"b\" \\c".into())], &["1. x".into()]);
        let r = Record::parse(&text).unwrap();
        assert_eq!(r.get("Setup"), Some("a \"b\" \\c"));
        assert_eq!(r.moves, ["x"]);
    }

    #[test]
    fn line_breaks_and_control_characters_in_values_read_back() {
        let value = "turn 0;\na1 W Man\r\n\tb2 \u{1b}[31m \"x\" \\n";
        let text = Record::write(
            &[("Setup", value.into()), ("Variant", "Two\nLines".into())],
            &["1. a1-a2".into()],
        );
        assert_eq!(
            text.lines().next(),
            Some(r#"[Setup "turn 0;\na1 W Man\r\n\tb2 \u{1b}[31m \"x\" \\n"]"#)
        );
        assert!(!text.contains('\x1b'));
        let r = Record::parse(&text).unwrap();
        assert_eq!(r.get("Setup"), Some(value));
        assert_eq!(r.get("Variant"), Some("Two\nLines"));
        assert_eq!(r.moves, ["a1-a2"]);
    }

    #[test]
    fn a_bad_escape_is_a_bad_header() {
        assert!(Record::parse("[Setup \"\\u{110000}\"]\n").is_err());
        assert!(Record::parse("[Setup \"\\u{1b\"]\n").is_err());
    }

    #[test]
    fn a_bad_header_names_its_line() {
        let e = Record::parse("\n[Game games/chess.zrf]\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2:"), "{e}");
    }
}
