//! The `count` fast path's plan (`FastPath::Count`): which gates of the rows the last level
//! of bulk perft may count over square sets instead of writing their moves
//! (`Rules::count_legal`).
//!
//! A gate of a row (a player's piece type on one square, all blocks) is counted, and marked
//! `RowFlags::COUNTED`, when it is a plain leap (`RowFlags::SIMPLE`: one simple move onto the
//! gate's square when its test, empty or enemy, holds there), a plain two-square step
//! (`RowFlags::SIMPLE2`, the first of a row: one simple move onto the second gate's square
//! when the first is empty, or passes any cell, and the second's test, empty or enemy, holds:
//! a pawn's double step) or a plain slide (`RowFlags::RAY`) onto squares that no gate counted
//! before in the row reaches (so the number of moves is the number of squares), and no move
//! of it promotes or is partial. Its moves are then the squares of one word: the leap's
//! square when it is empty or holds an enemy piece as the test asks, the two-square step's
//! landing square likewise when its first square lets it pass, and the ray's squares up to
//! its nearest piece (with that piece when the ray's capture takes it). A row whose gates are
//! all counted is counted whole (generation leaves its square out); the other gates of a row
//! (en passant, promotions, castling) are generated, from a copy of the row that holds only
//! them (`CountRows::rest`), so generation tests no counted gate; where the first test of
//! each of them is of an empty square or an enemy piece and none holds (a pawn with no enemy
//! piece beside it for en passant), the square is not generated at all. Games whose filters compare
//! moves with each other (move priorities, maximal captures, capture precedence, huffing,
//! complete or deferred captures), or whose turns may be chains of partial moves, count
//! nothing here.

use super::gate_test::Classes;
use super::gates::{GateRows, RowFlags, SqGate};
use super::rays::Rays;
use crate::def::{GameDef, Instr};
use crate::engine::moves::Move;

/// The most steps the slide of a counted row may count against the step limit (a row past
/// it is generated, where the limit is checked); at most `STEP_LIMIT`, as `turn/count.rs`
/// asserts.
pub(in crate::engine) const MAX_RAY_STEPS: u64 = 1 << 16;

/// One counted row.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine) struct CountRow {
    /// The squares of its leaps that it moves to when they are empty.
    pub empty: u64,
    /// The squares of its leaps that it moves to when an enemy piece stands there.
    pub enemy: u64,
    /// Its two-square step: the first square, which must be empty (0 when any cell passes),
    /// and the landing square as the move's when it is empty, and when an enemy piece stands
    /// there (0 for none).
    pub via: u64,
    pub far_empty: u64,
    pub far_enemy: u64,
    /// Its slides: `CountRows::rays[rays.0..rays.1]`.
    pub rays: (u32, u32),
    /// The most work (`Scratch::work`) its generation would count.
    pub work: u64,
    /// The most moves it can have: the squares its gates reach.
    pub most: u32,
    /// Every gate of the row is counted: generation leaves the square out.
    pub whole: bool,
    /// Where the row is counted in part, what its other gates' first tests ask: an empty
    /// square of `rest_empty`, an enemy piece on a square of `rest_enemy`, or something the
    /// square sets do not answer (`rest_open` is 1). When none can hold, generation would
    /// write nothing there, and the square is left out as for a row counted whole.
    pub rest_empty: u64,
    pub rest_enemy: u64,
    pub rest_open: u64,
}

impl CountRow {
    /// The squares its counted gates reach, with its slides `rays`.
    fn reach(&self, rays: &[CountRay]) -> u64 {
        let slid = rays.iter().fold(0, |m, r| m | r.mask);
        self.empty | self.enemy | self.far_empty | self.far_enemy | slid
    }

    /// Notes the first tests of the row's gates that are not counted (`rest_empty`...).
    fn rest_tests(&mut self, rest: &[SqGate]) {
        for g in rest {
            let bit = 1u64.checked_shl(u32::from(g.q)).unwrap_or(0);
            let undecided = g.flags.intersects(RowFlags::RUN | RowFlags::TEST) || bit == 0;
            match g.mask {
                Classes::EMPTY if !undecided => self.rest_empty |= bit,
                Classes::ENEMY if !undecided => self.rest_enemy |= bit,
                _ => self.rest_open = 1,
            }
        }
    }
}

/// Where the counted moves of a row stand among its moves (`Rules::legal_move_at`).
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine) struct RowOrder {
    /// The squares of its counted gates, in the order generation writes their moves onto
    /// them: `CountRows::order[squares.0..squares.1]`.
    pub squares: (u32, u32),
    /// No counted gate follows one that is not: the row's counted moves come before the
    /// others it writes.
    pub counted_first: bool,
}

/// One counted slide.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct CountRay {
    /// The ray's squares (`Ray::mask`).
    pub mask: u64,
    /// Its squares' indexes ascend from the start square.
    pub up: bool,
    /// It moves onto its nearest piece when that is an enemy's.
    pub capture: bool,
}

/// The counted rows of a game (none without [`FastPath::Count`](super::FastPath::Count)).
#[derive(Clone, Debug, Default)]
pub(in crate::engine) struct CountRows {
    /// Per (player, piece type, square), the rows of the selector of all blocks: `None` where
    /// the row is generated.
    pub rows: Vec<Option<CountRow>>,
    pub rays: Vec<CountRay>,
    /// Per (player, piece type, square), as `rows`: where the gates of a row counted in part
    /// that are not counted lie in `rest`, in the row's order (empty for other rows).
    pub rest_span: Vec<(u32, u32)>,
    pub rest: Vec<SqGate>,
    /// Per (player, piece type, square), as `rows`: where the counted moves of the row stand.
    pub orders: Vec<RowOrder>,
    /// The squares of the counted gates of every row (`RowOrder::squares`), each with its gate
    /// (an index in `GateRows::gates`).
    pub order: Vec<(u16, u32)>,
    /// For every (piece type, square), the span of a row of one gate: `(0, 1)`
    /// (`Generator::gen_gate` runs one gate as the rows' loop runs the rest's).
    pub one: Vec<(u32, u32)>,
    /// The counted rows that hold a gate.
    counted: usize,
    n_pieces: usize,
    n_pos: usize,
}

impl CountRows {
    /// The plan of `rows` (those of selector `sel`, all blocks) and their `rays`.
    pub(in crate::engine) fn build(
        def: &GameDef,
        (rows, rays): (&mut GateRows, &Rays),
        sel: usize,
    ) -> CountRows {
        let mut plan = CountRows::default();
        let n_pos = def.board.n_pos();
        let n_pieces = def.pieces.len();
        let o = &def.options;
        let compares = !def.move_priorities.is_empty()
            || o.maximal_captures > 0
            || !def.capture_precedence.is_empty()
            || o.huffing
            || o.complete_captures
            || o.deferred_captures;
        let blocks = || (def.pieces.iter()).flat_map(|p| p.moves.iter().chain(&p.drops));
        let partial = blocks().any(|b| adds_partial(&b.body));
        if n_pos == 0 || n_pos > 64 || def.players.len() > 2 || compares || partial {
            return plan;
        }
        plan.n_pieces = n_pieces;
        plan.n_pos = n_pos;
        plan.one = vec![(0, 1); n_pieces * n_pos];
        for pl in 0..def.players.len() {
            let base = rows.base(sel, pl);
            for pi in 0..n_pieces {
                for sq in 0..n_pos {
                    let span = base.and_then(|b| rows.spans(b).get(pi * n_pos + sq).copied());
                    let planned = span.and_then(|(a, b)| plan.row_of(rows, rays, a, b));
                    let (mut row, order) = (planned.map(|p| p.0), planned.map(|p| p.1));
                    plan.orders.push(order.unwrap_or_default());
                    plan.counted += usize::from(row.is_some() && span.is_some_and(|s| s.0 < s.1));
                    // The gates generation runs where the row is counted in part.
                    let first = plan.rest.len() as u32;
                    let gates = span.filter(|_| row.is_some_and(|r| !r.whole));
                    let gates = gates.and_then(|(a, b)| rows.gates.get(a as usize..b as usize));
                    let left = gates.unwrap_or(&[]).iter();
                    plan.rest
                        .extend(left.filter(|g| !g.flags.contains(RowFlags::COUNTED)));
                    plan.rest_span.push((first, plan.rest.len() as u32));
                    if let Some(row) = row.as_mut() {
                        row.rest_tests(&plan.rest[first as usize..]);
                    }
                    plan.rows.push(row);
                }
            }
        }
        if plan.counted == 0 {
            // Nothing to count: the old path, at no cost.
            return CountRows::default();
        }
        plan
    }

    /// The plan of the row `rows.gates[a..b]`: its gates that can be counted (a plain leap or
    /// slide whose moves neither promote nor continue, onto squares no gate counted before
    /// reaches), marked `RowFlags::COUNTED`; `None` when there is none.
    fn row_of(
        &mut self,
        rows: &mut GateRows,
        rays: &Rays,
        a: u32,
        b: u32,
    ) -> Option<(CountRow, RowOrder)> {
        let plain = |m: &Move| m.promote == 0 && !m.partial && m.simple;
        let first = self.rays.len();
        let mut row = CountRow {
            whole: true,
            ..CountRow::default()
        };
        let mut counted_first = true;
        let mut any = false;
        // A two-square step is counted already.
        let mut far = false;
        let order = self.order.len();
        let gates = rows.gates.get_mut(a as usize..b as usize)?;
        for (gi, g) in (a..).zip(gates) {
            let Some(e) = rows.entries.get(g.entry as usize) else {
                row.whole = false;
                continue;
            };
            // Whether a gate before this one is left to generation.
            let after_rest = !row.whole;
            let reached = row.reach(&self.rays[first..]);
            let other = RowFlags::RUN | RowFlags::TEST | RowFlags::JUMP;
            let mut counted = !g.flags.intersects(other);
            if g.flags.contains(RowFlags::RAY) {
                let r = rays.rays.get(g.simple as usize);
                let quiet = r.and_then(|r| rays.heads.get(r.quiet as usize));
                let capture = r.and_then(|r| rays.heads.get(r.capture as usize));
                match (r, quiet) {
                    (Some(r), Some(quiet)) if counted => {
                        let mask = r.capture_mask.bits();
                        let steps = u64::from(r.len) * u64::from(r.round);
                        counted = plain(quiet)
                            && capture.is_none_or(plain)
                            && mask & FRIEND_BITS == 0
                            && steps <= MAX_RAY_STEPS
                            && r.mask & reached == 0;
                        if counted {
                            row.work += steps + u64::from(e.weight);
                            let at = r.at as usize..(r.at + r.len) as usize;
                            let squares = rays.squares.get(at).unwrap_or(&[]);
                            self.order.extend(squares.iter().map(|&q| (q, gi)));
                            self.rays.push(CountRay {
                                mask: r.mask,
                                // The squares run one way from the start (checked at
                                // load): up when the nearest is the lowest.
                                up: rays
                                    .squares
                                    .get(r.at as usize)
                                    .is_some_and(|&q| u32::from(q) == r.mask.trailing_zeros()),
                                capture: capture.is_some() && mask & ENEMY_BITS != 0,
                            });
                        }
                    }
                    _ => counted = false,
                }
            } else if g.flags.contains(RowFlags::SIMPLE2) {
                let (mask, mask2) = (g.mask, g.mask2.bits());
                let bit = 1u64.wrapping_shl(u32::from(g.q2));
                counted &= (rows.simples.get(g.simple as usize)).is_some_and(plain)
                    && (mask == Classes::EMPTY || mask == Classes::ANY)
                    && mask2 & FRIEND_BITS == 0
                    && !far
                    && g.q < 64
                    && g.q2 < 64
                    && bit & reached == 0;
                if counted {
                    far = true;
                    if mask == Classes::EMPTY {
                        row.via = 1 << g.q;
                    }
                    if mask2 & EMPTY_BIT != 0 {
                        row.far_empty = bit;
                    }
                    if mask2 & ENEMY_BITS != 0 {
                        row.far_enemy = bit;
                    }
                    row.work += u64::from(e.weight);
                    self.order.push((g.q2, gi));
                }
            } else if g.flags.contains(RowFlags::SIMPLE) {
                let mask = g.mask.bits();
                let bit = 1u64.wrapping_shl(u32::from(g.q));
                counted &= (rows.simples.get(g.simple as usize)).is_some_and(plain)
                    && mask & FRIEND_BITS == 0
                    && g.q < 64
                    && bit & reached == 0;
                if counted {
                    if mask & EMPTY_BIT != 0 {
                        row.empty |= bit;
                    }
                    if mask & ENEMY_BITS != 0 {
                        row.enemy |= bit;
                    }
                    row.work += u64::from(e.weight);
                    self.order.push((g.q, gi));
                }
            } else {
                counted = false;
            }
            g.flags.set(RowFlags::COUNTED, counted);
            counted_first &= !(counted && after_rest);
            row.whole &= counted;
            any |= counted;
        }
        row.rays = (first as u32, self.rays.len() as u32);
        let squares = (order as u32, self.order.len() as u32);
        row.most = row.reach(&self.rays[first..]).count_ones();
        (any || a == b).then_some((
            row,
            RowOrder {
                squares,
                counted_first,
            },
        ))
    }

    /// The spans in [`CountRows::rest`] of the rows of player `pl` (by piece type and square,
    /// as `GateRows::spans`).
    #[inline(always)]
    pub(in crate::engine) fn rest_spans(&self, pl: usize) -> &[(u32, u32)] {
        let n = self.n_pieces * self.n_pos;
        self.rest_span.get(pl * n..(pl + 1) * n).unwrap_or(&[])
    }

    /// The plan of the row of player `pl`'s piece type `pi` on `sq`.
    #[inline(always)]
    pub(in crate::engine) fn row(&self, pl: usize, pi: usize, sq: usize) -> Option<&CountRow> {
        let i = (pl * self.n_pieces + pi) * self.n_pos + sq;
        self.rows.get(i)?.as_ref()
    }

    /// Where the counted moves of that row stand among its moves.
    #[inline]
    pub(in crate::engine) fn order(&self, pl: usize, pi: usize, sq: usize) -> Option<&RowOrder> {
        let i = (pl * self.n_pieces + pi) * self.n_pos + sq;
        self.orders.get(i)
    }

    /// The counted rows that hold a gate (`Rules::path_counts`).
    pub(in crate::engine) fn counted(&self) -> usize {
        self.counted
    }
}

/// Whether a program holds an `add` of a partial move (or one that must continue).
fn adds_partial(body: &[Instr]) -> bool {
    body.iter().any(|i| match i {
        Instr::Add(a) => a.partial || a.must_continue || a.finally.is_some(),
        Instr::If(_, yes, no) => adds_partial(yes) || adds_partial(no),
        Instr::While(_, body) => adds_partial(body),
        _ => false,
    })
}

/// The bits of [`Classes`] for an empty square (all empty classes agree, so bit 0), an
/// enemy piece and one of the mover's own pieces.
const EMPTY_BIT: u8 = 1;
const ENEMY_BITS: u8 = Classes::ENEMY.bits();
const FRIEND_BITS: u8 = Classes::FRIEND.bits();
