//! Royal safety over one-word square sets, on boards of at most 64 squares whose attack
//! tables hold their leaps and slides as square sets ([`AttackBits`]).
//!
//! The examination of a position ([`Rules::examine_sets`]) and the test of a royal square
//! after a simple move ([`Rules::bits_hit`]) read the tables' sets against the occupied
//! squares. Where the tables also hold the slides by piece type ([`SlideLines`]), a royal
//! square after a simple move is tested by [`Rules::square_hit`]: a leap attacks when a
//! square it leaps from holds a piece of its type, and a slide when a piece of a sliding type
//! stands on one of its rays with nothing between; the royal piece's steps are judged this
//! way once per position ([`Rules::note_steps`]).

use super::legal::Safety;
use crate::def::{PlayerId, NONE};
use crate::engine::attack::{AttackBits, SlideLines};
use crate::engine::position::{Position, DEAD};
use crate::engine::{Cell, Move, Rules};

/// The nearest square of `on` (not empty) along a slide whose squares come in ascending
/// index order towards its target when `up` (the lowest bit), else descending (the highest).
#[inline(always)]
pub(super) fn nearest(on: u64, up: bool) -> u64 {
    if up {
        on & on.wrapping_neg()
    } else {
        1 << (63 - on.leading_zeros())
    }
}

/// Whether `c` is a live piece of player `pl` of one of `types` (bit `type`; at most 64 types,
/// as [`AttackBits`] has).
#[inline(always)]
fn live_piece(c: Cell, pl: usize, types: u64) -> bool {
    !c.is_empty()
        && c.owner as usize == pl
        && c.marks & DEAD == 0
        && types >> (c.piece - 1) & 1 != 0
}

/// Over the squares `on` (the occupied squares in reach of a royal square, whose rows of the
/// tables begin at `at`), whether a live piece of `pl` (its cell read by `cell`) leaps onto
/// it, and with that, whether one stands where an irregular block could reach it.
#[inline(always)]
fn leap_hit(
    bits: &AttackBits,
    pl: usize,
    at: usize,
    mut on: u64,
    cell: impl Fn(usize) -> Cell,
) -> (bool, bool) {
    let mut live = false;
    while on != 0 {
        let q = on.trailing_zeros() as usize;
        on &= on - 1;
        let c = cell(q);
        if live_piece(c, pl, !0) {
            let t = at + c.piece as usize - 1;
            if bits.leap[t] >> q & 1 != 0 {
                return (true, false);
            }
            live |= bits.irregular[t] >> q & 1 != 0;
        }
    }
    (false, live)
}

impl Rules {
    /// The steps of the one royal piece (`Safety::typed`) on `from`, whose cell is `cell`,
    /// that [`Rules::step_verdict`] decides: the squares it judges, and those of them it
    /// finds attacked. `None` when it decides none.
    pub(super) fn judged_steps(
        &self,
        s: &mut Safety,
        pos: &Position,
        side: PlayerId,
        (from, cell): (u16, Cell),
    ) -> Option<(u64, u64)> {
        if !(s.typed && s.kings.first() == Some(&from) && self.royal_of(cell, side)) {
            return None;
        }
        if !s.steps_done {
            self.note_steps(s, pos, side);
        }
        // An attacked square is decided even where an irregular block might reach it too.
        Some((s.steps & (s.danger | !s.danger_live), s.danger))
    }

    /// [`Rules::royal_step_safe`] of the steps of the one royal piece on `from` (its cell
    /// `cell`) onto each square of `to`: the squares it may step to. Those that
    /// `Rules::judged_steps` decides are read from its sets.
    #[inline(always)]
    pub(super) fn royal_steps_safe(
        &self,
        s: &mut Safety,
        pos: &Position,
        side: PlayerId,
        (from, cell): (u16, Cell),
        to: u64,
    ) -> Option<u64> {
        if to == 0 {
            return Some(0);
        }
        // What `Rules::royal_step_safe` asks of every step, asked once.
        let bits = self.attacks.bits.is_some() && self.config.legality;
        let onto_itself = to.checked_shr(u32::from(from)).unwrap_or(0) & 1 != 0;
        if !bits || s.one_king() != Some(from) || onto_itself {
            return None;
        }
        let (mut safe, mut left) = (0, to);
        if let Some((judged, attacked)) = self.judged_steps(s, pos, side, (from, cell)) {
            safe = to & judged & !attacked;
            left = to & !judged;
        }
        while left != 0 {
            let q = left.trailing_zeros() as u16;
            left &= left - 1;
            safe |= u64::from(self.royal_step_safe(s, pos, side, (from, q), cell)?) << q;
        }
        Some(safe)
    }

    /// The verdict on a simple move of the one royal piece (`Safety::typed`) onto a square
    /// it leaps to from where it stands, from the judgement of all those squares made once
    /// per position (`Rules::note_steps`). `None` for other moves, and where an irregular
    /// block might reach the square.
    #[inline(always)]
    pub(super) fn step_verdict(
        &self,
        s: &mut Safety,
        pos: &Position,
        m: &Move,
        side: PlayerId,
    ) -> Option<bool> {
        if !(s.typed && m.simple && s.kings.first() == Some(&m.sq[0])) {
            return None;
        }
        if !s.steps_done {
            self.note_steps(s, pos, side);
        }
        let to = m.sq[1];
        if s.steps >> to & 1 == 0 || !self.royal_of(m.cell, side) {
            return None;
        }
        if s.danger >> to & 1 != 0 {
            Some(false)
        } else {
            (s.danger_live >> to & 1 == 0).then_some(true)
        }
    }

    /// Judges the steps of the one royal piece of `side` (`Safety::typed`) onto the squares
    /// its type leaps to from its square that hold none of its side's pieces, as
    /// [`Rules::square_hit`] finds them attacked once it stands there (its square left
    /// empty, the piece it takes gone).
    #[inline(never)]
    fn note_steps(&self, s: &mut Safety, pos: &Position, side: PlayerId) {
        s.steps_done = true;
        (s.steps, s.danger, s.danger_live) = (0, 0, 0);
        let Some((bits, lines)) =
            (self.attacks.bits.as_ref()).and_then(|b| Some((b, b.lines.as_ref()?)))
        else {
            return;
        };
        let (nt, n_pos) = (bits.n_types, pos.cells.len());
        let k = s.kings[0] as usize;
        let c = pos.cells[k];
        let Some(t) = (c.piece as usize).checked_sub(1).filter(|&t| t < nt) else {
            return;
        };
        let mine = s.occ & !s.others;
        s.steps = lines.leaps[(side.idx() * n_pos + k) * nt + t] & !mine & !(1 << k);
        let occ = s.occ & !(1 << k);
        for pl in 0..self.attacks.slides.len() {
            if pl == side.idx() {
                continue;
            }
            let mut left = s.steps & !s.danger;
            while left != 0 {
                let sq = left.trailing_zeros() as usize;
                left &= left - 1;
                // The piece taken there attacks nothing; the royal piece stands there.
                let others = s.others & !(1 << sq);
                let on = (occ, others);
                let (hit, live) = self.square_hit(bits, lines, pos, pl, sq, on, (sq as u16, c));
                if hit {
                    s.danger |= 1 << sq;
                } else if live {
                    s.danger_live |= 1 << sq;
                }
            }
        }
        s.danger_live &= !s.danger;
    }

    /// Whether a piece of `pl` attacks `k` by a leap or a slide on the board with the
    /// occupied squares `occ`, where the squares `others` hold the other players' pieces (as
    /// on `pos`, but `cell` on `to`): a leap from one of them of its type, or a slide of its
    /// type from one of them on a ray to `k` with no occupied square between. With it,
    /// whether one stands where an irregular block could reach `k`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn square_hit(
        &self,
        bits: &AttackBits,
        lines: &SlideLines,
        pos: &Position,
        pl: usize,
        k: usize,
        (occ, others): (u64, u64),
        (to, cell): (u16, Cell),
    ) -> (bool, bool) {
        let (nt, n_pos) = (bits.n_types, pos.cells.len());
        let at = (pl * n_pos + k) * nt;
        let cell_at = |q: usize| if q == to as usize { cell } else { pos.cells[q] };
        let piece = |q: usize| {
            let c = cell_at(q);
            live_piece(c, pl, !0).then(|| at + c.piece as usize - 1)
        };
        let (hit, live) = leap_hit(bits, pl, at, bits.reach[pl * n_pos + k] & others, cell_at);
        if hit {
            return (true, false);
        }
        let between = &lines.between[(pl * n_pos + k) * n_pos..][..n_pos];
        let mut on = lines.rays[pl * n_pos + k] & others;
        while on != 0 {
            let q = on.trailing_zeros() as usize;
            on &= on - 1;
            if between[q] & occ == 0 {
                if let Some(t) = piece(q) {
                    if lines.slide[t] >> q & 1 != 0 {
                        return (true, false);
                    }
                }
            }
        }
        (false, live)
    }

    /// The verdict on a simple move where the mover has one royal piece (`Safety::typed`)
    /// and [`Rules::move_safe`] would judge it by its two squares: the royal squares it
    /// leaves, each tested by [`Rules::square_hit`] on the board after it. `None` when none
    /// is attacked but an irregular block might reach one.
    #[inline]
    pub(super) fn sets_verdict(
        &self,
        s: &Safety,
        pos: &Position,
        m: &Move,
        side: PlayerId,
    ) -> Option<bool> {
        let king = *s.kings.first()?;
        let (from, to) = (m.sq[0], m.sq[1]);
        if !(s.typed && m.simple && (!s.blockable || from == king)) {
            return None;
        }
        let bits = self.attacks.bits.as_ref()?;
        let lines = bits.lines.as_ref()?;
        let after = [
            (king != from && king != to).then_some(king),
            self.royal_of(m.cell, side).then_some(to),
        ];
        let placed = if m.cell.is_empty() { 0 } else { 1 << to };
        let occ = (s.occ & !(1 << from)) | placed;
        let theirs = if !m.cell.is_empty() && m.cell.owner != side.0 {
            1 << to
        } else {
            0
        };
        let others = (s.others & !(1 << from) & !(1 << to)) | theirs;
        let mut live = false;
        for k in after.into_iter().flatten() {
            for pl in 0..self.attacks.slides.len() {
                if pl == side.idx() {
                    continue;
                }
                let (hit, irregular) = self.square_hit(
                    bits,
                    lines,
                    pos,
                    pl,
                    k as usize,
                    (occ, others),
                    (to, m.cell),
                );
                if hit {
                    return Some(false);
                }
                live |= irregular;
            }
        }
        (!live).then_some(true)
    }

    /// [`Rules::examine_safety`] of the one royal piece of `side`, on the occupied squares
    /// (`Safety::occ`) and the attack tables' square sets: each slide's nearest piece on the
    /// ray to the royal square checks when it is an enemy slider of that slide, and is pinned
    /// when the next one is.
    pub(super) fn examine_sets(
        &self,
        bits: &AttackBits,
        pos: &Position,
        side: PlayerId,
        s: &mut Safety,
    ) {
        let k = s.kings[0] as usize;
        s.king_set = 1 << k;
        let found = self.checks_by_square(bits, pos, side, k, s);
        // An irregular block (run as a program) might reach the royal piece.
        let Some((leapers, checkers, blocks, pinned)) = found else {
            return;
        };
        s.pinned_set = pinned;
        if leapers | checkers != 0 {
            s.block_set = if leapers != 0 { 0 } else { blocks };
            let checkers = checkers | leapers;
            s.checker = if checkers & (checkers - 1) == 0 {
                checkers.trailing_zeros() as u16
            } else {
                NONE
            };
            s.blockable = true;
            return;
        }
        s.proven = true;
    }

    /// The checks and pins of the royal square `k`, from the squares in reach of a leap and
    /// along each slide's ray: the squares of the pieces giving check by a leap and by a
    /// slide, the squares that block every slide check, and the pinned squares. `None` when
    /// a live enemy piece stands where an irregular block could reach `k`.
    fn checks_by_square(
        &self,
        bits: &AttackBits,
        pos: &Position,
        side: PlayerId,
        k: usize,
        s: &Safety,
    ) -> Option<(u64, u64, u64, u64)> {
        let (nt, ns) = (bits.n_types, bits.n_slides);
        let n_pos = self.def.board.n_pos();
        let (mut leapers, mut checkers, mut blocks, mut pinned) = (0u64, 0u64, !0u64, 0u64);
        for (pl, slides) in self.attacks.slides.iter().enumerate() {
            if pl == side.idx() {
                continue;
            }
            let piece_of = |q: usize, types: u64| live_piece(pos.cells[q], pl, types);
            let at = (pl * n_pos + k) * nt;
            let mut on = bits.reach[pl * n_pos + k] & s.occ;
            while on != 0 {
                let q = on.trailing_zeros() as usize;
                on &= on - 1;
                let c = pos.cells[q];
                if live_piece(c, pl, !0) {
                    let t = at + c.piece as usize - 1;
                    if bits.irregular[t] >> q & 1 != 0 {
                        return None;
                    }
                    leapers |= bits.leap[t] & 1 << q;
                }
            }
            let rays = &bits.ray[(pl * n_pos + k) * ns..][..ns];
            let sliders = &bits.slide_types[pl * ns..][..ns];
            for j in 0..slides.len() {
                let on = rays[j] & s.occ;
                if on == 0 {
                    continue;
                }
                let up = bits.up[pl * ns + j];
                let near = nearest(on, up);
                let slider = |q: u64| piece_of(q.trailing_zeros() as usize, sliders[j]);
                if slider(near) {
                    // In check: only the squares before it on this ray can block it.
                    let before = if up { near - 1 } else { !(near - 1) & !near };
                    blocks &= rays[j] & before;
                    checkers |= near;
                } else if on != near && slider(nearest(on ^ near, up)) {
                    pinned |= near;
                }
            }
        }
        Some((leapers, checkers, blocks, pinned))
    }

    /// [`Rules::leap_or_slide_hits`] over the attack tables' square sets and the occupied
    /// squares of `s`, after the simple move `m`; with it, whether a piece of `pl` stands where
    /// one of its irregular blocks could capture on `k`.
    #[inline]
    pub(super) fn bits_hit(
        &self,
        bits: &AttackBits,
        s: &Safety,
        pos: &Position,
        pl: usize,
        k: usize,
        m: &Move,
    ) -> (bool, bool) {
        let (nt, ns) = (bits.n_types, bits.n_slides);
        let n_pos = self.def.board.n_pos();
        let (from, to) = (m.sq[0] as usize, m.sq[1] as usize);
        let placed = if m.cell.is_empty() { 0 } else { 1u64 << to };
        let occ = (s.occ & !(1u64 << from)) | placed;
        let cell_at = |q: usize| if q == to { m.cell } else { pos.cells[q] };
        let at = (pl * n_pos + k) * nt;
        let (hit, live) = leap_hit(bits, pl, at, bits.reach[pl * n_pos + k] & occ, cell_at);
        if hit {
            return (true, false);
        }
        let rays = &bits.ray[(pl * n_pos + k) * ns..][..ns];
        // A player with fewer slides than `n_slides` has empty rays past its own.
        for (j, &ray) in rays.iter().enumerate() {
            let on = ray & occ;
            if on != 0 {
                let near = nearest(on, bits.up[pl * ns + j]).trailing_zeros() as usize;
                if live_piece(cell_at(near), pl, bits.slide_types[pl * ns + j]) {
                    return (true, false);
                }
            }
        }
        (false, live)
    }
}
