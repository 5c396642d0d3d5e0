//! The `zrf` command line: the only place that reads files and prints (with `readline.rs`,
//! the terminal front end of `zrf play`).

/// jemalloc instead of the system allocator: loading a big rules file builds and drops
/// millions of small trees, and glibc's malloc and free were a third of its time (the
/// 19-variant Ragnarok: 1.18 s -> 0.80 s); perft is unchanged.
#[cfg(all(feature = "jemalloc", not(target_env = "msvc")))]
#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use zrf::diagnostic::{has_errors, render, RenderOptions};
use zrf::expand::Loader;

#[path = "fsio.rs"]
mod fsio;
#[path = "repl/readline.rs"]
mod readline;
#[path = "serve/mod.rs"]
mod serve;
#[path = "testing/command.rs"]
mod test_command;

#[derive(Parser)]
#[command(
    name = "zrf",
    version,
    about = "An open interpreter for Zillions-of-Games rules files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write a commented starter rules file, NAME.zrf, to begin a new game from.
    New {
        /// The game's name (the file is NAME.zrf in the current folder).
        name: String,
    },
    /// Run the test cases of NAME.tests beside each rules file NAME.zrf and report pass or fail.
    ///
    /// A folder is searched recursively for tests files. Cases that ask for snapshots compare
    /// what zrf produces with NAME.snap; `--accept` records the new or changed ones, `--review`
    /// shows each and asks. The format is described in docs/testing.md.
    Test {
        /// Rules files, tests files or folders.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Record every new or changed snapshot in NAME.snap (and drop unused ones).
        #[arg(long, conflicts_with = "review")]
        accept: bool,
        /// Show each new or changed snapshot as a diff and ask: accept, reject or skip.
        #[arg(long)]
        review: bool,
        /// Fail when the rules file has warnings.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Load a rules file, report every error and warning, and summarise the game.
    Check {
        /// The rules file.
        file: PathBuf,
        /// The variant to summarise: its title (any case) or its number.
        #[arg(long)]
        variant: Option<String>,
        /// List the games and variants with their numbers.
        #[arg(long)]
        list_variants: bool,
        /// Exit 1 when there are warnings, as with errors (for continuous integration).
        #[arg(long)]
        deny_warnings: bool,
    },
    /// List the legal moves of a position, one canonical move per line.
    Moves {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        at: At,
        /// Print the position in zrf's native text first.
        #[arg(long)]
        print_position: bool,
        /// Read one position per line from standard input and print each position's legal moves
        /// on one line (for comparing with other engines).
        #[arg(long)]
        stdin: bool,
        /// Print the moves in standard algebraic notation (`Nf3`, `O-O`, `Qxf7#`), for games
        /// whose pieces have one-letter notations.
        #[arg(long)]
        san: bool,
    },
    /// Count the leaf nodes of the move tree to a depth (every leaf move is made).
    Perft {
        /// The rules file.
        file: PathBuf,
        /// The depth.
        depth: u32,
        #[command(flatten)]
        at: At,
        /// Print `MOVE N` for every root move at the last depth.
        #[arg(long)]
        divide: bool,
        /// Count capture chains with the same start, end and captured pieces once.
        #[arg(long)]
        unique: bool,
        /// Count the last level without making its moves.
        #[arg(long)]
        bulk: bool,
        /// Count DEPTH alone, not every depth up to it (for timing one depth).
        #[arg(long)]
        only: bool,
    },
    /// Play a game by typed moves and commands (`zrf FILE` does the same); `help` lists them.
    ///
    /// FILE may also be a game record (`.game`, `.pgn`, `.pdn`), which is replayed before play
    /// goes on. With standard input not a terminal, commands are read one per line and the
    /// answers printed without prompts or colour; the first command refused ends the run with
    /// exit code 1, unless `--keep-going`.
    Play {
        /// The rules file, or a game record.
        file: PathBuf,
        /// The variant: its title (any case) or its number.
        #[arg(long)]
        variant: Option<String>,
        /// The starting position: a FEN, a PDN FEN or zrf's native position text.
        #[arg(long)]
        setup: Option<String>,
        /// Moves to play first, separated by spaces (any notation `play` reads); then play goes
        /// on from standard input as usual (an empty or closed input ends at once).
        #[arg(long)]
        moves: Option<String>,
        /// With a script on standard input: go on after a refused command and exit 0.
        #[arg(long)]
        keep_going: bool,
    },
    /// Play in a web browser: a local server with a board drawn from the file's geometry.
    Serve {
        /// The rules file.
        file: PathBuf,
        /// The variant: its title (any case) or its number.
        #[arg(long)]
        variant: Option<String>,
        /// The port (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Play computer players against each other and print a results table.
    ///
    /// Player A (`--engine`) plays against player B (`--vs`, the same setting by default),
    /// taking each side in turn. A setting is `random`, or an optional `mcts` or `alphabeta`
    /// followed by limits: `depth 4`, `time 0.1s`, `nodes 20000`. The first plies are random,
    /// from `--seed`, so that games differ; with depth or node limits the whole match is
    /// reproducible from its seed. Games longer than `--max-plies` count as draws.
    Selfplay {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        at: At,
        #[command(flatten)]
        m: Match,
    },
    /// Speak UCI on standard input and output, for chess GUIs and match runners.
    ///
    /// Without FILE the shipped games are the `UCI_Variant` values (chess, crazyhouse, loop,
    /// chessgi, ...); with FILE, its games and variants. `setoption name RulesFile value PATH`
    /// opens another rules file.
    Uci {
        /// A rules file whose games become the variants.
        file: Option<PathBuf>,
    },
    /// Speak the Hub protocol (version 2) on standard input and output, for draughts GUIs and
    /// pydraughts.
    ///
    /// Without FILE the shipped draughts games are the `variant` values (normal, frisian,
    /// russian, brazilian, english, ...); with FILE, its games and variants.
    Hub {
        /// A rules file whose games become the variants.
        file: Option<PathBuf>,
    },
    /// Replay a game record: print the final position and the result.
    ///
    /// The record may be zrf's own (`.game`), PGN (`.pgn`), PDN (`.pdn`) or a Zillions saved
    /// game (`.zsg`). Exits 1 when a move of the record is not legal (the message gives its
    /// number, or for a `.zsg` its line and the nearest legal moves) or the rules have errors,
    /// 2 when a file cannot be read. With `--check`, FILE is a folder: every record under it
    /// is replayed, one line each, and the exit code is 1 if any failed.
    Replay {
        /// The game record (a folder with `--check`).
        file: PathBuf,
        /// The number of the game to replay in a file of several (from 1).
        #[arg(long)]
        game: Option<usize>,
        /// The rules file: for a PGN or PDN record that names none (no `[Game]` tag; by
        /// default the shipped game its `[Variant]` or `[GameType]` names, looked for in
        /// games/), or instead of the one a `.zsg` record names.
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Replay every `.zsg` and `.game` record under the folder FILE.
        #[arg(long)]
        check: bool,
    },
}

/// Which variant and position.
#[derive(clap::Args)]
struct At {
    /// The variant: its title (any case) or its number.
    #[arg(long)]
    variant: Option<String>,
    /// The starting position: a FEN, a PDN FEN or zrf's native position text.
    #[arg(long)]
    setup: Option<String>,
    /// Moves to play first, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
}

/// Prints a line to stdout; a closed pipe (`zrf moves … | head`) ends the program quietly.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// The starter rules file of `zrf new`.
const NEW_GAME: &str = include_str!("templates/new-game.zrf");

fn new_game(name: &str) -> ExitCode {
    let base = name.trim_end_matches(".zrf");
    let path = PathBuf::from(format!("{base}.zrf"));
    let exists = || {
        eprintln!(
            "error: {} exists already; choose another name",
            fsio::shown(&path)
        );
        ExitCode::from(2)
    };
    if std::fs::symlink_metadata(&path).is_ok() {
        return exists();
    }
    let title = Path::new(base)
        .file_name()
        .map_or(base.to_string(), |n| n.to_string_lossy().into_owned());
    let text = NEW_GAME.replace("NAME", &title);
    match fsio::write_atomic(&path, text.as_bytes(), fsio::Existing::Keep) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return exists(),
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", fsio::shown(&path));
            return ExitCode::from(2);
        }
    }
    say!(
        "wrote {}; try `zrf check {0}` and `zrf play {0}`",
        path.display()
    );
    ExitCode::SUCCESS
}

/// Reads includes from the file system.
struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        fsio::read_file(Path::new(path)).ok()
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, Option<String>> {
        fsio::read_file(Path::new(path))
            .map_err(|e| (e.kind() != std::io::ErrorKind::NotFound).then(|| e.to_string()))
    }
}

fn color() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Reads a rules file or record; a failure is reported with its cause and exits 2 (a usage
/// error).
fn read(path: &Path) -> Result<Vec<u8>, ExitCode> {
    fsio::read_file(path).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", fsio::shown(path));
        ExitCode::from(2)
    })
}

fn check(file: &Path, variant: Option<&str>, list: bool, deny_warnings: bool) -> ExitCode {
    let bytes = match read(file) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let name = file.to_string_lossy();
    let loaded = zrf::load(&name, &bytes, &FsLoader);
    let mut diags = loaded.diags.clone();
    // Every variant is resolved for its diagnostics; only the one described is kept (a file
    // of many variants of a large game would otherwise hold all of them at once).
    let wanted = zrf::summary::select_variant(&loaded.games, variant).ok();
    let mut kept = None;
    for (i, game) in loaded.games.iter().enumerate() {
        let (def, more) = zrf::resolve_game(game);
        diags.extend(more);
        if Some(i) == wanted {
            kept = def;
        }
    }
    zrf::tidy(&loaded.map, &mut diags);
    let opts = RenderOptions { color: color() };
    if !diags.is_empty() {
        eprint!("{}", render(&loaded.map, &diags, opts));
    }
    if has_errors(&diags) {
        let n = diags.iter().filter(|d| d.is_error()).count();
        eprintln!("{name}: {n} error(s)");
        return ExitCode::from(1);
    }
    if deny_warnings && !diags.is_empty() {
        eprintln!(
            "{name}: {} warning(s), denied by --deny-warnings",
            diags.len()
        );
        return ExitCode::from(1);
    }
    if list {
        say!("{}", zrf::summary::variant_list(&loaded.games).trim_end());
        return ExitCode::SUCCESS;
    }
    match zrf::summary::select_variant(&loaded.games, variant) {
        Ok(_) => {}
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::from(2);
        }
    };
    if loaded.games.len() > 1 {
        say!("variants: {}", loaded.games.len());
        say!("{}", zrf::summary::variant_list(&loaded.games));
    }
    match kept {
        Some(def) => {
            let rules = zrf::engine::Rules::new(def);
            if let Some(cut) = zrf::summary::runaway(&rules) {
                eprintln!("warning: {name}: {}", cut.describe());
            }
            say!("{}", zrf::summary::describe_rules(&rules).trim_end());
            // The process ends next: freeing a large game's trees and programs one node at
            // a time would take a tenth of the run.
            std::mem::forget(rules);
            std::mem::forget(loaded);
        }
        None => return ExitCode::from(1),
    }
    ExitCode::SUCCESS
}

/// Loads a file and resolves one variant, printing diagnostics; `Err` carries the exit code.
fn load_rules(file: &Path, variant: Option<&str>) -> Result<zrf::engine::Rules, ExitCode> {
    let bytes = read(file)?;
    let name = file.to_string_lossy();
    let loaded = zrf::load(&name, &bytes, &FsLoader);
    let idx = zrf::summary::select_variant(&loaded.games, variant).map_err(|msg| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    })?;
    let (def, mut diags) = zrf::resolve_game(&loaded.games[idx]);
    diags.extend(loaded.diags.iter().cloned());
    zrf::tidy(&loaded.map, &mut diags);
    if has_errors(&diags) {
        eprint!(
            "{}",
            render(&loaded.map, &diags, RenderOptions { color: color() })
        );
        return Err(ExitCode::from(1));
    }
    def.map(zrf::engine::Rules::new).ok_or(ExitCode::from(1))
}

/// Loads the rules, sets up the position and plays the given moves.
fn prepare(file: &Path, at: &At) -> Result<zrf::play::Game, ExitCode> {
    let rules = load_rules(file, at.variant.as_deref())?;
    let pos = match &at.setup {
        Some(text) => zrf::setup::parse(&rules, text).map_err(|e| {
            eprintln!("error: bad --setup: {}", zrf::repl::printable(&e));
            ExitCode::from(2)
        })?,
        None => rules.initial(),
    };
    let mut game = zrf::play::Game::new(rules, pos);
    for (k, mv) in at
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .enumerate()
    {
        if let Err(e) = game.play(mv) {
            let msg = format!("move {} `{mv}`: {e}", k + 1);
            eprintln!("error: {}", zrf::repl::printable_lines(&msg));
            return Err(ExitCode::from(1));
        }
    }
    Ok(game)
}

fn moves(file: &Path, at: &At, print_position: bool, san: bool) -> ExitCode {
    let mut game = match prepare(file, at) {
        Ok(g) => g,
        Err(code) => return code,
    };
    if print_position {
        say!("{}", zrf::setup::native(&game.rules, &game.pos));
    }
    match game.outcome() {
        Some(o) => say!("result: {}", o.describe(&game.rules.def)),
        None if san => match game.legal_sans() {
            Some(texts) => {
                for text in texts {
                    say!("{text}");
                }
            }
            None => {
                eprintln!("error: {}", zrf::san::NOT_APPLICABLE);
                return ExitCode::from(2);
            }
        },
        None => {
            for text in game.legal_texts() {
                say!("{text}");
            }
        }
    }
    ExitCode::SUCCESS
}

fn moves_batch(file: &Path, at: &At) -> ExitCode {
    let rules = match load_rules(file, at.variant.as_deref()) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut list = zrf::engine::MoveList::new();
    let mut stdin = std::io::stdin().lock();
    loop {
        let line = match fsio::read_line(&mut stdin) {
            Ok(Some(fsio::Line::Text(t))) => t,
            Ok(Some(fsio::Line::NotUtf8)) => {
                say!("error: the line is not UTF-8 text");
                continue;
            }
            Ok(Some(fsio::Line::TooLong)) => {
                say!(
                    "error: the line is longer than {} KiB",
                    fsio::MAX_LINE_BYTES >> 10
                );
                continue;
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("error: cannot read standard input: {e}");
                return ExitCode::from(2);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        // `moves M1 M2 ...` replays moves from the start; anything else is a position.
        if let Some(played) = line.strip_prefix("moves") {
            let mut pos = rules.initial();
            let mut log = zrf::engine::UndoLog::new();
            let mut bad = None;
            for mv in played.split_whitespace() {
                rules.legal_moves(&mut pos, &mut list);
                match zrf::notation::parse_move(&rules.def, &list, mv) {
                    Ok(i) => {
                        let m = list.moves[i];
                        rules.make(&mut pos, &list, &m, &mut log);
                    }
                    Err(e) => {
                        let msg = format!("error: `{mv}`: {e}");
                        bad = Some(zrf::repl::printable(&msg).into_owned());
                        break;
                    }
                }
            }
            match bad {
                Some(msg) => say!("{msg}"),
                None => {
                    rules.legal_moves(&mut pos, &mut list);
                    say!("{}", zrf::notation::move_texts(&rules.def, &list).join(" "));
                }
            }
            continue;
        }
        match zrf::setup::parse(&rules, &line) {
            Ok(mut pos) => {
                rules.legal_moves(&mut pos, &mut list);
                say!("{}", zrf::notation::move_texts(&rules.def, &list).join(" "));
            }
            Err(e) => say!("error: {}", zrf::repl::printable(&e)),
        }
    }
    ExitCode::SUCCESS
}

fn perft(
    file: &Path,
    depth: u32,
    at: &At,
    divide: bool,
    only: bool,
    opts: zrf::engine::PerftOptions,
) -> ExitCode {
    let mut game = match prepare(file, at) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let start = std::time::Instant::now();
    let mut total = 0;
    let first = if only { depth.max(1) } else { 1 };
    for d in first..=depth {
        let n = game.rules.perft_with(&mut game.pos, d, opts);
        total += n;
        say!("{d} {n}");
    }
    if divide && depth > 0 {
        let mut list = zrf::engine::MoveList::new();
        game.rules.legal_moves(&mut game.pos, &mut list);
        if opts.unique {
            zrf::engine::unique_captures(&mut list);
        }
        let texts = zrf::notation::move_texts(&game.rules.def, &list);
        let mut log = zrf::engine::UndoLog::new();
        for (i, text) in texts.iter().enumerate() {
            let m = list.moves[i];
            game.rules.make(&mut game.pos, &list, &m, &mut log);
            let n = game.rules.perft_with(&mut game.pos, depth - 1, opts);
            zrf::engine::revert(&mut game.pos, &mut log);
            say!("{text} {n}");
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {secs:.3} s, {:.0} nodes/s",
        total as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

/// Files for the play session, from the file system.
struct FsFiles;

impl zrf::repl::Files for FsFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        fsio::read_file(Path::new(path)).map_err(|e| e.to_string())
    }

    fn read_if_exists(&self, path: &str) -> Result<Vec<u8>, Option<String>> {
        fsio::read_file(Path::new(path))
            .map_err(|e| (e.kind() != std::io::ErrorKind::NotFound).then(|| e.to_string()))
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
fn is_record(file: &Path) -> bool {
    file.extension().is_some_and(|e| {
        ["game", "pgn", "pdn", "zsg"]
            .iter()
            .any(|r| e.eq_ignore_ascii_case(r))
    })
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
struct PlayOptions<'a> {
    variant: Option<&'a str>,
    setup: Option<&'a str>,
    moves: Option<&'a str>,
    keep_going: bool,
}

fn play(file: &Path, o: &PlayOptions) -> ExitCode {
    let (variant, setup) = (o.variant, o.setup);
    let session = if is_record(file) && variant.is_none() && setup.is_none() {
        open_record(file, None, None).map(|(s, _)| s)
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
            eprint!("{}", out.text.replace("error: ", "error: --moves: "));
            return ExitCode::from(1);
        }
    }
    if readline::run(session, &FsFiles, o.keep_going) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn replay(file: &Path, n: Option<usize>, rules: Option<&Path>) -> ExitCode {
    let (mut session, rec) = match open_record(file, n, rules) {
        Ok(s) => s,
        Err(code) => return code,
    };
    say!("{}", session.show().trim_end());
    let result = session.result();
    say!(
        "result: {}",
        result.as_deref().unwrap_or("* (the game is not over)")
    );
    if let Some(said) = rec.get("Result") {
        let format = zrf::repl::records::Format::of(&file.to_string_lossy());
        let got = session.result_token(format);
        if said != got {
            eprintln!("warning: the record says the result is `{said}`; its moves give `{got}`");
        }
    }
    ExitCode::SUCCESS
}

/// `zrf replay --check DIR`: every `.zsg` and `.game` record under a folder, in name order,
/// one line each, then the totals.
fn replay_check(dir: &Path) -> ExitCode {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> std::io::Result<()> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() && depth < 64 {
                walk(&p, out, depth + 1)?;
            } else if is_record(&p) {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut records = Vec::new();
    if let Err(e) = walk(dir, &mut records, 0) {
        eprintln!("error: cannot read the folder {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let mut failed = 0;
    for file in &records {
        let text = match std::fs::read(file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                failed += 1;
                say!("FAIL {}: cannot read it: {e}", file.display());
                continue;
            }
        };
        let path = file.to_string_lossy();
        match zrf::repl::Session::from_record(&text, &path, &FsFiles) {
            Ok(mut s) => {
                let n = s.game().played.len();
                let result = s.result().unwrap_or_else(|| "*".into());
                say!("ok   {path}: {n} moves, {result}");
            }
            Err(e) => {
                failed += 1;
                let msg = e.to_string();
                let first = msg.lines().next().unwrap_or_default();
                let first = first.strip_prefix(&format!("{path}: ")).unwrap_or(first);
                say!("FAIL {path}: {first}");
            }
        }
    }
    say!(
        "{} records: {} ok, {failed} failed",
        records.len(),
        records.len() - failed
    );
    ExitCode::from(u8::from(failed > 0))
}

/// The settings of `zrf selfplay`.
#[derive(clap::Args)]
struct Match {
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Time per move of a setting that names no limit.
    #[arg(long, default_value = "0.1s")]
    time: String,
    /// Player A's setting, e.g. `mcts`, `depth 4`, `alphabeta time 1s`, `time 1s opponent best`
    /// (an engine facing `random` assumes random replies unless told `opponent best`).
    #[arg(long, default_value = "")]
    engine: String,
    /// Player B's setting (default: the same as A), e.g. `random` or `depth 2`.
    #[arg(long)]
    vs: Option<String>,
    /// Seed of the random opening plies and of the random mover.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of random plies at the start of each game.
    #[arg(long, default_value_t = 2)]
    random_plies: usize,
    /// Games still going after this many plies count as draws.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Print one line per game (moves and result).
    #[arg(long)]
    verbose: bool,
}

fn selfplay(file: &Path, at: &At, m: &Match) -> ExitCode {
    use zrf::arena::{self, Contestant, Tally};
    let game = match prepare(file, at) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let settings = (|| -> Result<(Contestant, Contestant), String> {
        let time = arena::parse_duration(&m.time)?;
        let vs = m.vs.as_deref().unwrap_or(&m.engine);
        let a = Contestant::parse(&m.engine, time, arena::names_random(vs))?;
        let b = Contestant::parse(vs, time, arena::names_random(&m.engine))?;
        Ok((a, b))
    })();
    let (a, b) = match settings {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let rules = &game.rules;
    let n = rules.def.players.len();
    let seat_names: Vec<String> = rules.def.players.iter().map(|p| p.name.clone()).collect();
    let bar = indicatif::ProgressBar::new(u64::from(m.games));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games, {elapsed} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut tally = Tally::new(n);
    for g in 0..m.games {
        let seat_a = (g as usize) % n;
        let seats: Vec<&Contestant> = (0..n).map(|s| if s == seat_a { &a } else { &b }).collect();
        // Building an engine derives the evaluation (up to a second on big boards): the random
        // mover needs none.
        let any_engine = seats.iter().any(|c| matches!(c, Contestant::Engine(_)));
        let mut engines: Vec<zrf::ai::Engine> = if any_engine {
            (0..n).map(|_| zrf::ai::Engine::new(rules)).collect()
        } else {
            Vec::new()
        };
        let how = arena::Pairing {
            seats,
            seed: m.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(g)),
            random_plies: m.random_plies,
            max_plies: m.max_plies,
        };
        let r = arena::play_game(rules, &game.pos, &how, &mut engines, &stop);
        let seat = zrf::def::PlayerId(seat_a as u8);
        tally.add(seat, &r, n);
        if m.verbose {
            let result = match &r.outcome {
                Some(o) => o.describe(&rules.def),
                None => "stopped at the ply limit".into(),
            };
            bar.suspend(|| {
                say!(
                    "game {} (A {}): {} [{}]",
                    g + 1,
                    seat_names[seat_a],
                    r.moves.join(" "),
                    result
                )
            });
        }
        let t = tally.total();
        bar.set_message(format!("A +{} ={} -{}", t.wins, t.draws, t.losses));
        bar.inc(1);
    }
    bar.finish_and_clear();
    say!("{}", rules.def.title);
    say!(
        "{}",
        tally.table(&a.label(), &b.label(), &seat_names).trim_end()
    );
    ExitCode::SUCCESS
}

enum Protocol {
    Uci,
    Hub,
}

/// Runs an engine protocol: each line of standard input goes to the protocol, whose answers
/// (also those of a search running meanwhile) are printed and flushed line by line.
fn engine_protocol(which: Protocol, file: Option<&Path>) -> ExitCode {
    use std::io::{BufRead, Read, Write};
    let out: zrf::protocol::Out = std::sync::Arc::new(|line: &str| {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    });
    let loader: zrf::protocol::SharedLoader = std::sync::Arc::new(FsLoader);
    let file = file.map(|f| f.to_string_lossy().into_owned());
    let mut handle: Box<dyn FnMut(&str) -> bool> = match which {
        Protocol::Uci => {
            let mut p = zrf::protocol::uci::Uci::new(out, loader, file.as_deref());
            Box::new(move |l| p.handle(l))
        }
        Protocol::Hub => {
            let mut p = zrf::protocol::hub::Hub::new(out, loader, file.as_deref());
            Box::new(move |l| p.handle(l))
        }
    };
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // One line at a time, never more than the protocol's limit in memory.
        let limit = zrf::protocol::uci::MAX_LINE as u64 + 1;
        match std::io::Read::by_ref(&mut input)
            .take(limit)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.len() as u64 >= limit && buf.last() != Some(&b'\n') {
            // Skip the rest of an overlong line.
            let mut sink = Vec::new();
            let _ = input.read_until(b'\n', &mut sink);
        }
        let line = String::from_utf8_lossy(&buf);
        if !handle(line.trim_end_matches(['\n', '\r'])) {
            return ExitCode::SUCCESS;
        }
    }
    // End of input: stop like `quit`.
    handle("quit");
    ExitCode::SUCCESS
}

/// `zrf FILE` means `zrf play FILE`: a first argument that names a file, not a subcommand.
fn args() -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(first) = args.get(1) {
        let s = first.to_string_lossy();
        let sub = [
            "check", "moves", "perft", "play", "replay", "selfplay", "test", "new", "help", "uci",
            "hub",
        ];
        let path = Path::new(first);
        let looks_like_file = path.is_file()
            || path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("zrf") || is_record(path));
        if !s.starts_with('-') && !sub.contains(&s.as_ref()) && looks_like_file {
            args.insert(1, "play".into());
        }
    }
    args
}

fn run() -> ExitCode {
    let cli = Cli::parse_from(args());
    match cli.command {
        Command::New { name } => new_game(&name),
        Command::Test {
            files,
            accept,
            review,
            deny_warnings,
        } => {
            let mode = if accept {
                test_command::Mode::Accept
            } else if review {
                test_command::Mode::Review
            } else {
                test_command::Mode::Check
            };
            test_command::run(&files, mode, deny_warnings, color())
        }
        Command::Check {
            file,
            variant,
            list_variants,
            deny_warnings,
        } => check(&file, variant.as_deref(), list_variants, deny_warnings),
        Command::Moves {
            file,
            at,
            stdin: true,
            ..
        } => moves_batch(&file, &at),
        Command::Moves {
            file,
            at,
            print_position,
            san,
            ..
        } => moves(&file, &at, print_position, san),
        Command::Perft {
            file,
            depth,
            at,
            divide,
            unique,
            bulk,
            only,
        } => perft(
            &file,
            depth,
            &at,
            divide,
            only,
            zrf::engine::PerftOptions { unique, bulk },
        ),
        Command::Play {
            file,
            variant,
            setup,
            moves,
            keep_going,
        } => play(
            &file,
            &PlayOptions {
                variant: variant.as_deref(),
                setup: setup.as_deref(),
                moves: moves.as_deref(),
                keep_going,
            },
        ),
        Command::Replay {
            file,
            game,
            rules,
            check,
        } => match check {
            true => replay_check(&file),
            false => replay(&file, game, rules.as_deref()),
        },
        Command::Uci { file } => engine_protocol(Protocol::Uci, file.as_deref()),
        Command::Hub { file } => engine_protocol(Protocol::Hub, file.as_deref()),
        Command::Serve {
            file,
            variant,
            port,
            host,
            open,
        } => serve::run(&file, variant.as_deref(), &host, port, open),
        Command::Selfplay { file, at, m } => selfplay(&file, &at, &m),
    }
}

fn main() -> ExitCode {
    // Rules files can nest deeply; give every stage a roomy stack.
    let child = std::thread::Builder::new().stack_size(256 << 20).spawn(run);
    match child.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(101),
    }
}
