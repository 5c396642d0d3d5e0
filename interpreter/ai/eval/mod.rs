//! The evaluation, derived from the rules alone: piece values from mobility, square tables
//! (more moves, nearer promotion, nearer a goal zone), material in hand, and lines of
//! `relative-config` goals partly filled.
//!
//! Everything is computed once per game in [`Evaluator::new`]; evaluating a position is then
//! one pass over the board adding table entries. `docs/ai.md` explains the derivation.

use crate::def::*;
use crate::engine::{Cell, MoveList, Op, Position, Rules, Scratch};

use super::Rng;

mod activity;
mod formation;
mod graph;
mod lines;
mod phase;
mod structure;
mod threats;
mod weights;

use activity::{activity, Activity};
use formation::{Formation, Tally};
use graph::{empty_graph, reachable, Graph};
use lines::{goal_lines, Line, LineCell};
use phase::{phased_terms, Phased};
pub use weights::Weights;

/// One hundredth of a unit; a unit is the weakest piece type of the setup (a pawn, a man).
pub const UNIT: i32 = 100;

/// The largest evaluation, in hundredths, far below the scores of finished games.
pub const EVAL_MAX: i32 = 15_000;

/// Random boards sampled per player when measuring mobility.
const SAMPLES: usize = 6;
/// Share of the board's squares the random boards fill.
const DENSITY: f64 = 0.3;
/// Mobility given to a piece with no moves (a drop-only mark), so that it still counts.
const FLOOR: f64 = 0.25;
/// Worth, in units, of standing on the squares of an `absolute-config` goal (less with distance).
const GOAL_UNITS: f64 = 2.0;

/// Worth, in units, of a `relative-config` line that lacks one piece (less with more missing).
const LINE_UNITS: f64 = 0.25;
/// More line instances than this and the evaluation ignores them (a large board's lines would
/// make every evaluation slow).
const MAX_LINES: usize = 4_096;

/// Square tables hold one entry per player, piece type and square. Past this many (about
/// 28 bytes each while they are derived), or past [`FINE_EDGES`] moves in the empty-board
/// graphs, the evaluator falls back to one worth per player and type, measured on at most
/// `COARSE_SQUARES` squares per type ([`Evaluator::coarse`]), so memory stays proportional
/// to what the game needs: 2,000 types on a 200x200 board would otherwise take 5 GB.
pub const FINE_CELLS: usize = 4_000_000;
/// The most moves the empty-board graphs of all types may hold (2 bytes each).
pub const FINE_EDGES: usize = 16_000_000;
/// The most move-program work (`Scratch::work`: each block run's loop rounds plus its size,
/// conditions included) the square tables may take to derive: the empty-board graphs (at most
/// a third of it) and the random boards together. Past it the evaluator falls back to the
/// coarse estimate, so deriving the values (which `zrf check` prints) takes about the same
/// bounded time on any game. The largest corpus derivations (Ko Shogi, Qiguo Xiangqi) need
/// 27 and 20 million; macro-heavy files whose blocks are long conditions needed from 50 to
/// 850 million, seconds of `zrf check`.
pub const FINE_WORK: u64 = 32_000_000;
/// Squares sampled per type and player by the coarse evaluation.
const COARSE_SQUARES: usize = 64;
/// The work (block sizes, `Rules::block_weight`, of every type and player per square) the
/// coarse evaluation plans for: past it, it samples fewer squares, down to
/// `MIN_COARSE_SQUARES`.
pub const COARSE_WORK: u64 = 2_000_000;
/// The fewest squares the coarse evaluation samples per type and player.
const MIN_COARSE_SQUARES: u64 = 8;

/// A piece type's worth, as `zrf check` shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceValue {
    /// The piece type.
    pub piece: PieceId,
    /// Its name.
    pub name: String,
    /// Worth in units (1.0 = the weakest piece type of the setup), averaged over the squares
    /// the piece can reach and the players.
    pub value: f64,
    /// Given by the file with `(value N)` rather than derived.
    pub given: bool,
}

/// The piece values of a game, derived or given (see `docs/ai.md`).
pub fn piece_values(rules: &Rules) -> Vec<PieceValue> {
    Evaluator::new(rules).values
}

/// The tables of one game.
#[derive(Clone, Debug)]
pub struct Evaluator {
    n_pieces: usize,
    /// `n_pos`, or 1 when the tables are coarse.
    stride: usize,
    /// `usize::MAX`, or 0 when the tables are coarse (every square the same).
    sq_mask: usize,
    /// The game was too large for square tables: one worth per player and type
    /// ([`FINE_CELLS`]).
    pub coarse: bool,
    /// Worth of a piece on a square: `pst[(player * n_pieces + piece) * stride + (square &
    /// sq_mask)]`.
    pst: Vec<i32>,
    /// Worth of a piece in hand: `hand[player * n_pieces + piece]`.
    hand: Vec<i32>,
    /// Average worth of each type (for move ordering).
    pub base: Vec<i32>,
    /// Players that take turns.
    pub active: Vec<bool>,
    /// Number of players that take turns.
    pub n_active: usize,
    /// The values shown to users.
    pub values: Vec<PieceValue>,
    /// Move-program instructions run to derive the tables (bounded by about [`FINE_WORK`],
    /// plus the coarse estimate's `players x types x 64` block runs).
    pub work: u64,
    /// Lines of `relative-config` goals.
    lines: Vec<Line>,
    /// Worth of the lines of each pattern by squares filled: `line_worth[line.worth + k]`.
    line_worth: Vec<i32>,
    /// Their squares: `cells[line.first..line.first + line.len]`.
    line_cells: Vec<LineCell>,
    /// Royal squares by the game's phase (`None` for coarse tables, games without royal
    /// pieces and games with drops).
    phased: Option<Box<Phased>>,
    /// The material on the board at the start, where captures are compulsory (0 elsewhere):
    /// the material difference counts more as the board empties ([`Evaluator::eval`]).
    trade_base: i64,
    /// Where the material difference counts more as the board empties, the men's wings and
    /// centre (`formation.rs`).
    formation: Option<Box<Formation>>,
    /// Piece mobility on the board (`activity.rs`; games with royal squares by phase).
    activity: Option<Box<Activity>>,
    /// Hundredths the search adds to the evaluation for the side to move.
    pub tempo: i32,
}

/// The sizes and players every derivation starts from.
struct Shape {
    n_pieces: usize,
    n_players: usize,
    n_pos: usize,
    /// Whether each player takes turns.
    active: Vec<bool>,
    n_active: usize,
    /// The players that take turns.
    players: Vec<PlayerId>,
    /// The piece types that are not dummies.
    live_types: Vec<usize>,
}

impl Shape {
    fn of(rules: &Rules) -> Shape {
        let def = &rules.def;
        let n_pieces = def.pieces.len();
        let n_players = def.players.len();
        let active: Vec<bool> = (0..n_players).map(|p| rules.in_turn_order[p]).collect();
        Shape {
            n_pieces,
            n_players,
            n_pos: def.board.n_pos(),
            n_active: active.iter().filter(|&&a| a).count().max(1),
            players: (0..n_players)
                .filter(|&p| active[p])
                .map(|p| PlayerId(p as u8))
                .collect(),
            active,
            live_types: (0..n_pieces).filter(|&t| !def.pieces[t].dummy).collect(),
        }
    }
}

impl Evaluator {
    /// Measures every piece type of the game and builds the tables.
    pub fn new(rules: &Rules) -> Evaluator {
        Evaluator::with_limits(rules, FINE_CELLS, FINE_EDGES)
    }

    /// [`Evaluator::new`] with other limits than [`FINE_CELLS`] and [`FINE_EDGES`] for the
    /// square tables (for tests).
    pub fn with_limits(rules: &Rules, fine_cells: usize, fine_edges: usize) -> Evaluator {
        Evaluator::limited(
            rules,
            fine_cells,
            fine_edges,
            FINE_WORK,
            &Weights::default(),
        )
    }

    /// [`Evaluator::new`] with another limit than [`FINE_WORK`] (for tests).
    pub fn with_work_limit(rules: &Rules, fine_work: u64) -> Evaluator {
        Evaluator::limited(
            rules,
            FINE_CELLS,
            FINE_EDGES,
            fine_work,
            &Weights::default(),
        )
    }

    /// [`Evaluator::new`] with other weights than [`Weights::default`] (for tuning them).
    #[doc(hidden)]
    pub fn with_weights(rules: &Rules, weights: &Weights) -> Evaluator {
        Evaluator::limited(rules, FINE_CELLS, FINE_EDGES, FINE_WORK, weights)
    }

    fn limited(
        rules: &Rules,
        fine_cells: usize,
        fine_edges: usize,
        fine_work: u64,
        w: &Weights,
    ) -> Evaluator {
        let def = &rules.def;
        let Shape {
            n_pieces,
            n_players,
            n_pos,
            active,
            n_active,
            players,
            live_types,
        } = Shape::of(rules);
        if n_players * n_pieces * n_pos > fine_cells {
            return Evaluator::coarse(rules);
        }
        // The derivation runs every type's move blocks on every square, on the empty board and
        // on `SAMPLES` random boards: at least their sizes. When that alone passes the limit,
        // the coarse estimate is made at once, not after spending the limit.
        let sizes: u64 = live_types
            .iter()
            .flat_map(|&t| &def.pieces[t].moves)
            .map(|b| rules.block_weight(b))
            .sum();
        let least = sizes
            .saturating_mul(n_pos as u64)
            .saturating_mul(players.len() as u64)
            .saturating_mul(SAMPLES as u64 + 1);
        if least > fine_work {
            return Evaluator::coarse(rules);
        }

        let mut empty = rules.initial();
        for sq in 0..n_pos {
            empty.set(sq as u16, Cell::EMPTY);
        }
        let mut scratch = Scratch::default();
        let mut list = MoveList::new();

        // Moves on an empty board, per (player, type).
        let mut graphs: Vec<Option<Graph>> = (0..n_players * n_pieces).map(|_| None).collect();
        let mut edges = 0;
        // The random boards cost less than `SAMPLES` times the empty board (pieces block the
        // way, three to five times in the corpus): the graphs may take a third of the limit.
        let graph_work = fine_work / 3;
        for &p in &players {
            for &t in &live_types {
                let g = empty_graph(rules, &mut empty, p, t, &mut scratch, &mut list);
                edges += g.edges.len();
                if edges > fine_edges || scratch.work > graph_work {
                    return Evaluator::coarse(rules).after(scratch.work);
                }
                graphs[p.idx() * n_pieces + t] = Some(g);
            }
        }
        let reach = reachable(rules, &graphs, &players, n_pieces);

        // Mobility on sparse random boards, per (player, type, square).
        let mut mob = vec![0f64; n_players * n_pieces * n_pos];
        let blockers = blocker_types(def, &live_types);
        let mut rng = Rng::new(0x5EED_0FA1);
        let mut seen = vec![0u32; n_pos];
        let mut stamp = 0u32;
        for &p in &players {
            for _ in 0..SAMPLES {
                let mut board = empty.clone();
                for (sq, &r) in reach.iter().enumerate() {
                    if r && !blockers.is_empty() && rng.unit() < DENSITY {
                        let t = blockers[rng.below(blockers.len())];
                        let owner = players[rng.below(players.len())];
                        board.set(
                            sq as u16,
                            Cell::new(PieceId(t as u16), owner, rules.attr_defaults[t]),
                        );
                    }
                }
                for &t in &live_types {
                    let piece = Cell::new(PieceId(t as u16), p, rules.attr_defaults[t]);
                    for sq in (0..n_pos).filter(|&sq| reach[sq]) {
                        let old = board.set(sq as u16, piece);
                        list.clear();
                        rules.gen_steps(&board, p, None, sq as u16, &mut scratch, &mut list);
                        board.set(sq as u16, old);
                        stamp += 1;
                        let mut n = 0;
                        for m in &list.moves {
                            let path = list.path(m);
                            let to = path[path.len() - 1];
                            if to != NONE && seen[to as usize] != stamp {
                                seen[to as usize] = stamp;
                                n += 1;
                            }
                        }
                        mob[(p.idx() * n_pieces + t) * n_pos + sq] += n as f64 / SAMPLES as f64;
                    }
                    if scratch.work > fine_work {
                        return Evaluator::coarse(rules).after(scratch.work);
                    }
                }
            }
        }

        let n_reach = reach.iter().filter(|&&r| r).count().max(1) as f64;
        let avg_mob = |p: usize, t: usize| -> f64 {
            (0..n_pos)
                .filter(|&sq| reach[sq])
                .map(|sq| mob[(p * n_pieces + t) * n_pos + sq])
                .sum::<f64>()
                / n_reach
        };
        // Raw worth per type: its mobility, averaged over the players.
        let raw: Vec<f64> = (0..n_pieces)
            .map(|t| {
                if def.pieces[t].dummy || players.is_empty() {
                    return 0.0;
                }
                players
                    .iter()
                    .map(|p| avg_mob(p.idx(), t).max(FLOOR))
                    .sum::<f64>()
                    / players.len() as f64
            })
            .collect();

        // Square tables in raw units: mobility there, then promotion and goal bonuses.
        let mut table = vec![0f64; n_players * n_pieces * n_pos];
        let mut positional = vec![0f64; n_players * n_pieces * n_pos];
        let mut promo_raw = vec![0f64; n_players * n_pieces * n_pos];
        // Where the mobility term measures the pieces on the actual board, the square tables
        // count less of a square's mobility (the term counts it) and of promotion's nearness.
        let (centre, promotion) = if activity::applies(rules, &players) {
            (w.centre, w.promotion)
        } else {
            (w.plain_centre, w.plain_promotion)
        };
        for &p in &players {
            for &t in &live_types {
                let avg = avg_mob(p.idx(), t).max(FLOOR);
                let beta = if rules.royal[t] { 0.0 } else { centre };
                let g = graphs[p.idx() * n_pieces + t].as_ref().expect("graph");
                let promo = g.distances(n_pos, |sq| g.promotes[sq]);
                // Distance 1: a move from here promotes. The best promotion counts.
                let promo: Vec<u32> = promo.iter().map(|d| d.saturating_add(1)).collect();
                let target = g
                    .targets
                    .iter()
                    .map(|&u| raw[u as usize])
                    .fold(0f64, f64::max);
                let gain = (target - raw[t]).max(0.0);
                for (sq, &d) in promo.iter().enumerate() {
                    let i = (p.idx() * n_pieces + t) * n_pos + sq;
                    let ratio = (mob[i].max(FLOOR) / avg).clamp(0.0, 3.0);
                    let factor = (1.0 + beta * (ratio - 1.0)).clamp(0.5, 1.5);
                    table[i] = raw[t] * factor;
                    if d != u32::MAX && gain > 0.0 {
                        let d = d as f64;
                        promo_raw[i] += gain / (2.0 * (d + 1.0) * (d + 1.0));
                    }
                }
            }
        }
        // Average worth per type in raw units (table + promotion), over reachable squares.
        let mean = |t: usize, tab: &[f64], pos: &[f64]| -> f64 {
            let mut s = 0.0;
            for p in &players {
                for sq in (0..n_pos).filter(|&sq| reach[sq]) {
                    let i = (p.idx() * n_pieces + t) * n_pos + sq;
                    s += tab[i] + pos[i];
                }
            }
            s / (n_reach * players.len().max(1) as f64)
        };
        let with_promo: Vec<f64> = positional
            .iter()
            .zip(&promo_raw)
            .map(|(a, b)| a + b)
            .collect();
        let means: Vec<f64> = (0..n_pieces)
            .map(|t| mean(t, &table, &with_promo))
            .collect();

        // The unit: the weakest non-royal type in the setup whose value is not given (else of
        // all types).
        let unit = unit_value(def, rules, &live_types, &means);
        let scale = UNIT as f64 / unit;

        // Goals: standing on (or nearing) the squares of an absolute-config goal.
        for goal in &def.goals {
            let sign = match goal.kind {
                GoalKind::Win => 1.0,
                GoalKind::Loss => -1.0,
                _ => continue,
            };
            let GoalCond::AbsoluteConfig {
                spec,
                positions,
                zones,
            } = &goal.cond
            else {
                continue;
            };
            if spec.negated || spec.owner == Owner::Opponent {
                continue;
            }
            for &p in goal.players.iter().filter(|p| active[p.idx()]) {
                let mut target = vec![false; n_pos];
                for q in positions {
                    target[q.idx()] = true;
                }
                for z in zones {
                    for q in &def.board.zones[z.idx()].positions[p.idx()] {
                        target[q.idx()] = true;
                    }
                }
                for &t in &live_types {
                    if !spec.pieces.is_empty() && !spec.pieces.iter().any(|s| s.idx() == t) {
                        continue;
                    }
                    let g = graphs[p.idx() * n_pieces + t].as_ref().expect("graph");
                    let dist = g.distances(n_pos, |sq| target[sq]);
                    for (sq, &d) in dist.iter().enumerate() {
                        if d != u32::MAX {
                            let i = (p.idx() * n_pieces + t) * n_pos + sq;
                            let d = d as f64;
                            positional[i] +=
                                sign * GOAL_UNITS / scale * UNIT as f64 / ((d + 1.0) * (d + 1.0));
                        }
                    }
                }
            }
        }

        // Pieces whose loss wins the game (`pieces-remaining` or `captured` as a win) count
        // against their owner.
        let liability = liabilities(def);
        let phased = phased_terms(
            rules, &graphs, &players, &reach, &mob, &promo_raw, &means, &liability, scale, w,
        );

        let mut pst = vec![0i32; n_players * n_pieces * n_pos];
        let mut base = vec![0i32; n_pieces];
        let mut values = Vec::new();
        for t in 0..n_pieces {
            let given = def.pieces[t].value;
            let mean_cp = match given {
                Some(v) => v as f64,
                None => means[t] * scale,
            };
            base[t] = mean_cp.round() as i32;
            values.extend(listed_value(def, t, mean_cp));
            let sign = if liability[t] { -1.0 } else { 1.0 };
            for p in &players {
                for sq in 0..n_pos {
                    let i = (p.idx() * n_pieces + t) * n_pos + sq;
                    let positional = positional[i] + promotion * promo_raw[i];
                    let v = match given {
                        // A given value keeps the shape of the derived table.
                        Some(v) if raw[t] > 0.0 => {
                            v as f64 * table[i] / raw[t] + positional * scale
                        }
                        Some(v) => v as f64,
                        None => (table[i] + positional) * scale,
                    };
                    pst[i] = (sign * v).round() as i32;
                }
            }
        }
        let mut hand = vec![0i32; n_players * n_pieces];
        for p in &players {
            for t in 0..n_pieces {
                if !def.pieces[t].drops.is_empty() {
                    let sign = if liability[t] { -1 } else { 1 };
                    hand[p.idx() * n_pieces + t] = sign * base[t];
                }
            }
        }
        let (lines, line_cells, line_worth) = goal_lines(def, &active);
        let trade_base = if trades_count(rules, &players) && phased.is_none() && lines.is_empty() {
            start_material(rules, &pst, n_pieces, n_pos)
        } else {
            0
        };
        let formation = if trade_base > 0 {
            Formation::new(rules, &graphs, &players, &reach, n_pieces).map(Box::new)
        } else {
            None
        };
        let activity = match phased {
            Some(_) => activity(rules, &graphs, &players, &base, w),
            None => None,
        };
        let tempo = if activity.is_some() {
            weights::hundredths(w.tempo)
        } else {
            0
        };
        Evaluator {
            tempo,
            activity,
            formation,
            trade_base,
            n_pieces,
            stride: n_pos,
            sq_mask: usize::MAX,
            coarse: false,
            work: scratch.work,
            pst,
            hand,
            base,
            active,
            n_active,
            values,
            lines,
            line_cells,
            line_worth,
            phased,
        }
    }

    /// The cheaper estimate for games past [`FINE_CELLS`] or [`FINE_EDGES`]: each type's
    /// mobility on sparse random boards, measured on at most `COARSE_SQUARES` squares
    /// spread over the board, gives one worth per player and type, the same on every square.
    /// Memory: one board and one entry per player and type.
    pub fn coarse(rules: &Rules) -> Evaluator {
        let def = &rules.def;
        let Shape {
            n_pieces,
            n_players,
            n_pos,
            active,
            n_active,
            players,
            live_types,
        } = Shape::of(rules);
        let squares: Vec<usize> = (0..n_pos)
            .filter(|&sq| !def.board.positions[sq].dummy)
            .collect();
        // At most `COARSE_SQUARES` squares, fewer when the move programs are so long that
        // one square of every type and player costs more than `COARSE_WORK / COARSE_SQUARES`.
        let per_square: u64 = players.len() as u64
            * live_types
                .iter()
                .flat_map(|&t| &def.pieces[t].moves)
                .map(|b| rules.block_weight(b))
                .sum::<u64>();
        let most =
            (COARSE_WORK / per_square.max(1)).clamp(MIN_COARSE_SQUARES, COARSE_SQUARES as u64);
        let step = squares.len().div_ceil(most as usize).max(1);
        let sampled: Vec<usize> = squares.iter().copied().step_by(step).collect();
        let blockers = blocker_types(def, &live_types);
        let mut rng = Rng::new(0x5EED_0FA1);
        let mut board = rules.initial();
        for sq in 0..n_pos {
            board.set(sq as u16, Cell::EMPTY);
        }
        for &sq in &squares {
            if !blockers.is_empty() && !players.is_empty() && rng.unit() < DENSITY {
                let t = blockers[rng.below(blockers.len())];
                let owner = players[rng.below(players.len())];
                board.set(
                    sq as u16,
                    Cell::new(PieceId(t as u16), owner, rules.attr_defaults[t]),
                );
            }
        }
        let mut scratch = Scratch::default();
        let mut list = MoveList::new();
        let mut seen = vec![0u32; n_pos];
        let mut stamp = 0u32;
        let mut raw = vec![0f64; n_pieces];
        for &t in &live_types {
            let mut sum = 0.0;
            for &p in &players {
                let piece = Cell::new(PieceId(t as u16), p, rules.attr_defaults[t]);
                let mut n = 0usize;
                for &sq in &sampled {
                    let old = board.set(sq as u16, piece);
                    list.clear();
                    rules.gen_steps(&board, p, None, sq as u16, &mut scratch, &mut list);
                    board.set(sq as u16, old);
                    stamp += 1;
                    for m in &list.moves {
                        let path = list.path(m);
                        let to = path[path.len() - 1];
                        if to != NONE && seen[to as usize] != stamp {
                            seen[to as usize] = stamp;
                            n += 1;
                        }
                    }
                }
                sum += (n as f64 / sampled.len().max(1) as f64).max(FLOOR);
            }
            raw[t] = sum / players.len().max(1) as f64;
        }
        let unit = unit_value(def, rules, &live_types, &raw);
        let scale = UNIT as f64 / unit;
        let liability = liabilities(def);
        let mut pst = vec![0i32; n_players * n_pieces];
        let mut hand = vec![0i32; n_players * n_pieces];
        let mut base = vec![0i32; n_pieces];
        let mut values = Vec::new();
        for t in 0..n_pieces {
            let given = def.pieces[t].value;
            let mean_cp = given.map_or(raw[t] * scale, |v| v as f64);
            base[t] = mean_cp.round() as i32;
            values.extend(listed_value(def, t, mean_cp));
            let sign = if liability[t] { -1 } else { 1 };
            for p in &players {
                pst[p.idx() * n_pieces + t] = sign * base[t];
                if !def.pieces[t].drops.is_empty() {
                    hand[p.idx() * n_pieces + t] = sign * base[t];
                }
            }
        }
        let (lines, line_cells, line_worth) = goal_lines(def, &active);
        Evaluator {
            n_pieces,
            stride: 1,
            sq_mask: 0,
            coarse: true,
            work: scratch.work,
            pst,
            hand,
            base,
            active,
            n_active,
            values,
            lines,
            line_cells,
            line_worth,
            phased: None,
            trade_base: 0,
            formation: None,
            activity: None,
            tempo: 0,
        }
    }

    /// Counts `work` spent before falling back to the coarse estimate.
    fn after(mut self, work: u64) -> Evaluator {
        self.work = self.work.saturating_add(work);
        self
    }

    /// The worth of a piece standing on a square (0 for an empty square).
    #[inline]
    pub fn at(&self, sq: usize, c: Cell) -> i32 {
        if c.is_empty() {
            return 0;
        }
        self.pst[(c.owner as usize * self.n_pieces + c.piece as usize - 1) * self.stride
            + (sq & self.sq_mask)]
    }

    /// The men's formation term of [`Evaluator::eval`] alone, for `me` against the other
    /// side, in hundredths (0 in games without it).
    pub fn formation(&self, pos: &Position, me: PlayerId) -> i64 {
        let Some(f) = &self.formation else { return 0 };
        let mut shape = [Tally::default(); 2];
        for (sq, &c) in pos.cells.iter().enumerate() {
            if !c.is_empty() {
                let i =
                    (c.owner as usize * self.n_pieces + c.piece as usize - 1) * self.stride + sq;
                shape[(c.owner != me.0) as usize].add(f.at(i));
            }
        }
        shape[0].worth() - shape[1].worth()
    }

    /// The position's worth for `me` against the others (their average, when several): the
    /// paranoid view of more than two players.
    pub fn eval(&self, pos: &Position, me: PlayerId) -> i32 {
        if let Some(ph) = &self.phased {
            return self.eval_phased(pos, me, ph);
        }
        let mut mine = 0i64;
        let mut theirs = 0i64;
        let mut shape = [Tally::default(); 2];
        for (sq, &c) in pos.cells.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            let i = (c.owner as usize * self.n_pieces + c.piece as usize - 1) * self.stride
                + (sq & self.sq_mask);
            let v = self.pst[i] as i64;
            if c.owner == me.0 {
                mine += v;
            } else {
                theirs += v;
            }
            if let Some(f) = &self.formation {
                shape[(c.owner != me.0) as usize].add(f.at(i));
            }
        }
        for (i, &n) in pos.store.iter().enumerate() {
            if n != 0 {
                let v = self.hand[i] as i64 * n as i64;
                if i / self.n_pieces == me.idx() {
                    mine += v;
                } else {
                    theirs += v;
                }
            }
        }
        for line in &self.lines {
            let v = self.line_worth(pos, line) as i64;
            if line.player == me.0 {
                mine += v;
            } else {
                theirs += v;
            }
        }
        let others = (self.n_active.max(2) - 1) as i64;
        if self.trade_base > 0 {
            // Captures are compulsory: the side ahead wants the board emptier. The difference
            // counts up to half as much again as the material left falls to nothing (with
            // `left` the worth on the board and `S` the start's: d (3S - left) / 2S).
            let left = (mine.abs() + theirs.abs()).min(self.trade_base);
            let d = mine - theirs;
            let v = d * (3 * self.trade_base - left) / (2 * self.trade_base) + shape[0].worth()
                - shape[1].worth();
            return v.clamp(-EVAL_MAX as i64, EVAL_MAX as i64) as i32;
        }
        (mine - theirs / others).clamp(-EVAL_MAX as i64, EVAL_MAX as i64) as i32
    }
}

/// Whether the material difference counts more as the board empties: captures are
/// compulsory (move priorities or maximal captures), two sides, no royal pieces and no drops
/// (draughts-like games, where the side ahead simplifies to win; international draughts
/// against the search without it in docs/strength.md).
fn trades_count(rules: &Rules, players: &[PlayerId]) -> bool {
    let def = &rules.def;
    (!def.move_priorities.is_empty() || def.options.maximal_captures > 0)
        && players.len() == 2
        && !rules.royal.iter().any(|&r| r)
        && def.pieces.iter().all(|p| p.drops.is_empty())
}

/// The worth of the pieces of the initial position, both sides together, by the square tables.
fn start_material(rules: &Rules, pst: &[i32], n_pieces: usize, n_pos: usize) -> i64 {
    let start = rules.initial();
    (start.cells.iter().enumerate())
        .filter(|(_, c)| !c.is_empty())
        .map(|(sq, &c)| pst[(c.owner as usize * n_pieces + c.piece as usize - 1) * n_pos + sq])
        .map(|v| v.abs() as i64)
        .sum()
}

/// The types that fill the random boards: the setup's pieces, as many of each as it has.
fn blocker_types(def: &GameDef, live: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = def.setup.placements.iter().map(|p| p.piece.idx()).collect();
    if v.is_empty() {
        v = live.to_vec();
    }
    v
}

/// Types whose loss wins: named (or all types, when none is named) by a win goal that is
/// `captured` or `pieces-remaining`.
fn liabilities(def: &GameDef) -> Vec<bool> {
    let mut out = vec![false; def.pieces.len()];
    for g in def.goals.iter().filter(|g| g.kind == GoalKind::Win) {
        let types = match &g.cond {
            GoalCond::Captured(ts) => ts,
            GoalCond::PiecesRemaining(_, ts) => ts,
            _ => continue,
        };
        for (t, l) in out.iter_mut().enumerate() {
            if types.is_empty() || types.iter().any(|x| x.idx() == t) {
                *l = true;
            }
        }
    }
    out
}

/// What one unit of value is: the weakest worth (in `values`, by type) among the non-royal
/// types without a given value that the setup holds, else among all such types, else 1.
fn unit_value(def: &GameDef, rules: &Rules, live_types: &[usize], values: &[f64]) -> f64 {
    let in_setup = |t: usize| {
        def.setup.placements.iter().any(|pl| pl.piece.idx() == t)
            || def
                .setup
                .off
                .iter()
                .any(|o| o.piece.idx() == t && o.count > 0)
    };
    let pick = |only_setup: bool| {
        live_types
            .iter()
            .copied()
            .filter(|&t| !rules.royal[t] && def.pieces[t].value.is_none())
            .filter(|&t| !only_setup || in_setup(t))
            .map(|t| values[t])
            .filter(|&v| v > 0.0)
            .fold(f64::INFINITY, f64::min)
    };
    [pick(true), pick(false)]
        .into_iter()
        .find(|u| u.is_finite())
        .unwrap_or(1.0)
}

/// The worth of type `t` as `piece_values` lists it (none for dummies): `mean_cp` in units,
/// and whether the rules gave it.
fn listed_value(def: &GameDef, t: usize, mean_cp: f64) -> Option<PieceValue> {
    let piece = &def.pieces[t];
    (!piece.dummy).then(|| PieceValue {
        piece: PieceId(t as u16),
        name: piece.name.clone(),
        value: (mean_cp / UNIT as f64 * 100.0).round() / 100.0,
        given: piece.value.is_some(),
    })
}
