//! A game steps without text (`Game::play_index`) and makes the texts of its moves only when
//! they are read: over seeded random games of every shipped game and variant, the history,
//! its SAN and the moves to redo read exactly as texts made eagerly at every ply (the way
//! `Game::play` made them before). Random playouts (`arena::playouts`) are reproducible from
//! their seed, play the games `arena::play_game` plays with two random movers, and the same
//! games with the plain tree (which writes every legal move).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use zrf::arena::{self, Contestant, Pairing};
use zrf::engine::{EngineConfig, MoveList, Position, Rules, UndoLog};
use zrf::play::Game;
mod common;

use common::FsLoader;
use common::Rng;

/// Every variant of every shipped game, with its name.
fn shipped() -> Vec<(String, Rules)> {
    let files = common::shipped_files();
    let mut out = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let name = f.to_string_lossy();
        let loaded = zrf::load(&name, &bytes, &FsLoader);
        for (i, g) in loaded.games.iter().enumerate() {
            let (def, _) = zrf::resolve_game(g);
            if let Some(def) = def {
                out.push((format!("{name} #{i}"), Rules::new(def)));
            }
        }
    }
    assert!(out.len() >= 20, "{} variants", out.len());
    out
}

/// The canonical text and SAN (with check mark; empty without SAN) of every move of a line
/// of move indices from `start`, made at every ply as `Game::play` made them.
fn eager(
    rules: &Rules,
    start: &Position,
    line: &[u32],
    has_san: bool,
) -> (Vec<String>, Vec<String>) {
    let (mut texts, mut sans) = (Vec::new(), Vec::new());
    let mut pos = start.clone();
    let mut list = MoveList::new();
    let mut log = UndoLog::new();
    for &i in line {
        let i = i as usize;
        rules.legal_moves(&mut pos, &mut list);
        texts.push(zrf::notation::move_texts(&rules.def, &list)[i].clone());
        let san = zrf::san::texts(&rules.def, &list)[i].clone();
        let m = list.moves[i];
        rules.make(&mut pos, &list, &m, &mut log);
        if has_san {
            sans.push(san + zrf::san::after_move(rules, &mut pos));
        }
    }
    (texts, sans)
}

/// Plays up to `plies` random moves by index; returns how many were played.
fn random_moves(g: &mut Game, rng: &mut Rng, plies: usize) -> usize {
    for k in 0..plies {
        if g.is_over() || g.legal().is_empty() {
            return k;
        }
        let n = g.legal().len();
        g.play_index(rng.below(n)).expect("a legal index");
    }
    plies
}

#[test]
fn lazy_texts_equal_eager_texts_in_every_shipped_game() {
    let mut plies = 0;
    let mut rng = Rng(0x5eed_1e55_7e47_0001);
    for (name, rules) in shipped() {
        let start = rules.initial();
        let rules = Arc::new(rules);
        for game in 0..2 {
            let at = format!("{name}, game {game}");
            let mut g = Game::new(Arc::clone(&rules), start.clone());
            let n = random_moves(&mut g, &mut rng, 60);
            plies += n;
            let line = g.played_indices().to_vec();
            assert_eq!(line.len(), n, "{at}");
            let (texts, sans) = eager(&rules, &start, &line, g.has_san);
            // Read at the end, all at once.
            assert_eq!(g.played(), texts, "{at}: history");
            assert_eq!(g.sans(), sans, "{at}: SAN");
            assert_eq!(g.last_played(), texts.last().cloned(), "{at}");

            // Taken back: the history shrinks and the moves to redo read as played.
            let back = n.min(1 + rng.below(6));
            for _ in 0..back {
                assert!(g.undo(), "{at}");
            }
            let kept = n - back;
            assert_eq!(g.played(), texts[..kept], "{at}: after undo");
            let mut redo: Vec<String> = texts[kept..].to_vec();
            redo.reverse();
            assert_eq!(g.redo_texts(), redo, "{at}: redo stack");
            assert_eq!(g.redo_len(), back, "{at}");

            // Redone one by one (read between moves), then taken back again.
            for k in kept..n {
                assert_eq!(
                    g.redo().as_deref(),
                    Some(texts[k].as_str()),
                    "{at}: redo {k}"
                );
                assert_eq!(g.sans(), sans[..(k + 1).min(sans.len())], "{at}");
            }
            assert_eq!(g.redo(), None, "{at}");
            for _ in 0..back {
                g.undo();
            }
            // The same move by text keeps the stack; another move clears it.
            if back >= 2 {
                assert_eq!(g.play(&texts[kept]).as_deref(), Ok(texts[kept].as_str()));
                assert_eq!(g.redo_len(), back - 1, "{at}: replaying keeps the stack");
                g.undo();
            }
            let plays_other = g.legal().len() > 1 && back > 0 && !g.is_over();
            if plays_other {
                let other = (line[kept] as usize + 1) % g.legal().len();
                g.play_index(other).expect("legal");
                assert_eq!(g.redo_len(), 0, "{at}: another move clears the stack");
                random_moves(&mut g, &mut rng, 5);
                let line2 = g.played_indices().to_vec();
                assert_eq!(line2[..kept], line[..kept], "{at}");
                assert_eq!(line2[kept], other as u32, "{at}");
                let (texts2, sans2) = eager(&rules, &start, &line2, g.has_san);
                assert_eq!(g.played(), texts2, "{at}: after a new line");
                assert_eq!(g.sans(), sans2, "{at}: SAN after a new line");
            }
            // A clone reads the same history and goes on alone.
            let mut c = g.clone();
            assert_eq!(c.played(), g.played(), "{at}: clone");
            if c.undo() {
                assert_eq!(c.plies() + 1, g.plies(), "{at}");
                assert_eq!(c.redo_texts().last(), g.last_played().as_ref(), "{at}");
            }
        }
    }
    assert!(plies > 1000, "{plies} plies played");
}

#[test]
fn texts_read_at_every_ply_equal_the_eager_ones() {
    // The REPL reads the history after every move: the texts are then made one ply at a time.
    let mut rng = Rng(0x5eed_1e55_7e47_0002);
    for file in ["games/chess.zrf", "games/checkers.zrf", "games/halfgi.zrf"] {
        let rules = common::rules(file, None);
        let start = rules.initial();
        let mut g = Game::new(rules.clone(), start.clone());
        for _ in 0..80 {
            if random_moves(&mut g, &mut rng, 1) == 0 {
                break;
            }
            assert_eq!(g.played().len(), g.plies());
            let _ = g.sans();
        }
        let (texts, sans) = eager(&rules, &start, g.played_indices(), g.has_san);
        assert_eq!(g.played(), texts, "{file}");
        assert_eq!(g.sans(), sans, "{file}");
    }
}

#[test]
fn playouts_are_reproducible_and_play_the_random_movers_games() {
    for (file, games) in [
        ("games/chess.zrf", 6),
        ("games/checkers.zrf", 10),
        ("games/tic-tac-toe.zrf", 20),
    ] {
        let rules = Arc::new(common::rules(file, None));
        let start = rules.initial();
        let a = arena::playouts(Arc::clone(&rules), &start, games, 7, 300);
        let b = arena::playouts(Arc::clone(&rules), &start, games, 7, 300);
        assert_eq!(a, b, "{file}: the same seed gives the same playouts");
        let c = arena::playouts(Arc::clone(&rules), &start, games, 8, 300);
        assert_ne!(a, c, "{file}: another seed gives other playouts");
        // Counting the moves and writing only the one drawn (the `count` path) draws the
        // moves the plain tree's whole list gives.
        let plain = Rules::with_config(rules.def.clone(), EngineConfig::plain());
        let d = arena::playouts(plain, &start, games, 7, 300);
        assert_eq!(a, d, "{file}: the plain tree plays the same playouts");
        let stop = AtomicBool::new(false);
        let random = Contestant::Random;
        for (i, p) in a.iter().enumerate() {
            let how = Pairing {
                seats: vec![&random, &random],
                seed: arena::game_seed(7, i as u64),
                random_plies: 2,
                max_plies: 300,
            };
            let r = arena::play_game(&rules, &start, &how, &mut [], &stop);
            assert_eq!(p.plies, r.moves.len(), "{file} game {i}: length");
            assert_eq!(p.outcome, r.outcome, "{file} game {i}: result");
            for seat in 0..2u8 {
                let s = zrf::def::PlayerId(seat);
                assert_eq!(p.verdict(s), r.verdict(s), "{file} game {i}");
            }
            assert!(p.plies <= 300);
        }
        // Tic-tac-toe ends within nine plies, with a result.
        if file.contains("tic-tac-toe") {
            assert!(a.iter().all(|p| p.plies <= 9 && p.outcome.is_some()));
            assert!(a.iter().any(|p| p.returns == [1.0, -1.0]));
            assert!(a.iter().any(|p| p.returns == [-1.0, 1.0]));
        }
    }
}
