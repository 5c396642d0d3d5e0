//! Move generation: running the blocks of the side to move (gate rows, drops, the plain
//! walk) into single steps, before chains, priorities and legality.

use super::{Exec, Generator, BLOCK_MOVE_LIMIT};
use crate::def::*;
use crate::engine::moves::{Cut, MoveList};
use crate::engine::position::{Cell, Position, DEAD};
use crate::engine::rules::{Tables, GEN_MOVE_LIMIT, GEN_WORK_LIMIT, QUIET_KEPT};
use crate::engine::scratch::{Drops, Mode};
use crate::engine::scratch::{Scratch, WorkStop};
use crate::engine::{gates, rays, special};

impl Generator {
    /// Runs every block of `side`'s pieces (and drops) into `out`: single steps, no filtering.
    ///
    /// `only` restricts to the piece on one square; `move_type` to blocks of that type.
    /// At most [`GEN_WORK_LIMIT`] work is done (`Cut::GenWork`).
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
        if scratch.work_stop.0 != u64::MAX {
            // Within a budgeted call (`Rules::legal_moves_in`, chains): its budget holds.
            self.gen_steps_where::<false>(pos, side, sel, only, scratch, out);
            return;
        }
        scratch.open_budget(GEN_WORK_LIMIT);
        self.gen_steps_where::<false>(pos, side, sel, only, scratch, out);
        scratch.work_stop = WorkStop::default();
    }

    /// The selector of `Rules::gen_lists` for the blocks of a move type (all blocks: `None`).
    pub(in crate::engine) fn type_selector(&self, move_type: Option<MoveTypeId>) -> usize {
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

    /// [`Rules::gen_steps`] of the blocks that selector `sel` of `Rules::gen_lists` takes;
    /// with `COUNTING`, less what `FastPath::Count` counts (`Generator::gen_rows_counting`).
    #[inline]
    pub(in crate::engine) fn gen_steps_where<const COUNTING: bool>(
        &self,
        pos: &Position,
        side: PlayerId,
        sel: usize,
        only: u16,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        let mut ex = Exec::new(self, pos, side, Mode::Generate);
        scratch.may_repeat = false;
        // No rows without `EngineConfig::gate_rows` (`Rules::configure`).
        let rows = self.gate_rows.base(sel, side.idx());
        if scratch.mode.few_quiet() && only == NONE && self.skip_quiet {
            ex.quiet_left = QUIET_KEPT;
        }
        let go = match rows {
            Some(base) => self.gen_rows::<COUNTING>(&mut ex, base, only, scratch, out),
            None => self.gen_lists_of(&mut ex, sel, only, scratch, out),
        };
        if ex.quiet_skipped > 0 {
            scratch.quiet_skipped += ex.quiet_skipped;
            scratch.quiet_overflow |= out.moves.len() + ex.quiet_skipped >= BLOCK_MOVE_LIMIT;
        }
        if !go {
            return;
        }
        if only != NONE {
            return;
        }
        if self.has_drops {
            let drops = scratch.mode.drops();
            if drops != Drops::All && self.quiet_drops {
                // A search for captures: the drops are noted as left out when the side has
                // something to drop.
                let n_pieces = self.def.pieces.len();
                scratch.drops_skipped |= (self.def.pieces.iter().enumerate())
                    .any(|(t, p)| !p.drops.is_empty() && pos.store[side.idx() * n_pieces + t] > 0);
                if drops == Drops::Checking {
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
                // A prefix that tests only the square is answered from its masks, and a block
                // that then only adds writes its drop directly (`Exec::run` does the same).
                let tree = self.special.tree(block, self.config.tree);
                let masks = self.config.drop_masks && ex.target == NONE && !ex.hit;
                let prefix = (self.special.drop_prefix(block)).filter(|_| masks);
                let add = prefix.and_then(|_| self.special.seq_of(block.id).lone_add());
                let kind = PieceId(pi as u16);
                for sq in 0..n_pos {
                    if only.is_some_and(|o| !o[pi * n_pos + sq]) {
                        continue;
                    }
                    if out.moves.len() >= GEN_MOVE_LIMIT {
                        out.note_cut(Cut::TotalMoves);
                        scratch.may_repeat = true;
                        return;
                    }
                    let Some(prefix) = prefix else {
                        ex.run(block, sq as u16, Some(kind), scratch, out);
                        continue;
                    };
                    let c = pos.cells[sq];
                    if !prefix.passes(side.idx(), n_pos, sq, c) {
                        continue;
                    }
                    let q = sq as u16;
                    ex.cp = q;
                    match add {
                        Some(a) if c.is_empty() => ex.emit_drop(block, (a, q, kind), scratch, out),
                        _ => ex.run_set_up(block, tree, q, Some(kind), scratch, out),
                    }
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
        let special = self.config.tree;
        // Straight blocks skip the run's set-up (recycled captures are written with their
        // store ops by `Exec::add_straight`, but not deferred ones).
        let o = &self.def.options;
        let straight_ok = self.config.straight && !(o.recycle_captures && o.deferred_captures);
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
                    special::GateTable::Step if special => next.get(e.off as usize + sq),
                    special::GateTable::Leap if special => leaps.get(e.off as usize + sq),
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
                if !ex.gate_passes(e, c, side.0) {
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
    fn gen_rows<const COUNTING: bool>(
        &self,
        ex: &mut Exec,
        base: usize,
        only: u16,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) -> bool {
        let cells = &ex.pos.cells[..];
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
        let sets = self.config.piece_sets;
        match ex.pos.owned.of(ex.side.0).filter(|_| sets && only == NONE) {
            // `FastPath::PieceSets`: the mover's pieces from its square set, in order.
            Some(_) if COUNTING => self.gen_rows_counting(ex, base, hi, scratch, out),
            Some(mut own) => {
                let squares = std::iter::from_fn(move || {
                    let sq = own.trailing_zeros() as usize;
                    own &= own.wrapping_sub(1);
                    cells.get(sq).map(|c| (sq, c))
                });
                self.gen_rows_of::<false>(ex, (base, hi), (0, &[], &[]), squares, scratch, out)
            }
            None => {
                let squares = cells.get(lo..hi).unwrap_or(&[]).iter().enumerate();
                let squares = squares.map(|(i, c)| (lo + i, c));
                self.gen_rows_of::<false>(ex, (base, hi), (0, &[], &[]), squares, scratch, out)
            }
        }
    }

    /// [`Rules::gen_rows`] over the mover's square set when `FastPath::Count` counts some of
    /// its moves: the pieces of `Scratch::count_skip` are left out, and on the squares of
    /// `Scratch::count_part` the gates marked `RowFlags::COUNTED` (the rows' other gates are
    /// read from `CountRows::rest`); both are cleared.
    #[inline(never)]
    fn gen_rows_counting(
        &self,
        ex: &mut Exec,
        base: usize,
        hi: usize,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) -> bool {
        let cells = &ex.pos.cells[..];
        let skip = std::mem::take(&mut scratch.count_skip);
        let part = std::mem::take(&mut scratch.count_part);
        // The plan counts the rows of the selector of all blocks.
        let side = ex.side.idx();
        debug_assert_eq!(
            Some(base),
            self.gate_rows.base(self.rank_passes.len(), side)
        );
        let rest = (part, self.count.rest_spans(side), &self.count.rest[..]);
        let mut own = ex.pos.owned.of(ex.side.0).unwrap_or(0) & !skip;
        let squares = std::iter::from_fn(move || {
            let sq = own.trailing_zeros() as usize;
            own &= own.wrapping_sub(1);
            cells.get(sq).map(|c| (sq, c))
        });
        self.gen_rows_of::<true>(ex, (base, hi), rest, squares, scratch, out)
    }

    /// The moves of the one gate `gate` (an index in `GateRows::gates`) of the row of the
    /// mover's piece on `sq`, as the rows' loop writes them (`Rules::legal_move_at`): the
    /// rows' loop over that square, its row read as that gate alone (`CountRows::one`).
    pub(in crate::engine) fn gen_gate(
        &self,
        pos: &Position,
        (side, sel): (PlayerId, usize),
        (sq, gate): (u16, u32),
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        let mut ex = Exec::new(self, pos, side, Mode::Generate);
        let (Some(base), Some(cell)) = (
            self.gate_rows.base(sel, side.idx()),
            pos.cells.get(sq as usize),
        ) else {
            return;
        };
        let Some(row) = (self.gate_rows.gates).get(gate as usize..gate as usize + 1) else {
            return;
        };
        let hi = pos.cells.len();
        let one = (
            1u64.checked_shl(u32::from(sq)).unwrap_or(0),
            &self.count.one[..],
            row,
        );
        let square = std::iter::once((sq as usize, cell));
        self.gen_rows_of::<true>(&mut ex, (base, hi), one, square, scratch, out);
    }

    /// [`Rules::gen_rows`] over the squares and cells `squares` (in order, below `hi`; those
    /// of the mover's live pieces are taken); with `PART`, on the squares of `part` the rows
    /// are those of `rest` (`rest[spans[i].0..spans[i].1]` for the row `i` of
    /// `GateRows::spans`: the gates that `FastPath::Count` does not count).
    #[inline(always)]
    fn gen_rows_of<'c, const PART: bool>(
        &self,
        ex: &mut Exec,
        (base, hi): (usize, usize),
        (part, rest_spans, rest): (u64, &[(u32, u32)], &[gates::SqGate]),
        squares: impl Iterator<Item = (usize, &'c Cell)>,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) -> bool {
        use crate::engine::gate_test::{passes, passes_flat, Classes};
        use gates::RowFlags;
        // Counting leaves the rows' gates whose squares are mostly empty (leaps, slides) to
        // the count: those left are as often empty as not.
        let passes = if PART { passes_flat } else { passes };
        let pos = ex.pos;
        let cells = &pos.cells[..];
        let side = ex.side.0;
        let n_pos = cells.len();
        debug_assert!(pos.owned_agrees(), "square sets out of date");
        let rows = &self.gate_rows;
        let spans = rows.spans(base);
        let mut occ = rays::Occupied::new(self.config.piece_sets);
        for (sq, cell) in squares {
            if cell.is_empty() || cell.owner != side || cell.marks & DEAD != 0 {
                continue;
            }
            let pi = cell.piece as usize - 1;
            let Some(&(a, b)) = spans.get(pi * n_pos + sq) else {
                continue;
            };
            let (gates, (a, b)) = if PART && part >> sq & 1 != 0 {
                let span = rest_spans.get(pi * n_pos + sq).copied();
                (rest, span.unwrap_or_default())
            } else {
                (&rows.gates[..], (a, b))
            };
            if a == b {
                continue;
            }
            let Some(row) = gates.get(a as usize..b as usize) else {
                continue;
            };
            // The moves written from this square begin at `first`, read once a gate is
            // open (most rows have none), unless the row is marked distinct.
            let mut first = usize::MAX;
            for g in row {
                let c = cells.get(g.q as usize).copied().unwrap_or(Cell::EMPTY);
                if !passes(g.mask, c, side) {
                    continue;
                }
                if g.mask2 != Classes::ANY {
                    let c2 = cells.get(g.q2 as usize).copied().unwrap_or(Cell::EMPTY);
                    if !passes(g.mask2, c2, side) {
                        continue;
                    }
                }
                // A row shown distinct at load needs no note (`GateRows::mark_distinct`).
                if first == usize::MAX && !g.flags.contains(RowFlags::DISTINCT) {
                    first = out.moves.len();
                }
                let Some(e) = rows.entries.get(g.entry as usize) else {
                    continue;
                };
                let plain =
                    RowFlags::SIMPLE | RowFlags::DISTINCT | RowFlags::COUNTED | RowFlags::LAST;
                let flags = g.flags.difference(plain);
                if g.flags.contains(RowFlags::RAY) {
                    self.run_ray(ex, (g, e, sq as u16), &mut occ, scratch, out);
                } else if g.flags.contains(RowFlags::SIMPLE)
                    && rows.simples.get(g.simple as usize).is_some_and(|head| {
                        ex.push_simple_call(head, e.move_type, sq as u16, g.q, out)
                    })
                {
                    // The block's one move, written from the row (its run would count
                    // no step).
                    scratch.work = scratch.work.saturating_add(e.weight as u64);
                } else if flags == RowFlags::STRAIGHT {
                    ex.cp = g.q;
                    ex.run_straight(e, self.special.seq_of(e.id), sq as u16, scratch, out);
                } else if flags.contains(RowFlags::JUMP) {
                    self.run_jump_row(ex, g, e, sq, scratch, out);
                } else if flags.is_empty() {
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
        if !g.flags.contains(gates::RowFlags::LAST) {
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

    /// Runs the draughts jump of gate `g` (entry `e`, `RowFlags::JUMP`) on `sq`, whose gates have
    /// passed: the gate's square is its one capture (`Rules::gen_rows`).
    #[inline(never)]
    fn run_jump_row(
        &self,
        ex: &mut Exec,
        g: &gates::SqGate,
        e: &special::GateEntry,
        sq: usize,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        if let Some(add) = self.gate_rows.jumps.get(g.simple as usize) {
            ex.run_jump(e, add, (sq as u16, g.q, g.q2), scratch, out);
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
        use gates::RowFlags;
        if g.flags.contains(RowFlags::SIMPLE2)
            && (self.gate_rows.simples.get(g.simple as usize))
                .is_some_and(|head| ex.push_simple_call(head, e.move_type, sq as u16, g.q2, out))
        {
            // The block's one move, landing on its second gate's square.
            scratch.work = scratch.work.saturating_add(e.weight as u64);
            return;
        }
        let seq = self.special.seq_of(e.id);
        let Some(block) = self.def.pieces[pi].moves.get(e.block as usize) else {
            return;
        };
        if g.flags.contains(RowFlags::RUN) {
            // A block that first tests its own square (castling's `never-moved?`) ends
            // there when the test fails, as the run's prefix would end it
            // (`Exec::enter`), before a run is entered.
            if let Some(t) = e.lead.filter(|_| self.config.tree) {
                if !ex.test(t, sq as u16) {
                    return;
                }
                if e.lead_step
                    .is_some_and(|(off, t)| !ex.step_passes(off, sq as u16, t))
                {
                    // The run would end at that step, having added nothing: its work is
                    // counted as the run counts it (`Exec::run_set_up`, no loop round).
                    if !scratch.out_of_work(out) {
                        scratch.work = scratch.work.saturating_add(e.weight as u64);
                    }
                    return;
                }
            }
            ex.run(block, sq as u16, None, scratch, out);
            return;
        }
        ex.cp = g.q;
        let c = ex.pos.cell_or_empty(g.q);
        if g.flags.contains(RowFlags::TEST) && !ex.gate_passes(e, c, ex.side.0) {
            return;
        }
        if g.flags.contains(RowFlags::STRAIGHT) {
            ex.run_straight(e, seq, sq as u16, scratch, out);
        } else {
            ex.run_gated(block, seq, sq as u16, scratch, out);
        }
    }
}

/// The rows of one selector in `Rules::gate_rows` (all players, piece types and squares).
fn rows_per_sel(rules: &Tables) -> usize {
    rules.def.players.len() * rules.def.pieces.len() * rules.def.board.n_pos()
}
