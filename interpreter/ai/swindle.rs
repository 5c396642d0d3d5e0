//! Choosing between drawn moves: when the search finds that every good move only draws, it
//! prefers the move that leaves the opponent the most replies that lose.
//!
//! Minimax treats all drawing moves alike, which is right against a perfect opponent and
//! wasteful against a fallible one: in tic-tac-toe a random opponent loses far more often after
//! some drawing moves than after others. This pass runs only for time-limited alpha-beta
//! searches whose score is exactly a draw, with the time the main search left over, and keeps
//! the main search's move unless another drawing move sets more traps.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{Engine, EngineKind, Limits, Score, SearchConfig, SearchResult};
use crate::engine::{revert, GoalContext, MoveList, Position, Rules, UndoLog};

/// Nodes for each of the small searches that judge a move or a reply.
const PROBE_NODES: u64 = 4_000;

/// The most root moves, and replies per move, the pass looks at (it is meant for small trees).
const MAX_BRANCHING: usize = 40;

/// A better move than `r.best` by the trap count, if any, within `deadline`.
pub(super) fn better_draw(
    engine: &mut Engine,
    rules: &Rules,
    pos: &Position,
    history: &[u64],
    stop: &AtomicBool,
    r: &SearchResult,
    deadline: Instant,
) -> Option<usize> {
    let me = rules.entry(pos.turn).mover;
    let mut pos = pos.clone();
    let mut root = MoveList::new();
    rules.legal_moves(&mut pos, &mut root);
    if root.len() < 2 || root.len() > MAX_BRANCHING {
        return None;
    }
    let probe = SearchConfig {
        kind: EngineKind::AlphaBeta,
        limits: Limits {
            nodes: Some(PROBE_NODES),
            ..Limits::default()
        },
        seed: 0,
    };
    let mut history = history.to_vec();
    let mut log = UndoLog::new();
    let mut best: Option<(usize, f64)> = None;
    let mut best_ratio_of_chosen = None;
    for i in 0..root.len() {
        if Instant::now() >= deadline {
            return None;
        }
        let m = root.moves[i];
        rules.make(&mut pos, &root, &m, &mut log);
        history.push(pos.repetition_key());
        let ratio = traps(
            engine,
            rules,
            &mut pos,
            &mut history,
            stop,
            &probe,
            me,
            deadline,
        );
        history.pop();
        revert(&mut pos, &mut log);
        let Some(ratio) = ratio else { continue };
        if i == r.best {
            best_ratio_of_chosen = Some(ratio);
        }
        if best.is_none_or(|(_, b)| ratio > b) {
            best = Some((i, ratio));
        }
    }
    let (i, ratio) = best?;
    // Switch only for a real gain, and only away from a move that was itself judged a draw.
    let chosen = best_ratio_of_chosen.unwrap_or(0.0);
    (i != r.best && ratio > chosen).then_some(i)
}

/// After one of our moves (`pos` has the opponent to move): `None` when the opponent can win
/// from here, else the share of the opponent's replies after which we win by force.
#[allow(clippy::too_many_arguments)]
fn traps(
    engine: &mut Engine,
    rules: &Rules,
    pos: &mut Position,
    history: &mut Vec<u64>,
    stop: &AtomicBool,
    probe: &SearchConfig,
    me: crate::def::PlayerId,
    deadline: Instant,
) -> Option<f64> {
    let mut replies = MoveList::new();
    rules.legal_moves(pos, &mut replies);
    let reps = history
        .iter()
        .filter(|&&h| h == pos.repetition_key())
        .count();
    let cx = GoalContext {
        pos,
        moves: &replies,
        repetitions: reps,
    };
    if rules.outcome(&cx).is_some() || replies.is_empty() || replies.len() > MAX_BRANCHING {
        return None;
    }
    // Does our move hold? The opponent must not have a win.
    let theirs = engine.search(rules, pos, history, probe, stop, &mut |_| {})?;
    if matches!(theirs.info.score, Score::Win(_))
        || matches!(theirs.info.score, Score::Cp(v) if v > 0)
    {
        return None;
    }
    let mut log = UndoLog::new();
    let mut wins = 0usize;
    for k in 0..replies.len() {
        if Instant::now() >= deadline {
            return None;
        }
        let m = replies.moves[k];
        rules.make(pos, &replies, &m, &mut log);
        history.push(pos.repetition_key());
        let mut ours = MoveList::new();
        rules.legal_moves(pos, &mut ours);
        let reps = history
            .iter()
            .filter(|&&h| h == pos.repetition_key())
            .count();
        let cx = GoalContext {
            pos,
            moves: &ours,
            repetitions: reps,
        };
        let won = match rules.outcome(&cx) {
            Some(o) => o.winners.contains(&me),
            None if rules.entry(pos.turn).mover == me => engine
                .search(rules, pos, history, probe, stop, &mut |_| {})
                .is_some_and(|r| matches!(r.info.score, Score::Win(_))),
            None => false,
        };
        wins += usize::from(won);
        history.pop();
        revert(pos, &mut log);
    }
    Some(wins as f64 / replies.len() as f64)
}

/// The time a search may still spend on the pass: what the main search left of its limit.
pub(super) fn deadline(cfg: &SearchConfig, started: Instant) -> Option<Instant> {
    let t: Duration = cfg.limits.time?;
    let deadline = started + t;
    (cfg.kind == EngineKind::AlphaBeta && cfg.limits.depth.is_none() && Instant::now() < deadline)
        .then_some(deadline)
}
