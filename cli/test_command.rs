//! `zrf test`: finds the tests files, runs them, prints the results and, with `--accept` or
//! `--review`, writes the snapshot files. Binary side: it reads and writes files and talks to
//! the terminal; the cases themselves are run by the library (`zrf::testing`).

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use zrf::diagnostic::{has_errors, render, RenderOptions, Severity};
use zrf::testing::{self, diff, Snapshots, TestResult};

/// What to do with snapshots that are pending or changed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Report them as failures.
    Check,
    /// Record them all.
    Accept,
    /// Show each and ask.
    Review,
}

/// One rules file and its tests file.
struct Target {
    rules: PathBuf,
    tests: PathBuf,
}

/// Totals over every file of the run.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    pending: usize,
    accepted: usize,
    broken: bool,
}

/// Prints a line to stdout, with control characters from the files escaped; a closed pipe
/// ends the program quietly.
fn out(text: &str) {
    let text = zrf::repl::terminal_text(text, false);
    let mut w = std::io::stdout().lock();
    if writeln!(w, "{text}").is_err() {
        std::process::exit(0);
    }
}

/// Runs `zrf test`.
pub fn run(
    paths: &[PathBuf],
    mode: Mode,
    deny_warnings: bool,
    color: bool,
    max_nodes: u64,
) -> ExitCode {
    if mode == Mode::Review && !std::io::stdin().is_terminal() {
        eprintln!(
            "error: `zrf test --review` asks about each change on the terminal, but standard input is not a terminal\n\
             help: run it in a terminal, or use `zrf test --accept` to record every change without asking"
        );
        return ExitCode::from(2);
    }
    let mut tally = Tally::default();
    let mut targets = Vec::new();
    for path in paths {
        match find_targets(path) {
            Ok(found) => {
                if found.is_empty() {
                    eprintln!(
                        "error: {}: no tests file in this folder (a `NAME.tests` beside `NAME.zrf`; see docs/testing.md)",
                        path.display()
                    );
                    tally.broken = true;
                }
                targets.extend(found);
            }
            Err((msg, code)) => {
                eprintln!("error: {}", zrf::repl::printable_lines(&msg));
                if code == 2 {
                    return ExitCode::from(2);
                }
                tally.broken = true;
            }
        }
    }
    let mut stdin = std::io::stdin().lock();
    for t in &targets {
        run_file(
            t,
            mode,
            (deny_warnings, max_nodes),
            color,
            &mut tally,
            &mut stdin,
        );
    }
    let mut line = format!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.pending > 0 {
        line += &format!(", {} pending", tally.pending);
    }
    if tally.accepted > 0 {
        line = format!("{} snapshot(s) accepted; {line}", tally.accepted);
    }
    out(&line);
    if tally.pending > 0 {
        out("pending snapshots are not recorded yet: run `zrf test --accept` on the same files to record them, or `zrf test --review` to see each first");
    }
    if tally.failed > 0 || tally.pending > 0 || tally.broken {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The tests to run for one command-line path: a rules file's sibling tests file, a tests
/// file and its rules file, or every tests file under a folder.
fn find_targets(path: &Path) -> Result<Vec<Target>, (String, u8)> {
    if path.is_dir() {
        let mut found = Vec::new();
        let mut errors = Vec::new();
        for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
            let entry = entry.map_err(|e| (format!("{}: {e}", path.display()), 2))?;
            let p = entry.path();
            if entry.file_type().is_file() && p.extension().is_some_and(|e| e == "tests") {
                match rules_beside(p) {
                    Some(rules) => found.push(Target {
                        rules,
                        tests: p.to_path_buf(),
                    }),
                    None => errors.push(format!(
                        "{}: no rules file `{}` beside it",
                        p.display(),
                        p.with_extension("zrf").display()
                    )),
                }
            }
        }
        if !errors.is_empty() {
            return Err((errors.join("\nerror: "), 1));
        }
        return Ok(found);
    }
    if !path.exists() {
        return Err((format!("cannot read {}: no such file", path.display()), 2));
    }
    if path.extension().is_some_and(|e| e == "tests") {
        return match rules_beside(path) {
            Some(rules) => Ok(vec![Target {
                rules,
                tests: path.to_path_buf(),
            }]),
            None => Err((
                format!(
                    "{}: no rules file `{}` beside it",
                    path.display(),
                    path.with_extension("zrf").display()
                ),
                1,
            )),
        };
    }
    let tests = path.with_extension("tests");
    if !tests.is_file() {
        return Err((
            format!(
                "{}: no tests file `{}` (write test cases there; see docs/testing.md)",
                path.display(),
                tests.display()
            ),
            1,
        ));
    }
    Ok(vec![Target {
        rules: path.to_path_buf(),
        tests,
    }])
}

/// `NAME.zrf` (or `NAME.ZRF`) beside `NAME.tests`.
fn rules_beside(tests: &Path) -> Option<PathBuf> {
    ["zrf", "ZRF"]
        .iter()
        .map(|e| tests.with_extension(e))
        .find(|p| p.is_file())
}

/// The snapshot file of a tests file: `NAME.snap` beside `NAME.tests`.
pub fn snap_path(tests: &Path) -> PathBuf {
    tests.with_extension("snap")
}

fn run_file(
    t: &Target,
    mode: Mode,
    (deny_warnings, max_nodes): (bool, u64),
    color: bool,
    tally: &mut Tally,
    stdin: &mut impl BufRead,
) {
    let opts = RenderOptions { color };
    let (bytes, tests_bytes) = match (
        crate::fsio::read_file(&t.rules),
        crate::fsio::read_file(&t.tests),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => return fail_read(&t.rules, &e, tally),
        (_, Err(e)) => return fail_read(&t.tests, &e, tally),
    };
    // The rules file, checked as `zrf check` checks it.
    let mut loaded = zrf::load(&t.rules.to_string_lossy(), &bytes, &crate::FsLoader);
    let mut diags = loaded.diags.clone();
    for game in &loaded.games {
        diags.extend(zrf::resolve_game(game).1);
    }
    zrf::tidy(&loaded.map, &mut diags);
    if !diags.is_empty() {
        eprint!("{}", render(&loaded.map, &diags, opts));
    }
    if has_errors(&diags) {
        tally.broken = true;
    } else if deny_warnings && diags.iter().any(|d| d.severity == Severity::Warning) {
        eprintln!(
            "error: {}: warnings are denied (--deny-warnings)",
            t.rules.display()
        );
        tally.broken = true;
    }
    // The snapshot file.
    let snap = snap_path(&t.tests);
    let recorded = match crate::fsio::read_file(&snap) {
        Ok(b) => match Snapshots::parse(&zrf::source::decode(&b)) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}: {e}", snap.display());
                tally.broken = true;
                return;
            }
        },
        Err(_) => Snapshots::default(),
    };
    let tid = loaded
        .map
        .add_bytes(t.tests.to_string_lossy(), &tests_bytes);
    let (results, tdiags) =
        testing::run_within(&loaded.games, &mut loaded.map, tid, &recorded, max_nodes);
    if !tdiags.is_empty() {
        eprint!("{}", render(&loaded.map, &tdiags, opts));
    }
    let tests_broken = has_errors(&tdiags);
    tally.broken |= tests_broken;
    let file = loaded.map.file(tid);
    let at = |r: &TestResult| {
        let (line, col) = file.line_col(r.span.lo as usize);
        format!("{}:{line}:{col}", t.tests.display())
    };
    let mut decisions: Vec<(String, String)> = Vec::new();
    for r in &results {
        let mut ok = r.failure.is_none();
        if let Some(why) = &r.failure {
            out(&format!("FAIL {}: {}\n     {why}", at(r), r.name));
        }
        for s in r.snapshots.iter().filter(|s| !s.matches()) {
            let old = s.recorded.as_deref().unwrap_or("");
            let shown = diff(old, &s.current);
            let what = if s.recorded.is_none() {
                "new snapshot"
            } else {
                "snapshot changed"
            };
            let accept = match mode {
                Mode::Accept => true,
                Mode::Check => false,
                Mode::Review => {
                    out(&format!(
                        "{what}: {}: {} [{}]\n{}",
                        at(r),
                        r.name,
                        s.kind,
                        indent(&shown)
                    ));
                    ask(stdin) == Some('a')
                }
            };
            if accept && !tests_broken {
                decisions.push((r.name.clone(), s.kind.clone()));
                tally.accepted += 1;
                continue;
            }
            if mode == Mode::Check {
                out(&format!(
                    "{} {}: {} [{}]: {}\n{}",
                    if s.recorded.is_none() {
                        "PENDING"
                    } else {
                        "FAIL"
                    },
                    at(r),
                    r.name,
                    s.kind,
                    if s.recorded.is_none() {
                        "not recorded yet; what zrf produces now:"
                    } else {
                        "differs from the recorded snapshot (- recorded, + now):"
                    },
                    indent(&shown)
                ));
            }
            if s.recorded.is_none() {
                tally.pending += 1;
            } else {
                ok = false;
            }
        }
        let pending = r.snapshots.iter().any(|s| {
            s.recorded.is_none() && !decisions.contains(&(r.name.clone(), s.kind.clone()))
        });
        if ok && !pending {
            tally.passed += 1;
            out(&format!("ok   {}: {}", t.tests.display(), r.name));
        } else if !ok {
            tally.failed += 1;
        }
    }
    // Snapshots no case asks for any more.
    let asked = |name: &str, kind: &str| {
        results
            .iter()
            .any(|r| r.name == name && r.snapshots.iter().any(|s| s.kind == kind))
    };
    let stale = recorded
        .entries
        .keys()
        .filter(|(n, k)| !asked(n, k))
        .count();
    if tests_broken {
        if mode != Mode::Check && (!decisions.is_empty() || stale > 0) {
            eprintln!(
                "error: {}: not written, because {} has errors",
                snap.display(),
                t.tests.display()
            );
        }
        return;
    }
    if mode == Mode::Check {
        if stale > 0 {
            out(&format!(
                "note: {} holds {stale} snapshot(s) that no test asks for; `zrf test --accept` removes them",
                snap.display()
            ));
        }
        return;
    }
    let table = testing::accepted(&results, |r, s| {
        decisions.contains(&(r.name.clone(), s.kind.clone()))
    });
    if table == recorded {
        return;
    }
    let tests_name = t
        .tests
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let result = if table.entries.is_empty() {
        std::fs::remove_file(&snap)
    } else {
        crate::fsio::write_atomic(
            &snap,
            table.render(&tests_name).as_bytes(),
            crate::fsio::Existing::Replace,
        )
    };
    match result {
        Ok(()) => out(&format!("wrote {}", snap.display())),
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", snap.display());
            tally.broken = true;
        }
    }
}

fn fail_read(path: &Path, e: &std::io::Error, tally: &mut Tally) {
    eprintln!("error: cannot read {}: {e}", path.display());
    tally.broken = true;
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("     {l}").trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asks accept / reject / skip on the terminal; `None` at the end of input.
fn ask(stdin: &mut impl BufRead) -> Option<char> {
    loop {
        print!("accept (a), reject (r) or skip (s)? ");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        if stdin.read_line(&mut line).ok()? == 0 {
            return None;
        }
        match line.trim() {
            "a" | "accept" => return Some('a'),
            "r" | "reject" => return Some('r'),
            "s" | "skip" | "" => return Some('s'),
            _ => {}
        }
    }
}
