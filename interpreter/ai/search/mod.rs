//! Alpha-beta: iterative deepening, principal variation search, a transposition table, late
//! move reductions and a quiescence search over captures and promotions.
//!
//! Scores are negamax scores from the view of the side to move, where a side is the root
//! player's team or the others' (paranoid search for more than two players); a move that
//! leaves the same side to move (a player who moves twice) does not negate the score.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::eval::Evaluator;
use super::tt::{self, Table};
use super::{to_score, Engine, Info, SearchConfig, SearchResult, MATE, MATE_BOUND};
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
/// Quiescence plies in which drops that give check are searched with the captures (games
/// with drops and royal pieces; matches at equal nodes in docs/strength.md).
const QCHECK_DROP_PLIES: usize = 1;
/// Larger than any score.
const INF: i32 = MATE + 1;
const HIST: usize = 1 << 14;
/// Entries of the evaluation memo ([`Search::eval_root`]), a power of two.
const EVAL_MEMO: usize = 1 << 14;
mod exchange;
mod history;
mod node;
mod order;
mod quiesce;
mod root;
mod singular;

use exchange::QuietExchange;
pub use order::{fingerprint, Heuristics};
use order::{BAD_CAPTURE, KILLER, QUIET_CHECK};
use singular::Singular;
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
    /// Null moves are tried (two sides taking turns, kings to keep safe, no chance). Games
    /// with drops too.
    null_ok: bool,
    /// Pruning by the evaluation is used: not in games with drops, where a piece in hand can
    /// change the evaluation at once; those prune late quiet moves by their count alone.
    prune: bool,
    /// The ply just after the last null move on the path (no two in a row).
    last_null: usize,
    /// Captures are ordered by static exchange ([`super::see`]): two sides, no drops,
    /// usable attack tables.
    see_ok: bool,
    /// Least average worth of a piece type that is not royal (for "a piece worth more").
    min_base: i32,
    /// What a draw costs the root's side (two players only).
    contempt: i32,
    /// The fingerprint of the move made at each ply of the path (0 for a null move).
    made: Vec<u32>,
    /// The static evaluation at each ply of the path (-INF where not computed).
    sevals: Vec<i32>,
    /// The last in-check answer, by position hash (a frontier node asks twice: in the main
    /// search, then in quiescence).
    check_memo: std::cell::Cell<Option<(u64, bool)>>,
    /// Static exchange over square sets where the board allows (`see::Bits`), and the
    /// occupancy of the last position it judged, by board key.
    see_bits: Option<Box<crate::ai::see::Bits>>,
    see_occ: std::cell::Cell<Option<(u64, crate::ai::see::Occupancy)>>,
    /// Per ply: the royal squares of the side that moves after the node's moves, found once
    /// for the quiet moves tested for check there (keyed by the node's repetition key and that
    /// side).
    kings: Vec<Kings>,
    /// Moves write the board only through their ops (no `after-move` program that may write
    /// cells), so a move's ops show whether it moved or created royal pieces.
    ops_only: bool,
    /// The depth of the current iteration (single-reply extensions stop at twice it).
    root_depth: i32,
    /// Evaluations by board key, direct-mapped (`i32::MIN`: empty).
    eval_memo: Vec<(u64, i32)>,
    /// The continuation-history key ([`history::move_key`]) of the move made at each ply of
    /// the path (0 for a null move).
    made_key: Vec<u32>,
    /// Per ply: the keys of the quiet moves searched so far at the node.
    tried: Vec<Vec<u32>>,
    /// The origin and destination of the move made at each ply (`NONE` for a null move), and
    /// whether the side to move was in check there ([`Search::checks_again`]; quiescence
    /// notes destinations only, for its recaptures).
    from: Vec<u16>,
    dest: Vec<u16>,
    checked: Vec<bool>,
    /// Per ply: the move (fingerprint) a singular-extension search leaves out (0: none).
    excluded: Vec<u32>,
    /// Singular extensions are tried: games without drops or compulsory captures.
    singular_ok: bool,
    /// The number of pieces in the starting position.
    start_pieces: usize,
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
        let contempt = engine.contempt(rules, cfg);
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
            null_ok: rules.royal.iter().any(|&r| r)
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
            min_base: least_worth(rules, &engine.eval.base),
            contempt,
            made: vec![0; MAX_PLY + 1],
            sevals: vec![-INF; MAX_PLY + 1],
            check_memo: std::cell::Cell::new(None),
            see_bits: crate::ai::see::Bits::new(rules).map(Box::new),
            see_occ: std::cell::Cell::new(None),
            kings: vec![Kings::default(); MAX_PLY + 1],
            ops_only: rules.after_move_counters_only(),
            root_depth: 1,
            eval_memo: vec![(0, i32::MIN); EVAL_MEMO],
            made_key: vec![0; MAX_PLY + 1],
            tried: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            from: vec![crate::def::NONE; MAX_PLY + 1],
            dest: vec![crate::def::NONE; MAX_PLY + 1],
            checked: vec![false; MAX_PLY + 1],
            excluded: vec![0; MAX_PLY + 1],
            singular_ok: def.pieces.iter().all(|p| p.drops.is_empty()) && !gen_first,
            start_pieces: def.setup.placements.len(),
        }
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
    /// A draw's value for the side to move: `contempt` below zero for the root's side.
    fn draw_value(&self) -> i32 {
        if self.team() {
            -self.contempt
        } else {
            self.contempt
        }
    }

    fn team(&self) -> bool {
        self.rules.entry(self.pos.turn).mover == self.root
    }

    /// The static evaluation for the side to move.
    fn evaluate(&mut self) -> i32 {
        let v = self.eval_root();
        self.ev.tempo + if self.team() { v } else { -v }
    }

    /// The evaluation of the current position for the root player, remembered by the board's
    /// key ([`Position::board_key`]: the evaluation reads only the board and the stores), so a
    /// position evaluated again (razoring's quiescence at the same node, a null move's reply,
    /// transpositions) costs a table read.
    fn eval_root(&mut self) -> i32 {
        let key = self.pos.board_key();
        let slot = &mut self.eval_memo[(key as usize) & (EVAL_MEMO - 1)];
        if slot.0 == key && slot.1 != i32::MIN {
            return slot.1;
        }
        let v = self.ev.eval(&self.pos, self.root);
        *slot = (key, v);
        v
    }

    /// The main search: the value of the current position (at `ply`) for the side to move.
    fn alphabeta(&mut self, mut depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        // Mate distance pruning: nothing here can beat a win already found nearer the root.
        let best_possible = MATE - ply as i32 - 1;
        let in_check = self.in_check();
        let pv_node = beta - alpha > 1;
        self.checked[ply] = in_check;
        if in_check && ply < MAX_PLY / 2 {
            // A check given again by the piece that gave the side's last check (a rook
            // chasing the king) is not extended away from the principal variation; at the
            // horizon it is searched to depth 1.
            if pv_node || !self.checks_again(ply) {
                depth += 1;
            } else {
                depth = depth.max(1);
            }
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
        let hash = self.tt_key();
        let mut tt_fp = 0;
        let mut tt_entry = None;
        let excluded = self.excluded[ply];
        if let Some(e) = (excluded == 0).then(|| self.tt.probe(hash)).flatten() {
            tt_fp = e.fp;
            tt_entry = Some(e);
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
        let quiet_node =
            !pv_node && !in_check && beta.abs() < MATE_BOUND && alpha.abs() < MATE_BOUND;
        let prunable = self.prune && quiet_node;
        // Null move, also in games with drops (there the only pruning by the evaluation).
        let null_here =
            quiet_node && self.null_ok && depth >= 3 && self.last_null != ply && excluded == 0;
        let static_eval = if prunable || null_here {
            self.evaluate()
        } else {
            -INF
        };
        self.sevals[ply] = static_eval;
        // Reverse futility, razoring and the null move read the table's score in place of
        // the evaluation where its bound allows (games with royal pieces and no drops).
        let eval = if self.prune && self.has_royal {
            tt_eval(tt_entry, static_eval, ply)
        } else {
            static_eval
        };
        let improving =
            ply < 2 || self.sevals[ply - 2] == -INF || static_eval > self.sevals[ply - 2];
        // The cuts below need the evaluation at or above beta; a finished game is never cut
        // (the goals that do not depend on the moves, before generating them).
        if (prunable || null_here) && gen_late && eval >= beta {
            if let Some(v) = self.terminal_before_moves(ply, reps) {
                return v;
            }
        }
        if prunable {
            // Reverse futility: far above beta with little depth left, a move will not fall
            // below it.
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * depth >= beta {
                return eval;
            }
            // Razoring: far below alpha near the horizon, only a capture could help, so
            // quiescence decides; the node fails low if it confirms.
            if depth <= RAZOR_DEPTH && eval + RAZOR_BASE + RAZOR_MARGIN * depth * depth <= alpha {
                let v = self.quiesce(alpha, alpha + 1, ply, 0);
                if self.aborted {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
            }
        }
        // Null move: if passing still holds beta, a real move will (not in zugzwang-prone
        // positions: only where kings must be kept safe and the mover has a piece worth more
        // than the least one).
        if null_here && eval >= beta && static_eval >= beta && self.has_big_piece() {
            let r = 3 + depth / 3 + ((eval - beta) / 200).min(3);
            if let Some(v) = self.null_move(depth, r, beta, ply, me, mover) {
                return v;
            }
        }
        // Singular extension and multi-cut (`singular.rs`).
        let tt_ext = match self.singular(tt_entry, depth, beta, ply, in_check, pv_node) {
            Singular::Cut(v) => return v,
            Singular::Extend(e) => e,
        };
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
        // In check near the horizon, away from the principal variation, evasions are pruned
        // once one was searched (`exchange.rs`).
        let evasions_pruned = in_check
            && self.prune
            && !pv_node
            && depth <= exchange::EVASION_DEPTH
            && beta.abs() < MATE_BOUND
            && alpha.abs() < MATE_BOUND;
        let mut quiet_evasions = 0;
        let mut best = -INF;
        let mut best_idx = u16::MAX;
        let n = self.keys[ply].len();
        let prev_keys = self.prev_keys(ply);
        self.tried[ply].clear();
        let mut others_bare = None;
        for k in 0..n {
            let idx = self.pick(ply, k);
            let m = self.lists[ply].moves[idx as usize];
            if excluded != 0 && fingerprint(&self.lists[ply], &m) == excluded {
                continue;
            }
            let quiet = m.n_captures() == 0 && m.promote == 0;
            let key = self.keys[ply][k].0;
            let late_quiet = k > 0 && quiet && key < KILLER && best > -MATE_BOUND;
            let mkey = history::move_key(&self.lists[ply], &m, me);
            let stat = if quiet {
                self.cont_score(prev_keys, mkey)
            } else {
                0
            };
            // Late move pruning and futility pruning of quiet moves near the horizon; the
            // bounds are halved where the evaluation fell since the side last moved, and the
            // futility margin counts the depth the move would be searched at after its
            // reduction.
            let reduced = (depth - lmr(depth, k)).max(1);
            let late = prunable && late_quiet && depth <= PRUNE_DEPTH;
            let counted_out =
                late && k >= (LMP_BASE + (depth * depth) as usize) / (2 - improving as usize);
            // Past the count a quiet move is dropped, check or not (where royal pieces make
            // checks: without them `prune_it` drops it below), unless the other side has
            // royal pieces alone: there checks are how it is mated (tests/ai.rs).
            if counted_out
                && self.has_royal
                && !*others_bare.get_or_insert_with(|| self.others_bare())
            {
                continue;
            }
            let prune_it = counted_out
                || (late && static_eval + FUTILITY_BASE + FUTILITY_MARGIN * reduced <= alpha);
            // Quiet moves that lose material by exchange, principal variation or not.
            let exchange = if quiet
                && k > 0
                && !in_check
                && best > -MATE_BOUND
                && alpha.abs() < MATE_BOUND
                && beta.abs() < MATE_BOUND
            {
                self.quiet_exchange(ply, &m, depth, k)
            } else {
                QuietExchange::Keep
            };
            if exchange == QuietExchange::Drop {
                continue;
            }
            let prune_it = prune_it || exchange == QuietExchange::UnlessCheck;
            // Games with drops prune by move count alone, not by the evaluation: at depth 3 or
            // less, quiet moves after the first 6 + 4 d² (drops are many and mostly quiet).
            // Checks that the attack tables show (`QUIET_CHECK`: a piece put where it attacks
            // a royal piece) are spared; making each pruned move to test for check instead
            // halved the nodes a second in Crazyhouse, and depth 5 took 2.6 times the nodes.
            let drop_prune = !self.prune
                && key != QUIET_CHECK
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
            if evasions_pruned
                && k > 0
                && best > -MATE_BOUND
                && self.evasion_pruned(ply, &m, key, quiet, quiet_evasions)
            {
                continue;
            }
            quiet_evasions += (quiet && in_check) as usize;
            if prune_it {
                self.note_kings(ply);
            }
            self.made[ply] = fingerprint(&self.lists[ply], &m);
            self.made_key[ply] = mkey;
            self.note_squares(ply, &m);
            self.rules
                .make(&mut self.pos, &self.lists[ply], &m, &mut self.log);
            // A move that checks is searched all the same (mates are quiet moves too).
            if prune_it && !self.gives_check(ply, &m) {
                revert(&mut self.pos, &mut self.log);
                continue;
            }
            let v = if k == 0 {
                let ext = if self.keys[ply][0].0 == order::TT_MOVE {
                    tt_ext
                } else {
                    0
                };
                self.child(depth - 1 + ext, alpha, beta, ply, me)
            } else {
                // Late quiet moves are searched less deep first, the later the less deep.
                // (Games with drops too: with one ply, two for very late moves, instead,
                // Crazyhouse lost at equal nodes, docs/strength.md.)
                let reduce = if depth >= 3 && k >= 2 && quiet && !in_check && key < KILLER {
                    // Less for a move with a good continuation history, more for a bad one.
                    let r =
                        lmr(depth, k) - pv_node as i32 - (stat / history::CONT_LMR).clamp(-2, 2);
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
            if quiet {
                self.tried[ply].push(mkey);
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
                            self.reward_cont(ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        if excluded != 0 {
            return best;
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

    /// A null move searched `r` plies shallower with a null window at beta: `Some` with the
    /// node's value when it holds beta (or the search was stopped).
    fn null_move(
        &mut self,
        depth: i32,
        r: i32,
        beta: i32,
        ply: usize,
        me: bool,
        mover: PlayerId,
    ) -> Option<i32> {
        let next = self.rules.next_turn(self.pos.turn);
        if self.rules.entry(next).mover == mover {
            return None;
        }
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
        self.made_key[ply] = 0;
        self.from[ply] = crate::def::NONE;
        self.dest[ply] = crate::def::NONE;
        let v = self.child(depth - 1 - r, beta - 1, beta, ply, me);
        self.last_null = saved;
        revert(&mut self.pos, &mut self.log);
        if self.aborted {
            return Some(0);
        }
        (v >= beta).then_some(if v >= MATE_BOUND { beta } else { v })
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
}

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
/// Late move pruning: quiet moves searched at depth d before the rest are dropped are
/// 3 + d², half as many where the evaluation fell since the side last moved.
const LMP_BASE: usize = 3;
/// In games with drops (no pruning by the evaluation), quiet moves searched at depth d ≤ 3
/// before the rest are dropped: 6 + 4 d².
const DROP_LMP_BASE: usize = 6;
const DROP_LMP_FACTOR: usize = 4;
const DROP_LMP_DEPTH: i32 = 3;

/// Late move reduction of the `k`-th move at `depth`: grows with the log of both.
/// The worth of the least piece that is not royal (0 when there is none).
pub(super) fn least_worth(rules: &Rules, base: &[i32]) -> i32 {
    (0..base.len())
        .filter(|&p| !rules.royal[p] && base[p] > 0)
        .map(|p| base[p])
        .min()
        .unwrap_or(0)
}

fn lmr(depth: i32, k: usize) -> i32 {
    let v = 0.5 + (depth as f64).ln() * ((k + 1) as f64).ln() / 2.0;
    v as i32
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

/// The static evaluation `eval` at `ply`, or the table's score where its bound says the
/// position is worth at least (above `eval`) or at most (below) that score.
fn tt_eval(entry: Option<tt::Entry>, eval: i32, ply: usize) -> i32 {
    let Some(e) = entry else {
        return eval;
    };
    let v = from_tt(e.score as i32, ply);
    let bound = if v > eval { tt::LOWER } else { tt::UPPER };
    if eval > -INF && e.bound() & bound != 0 && v.abs() < MATE_BOUND {
        v
    } else {
        eval
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
