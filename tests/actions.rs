//! The action encoding (`actions.rs`) names every legal turn by exactly one sequence of
//! actions: from the start of the turn, following every offered action reaches each legal move
//! once, never a dead end. Checked at every ply of seeded random games of every shipped game
//! (all variants) and of every fourth corpus file.

use std::path::Path;

use zrf::actions::{self, Action, Next, Space, Turns};
use zrf::engine::{MoveList, Rules, UndoLog};
mod common;

use common::Rng;

/// Walks every action sequence offered in one position; returns the positions' turn count.
fn check_position(name: &str, space: Space, turns: &Turns, at: &str) -> usize {
    if turns.is_empty() {
        return 0;
    }
    let mut reached = vec![0u32; turns.len()];
    let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
    let mut out = Vec::new();
    let mut steps = 0;
    while let Some(prefix) = stack.pop() {
        steps += 1;
        assert!(steps < 1_000_000, "{name} {at}: the walk does not end");
        match actions::next(turns, &prefix, &mut out) {
            Next::Turn(i) => reached[i] += 1,
            Next::None => panic!("{name} {at}: actions {prefix:?} lead nowhere"),
            Next::Choose => {
                assert!(
                    !out.is_empty(),
                    "{name} {at}: nothing to choose after {prefix:?}"
                );
                for &a in &out {
                    assert!(
                        (a as u64) < space.size(),
                        "{name} {at}: action {a} out of range"
                    );
                    let mut p = prefix.clone();
                    p.push(a);
                    stack.push(p);
                }
            }
        }
    }
    // An action that alone names a turn says which at once (`Turns::single`, which applying an
    // action asks first), and one that does not, or is not offered, says nothing.
    actions::next(turns, &[], &mut out);
    let stop = space.encode(Action::Stop) as u32;
    let mut after = Vec::new();
    for &a in out.iter().filter(|&&a| a != stop) {
        let alone = match actions::next(turns, &[a], &mut after) {
            Next::Turn(i) => Some(i),
            _ => None,
        };
        assert_eq!(turns.single(a), alone, "{name} {at}: action {a}");
    }
    let unoffered = (0..space.size().min(1 << 20) as u32).find(|a| !out.contains(a));
    if let Some(a) = unoffered {
        assert_eq!(turns.single(a), None, "{name} {at}: action {a}");
    }
    for (i, &n) in reached.iter().enumerate() {
        assert_eq!(n, 1, "{name} {at}: turn {i} reached {n} times");
        // The sequence a move's text is played by is the one the walk found.
        let seq = actions::sequence(turns, i);
        assert_eq!(
            actions::next(turns, &seq, &mut out),
            Next::Turn(i),
            "{name} {at}"
        );
    }
    turns.len()
}

/// Each turn's first action is the documented number of its huff, pass, drop or first step:
/// the same numbers whichever way `actions::turns` builds the sequences.
fn first_actions_follow_the_paths(
    name: &str,
    space: Space,
    list: &MoveList,
    turns: &Turns,
    at: &str,
) {
    for (i, m) in list.moves.iter().enumerate() {
        let path = list.path(m);
        let first = if m.huff != 0 {
            Action::Huff(m.huff - 1)
        } else if m.pass {
            Action::Pass
        } else if m.drop != 0 {
            match path.last() {
                Some(&sq) => Action::Drop(m.drop - 1, sq),
                None => continue,
            }
        } else if path.len() == 1 {
            Action::Step(path[0], path[0])
        } else {
            Action::Step(path[0], path[1])
        };
        assert_eq!(
            turns.actions(i).first().map(|&a| a as u64),
            Some(space.encode(first)),
            "{name} {at}: turn {i}"
        );
    }
}

fn play(name: &str, rules: &Rules, games: usize, plies: usize) -> usize {
    let space = Space::new(&rules.def);
    let mut rng = Rng(0x51_7cc1_b727_220a ^ name.len() as u64);
    let mut turns = Turns::new();
    let mut checked = 0;
    for game in 0..games {
        let mut pos = rules.initial();
        let mut log = UndoLog::new();
        for ply in 0..plies {
            let mut list = MoveList::new();
            rules.legal_moves(&mut pos, &mut list);
            actions::turns(&rules.def, &list, &mut turns);
            assert_eq!(turns.len(), list.len());
            let at = format!("game {game}, ply {ply}");
            first_actions_follow_the_paths(name, space, &list, &turns, &at);
            check_position(name, space, &turns, &at);
            checked += 1;
            if list.is_empty() {
                break;
            }
            let m = list.moves[rng.below(list.len())];
            rules.make(&mut pos, &list, &m, &mut log);
        }
    }
    checked
}

fn play_file(path: &Path, games: usize, plies: usize, all_variants: bool) -> usize {
    // Named (and so seeded) by the file's name, not its path, so that every checkout plays
    // the same games.
    let name = common::file_name(path);
    (common::resolved_games(path, all_variants).into_iter())
        .map(|(i, def)| play(&format!("{name} #{i}"), &Rules::new(def), games, plies))
        .sum()
}

#[test]
fn shipped_games_name_every_turn_by_one_action_sequence() {
    let files = common::shipped_files();
    let checked: usize = files.iter().map(|f| play_file(f, 3, 80, true)).sum();
    assert!(checked > 3000, "{checked} positions checked");
}

#[test]
fn corpus_sample_names_every_turn_by_one_action_sequence() {
    let checked: usize = (common::corpus_loads().iter())
        .step_by(4)
        .map(|f| play_file(f, 1, 40, false))
        .sum();
    assert!(checked > 2000, "{checked} positions checked");
}
