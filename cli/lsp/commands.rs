//! The commands behind the code lenses, each run on a thread of its own so the editor stays
//! answered: perft to depth 3 and the start position of a game (of the unsaved text), and
//! `zrf test` on a tests file (as saved).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use lsp_server::RequestId;

use super::analysis::DocLoader;
use super::Done;

/// The commands the server runs.
pub const NAMES: &[&str] = &["zrf.perft", "zrf.startPosition", "zrf.runTests"];

/// Perft stops before its next depth once a depth took this long.
const PERFT_BUDGET: Duration = Duration::from_secs(3);
/// `zrf test` is stopped after this long.
const TEST_TIMEOUT: Duration = Duration::from_secs(120);
/// How many commands may run at once; more are refused until one ends.
pub const MAX_RUNNING: usize = 4;

/// The commands running now.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// One running command, counted while it lives.
struct Slot;

impl Slot {
    fn take() -> Option<Slot> {
        let taken = RUNNING.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < MAX_RUNNING).then(|| n + 1)
        });
        // Built only when counted: a `Slot` dropped uncounted would undo another's count.
        taken.is_ok().then(|| Slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A command with what it needs, all owned (it crosses to another thread).
pub struct Job {
    /// One of [`NAMES`].
    pub command: String,
    /// The document's path.
    pub path: PathBuf,
    /// Its text, as in the editor.
    pub text: String,
    /// The game or variant's title, for perft and the start position.
    pub variant: Option<String>,
    /// The open documents, for includes.
    pub open: HashMap<PathBuf, String>,
}

/// Starts a command; its result is sent with the request's id when it is done.
pub fn spawn(job: Job, id: RequestId, done: Sender<Done>) -> Result<(), String> {
    if !NAMES.contains(&job.command.as_str()) {
        return Err(format!("unknown command {}", job.command));
    }
    let slot = Slot::take().ok_or_else(|| {
        format!("{MAX_RUNNING} commands are running already; run this one when one has ended")
    })?;
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let _slot = slot;
            let result = std::panic::catch_unwind(|| run(&job))
                .unwrap_or_else(|_| Err("zrf: internal error while running the command".into()));
            let _ = done.send((id, result));
        })
        .map(|_| ())
        .map_err(|e| format!("cannot start the command: {e}"))
}

fn run(job: &Job) -> Result<String, String> {
    if job.command == "zrf.runTests" {
        return run_tests(job);
    }
    let loader = DocLoader { open: &job.open };
    let name = job.path.to_string_lossy();
    let loaded = zrf::load(&name, job.text.as_bytes(), &loader);
    let index = zrf::summary::select_variant(&loaded.games, job.variant.as_deref())
        .map_err(|e| e.to_string())?;
    let game = &loaded.games[index];
    let (def, diags) = zrf::resolve_game(game);
    let def = match def {
        Some(def) if !zrf::diagnostic::has_errors(&diags) => def,
        _ => return Err(format!("{} has errors; fix them first", game.title)),
    };
    let rules = zrf::engine::Rules::new(def);
    let mut pos = rules.initial();
    if job.command == "zrf.startPosition" {
        let diagram = zrf::repl::diagram::diagram(&rules, &pos, false);
        let native = zrf::setup::native(&rules, &pos);
        return Ok(format!(
            "{}: start position\n{diagram}\n{native}",
            game.title
        ));
    }
    let mut lines = vec![format!("perft of {}", game.title)];
    const DEPTHS: u32 = 3;
    for depth in 1..=DEPTHS {
        let start = Instant::now();
        let n = rules.perft(&mut pos, depth);
        lines.push(format!("{depth} {n}"));
        if depth < DEPTHS && start.elapsed() > PERFT_BUDGET {
            lines.push(format!(
                "(stopped: depth {depth} took over {PERFT_BUDGET:?})"
            ));
            break;
        }
    }
    Ok(lines.join("\n"))
}

fn run_tests(job: &Job) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = std::process::Command::new(exe)
        .arg("test")
        .arg(&job.path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run zrf test: {e}"))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > TEST_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("zrf test did not finish within {TEST_TIMEOUT:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok(text.trim_end().to_string())
}
