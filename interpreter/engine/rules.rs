//! `Tables`: a game's definition with the tables derived from it once, and the one
//! build step that applies an engine configuration.

use super::{after, count, gates, goal_plan, rays, special};
use crate::def::*;
use crate::engine::arith::arith;
use crate::engine::attack::Attacks;
use crate::engine::config::EngineConfig;
use crate::engine::position::{Cell, Position, DEAD};

/// The longest chain of partial steps one turn may take.
pub const MAX_CHAIN: usize = 64;

/// The most partial steps one `legal_moves` call plays while expanding chains; past it, steps
/// end their chains where they stand, so that branching chains cannot exhaust time or memory.
pub const CHAIN_WORK_LIMIT: usize = 1 << 16;

/// The most moves one generation (single steps, or whole turns) may hold; past it, no more
/// blocks run and no more chains are written. No real game comes near it (chess has at most
/// 218 moves, a drop on each square of a 200x200 board 40,000 per piece type).
pub const GEN_MOVE_LIMIT: usize = 200_000;

/// The most work one `legal_moves` call may do, in the units of `Scratch::work` (a block
/// run counts its loop rounds and its size): past it no more blocks run, in generation,
/// chains or royal safety, so that a position whose blocks each run up to
/// [`STEP_LIMIT`](crate::engine::STEP_LIMIT) instructions from every square still takes a
/// bounded time. No shipped or corpus game comes near it.
pub const GEN_WORK_LIMIT: u64 = 10_000_000;

/// The definition plus the tables derived from it at load: the bottom of the three types a
/// game is played through ([`Rules`] on [`Generator`] on `Tables`, each adding its layer's
/// methods and reaching the one below through `Deref`).
///
/// [`Rules`]: crate::engine::Rules
/// [`Generator`]: crate::engine::Generator
#[derive(Clone, Debug)]
pub struct Tables {
    /// The resolved definition.
    pub def: GameDef,
    /// The turn sequence: `once` entries, then `cycle` entries.
    pub turns: Vec<TurnEntry>,
    /// Number of `once` entries.
    pub once: usize,
    /// Pieces made royal by `checkmated` goals.
    pub royal: Vec<bool>,
    /// Rank of each move type in `move-priorities` (0 = highest; unlisted types rank last).
    pub rank: Vec<u16>,
    /// Default attribute bits per piece type.
    pub attr_defaults: Vec<u32>,
    /// Players that appear in the turn order (others are neutral).
    pub in_turn_order: Vec<bool>,
    /// Positions named by some `absolute-config` goal.
    pub goal_squares: Vec<bool>,
    /// Captured pieces stay on the board, marked, until the chain ends.
    pub deferred: bool,
    /// Attack patterns for the fast `attacked?`.
    pub attacks: Attacks,
    /// First slot of each counter in `Position::counters`.
    pub counter_base: Vec<u32>,
    /// The fast paths taken beside the plain tree (`config.rs`), as
    /// [`EngineConfig::effective`] leaves them.
    pub(in crate::engine) config: EngineConfig,
    /// The `after-move` program is plain enough to run without the interpreter, and
    /// [`EngineConfig::after_move`] is on.
    pub(in crate::engine) after_move_plain: bool,
    /// With `move-priorities`, the distinct ranks of the blocks, best first: legal moves are
    /// generated rank by rank until one gives a move. Empty (all blocks at once) without
    /// priorities, and with the options that compare moves across types (`"huffing"`,
    /// `"complete captures"`).
    pub(in crate::engine) rank_passes: Vec<u16>,
    /// Per goal: its condition reads no player (`goals::shared_goals`), so it is tested once
    /// rather than once per listed player.
    pub(in crate::engine) goal_shared: Vec<bool>,
    /// The goals' conditions as the outcome test reads them (`compiled/goal_plan.rs`).
    pub(in crate::engine) goal_plan: goal_plan::GoalPlan,
    /// By selector and piece type: the piece's move blocks that the selector takes, as the
    /// generation loop reads them. The selectors are the rank passes (`k`), then all blocks
    /// (`rank_passes.len()`), then each move type `t` (`rank_passes.len() + 1 + t`).
    pub(in crate::engine) gen_lists: Vec<Vec<Vec<special::GateEntry>>>,
    /// The same lists by player and start square, gates read at load (`gates.rs`).
    pub(in crate::engine) gate_rows: gates::GateRows,
    /// The plain slides of the gate rows over square sets (`compiled/rays.rs`).
    pub(in crate::engine) rays: rays::Rays,
    /// The gate rows the last level of bulk perft counts without writing their moves
    /// (`compiled/count.rs`).
    pub(in crate::engine) count: count::CountRows,
    /// The `after-move` program as a clock, when it is one.
    pub(in crate::engine) clock: Option<after::Clock>,
    /// The plain `after-move` program, compiled (`after/`), when it is plain.
    pub(in crate::engine) after_prog: Option<after::Prog>,
    /// The specialised trees of the blocks (`special/`).
    pub special: special::Special,
    /// Some piece type has drop blocks.
    pub(in crate::engine) has_drops: bool,
    /// Every drop block lands on an empty square and neither captures nor promotes
    /// ([`quiet_drop`]) and no move priorities rank drops against other moves: a search for
    /// captures may leave the drops out ([`Rules::legal_captures_in`]).
    pub(in crate::engine) quiet_drops: bool,
    /// No filter compares a quiet move with the others (no move priorities, maximal captures
    /// or capture precedence, no huffing): a search for captures may write only the first
    /// [`QUIET_KEPT`] quiet simple moves ([`Rules::legal_captures_in`]).
    pub(in crate::engine) skip_quiet: bool,
}

/// The quiet simple moves a search for captures writes before it leaves the others out: one
/// of them being legal is all it needs to know about them ([`Rules::legal_captures_in`]).
pub(in crate::engine) const QUIET_KEPT: u32 = 2;

impl Tables {
    /// Derives the engine tables from a definition, with the fast paths of `config`.
    pub(in crate::engine) fn with_config(mut def: GameDef, config: EngineConfig) -> Tables {
        let special = special::Special::build(&mut def);
        let mut turns = def.turn_order.once.clone();
        let once = turns.len();
        turns.extend(def.turn_order.cycle.iter().copied());
        let mut royal = vec![false; def.pieces.len()];
        let mut goal_squares = vec![false; def.board.n_pos()];
        for g in &def.goals {
            mark_goal(&g.cond, &mut royal, &mut goal_squares, &def);
        }
        let mut rank = vec![def.move_priorities.len() as u16; def.move_types.len() + 1];
        for (i, t) in def.move_priorities.iter().enumerate().rev() {
            rank[t.idx()] = i as u16;
        }
        let attr_defaults = def
            .pieces
            .iter()
            .map(|p| {
                p.attributes
                    .iter()
                    .filter(|(_, v)| *v)
                    .fold(0u32, |acc, (a, _)| acc | a.bit())
            })
            .collect();
        let mut in_turn_order = vec![false; def.players.len()];
        for e in &turns {
            in_turn_order[e.mover.idx()] = true;
            in_turn_order[e.owner.idx()] = true;
        }
        let block_rank = |b: &Block| rank_of(&rank, b.move_type.map_or(u16::MAX, |t| t.0));
        let mut rank_passes = Vec::new();
        if !def.move_priorities.is_empty() && !def.options.huffing && !def.options.complete_captures
        {
            for piece in &def.pieces {
                for b in piece.moves.iter().chain(&piece.drops) {
                    rank_passes.push(block_rank(b));
                }
            }
            rank_passes.sort_unstable();
            rank_passes.dedup();
        }
        // The generation lists of each selector (see `Tables::gen_lists`).
        let selectors = (rank_passes.iter().map(|&r| (Some(r), None)))
            .chain(std::iter::once((None, None)))
            .chain((0..def.move_types.len()).map(|t| (None, Some(MoveTypeId(t as u16)))));
        let gen_lists: Vec<Vec<Vec<special::GateEntry>>> = selectors
            .map(|(r, t)| {
                (def.pieces.iter())
                    .map(|p| {
                        (p.moves.iter().enumerate())
                            .filter(|(_, b)| {
                                r.is_none_or(|r| block_rank(b) == r)
                                    && t.is_none_or(|t| b.move_type == Some(t))
                            })
                            .map(|(i, b)| special.entry(i, b))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let needs_attacks = def.asks_attacked || royal.iter().any(|&r| r);
        // The tables answer `attacked?` and royal safety quickly; a game that needs neither
        // does not pay for deriving them (big games take seconds), and any other question
        // falls back on running the programs.
        let attacks = if needs_attacks {
            Attacks::with_royal(&def, &royal)
        } else {
            Attacks::default()
        };
        let mut rules = Tables {
            turns,
            once,
            royal,
            rank,
            rank_passes,
            gen_lists,
            gate_rows: gates::GateRows::default(),
            rays: rays::Rays::default(),
            attr_defaults,
            in_turn_order,
            goal_squares,
            deferred: def.options.deferred_captures,
            attacks,
            counter_base: {
                let mut base = Vec::new();
                let mut n = 0u32;
                for c in &def.counters {
                    base.push(n);
                    n += if c.per_player {
                        def.players.len().max(1) as u32
                    } else {
                        1
                    };
                }
                base
            },
            config: EngineConfig::plain(),
            after_move_plain: false,
            goal_shared: shared_goals(&def),
            goal_plan: goal_plan::GoalPlan::default(),
            count: count::CountRows::default(),
            clock: None,
            after_prog: None,
            special,
            has_drops: def.pieces.iter().any(|p| !p.drops.is_empty()),
            quiet_drops: def.pieces.iter().any(|p| !p.drops.is_empty())
                && def.move_priorities.is_empty()
                && (def.pieces.iter()).all(|p| p.drops.iter().all(|b| quiet_drop(&b.body))),
            skip_quiet: def.move_priorities.is_empty()
                && def.options.maximal_captures == 0
                && def.capture_precedence.is_empty()
                && !def.options.huffing,
            def,
        };
        rules.goal_plan = goal_plan::plan(&rules.def, &rules.counter_base);
        rules.configure(config);
        rules
    }

    /// The rank of a block's move type in `move-priorities` (untyped: last).
    #[inline]
    pub(in crate::engine) fn block_rank(&self, b: &Block) -> u16 {
        rank_of(&self.rank, b.move_type.map_or(u16::MAX, |t| t.0))
    }

    /// The fast paths these rules take ([`EngineConfig::effective`] of the one they were
    /// given).
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// Takes the fast paths of `config` from now on: builds the tables of those that have
    /// them (gate rows, the compiled `after-move` and clock) and drops the others'. The one
    /// place where the configuration is applied.
    pub fn configure(&mut self, config: EngineConfig) {
        let config = config.effective();
        self.config = config;
        self.gate_rows = if config.gate_rows {
            gates::GateRows::build(&self.def, &self.special, &self.gen_lists, config)
        } else {
            gates::GateRows::default()
        };
        self.rays = if config.rays {
            rays::Rays::build(&self.def, &self.special, &mut self.gate_rows)
        } else {
            rays::Rays::default()
        };
        if config.distinct {
            let rays = &self.rays.rays;
            (self.gate_rows).mark_distinct(|k| rays.get(k as usize).map(|r| r.mask));
        }
        self.count = if config.count {
            let tables = (&mut self.gate_rows, &self.rays);
            let sel = self.rank_passes.len();
            count::CountRows::build(&self.def, tables, sel)
        } else {
            count::CountRows::default()
        };
        let plain = after::plain_program(&self.def.after_move);
        self.after_move_plain = config.after_move && plain;
        self.after_prog = self
            .after_move_plain
            .then(|| after::Prog::compile(&self.def));
        self.clock = None;
        if config.clock {
            if let Some(mut clock) = after::Clock::recognise(&self.def) {
                clock.resolve(self.def.players.len(), |c, p| self.counter_slot(c, p));
                self.clock = Some(clock);
            }
        }
    }

    /// Whether the `after-move` program writes only counters (it is empty, or made only of
    /// `if`s and counter settings), so that a move's ops show every cell it writes.
    pub fn after_move_counters_only(&self) -> bool {
        after::plain_program(&self.def.after_move)
    }

    /// A block's size: its instructions and conditions, nested ones included (the work a
    /// run of its straight-line part stands for in `Scratch::work`).
    pub fn block_weight(&self, block: &crate::def::Block) -> u64 {
        self.special.weight(block) as u64
    }

    /// The starting position.
    pub fn initial(&self) -> Position {
        let n_pieces = self.def.pieces.len();
        let mut pos = Position::empty(
            self.def.board.n_pos(),
            self.def.players.len() * n_pieces,
            self.n_counter_slots(),
        );
        for p in &self.def.setup.placements {
            pos.set(
                p.pos.0,
                Cell::new(p.piece, p.player, self.attr_defaults[p.piece.idx()]),
            );
        }
        for o in &self.def.setup.off {
            pos.add_store(
                (o.player.idx() * n_pieces + o.piece.idx()) as u32,
                o.count as i32,
            );
        }
        self.start_counters(&mut pos);
        pos
    }

    /// Sets every counter of a position to its declared start value.
    pub fn start_counters(&self, pos: &mut Position) {
        for (c, def) in self.def.counters.iter().enumerate() {
            let n = if def.per_player {
                self.def.players.len().max(1)
            } else {
                1
            };
            let start = def.start.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
            for k in 0..n {
                let slot = self.counter_base[c] + k as u32;
                let old = pos.counters[slot as usize];
                pos.add_counter(slot, start.wrapping_sub(old));
            }
        }
    }

    /// Number of counter slots in a position.
    pub fn n_counter_slots(&self) -> usize {
        self.def
            .counters
            .iter()
            .map(|c| {
                if c.per_player {
                    self.def.players.len().max(1)
                } else {
                    1
                }
            })
            .sum()
    }

    /// The slot of a counter as `player` sees it.
    #[inline]
    pub fn counter_slot(&self, c: u16, player: PlayerId) -> u32 {
        let base = self.counter_base[c as usize];
        if self.def.counters[c as usize].per_player {
            base + player.0 as u32
        } else {
            base
        }
    }

    /// Evaluates an integer expression for `side` (locals are a block's variables; `here`,
    /// `move-from` and `move-to` come from `at`).
    pub fn eval(
        &self,
        pos: &Position,
        side: PlayerId,
        locals: &[i64],
        at: [u16; 3],
        e: &Expr,
    ) -> i64 {
        let index = |sq: u16| if sq == NONE { -1 } else { sq as i64 };
        match e {
            Expr::Here => index(at[0]),
            Expr::MoveFrom => index(at[1]),
            Expr::MoveTo => index(at[2]),
            Expr::Int(n) => *n,
            Expr::Var(v) => locals.get(*v as usize).copied().unwrap_or(0),
            Expr::Counter(c) => pos.counters[self.counter_slot(*c, side) as usize] as i64,
            Expr::Arith(op, a, b) => {
                let (a, b) = (
                    self.eval(pos, side, locals, at, a),
                    self.eval(pos, side, locals, at, b),
                );
                arith(*op, a, b)
            }
            Expr::CountPieces(owner, pieces, zone) => pos
                .cells
                .iter()
                .enumerate()
                .filter(|(sq, c)| {
                    !c.is_empty()
                        && c.marks & DEAD == 0
                        && match owner {
                            Owner::Mine => c.owner == side.0,
                            Owner::Opponent => c.owner != side.0,
                            Owner::Any => true,
                        }
                        && (pieces.is_empty() || pieces.iter().any(|p| p.0 + 1 == c.piece))
                        && zone.is_none_or(|z| self.def.board.in_zone(z, side, PosId(*sq as u16)))
                })
                .count() as i64,
        }
    }

    /// The turn entry in force at a turn index.
    pub fn entry(&self, turn: u32) -> TurnEntry {
        self.turns[turn as usize]
    }

    /// The turn index that follows `turn`.
    pub fn next_turn(&self, turn: u32) -> u32 {
        let t = turn as usize + 1;
        if t < self.turns.len() {
            t as u32
        } else {
            self.once as u32
        }
    }

    /// Where a recycled capture goes: (store owner, piece type).
    #[inline]
    pub fn recycled(&self, c: Cell, capturer: PlayerId) -> (u8, u16) {
        let owner = if self.def.options.recycle_to_capturer {
            capturer.0
        } else {
            c.owner
        };
        let mut piece = c.piece - 1;
        if let Some((to, attr)) = self.def.pieces[piece as usize].captured_as {
            if attr.is_none_or(|a| c.attrs >> a.0 & 1 == 1) {
                piece = to.0;
            }
        }
        (owner, piece)
    }
}

fn mark_goal(c: &GoalCond, royal: &mut [bool], squares: &mut [bool], def: &GameDef) {
    match c {
        GoalCond::Checkmated(ps) => {
            for p in ps {
                royal[p.idx()] = true;
            }
        }
        GoalCond::Not(x) => mark_goal(x, royal, squares, def),
        GoalCond::And(xs) | GoalCond::Or(xs) => {
            for x in xs {
                mark_goal(x, royal, squares, def);
            }
        }
        GoalCond::AbsoluteConfig {
            positions, zones, ..
        } => {
            for p in positions {
                squares[p.idx()] = true;
            }
            for z in zones {
                for list in &def.board.zones[z.idx()].positions {
                    for p in list {
                        squares[p.idx()] = true;
                    }
                }
            }
        }
        _ => {}
    }
}

/// A drop block that lands only on an empty square and neither captures nor promotes: it
/// begins by verifying that its square is empty, and then only tests conditions, sets
/// attributes of the dropped piece, flags, variables and counters, and adds the piece (no
/// steps, captures, creations or promotions).
fn quiet_drop(body: &[Instr]) -> bool {
    fn quiet(i: &Instr) -> bool {
        match i {
            Instr::Verify(_) | Instr::SetFlag(..) | Instr::SetVar(..) | Instr::SetCounter(..) => {
                true
            }
            Instr::SetAttribute(_, _, None) => true,
            Instr::Add(a) => !a.copy && !a.partial && a.promote.is_empty() && a.finally.is_none(),
            Instr::If(_, yes, no) => yes.iter().all(quiet) && no.iter().all(quiet),
            _ => false,
        }
    }
    matches!(
        body.first(),
        Some(Instr::Verify(crate::def::Cond::Empty(None)))
    ) && body[1..].iter().all(quiet)
}

/// The priority rank of move type `t` (`u16::MAX`: no move type), from the table of ranks by
/// type whose last entry is the rank of blocks outside any `move-type`.
#[inline]
pub(in crate::engine) fn rank_of(rank: &[u16], t: u16) -> u16 {
    rank.get(t as usize)
        .copied()
        .unwrap_or(rank[rank.len() - 1])
}

/// Per goal of `def`: whether its condition reads no player (no per-player counter, no piece
/// owned by or zone of the player, no move list), so that it holds for all its players or none.
fn shared_goals(def: &GameDef) -> Vec<bool> {
    fn expr(def: &GameDef, e: &Expr) -> bool {
        match e {
            Expr::Int(_) | Expr::Var(_) | Expr::Here | Expr::MoveFrom | Expr::MoveTo => true,
            Expr::Counter(c) => !def.counters[*c as usize].per_player,
            Expr::Arith(_, a, b) => expr(def, a) && expr(def, b),
            Expr::CountPieces(owner, _, zone) => *owner == Owner::Any && zone.is_none(),
        }
    }
    fn cond(def: &GameDef, c: &GoalCond) -> bool {
        match c {
            GoalCond::Const(_)
            | GoalCond::Repetition
            | GoalCond::OnlyPieces(_)
            | GoalCond::TotalPieceCount(..) => true,
            GoalCond::Compare(_, a, b) => expr(def, a) && expr(def, b),
            GoalCond::Not(x) => cond(def, x),
            GoalCond::And(xs) | GoalCond::Or(xs) => xs.iter().all(|x| cond(def, x)),
            _ => false,
        }
    }
    def.goals.iter().map(|g| cond(def, &g.cond)).collect()
}
