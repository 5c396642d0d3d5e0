//! The computer player: game-independent search over the legal moves the engine generates.
//!
//! Two searches share one API: alpha-beta ([`EngineKind::AlphaBeta`], iterative deepening with
//! a transposition table, quiescence and the usual move ordering) and Monte Carlo tree search
//! ([`EngineKind::Mcts`], UCT with random playouts). Both evaluate positions with tables derived
//! from the rules alone ([`eval`]): piece values from mobility, promotion and goal nearness.
//! `docs/ai.md` describes the choices.
//!
//! More than two players are searched paranoid: the player to move at the root against all
//! the others. The player who chooses a move is the turn entry's mover (who usually owns the
//! pieces moved too).

pub mod eval;
mod exploit;
mod mcts;
mod search;
mod see;
mod swindle;
mod tt;

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::def::PlayerId;
use crate::engine::{GoalContext, MoveList, Outcome, Position, Rules};
use crate::play::Game;

pub use eval::{piece_values, PieceValue};

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineKind {
    /// Iterative-deepening alpha-beta.
    #[default]
    AlphaBeta,
    /// Monte Carlo tree search (UCT with random playouts).
    Mcts,
}

/// When to stop; the search stops at the first limit reached. With none at all it runs until
/// `stop` is set or the result is proven (alpha-beta) or up to a million iterations (MCTS).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Greatest depth in plies (alpha-beta: iterations; MCTS ignores it).
    pub depth: Option<u32>,
    /// Time to think.
    pub time: Option<Duration>,
    /// Positions visited (alpha-beta) or playouts (MCTS).
    pub nodes: Option<u64>,
    /// `time` is the move's whole budget (UCI `movetime`, Hub `move-time`), not a share of a
    /// clock: alpha-beta keeps deepening until it is spent instead of starting no iteration
    /// after half of it, and an unfinished iteration still counts where it found a better move.
    pub fixed_time: bool,
}

/// What to search with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// The search.
    pub kind: EngineKind,
    /// When to stop.
    pub limits: Limits,
    /// Seeds the random choices (MCTS playouts); equal seeds give equal results.
    pub seed: u64,
    /// How the opponents are expected to choose their moves.
    pub opponent: Opponent,
    /// How many of the best root moves get a score and a line of their own (UCI `MultiPV`;
    /// alpha-beta only). 1 (or 0) searches for the best move alone.
    pub multi_pv: u32,
    /// What a draw costs the searching side, in percent of its least piece's worth (two
    /// players only; UCI `Contempt`, Hub `contempt`): above zero the engine plays on in level
    /// positions instead of heading for a draw.
    pub contempt: i32,
    /// The root moves to choose from, in canonical text (UCI `go searchmoves`, alpha-beta
    /// only); empty: every legal move. Texts that name no legal move are left out, and when
    /// none is left every move is searched.
    pub searchmoves: Vec<String>,
}

/// [`SearchConfig::contempt`] unless a front end sets it.
pub const DEFAULT_CONTEMPT: i32 = 20;

/// The range [`SearchConfig::contempt`] accepts.
pub const CONTEMPT_RANGE: std::ops::RangeInclusive<i32> = -100..=100;

/// What the engine assumes of its opponents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Opponent {
    /// They find the best replies (minimax): the engine never gambles.
    #[default]
    Best,
    /// They pick uniformly among their legal moves: where the rest of the game can be searched
    /// to the end, the engine plays for the best expected result (`ai/exploit.rs`).
    Random,
}

impl Default for SearchConfig {
    /// Alpha-beta for a tenth of a second.
    fn default() -> SearchConfig {
        SearchConfig {
            kind: EngineKind::AlphaBeta,
            limits: Limits {
                time: Some(Duration::from_millis(100)),
                ..Limits::default()
            },
            seed: 0,
            opponent: Opponent::Best,
            multi_pv: 1,
            contempt: DEFAULT_CONTEMPT,
            searchmoves: Vec::new(),
        }
    }
}

/// A score from the view of the player to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An estimate in hundredths of a unit (a pawn, a man).
    Cp(i32),
    /// The game is won in this many plies.
    Win(u32),
    /// The game is lost in this many plies.
    Loss(u32),
}

impl fmt::Display for Score {
    /// `+1.25`, `-0.50`, `0.00`, `win in 3`, `loss in 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(0) => f.write_str("0.00"),
            Score::Cp(v) => {
                let sign = if v < 0 { '-' } else { '+' };
                let a = v.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

/// Progress of a search: after each completed iteration (alpha-beta) or now and then (MCTS).
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Depth completed (alpha-beta) or deepest tree node (MCTS).
    pub depth: u32,
    /// The score of the best move.
    pub score: Score,
    /// Positions visited (alpha-beta) or playouts (MCTS).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The expected line, as canonical move texts.
    pub pv: Vec<String>,
    /// Which line this is, from 1 (the best) to `SearchConfig::multi_pv`: with several lines,
    /// each iteration reports each of them, best first.
    pub multipv: u32,
}

/// The move a search chose.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Index into the legal moves of the position (`Rules::legal_moves` order).
    pub best: usize,
    /// Its canonical text.
    pub best_text: String,
    /// The last progress report.
    pub info: Info,
}

/// A computer player for one game: the evaluation tables, the transposition table and the
/// move-ordering heuristics, kept between moves.
pub struct Engine {
    key: RulesKey,
    eval: eval::Evaluator,
    tt: tt::Table,
    heur: search::Heuristics,
    retry: exploit::Retry,
}

/// What identifies the game an engine was built for, so a search on other rules rebuilds it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RulesKey {
    title: String,
    n_pos: usize,
    n_pieces: usize,
    n_players: usize,
    values: Vec<Option<i32>>,
}

impl RulesKey {
    fn of(rules: &Rules) -> RulesKey {
        RulesKey {
            title: rules.def.title.clone(),
            n_pos: rules.def.board.n_pos(),
            n_pieces: rules.def.pieces.len(),
            n_players: rules.def.players.len(),
            values: rules.def.pieces.iter().map(|p| p.value).collect(),
        }
    }
}

/// Transposition table size of [`Engine::new`].
pub const DEFAULT_TT_MB: usize = 16;

impl Engine {
    /// An engine for a game (derives the piece values; a 16 MB transposition table).
    pub fn new(rules: &Rules) -> Engine {
        Engine::with_tt_size(rules, DEFAULT_TT_MB)
    }

    /// An engine with a transposition table of about `mb` megabytes.
    pub fn with_tt_size(rules: &Rules, mb: usize) -> Engine {
        Engine {
            key: RulesKey::of(rules),
            eval: eval::Evaluator::new(rules),
            tt: tt::Table::new(mb),
            heur: search::Heuristics::default(),
            retry: exploit::Retry::default(),
        }
    }

    /// The piece values this engine evaluates with.
    pub fn values(&self) -> &[PieceValue] {
        &self.eval.values
    }

    /// Forgets what earlier searches learnt (transposition table, heuristics).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heur = search::Heuristics::default();
        self.retry = exploit::Retry::default();
    }

    /// What a draw costs the searching side in evaluation units ([`SearchConfig::contempt`]
    /// of its least piece; nothing with more than two players).
    fn contempt(&self, rules: &Rules, cfg: &SearchConfig) -> i32 {
        if self.eval.n_active != 2 {
            return 0;
        }
        let pct = cfg
            .contempt
            .clamp(*CONTEMPT_RANGE.start(), *CONTEMPT_RANGE.end());
        search::least_worth(rules, &self.eval.base) * pct / 100
    }

    /// Chooses a move for the player to move in `pos`.
    ///
    /// `history` holds the repetition keys ([`Position::repetition_key`]) of the game's
    /// positions so far, the current one last (as `play::Game::hashes`), so that repetition
    /// goals count right; it may be empty. `stop` ends the search early from another thread;
    /// `progress` hears about each completed iteration. `None` only when the game is over or
    /// there is no legal move.
    pub fn search(
        &mut self,
        rules: &Rules,
        pos: &Position,
        history: &[u64],
        cfg: &SearchConfig,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        let key = RulesKey::of(rules);
        if key != self.key {
            *self = Engine::with_tt_size(rules, self.tt.megabytes());
        }
        let started = std::time::Instant::now();
        let mut cfg = std::borrow::Cow::Borrowed(cfg);
        if cfg.opponent == Opponent::Random && self.retry.due(history.len()) {
            let n_active = self.eval.n_active;
            let solved = exploit::solve(rules, pos, history, n_active, stop, &cfg.limits);
            self.retry.after(history.len(), solved.is_some());
            if let Some(r) = solved {
                progress(&r.info);
                return Some(r);
            }
            // The ordinary search has what the attempt left of the time.
            if let Some(t) = cfg.limits.time {
                let left = t.saturating_sub(started.elapsed());
                cfg.to_mut().limits.time = Some(left.max(Duration::from_millis(1)));
            }
        }
        let cfg = cfg.as_ref();
        let mut r = match cfg.kind {
            EngineKind::AlphaBeta => search::run(self, rules, pos, history, cfg, stop, progress),
            EngineKind::Mcts => mcts::run(self, rules, pos, history, cfg, stop, progress),
        }?;
        // Every good move draws: with time left, take the one that sets the most traps.
        if r.info.score == Score::Cp(-self.contempt(rules, cfg)) && cfg.searchmoves.is_empty() {
            if let Some(deadline) = swindle::deadline(cfg, started) {
                if let Some((i, text)) =
                    swindle::better_draw(self, rules, pos, history, stop, &r, deadline)
                {
                    r.best = i;
                    r.info.pv = vec![text.clone()];
                    r.best_text = text;
                    r.info.elapsed = started.elapsed();
                    progress(&r.info);
                }
            }
        }
        Some(r)
    }
}

impl Game {
    /// Searches the current position of the game with its history.
    pub fn think(
        &mut self,
        engine: &mut Engine,
        cfg: &SearchConfig,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        engine.search(&self.rules, &self.pos, &self.hashes, cfg, stop, progress)
    }
}

/// The legal moves of `pos` and whether the game is over there, with `history` holding the
/// repetition keys of the game up to and including `pos`.
pub(crate) fn settle(
    rules: &Rules,
    pos: &mut Position,
    history: &[u64],
) -> (MoveList, Option<Outcome>) {
    let mut moves = MoveList::new();
    rules.legal_moves(pos, &mut moves);
    let key = pos.repetition_key();
    let cx = GoalContext {
        pos,
        has_moves: !moves.is_empty(),
        repetitions: history.iter().filter(|&&h| h == key).count(),
    };
    let outcome = rules.outcome(&cx);
    (moves, outcome)
}

/// Score of a won game at ply 0; a win found `n` plies ahead scores `MATE - n`.
pub(crate) const MATE: i32 = 32_000;
/// Scores beyond this are wins or losses in a number of plies.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// The most a scored result short of a full win (3-1 in a 4-point game) is worth.
pub(crate) const SCORED_MAX: i32 = 20_000;

/// What a finished game is worth to `me`: a full win or loss (distance-adjusted by `ply`),
/// a draw (0), or for scored results the share of the points between.
pub(crate) fn outcome_value(o: &Outcome, me: PlayerId, n_active: usize, ply: usize) -> i32 {
    let win = MATE - ply as i32;
    if let Some(scores) = &o.scores {
        let total: u64 = scores.iter().map(|&s| s as u64).sum();
        let mine = scores.get(me.idx()).copied().unwrap_or(0) as u64;
        if total == 0 {
            return 0;
        }
        if mine == total {
            return win;
        }
        if mine == 0 {
            return -win;
        }
        let fair = 1.0 / n_active.max(2) as f64;
        let share = mine as f64 / total as f64;
        let v = if share >= fair {
            (share - fair) / (1.0 - fair)
        } else {
            (share - fair) / fair
        };
        return (v * SCORED_MAX as f64).round() as i32;
    }
    if o.winners.contains(&me) {
        win
    } else if o.losers.contains(&me) {
        -win
    } else {
        0
    }
}

/// An internal score as a [`Score`].
pub(crate) fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Win((MATE - v) as u32)
    } else if v <= -MATE_BOUND {
        Score::Loss((MATE + v) as u32)
    } else {
        Score::Cp(v)
    }
}

/// A small deterministic random generator (splitmix64).
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x243F_6A88_85A3_08D3)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
