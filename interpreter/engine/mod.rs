//! The move engine: positions, the move-program interpreter and the turn layer that turns
//! program output into legal moves (whole turns), plus make/unmake and perft.

mod after;
pub mod attack;
mod exec;
mod gates;
mod goals;
mod legal;
mod moves;
mod position;
mod special;

pub use exec::{Scratch, BLOCK_MOVE_LIMIT, STEP_LIMIT};
pub use goals::{GoalContext, Outcome};
pub use moves::{apply, apply_more, revert, Cut, Move, MoveList, Op, UndoLog};
pub use position::{Cell, Position, DEAD, HUFFABLE};

use crate::def::*;
use attack::Attacks;
use exec::Exec;

/// The longest chain of partial steps one turn may take.
pub const MAX_CHAIN: usize = 64;

/// The most partial steps one `legal_moves` call plays while expanding chains; past it, steps
/// end their chains where they stand, so that branching chains cannot exhaust time or memory.
pub const CHAIN_WORK_LIMIT: usize = 1 << 16;

/// The most moves one generation (single steps, or whole turns) may hold; past it, no more
/// blocks run and no more chains are written. No real game comes near it (chess has at most
/// 218 moves, a drop on each square of a 200x200 board 40,000 per piece type).
pub const GEN_MOVE_LIMIT: usize = 200_000;

/// A game ready to play: the definition plus tables derived from it.
#[derive(Clone, Debug)]
pub struct Rules {
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
    /// Royal safety is proven from the attack tables where they can (`legal.rs`); false plays
    /// every move and scans the board for royal pieces (the reference the fast way is tested
    /// against).
    pub fast_legality: bool,
    /// The `after-move` program is plain enough to run without the interpreter (set false
    /// to run it through the interpreter, the reference the plain way is tested against).
    pub after_move_plain: bool,
    /// With `move-priorities`, the distinct ranks of the blocks, best first: legal moves are
    /// generated rank by rank until one gives a move. Empty (all blocks at once) without
    /// priorities, and with the options that compare moves across types (`"huffing"`,
    /// `"complete captures"`).
    rank_passes: Vec<u16>,
    /// Per goal: its condition reads no player (`goals::shared_goals`), so it is tested once
    /// rather than once per listed player.
    goal_shared: Vec<bool>,
    /// By selector and piece type: the piece's move blocks that the selector takes, as the
    /// generation loop reads them. The selectors are the rank passes (`k`), then all blocks
    /// (`rank_passes.len()`), then each move type `t` (`rank_passes.len() + 1 + t`).
    gen_lists: Vec<Vec<Vec<special::GateEntry>>>,
    /// The same lists by player and start square, gates read at load (`gates.rs`).
    gate_rows: gates::GateRows,
    /// The `after-move` program as a clock, when it is one.
    clock: Option<after::Clock>,
    /// The plain `after-move` program, compiled (`after.rs`), when it is plain.
    after_prog: Option<after::Prog>,
    /// The specialised trees of the blocks (`special.rs`).
    pub special: special::Special,
    /// Some piece type has drop blocks.
    has_drops: bool,
    /// Every drop block lands on an empty square and neither captures nor promotes
    /// ([`quiet_drop`]) and no move priorities rank drops against other moves: a search for
    /// captures may leave the drops out ([`Rules::legal_captures_in`]).
    quiet_drops: bool,
}

/// The rows of one selector in `Rules::gate_rows` (all players, piece types and squares).
fn rows_per_sel(rules: &Rules) -> usize {
    rules.def.players.len() * rules.def.pieces.len() * rules.def.board.n_pos()
}

/// The priority rank of move type `t` (`u16::MAX`: no move type), from the table of ranks by
/// type whose last entry is the rank of blocks outside any `move-type`.
#[inline]
fn rank_of(rank: &[u16], t: u16) -> u16 {
    rank.get(t as usize)
        .copied()
        .unwrap_or(rank[rank.len() - 1])
}

/// Keeps the moves whose key is the largest (no pass over the moves when all keys are equal).
fn keep_best(out: &mut MoveList, keys: &[u64]) {
    let best = keys.iter().copied().max().unwrap_or(0);
    if keys.iter().all(|&k| k == best) {
        return;
    }
    let mut k = keys.iter();
    out.retain(|_| k.next() == Some(&best));
}

/// The pieces a move takes, as `"maximal captures"` counts them: the pieces it captures, and
/// the pieces on other squares than its path that it turns into another type or hands to
/// another owner (`change-type` or `change-owner` on a jumped piece). Zillions counts both:
/// in its Northern Kings, where a jumped king becomes a marked checker, its saved games take
/// such a jump while a capture of a single checker is on offer (`docs/semantics.md`).
fn taken(pos: &Position, out: &MoveList, m: &Move) -> usize {
    let caps = out.captured(m);
    let path = out.path(m);
    // The last write to a square is what the move leaves there.
    let mut seen: Vec<u16> = Vec::new();
    let mut changed = 0;
    for op in out.ops(m).iter().rev() {
        let Op::Set(sq, c) = *op else { continue };
        if path.contains(&sq) || caps.contains(&sq) || seen.contains(&sq) {
            continue;
        }
        seen.push(sq);
        let b = pos.cells[sq as usize];
        if !b.is_empty() && !c.is_empty() && (b.piece, b.owner) != (c.piece, c.owner) {
            changed += 1;
        }
    }
    caps.len() + changed
}

impl Rules {
    /// Derives the engine tables from a definition.
    pub fn new(mut def: GameDef) -> Rules {
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
                    .fold(0u32, |acc, (a, _)| acc | 1 << (a.0 % 32))
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
        // The generation lists of each selector (see `Rules::gen_lists`).
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
        let gate_rows = gates::GateRows::build(&def, &special, &gen_lists);
        let needs_attacks = def.asks_attacked || royal.iter().any(|&r| r);
        let mut rules = Rules {
            turns,
            once,
            royal,
            rank,
            rank_passes,
            gen_lists,
            gate_rows,
            attr_defaults,
            in_turn_order,
            goal_squares,
            deferred: def.options.deferred_captures,
            // The tables answer `attacked?` and royal safety quickly; a game that needs
            // neither does not pay for deriving them (big games take seconds), and any other
            // question falls back on running the programs.
            attacks: if needs_attacks {
                Attacks::new(&def)
            } else {
                Attacks::default()
            },
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
            fast_legality: true,
            after_move_plain: after::plain_program(&def.after_move),
            goal_shared: goals::shared_goals(&def),
            clock: after::Clock::recognise(&def),
            after_prog: after::plain_program(&def.after_move).then(|| after::Prog::compile(&def)),
            special,
            has_drops: def.pieces.iter().any(|p| !p.drops.is_empty()),
            quiet_drops: def.pieces.iter().any(|p| !p.drops.is_empty())
                && def.move_priorities.is_empty()
                && (def.pieces.iter()).all(|p| p.drops.iter().all(|b| quiet_drop(&b.body))),
            def,
        };
        if let Some(mut clock) = rules.clock.take() {
            clock.resolve(&rules);
            rules.clock = Some(clock);
        }
        rules
    }

    /// A block's size: its instructions and conditions, nested ones included (the work a
    /// run of its straight-line part stands for in `Scratch::work`).
    pub fn block_weight(&self, block: &crate::def::Block) -> u64 {
        self.special.weight(block) as u64
    }

    /// Turns the specialised trees on (the default) or off: with them off, every block runs
    /// through the plain interpreter. The moves are the same either way (`special.rs`).
    pub fn set_specialised(&mut self, on: bool) {
        self.special.enabled = on;
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

    /// Runs every block of `side`'s pieces (and drops) into `out`: single steps, no filtering.
    ///
    /// `only` restricts to the piece on one square; `move_type` to blocks of that type.
    pub fn gen_steps(
        &self,
        pos: &Position,
        side: PlayerId,
        move_type: Option<MoveTypeId>,
        only: u16,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        let sel = self.type_selector(move_type);
        self.gen_steps_where(pos, side, sel, only, scratch, out);
    }

    /// The selector of `Rules::gen_lists` for the blocks of a move type (all blocks: `None`).
    fn type_selector(&self, move_type: Option<MoveTypeId>) -> usize {
        let p = self.rank_passes.len();
        match move_type {
            Some(t) if t.idx() < self.def.move_types.len() => p + 1 + t.idx(),
            // An unknown type has no blocks: past the lists.
            Some(_) => usize::MAX,
            None => p,
        }
    }

    /// Whether the selector `sel` of `Rules::gen_lists` takes a block (for drops).
    fn selects(&self, sel: usize, b: &Block) -> bool {
        let p = self.rank_passes.len();
        match sel {
            k if k < p => self.block_rank(b) == self.rank_passes[k],
            k if k == p => true,
            k => b.move_type.is_some_and(|t| t.idx() + p + 1 == k),
        }
    }

    /// [`Rules::gen_steps`] of the blocks that selector `sel` of `Rules::gen_lists` takes.
    #[inline]
    fn gen_steps_where(
        &self,
        pos: &Position,
        side: PlayerId,
        sel: usize,
        only: u16,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        let mut ex = Exec::new(self, pos, side);
        scratch.may_repeat = false;
        let rows = match self.gate_rows.base(sel, side.idx()) {
            Some(base) if self.special.enabled => Some(base),
            _ => None,
        };
        let go = match rows {
            Some(base) => self.gen_rows(&mut ex, base, only, scratch, out),
            None => self.gen_lists_of(&mut ex, sel, only, scratch, out),
        };
        if !go {
            return;
        }
        if only != NONE {
            return;
        }
        if self.has_drops {
            if scratch.skip_quiet_drops && self.quiet_drops {
                // A search for captures: the drops are noted as left out when the side has
                // something to drop.
                let n_pieces = self.def.pieces.len();
                scratch.drops_skipped |= (self.def.pieces.iter().enumerate())
                    .any(|(t, p)| !p.drops.is_empty() && pos.store[side.idx() * n_pieces + t] > 0);
                if scratch.check_drops {
                    let mask = std::mem::take(&mut scratch.check_mask);
                    self.gen_drops(&mut ex, sel, Some(&mask), scratch, out);
                    scratch.check_mask = mask;
                }
                return;
            }
            self.gen_drops(&mut ex, sel, None, scratch, out);
        }
    }

    /// The drops of the mover (after its pieces' moves, `Rules::gen_steps_where`); with
    /// `only`, those of the types and squares it marks (`only[type * n_pos + square]`).
    #[inline(never)]
    fn gen_drops(
        &self,
        ex: &mut Exec,
        sel: usize,
        only: Option<&[bool]>,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        let pos = ex.pos;
        let side = ex.side;
        let n_pieces = self.def.pieces.len();
        for (pi, piece) in self.def.pieces.iter().enumerate() {
            if piece.drops.is_empty() || pos.store[side.idx() * n_pieces + pi] == 0 {
                continue;
            }
            // One group per dropped type: every drop takes its own type from the store (an
            // op of the move), so drops of two types are never equal moves.
            let first = out.moves.len();
            for block in piece.drops.iter().filter(|b| self.selects(sel, b)) {
                let n_pos = pos.cells.len();
                for sq in 0..n_pos {
                    if only.is_some_and(|o| !o[pi * n_pos + sq]) {
                        continue;
                    }
                    if out.moves.len() >= GEN_MOVE_LIMIT {
                        out.note_cut(Cut::TotalMoves);
                        scratch.may_repeat = true;
                        return;
                    }
                    ex.run(block, sq as u16, Some(PieceId(pi as u16)), scratch, out);
                }
            }
            if out.moves.len() > first {
                scratch.new_group(pos.cells.len());
                scratch.note_group(out, first, NONE);
            }
        }
    }

    /// The moves of the mover's pieces from `Rules::gen_lists` (specialisation off, or no
    /// rows); false once generation is cut.
    #[inline(never)]
    fn gen_lists_of(
        &self,
        ex: &mut Exec,
        sel: usize,
        only: u16,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) -> bool {
        let pos = ex.pos;
        let side = ex.side;
        let (lo, hi) = if only != NONE {
            (only as usize, only as usize + 1)
        } else {
            (0, pos.cells.len())
        };
        let n_pos = pos.cells.len();
        let lists: &[Vec<special::GateEntry>] = match self.gen_lists.get(sel) {
            Some(l) => l,
            None => &[],
        };
        // The mover's part of the direction table (`Exec::base`).
        let next = self.def.board.next.get(ex.base..).unwrap_or(&[]);
        // The mover's part of the fused leaps (`Exec::leap`).
        let leaps = (self.special.leaps)
            .get(side.idx() * n_pos..)
            .unwrap_or(&[]);
        let special = self.special.enabled;
        // Straight blocks skip the run's set-up when no add can need more than
        // `Exec::emit_simple` (recycled captures go to a store).
        let straight_ok = special && !self.def.options.recycle_captures;
        for sq in lo..hi.min(n_pos) {
            let cell = pos.cells[sq];
            if cell.is_empty() || cell.owner != side.0 || cell.marks & DEAD != 0 {
                continue;
            }
            let pi = cell.piece as usize - 1;
            let Some(list) = lists.get(pi) else { continue };
            // The piece's blocks, read only once one passes its gate.
            let moves = || &self.def.pieces[pi].moves;
            let first = out.moves.len();
            for e in list {
                if out.moves.len() >= GEN_MOVE_LIMIT {
                    out.note_cut(Cut::TotalMoves);
                    scratch.may_repeat = true;
                    return false;
                }
                // Most blocks end at their gate (off the board, or a square that fails its
                // test): tested here, from the mover's direction table.
                let q = match e.table {
                    special::GATE_STEP if special => next.get(e.off as usize + sq),
                    special::GATE_LEAP if special => leaps.get(e.off as usize + sq),
                    _ => {
                        ex.run(&moves()[e.block as usize], sq as u16, None, scratch, out);
                        continue;
                    }
                };
                let q = match q {
                    Some(&q) if q != NONE => q,
                    _ => continue,
                };
                let Some(&c) = pos.cells.get(q as usize) else {
                    continue;
                };
                ex.cp = q;
                if !e.passes(c, side.0, ex) {
                    continue;
                }
                let block = &moves()[e.block as usize];
                let seq = self.special.seq_of(e.id);
                if straight_ok && e.straight {
                    ex.run_straight(e, seq, sq as u16, scratch, out);
                } else {
                    ex.run_gated(block, seq, sq as u16, scratch, out);
                }
            }
            scratch.note_square(out, first, sq as u16, n_pos);
        }
        true
    }

    /// The moves of the mover's pieces from the gate rows of one selector and player (`base`,
    /// `gates.rs`): the same blocks in the same order as [`Rules::gen_lists_of`], with the
    /// gates' squares read at load. False once generation is cut.
    #[inline]
    fn gen_rows(
        &self,
        ex: &mut Exec,
        base: usize,
        only: u16,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) -> bool {
        use gates::*;
        let pos = ex.pos;
        let cells = &pos.cells[..];
        let side = ex.side.0;
        let n_pos = cells.len();
        let (lo, hi) = if only != NONE {
            (only as usize, (only as usize + 1).min(n_pos))
        } else {
            (0, n_pos)
        };
        if out.moves.len() >= GEN_MOVE_LIMIT {
            // Full already: the lists' loop notes the cut as they do.
            let sel = base / (rows_per_sel(self).max(1));
            return self.gen_lists_of(ex, sel, only, scratch, out);
        }
        let rows = &self.gate_rows;
        let spans = rows.spans(base);
        let squares = cells.get(lo..hi).unwrap_or(&[]);
        for (i, cell) in squares.iter().enumerate() {
            if cell.is_empty() || cell.owner != side || cell.marks & DEAD != 0 {
                continue;
            }
            let sq = lo + i;
            let pi = cell.piece as usize - 1;
            let Some(&(a, b)) = spans.get(pi * n_pos + sq) else {
                continue;
            };
            if a == b {
                continue;
            }
            let Some(row) = rows.gates.get(a as usize..b as usize) else {
                continue;
            };
            // The moves written from this square begin at `first`, read once a gate is
            // open (most rows have none).
            let mut first = usize::MAX;
            for g in row {
                let c = cells.get(g.q as usize).copied().unwrap_or(Cell::EMPTY);
                if !passes(g.mask, c, side) {
                    continue;
                }
                if g.mask2 != 0xFF {
                    let c2 = cells.get(g.q2 as usize).copied().unwrap_or(Cell::EMPTY);
                    if !passes(g.mask2, c2, side) {
                        continue;
                    }
                }
                if first == usize::MAX {
                    first = out.moves.len();
                }
                let Some(e) = rows.entries.get(g.entry as usize) else {
                    continue;
                };
                let flags = g.flags & !F_SIMPLE;
                if g.flags & F_SIMPLE != 0
                    && rows.simples.get(g.simple as usize).is_some_and(|head| {
                        ex.push_simple_call(head, e.move_type, sq as u16, g.q, out)
                    })
                {
                    // The block's one move, written from the row (its run would count
                    // no step).
                    scratch.work = scratch.work.saturating_add(e.weight as u64);
                } else if flags == F_STRAIGHT {
                    ex.cp = g.q;
                    ex.run_straight(e, self.special.seq_of(e.id), sq as u16, scratch, out);
                } else if flags == 0 {
                    // A gated block that is not straight (recycled captures, marks, flags).
                    ex.cp = g.q;
                    self.run_gated_row(ex, e, pi, sq, scratch, out);
                } else {
                    self.run_row_gate(ex, *g, e, pi, sq, scratch, out);
                }
                if out.moves.len() >= GEN_MOVE_LIMIT && self.more_blocks(ex, base, g, sq, hi) {
                    out.note_cut(Cut::TotalMoves);
                    scratch.may_repeat = true;
                    return false;
                }
            }
            if first != usize::MAX {
                scratch.note_square(out, first, sq as u16, n_pos);
            }
        }
        true
    }

    /// Whether the lists' loop (`Rules::gen_lists_of`) would look at another block after the
    /// block of gate `g` on `sq` (squares below `hi`): it checks the move limit before each
    /// block, so that is where it notes a cut once `out` is full.
    #[cold]
    fn more_blocks(&self, ex: &Exec, base: usize, g: &gates::SqGate, sq: usize, hi: usize) -> bool {
        if !g.last {
            return true;
        }
        let side = ex.side.0;
        (sq + 1..hi).any(|s| {
            let c = ex.pos.cells[s];
            !c.is_empty()
                && c.owner == side
                && c.marks & DEAD == 0
                && self.gate_rows.has_list(base, c.piece as usize - 1)
        })
    }

    /// Runs the gated block of entry `e` of piece type `pi` on `sq` (not straight), whose
    /// gate has passed, landing on `ex.cp` (`Rules::gen_rows`).
    #[inline(never)]
    fn run_gated_row(
        &self,
        ex: &mut Exec,
        e: &special::GateEntry,
        pi: usize,
        sq: usize,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        if let Some(block) = self.def.pieces[pi].moves.get(e.block as usize) {
            ex.run_gated(block, self.special.seq_of(e.id), sq as u16, scratch, out);
        }
    }

    /// Runs the block of gate `g` (entry `e`) of the row of piece type `pi` on `sq`, whose
    /// gates have passed (`Rules::gen_rows`), when it is not simply straight.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn run_row_gate(
        &self,
        ex: &mut Exec,
        g: gates::SqGate,
        e: &special::GateEntry,
        pi: usize,
        sq: usize,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        use gates::*;
        let seq = self.special.seq_of(e.id);
        let Some(block) = self.def.pieces[pi].moves.get(e.block as usize) else {
            return;
        };
        if g.flags & F_RUN != 0 {
            ex.run(block, sq as u16, None, scratch, out);
            return;
        }
        ex.cp = g.q;
        let c = ex
            .pos
            .cells
            .get(g.q as usize)
            .copied()
            .unwrap_or(Cell::EMPTY);
        if g.flags & F_TEST != 0 && !e.passes(c, ex.side.0, ex) {
            return;
        }
        if g.flags & F_STRAIGHT != 0 {
            ex.run_straight(e, seq, sq as u16, scratch, out);
        } else {
            ex.run_gated(block, seq, sq as u16, scratch, out);
        }
    }

    /// Whether a piece of a player other than `side` (or of `side` itself, when `by_enemy` is
    /// false) could capture on `sq` with moves of the given type.
    pub fn attacked(
        &self,
        pos: &Position,
        sq: u16,
        side: PlayerId,
        move_type: Option<MoveTypeId>,
        by_enemy: bool,
    ) -> bool {
        if by_enemy && move_type.is_none() && self.attacks.usable {
            return self.attacked_fast(pos, sq, side);
        }
        self.attacked_general(pos, sq, side, move_type, by_enemy)
    }

    /// `attacked?` through the derived patterns, running only irregular blocks.
    fn attacked_fast(&self, pos: &Position, sq: u16, side: PlayerId) -> bool {
        let a = &self.attacks;
        let n_pos = pos.cells.len();
        let n_dirs = self.def.board.directions.len();
        let sq = sq as usize;
        for pl in 0..self.def.players.len() {
            if pl == side.idx() {
                continue;
            }
            let mine = |c: Cell| !c.is_empty() && c.owner as usize == pl && c.marks & DEAD == 0;
            for &(src, piece) in &a.leap_to[pl * n_pos + sq] {
                let c = pos.cells[src as usize];
                if mine(c) && c.piece == piece + 1 {
                    return true;
                }
            }
            for (d, pieces) in &a.slides[pl] {
                let base = (pl * n_dirs + d.idx()) * n_pos;
                let mut q = a.rev[base + sq];
                while q != NONE {
                    let c = pos.cells[q as usize];
                    if !c.is_empty() {
                        if mine(c) && pieces[c.piece as usize - 1] {
                            return true;
                        }
                        break;
                    }
                    q = a.rev[base + q as usize];
                }
            }
            // Irregular blocks (castling, en passant, jumps over a piece) that could capture
            // here run as programs.
            let candidates = &a.irregular_to[pl * n_pos + sq];
            // Buffers only once a candidate stands where it could attack from.
            let mut run: Option<(Scratch, MoveList, Exec)> = None;
            for &(start, piece, bi) in candidates {
                let c = pos.cells[start as usize];
                if !mine(c) || c.piece != piece + 1 {
                    continue;
                }
                let (scratch, out, ex) = run.get_or_insert_with(|| {
                    let mut ex = Exec::new(self, pos, PlayerId(pl as u8));
                    ex.target = sq as u16;
                    ex.defender = side.0;
                    (Scratch::default(), MoveList::new(), ex)
                });
                ex.run(
                    &self.def.pieces[piece as usize].moves[bi as usize],
                    start,
                    None,
                    scratch,
                    out,
                );
                if ex.hit {
                    return true;
                }
            }
        }
        false
    }

    /// `attacked?` by running every block of the other side in attack mode.
    pub fn attacked_general(
        &self,
        pos: &Position,
        sq: u16,
        side: PlayerId,
        move_type: Option<MoveTypeId>,
        by_enemy: bool,
    ) -> bool {
        let mut scratch = Scratch::default();
        let mut out = MoveList::new();
        for p in 0..self.def.players.len() {
            let other = PlayerId(p as u8);
            if (other == side) == by_enemy {
                continue;
            }
            let mut ex = Exec::new(self, pos, other);
            ex.target = sq;
            // The imagined piece on an empty target belongs to the side being attacked.
            ex.defender = if by_enemy {
                side.0
            } else {
                (side.0 + 1) % self.def.players.len().max(1) as u8
            };
            for from in 0..pos.cells.len() {
                let cell = pos.cells[from];
                if cell.is_empty() || cell.owner != other.0 || cell.marks & DEAD != 0 {
                    continue;
                }
                for block in &self.def.pieces[cell.piece as usize - 1].moves {
                    if move_type.is_some() && block.move_type != move_type {
                        continue;
                    }
                    ex.run(block, from as u16, None, &mut scratch, &mut out);
                    if ex.hit {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The legal moves of the side to move: whole turns, filtered by priorities, maximal
    /// captures and royal safety. `pos` is used as a scratch board and restored.
    pub fn legal_moves(&self, pos: &mut Position, out: &mut MoveList) {
        self.legal_moves_in(&mut Workspace::default(), pos, out);
    }

    /// [`Rules::legal_moves`] with buffers kept between calls (no allocation once warm).
    pub fn legal_moves_in(&self, ws: &mut Workspace, pos: &mut Position, out: &mut MoveList) {
        out.clear();
        let entry = self.entry(pos.turn);
        let mut cut = None;
        if entry.move_type.is_none() && self.rank_passes.len() > 1 {
            // Only the best-ranked move type that has a whole move is legal: the ranks are
            // generated one by one, best first, and the first that gives a move is the
            // answer (the worse ones are never generated).
            for k in 0..self.rank_passes.len() {
                out.clear();
                self.whole_turns(ws, pos, entry.owner, k, out);
                cut = cut.or(out.cut);
                if !out.is_empty() {
                    break;
                }
            }
            // Every move begins with a block of this one rank: priorities keep them all.
            ws.one_rank = true;
        } else {
            let sel = self.type_selector(entry.move_type);
            self.whole_turns(ws, pos, entry.owner, sel, out);
            cut = out.cut;
        }
        self.finish(ws, pos, out);
        ws.distinct = false;
        ws.one_rank = false;
        if let Some(why) = cut {
            out.note_cut(why);
        }
    }

    /// The legal moves that capture or promote: [`Rules::legal_moves_in`] with the others
    /// left out once the filters that compare moves (priorities, maximal captures,
    /// precedence) have run. Royal safety judges the others only until one is legal, so a
    /// search's quiescence does not pay for judging quiet moves. Returns whether a legal move
    /// was left out (a quiet move or a pass): with an empty `out`, false means no legal move.
    pub fn legal_captures_in(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> bool {
        let wanted = |m: &Move| m.n_captures() > 0 || m.promote != 0;
        if self.def.options.huffing {
            self.legal_moves_in(ws, pos, out);
            let other = out.moves.iter().any(|m| !wanted(m));
            out.retain(wanted);
            return other;
        }
        ws.captures_only = true;
        ws.other_legal = false;
        // Drops that can neither capture nor promote are not generated; when no other quiet
        // move is legal, one of them might be, so then the drops are generated after all.
        ws.scratch.skip_quiet_drops = self.quiet_drops;
        ws.scratch.drops_skipped = false;
        ws.scratch.check_drops = self.quiet_drops
            && ws.checking_drops
            && self.mark_checking_drops(pos, self.entry(pos.turn).owner, &mut ws.scratch);
        self.legal_moves_in(ws, pos, out);
        ws.scratch.skip_quiet_drops = false;
        if ws.scratch.drops_skipped && !ws.other_legal {
            ws.other_legal = false;
            ws.scratch.check_drops = false;
            self.legal_moves_in(ws, pos, out);
        }
        ws.scratch.check_drops = false;
        ws.captures_only = false;
        ws.other_legal
    }

    /// The rank of a block's move type in `move-priorities` (untyped: last).
    #[inline]
    fn block_rank(&self, b: &Block) -> u16 {
        rank_of(&self.rank, b.move_type.map_or(u16::MAX, |t| t.0))
    }

    /// The whole turns (chains expanded, not yet filtered) that the blocks of `side` chosen by
    /// selector `sel` (`Rules::gen_lists`) begin, into `out` (empty).
    fn whole_turns(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        side: PlayerId,
        sel: usize,
        out: &mut MoveList,
    ) {
        ws.distinct = false;
        // The steps are generated into `out` (empty), which they stay in when they are whole
        // turns, the usual case.
        debug_assert!(out.is_empty() && out.ops.is_empty() && out.squares.is_empty());
        self.gen_steps_where(pos, side, sel, NONE, &mut ws.scratch, out);
        // Deferred captures are removed when the chain ends: a step that captured nothing
        // has none to remove.
        let deferred = self.deferred;
        if out.len() <= GEN_MOVE_LIMIT
            && (out.moves.iter())
                .all(|m| !m.partial && m.finally == 0 && (!deferred || m.cap_hi == m.path_hi))
        {
            // Single steps are whole turns already: the list is the output as it stands.
            // The generator shows when no two of these moves can be the same (the filter
            // then skips its duplicate check).
            ws.distinct = !ws.scratch.may_repeat;
            return;
        }
        let mut steps = ws.take_buf();
        std::mem::swap(out, &mut steps);
        let mut gen = Gen {
            rules: self,
            side,
            work: 0,
            lazy: !self.def.options.complete_captures,
            may_repeat: ws.scratch.may_repeat,
            cont_base: None,
            ws,
        };
        gen.ws.chain_keys.clear();
        gen.ws.chain_keys.push(pos.repetition_key());
        let mut prefix = gen.ws.take_buf();
        gen.expand_all(pos, &steps, &mut prefix, 0, out);
        let all_plain = gen.lazy;
        // A chain's path is its start and every step's landing square: when no list of
        // steps (the first steps, each continuation) holds two with the same start and
        // landing square, two chains with one path took the same steps, so no two moves
        // written are equal (the filter skips its duplicate check).
        let distinct = !gen.may_repeat;
        ws.bufs.push(prefix);
        if all_plain {
            // Every step ended its chain as it stands (`Gen::lazy`): the steps are the output.
            let cut = out.cut.or(steps.cut);
            std::mem::swap(out, &mut steps);
            out.cut = cut;
        } else if let Some(why) = steps.cut {
            out.note_cut(why);
        }
        ws.bufs.push(steps);
        if self.def.options.complete_captures {
            let mut k = ws.dead.iter();
            out.retain(|_| !k.next().copied().unwrap_or(false));
            ws.dead.clear();
        }
        ws.distinct = distinct;
    }

    /// The filters of whole turns (or huffing's variations on them).
    fn finish(&self, ws: &mut Workspace, pos: &mut Position, out: &mut MoveList) {
        if self.def.options.huffing {
            self.huffing(ws, pos, out);
        } else {
            self.filter(ws, pos, out, true);
        }
    }

    /// `"huffing"`: the moves of the side to move are every move the compelling rules would
    /// filter out too; a move they would reject marks the pieces that could have obeyed them
    /// (at their new square, for the piece that moved). Every move clears the marks the
    /// opponent's last move left, and may be preceded by removing one marked piece (a huff).
    fn huffing(&self, ws: &mut Workspace, pos: &mut Position, out: &mut MoveList) {
        let side = self.entry(pos.turn).owner;
        let marked: Vec<u16> = (0..pos.cells.len() as u16)
            .filter(|&sq| {
                let c = pos.cells[sq as usize];
                !c.is_empty() && c.owner != side.0 && c.marks & HUFFABLE != 0
            })
            .collect();
        let mut clear: Vec<Op> = marked
            .iter()
            .map(|&sq| {
                let c = pos.cells[sq as usize];
                Op::Set(
                    sq,
                    Cell {
                        marks: c.marks & !HUFFABLE,
                        ..c
                    },
                )
            })
            .collect();
        let plain = std::mem::take(out);
        self.huffing_moves(ws, pos, plain, &clear, out);
        let n = clear.len();
        for &sq in &marked {
            // Huff `sq`, then look for the moves of the position without it.
            clear.push(Op::Set(sq, Cell::EMPTY));
            apply(
                pos,
                &clear,
                pos.turn,
                pos.last_from,
                pos.last_to,
                &mut ws.log,
            );
            let mut after = MoveList::new();
            self.legal_moves_in(ws, pos, &mut after);
            revert(pos, &mut ws.log);
            // The moves were found with the marks already cleared: clear them, then huff.
            self.prefix_moves(&after, &clear, sq + 1, out);
            clear.truncate(n);
        }
    }

    /// Filters `all` (the generated moves of one position), marks the neglecting pieces of
    /// every move the compelling rules reject, and writes each move after the ops `pre`.
    fn huffing_moves(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        mut all: MoveList,
        pre: &[Op],
        out: &mut MoveList,
    ) {
        let side = self.entry(pos.turn).owner;
        let mut strict = all.clone();
        strict.retain(|m| !m.stopped);
        self.filter(ws, pos, &mut strict, true);
        self.filter(ws, pos, &mut all, false);
        let mut neglect: Vec<u16> = Vec::new();
        for k in &strict.moves {
            let from = strict.path(k)[0];
            if from != NONE && !k.pass && !neglect.contains(&from) {
                neglect.push(from);
            }
        }
        out.clear();
        for m in &all.moves {
            let compelled = strict
                .moves
                .iter()
                .any(|k| strict.path(k) == all.path(m) && strict.ops(k) == all.ops(m));
            let op_lo = out.ops.len();
            out.ops.extend_from_slice(pre);
            out.ops.extend(all.ops(m).iter().map(|op| match *op {
                Op::Set(sq, c) => Op::Set(
                    sq,
                    Cell {
                        marks: c.marks & !HUFFABLE,
                        ..c
                    },
                ),
                op => op,
            }));
            if !compelled {
                let path = all.path(m);
                for &from in &neglect {
                    let at = if from == path[0] {
                        path[path.len() - 1]
                    } else {
                        from
                    };
                    let c = last_write(&out.ops[op_lo..], at).unwrap_or(pos.cells[at as usize]);
                    if !c.is_empty() && c.owner == side.0 {
                        out.ops.push(Op::Set(
                            at,
                            Cell {
                                marks: c.marks | HUFFABLE,
                                ..c
                            },
                        ));
                    }
                }
            }
            out.close_move(op_lo as u32, &all, m);
        }
    }

    /// Appends the moves of `list`, each after the ops `pre` and with `huff` set.
    fn prefix_moves(&self, list: &MoveList, pre: &[Op], huff: u16, out: &mut MoveList) {
        for m in &list.moves {
            let op_lo = out.ops.len() as u32;
            out.ops.extend_from_slice(pre);
            out.ops.extend_from_slice(&list.ops(m));
            out.close_move(op_lo, list, m).huff = huff;
        }
    }

    /// The filters of a move list; without `compel`, only those that are not obligations a
    /// player may neglect under `"huffing"` (duplicates, royal safety, passing).
    fn filter(&self, ws: &mut Workspace, pos: &mut Position, out: &mut MoveList, compel: bool) {
        if out.is_empty() {
            if self.def.options.pass_turn == PassTurn::Forced {
                if ws.captures_only {
                    ws.other_legal = true;
                    return;
                }
                push_pass(out);
            }
            return;
        }
        // Priorities first: when two blocks of different types make the same move, the copy
        // of the better-ranked type is the one that stays (ZoG keeps the move).
        if compel {
            self.compel(&mut ws.keys, ws.one_rank, pos, out);
        }
        // The filters above only drop moves, so a list shown distinct stays so.
        if !ws.distinct {
            dedup_moves(ws, out);
        }
        debug_assert!(
            !ws.distinct || !has_equal_moves(out),
            "a list shown distinct"
        );
        let royal = self.royal.iter().any(|&r| r);
        if ws.captures_only {
            let drops = ws.scratch.check_drops;
            let wanted = |m: &Move| m.n_captures() > 0 || m.promote != 0 || drops && m.drop != 0;
            ws.other_legal = if royal {
                let (s, keep, log) = (&mut ws.safety, &mut ws.keep, &mut ws.log);
                self.royal_filter_captures(s, keep, log, pos, out, drops)
            } else {
                let other = out.moves.iter().any(|m| !wanted(m));
                out.retain(wanted);
                other
            };
            ws.other_legal |= match self.def.options.pass_turn {
                PassTurn::Yes => true,
                PassTurn::Forced => out.is_empty() && !ws.other_legal,
                _ => false,
            };
            return;
        }
        if royal {
            self.royal_filter(&mut ws.safety, &mut ws.keep, &mut ws.log, pos, out);
        }
        match self.def.options.pass_turn {
            PassTurn::Yes => push_pass(out),
            PassTurn::Forced if out.is_empty() => push_pass(out),
            _ => {}
        }
    }

    /// The filters that compel a choice: move priorities (unless the moves are known to be of
    /// `one_rank`), maximal captures, capture precedence. `keys` is a buffer.
    fn compel(&self, keys: &mut Vec<u64>, one_rank: bool, pos: &Position, out: &mut MoveList) {
        if !self.def.move_priorities.is_empty() && !one_rank {
            let rank = |m: &Move| rank_of(&self.rank, m.move_type);
            let best = out.moves.iter().map(rank).min().unwrap_or(0);
            out.retain(|m| rank(m) == best);
        }
        if self.def.options.maximal_captures > 0 {
            keys.clear();
            keys.extend(out.moves.iter().map(|m| taken(pos, out, m) as u64));
            keep_best(out, keys);
        }
        if self.def.options.maximal_captures == 2 {
            // zrf's reading of `2`: among the longest captures, the most promoted pieces
            // (pieces of any type but the first declared one, usually kings).
            let promoted: Vec<PieceId> = (1..self.def.pieces.len())
                .map(|i| PieceId(i as u16))
                .collect();
            self.precedence(&Precedence::MostCapturedOf(promoted), pos, out);
        }
        for crit in &self.def.capture_precedence {
            self.precedence(crit, pos, out);
        }
    }

    /// Keeps the moves that are best by one capture-precedence criterion.
    fn precedence(&self, crit: &Precedence, pos: &Position, out: &mut MoveList) {
        // Capture precedence says nothing about positions without a capture.
        if out.moves.iter().all(|m| m.cap_hi == m.path_hi) {
            return;
        }
        let piece_at = |sq: u16| pos.cells[sq as usize].piece.wrapping_sub(1);
        let keys: Vec<u64> = out
            .moves
            .iter()
            .map(|m| {
                let caps = out.captured(m);
                match crit {
                    Precedence::MostCaptured => caps.len() as u64,
                    Precedence::MostValue(values) => caps
                        .iter()
                        .map(|&sq| values.get(piece_at(sq) as usize).copied().unwrap_or(1) as u64)
                        .sum(),
                    Precedence::MostCapturedOf(ts) => caps
                        .iter()
                        .filter(|&&sq| ts.iter().any(|t| t.0 == piece_at(sq)))
                        .count() as u64,
                    Precedence::MovedBy(ts) => {
                        let from = out.path(m)[0];
                        u64::from(from != NONE && ts.iter().any(|t| t.0 == piece_at(from)))
                    }
                }
            })
            .collect();
        keep_best(out, &keys);
    }

    /// Whether the cell holds a royal piece of `side`.
    #[inline]
    pub fn royal_of(&self, c: Cell, side: PlayerId) -> bool {
        !c.is_empty() && c.owner == side.0 && self.royal[c.piece as usize - 1]
    }

    /// Whether any royal piece of `side` stands attacked.
    pub fn royal_attacked(&self, pos: &Position, side: PlayerId) -> bool {
        (0..pos.cells.len()).any(|sq| {
            self.royal_of(pos.cells[sq], side) && self.attacked(pos, sq as u16, side, None, true)
        })
    }

    /// Plays a move from a list (no legality check), advances the turn, then runs `after-move`
    /// on the new position for the player who moved.
    pub fn make(&self, pos: &mut Position, list: &MoveList, m: &Move, log: &mut UndoLog) {
        let turns = (self.entry(pos.turn).owner, self.next_turn(pos.turn));
        self.make_from(pos, list, m, log, turns);
    }

    /// [`Rules::make`] given the mover and the next turn index (the same for every
    /// move of a position, so perft's loops find them once).
    #[inline(always)]
    fn make_from(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        log: &mut UndoLog,
        (mover, next): (PlayerId, u32),
    ) {
        moves::push_frame(pos, log);
        self.make_in_frame(pos, list, m, log, (mover, next));
    }

    /// [`Rules::make_from`] into the undo frame last opened, which must be empty
    /// (`moves::apply_in_frame`).
    #[inline(always)]
    fn make_in_frame(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        log: &mut UndoLog,
        (mover, next): (PlayerId, u32),
    ) {
        self.ops_in_frame(pos, list, m, log, next);
        if let (Some(c), true) = (&self.clock, self.after_move_plain) {
            let captured = m.cap_hi > m.path_hi || m.huff != 0;
            c.run(pos, mover, captured, m.piece, log);
        } else if !self.def.after_move.is_empty() {
            self.after_move(pos, list, m, mover, log);
        }
    }

    /// The `after-move` program of [`Rules::make`] when it is not a clock.
    #[inline(never)]
    fn after_move(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        mover: PlayerId,
        log: &mut UndoLog,
    ) {
        let path = list.path(m);
        let ends = (path[0], path[path.len() - 1]);
        let captured = m.cap_hi > m.path_hi || m.huff != 0;
        if self.after_move_plain
            && self.after_move_plain_run(pos, mover, (captured, m.piece), ends, log)
        {
            return;
        }
        let mut extra = std::mem::take(&mut log.after_ops);
        let mut scratch = std::mem::take(&mut log.after_scratch);
        extra.clear();
        let mut ex = Exec::new(self, pos, mover);
        ex.run_after_move(captured, m.piece, ends, &mut scratch, &mut extra);
        apply_more(pos, &extra, log);
        log.after_ops = extra;
        log.after_scratch = scratch;
    }

    /// Plays a move's own ops only (no `after-move`): enough to test what the move leaves attacked.
    #[inline(always)]
    fn make_ops(&self, pos: &mut Position, list: &MoveList, m: &Move, log: &mut UndoLog) {
        moves::push_frame(pos, log);
        self.ops_in_frame(pos, list, m, log, self.next_turn(pos.turn));
    }

    /// [`Rules::make_ops`] into the undo frame last opened, with the next turn index given.
    #[inline(always)]
    fn ops_in_frame(
        &self,
        pos: &mut Position,
        list: &MoveList,
        m: &Move,
        log: &mut UndoLog,
        next: u32,
    ) {
        if m.simple {
            moves::apply_simple_in_frame(pos, m, next, log);
            return;
        }
        let path = list.path(m);
        let (from, to) = if m.pass || path.len() < 2 {
            (NONE, NONE)
        } else {
            (path[path.len() - 2], path[path.len() - 1])
        };
        moves::apply_in_frame(pos, &list.ops(m), next, from, to, log);
    }

    /// Counts leaf move sequences of length `depth` (every leaf move is made).
    pub fn perft(&self, pos: &mut Position, depth: u32) -> u64 {
        self.perft_with(pos, depth, PerftOptions::default())
    }

    /// Perft with options: merge equal draughts captures, or count the last level in bulk.
    pub fn perft_with(&self, pos: &mut Position, depth: u32, opts: PerftOptions) -> u64 {
        let mut bufs: Vec<MoveList> = (0..=depth).map(|_| MoveList::new()).collect();
        let mut log = UndoLog::new();
        let mut ws = Workspace::default();
        self.perft_rec(&mut ws, pos, depth, &mut bufs, &mut log, opts)
    }

    fn perft_rec(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        depth: u32,
        bufs: &mut [MoveList],
        log: &mut UndoLog,
        opts: PerftOptions,
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (list, rest) = bufs.split_first_mut().expect("a buffer per depth");
        self.legal_moves_in(ws, pos, list);
        if opts.unique {
            unique_captures(list);
        }
        if opts.bulk && depth == 1 {
            return list.len() as u64;
        }
        // Every move of this position has the same mover and next turn.
        let turns = (self.entry(pos.turn).owner, self.next_turn(pos.turn));
        // A simple move is played and taken back without the log when `after-move` is
        // nothing or a clock (whose outcomes are the same for every move of the position).
        let mut clock = match (&self.clock, self.after_move_plain) {
            (Some(c), true) => Some(c.leaves(pos, turns.0)),
            _ => None,
        };
        let simple_ok = clock.is_some() || self.def.after_move.is_empty();
        if depth == 1 {
            // The leaves: each is made and taken back, all in one undo frame (the position
            // before each is the same).
            moves::push_frame(pos, log);
            for m in &list.moves {
                if m.simple && simple_ok {
                    let mut undo = moves::make_simple(pos, m, turns.1);
                    if let Some(c) = &mut clock {
                        c.run_simple(pos, m, &mut undo);
                    }
                    moves::unmake_simple(pos, &undo);
                    continue;
                }
                self.make_in_frame(pos, list, m, log, turns);
                moves::undo_in_frame(pos, log);
            }
            moves::pop_frame(log);
            return list.len() as u64;
        }
        let mut n = 0;
        for m in &list.moves {
            if m.simple && simple_ok {
                let mut undo = moves::make_simple(pos, m, turns.1);
                if let Some(c) = &mut clock {
                    c.run_simple(pos, m, &mut undo);
                }
                n += self.perft_rec(ws, pos, depth - 1, rest, log, opts);
                moves::unmake_simple(pos, &undo);
                continue;
            }
            self.make_from(pos, list, m, log, turns);
            n += self.perft_rec(ws, pos, depth - 1, rest, log, opts);
            moves::revert_inline(pos, log);
        }
        n
    }
}

/// Rules-program arithmetic (docs/semantics.md, "Counters and expressions"): `+`, `-` and `*`
/// saturate at the bounds of a 64-bit integer; `/` rounds toward minus infinity, division by
/// zero gives 0, and the one quotient that does not fit (`i64::MIN / -1`) saturates too.
/// Nothing here can panic, in debug or release builds.
pub fn arith(op: char, a: i64, b: i64) -> i64 {
    match op {
        '+' => a.saturating_add(b),
        '-' => a.saturating_sub(b),
        '*' => a.saturating_mul(b),
        _ => {
            if b == 0 {
                return 0;
            }
            let Some(q) = a.checked_div(b) else {
                return i64::MAX; // i64::MIN / -1
            };
            if a % b != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            }
        }
    }
}

/// Perft counting conventions.
#[derive(Clone, Copy, Debug, Default)]
pub struct PerftOptions {
    /// Count capture chains with the same start, end and set of captured pieces once.
    pub unique: bool,
    /// Count the moves of the last level without making them.
    pub bulk: bool,
}

/// Keeps one move per (start, end, set of captured squares): the D convention of draughts perft.
pub fn unique_captures(list: &mut MoveList) {
    let mut seen: Vec<(u16, u16, Vec<u16>)> = Vec::new();
    let keys: Vec<(u16, u16, Vec<u16>)> = list
        .moves
        .iter()
        .map(|m| {
            let p = list.path(m);
            let mut caps = list.captured(m).to_vec();
            caps.sort_unstable();
            (p[0], p[p.len() - 1], caps)
        })
        .collect();
    let mut k = keys.into_iter();
    list.retain(|_| {
        let key = k.next().expect("a key per move");
        if key.2.is_empty() || !seen.contains(&key) {
            seen.push(key);
            true
        } else {
            false
        }
    });
}

/// Whether two moves of a list are equal as [`dedup_moves`] compares them (a check of the
/// generator's proofs that a list is distinct, in debug builds).
fn has_equal_moves(out: &MoveList) -> bool {
    let m = &out.moves;
    (1..m.len()).any(|i| {
        (0..i).any(|j| {
            out.ops(&m[i]) == out.ops(&m[j])
                && out.path(&m[i]) == out.path(&m[j])
                && m[i].promote == m[j].promote
        })
    })
}

/// Keeps the first of moves that do exactly the same thing by the same path (two blocks of a
/// piece can describe one move, as a step and a slide of one square do).
fn dedup_moves(ws: &mut Workspace, out: &mut MoveList) {
    ws.fingerprints.clear();
    for m in &out.moves {
        // Cheap: path ends, sizes and promotion; equal fingerprints are compared in full.
        let path = out.path(m);
        let h = (path[0] as u64) << 48
            ^ (path[path.len() - 1] as u64) << 32
            ^ (out.n_ops(m) as u64) << 16
            ^ (path.len() as u64) << 8
            ^ m.promote as u64;
        ws.fingerprints.push(h);
    }
    let n = out.moves.len();
    ws.keep.clear();
    ws.keep.resize(n, true);
    let same = |i: usize, j: usize| {
        let (a, b) = (&out.moves[i], &out.moves[j]);
        out.ops(a) == out.ops(b) && out.path(a) == out.path(b) && a.promote == b.promote
    };
    let mut any = false;
    // Most lists have no two equal fingerprints: sorted, they show it at once.
    ws.sorted.clear();
    ws.sorted.extend_from_slice(&ws.fingerprints);
    ws.sorted.sort_unstable();
    if ws.sorted.windows(2).all(|w| w[0] != w[1]) {
        return;
    }
    if n <= 64 {
        // The usual case: a few dozen moves, compared pairwise by fingerprint.
        for i in 1..n {
            for j in 0..i {
                if ws.keep[j] && ws.fingerprints[i] == ws.fingerprints[j] && same(i, j) {
                    ws.keep[i] = false;
                    any = true;
                    break;
                }
            }
        }
    } else {
        // Long lists (long chains, big drop games): fingerprint the whole path and every op,
        // sort by it, and compare in full only within groups of equal fingerprints.
        for (k, m) in out.moves.iter().enumerate() {
            let mut h = ws.fingerprints[k];
            for &sq in out.path(m) {
                h = position::mix(h ^ u64::from(sq));
            }
            for op in out.ops(m).iter() {
                let x = match *op {
                    Op::Set(sq, c) => u64::from(sq) << 48 ^ position::cell_hash(sq, c),
                    Op::Store(i, d) => 1 << 62 ^ u64::from(i) << 32 ^ u64::from(d as u32),
                    Op::Counter(i, d) => 2 << 62 ^ u64::from(i) << 32 ^ u64::from(d as u32),
                };
                h = position::mix(h ^ x);
            }
            ws.fingerprints[k] = h;
        }
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by_key(|&i| (ws.fingerprints[i as usize], i));
        let mut lo = 0;
        while lo < n {
            let fp = ws.fingerprints[order[lo] as usize];
            let mut hi = lo + 1;
            while hi < n && ws.fingerprints[order[hi] as usize] == fp {
                hi += 1;
            }
            for a in lo + 1..hi {
                let i = order[a] as usize;
                if order[lo..a]
                    .iter()
                    .any(|&j| ws.keep[j as usize] && same(i, j as usize))
                {
                    ws.keep[i] = false;
                    any = true;
                }
            }
            lo = hi;
        }
    }
    if any {
        let mut k = ws.keep.iter();
        out.retain(|_| k.next().copied().unwrap_or(true));
    }
}

fn push_pass(out: &mut MoveList) {
    let lo = out.squares.len() as u32;
    out.squares.push(NONE);
    out.squares.push(NONE);
    let ops = out.ops.len() as u32;
    out.moves.push(Move {
        op_lo: ops,
        op_hi: ops,
        path_lo: lo,
        path_hi: lo + 2,
        cap_hi: lo + 2,
        move_type: u16::MAX,
        cont_type: u16::MAX,
        pass: true,
        ..Move::default()
    });
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

/// The last write to a square among some ops.
fn last_write(ops: &[Op], sq: u16) -> Option<Cell> {
    ops.iter().rev().find_map(|op| match op {
        Op::Set(q, c) if *q == sq => Some(*c),
        _ => None,
    })
}

/// Buffers reused by move generation.
#[derive(Default)]
pub struct Workspace {
    scratch: Scratch,
    bufs: Vec<MoveList>,
    log: UndoLog,
    keep: Vec<bool>,
    dead: Vec<bool>,
    fingerprints: Vec<u64>,
    sorted: Vec<u64>,
    /// The list being filtered holds no two equal moves (`Scratch::note_group`).
    distinct: bool,
    /// The list being filtered was generated from the blocks of one rank (one rank pass).
    one_rank: bool,
    /// The keys of `"maximal captures"`.
    keys: Vec<u64>,
    /// Only the moves that capture or promote are wanted ([`Rules::legal_captures_in`]).
    captures_only: bool,
    /// With `captures_only`: a legal move was left out.
    other_legal: bool,
    /// [`Rules::legal_captures_in`] keeps the drops that attack another side's royal piece
    /// ([`Workspace::set_checking_drops`]).
    checking_drops: bool,
    safety: legal::Safety,
    /// Repetition keys of the positions the chain being expanded has passed through, its
    /// start first.
    chain_keys: Vec<u64>,
}

impl Workspace {
    /// Whether [`Rules::legal_captures_in`] also keeps the drops that would attack a royal
    /// piece of another side (found from the attack tables: leaps and slides).
    pub fn set_checking_drops(&mut self, on: bool) {
        self.checking_drops = on;
    }

    fn take_buf(&mut self) -> MoveList {
        let mut b = self.bufs.pop().unwrap_or_default();
        b.clear();
        b
    }
}

/// Chain expansion state for one `legal_moves` call.
struct Gen<'r, 'w> {
    rules: &'r Rules,
    ws: &'w mut Workspace,
    side: PlayerId,
    /// Partial steps played so far (see [`CHAIN_WORK_LIMIT`]).
    work: usize,
    /// Every first step expanded so far ended its chain as it stands, and none has been
    /// written: if all do, the list of first steps is the output, and nothing is copied. The
    /// first step that writes anything else writes those before it first ([`Gen::unlazy`]).
    lazy: bool,
    /// Some list of steps generated so far may hold two equal moves (`Scratch::may_repeat`).
    may_repeat: bool,
    /// The gate rows' base (`GateRows::base`) of the continuations of the last move type
    /// [`Gen::ends_unplayed`] looked at.
    cont_base: Option<(u16, Option<usize>)>,
}

impl Gen<'_, '_> {
    /// Emits step `i` of `steps` (after the chain `prefix`) as whole turns into `out`.
    /// Returns whether the step was continued.
    fn expand(
        &mut self,
        pos: &mut Position,
        steps: &MoveList,
        i: usize,
        prefix: &mut MoveList,
        depth: usize,
        out: &mut MoveList,
    ) -> bool {
        let m = steps.moves[i];
        if !m.partial || depth >= MAX_CHAIN {
            if depth == 0 && self.lazy && self.plain(&m) {
                return false;
            }
            self.unlazy(steps, i, depth, out);
            let _ = self.emit(prefix, steps, i, out);
            return false;
        }
        if let Some(ended) = self.ends_unplayed(pos, steps, &m) {
            // Decided without playing the step: a loop (dropped), or no continuation.
            if ended {
                self.work += 1;
                if depth == 0 && self.lazy && !m.must_continue && self.plain(&m) {
                    return false;
                }
                self.unlazy(steps, i, depth, out);
                if !m.must_continue {
                    let _ = self.emit(prefix, steps, i, out);
                }
            } else {
                self.unlazy(steps, i, depth, out);
            }
            return false;
        }
        // Play the step and look for continuations by the same piece.
        let to = steps.path(&m)[steps.path(&m).len() - 1];
        apply(
            pos,
            &steps.ops(&m),
            pos.turn,
            steps.path(&m)[0],
            to,
            &mut self.ws.log,
        );
        // A step back to a position the chain has already been through is a loop: dropped.
        let key = pos.repetition_key();
        if self.ws.chain_keys.contains(&key) {
            revert(pos, &mut self.ws.log);
            self.unlazy(steps, i, depth, out);
            return false;
        }
        self.work += 1;
        let mut conts = self.ws.take_buf();
        let mt = (m.cont_type != u16::MAX).then_some(MoveTypeId(m.cont_type));
        let cell = pos.cells[to as usize];
        if !cell.is_empty() {
            if self.work <= CHAIN_WORK_LIMIT {
                self.rules
                    .gen_steps(pos, self.side, mt, to, &mut self.ws.scratch, &mut conts);
                self.may_repeat |= self.ws.scratch.may_repeat;
                if let Some(why) = conts.cut {
                    out.note_cut(why);
                }
            } else {
                out.note_cut(Cut::ChainWork);
            }
        }
        if depth == 0 && self.lazy && conts.is_empty() && !m.must_continue && self.plain(&m) {
            self.ws.bufs.push(conts);
            revert(pos, &mut self.ws.log);
            return false;
        }
        self.unlazy(steps, i, depth, out);
        // A `must-continue` landing never ends a chain.
        if !m.must_continue
            && (conts.is_empty() || self.rules.def.options.pass_partial)
            && self.emit(prefix, steps, i, out)
            && !conts.is_empty()
        {
            let n = out.moves.len() - 1;
            out.moves[n].stopped = true;
        }
        let continued = !conts.is_empty();
        if continued {
            // The chain's links are the moves of one list, one per step so far.
            let (n_ops, n_squares) = (prefix.ops.len(), prefix.squares.len());
            prefix.push_from(steps, i);
            self.ws.chain_keys.push(key);
            self.expand_all(pos, &conts, prefix, depth + 1, out);
            self.ws.chain_keys.pop();
            prefix.moves.pop();
            prefix.ops.truncate(n_ops);
            prefix.squares.truncate(n_squares);
        }
        self.ws.bufs.push(conts);
        revert(pos, &mut self.ws.log);
        continued
    }

    /// What [`Gen::expand`] would find for partial step `m` without playing it, when the
    /// board after it (the position with its cell writes laid over) decides it: `Some(false)`
    /// when it returns to a position the chain has been through (a loop, dropped), `Some(true)`
    /// when no continuation can follow (the moved piece's gate rows of the continuation's type,
    /// `GateRows::may_move`, pass nowhere). `None`: play it (a gate passes or cannot be
    /// decided by its masks, a store or counter op, many writes, the work limit, no rows).
    fn ends_unplayed(&mut self, pos: &Position, steps: &MoveList, m: &Move) -> Option<bool> {
        const MAX_WRITES: usize = 4;
        let rules = self.rules;
        if !rules.special.enabled || self.work >= CHAIN_WORK_LIMIT {
            return None;
        }
        let base = match self.cont_base {
            Some((t, base)) if t == m.cont_type => base,
            _ => {
                let mt = (m.cont_type != u16::MAX).then_some(MoveTypeId(m.cont_type));
                let base = (rules.gate_rows).base(rules.type_selector(mt), self.side.idx());
                self.cont_base = Some((m.cont_type, base));
                base
            }
        }?;
        let ops = steps.ops(m);
        if ops.len() > MAX_WRITES {
            return None;
        }
        // The writes as they leave each square, and what they change in the hash.
        let mut after = [(NONE, Cell::EMPTY); MAX_WRITES];
        let mut n = 0;
        let mut delta = 0;
        for op in ops.iter() {
            let Op::Set(sq, c) = *op else {
                return None;
            };
            let old = match after[..n].iter_mut().find(|w| w.0 == sq) {
                Some(w) => std::mem::replace(&mut w.1, c),
                None => {
                    after[n] = (sq, c);
                    n += 1;
                    *pos.cells.get(sq as usize)?
                }
            };
            delta ^= position::change_hash(sq, old, c);
        }
        let written = &after[..n];
        let at = |sq: u16| match written.iter().find(|w| w.0 == sq) {
            Some(w) => w.1,
            None => pos.cells.get(sq as usize).copied().unwrap_or(Cell::EMPTY),
        };
        // The position's repetition key (`Position::repetition_key`) changes by the cells
        // written only: the turn stays, the last move is not part of it.
        let here = *self.ws.chain_keys.last()?;
        if self.ws.chain_keys.contains(&(here ^ delta)) {
            return Some(false);
        }
        let path = steps.path(m);
        let to = *path.last()?;
        let moved = at(to);
        let may = rules.gate_rows.may_move(base, to, moved, self.side.0, at);
        (!may).then_some(true)
    }

    /// Expands every step of a list. With `"complete captures"`, a step that ends the chain is
    /// dropped when another step of the same jump (same start, same captured pieces) goes on.
    fn expand_all(
        &mut self,
        pos: &mut Position,
        steps: &MoveList,
        prefix: &mut MoveList,
        depth: usize,
        out: &mut MoveList,
    ) {
        let complete = self.rules.def.options.complete_captures;
        let mut ends: Vec<(usize, usize, usize)> = Vec::new();
        let mut going_on: Vec<usize> = Vec::new();
        for i in 0..steps.len() {
            let before = out.len();
            let continued = self.expand(pos, steps, i, prefix, depth, out);
            if complete {
                self.ws.dead.resize(out.len(), false);
                if continued {
                    going_on.push(i);
                } else {
                    ends.push((i, before, out.len()));
                }
            }
        }
        if !complete || going_on.is_empty() {
            return;
        }
        let same_jump = |a: usize, b: usize| {
            let (ma, mb) = (&steps.moves[a], &steps.moves[b]);
            steps.path(ma)[0] == steps.path(mb)[0]
                && !steps.captured(ma).is_empty()
                && steps.captured(ma) == steps.captured(mb)
        };
        for (i, lo, hi) in ends {
            if going_on.iter().any(|&j| same_jump(i, j)) {
                for d in &mut self.ws.dead[lo..hi] {
                    *d = true;
                }
            }
        }
    }

    /// Whether a first step that ends its chain is written as it stands (see [`Gen::emit`]):
    /// no `finally` promotion, and no deferred capture to remove.
    #[inline]
    fn plain(&self, m: &Move) -> bool {
        m.finally == 0 && (!self.rules.deferred || m.cap_hi == m.path_hi)
    }

    /// Ends [`Gen::lazy`] before first step `i` writes anything: the first steps before it,
    /// which ended plain, are written as `emit` writes them.
    fn unlazy(&mut self, steps: &MoveList, i: usize, depth: usize, out: &mut MoveList) {
        if depth != 0 || !self.lazy {
            return;
        }
        self.lazy = false;
        for j in 0..i {
            if out.moves.len() >= GEN_MOVE_LIMIT {
                out.note_cut(Cut::TotalMoves);
                return;
            }
            out.push_from(steps, j);
        }
    }

    /// Writes the chain `prefix` + step `i` as one move, then finishes it: a `finally`
    /// promotion of the last step, and removal of pieces whose capture was deferred.
    /// Returns false when the move was left out because `out` is full ([`GEN_MOVE_LIMIT`]).
    fn emit(&mut self, prefix: &MoveList, steps: &MoveList, i: usize, out: &mut MoveList) -> bool {
        if out.moves.len() >= GEN_MOVE_LIMIT {
            out.note_cut(Cut::TotalMoves);
            return false;
        }
        self.join(prefix, steps, i, out);
        let last = steps.moves[i];
        let n = out.moves.len() - 1;
        let m = out.moves[n];
        let before = out.ops.len();
        if last.finally != 0 {
            let path = out.path(&m);
            let dest = path[path.len() - 1];
            let cell = last_write(&out.ops[m.op_lo as usize..], dest);
            if let Some(c) = cell.filter(|c| !c.is_empty()) {
                out.ops.push(Op::Set(
                    dest,
                    Cell {
                        piece: last.finally,
                        ..c
                    },
                ));
                out.moves[n].promote = last.finally;
            }
        }
        if self.rules.deferred {
            for k in m.path_hi..m.cap_hi {
                let sq = out.squares[k as usize];
                if last_write(&out.ops[m.op_lo as usize..], sq).is_some_and(|c| c.marks & DEAD != 0)
                {
                    out.ops.push(Op::Set(sq, Cell::EMPTY));
                }
            }
        }
        if out.ops.len() != before {
            // The move was written last, so its ops stay contiguous.
            out.moves[n].op_hi = out.ops.len() as u32;
        }
        true
    }

    /// Concatenates the chain `prefix` (one move per link) + step `i` into one move.
    fn join(&mut self, prefix: &MoveList, steps: &MoveList, i: usize, out: &mut MoveList) {
        if prefix.is_empty() {
            out.push_from(steps, i);
            return;
        }
        let last = steps.moves[i];
        let first = prefix.moves[0];
        let op_lo = out.ops.len() as u32;
        // The links were written one after another: their ops are one slice.
        let links_ops = first.op_lo as usize..prefix.moves[prefix.len() - 1].op_hi as usize;
        out.ops.extend_from_slice(&prefix.ops[links_ops]);
        out.ops.extend_from_slice(&steps.ops(&last));
        let path_lo = out.squares.len() as u32;
        out.squares.push(prefix.path(&first)[0]);
        for link in &prefix.moves {
            let p = prefix.path(link);
            out.squares.push(p[p.len() - 1]);
        }
        let lp = steps.path(&last);
        out.squares.push(lp[lp.len() - 1]);
        let path_hi = out.squares.len() as u32;
        let mut promote = 0;
        let mut promote_choice = false;
        for lm in &prefix.moves {
            out.squares.extend_from_slice(prefix.captured(lm));
            if lm.promote != 0 {
                promote = lm.promote;
                promote_choice = lm.promote_choice;
            }
        }
        out.squares.extend_from_slice(steps.captured(&last));
        if last.promote != 0 {
            promote = last.promote;
            promote_choice = last.promote_choice;
        }
        out.moves.push(Move {
            op_lo,
            op_hi: out.ops.len() as u32,
            path_lo,
            path_hi,
            cap_hi: out.squares.len() as u32,
            drop: first.drop,
            piece: first.piece,
            promote,
            promote_choice,
            move_type: first.move_type,
            cont_type: last.cont_type,
            finally: 0,
            must_continue: false,
            partial: false,
            pass: false,
            stopped: false,
            huff: 0,
            ..Move::default()
        });
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
