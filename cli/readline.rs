//! The terminal front end of `zrf play`, compiled into the binary (the library does no I/O).
//!
//! On a terminal: a rustyline editor with history kept in a file, tab completion of command
//! names and of the legal moves, hints from the history, multi-line input while brackets are
//! open, Ctrl-C to cancel a line and Ctrl-D to quit. Otherwise (a pipe or a file on standard
//! input): one command per line, each on its own (a line that is not UTF-8 or too long is an
//! error and the session goes on), plain output, no prompts, so transcripts can be tested.
//!
//! The history file is only ever appended to, one line per entry as it is typed, so sessions
//! running at once all keep their lines; it is rewritten (atomically) only to drop old entries
//! once it holds twice [`HISTORY_SIZE`]. Lines that are not UTF-8 are read lossily and kept.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::history::MemHistory;
use rustyline::validate::{
    MatchingBracketValidator, ValidationContext, ValidationResult, Validator,
};
use rustyline::{CompletionType, Config, Context, Editor, Helper};
use zrf::repl::{command_names, Files, Session};

/// Whether the session writes colours (then `out` keeps its colour codes).
static COLOUR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Prints text, with control characters from rules files and records escaped (but for the
/// session's own colours, `COLOUR`); a closed pipe ends the program quietly.
fn out(text: &str) {
    let colour = COLOUR.load(std::sync::atomic::Ordering::Relaxed);
    let text = zrf::repl::terminal_text(text, colour);
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// Plays from standard input until `quit` or the end of input. False when a piped script
/// had a command refused (it stops there unless `keep_going`).
pub fn run(mut session: Session, files: &dyn Files, keep_going: bool) -> bool {
    if std::io::stdin().is_terminal() {
        session.color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        COLOUR.store(session.color, std::sync::atomic::Ordering::Relaxed);
        match interactive(&mut session, files) {
            Ok(()) => {}
            Err(e) => eprintln!("error: the line editor failed: {e}"),
        }
        true
    } else {
        piped(&mut session, files, keep_going)
    }
}

/// Answers one line; a panic inside the session is reported instead of ending the program,
/// so that the game can still be saved. Returns whether the session should end and whether
/// the line was refused.
fn answer(session: &mut Session, line: &str, files: &dyn Files) -> (bool, bool) {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        session.run_line(line, files)
    }));
    match run {
        Ok(o) => {
            out(&o.text);
            (o.quit, o.error)
        }
        Err(_) => {
            out(
                "error: internal error while answering this line (a bug in zrf); \
                 the moves so far are kept: `save FILE` stores them\n",
            );
            (false, true)
        }
    }
}

fn piped(session: &mut Session, files: &dyn Files, keep_going: bool) -> bool {
    use crate::fsio::{read_line, Line, MAX_LINE_BYTES};
    out(&session.banner());
    let mut stdin = std::io::stdin().lock();
    let mut n = 0;
    loop {
        let line = match read_line(&mut stdin) {
            Ok(Some(l)) => l,
            Ok(None) => return true,
            Err(e) => {
                out(&format!("error: cannot read standard input: {e}\n"));
                return false;
            }
        };
        n += 1;
        let refused = match line {
            Line::Text(text) => {
                // A byte-order mark (a script saved on Windows) is not part of its first line.
                let text = if n == 1 {
                    zrf::records::strip_bom(&text)
                } else {
                    &text
                };
                let (quit, refused) = answer(session, text, files);
                if quit {
                    return !refused || keep_going;
                }
                refused
            }
            Line::NotUtf8 => {
                out(&format!(
                    "error: line {n} is not UTF-8 text; it was skipped\n"
                ));
                true
            }
            Line::TooLong => {
                out(&format!(
                    "error: line {n} is longer than {} KiB; it was skipped\n",
                    MAX_LINE_BYTES >> 10
                ));
                true
            }
        };
        // A script stops at the first refused line unless told to keep going.
        if refused && !keep_going {
            return false;
        }
    }
}

/// How many entries the history keeps.
const HISTORY_SIZE: usize = 5000;

/// Entries longer than this are not kept in the history.
const MAX_HISTORY_ENTRY: usize = 1024;

/// The first line of the history file (rustyline's format: `\\` and `\n` escaped).
const HISTORY_HEADER: &str = "#V2";

/// The entries of a history file: one per line, unescaped; a line that is not UTF-8 is read
/// lossily, an empty line or a header line is skipped.
fn history_entries(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty() && *l != HISTORY_HEADER.as_bytes())
        .map(|l| {
            let text = String::from_utf8_lossy(l);
            let mut entry = String::with_capacity(text.len());
            let mut chars = text.chars();
            while let Some(c) = chars.next() {
                match (c, chars.clone().next()) {
                    ('\\', Some('n')) => {
                        entry.push('\n');
                        chars.next();
                    }
                    ('\\', Some('\\')) => {
                        entry.push('\\');
                        chars.next();
                    }
                    _ => entry.push(c),
                }
            }
            entry
        })
        .collect()
}

/// One entry as a line of the history file.
fn history_line(entry: &str) -> String {
    let mut line = entry.replace('\\', "\\\\").replace('\n', "\\n");
    line.push('\n');
    line
}

/// Adds an entry at the end of the history file in one write, creating the file (and its
/// folder) if needed. Nothing already in the file is rewritten.
fn append_history(path: &Path, entry: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    let meta = std::fs::metadata(path);
    if let Ok(m) = &meta {
        if !m.is_file() {
            return Ok(());
        }
    }
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        // Private to the user, as rustyline makes it.
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    let mut text = String::new();
    if meta.map_or(true, |m| m.len() == 0) {
        text += HISTORY_HEADER;
        text.push('\n');
    }
    text += &history_line(entry);
    file.write_all(text.as_bytes())
}

/// Reads the history file; when it holds more than twice [`HISTORY_SIZE`] lines, rewrites it
/// (atomically) with the last [`HISTORY_SIZE`], keeping their bytes as they were.
fn load_history(path: &Path) -> Vec<String> {
    let Ok(bytes) = crate::fsio::read_file(path) else {
        return Vec::new();
    };
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty() && *l != HISTORY_HEADER.as_bytes())
        .collect();
    if lines.len() > 2 * HISTORY_SIZE {
        let keep = &lines[lines.len() - HISTORY_SIZE..];
        let mut text = format!("{HISTORY_HEADER}\n").into_bytes();
        for l in keep {
            text.extend_from_slice(l);
            text.push(b'\n');
        }
        let _ = crate::fsio::write_atomic(path, &text, crate::fsio::Existing::Replace);
    }
    let entries = history_entries(&bytes);
    let skip = entries.len().saturating_sub(HISTORY_SIZE);
    entries.into_iter().skip(skip).collect()
}

/// Where the line history is kept: `$ZRF_HISTORY`, else `zrf/history.txt` in the user's data
/// directory.
fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ZRF_HISTORY") {
        return Some(PathBuf::from(p));
    }
    Some(dirs::data_dir()?.join("zrf").join("history.txt"))
}

struct ZrfHelper {
    /// Command names, variant titles and the legal moves of the current position.
    words: Rc<RefCell<Vec<String>>>,
    files: FilenameCompleter,
    hinter: HistoryHinter,
    brackets: MatchingBracketValidator,
    color: bool,
}

impl Completer for ZrfHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let first = line[..pos].split_whitespace().next().unwrap_or("");
        let start = line[..pos].rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let first_word = line[..start].trim().is_empty();
        if !first_word && matches!(first, "save" | "load") {
            return self.files.complete(line, pos, ctx);
        }
        let word = line[start..pos].to_lowercase();
        let pick = |w: &&String| w.to_lowercase().starts_with(&word);
        let words = self.words.borrow();
        let candidates: Vec<Pair> = if !first_word && first == "help" {
            command_names()
                .map(String::from)
                .filter(|w| pick(&w))
                .map(|w| Pair {
                    display: w.clone(),
                    replacement: w,
                })
                .collect()
        } else {
            let commands: Vec<&str> = command_names().collect();
            words
                .iter()
                // After the first word, only moves (a line of several moves).
                .filter(|w| first_word || !commands.contains(&w.as_str()))
                .filter(pick)
                .map(|w| Pair {
                    display: w.clone(),
                    replacement: w.clone(),
                })
                .collect()
        };
        Ok((start, candidates))
    }
}

impl Hinter for ZrfHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        self.hinter.hint(line, pos, ctx)
    }
}

impl Highlighter for ZrfHelper {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        if self.color {
            Cow::Owned(format!("\x1b[1m{prompt}\x1b[0m"))
        } else {
            Cow::Borrowed(prompt)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        false
    }
}

impl Validator for ZrfHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        self.brackets.validate(ctx)
    }
}

impl Helper for ZrfHelper {}

fn interactive(session: &mut Session, files: &dyn Files) -> rustyline::Result<()> {
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .history_ignore_space(true)
        .max_history_size(5000)?
        .build();
    let memory = MemHistory::with_config(&config);
    let mut rl: Editor<ZrfHelper, MemHistory> = Editor::with_history(config, memory)?;
    let words = Rc::new(RefCell::new(Vec::new()));
    rl.set_helper(Some(ZrfHelper {
        words: Rc::clone(&words),
        files: FilenameCompleter::new(),
        hinter: HistoryHinter::new(),
        brackets: MatchingBracketValidator::new(),
        color: session.color,
    }));
    let history = history_path();
    if let Some(h) = &history {
        for entry in load_history(h) {
            let _ = rl.add_history_entry(entry);
        }
    }
    // Ctrl-C while the computer thinks stops the search; at other times (a long perft) it
    // ends the program as usual. While a line is read, rustyline sees Ctrl-C as a key.
    let stop = std::sync::Arc::clone(&session.computer.stop);
    let thinking = std::sync::Arc::clone(&session.computer.thinking);
    let _ = ctrlc::set_handler(move || {
        use std::sync::atomic::Ordering;
        if thinking.load(Ordering::Relaxed) {
            stop.store(true, Ordering::Relaxed);
        } else {
            std::process::exit(130);
        }
    });
    if std::io::stderr().is_terminal() {
        // The search's progress on one line of the terminal, rewritten in place.
        session.computer.progress = Some(Box::new(|line: &str| {
            let mut err = std::io::stderr().lock();
            let width = 100;
            let shown: String = line.chars().take(width).collect();
            let shown = zrf::repl::terminal_text(&shown, false);
            let _ = write!(err, "\r\x1b[K{shown}");
            let _ = err.flush();
        }));
    }
    // Ctrl-C stops a search, so `analyse` alone may run until then.
    session.computer.stoppable = true;
    // The computer's moves in `play-as` are shown as they are played.
    session.computer.said = Some(Box::new(|line: &str| {
        if std::io::stderr().is_terminal() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
        out(&format!("{line}\n"));
    }));
    out(&session.banner());
    loop {
        *words.borrow_mut() = (session.completions().into_iter())
            .map(|w| zrf::repl::terminal_text(&w, false).into_owned())
            .collect();
        let prompt = session.prompt();
        let prompt = zrf::repl::terminal_text(&prompt, false).into_owned();
        match rl.readline(prompt.as_str()) {
            Ok(line) => {
                // The file gets what the editor keeps (not a line that begins with a space,
                // nor one that repeats the line before).
                if !line.trim().is_empty() && rl.add_history_entry(line.as_str()).unwrap_or(false) {
                    if let Some(h) = &history {
                        if line.len() <= MAX_HISTORY_ENTRY {
                            let _ = append_history(h, &line);
                        }
                    }
                }
                if answer(session, &line, files).0 {
                    break;
                }
            }
            // Ctrl-C cancels the line being typed.
            Err(ReadlineError::Interrupted) => continue,
            // Ctrl-D quits.
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("zrf-history")
            .tempdir()
            .expect("a temp dir")
    }

    #[test]
    fn a_line_that_is_not_utf8_keeps_every_later_entry() {
        let dir = temp();
        let h = dir.path().join("history.txt");
        std::fs::write(&h, b"#V2\ne2e4\n\xff\xfe\nsave a\\\\b.game\nsetup x\\ny\n").unwrap();
        let entries = load_history(&h);
        assert_eq!(
            entries,
            ["e2e4", "\u{fffd}\u{fffd}", "save a\\b.game", "setup x\ny"]
        );
        append_history(&h, "quit").unwrap();
        let bytes = std::fs::read(&h).unwrap();
        assert_eq!(
            bytes,
            b"#V2\ne2e4\n\xff\xfe\nsave a\\\\b.game\nsetup x\\ny\nquit\n"
        );
    }

    #[test]
    fn two_sessions_at_once_keep_both_their_entries() {
        let dir = temp();
        let h = dir.path().join("sub").join("history.txt");
        // Both sessions start from the same (absent) file, then each types lines.
        assert!(load_history(&h).is_empty());
        append_history(&h, "first session 1").unwrap();
        append_history(&h, "second session 1").unwrap();
        append_history(&h, "first session 2").unwrap();
        append_history(&h, "a\\b\nc").unwrap();
        assert_eq!(
            load_history(&h),
            [
                "first session 1",
                "second session 1",
                "first session 2",
                "a\\b\nc"
            ]
        );
        assert!(std::fs::read_to_string(&h).unwrap().starts_with("#V2\n"));
    }

    #[test]
    fn a_long_history_is_cut_to_its_last_entries() {
        let dir = temp();
        let h = dir.path().join("history.txt");
        let mut text = b"#V2\n".to_vec();
        for i in 0..2 * HISTORY_SIZE + 5 {
            text.extend_from_slice(format!("line {i}\n").as_bytes());
        }
        text.extend_from_slice(b"\xff\n");
        std::fs::write(&h, &text).unwrap();
        let entries = load_history(&h);
        assert_eq!(entries.len(), HISTORY_SIZE);
        assert_eq!(entries.last().unwrap(), "\u{fffd}");
        let after = std::fs::read(&h).unwrap();
        let lines: Vec<&[u8]> = after.split(|&b| b == b'\n').collect();
        // The header, the kept entries (the unreadable one as it was), and the last newline.
        assert_eq!(lines.len(), HISTORY_SIZE + 2);
        assert_eq!(lines[0], b"#V2");
        assert_eq!(lines[HISTORY_SIZE], b"\xff");
        assert_eq!(load_history(&h), entries);
    }
}
