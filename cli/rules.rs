//! The subcommands that load one rules file and print what it gives: `check` (diagnostics
//! and a summary), `moves` (the legal moves, also from positions read on standard input) and
//! `perft`.

use std::path::Path;
use std::process::ExitCode;

use zrf::diagnostic::{has_errors, render, RenderOptions};

use crate::{color, fsio, read, At, FsLoader};

pub(crate) fn check(
    file: &Path,
    variant: Option<&str>,
    list: bool,
    deny_warnings: bool,
) -> ExitCode {
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
            eprintln!("error: {}", zrf::repl::printable_lines(&msg.to_string()));
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
            if let Some(why) = zrf::summary::stuck_at_start(&rules) {
                eprintln!("warning: {name}: the start position: {why}");
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

/// `zrf check --folder DIR`: every rules file under a folder, in name order, one line each
/// (`zrf::corpus::check_rules`), then the totals; exit 1 if any has errors.
pub(crate) fn check_dir(dir: &Path) -> ExitCode {
    crate::folders::check_folder(dir, zrf::corpus::is_rules, "files", &|file, bytes| {
        zrf::corpus::check_rules(&file.to_string_lossy(), &bytes, &FsLoader)
    })
}

/// Loads a file and resolves one variant, printing diagnostics; `Err` carries the exit code.
fn load_rules(file: &Path, variant: Option<&str>) -> Result<zrf::engine::Rules, ExitCode> {
    let bytes = read(file)?;
    let name = file.to_string_lossy();
    let loaded = zrf::load(&name, &bytes, &FsLoader);
    let idx = zrf::summary::select_variant(&loaded.games, variant).map_err(|msg| {
        eprintln!("error: {}", zrf::repl::printable_lines(&msg.to_string()));
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
pub(crate) fn prepare(file: &Path, at: &At) -> Result<zrf::play::Game, ExitCode> {
    let rules = load_rules(file, at.variant.as_deref())?;
    let pos = match &at.setup {
        Some(text) => zrf::setup::parse(&rules, text).map_err(|e| {
            eprintln!(
                "error: bad --setup: {}",
                zrf::repl::printable(&e.to_string())
            );
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

pub(crate) fn moves(file: &Path, at: &At, print_position: bool, san: bool) -> ExitCode {
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

pub(crate) fn moves_batch(file: &Path, at: &At) -> ExitCode {
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
        // A byte-order mark (a file saved on Windows, piped in) is not part of the first line.
        let line = zrf::records::strip_bom(&line).to_string();
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
            Err(e) => say!("error: {}", zrf::repl::printable(&e.to_string())),
        }
    }
    ExitCode::SUCCESS
}

pub(crate) fn perft(
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
