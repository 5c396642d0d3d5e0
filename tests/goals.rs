//! The goals' plan (`engine/compiled/goal_plan.rs`: `relative-config` patterns laid out at
//! load, counters read from their slots, `stalemated` and `checkmated` skipped while the
//! player to move has moves) decides every outcome as the goals' conditions do: at every ply
//! of seeded random games of every shipped game and variant, of every corpus file with a
//! `relative-config` goal and of every fourth corpus file, and in a rules text that mixes the
//! forms the plan treats apart.

use std::path::Path;

use zrf::engine::{GoalContext, MoveList, Rules, UndoLog};
mod common;

use common::Rng;

/// Plays `games` random games of at most `plies` plies, comparing the planned outcome with
/// the plain one at every position; returns the positions compared and how many were over.
fn compare(name: &str, rules: &Rules, games: usize, plies: usize) -> (usize, usize) {
    let mut rng = Rng(name.bytes().fold(0x9e37_79b9_7f4a_7c15, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    }));
    let (mut checked, mut over) = (0, 0);
    let mut list = MoveList::new();
    for g in 0..games {
        let mut pos = rules.initial();
        let mut log = UndoLog::new();
        let mut seen: Vec<u64> = Vec::new();
        for ply in 0..=plies {
            rules.legal_moves(&mut pos, &mut list);
            let key = pos.repetition_key();
            seen.push(key);
            let cx = GoalContext {
                pos: &pos,
                has_moves: !list.is_empty(),
                repetitions: seen.iter().filter(|&&k| k == key).count(),
            };
            let planned = rules.outcome(&cx);
            assert_eq!(
                planned,
                rules.outcome_unplanned(&cx),
                "{name}: game {g}, ply {ply}"
            );
            checked += 1;
            if planned.is_some() || list.moves.is_empty() {
                over += planned.is_some() as usize;
                break;
            }
            let m = list.moves[rng.below(list.moves.len())];
            rules.make(&mut pos, &list, &m, &mut log);
        }
    }
    (checked, over)
}

fn compare_file(path: &Path, all_variants: bool, games: usize, plies: usize) -> (usize, usize) {
    let name = common::file_name(path);
    (common::resolved_games(path, all_variants).into_iter())
        .map(|(i, def)| compare(&format!("{name} #{i}"), &Rules::new(def), games, plies))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

#[test]
fn shipped_games_end_as_their_goals_say() {
    let (checked, over) = (common::shipped_files().iter())
        .map(|f| compare_file(f, true, 4, 300))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert!(checked > 5000, "{checked} positions compared");
    assert!(over > 40, "{over} finished games");
}

#[test]
fn corpus_games_end_as_their_goals_say() {
    let files = common::corpus_loads();
    let configs: Vec<_> = (files.iter())
        .filter(|f| std::fs::read(f).is_ok_and(|b| b.windows(15).any(|w| w == b"relative-config")))
        .collect();
    assert!(!configs.is_empty());
    let (mut checked, mut over) = (0, 0);
    for f in configs.into_iter().chain(files.iter().step_by(4)) {
        let (c, o) = compare_file(f, false, 2, 200);
        checked += c;
        over += o;
    }
    assert!(checked > 5000, "{checked} positions compared");
    assert!(over > 20, "{over} finished games");
}

/// Five in a row of either type on a small board, as `or`s of patterns with different piece
/// tests (merged where they agree), a negated piece, an opponent's line, `and`, `not`, and a
/// counter compared from either side.
const MIXED: &str = r#"
(game (title "Mixed goals")
  (players White Black)
  (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
    (dimensions ("a/b/c/d/e" (10 0)) ("5/4/3/2/1" (0 10)))
    (directions (n 0 -1) (e 1 0) (ne 1 -1) (se 1 1))))
  (counter moves)
  (after-move (if (moved-piece? Man) (inc moves)))
  (piece (name Man) (drops ((verify empty?) add)))
  (piece (name Stone) (drops ((verify empty?) add)))
  (board-setup (White (Man off 13) (Stone off 13)) (Black (Man off 13) (Stone off 13)))
  (win-condition (White Black)
    (or (relative-config Man e Man e Man e Man)
        (relative-config Man n Man n Man n Man)
        (relative-config (any-owner Man Stone) ne (any-owner Man Stone) ne (any-owner Man Stone))
        (relative-config Stone se (not Stone) se Stone)))
  (loss-condition (White Black)
    (and (relative-config (opponent Stone) e (opponent Stone) e (opponent Stone))
         (not (relative-config Man n Man))))
  (draw-condition (White Black) (or (>= moves 17) (< 20 moves)))
  (draw-condition (White Black) stalemated))
"#;

#[test]
fn mixed_goal_forms_end_as_their_goals_say() {
    let rules = common::rules_of("mixed.zrf", MIXED.as_bytes(), 0);
    let (checked, over) = compare("mixed", &rules, 60, 40);
    assert!(checked > 400, "{checked} positions compared");
    assert!(over > 20, "{over} finished games");
}
