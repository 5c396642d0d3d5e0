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
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut rec = Record::default();
        let mut in_comment = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if !in_comment && line.starts_with('[') {
                let (k, v) = header(line).ok_or_else(|| {
                    format!(
                        "line {}: a header is written `[Key \"value\"]`, found `{line}`",
                        n + 1
                    )
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
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            out += &format!("[{k} \"{v}\"]\n");
        }
        out.push('\n');
        for l in lines {
            out += l;
            out.push('\n');
        }
        out
    }
}

/// `[Key "value"]` with `\"` and `\\` escapes in the value.
fn header(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut v = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            v.extend(chars.next());
        } else {
            v.push(c);
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
    fn a_bad_header_names_its_line() {
        let e = Record::parse("\n[Game games/chess.zrf]\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
    }
}
