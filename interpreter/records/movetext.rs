//! What PGN and PDN share: tag pairs `[Key "value"]`, then movetext with move numbers,
//! comments (`{ ... }` and `;` to the end of the line), numeric annotation glyphs (`$1`),
//! variations (`( ... )`, nested) and a result token that ends the game. A file may hold
//! several games one after another.

use super::native::Record;
use super::RecordError;

/// Reads every game of a file. `results` are the tokens that end a game's movetext (they
/// differ between PGN and PDN: `0-0` is castling in PGN). A game's result token is kept as
/// its `Result` header when the tags gave none.
pub fn parse(text: &str, results: &[&str]) -> Result<Vec<Record>, RecordError> {
    scan(text, results, None).map(|(games, _)| games)
}

/// Reads game number `k` (from 1) of a file and counts its games, keeping no other game in
/// memory: what a file of many games costs is its text and the one game kept.
pub fn parse_nth(
    text: &str,
    results: &[&str],
    k: usize,
) -> Result<(Option<Record>, usize), RecordError> {
    scan(text, results, Some(k)).map(|(mut games, count)| (games.pop(), count))
}

/// Reads the games of a file, keeping all of them or only number `only`; the games kept and
/// the number of games.
fn scan(
    text: &str,
    results: &[&str],
    only: Option<usize>,
) -> Result<(Vec<Record>, usize), RecordError> {
    let text = super::strip_bom(text);
    let mut games = Vec::new();
    let mut cur = Record::default();
    // Games finished so far, and whether the current one has begun (a tag or a move).
    let mut count = 0usize;
    let mut begun = false;
    let keep = |count: usize| only.is_none_or(|k| k == count + 1);
    // Whether the current game has movetext (a tag after movetext starts a new game).
    let mut in_moves = false;
    let mut depth = 0usize; // variations
    let mut line_no = 1;
    let mut rest = text;
    let finish = |cur: &mut Record, games: &mut Vec<Record>, begun: &mut bool, n: &mut usize| {
        if std::mem::take(begun) {
            if keep(*n) {
                games.push(std::mem::take(cur));
            }
            *n += 1;
        }
    };
    while !rest.is_empty() {
        let c = rest.chars().next().expect("not empty");
        if c == '\n' {
            line_no += 1;
        }
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        match c {
            '{' => {
                let end = (rest.find('}')).ok_or(RecordError::UnclosedComment { line: line_no })?;
                line_no += rest[..end].matches('\n').count();
                rest = &rest[end + 1..];
            }
            ';' => rest = rest.find('\n').map_or("", |i| &rest[i..]),
            '%' if text.len() == rest.len() || text[..text.len() - rest.len()].ends_with('\n') => {
                rest = rest.find('\n').map_or("", |i| &rest[i..]);
            }
            '(' => {
                depth += 1;
                rest = &rest[1..];
            }
            ')' => {
                if depth == 0 {
                    return Err(RecordError::StrayClose { line: line_no });
                }
                depth -= 1;
                rest = &rest[1..];
            }
            '[' if depth == 0 => {
                let end = tag_end(rest).ok_or(RecordError::BadTag {
                    line: line_no,
                    found: None,
                })?;
                let (k, v) = tag(&rest[..=end]).ok_or_else(|| RecordError::BadTag {
                    line: line_no,
                    found: Some(rest[..=end].to_string()),
                })?;
                if in_moves {
                    finish(&mut cur, &mut games, &mut begun, &mut count);
                    in_moves = false;
                }
                if keep(count) {
                    cur.headers.push((k, v));
                }
                begun = true;
                rest = &rest[end + 1..];
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{};()[".contains(c))
                    .unwrap_or(rest.len());
                let token = &rest[..end.max(c.len_utf8())];
                rest = &rest[token.len()..];
                if depth > 0 || token.starts_with('$') {
                    continue;
                }
                if results.contains(&token) {
                    if keep(count) && cur.get("Result").is_none() {
                        cur.headers.push(("Result".into(), token.into()));
                    }
                    begun = true;
                    finish(&mut cur, &mut games, &mut begun, &mut count);
                    in_moves = false;
                    continue;
                }
                if let Some(mv) = move_of(token) {
                    if keep(count) {
                        cur.moves.push(mv.to_string());
                    }
                    begun = true;
                }
                in_moves = true;
            }
        }
    }
    if depth > 0 {
        return Err(RecordError::UnclosedVariation);
    }
    finish(&mut cur, &mut games, &mut begun, &mut count);
    Ok((games, count))
}

/// The index of the `]` that closes a tag, skipping `\"` and a `]` inside the quotes.
fn tag_end(s: &str) -> Option<usize> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ']' if !quoted => return Some(i),
            '\n' => return None,
            _ => {}
        }
    }
    None
}

/// `[Key "value"]` with `\"` and `\\` escapes.
fn tag(s: &str) -> Option<(String, String)> {
    let inner = s.strip_prefix('[')?.strip_suffix(']')?.trim();
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

/// The move in a token without its number (`12.`, `12...`, `12.e4`) or its annotation
/// (`!`, `?!`); `None` for a bare move number.
fn move_of(token: &str) -> Option<&str> {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let mut mv = token;
    if digits > 0 && token[digits..].starts_with('.') {
        mv = token[digits..].trim_start_matches('.');
    }
    let mv = mv.trim_end_matches(['!', '?']);
    (!mv.is_empty() && !mv.starts_with('.')).then_some(mv)
}

/// A tag value with `\` and `"` escaped.
pub fn quote(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A whole record: the tags in order, a blank line, then the numbered moves and the result.
pub fn write_record(
    tags: &[(&str, String)],
    moves: &[String],
    first: u64,
    black_first: bool,
    result: &str,
) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        out += &format!("[{k} {}]\n", quote(v));
    }
    out.push('\n');
    out += &write_moves(moves, first, black_first, result);
    out
}

/// Movetext lines: `1. e4 e5 2. Nf3`, wrapped before 80 columns, then the result token.
/// `first` is the number of the first move and `black_first` whether it is the second
/// player's (`1... e5`).
pub fn write_moves(moves: &[String], first: u64, black_first: bool, result: &str) -> String {
    let mut words = Vec::new();
    let mut n = first;
    let mut second = black_first;
    for (k, mv) in moves.iter().enumerate() {
        if !second {
            words.push(format!("{n}."));
        } else if k == 0 {
            words.push(format!("{n}..."));
        }
        words.push(mv.clone());
        if second {
            n += 1;
        }
        second = !second;
    }
    words.push(result.to_string());
    let mut out = String::new();
    let mut col = 0;
    for w in words {
        if col > 0 && col + 1 + w.len() > 79 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out += &w;
        col += w.len();
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &[&str] = &["1-0", "0-1", "1/2-1/2", "*"];

    #[test]
    fn comments_nags_variations_and_several_games() {
        let text =
            "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 {best} e5 $1 2. Nf3 (2. f4 exf4 (2... d5)) \
                    Nc6?! ; rest\n% escaped\n3.Bb5 1-0\n\n[Event \"b\"]\n1. d4 *\n";
        let games = parse(text, PGN).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(games[0].get("Result"), Some("1-0"));
        assert_eq!(games[1].get("Event"), Some("b"));
        assert_eq!(games[1].moves, ["d4"]);
        assert_eq!(games[1].get("Result"), Some("*"));
    }

    #[test]
    fn games_without_tags_follow_results() {
        let games = parse("1. 32-28 19-23 2-0\n1. 31-27 0-2\n", &["2-0", "0-2", "*"]).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["32-28", "19-23"]);
        assert_eq!(games[1].get("Result"), Some("0-2"));
    }

    #[test]
    fn unclosed_brackets_are_errors() {
        let comment = parse("1. e4 {oops", PGN).unwrap_err();
        assert_eq!(comment, RecordError::UnclosedComment { line: 1 });
        assert_eq!(
            comment.to_string(),
            "line 1: a comment `{` is not closed by `}`"
        );
        let variation = parse("1. e4 (e5", PGN).unwrap_err();
        assert_eq!(
            variation.to_string(),
            "a variation `(` is not closed by `)`"
        );
        let close = parse("\n1. e4 )", PGN).unwrap_err();
        assert_eq!(close.to_string(), "line 2: `)` closes no variation");
        let tag = parse("[Event \"x\" y]", PGN).unwrap_err();
        assert_eq!(
            tag.to_string(),
            "line 1: a tag is written `[Key \"value\"]`, found `[Event \"x\" y]`"
        );
    }

    #[test]
    fn written_movetext_numbers_both_sides() {
        let m: Vec<String> = ["e5", "Nf3", "Nc6"].map(String::from).to_vec();
        assert_eq!(write_moves(&m, 1, true, "*"), "1... e5 2. Nf3 Nc6 *\n");
    }
}
