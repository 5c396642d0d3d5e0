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
    /// Count the leaf nodes of the move tree to a depth (every leaf move is made).
    Perft {
        /// The rules file.
        file: PathBuf,
        /// The depth.
        depth: u32,
        /// The variant: its title (any case) or its number.
        #[arg(long)]
        variant: Option<String>,
    },
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

fn read(path: &Path) -> Result<Vec<u8>, ExitCode> {
    std::fs::read(path).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.display());
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
        print!("{}", zrf::summary::variant_list(&loaded.games));
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
        println!("variants: {}", loaded.games.len());
        print!("{}", zrf::summary::variant_list(&loaded.games));
        println!();
    }
    match &defs[idx] {
        Some(def) => print!("{}", zrf::summary::describe(def)),
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

fn perft(file: &Path, depth: u32, variant: Option<&str>) -> ExitCode {
    let rules = match load_rules(file, variant) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut pos = rules.initial();
    let start = std::time::Instant::now();
    let mut total = 0;
    for d in 1..=depth {
        let n = rules.perft(&mut pos, d);
        total += n;
        println!("{d} {n}");
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
        Command::Perft {
            file,
            depth,
            variant,
        } => perft(&file, depth, variant.as_deref()),
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
