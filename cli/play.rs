//! The subcommands that run a session over the file system: `play` (the terminal REPL, from a
//! rules file or a record) and `replay` (a record's moves and result, or every record under a
//! folder).

use std::path::Path;
use std::process::ExitCode;

use zrf::diagnostic::{render, RenderOptions};

use crate::{color, fsio, read, readline};

/// Files for the play session, from the file system.
struct FsFiles;

impl zrf::repl::Files for FsFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        fsio::read_file(Path::new(path)).map_err(|e| e.to_string())
    }

    fn read_if_exists(&self, path: &str) -> Result<Vec<u8>, zrf::expand::ReadError> {
        Ok(fsio::read_file(Path::new(path))?)
    }

    /// Writes a temporary file beside the target, then renames it over the target.
    fn write(&self, path: &str, contents: &str) -> Result<(), String> {
        fsio::write_atomic(
            Path::new(path),
            contents.as_bytes(),
            fsio::Existing::Replace,
        )
        .map_err(|e| e.to_string())
    }

    fn absolute(&self, path: &str) -> Option<String> {
        fsio::absolute(Path::new(path)).map(|p| p.to_string_lossy().into_owned())
    }

    fn list(&self, dir: &str) -> Vec<String> {
        let dir = if dir.is_empty() { "." } else { dir };
        std::fs::read_dir(dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Today's date in UTC, `YYYY-MM-DD`, for game records.
fn today() -> Option<String> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs() as i64;
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

/// A game record rather than a rules file: named `.game`, `.pgn`, `.pdn` or `.zsg`.
pub(crate) fn is_record(file: &Path) -> bool {
    zrf::corpus::is_record(&file.to_string_lossy())
}

/// Reports a failure to start a session; returns the exit code.
fn open_failed(e: zrf::repl::OpenError) -> ExitCode {
    use zrf::repl::OpenError;
    match e {
        OpenError::Rules { map, diags } => {
            eprint!("{}", render(&map, &diags, RenderOptions { color: color() }));
            let n = diags.iter().filter(|d| d.is_error()).count();
            eprintln!("{n} error(s)");
            ExitCode::from(1)
        }
        OpenError::Record(msg, _) => {
            eprintln!("error: {}", zrf::repl::printable_lines(&msg));
            ExitCode::from(1)
        }
        e => {
            eprintln!("error: {}", zrf::repl::printable_lines(&e.to_string()));
            ExitCode::from(2)
        }
    }
}

/// Opens a record (game `n` of the file) and replays it; also returns the record read.
fn open_record(
    file: &Path,
    n: Option<usize>,
    rules: Option<&Path>,
) -> Result<(zrf::repl::Session, zrf::records::native::Record), ExitCode> {
    let bytes = read(file)?;
    let text = String::from_utf8_lossy(&bytes);
    let rules = rules.map(|r| r.to_string_lossy().into_owned());
    let hint = zrf::repl::records::RulesHint {
        path: rules.as_deref(),
        titles: None,
        variant: None,
    };
    zrf::repl::Session::from_records(&text, &file.to_string_lossy(), n, &hint, &FsFiles)
        .map_err(open_failed)
}

/// The options of `zrf play`.
pub(crate) struct PlayOptions<'a> {
    pub(crate) rules: Option<&'a Path>,
    pub(crate) variant: Option<&'a str>,
    pub(crate) setup: Option<&'a str>,
    pub(crate) moves: Option<&'a str>,
    pub(crate) keep_going: bool,
}

pub(crate) fn play(file: &Path, o: &PlayOptions) -> ExitCode {
    let (variant, setup) = (o.variant, o.setup);
    let session = if is_record(file) && variant.is_none() && setup.is_none() {
        open_record(file, None, o.rules).map(|(s, _)| s)
    } else if o.rules.is_some() {
        eprintln!("error: --rules names the rules of a game record (.game, .pgn, .pdn, .zsg) played without --variant or --setup");
        return ExitCode::from(2);
    } else {
        zrf::repl::Session::open(&file.to_string_lossy(), &FsFiles, variant, setup)
            .map_err(open_failed)
    };
    let mut session = match session {
        Ok(s) => s,
        Err(code) => return code,
    };
    session.today = today();
    if let Some(moves) = o.moves.filter(|m| !m.trim().is_empty()) {
        let out = session.eval_line(moves);
        if out.error {
            let text = out.text.replace("error: ", "error: --moves: ");
            eprint!("{}", zrf::repl::terminal_text(&text, false));
            return ExitCode::from(1);
        }
    }
    if readline::run(session, &FsFiles, o.keep_going) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

pub(crate) fn replay(file: &Path, n: Option<usize>, rules: Option<&Path>) -> ExitCode {
    let (mut session, rec) = match open_record(file, n, rules) {
        Ok(s) => s,
        Err(code) => return code,
    };
    say!("{}", session.show().trim_end());
    // The final position in one line, to compare mechanically: FEN (PDN FEN on numbered
    // boards), else zrf's native position text.
    let fen = session.eval_line("fen");
    if fen.error {
        say!(
            "position: {}",
            session.eval_line("position").text.trim_end()
        );
    } else {
        say!("fen: {}", fen.text.trim_end());
    }
    let result = session.result();
    say!(
        "result: {}",
        result.as_deref().unwrap_or("* (the game is not over)")
    );
    if let Some(said) = rec.get("Result") {
        let format = zrf::repl::records::Format::of(&file.to_string_lossy());
        let got = session.result_token(format);
        if said != got {
            let said = zrf::repl::printable(said);
            eprintln!("warning: the record says the result is `{said}`; its moves give `{got}`");
        }
    }
    ExitCode::SUCCESS
}

/// `zrf replay --check DIR`: every `.zsg` and `.game` record under a folder, in name order,
/// one line each (`zrf::corpus::replay_record`), then the totals.
pub(crate) fn replay_check(dir: &Path) -> ExitCode {
    crate::folders::check_folder(
        dir,
        zrf::corpus::is_checked_record,
        "records",
        &|file, bytes| {
            let text = String::from_utf8_lossy(&bytes);
            zrf::corpus::replay_record(&text, &file.to_string_lossy(), &FsFiles)
        },
    )
}
