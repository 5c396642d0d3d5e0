//! Counting the legal moves of a position without writing most of them (`FastPath::Count`,
//! the last level of bulk perft; random playouts, with `turn/pick.rs`).
//!
//! The pieces of the mover whose gate rows `compiled/count.rs` marks as counted (plain leaps
//! and slides to pairwise different squares) have their destinations found as one word each,
//! from the position's square sets, and restricted by royal safety's examination as
//! [`Rules::simple_verdict`](super::legal) judges them: every destination when the position
//! is not in check, the squares that block every check or take the one checking piece when it
//! is; the royal and pinned pieces are left to generation. The other pieces (and drops) are
//! generated and filtered by [`Rules::legal_moves_in`], the counted ones left out of the
//! rows' loop (`Scratch::count_skip`), and their legal moves are added. The count is the
//! length of the full list wherever it is given; elsewhere (a limit that the full list could
//! reach, a move of the rest that starts on a counted square and could repeat a counted one,
//! a position the examination does not decide) the full list is made and its length given.

use super::legal::nearest;
use super::workspace::{CountMemo, Workspace};
use super::Rules;
use crate::def::{PassTurn, NONE};
use crate::engine::count::{CountRow, MAX_RAY_STEPS};
use crate::engine::moves::MoveList;
use crate::engine::position::{Position, DEAD};
use crate::engine::rules::{GEN_MOVE_LIMIT, GEN_WORK_LIMIT};
use crate::engine::scratch::Mode;
use crate::engine::STEP_LIMIT;

// A counted slide cannot reach the step limit.
const _: () = assert!(MAX_RAY_STEPS <= STEP_LIMIT as u64);

/// The moves counted so far in one position.
#[derive(Default)]
struct Tally {
    /// The legal ones.
    counted: u64,
    /// The most there can be before royal safety (`CountRow::most`).
    most: u64,
    /// The most work their generation would have counted.
    work: u64,
    /// The squares whose rows are counted whole, and those counted in part (their
    /// destinations counted are `Workspace::counted_to`).
    skip: u64,
    part: u64,
}

impl Tally {
    /// Counts the destinations `to` of `row` on `sq`, `legal` of them legal, on the board
    /// whose occupied squares and enemy pieces are `occ` and `enemy`: the square is counted
    /// in part when a gate left to generation may pass there, else whole.
    #[inline(always)]
    fn add(
        &mut self,
        (row, occ, enemy): (&CountRow, u64, u64),
        (sq, targets): (usize, &mut [u64; 64]),
        to: u64,
        legal: u32,
    ) {
        self.counted += u64::from(legal);
        self.most += u64::from(row.most);
        self.work += row.work;
        // Without a branch: whether a row is left to generation varies from piece to piece.
        let open = row.rest_open
            | u64::from(row.rest_empty & !occ != 0)
            | u64::from(row.rest_enemy & enemy != 0);
        self.skip |= (open ^ 1) << sq;
        self.part |= open << sq;
        targets[sq & 63] = to;
    }
}

impl Rules {
    /// The number of legal moves of the side to move: `legal_moves_in(ws, pos, list)`'s
    /// length, with `list` as a buffer (its contents are left unspecified). With
    /// [`FastPath::Count`](crate::engine::FastPath::Count), the moves of most pieces are
    /// counted without being written.
    #[inline(never)]
    pub fn count_legal(&self, ws: &mut Workspace, pos: &mut Position, list: &mut MoveList) -> u64 {
        self.count_legal_of::<false>(ws, pos, list)
    }

    /// [`Rules::count_legal`], noting in `ws` what [`Rules::legal_move_at`] needs to find a
    /// move of the position by its index afterwards.
    pub fn count_legal_noted(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        list: &mut MoveList,
    ) -> u64 {
        self.count_legal_of::<true>(ws, pos, list)
    }

    /// [`Rules::count_legal`]; with `NOTE`, noting what it learnt (`Workspace::counted`).
    #[inline(always)]
    fn count_legal_of<const NOTE: bool>(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        list: &mut MoveList,
    ) -> u64 {
        // Whatever was noted before no longer holds (`counted_to` is written again).
        ws.counted.hash = None;
        if let Some(n) = self.count_fast::<NOTE>(ws, pos, list) {
            if NOTE {
                ws.counted.hash = Some(pos.hash);
            }
            return n;
        }
        // Royal safety may take the examination `count_fast` made (`Safety::examined`).
        self.legal_moves_in(ws, pos, list);
        ws.safety.examined = false;
        if NOTE {
            ws.counted = CountMemo {
                hash: Some(pos.hash),
                whole: true,
                ..CountMemo::default()
            };
        }
        list.len() as u64
    }

    /// [`Rules::count_legal`] by counting, or `None` where it cannot be shown equal; with
    /// `NOTE`, noting what it counted (`Workspace::counted`).
    fn count_fast<const NOTE: bool>(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        list: &mut MoveList,
    ) -> Option<u64> {
        if !self.config.count || self.count.rows.is_empty() || ws.scratch.mode != Mode::Generate {
            return None;
        }
        let entry = self.entry(pos.turn);
        if entry.move_type.is_some() {
            return None;
        }
        let side = entry.owner;
        let (own, occ) = (pos.owned.of(side.0)?, pos.owned.occupied()?);
        self.gate_rows.base(self.rank_passes.len(), side.idx())?;
        let royal = self.royal.iter().any(|&r| r);
        let (fixed, kept) = if royal {
            self.examine_safety(pos, side, &mut ws.safety);
            // Whatever comes of it, royal safety's filter of this position takes it.
            ws.safety.examined = true;
            ws.safety.simple_sets()?
        } else {
            (0, !0)
        };
        let enemy = occ & !own;
        let mut t = Tally::default();
        if ws.counted_to.len() < 64 {
            ws.counted_to.resize(64, 0);
        }
        let targets: &mut [u64; 64] = ws.counted_to.get_mut(..64)?.try_into().ok()?;
        let mut pieces = own & !fixed;
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let c = pos.cells[sq];
            if c.is_empty() || c.marks & DEAD != 0 {
                continue;
            }
            let Some(row) = self.count.row(side.idx(), c.piece as usize - 1, sq) else {
                continue;
            };
            let to = self.count_targets(row, occ, enemy);
            t.add(
                (row, occ, enemy),
                (sq, targets),
                to,
                (to & kept).count_ones(),
            );
        }
        // The one royal piece: each destination tested over the attack tables' square sets
        // as its simple move would be (`Rules::royal_steps_safe`).
        let (mut king, mut king_safe) = (NONE, 0);
        if let Some(k) = ws.safety.one_king().filter(|_| royal) {
            let (sq, c) = (k as usize, pos.cells[k as usize]);
            let row = (!c.is_empty()).then(|| self.count.row(side.idx(), c.piece as usize - 1, sq));
            if let Some(row) = row.flatten() {
                let to = self.count_targets(row, occ, enemy);
                king_safe = self.royal_steps_safe(&mut ws.safety, pos, side, (k, c), to)?;
                t.add((row, occ, enemy), (sq, targets), to, king_safe.count_ones());
                king = k;
            }
        }
        let Tally {
            counted,
            most,
            work,
            skip,
            part,
        } = t;
        if skip | part == 0 {
            return None;
        }
        let start = ws.scratch.work;
        ws.generated = 0;
        (ws.scratch.count_skip, ws.scratch.count_part) = (skip, part);
        // The rest's royal safety takes the examination above (`Safety::examined`).
        self.legal_moves_of::<true>(ws, pos, list);
        ws.safety.examined = false;
        let left = std::mem::take(&mut ws.scratch.count_skip);
        if left | std::mem::take(&mut ws.scratch.count_part) != 0 {
            // The rows' loop over the square set did not run: the list is whole.
            ws.counted.whole = NOTE;
            return Some(list.len() as u64);
        }
        let used = ws.scratch.work.saturating_sub(start);
        let full = ws.generated as u64 + most;
        // A move of the rest that starts on a counted square (and, on a square counted in
        // part, ends on a square counted there) could equal a counted one, which the
        // duplicate check would have dropped.
        let mut repeats = 0;
        for m in &list.moves {
            let (from, to) = list.ends(m);
            let bit = |q: u16| 1u64.checked_shl(u32::from(q)).unwrap_or(0);
            let (from_bit, to_bit) = (bit(from), bit(to));
            let there = ws
                .counted_to
                .get(from as usize & 63)
                .map_or(0, |&t| t & to_bit);
            repeats |= from_bit & skip | (there * u64::from(from_bit & part != 0));
        }
        if list.cut.is_some()
            || full >= GEN_MOVE_LIMIT as u64
            || used.saturating_add(work) >= GEN_WORK_LIMIT
            || repeats != 0
        {
            return None;
        }
        let rest = list.len() as u64;
        if NOTE {
            ws.counted = CountMemo {
                hash: None,
                skip,
                part,
                kept,
                king,
                king_safe,
                whole: false,
                rest_void: false,
            };
        }
        if self.def.options.pass_turn == PassTurn::Forced && counted > 0 && rest == 1 {
            // The rest is only the pass that an empty list gets: the counted moves are legal.
            if list.moves.first().is_some_and(|m| m.pass) {
                ws.counted.rest_void = NOTE;
                return Some(counted);
            }
        }
        Some(counted + rest)
    }

    /// The destinations of a counted row: its leaps' squares that are empty or hold an enemy
    /// piece as its tests ask, and each slide's squares up to its nearest piece, with that
    /// piece when the slide captures it.
    #[inline(always)]
    fn count_targets(&self, row: &CountRow, occ: u64, enemy: u64) -> u64 {
        let mut to = row.empty & !occ | row.enemy & enemy;
        // The two-square step, when its first square lets it pass.
        let open = 0u64.wrapping_sub(u64::from(row.via & occ == 0));
        to |= (row.far_empty & !occ | row.far_enemy & enemy) & open;
        let rays = (self.count.rays).get(row.rays.0 as usize..row.rays.1 as usize);
        for r in rays.unwrap_or(&[]) {
            let on = r.mask & occ;
            if on == 0 {
                to |= r.mask;
                continue;
            }
            let near = nearest(on, r.up);
            // The squares before the nearest piece: below it on a ray that goes up, above it
            // on one that goes down.
            let below = near - 1;
            let before = if r.up { below } else { !(below | near) };
            to |= r.mask & before;
            if r.capture {
                to |= near & enemy;
            }
        }
        to
    }
}
