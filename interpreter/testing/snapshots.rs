//! The snapshot file beside a tests file (`NAME.snap` for `NAME.tests`): what `zrf test
//! --accept` recorded for the cases that ask for snapshots, and the diff shown when it changes.
//!
//! ```text
//! ; Snapshots of chess.tests, written by `zrf test --accept`. Review changes as code.
//!
//! === the start position [perft 2]
//!   1 20
//!   2 400
//! ```
//!
//! An entry is a header line `=== CASE NAME [KIND]` followed by its text, every line indented
//! by two spaces (an empty line stays empty). Text is stored with trailing white space trimmed
//! from every line and trailing empty lines removed, so editors cannot change a snapshot by
//! accident. Lines starting with `;` before the first entry are comments.

use indexmap::IndexMap;

/// The header line that starts an entry.
const HEADER: &str = "=== ";

/// The entries of a snapshot file, keyed by (case name, kind), in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshots {
    /// `(case name, kind)` → recorded text.
    pub entries: IndexMap<(String, String), String>,
}

impl Snapshots {
    /// Reads a snapshot file; `Err` names the first line that is neither a header, text nor a
    /// comment.
    pub fn parse(text: &str) -> Result<Snapshots, String> {
        let text = crate::records::strip_bom(text);
        let mut entries = IndexMap::new();
        let mut current: Option<((String, String), Vec<&str>)> = None;
        let finish = |cur: Option<((String, String), Vec<&str>)>,
                      entries: &mut IndexMap<(String, String), String>|
         -> Result<(), String> {
            if let Some((key, lines)) = cur {
                if entries.contains_key(&key) {
                    return Err(format!("`{}` [{}] is recorded twice", key.0, key.1));
                }
                entries.insert(key, normalize(&lines.join("\n")));
            }
            Ok(())
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if let Some(head) = line.strip_prefix(HEADER) {
                let Some((name, kind)) = head
                    .trim_end()
                    .strip_suffix(']')
                    .and_then(|h| h.rsplit_once(" ["))
                else {
                    return Err(format!(
                        "line {}: expected `=== CASE NAME [KIND]`, found `{line}`",
                        i + 1
                    ));
                };
                finish(current.take(), &mut entries)?;
                current = Some(((name.to_string(), kind.to_string()), Vec::new()));
            } else if let Some(body) = line.strip_prefix("  ") {
                match &mut current {
                    Some((_, lines)) => lines.push(body),
                    None => {
                        return Err(format!(
                            "line {}: text before the first `===` header",
                            i + 1
                        ))
                    }
                }
            } else if line.trim().is_empty() {
                if let Some((_, lines)) = &mut current {
                    lines.push("");
                }
            } else if line.starts_with(';') && current.is_none() {
            } else {
                return Err(format!(
                    "line {}: expected a `===` header or text indented by two spaces, found `{line}`",
                    i + 1
                ));
            }
        }
        finish(current.take(), &mut entries)?;
        Ok(Snapshots { entries })
    }

    /// The file text; `tests_name` is named in the comment at the top.
    pub fn render(&self, tests_name: &str) -> String {
        let mut out = format!(
            "; Snapshots of {tests_name}, written by `zrf test --accept`. Review changes as code.\n"
        );
        for ((name, kind), text) in &self.entries {
            out.push('\n');
            out.push_str(&format!("{HEADER}{name} [{kind}]\n"));
            for line in text.lines() {
                if line.is_empty() {
                    out.push('\n');
                } else {
                    out.push_str("  ");
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        out
    }
}

/// The stored form of a snapshot text: trailing white space trimmed from each line, no
/// trailing empty lines, no carriage returns.
pub fn normalize(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let keep = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    lines[..keep].join("\n")
}

/// A unified diff from `old` to `new`, lines prefixed `-` and `+`, with three lines of context.
pub fn diff(old: &str, new: &str) -> String {
    let d = similar::TextDiff::from_lines(old, new);
    let mut out = String::new();
    for group in d.grouped_ops(3) {
        for op in group {
            for change in d.iter_changes(&op) {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => '-',
                    similar::ChangeTag::Insert => '+',
                    similar::ChangeTag::Equal => ' ',
                };
                out.push(sign);
                out.push_str(change.value().trim_end_matches('\n'));
                out.push('\n');
            }
        }
        out.push_str("@@\n");
    }
    if out.ends_with("@@\n") {
        out.truncate(out.len() - 3);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_back_to_the_same_entries() {
        let mut s = Snapshots::default();
        s.entries.insert(
            ("start [x]".into(), "position".into()),
            "  a b\n\n  c".into(),
        );
        s.entries
            .insert(("start [x]".into(), "perft 2".into()), "1 9\n2 72".into());
        let text = s.render("t.tests");
        assert_eq!(Snapshots::parse(&text), Ok(s));
    }

    #[test]
    fn stray_text_is_an_error_with_its_line() {
        let err = Snapshots::parse("; c\n\n=== a [moves]\n  x\nbad\n").unwrap_err();
        assert!(err.starts_with("line 5:"), "{err}");
        let err = Snapshots::parse("=== no kind\n").unwrap_err();
        assert!(err.starts_with("line 1:"), "{err}");
    }

    #[test]
    fn diff_marks_removed_and_added_lines() {
        assert_eq!(diff("a\nb\nc\n", "a\nB\nc\n"), " a\n-b\n+B\n c\n");
    }
}
