//! The `zrf` command line: the only place that reads files and prints.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use zrf::diagnostic::{has_errors, render, RenderOptions};
use zrf::expand::Loader;

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

/// Reads includes from the file system.
struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

fn color() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Reads a rules file; a failure is reported with its cause and exits 2 (a usage error).
fn read(path: &Path) -> Result<Vec<u8>, ExitCode> {
    use anyhow::Context;
    std::fs::read(path)
        .with_context(|| format!("cannot read {}", path.display()))
        .map_err(|e| {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        })
}

fn check(file: &Path, variant: Option<&str>, list: bool) -> ExitCode {
    let bytes = match read(file) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let name = file.to_string_lossy();
    let loaded = zrf::load(&name, &bytes, &FsLoader);
    let mut diags = loaded.diags.clone();
    let mut defs = Vec::new();
    for game in &loaded.games {
        let (def, more) = zrf::resolve_game(game);
        diags.extend(more);
        defs.push(def);
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
    if list {
        say!("{}", zrf::summary::variant_list(&loaded.games).trim_end());
        return ExitCode::SUCCESS;
    }
    let idx = match zrf::summary::select_variant(&loaded.games, variant) {
        Ok(i) => i,
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::from(2);
        }
    };
    if loaded.games.len() > 1 {
        say!("variants: {}", loaded.games.len());
        say!("{}", zrf::summary::variant_list(&loaded.games));
    }
    match &defs[idx] {
        Some(def) => say!("{}", zrf::summary::describe(def).trim_end()),
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
            eprintln!("error: bad --setup: {e}");
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
            eprintln!("error: move {} `{mv}`: {e}", k + 1);
            return Err(ExitCode::from(1));
        }
    }
    Ok(game)
}

fn moves(file: &Path, at: &At, print_position: bool) -> ExitCode {
    let mut game = match prepare(file, at) {
        Ok(g) => g,
        Err(code) => return code,
    };
    if print_position {
        say!("{}", zrf::setup::native(&game.rules, &game.pos));
    }
    match game.outcome() {
        Some(o) => say!("result: {}", o.describe(&game.rules.def)),
        None => {
            for text in game.legal_texts() {
                say!("{text}");
            }
        }
    }
    ExitCode::SUCCESS
}

fn moves_batch(file: &Path, at: &At) -> ExitCode {
    use std::io::BufRead;
    let rules = match load_rules(file, at.variant.as_deref()) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut list = zrf::engine::MoveList::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
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
                        bad = Some(format!("error: `{mv}`: {e}"));
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
            Err(e) => say!("error: {e}"),
        }
    }
    ExitCode::SUCCESS
}

fn perft(
    file: &Path,
    depth: u32,
    at: &At,
    divide: bool,
    opts: zrf::engine::PerftOptions,
) -> ExitCode {
    let mut game = match prepare(file, at) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let start = std::time::Instant::now();
    let mut total = 0;
    for d in 1..=depth {
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

fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            file,
            variant,
            list_variants,
        } => check(&file, variant.as_deref(), list_variants),
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
            ..
        } => moves(&file, &at, print_position),
        Command::Perft {
            file,
            depth,
            at,
            divide,
            unique,
            bulk,
        } => perft(
            &file,
            depth,
            &at,
            divide,
            zrf::engine::PerftOptions { unique, bulk },
        ),
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
