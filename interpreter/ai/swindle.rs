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

use super::{settle, Engine, EngineKind, Limits, Opponent, Score, SearchConfig, SearchResult};
use crate::def::PlayerId;
use crate::engine::{revert, MoveList, Outcome, Position, Rules, UndoLog};

/// Nodes for each of the small searches that judge a move or a reply.
const PROBE_NODES: u64 = 4_000;

/// The most root moves, and replies per move, the pass looks at (it is meant for small trees).
const MAX_BRANCHING: usize = 40;

/// A better move than `r.best` by the trap count, if any, within `deadline`: its index in the
/// legal moves of `pos` and its text.
pub(super) fn better_draw(
    engine: &mut Engine,
    rules: &Rules,
    pos: &Position,
    history: &[u64],
    stop: &AtomicBool,
    r: &SearchResult,
    deadline: Instant,
) -> Option<(usize, String)> {
    let mut pos = pos.clone();
    let mut root = MoveList::new();
    rules.legal_moves(&mut pos, &mut root);
    if root.len() < 2 || root.len() > MAX_BRANCHING {
        return None;
    }
    let mut probe = Probe {
        engine,
        rules,
        stop,
        me: rules.entry(pos.turn).mover,
        deadline,
        history: history.to_vec(),
        cfg: SearchConfig {
            kind: EngineKind::AlphaBeta,
            limits: Limits {
                nodes: Some(PROBE_NODES),
                ..Limits::default()
            },
            seed: 0,
            opponent: Opponent::Best,
            multi_pv: 1,
            contempt: 0,
            searchmoves: Vec::new(),
        },
    };
    let mut log = UndoLog::new();
    let mut best: Option<(usize, f64)> = None;
    let mut chosen = 0.0;
    for i in 0..root.len() {
        if Instant::now() >= deadline {
            return None;
        }
        rules.make(&mut pos, &root, &root.moves[i], &mut log);
        probe.history.push(pos.repetition_key());
        let ratio = probe.traps(&mut pos);
        probe.history.pop();
        revert(&mut pos, &mut log);
        let Some(ratio) = ratio else { continue };
        if i == r.best {
            chosen = ratio;
        }
        if best.is_none_or(|(_, b)| ratio > b) {
            best = Some((i, ratio));
        }
    }
    // Switch only for a real gain over the search's own choice.
    let (i, ratio) = best?;
    (i != r.best && ratio > chosen)
        .then(|| (i, crate::notation::move_texts(&rules.def, &root)[i].clone()))
}

/// The small searches of the pass, with the game's history along the line being probed.
struct Probe<'a> {
    engine: &'a mut Engine,
    rules: &'a Rules,
    stop: &'a AtomicBool,
    /// The player the pass chooses for.
    me: PlayerId,
    deadline: Instant,
    history: Vec<u64>,
    cfg: SearchConfig,
}

impl Probe<'_> {
    /// The legal moves of `pos` and whether the game is over there (`history` includes `pos`).
    fn settle(&self, pos: &mut Position) -> (MoveList, Option<Outcome>) {
        settle(self.rules, pos, &self.history)
    }

    /// The probe's score of `pos` for the player to move there.
    fn score(&mut self, pos: &Position) -> Option<Score> {
        // Each probe also stops at the deadline, so the pass never overruns the move's time.
        let left = self.deadline.checked_duration_since(Instant::now())?;
        self.cfg.limits.time = Some(left);
        let r = self.engine.search(
            self.rules,
            pos,
            &self.history,
            &self.cfg,
            self.stop,
            &mut |_| {},
        )?;
        Some(r.info.score)
    }

    /// After one of our moves (`pos` has the opponent to move): `None` when the opponent can
    /// win from here, else the share of the opponent's replies after which we win by force.
    fn traps(&mut self, pos: &mut Position) -> Option<f64> {
        let (replies, over) = self.settle(pos);
        if over.is_some() || replies.is_empty() || replies.len() > MAX_BRANCHING {
            return None;
        }
        // Does our move hold? The opponent must not have a win.
        if matches!(self.score(pos)?, Score::Win(_) | Score::Cp(1..)) {
            return None;
        }
        let mut log = UndoLog::new();
        let mut wins = 0usize;
        for m in &replies.moves {
            if Instant::now() >= self.deadline {
                return None;
            }
            self.rules.make(pos, &replies, m, &mut log);
            self.history.push(pos.repetition_key());
            let won = match self.settle(pos).1 {
                Some(o) => o.winners.contains(&self.me),
                None if self.rules.entry(pos.turn).mover == self.me => {
                    matches!(self.score(pos), Some(Score::Win(_)))
                }
                None => false,
            };
            wins += usize::from(won);
            self.history.pop();
            revert(pos, &mut log);
        }
        Some(wins as f64 / replies.len() as f64)
    }
}

/// The time a search may still spend on the pass: what the main search left of its limit.
pub(super) fn deadline(cfg: &SearchConfig, started: Instant) -> Option<Instant> {
    let t: Duration = cfg.limits.time?;
    let deadline = started + t;
    // Never for node-limited searches (the pass's own probes are, so it cannot nest).
    (cfg.kind == EngineKind::AlphaBeta
        && cfg.limits.depth.is_none()
        && cfg.limits.nodes.is_none()
        && Instant::now() < deadline)
        .then_some(deadline)
}
