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

use anyhow::anyhow;
use clap::{Parser, Subcommand};
use zrf::expand::Loader;

use play::{is_record, play, replay, replay_check, PlayOptions};
use protocol::{engine_protocol, Protocol};
use rules::{check, check_dir, moves, moves_batch, perft};
use selfplay::{selfplay, Match};

mod fsio;
/// `zrf lsp`: binary side too (it reads files and talks over stdin and stdout).
mod lsp;
mod readline;
mod serve;
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
        /// The work budget of each case: the positions whose moves its perft counts may
        /// generate, in all; a case that would go past it fails.
        #[arg(long, value_name = "N", default_value_t = zrf::testing::MAX_NODES)]
        max_nodes: u64,
    },
    /// Load a rules file, report every error and warning, and summarise the game.
    ///
    /// With `--folder`, FILE is a folder: every `.zrf` file under it is checked, one line
    /// each, and the exit code is 1 if any has errors.
    Check {
        /// The rules file (a folder with `--folder`).
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
        /// Check every `.zrf` file under the folder FILE, one line each.
        #[arg(long)]
        folder: bool,
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
        /// The rules file of a game record FILE that names none (as `zrf replay --rules`).
        #[arg(long)]
        rules: Option<PathBuf>,
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
    /// Rewrite rules files in the canonical layout (indentation by form, comments kept).
    ///
    /// Only the white space between tokens changes, so the game is the same. With `--check`
    /// nothing is written: the files that would change are listed and the exit code is 1.
    Fmt {
        /// Rules files or `.tests` files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write nothing; exit 1 when a file is not formatted (for continuous integration).
        #[arg(long)]
        check: bool,
    },
    /// Serve the Language Server Protocol on standard input and output, for editors.
    ///
    /// Diagnostics as you type, go to definition, references, hover, completion, symbols,
    /// rename, highlighting, formatting and perft lenses for `.zrf` and `.tests` files
    /// (docs/editors.md).
    Lsp,
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

/// Prints a line to stdout, with control characters (from rules files and records) escaped;
/// a closed pipe (`zrf moves … | head`) ends the program quietly.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let text = format!($($arg)*);
        let text = zrf::repl::terminal_text(&text, false);
        if writeln!(std::io::stdout().lock(), "{text}").is_err() {
            std::process::exit(0);
        }
    }};
}

mod fmt;
mod folders;
mod play;
mod protocol;
mod rules;
mod selfplay;

/// The starter rules file of `zrf new`.
const NEW_GAME: &str = include_str!("templates/new-game.zrf");

/// Why `zrf new` refuses a game name, if it does: the name becomes the file name in the
/// current folder and the title string of the rules file, so it must make a visible file there
/// and a string that loads.
fn bad_new_name(base: &str) -> Option<&'static str> {
    if base.trim().is_empty() {
        Some("the name is empty")
    } else if base.contains(['/', '\\']) {
        Some("the name holds a path separator; `zrf new` writes NAME.zrf in the current folder")
    } else if base.starts_with('.') {
        Some("a name that starts with `.` would make a hidden file")
    } else if base.contains('"') {
        Some("a name may not hold `\"`, which would end the title's string in the rules file")
    } else if base.chars().any(char::is_control) {
        Some("a name may not hold control characters (a newline, a tab, an escape)")
    } else {
        None
    }
}

/// Writes NAME.zrf from the starter template; refuses a bad name or an existing file.
fn new_game(name: &str) -> anyhow::Result<()> {
    let base = name.strip_suffix(".zrf").unwrap_or(name);
    if let Some(why) = bad_new_name(base) {
        anyhow::bail!(
            "cannot make a game called \"{}\": {why}",
            zrf::repl::printable(name)
        );
    }
    let path = PathBuf::from(format!("{base}.zrf"));
    let exists = || anyhow!("{} exists already; choose another name", fsio::shown(&path));
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(exists());
    }
    let title = Path::new(base)
        .file_name()
        .map_or(base.to_string(), |n| n.to_string_lossy().into_owned());
    let text = NEW_GAME.replace("NAME", &title);
    match fsio::write_atomic(&path, text.as_bytes(), fsio::Existing::Keep) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(exists()),
        Err(e) => {
            return Err(
                anyhow::Error::new(e).context(format!("cannot write {}", fsio::shown(&path)))
            )
        }
    }
    say!(
        "wrote {}; try `zrf check {0}` and `zrf play {0}`",
        path.display()
    );
    Ok(())
}

/// The end of a command whose failures are the user's to fix (a name refused, a file that
/// cannot be written): the error with its causes, exit 2.
fn usage_error(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Reads includes from the file system.
struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        fsio::read_file(Path::new(path)).ok()
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, zrf::expand::ReadError> {
        Ok(fsio::read_file(Path::new(path))?)
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

/// `zrf FILE` means `zrf play FILE`: a first argument that names a file, not a subcommand.
fn args() -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(first) = args.get(1) {
        let s = first.to_string_lossy();
        let sub = [
            "check", "moves", "perft", "play", "replay", "selfplay", "test", "new", "help", "uci",
            "hub", "fmt", "lsp",
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
        Command::New { name } => usage_error(new_game(&name)),
        Command::Test {
            files,
            accept,
            review,
            deny_warnings,
            max_nodes,
        } => {
            let mode = if accept {
                test_command::Mode::Accept
            } else if review {
                test_command::Mode::Review
            } else {
                test_command::Mode::Check
            };
            test_command::run(&files, mode, deny_warnings, color(), max_nodes)
        }
        Command::Check { file, folder, .. } if folder => check_dir(&file),
        Command::Check {
            file,
            variant,
            list_variants,
            deny_warnings,
            ..
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
            rules,
        } => play(
            &file,
            &PlayOptions {
                rules: rules.as_deref(),
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
        Command::Fmt { files, check } => fmt::fmt(&files, check),
        Command::Lsp => lsp::run(),
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
