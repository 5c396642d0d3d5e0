//! Alpha-beta: iterative deepening, principal variation search, a transposition table, late
//! move reductions and a quiescence search over captures and promotions.
//!
//! Scores are negamax scores from the view of the side to move, where a side is the root
//! player's team or the others' (paranoid search for more than two players); a move that
//! leaves the same side to move (a player who moves twice) does not negate the score.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::eval::Evaluator;
use super::tt::{self, Table};
use super::{outcome_value, to_score, Engine, Info, SearchConfig, SearchResult, MATE, MATE_BOUND};
use crate::def::PlayerId;
use crate::engine::{revert, GoalContext, Move, MoveList, Position, Rules, UndoLog, Workspace};
use crate::notation;

/// The deepest ply the search reaches (main search and quiescence together).
pub const MAX_PLY: usize = 128;
/// Quiescence plies beyond the horizon at most.
const QMAX: usize = 8;
/// Quiescence plies during which a side whose every move captures must search them all
/// (deeper, it stands pat like any other side).
const QFORCED: usize = 8;
/// Captures a side that may stand pat searches in its first quiescence ply, and deeper.
const QWIDE: usize = 8;
const QNARROW: usize = 3;
/// Quiescence plies during which a side in check searches every evasion (only the first:
/// deeper, checks cost many nodes for little; at equal nodes this scored better, see
/// docs/strength.md).
const QCHECK: usize = 1;
const QCHECK_DROPS: usize = 4;
/// Larger than any score.
const INF: i32 = MATE + 1;
const HIST: usize = 1 << 14;

/// Move-ordering memory kept between searches: killer moves per ply, the history table and
/// counter-moves (the quiet move that last refuted a move, by that move's fingerprint).
#[derive(Clone)]
pub struct Heuristics {
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    counters: Vec<u32>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HIST],
            counters: vec![0; 2 * HIST],
        }
    }
}

/// A fingerprint of a move: its squares, captures, promotion, drop, pass and huff (never 0).
pub fn fingerprint(list: &MoveList, m: &Move) -> u32 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut add = |x: u64| {
        h = (h ^ x).wrapping_mul(0x0000_0100_0000_01B3);
        h ^= h >> 29;
    };
    for &sq in list.path(m) {
        add(sq as u64);
    }
    add(0xFFFF_0000);
    for &sq in list.captured(m) {
        add(sq as u64);
    }
    add((m.promote as u64) << 16 | m.drop as u64);
    add((m.pass as u64) << 1 | (m.huff as u64) << 8);
    ((h >> 32) as u32) | 1
}

/// Runs an alpha-beta search for [`Engine::search`].
pub fn run(
    engine: &mut Engine,
    rules: &Rules,
    pos: &Position,
    history: &[u64],
    cfg: &SearchConfig,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Info),
) -> Option<SearchResult> {
    let mut s = Search::new(engine, rules, pos, history, cfg, stop);
    s.iterate(progress)
}

struct Search<'a> {
    rules: &'a Rules,
    ev: &'a Evaluator,
    tt: &'a mut Table,
    heur: &'a mut Heuristics,
    pos: Position,
    ws: Workspace,
    log: UndoLog,
    /// A move list and ordering keys per ply.
    lists: Vec<MoveList>,
    keys: Vec<Vec<(i32, u16)>>,
    /// Repetition keys of the positions on the search path, by ply.
    path: Vec<u64>,
    /// How often each repetition key occurs in the game before the root (counted once per
    /// search, so a node's repetition test does not scan a long game).
    before: rustc_hash::FxHashMap<u64, usize>,
    /// Principal variations: `pv[ply]` is the best line from `ply` (move fingerprints:
    /// quiescence searches lists of captures only, whose indices are not the legal list's).
    pv: Vec<Vec<u32>>,
    root: PlayerId,
    salt: u64,
    nodes: u64,
    seldepth: usize,
    cfg: &'a SearchConfig,
    start: Instant,
    stop: &'a AtomicBool,
    aborted: bool,
    /// A list with one move, standing for "the side to move has moves" in goal tests made
    /// before generating.
    placeholder: MoveList,
    has_rep_goal: bool,
    rep_draw: bool,
    /// Captures may be compulsory: quiescence generates before standing pat.
    gen_first: bool,
    has_royal: bool,
    /// Null moves are tried (two sides taking turns, kings to keep safe, no chance).
    null_ok: bool,
    /// Pruning by the evaluation is used: not in games with drops, where a piece in hand can
    /// change the evaluation at once (matches in Crazyhouse lost with it: 6 wins and 10 losses
    /// against the search without); those prune late quiet moves by their count alone.
    prune: bool,
    /// The ply just after the last null move on the path (no two in a row).
    last_null: usize,
    /// Captures are ordered by static exchange ([`super::see`]): two sides, no drops,
    /// usable attack tables.
    see_ok: bool,
    /// Least average worth of a piece type that is not royal (for "a piece worth more").
    min_base: i32,
    /// The fingerprint of the move made at each ply of the path (0 for a null move).
    made: Vec<u32>,
    /// The static evaluation at each ply of the path (-INF where not computed).
    sevals: Vec<i32>,
    /// The last in-check answer, by position hash (a frontier node asks twice: in the main
    /// search, then in quiescence).
    check_memo: std::cell::Cell<Option<(u64, bool)>>,
    /// Per ply: the royal squares of the side that moves after the node's moves, found once
    /// for the quiet moves tested for check there (keyed by the node's repetition key and that
    /// side).
    kings: Vec<Kings>,
    /// Moves write the board only through their ops (no `after-move` program that may write
    /// cells), so a move's ops show whether it moved or created royal pieces.
    ops_only: bool,
    /// The depth of the current iteration (single-reply extensions stop at twice it).
    root_depth: i32,
}

/// Royal squares of one side at one node ([`Search::kings`]).
#[derive(Clone, Default)]
struct Kings {
    key: u64,
    side: u8,
    valid: bool,
    squares: Vec<u16>,
}

impl<'a> Search<'a> {
    fn new(
        engine: &'a mut Engine,
        rules: &'a Rules,
        pos: &Position,
        history: &'a [u64],
        cfg: &'a SearchConfig,
        stop: &'a AtomicBool,
    ) -> Search<'a> {
        let def = &rules.def;
        let root = rules.entry(pos.turn).mover;
        let mut placeholder = MoveList::new();
        placeholder.moves.push(Move {
            pass: true,
            ..Move::default()
        });
        let (has_rep_goal, rep_draw) = repetition_goals(rules);
        let gen_first = !def.move_priorities.is_empty()
            || def.options.maximal_captures > 0
            || !def.capture_precedence.is_empty()
            || def.options.huffing;
        engine.tt.new_search();
        for k in &mut engine.heur.killers {
            *k = [0; 2];
        }
        for h in &mut engine.heur.history {
            *h /= 8;
        }
        let salt = if engine.eval.n_active > 2 {
            (root.0 as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            0
        };
        let mut before = rustc_hash::FxHashMap::default();
        for &k in history.split_last().map_or(history, |(_, rest)| rest) {
            *before.entry(k).or_insert(0) += 1;
        }
        Search {
            rules,
            ev: &engine.eval,
            tt: &mut engine.tt,
            heur: &mut engine.heur,
            pos: pos.clone(),
            ws: Workspace::default(),
            log: UndoLog::new(),
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            keys: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            path: vec![0; MAX_PLY + 1],
            before,
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            root,
            salt,
            nodes: 0,
            seldepth: 0,
            cfg,
            start: Instant::now(),
            stop,
            aborted: false,
            placeholder,
            has_rep_goal,
            rep_draw,
            gen_first,
            has_royal: rules.royal.iter().any(|&r| r),
            null_ok: def.pieces.iter().all(|p| p.drops.is_empty())
                && rules.royal.iter().any(|&r| r)
                && engine.eval.n_active == 2
                && !def.players.iter().any(|p| p.random),
            last_null: usize::MAX,
            prune: def.pieces.iter().all(|p| p.drops.is_empty()),
            see_ok: def.pieces.iter().all(|p| p.drops.is_empty())
                && engine.eval.n_active == 2
                && def.players.len() == 2
                && rules.attacks.usable
                && !rules.attacks.capped
                && !rules.attacks.leap_to.is_empty(),
            min_base: (0..def.pieces.len())
                .filter(|&p| !rules.royal[p] && engine.eval.base[p] > 0)
                .map(|p| engine.eval.base[p])
                .min()
                .unwrap_or(0),
            made: vec![0; MAX_PLY + 1],
            sevals: vec![-INF; MAX_PLY + 1],
            check_memo: std::cell::Cell::new(None),
            kings: vec![Kings::default(); MAX_PLY + 1],
            ops_only: def.after_move.is_empty() || rules.after_move_plain,
            root_depth: 1,
        }
    }

    /// Iterative deepening at the root.
    fn iterate(&mut self, progress: &mut dyn FnMut(&Info)) -> Option<SearchResult> {
        self.path[0] = self.pos.repetition_key();
        let mut root_list = MoveList::new();
        self.rules
            .legal_moves_in(&mut self.ws, &mut self.pos, &mut root_list);
        let reps = self.repetitions(0);
        let cx = GoalContext {
            pos: &self.pos,
            moves: &root_list,
            repetitions: reps,
        };
        if root_list.is_empty() || self.rules.outcome(&cx).is_some() {
            return None;
        }
        let texts = notation::move_texts(&self.rules.def, &root_list);
        let n = root_list.len();
        // Root order: the stored best move first, then captures, then the rest.
        let tt_fp = self.tt.probe(self.pos.hash ^ self.salt).map_or(0, |e| e.fp);
        self.lists[0] = root_list.clone();
        self.score_moves(0, tt_fp, false);
        let mut order: Vec<(i32, u16)> = self.keys[0].clone();
        order.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        let mut order: Vec<u16> = order.into_iter().map(|(_, i)| i).collect();

        let limits = &self.cfg.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut best = order[0] as usize;
        let mut best_info: Option<Info> = None;
        // MultiPV: line k is the best of the root moves that lines 0..k did not take.
        let lines = (self.cfg.multi_pv.max(1) as usize).min(n);
        let mut prev_scores = vec![0; lines];
        for depth in 1..=max_depth {
            let mut found: Vec<(i32, Info)> = Vec::new();
            let mut complete = true;
            for k in 0..lines {
                let (value, idx, done, sound) =
                    self.root_search(depth as i32, &mut order[k..], prev_scores[k], k == 0);
                // An unfinished iteration counts when no earlier one finished, or when a move
                // it finished scored above the window's lower bound (its score is then no
                // worse than that move's: a better move found before time ran out).
                let first_partial = k == 0 && (best_info.is_none() || sound) && idx.is_some();
                if !(done || first_partial) {
                    complete = false;
                    break;
                }
                let Some(idx) = idx else {
                    complete = false;
                    break;
                };
                if k == 0 {
                    best = idx;
                }
                prev_scores[k] = value;
                found.push((
                    value,
                    Info {
                        depth: if done { depth } else { depth - 1 },
                        score: to_score(value),
                        nodes: self.nodes,
                        elapsed: self.start.elapsed(),
                        pv: self.pv_texts(),
                        multipv: 0,
                    },
                ));
                if !done {
                    complete = false;
                    break;
                }
            }
            if found.is_empty() {
                break;
            }
            // Reported best first (a later line can outscore an earlier one when the search
            // is unstable; the move played stays the first line's).
            let value = found[0].0;
            let mut ranked = found;
            ranked[1..].sort_by_key(|(v, _)| std::cmp::Reverse(*v));
            for (k, (_, info)) in ranked.iter_mut().enumerate() {
                info.multipv = k as u32 + 1;
                info.nodes = self.nodes;
                info.elapsed = self.start.elapsed();
                progress(info);
            }
            best_info = ranked.into_iter().next().map(|(_, info)| info);
            if !complete {
                break;
            }
            let proven = value.abs() >= MATE_BOUND && ((MATE - value.abs()) as u32) < depth;
            let half_time = limits.time.is_some_and(|t| self.start.elapsed() * 2 >= t);
            let only = n == 1 && limits.depth.is_none();
            if proven || half_time || only {
                break;
            }
        }
        let info = best_info.unwrap_or_else(|| Info {
            depth: 0,
            score: to_score(0),
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            pv: vec![texts[best].clone()],
            multipv: 1,
        });
        Some(SearchResult {
            best,
            best_text: texts[best].clone(),
            info,
        })
    }

    /// One iteration at the root: (score, best move, whether every move was searched).
    /// `store`: the result is the position's best move (not a later MultiPV line), so it goes
    /// into the transposition table.
    fn root_search(
        &mut self,
        depth: i32,
        order: &mut [u16],
        prev: i32,
        store: bool,
    ) -> (i32, Option<usize>, bool, bool) {
        self.root_depth = depth;
        // Aspiration: a window around the last score, widened when the result falls outside.
        let mut delta = 60;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let (v, idx, complete) = self.root_window(depth, order, alpha, beta, store);
            if !complete {
                return (v, idx, false, idx.is_some() && v > alpha);
            }
            if v <= alpha && alpha > -INF {
                alpha = (alpha - delta).max(-INF);
                if delta > 1000 {
                    alpha = -INF;
                }
            } else if v >= beta && beta < INF {
                beta = (beta + delta).min(INF);
                if delta > 1000 {
                    beta = INF;
                }
            } else {
                return (v, idx, true, true);
            }
            delta *= 3;
        }
    }

    fn root_window(
        &mut self,
        depth: i32,
        order: &mut [u16],
        mut alpha: i32,
        beta: i32,
        store: bool,
    ) -> (i32, Option<usize>, bool) {
        let mut best = -INF;
        let mut best_idx = None;
        let mut vals: Vec<i32> = vec![-INF; order.len()];
        let alpha0 = alpha;
        self.pv[0].clear();
        for k in 0..order.len() {
            let idx = order[k] as usize;
            let m = self.lists[0].moves[idx];
            self.made[0] = fingerprint(&self.lists[0], &m);
            self.rules
                .make(&mut self.pos, &self.lists[0], &m, &mut self.log);
            let v = if k == 0 {
                self.child(depth - 1, alpha, beta, 0, true)
            } else {
                let mut v = self.child(depth - 1, alpha, alpha + 1, 0, true);
                if v > alpha && v < beta && !self.aborted {
                    v = self.child(depth - 1, alpha, beta, 0, true);
                }
                v
            };
            revert(&mut self.pos, &mut self.log);
            if self.aborted {
                return (best, best_idx, false);
            }
            vals[k] = v;
            if v > best {
                best = v;
                best_idx = Some(idx);
                self.set_pv(0, idx as u16);
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        // Best first; the others keep their order (stable sort on fail-low bounds).
        let mut pairs: Vec<(i32, u16)> = vals.iter().copied().zip(order.iter().copied()).collect();
        pairs.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        for (o, p) in order.iter_mut().zip(pairs) {
            *o = p.1;
        }
        if let (Some(idx), true) = (best_idx, store) {
            let fp = fingerprint(&self.lists[0], &self.lists[0].moves[idx]);
            let bound = tt::bound(best, alpha0, beta);
            self.tt.store(
                self.pos.hash ^ self.salt,
                fp,
                idx as u16,
                best,
                depth,
                bound,
            );
        }
        (best, best_idx, true)
    }

    /// Searches the position after a move made at `ply` by a side (`me`: whether it was the
    /// root's team), returning its value for that side.
    fn child(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize, me: bool) -> i32 {
        if self.team() == me {
            self.alphabeta(depth, alpha, beta, ply + 1)
        } else {
            -self.alphabeta(depth, -beta, -alpha, ply + 1)
        }
    }

    /// [`Search::child`] for the quiescence search.
    fn qchild(&mut self, alpha: i32, beta: i32, ply: usize, qply: usize, me: bool) -> i32 {
        if self.team() == me {
            self.quiesce(alpha, beta, ply + 1, qply + 1)
        } else {
            -self.quiesce(-beta, -alpha, ply + 1, qply + 1)
        }
    }

    /// Whether the side to move in the current position is the root player's team.
    fn team(&self) -> bool {
        self.rules.entry(self.pos.turn).mover == self.root
    }

    /// The static evaluation for the side to move.
    fn evaluate(&self) -> i32 {
        let v = self.ev.eval(&self.pos, self.root);
        if self.team() {
            v
        } else {
            -v
        }
    }

    /// How often the current position (at `ply`) has occurred, counting the game before the
    /// root and the search path.
    fn repetitions(&self, ply: usize) -> usize {
        if !self.has_rep_goal {
            return 1;
        }
        let key = self.path[ply];
        self.before.get(&key).copied().unwrap_or(0)
            + self.path[..=ply].iter().filter(|&&k| k == key).count()
    }

    /// Whether the current position occurred before (in the game or on the path), when
    /// repetition is a draw: it is then scored as one.
    fn repeated(&self, ply: usize) -> bool {
        if !self.rep_draw || ply == 0 {
            return false;
        }
        let key = self.path[ply];
        self.path[..ply].contains(&key) || self.before.contains_key(&key)
    }

    /// The value of a finished game for the side to move, if the goals say it is over.
    fn terminal(&self, ply: usize, moves: &MoveList, reps: usize) -> Option<i32> {
        let cx = GoalContext {
            pos: &self.pos,
            moves,
            repetitions: reps,
        };
        let o = self.rules.outcome(&cx)?;
        let v = outcome_value(&o, self.root, self.ev.n_active, ply);
        Some(if self.team() { v } else { -v })
    }

    /// [`Search::terminal`] with the goals that do not depend on the moves (a placeholder
    /// stands for "the side to move has moves"), before they are generated.
    fn terminal_before_moves(&mut self, ply: usize, reps: usize) -> Option<i32> {
        let placeholder = std::mem::take(&mut self.placeholder);
        let end = self.terminal(ply, &placeholder, reps);
        self.placeholder = placeholder;
        end
    }

    /// Generates the legal moves at `ply` into `lists[ply]`; `Some(value)` when the game is
    /// over there (a goal, or no move).
    fn generate(&mut self, ply: usize, reps: usize) -> Option<i32> {
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.rules
            .legal_moves_in(&mut self.ws, &mut self.pos, &mut list);
        let end = self.terminal(ply, &list, reps);
        let empty = list.is_empty();
        self.lists[ply] = list;
        if end.is_some() {
            return end;
        }
        empty.then_some(0)
    }

    /// Whether the node at `ply`, not in check, has a single legal move, below twice the
    /// iteration depth: such a node is searched a ply deeper.
    fn single_reply(&self, ply: usize, in_check: bool) -> bool {
        self.lists[ply].len() == 1 && (ply as i32) < 2 * self.root_depth && !in_check
    }

    /// Counts a node and notes when a limit is reached.
    fn tick(&mut self) {
        self.nodes += 1;
        if let Some(n) = self.cfg.limits.nodes {
            if self.nodes >= n {
                self.aborted = true;
            }
        }
        if self.nodes & 15 == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
            if let Some(t) = self.cfg.limits.time {
                if self.start.elapsed() >= t {
                    self.aborted = true;
                }
            }
        }
    }

    /// Whether the side to move owns a piece that is not royal and is worth at least twice
    /// the least piece (so that passing is rarely its best move).
    fn has_big_piece(&self) -> bool {
        let owner = self.rules.entry(self.pos.turn).owner;
        self.pos.cells.iter().any(|c| {
            !c.is_empty()
                && c.owner == owner.0
                && !self.rules.royal[c.piece as usize - 1]
                && self.ev.base[c.piece as usize - 1] >= 2 * self.min_base
        })
    }

    fn in_check(&self) -> bool {
        if !self.has_royal {
            return false;
        }
        let hash = self.pos.hash;
        if let Some((h, v)) = self.check_memo.get() {
            if h == hash {
                return v;
            }
        }
        let v = (self.rules).royal_attacked(&self.pos, self.rules.entry(self.pos.turn).owner);
        self.check_memo.set(Some((hash, v)));
        v
    }

    /// Before a move at `ply` is made to be tested for check: the royal squares of the side
    /// that will move after it, unless already found at this node.
    fn note_kings(&mut self, ply: usize) {
        let side = self.rules.entry(self.rules.next_turn(self.pos.turn)).owner;
        let key = self.path[ply];
        let k = &mut self.kings[ply];
        if k.valid && k.key == key && k.side == side.0 {
            return;
        }
        k.squares.clear();
        for (sq, c) in self.pos.cells.iter().enumerate() {
            if self.rules.royal_of(*c, side) {
                k.squares.push(sq as u16);
            }
        }
        (k.key, k.side, k.valid) = (key, side.0, true);
    }

    /// After the move `m` at `ply` (prepared by [`Search::note_kings`]): whether the side to
    /// move is in check, as [`Search::in_check`] says, without looking for its royal pieces
    /// when the move's writes leave them where they were.
    fn gives_check(&self, ply: usize, m: &Move) -> bool {
        let k = &self.kings[ply];
        let side = PlayerId(k.side);
        let moved = self.lists[ply].ops(m).iter().any(|op| match *op {
            crate::engine::Op::Set(sq, c) => {
                self.rules.royal_of(c, side) || k.squares.contains(&sq)
            }
            _ => false,
        });
        if !self.ops_only || moved {
            return self.in_check();
        }
        (k.squares.iter()).any(|&sq| self.rules.attacked(&self.pos, sq, side, None, true))
    }

    /// What every node does first: count itself, clear its line, note its position for
    /// repetitions. `Some(value)` when that already decides it (aborted search, repetition,
    /// the ply limit).
    fn enter(&mut self, ply: usize) -> Option<i32> {
        self.tick();
        if self.aborted {
            return Some(0);
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        self.path[ply] = self.pos.repetition_key();
        if self.repeated(ply) {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate());
        }
        None
    }

    /// The main search: the value of the current position (at `ply`) for the side to move.
    fn alphabeta(&mut self, mut depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        // Mate distance pruning: nothing here can beat a win already found nearer the root.
        let best_possible = MATE - ply as i32 - 1;
        let in_check = self.in_check();
        let pv_node = beta - alpha > 1;
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        // At the horizon the position is the quiescence search's node, counted there once
        // (counted here too, horizon positions were two nodes each).
        if depth <= 0 && best_possible > alpha {
            return self.quiesce(alpha, beta, ply, 0);
        }
        if let Some(v) = self.enter(ply) {
            return v;
        }
        if best_possible <= alpha {
            return best_possible;
        }
        let hash = self.pos.hash ^ self.salt;
        let mut tt_fp = 0;
        if let Some(e) = self.tt.probe(hash) {
            tt_fp = e.fp;
            if e.depth as i32 >= depth && !pv_node {
                if let Some(v) = tt_cut(&e, ply, alpha, beta) {
                    return v;
                }
            }
        }
        let reps = self.repetitions(ply);
        let me = self.team();
        let mover = self.rules.entry(self.pos.turn).mover;
        let random = self.rules.def.players[mover.idx()].random;
        // Where captures are not compulsory, the pruning below decides before the moves are
        // generated (as quiescence stands pat before generating): a node it cuts costs no
        // generation.
        let gen_late = !self.gen_first && !random;
        if !gen_late {
            if let Some(v) = self.generate(ply, reps) {
                return v;
            }
            if random {
                return self.chance(depth, ply, me);
            }
            // A single legal reply (out of check, which extends already) is searched a ply deeper:
            // forced lines, such as a draughts capture that must be made, cost one node a ply and
            // decide games (international draughts at equal nodes: docs/strength.md).
            if self.single_reply(ply, in_check) {
                depth += 1;
            }
        }
        // Pruning by the static evaluation, away from the principal variation, never in
        // check and never near a mate score.
        let prunable = self.prune
            && !pv_node
            && !in_check
            && beta.abs() < MATE_BOUND
            && alpha.abs() < MATE_BOUND;
        let static_eval = if prunable { self.evaluate() } else { -INF };
        self.sevals[ply] = static_eval;
        let improving =
            ply < 2 || self.sevals[ply - 2] == -INF || static_eval > self.sevals[ply - 2];
        if prunable {
            // Both cuts below need the evaluation at or above beta; a finished game is never
            // cut (the goals that do not depend on the moves, before generating them).
            if gen_late && static_eval >= beta {
                if let Some(v) = self.terminal_before_moves(ply, reps) {
                    return v;
                }
            }
            // Reverse futility: far above beta with little depth left, a move will not fall
            // below it.
            if depth <= RFP_DEPTH && static_eval - RFP_MARGIN * depth >= beta {
                return static_eval;
            }
            // Razoring: far below alpha near the horizon, only a capture could help, so
            // quiescence decides; the node fails low if it confirms.
            if depth <= RAZOR_DEPTH
                && static_eval + RAZOR_BASE + RAZOR_MARGIN * depth * depth <= alpha
            {
                let v = self.quiesce(alpha, alpha + 1, ply, 0);
                if self.aborted {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
            }
            // Null move: if passing still holds beta, a real move will (not in zugzwang-prone
            // positions: only where kings must be kept safe and the mover has a piece worth
            // more than the least one).
            if depth >= 3
                && static_eval >= beta
                && self.null_ok
                && self.last_null != ply
                && self.has_big_piece()
            {
                let r = 3 + depth / 3 + ((static_eval - beta) / 200).min(3);
                let next = self.rules.next_turn(self.pos.turn);
                if self.rules.entry(next).mover != mover {
                    crate::engine::apply(
                        &mut self.pos,
                        &[],
                        next,
                        crate::def::NONE,
                        crate::def::NONE,
                        &mut self.log,
                    );
                    let saved = self.last_null;
                    self.last_null = ply + 1;
                    self.made[ply] = 0;
                    let v = self.child(depth - 1 - r, beta - 1, beta, ply, me);
                    self.last_null = saved;
                    revert(&mut self.pos, &mut self.log);
                    if self.aborted {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= MATE_BOUND { beta } else { v };
                    }
                }
            }
        }
        if gen_late {
            if let Some(v) = self.generate(ply, reps) {
                return v;
            }
            // As above: a single legal reply is searched a ply deeper.
            if self.single_reply(ply, in_check) {
                depth += 1;
            }
        }
        self.score_moves(ply, tt_fp, false);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_idx = u16::MAX;
        let n = self.keys[ply].len();
        for k in 0..n {
            let idx = self.pick(ply, k);
            let m = self.lists[ply].moves[idx as usize];
            let quiet = m.n_captures() == 0 && m.promote == 0;
            let key = self.keys[ply][k].0;
            let late_quiet = k > 0 && quiet && key < KILLER && best > -MATE_BOUND;
            // Late move pruning and futility pruning of quiet moves near the horizon; the
            // bounds are halved where the evaluation fell since the side last moved, and the
            // futility margin counts the depth the move would be searched at after its
            // reduction.
            let reduced = (depth - lmr(depth, k)).max(1);
            let prune_it = prunable
                && late_quiet
                && depth <= PRUNE_DEPTH
                && (k >= (LMP_BASE + (depth * depth) as usize) / (2 - improving as usize)
                    || static_eval + FUTILITY_BASE + FUTILITY_MARGIN * reduced <= alpha);
            // Games with drops prune by move count alone, not by the evaluation: at depth 3 or
            // less, quiet moves after the first 6 + 4 d² (drops are many and mostly quiet).
            // Checking moves are not spared here: making each pruned move to test for check
            // halved the nodes a second in Crazyhouse, and depth 5 took 2.6 times the nodes.
            let drop_prune = !self.prune
                && !pv_node
                && !in_check
                && late_quiet
                && depth <= DROP_LMP_DEPTH
                && alpha.abs() < MATE_BOUND
                && k >= DROP_LMP_BASE + DROP_LMP_FACTOR * (depth * depth) as usize;
            if (prune_it && !self.has_royal) || drop_prune {
                continue;
            }
            // A capture that loses more than a pawn a ply of depth by exchange is not searched
            // near the horizon.
            if prunable
                && k > 0
                && depth <= PRUNE_DEPTH
                && best > -MATE_BOUND
                && key < BAD_CAPTURE / 2
                && key - BAD_CAPTURE < -SEE_PRUNE_MARGIN * depth
            {
                continue;
            }
            if prune_it {
                self.note_kings(ply);
            }
            self.made[ply] = fingerprint(&self.lists[ply], &m);
            self.rules
                .make(&mut self.pos, &self.lists[ply], &m, &mut self.log);
            // A move that checks is searched all the same (mates are quiet moves too).
            if prune_it && !self.gives_check(ply, &m) {
                revert(&mut self.pos, &mut self.log);
                continue;
            }
            let v = if k == 0 {
                self.child(depth - 1, alpha, beta, ply, me)
            } else {
                // Late quiet moves are searched less deep first, the later the less deep.
                // (Games with drops too: with one ply, two for very late moves, instead,
                // Crazyhouse lost at equal nodes, docs/strength.md.)
                let reduce = if depth >= 3 && k >= 2 && quiet && !in_check && key < KILLER {
                    let r = lmr(depth, k) - pv_node as i32;
                    r.clamp(0, depth - 2)
                } else {
                    0
                };
                let mut v = self.child(depth - 1 - reduce, alpha, alpha + 1, ply, me);
                if v > alpha && reduce > 0 && !self.aborted {
                    v = self.child(depth - 1, alpha, alpha + 1, ply, me);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = self.child(depth - 1, alpha, beta, ply, me);
                }
                v
            };
            revert(&mut self.pos, &mut self.log);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_idx = idx;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, idx);
                    if v >= beta {
                        if quiet {
                            let fp = fingerprint(&self.lists[ply], &m);
                            self.reward(ply, &m, fp, depth, me);
                        }
                        break;
                    }
                }
            }
        }
        let bound = tt::bound(best, alpha0, beta);
        let fp = if best_idx == u16::MAX {
            0
        } else {
            let list = &self.lists[ply];
            fingerprint(list, &list.moves[best_idx as usize])
        };
        self.tt
            .store(hash, fp, best_idx, to_tt(best, ply), depth, bound);
        best
    }

    /// A random player's turn: the average over its moves.
    fn chance(&mut self, depth: i32, ply: usize, me: bool) -> i32 {
        let n = self.lists[ply].len();
        let mut sum = 0i64;
        for i in 0..n {
            let m = self.lists[ply].moves[i];
            self.rules
                .make(&mut self.pos, &self.lists[ply], &m, &mut self.log);
            let v = self.child(depth - 1, -INF, INF, ply, me);
            revert(&mut self.pos, &mut self.log);
            if self.aborted {
                return 0;
            }
            sum += v as i64;
        }
        (sum / n.max(1) as i64) as i32
    }

    /// Captures and promotions until the position is quiet; a side that must capture (or is
    /// in check) cannot stand pat.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        if let Some(v) = self.enter(ply) {
            return v;
        }
        // Games with drops keep searching evasions deeper: a piece in hand gives checks
        // without end (Crazyhouse at equal nodes lost with one ply).
        let qcheck = if self.prune { QCHECK } else { QCHECK_DROPS };
        let in_check = qply < qcheck && self.in_check();
        let reps = self.repetitions(ply);
        // The transposition table serves quiescence too: any stored result whose bound
        // decides the window ends the node, and its move is tried first (matches at equal
        // nodes in docs/strength.md).
        let qtt = !in_check;
        let hash = self.pos.hash ^ self.salt;
        let mut tt_fp = 0;
        if qtt {
            if let Some(e) = self.tt.probe(hash) {
                tt_fp = e.fp;
                if let Some(v) = tt_cut(&e, ply, alpha, beta) {
                    return v;
                }
            }
        }
        let alpha0 = alpha;
        let mut stand = None;
        if !self.gen_first && !in_check {
            // The goals that do not depend on the moves, before paying for generation.
            if let Some(v) = self.terminal_before_moves(ply, reps) {
                return v;
            }
            let v = self.evaluate();
            if v >= beta {
                return v;
            }
            stand = Some(v);
        }
        // Where captures are not compulsory and the side is not in check (also past the plies
        // where checks are searched, so a capture that mates is seen as before), it may stand
        // pat and only captures and promotions are searched: they are generated alone (royal
        // safety judges quiet moves only until one is legal). With a legal move left out, the
        // goals are the ones already tested (they do not depend on the moves).
        let captures_only = stand.is_some() && !self.in_check();
        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut other = false;
        if captures_only {
            other = (self.rules).legal_captures_in(&mut self.ws, &mut self.pos, &mut list);
        } else {
            (self.rules).legal_moves_in(&mut self.ws, &mut self.pos, &mut list);
        }
        let end = if other {
            None
        } else {
            self.terminal(ply, &list, reps)
        };
        let empty = list.is_empty() && !other;
        let forced = in_check
            || (!other && (list.moves.iter()).all(|m| m.n_captures() > 0 || m.promote != 0));
        self.lists[ply] = list;
        if let Some(v) = end {
            return v;
        }
        if empty {
            return 0;
        }
        let forced = forced && qply < QFORCED;
        let mover = self.rules.entry(self.pos.turn).mover;
        if qply >= QMAX || self.rules.def.players[mover.idx()].random {
            return self.evaluate();
        }
        let mut best = -INF;
        if !forced {
            let stand = stand.unwrap_or_else(|| self.evaluate());
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let me = self.team();
        // Only captures and promotions unless forced.
        self.score_moves(ply, tt_fp, !forced);
        // Past the first plies, only the most promising captures of a side that may stand pat:
        // in games where captures never run out, the capture tree would grow without bound.
        let mut n = self.keys[ply].len();
        if !forced {
            n = n.min(if qply == 0 { QWIDE } else { QNARROW });
        }
        let mut best_idx = u16::MAX;
        for k in 0..n {
            let idx = self.pick(ply, k);
            let m = self.lists[ply].moves[idx as usize];
            if !forced && m.promote == 0 && best > -MATE_BOUND {
                // Delta pruning: even winning the captured pieces outright leaves the side
                // below alpha.
                if best + self.capture_gain(ply, &m) + DELTA_MARGIN <= alpha {
                    continue;
                }
            }
            // A capture by a piece worth more than what it takes, onto a square the other side
            // attacks, likely loses material: skipped (a cheap stand-in for exchange
            // evaluation that any rules' attack test answers). Not in games with drops, where
            // the piece taken is one more to drop.
            let risky = self.prune
                && !forced
                && m.promote == 0
                && m.piece != 0
                && self.ev.base[m.piece as usize - 1].abs() > self.capture_gain(ply, &m) + 50;
            let mover = self.rules.entry(self.pos.turn).owner;
            self.rules
                .make(&mut self.pos, &self.lists[ply], &m, &mut self.log);
            if risky {
                let path = self.lists[ply].path(&m);
                let to = path[path.len() - 1];
                if to != crate::def::NONE && self.rules.attacked(&self.pos, to, mover, None, true) {
                    revert(&mut self.pos, &mut self.log);
                    continue;
                }
            }
            let v = self.qchild(alpha, beta, ply, qply, me);
            revert(&mut self.pos, &mut self.log);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_idx = idx;
                    alpha = v;
                    self.set_pv(ply, idx);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if qtt && best > -INF {
            let fp = if best_idx == u16::MAX {
                0
            } else {
                let list = &self.lists[ply];
                fingerprint(list, &list.moves[best_idx as usize])
            };
            let bound = tt::bound(best, alpha0, beta);
            self.tt
                .store(hash, fp, best_idx, to_tt(best, ply), 0, bound);
        }
        best
    }

    /// The worth of the pieces a move at `ply` captures.
    fn capture_gain(&self, ply: usize, m: &Move) -> i32 {
        self.lists[ply]
            .captured(m)
            .iter()
            .map(|&sq| self.pos.cells[sq as usize])
            .filter(|c| !c.is_empty())
            .map(|c| self.ev.base[c.piece as usize - 1].abs())
            .sum()
    }

    /// The static exchange value of a capture at `ply` whose one captured piece stands on its
    /// destination (`None` for other moves, or where exchanges are not judged).
    fn see_move(&self, ply: usize, m: &Move) -> Option<i32> {
        if !self.see_ok || m.drop != 0 {
            return None;
        }
        let list = &self.lists[ply];
        let path = list.path(m);
        let (from, to) = (path[0], path[path.len() - 1]);
        let caps = list.captured(m);
        if from == crate::def::NONE || to == crate::def::NONE || caps != [to] {
            return None;
        }
        let victim = self.pos.cells[to as usize];
        if victim.is_empty() {
            return None;
        }
        let side = self.rules.entry(self.pos.turn).owner.0;
        Some(super::see::exchange(
            self.rules,
            &self.ev.base,
            &self.pos,
            from,
            to,
            side,
            self.ev.base[victim.piece as usize - 1].abs(),
        ))
    }

    /// Ordering keys of the moves at `ply`: the stored best move, then captures and
    /// promotions by gain, then killers, then the counter-move to the move just made, then the
    /// history of quiet moves.
    fn score_moves(&mut self, ply: usize, tt_fp: u32, captures_only: bool) {
        let list = &self.lists[ply];
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        let killers = self.heur.killers[ply];
        let team = self.rules.entry(self.pos.turn).mover == self.root;
        let counter = match ply.checked_sub(1).map(|p| self.made[p]) {
            Some(prev) if prev != 0 => self.heur.counters[counter_index(prev, team)],
            _ => 0,
        };
        for (i, m) in list.moves.iter().enumerate() {
            if captures_only && m.n_captures() == 0 && m.promote == 0 {
                continue;
            }
            let fp = fingerprint(list, m);
            let key = if fp == tt_fp {
                TT_MOVE
            } else if m.n_captures() > 0 || m.promote != 0 {
                let mut gain = 0;
                for &sq in list.captured(m) {
                    let c = self.pos.cells[sq as usize];
                    if !c.is_empty() {
                        gain += self.ev.base[c.piece as usize - 1].abs();
                    }
                }
                if m.promote != 0 && m.piece != 0 {
                    gain += (self.ev.base[m.promote as usize - 1]
                        - self.ev.base[m.piece as usize - 1])
                        .max(0);
                }
                let attacker = if m.piece != 0 {
                    self.ev.base[m.piece as usize - 1].abs()
                } else {
                    0
                };
                // A capture that loses material by exchange comes after the quiet moves.
                match (m.promote == 0).then(|| self.see_move(ply, m)).flatten() {
                    Some(v) if v < 0 => BAD_CAPTURE + v,
                    _ => CAPTURE + (gain * 16 - attacker).clamp(-CAPTURE / 2, CAPTURE / 2),
                }
            } else if fp == killers[0] {
                KILLER + 1
            } else if fp == killers[1] {
                KILLER
            } else if fp == counter {
                KILLER - 1
            } else {
                self.heur.history[hist_index(list, m, team)]
            };
            keys.push((key, i as u16));
        }
        self.keys[ply] = keys;
    }

    /// Moves the best remaining key at `ply` to place `k` and returns its move index.
    fn pick(&mut self, ply: usize, k: usize) -> u16 {
        let keys = &mut self.keys[ply];
        let mut best = k;
        for j in k + 1..keys.len() {
            if keys[j].0 > keys[best].0 {
                best = j;
            }
        }
        keys.swap(k, best);
        keys[k].1
    }

    /// A quiet move caused a cut-off: remember it as a killer and in the history.
    fn reward(&mut self, ply: usize, m: &Move, fp: u32, depth: i32, team: bool) {
        let k = &mut self.heur.killers[ply];
        if k[0] != fp {
            k[1] = k[0];
            k[0] = fp;
        }
        if let Some(prev) = ply.checked_sub(1).map(|p| self.made[p]) {
            if prev != 0 {
                self.heur.counters[counter_index(prev, team)] = fp;
            }
        }
        let h = &mut self.heur.history[hist_index(&self.lists[ply], m, team)];
        *h = (*h + depth * depth).min(KILLER - 2);
    }

    /// `pv[ply]` = the move (its index in the list at `ply`), then the line found below it.
    fn set_pv(&mut self, ply: usize, idx: u16) {
        let list = &self.lists[ply];
        let fp = fingerprint(list, &list.moves[idx as usize]);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(fp);
        if let Some(next) = tail.first() {
            line.extend_from_slice(next);
        }
    }

    /// The root's principal variation as move texts (replayed to check each move).
    fn pv_texts(&mut self) -> Vec<String> {
        let mut pos = self.lists.first().map(|_| self.pos.clone()).expect("root");
        let mut list = MoveList::new();
        let mut log = UndoLog::new();
        let mut out = Vec::new();
        for &fp in &self.pv[0] {
            self.rules.legal_moves_in(&mut self.ws, &mut pos, &mut list);
            let Some(idx) = (list.moves.iter()).position(|m| fingerprint(&list, m) == fp) else {
                break;
            };
            let m = list.moves[idx];
            out.push(notation::move_texts(&self.rules.def, &list)[idx].clone());
            self.rules.make(&mut pos, &list, &m, &mut log);
        }
        out
    }
}

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
/// Captures that lose material by exchange: after every quiet move.
const BAD_CAPTURE: i32 = -(1 << 27);
/// Reverse futility pruning: up to this depth, by this margin a ply.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 70;
/// Razoring: up to this depth, when the evaluation is below alpha by the base plus this
/// margin times the depth squared.
const RAZOR_DEPTH: i32 = 3;
const RAZOR_BASE: i32 = 150;
const RAZOR_MARGIN: i32 = 100;
/// Late move pruning, futility pruning of quiet moves and exchange pruning of captures: up to
/// this depth.
const PRUNE_DEPTH: i32 = 6;
/// Futility pruning of quiet moves: this margin, and this much more a ply of reduced depth.
const FUTILITY_BASE: i32 = 80;
const FUTILITY_MARGIN: i32 = 100;
/// Captures losing more than this by exchange, times the depth, are pruned.
const SEE_PRUNE_MARGIN: i32 = 100;
/// Delta pruning in quiescence: the margin over the captured material.
const DELTA_MARGIN: i32 = 200;
/// Late move pruning: quiet moves searched at depth d before the rest are dropped are
/// 3 + d², half as many where the evaluation fell since the side last moved.
const LMP_BASE: usize = 3;
/// In games with drops (no pruning by the evaluation), quiet moves searched at depth d ≤ 3
/// before the rest are dropped: 6 + 4 d².
const DROP_LMP_BASE: usize = 6;
const DROP_LMP_FACTOR: usize = 4;
const DROP_LMP_DEPTH: i32 = 3;

/// Late move reduction of the `k`-th move at `depth`: grows with the log of both.
fn lmr(depth: i32, k: usize) -> i32 {
    let v = 0.5 + (depth as f64).ln() * ((k + 1) as f64).ln() / 2.0;
    v as i32
}

/// Where the counter-move to a move (by its fingerprint) is kept, for the side replying.
fn counter_index(prev: u32, team: bool) -> usize {
    (prev as usize & (HIST - 1)) + HIST * team as usize
}

fn hist_index(list: &MoveList, m: &Move, team: bool) -> usize {
    let path = list.path(m);
    let from = path[0] as usize;
    let to = path[path.len() - 1] as usize;
    let h = from.wrapping_mul(0x9E37) ^ to.wrapping_mul(0x85EB) ^ (m.drop as usize) << 7;
    (h & (HIST - 1)) + HIST * team as usize
}

/// A score for the table: wins and losses counted from this position, not the root.
fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// The stored score when the entry's bound decides the window `alpha..beta`.
fn tt_cut(e: &tt::Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_tt(e.score as i32, ply);
    let cut = match e.bound() {
        tt::EXACT => true,
        tt::LOWER => v >= beta,
        _ => v <= alpha,
    };
    cut.then_some(v)
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// Whether any goal reads repetition, and whether every such goal is a plain draw (so an
/// earlier occurrence may be scored as a draw at once).
fn repetition_goals(rules: &Rules) -> (bool, bool) {
    use crate::def::{GoalCond, GoalKind};
    fn reads(c: &GoalCond) -> bool {
        match c {
            GoalCond::Repetition => true,
            GoalCond::Not(x) => reads(x),
            GoalCond::And(xs) | GoalCond::Or(xs) => xs.iter().any(reads),
            _ => false,
        }
    }
    let mut any = false;
    let mut all_draw = true;
    for g in &rules.def.goals {
        if reads(&g.cond) {
            any = true;
            let plain = matches!(g.cond, GoalCond::Repetition);
            all_draw &= plain && g.kind == GoalKind::Draw && g.score.is_none_or(|(w, _)| w > 0);
        }
    }
    (any, any && all_draw)
}
