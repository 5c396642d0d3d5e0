//! zrf: an open interpreter for Zillions-of-Games rules files.
//!
//! The pipeline: [`syntax::parse_file`] reads text into S-expressions, [`expand::expand`]
//! replaces includes and macros, [`expand::assemble`] builds each game and variant, and
//! `resolve` turns one of them into a [`def::GameDef`] where every name is an id.
//!
//! The front ends (the `zrf` binary, the Python package, editors) use [`load`],
//! [`check_source`] and [`resolve_game`], then [`engine::Rules`] and [`play::Game`] to play,
//! [`repl::Session`] for typed commands, [`records`], [`protocol`], [`ai`] and [`view`]. The
//! library does no I/O: files come in through [`expand::Loader`] and [`repl::Files`]. The
//! stages behind [`resolve_game`] (`resolve`, `suggest`) are public only with the feature
//! `internals`, which the crate's own tests turn on.
#![deny(missing_docs)]

pub mod actions;
pub mod ai;
pub mod arena;
pub mod corpus;
pub mod def;
pub mod diagnostic;
pub mod engine;
pub mod expand;
pub mod format;
pub mod keywords;
pub mod names;
pub mod notation;
pub mod play;
pub mod protocol;
pub mod records;
pub mod repl;
#[cfg(feature = "internals")]
pub mod resolve;
#[cfg(not(feature = "internals"))]
pub(crate) mod resolve;
pub mod san;
pub mod setup;
pub mod shipped;
pub mod source;
pub mod stdlib;
#[cfg(feature = "internals")]
pub mod suggest;
#[cfg(not(feature = "internals"))]
pub(crate) mod suggest;
pub mod summary;
pub mod syntax;
pub mod testing;
pub mod view;

use diagnostic::Diagnostic;
use expand::{GameSource, Loader};
use source::{FileId, SourceMap};

/// A rules file after expansion: its games and variants, not yet resolved.
#[derive(Debug)]
pub struct Loaded {
    /// Every file read (for rendering diagnostics).
    pub map: SourceMap,
    /// The root file.
    pub root: FileId,
    /// Games and variants in file order (menu separators left out).
    pub games: Vec<GameSource>,
    /// Diagnostics of reading and expansion.
    pub diags: Vec<Diagnostic>,
}

/// Reads, expands and assembles a rules file given as bytes; `loader` supplies includes.
pub fn load(name: &str, bytes: &[u8], loader: &dyn Loader) -> Loaded {
    let mut map = SourceMap::new();
    let root = map.add_bytes(name, bytes);
    let (top, mut diags) = expand::expand(&mut map, root, loader);
    let (games, more) = expand::assemble(top);
    diags.extend(more);
    // A file too large to read or expand is already reported; its games may lie past the stop.
    let too_large = diags
        .iter()
        .any(|d| d.code.is_some_and(diagnostic::Code::stopped_reading));
    if games.is_empty() && !too_large {
        let d = Diagnostic::error(source::Span::new(root, 0, 0), "the file defines no game")
            .with_code(diagnostic::Code::NoGame)
            .with_label("expected a `(game ...)` form")
            .with_note("a file of macros only is meant to be included by a game file");
        diags.push(d);
    }
    Loaded {
        map,
        root,
        games,
        diags,
    }
}

/// Runs every stage on a file and every one of its variants, returning all diagnostics.
///
/// This is what `zrf check` and the robustness tests call; it never panics.
pub fn check_source(name: &str, bytes: &[u8], loader: &dyn Loader) -> (SourceMap, Vec<Diagnostic>) {
    let loaded = load(name, bytes, loader);
    let mut diags = loaded.diags;
    for game in &loaded.games {
        diags.extend(resolve_game(game).1);
    }
    tidy(&loaded.map, &mut diags);
    (loaded.map, diags)
}

/// Resolves one game or variant; a variant's diagnostics name the variant.
pub fn resolve_game(game: &GameSource) -> (Option<def::GameDef>, Vec<Diagnostic>) {
    let (def, mut diags) = resolve::resolve(game);
    if game.is_variant {
        for d in &mut diags {
            d.notes
                .push(format!("while resolving the variant \"{}\"", game.title));
        }
    }
    (def, diags)
}

/// Drops repeats and sorts by place in the file, errors about unbalanced parentheses first.
///
/// Variants share most forms with their game, so the same problem would otherwise be
/// reported once per variant; the first report (the game's, if the game has it) is kept.
/// A missing or extra `)` changes the meaning of everything after it, so it comes first.
pub fn tidy(map: &SourceMap, diags: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    diags.retain(|d| seen.insert((d.primary.span, d.message.clone())));
    diags.sort_by_key(|d| {
        let site = map.use_site(d.primary.span);
        (!syntax::is_delimiter_error(d), site.file, site.lo)
    });
    if diags.len() > MAX_DIAGNOSTICS {
        let hidden = diags.len() - MAX_DIAGNOSTICS;
        let errors = diags[MAX_DIAGNOSTICS..]
            .iter()
            .filter(|d| d.is_error())
            .count();
        let last = diags[MAX_DIAGNOSTICS - 1].primary.span;
        diags.truncate(MAX_DIAGNOSTICS);
        let mut d = Diagnostic::warning(last, format!("{hidden} more diagnostics are not shown"));
        if errors > 0 {
            d.severity = diagnostic::Severity::Error;
            d.message = format!("{hidden} more diagnostics ({errors} errors) are not shown");
        }
        diags.push(
            d.with_label("the last one shown")
                .with_code(diagnostic::Code::TooManyDiagnostics),
        );
    }
}

/// The most diagnostics reported for one file; the rest are counted, not shown.
pub const MAX_DIAGNOSTICS: usize = 200;
