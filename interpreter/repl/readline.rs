//! The terminal front end of `zrf play`, compiled into the binary (the library does no I/O).
//!
//! On a terminal: a rustyline editor with history kept in a file, tab completion of command
//! names and of the legal moves, hints from the history, multi-line input while brackets are
//! open, Ctrl-C to cancel a line and Ctrl-D to quit. Otherwise (a pipe or a file on standard
//! input): one command per line, plain output, no prompts, so transcripts can be tested.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::{
    MatchingBracketValidator, ValidationContext, ValidationResult, Validator,
};
use rustyline::{CompletionType, Config, Context, Editor, Helper};
use zrf::repl::{command_names, Files, Session};

/// Prints text; a closed pipe ends the program quietly.
fn out(text: &str) {
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
        match interactive(&mut session, files) {
            Ok(()) => {}
            Err(e) => eprintln!("error: the line editor failed: {e}"),
        }
        true
    } else {
        piped(&mut session, files, keep_going)
    }
}

/// Whether brackets are still open in the text (the line goes on).
fn open_brackets(text: &str) -> bool {
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

fn piped(session: &mut Session, files: &dyn Files, keep_going: bool) -> bool {
    out(&session.banner());
    let mut pending = String::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if !pending.is_empty() {
            pending.push(' ');
        }
        pending += &line;
        if open_brackets(&pending) {
            continue;
        }
        let o = session.run_line(&std::mem::take(&mut pending), files);
        out(&o.text);
        if o.error && !keep_going {
            return false;
        }
        if o.quit {
            return true;
        }
    }
    if !pending.is_empty() {
        let o = session.run_line(&pending, files);
        out(&o.text);
        return !o.error || keep_going;
    }
    true
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
    let mut rl: Editor<ZrfHelper, DefaultHistory> = Editor::with_config(config)?;
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
        let _ = rl.load_history(h);
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
        *words.borrow_mut() = session.completions();
        match rl.readline(&session.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = rl.add_history_entry(line.as_str());
                }
                let o = session.run_line(&line, files);
                out(&o.text);
                if o.quit {
                    break;
                }
            }
            // Ctrl-C cancels the line being typed.
            Err(ReadlineError::Interrupted) => continue,
            // Ctrl-D quits.
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                save_history(&mut rl, history.as_ref());
                return Err(e);
            }
        }
    }
    save_history(&mut rl, history.as_ref());
    Ok(())
}

fn save_history(rl: &mut Editor<ZrfHelper, DefaultHistory>, path: Option<&PathBuf>) {
    if let Some(p) = path {
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = rl.save_history(p);
    }
}
