//! The specialised trees (`engine/special/`) must not change a single move: every shipped
//! game (all variants) and a sample of the Dagaz corpus play seeded random games, and at every
//! ply the legal moves with specialisation on and off must be identical, op for op.

use std::path::{Path, PathBuf};

use zrf::engine::{MoveList, Rules, UndoLog};
mod common;

use common::FsLoader;
use common::Rng;

/// Plays `games` random games of at most `plies` plies with the specialised rules, comparing
/// the legal moves of both at every ply; returns the number of positions compared.
fn compare(name: &str, special: &Rules, plain: &Rules, games: usize, plies: usize) -> usize {
    let mut compared = 0;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ name.len() as u64);
    for game in 0..games {
        let mut pos = special.initial();
        let mut log = UndoLog::new();
        for ply in 0..plies {
            let mut a = MoveList::new();
            let mut b = MoveList::new();
            special.legal_moves(&mut pos.clone(), &mut a);
            plain.legal_moves(&mut pos.clone(), &mut b);
            let at = format!("{name}, game {game}, ply {ply}");
            assert_eq!(a.moves, b.moves, "{at}: move headers differ");
            assert_eq!(a.ops, b.ops, "{at}: ops differ");
            assert_eq!(a.squares, b.squares, "{at}: paths or captures differ");
            assert_eq!(a.cut, b.cut, "{at}: limits differ");
            compared += 1;
            if a.moves.is_empty() {
                break;
            }
            let m = a.moves[rng.below(a.moves.len())];
            special.make(&mut pos, &a, &m, &mut log);
        }
    }
    compared
}

/// Compares every variant of a rules file; returns the positions compared.
fn compare_file(path: &Path, games: usize, plies: usize, all_variants: bool) -> usize {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.to_string_lossy();
    let loaded = zrf::load(&name, &bytes, &FsLoader);
    let mut compared = 0;
    let n = if all_variants {
        loaded.games.len()
    } else {
        loaded.games.len().min(1)
    };
    for (i, game) in loaded.games.iter().take(n).enumerate() {
        let (def, _) = zrf::resolve_game(game);
        let Some(def) = def else { continue };
        let special = Rules::new(def.clone());
        let mut plain = Rules::new(def);
        plain.set_specialised(false);
        compared += compare(&format!("{name} #{i}"), &special, &plain, games, plies);
    }
    compared
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

#[test]
fn shipped_games_move_alike_with_and_without_specialisation() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("games"))
        .expect("games folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "zrf"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut compared = 0;
    for f in &files {
        compared += compare_file(f, 2, 40, true);
    }
    assert!(compared > 1000, "{compared} positions compared");
}

#[test]
fn corpus_sample_moves_alike_with_and_without_specialisation() {
    let list = std::fs::read_to_string(root().join("tests/corpus/loads.txt")).expect("loads.txt");
    let dir = root().join("tests/corpus/dagaz");
    let files: Vec<&str> = list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    assert!(files.len() > 300);
    let mut compared = 0;
    // Every eighth file: about fifty games of every family (checkers, chess, shogi, go, ...).
    for f in files.iter().step_by(8) {
        compared += compare_file(&dir.join(f), 1, 30, false);
    }
    assert!(compared > 800, "{compared} positions compared");
}
