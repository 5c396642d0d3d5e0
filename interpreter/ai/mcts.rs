//! Monte Carlo tree search: UCT over the legal moves, random playouts of at most
//! [`PLAYOUT_MAX`] plies after which the evaluation decides, rewards per player (each node is
//! valued from the view of the player who moved into it), the most visited move chosen.
//!
//! The only randomness comes from [`Rng`] seeded by the configuration, so a search limited by
//! iterations gives the same move every time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::eval::Evaluator;
use super::{
    outcome_value, Engine, Info, Rng, Score, SearchConfig, SearchResult, MATE_BOUND, SCORED_MAX,
};
use crate::def::PlayerId;
use crate::engine::{revert, GoalContext, MoveList, Outcome, Position, Rules, UndoLog, Workspace};
use crate::notation;

/// Longest random playout, in plies.
pub const PLAYOUT_MAX: usize = 200;
/// Iterations when no limit is given.
const DEFAULT_ITERATIONS: u64 = 1_000_000;
/// Tree nodes kept at most; beyond, leaves are no longer expanded.
const MAX_NODES: usize = 2_000_000;
/// Exploration constant of UCT.
const EXPLORE: f64 = 1.4;
/// A playout cut short rewards `1 / (1 + e^(-v / EVAL_SCALE))` for an evaluation of `v`
/// hundredths: three units bring the reward from 1/2 to about 3/4.
const EVAL_SCALE: f64 = 275.0;

struct Node {
    parent: u32,
    first: u32,
    /// Number of children; `u32::MAX` until expanded.
    n: u32,
    /// The move into this node: its index in the parent's legal list.
    mv: u16,
    /// The player who made that move.
    mover: u8,
    visits: u32,
    /// Sum of rewards for `mover`.
    total: f64,
    /// For a finished game: the rewards of every player.
    end: Option<Box<[f64]>>,
}

/// Runs MCTS for [`Engine::search`].
pub fn run(
    engine: &mut Engine,
    rules: &Rules,
    pos: &Position,
    history: &[u64],
    cfg: &SearchConfig,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Info),
) -> Option<SearchResult> {
    let start = Instant::now();
    let ev = &engine.eval;
    let n_players = rules.def.players.len();
    let mut pos = pos.clone();
    let mut ws = Workspace::default();
    let mut root_list = MoveList::new();
    rules.legal_moves_in(&mut ws, &mut pos, &mut root_list);
    let before: &[u64] = history.split_last().map_or(history, |(_, rest)| rest);
    let mut keys: Vec<u64> = before.to_vec();
    let root_key = pos.repetition_key();
    let reps = keys.iter().filter(|&&k| k == root_key).count() + 1;
    let cx = GoalContext {
        pos: &pos,
        has_moves: !root_list.is_empty(),
        repetitions: reps,
    };
    if root_list.is_empty() || rules.outcome(&cx).is_some() {
        return None;
    }
    let texts = notation::move_texts(&rules.def, &root_list);
    let mut t = Tree {
        rules,
        ev,
        n_players,
        nodes: vec![Node {
            parent: u32::MAX,
            first: 0,
            n: u32::MAX,
            mv: 0,
            mover: 0,
            visits: 0,
            total: 0.0,
            end: None,
        }],
        rng: Rng::new(cfg.seed),
        ws,
        log: UndoLog::new(),
        list: MoveList::new(),
        rewards: vec![0.0; n_players],
        max_depth: 0,
    };
    let limit = cfg.limits.nodes.unwrap_or(if cfg.limits.time.is_some() {
        u64::MAX
    } else {
        DEFAULT_ITERATIONS
    });
    let mut iterations = 0u64;
    let mut last_report = Instant::now();
    while iterations < limit {
        if iterations & 31 == 0 {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if cfg.limits.time.is_some_and(|tl| start.elapsed() >= tl) {
                break;
            }
            if iterations > 0 && last_report.elapsed().as_millis() >= 500 {
                last_report = Instant::now();
                progress(&t.info(&mut pos, iterations, start));
            }
        }
        t.iterate(&mut pos, &mut keys);
        iterations += 1;
        // An immediate win needs no more thought.
        if t.winning_child(0).is_some() && iterations >= root_list.len() as u64 {
            break;
        }
    }
    let info = t.info(&mut pos, iterations, start);
    progress(&info);
    let best = t.best_child(0).map_or(0, |c| t.nodes[c].mv as usize);
    Some(SearchResult {
        best,
        best_text: texts[best].clone(),
        info,
    })
}

struct Tree<'a> {
    rules: &'a Rules,
    ev: &'a Evaluator,
    n_players: usize,
    nodes: Vec<Node>,
    rng: Rng,
    ws: Workspace,
    log: UndoLog,
    list: MoveList,
    rewards: Vec<f64>,
    max_depth: usize,
}

impl Tree<'_> {
    /// One selection, expansion, playout and backup, starting and ending at the root position.
    fn iterate(&mut self, pos: &mut Position, keys: &mut Vec<u64>) {
        let base = keys.len();
        let mut node = 0usize;
        let mut made = 0usize;
        keys.push(pos.repetition_key());
        loop {
            if let Some(end) = &self.nodes[node].end {
                self.rewards.copy_from_slice(end);
                break;
            }
            self.rules.legal_moves_in(&mut self.ws, pos, &mut self.list);
            if self.nodes[node].n == u32::MAX {
                // Expand: a finished game, or children for every legal move.
                if let Some(r) = self.finished(pos, keys) {
                    self.nodes[node].end = Some(r.clone().into_boxed_slice());
                    self.rewards = r;
                    break;
                }
                if self.nodes.len() + self.list.len() > MAX_NODES {
                    self.playout(pos, keys, &mut made);
                    break;
                }
                let mover = self.rules.entry(pos.turn).mover.0;
                let first = self.nodes.len() as u32;
                for i in 0..self.list.len() {
                    self.nodes.push(Node {
                        parent: node as u32,
                        first: 0,
                        n: u32::MAX,
                        mv: i as u16,
                        mover,
                        visits: 0,
                        total: 0.0,
                        end: None,
                    });
                }
                self.nodes[node].first = first;
                self.nodes[node].n = self.list.len() as u32;
            }
            let child = self.select(node, pos);
            let m = self.list.moves[self.nodes[child].mv as usize];
            self.rules.make(pos, &self.list, &m, &mut self.log);
            made += 1;
            keys.push(pos.repetition_key());
            node = child;
            if self.nodes[node].visits == 0 {
                if let Some(r) = self.finished_after_generating(pos, keys) {
                    self.nodes[node].end = Some(r.clone().into_boxed_slice());
                    self.rewards = r;
                } else {
                    self.playout(pos, keys, &mut made);
                }
                break;
            }
        }
        self.max_depth = self.max_depth.max(depth_of(&self.nodes, node));
        // Back up the rewards.
        let mut n = node;
        loop {
            let nd = &mut self.nodes[n];
            nd.visits += 1;
            nd.total += self.rewards[nd.mover as usize];
            if nd.parent == u32::MAX {
                break;
            }
            n = nd.parent as usize;
        }
        for _ in 0..made {
            revert(pos, &mut self.log);
        }
        keys.truncate(base);
    }

    /// The child to descend into: a winning one, else an unvisited one, else the best by UCT
    /// (a random player picks at random).
    fn select(&mut self, node: usize, pos: &Position) -> usize {
        if let Some(c) = self.winning_child(node) {
            return c;
        }
        let nd = &self.nodes[node];
        let (first, n) = (nd.first as usize, nd.n as usize);
        let mover = self.rules.entry(pos.turn).mover;
        if self.rules.def.players[mover.idx()].random {
            return first + self.rng.below(n);
        }
        let unvisited = (first..first + n)
            .filter(|&c| self.nodes[c].visits == 0)
            .count();
        if unvisited > 0 {
            let k = self.rng.below(unvisited);
            return (first..first + n)
                .filter(|&c| self.nodes[c].visits == 0)
                .nth(k)
                .expect("an unvisited child");
        }
        let ln = (nd.visits.max(1) as f64).ln();
        let mut best = first;
        let mut best_v = f64::NEG_INFINITY;
        for c in first..first + n {
            let ch = &self.nodes[c];
            let v = ch.total / ch.visits as f64 + EXPLORE * (ln / ch.visits as f64).sqrt();
            if v > best_v {
                best_v = v;
                best = c;
            }
        }
        best
    }

    /// A child whose move ends the game in a win for the player making it.
    fn winning_child(&self, node: usize) -> Option<usize> {
        let nd = &self.nodes[node];
        if nd.n == u32::MAX {
            return None;
        }
        (nd.first as usize..(nd.first + nd.n) as usize).find(|&c| {
            let ch = &self.nodes[c];
            ch.end.as_ref().is_some_and(|r| r[ch.mover as usize] >= 1.0)
        })
    }

    /// The most visited child (a winning move first).
    fn best_child(&self, node: usize) -> Option<usize> {
        if let Some(c) = self.winning_child(node) {
            return Some(c);
        }
        let nd = &self.nodes[node];
        if nd.n == u32::MAX || nd.n == 0 {
            return None;
        }
        (nd.first as usize..(nd.first + nd.n) as usize).max_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            (x.visits, x.total)
                .partial_cmp(&(y.visits, y.total))
                .unwrap_or(std::cmp::Ordering::Equal)
                // Equal counts: the earlier move.
                .then(b.cmp(&a))
        })
    }

    /// Rewards if the game is over at `pos` (whose legal moves are in `self.list`).
    fn finished(&self, pos: &Position, keys: &[u64]) -> Option<Vec<f64>> {
        let key = *keys.last().expect("the current key");
        let reps = keys.iter().filter(|&&k| k == key).count();
        let cx = GoalContext {
            pos,
            has_moves: !self.list.is_empty(),
            repetitions: reps,
        };
        match self.rules.outcome(&cx) {
            Some(o) => Some(self.outcome_rewards(&o)),
            None if self.list.is_empty() => Some(vec![0.5; self.n_players]),
            None => None,
        }
    }

    fn finished_after_generating(&mut self, pos: &mut Position, keys: &[u64]) -> Option<Vec<f64>> {
        self.rules.legal_moves_in(&mut self.ws, pos, &mut self.list);
        self.finished(pos, keys)
    }

    fn outcome_rewards(&self, o: &Outcome) -> Vec<f64> {
        (0..self.n_players)
            .map(|p| {
                let v = outcome_value(o, PlayerId(p as u8), self.ev.n_active, 0);
                if v >= MATE_BOUND {
                    1.0
                } else if v <= -MATE_BOUND {
                    0.0
                } else {
                    0.5 + 0.5 * v as f64 / SCORED_MAX as f64
                }
            })
            .collect()
    }

    /// Random moves from `pos` until the game ends or [`PLAYOUT_MAX`] plies, then rewards.
    fn playout(&mut self, pos: &mut Position, keys: &mut Vec<u64>, made: &mut usize) {
        for _ in 0..PLAYOUT_MAX {
            self.rules.legal_moves_in(&mut self.ws, pos, &mut self.list);
            if let Some(r) = self.finished(pos, keys) {
                self.rewards = r;
                return;
            }
            let i = self.rng.below(self.list.len());
            let m = self.list.moves[i];
            self.rules.make(pos, &self.list, &m, &mut self.log);
            *made += 1;
            keys.push(pos.repetition_key());
        }
        for p in 0..self.n_players {
            let v = self.ev.eval(pos, PlayerId(p as u8)) as f64;
            self.rewards[p] = 1.0 / (1.0 + (-v / EVAL_SCALE).exp());
        }
    }

    /// A progress report: the best move's value and the most visited line.
    fn info(&mut self, pos: &mut Position, iterations: u64, start: Instant) -> Info {
        let mut pv = Vec::new();
        let mut node = 0;
        let mut made = 0;
        let mut score = Score::Cp(0);
        while let Some(c) = self.best_child(node) {
            self.rules.legal_moves_in(&mut self.ws, pos, &mut self.list);
            let mv = self.nodes[c].mv as usize;
            if mv >= self.list.len() {
                break;
            }
            if node == 0 {
                let ch = &self.nodes[c];
                score = if ch.end.as_ref().is_some_and(|r| r[ch.mover as usize] >= 1.0) {
                    Score::Win(1)
                } else {
                    let q = (ch.total / ch.visits.max(1) as f64).clamp(0.001, 0.999);
                    Score::Cp((EVAL_SCALE * (q / (1.0 - q)).ln()).round() as i32)
                };
            }
            pv.push(notation::move_texts(&self.rules.def, &self.list)[mv].clone());
            let m = self.list.moves[mv];
            self.rules.make(pos, &self.list, &m, &mut self.log);
            made += 1;
            node = c;
            if self.nodes[c].visits < 2 {
                break;
            }
        }
        for _ in 0..made {
            revert(pos, &mut self.log);
        }
        Info {
            depth: self.max_depth as u32,
            score,
            nodes: iterations,
            elapsed: start.elapsed(),
            pv,
            multipv: 1,
        }
    }
}

fn depth_of(nodes: &[Node], mut n: usize) -> usize {
    let mut d = 0;
    while nodes[n].parent != u32::MAX {
        n = nodes[n].parent as usize;
        d += 1;
    }
    d
}
