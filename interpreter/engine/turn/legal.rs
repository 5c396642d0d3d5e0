//! Royal safety without trial moves.
//!
//! A move is legal when it leaves no royal piece of the mover attacked. Playing every move and
//! asking the attack tables afterwards is exact but slow; instead, the position is examined once
//! (where the mover's royal pieces stand, whether one is attacked, which pieces stand between a
//! royal piece and an enemy slider), and a move whose writes cannot change the answer is kept
//! without being played. Any other simple move has its two cell writes laid over the board
//! and its royal squares tested by the tables' leaps and slides; the remaining moves (and
//! simple moves whose royal squares an enemy irregular block could reach) are played and
//! tested.
//!
//! Where the attack tables hold their leaps and slides as square sets (boards of at most 64
//! squares, [`AttackBits`]) and the mover has one royal piece, the examination reads the
//! occupied squares as one word (the position's square sets of the pieces where they are
//! kept and the `piece_sets` path is on, else one pass over the cells): along each slide's ray to the royal square, the nearest piece
//! checks when it is an enemy slider of that slide and is pinned when the next one is. The
//! royal, pinned and blocking squares are then one-word sets, so a simple move is judged by a
//! few bit tests.
//!
//! What the tables can prove: after a move that writes only the mover's own non-royal pieces or
//! empty cells, leaves the royal squares alone and empties at most one occupied square, an enemy
//! piece can attack a royal square only from a square the move did not write, so a leap attack
//! would already exist, and a slide attack needs the emptied square to be the only piece between
//! the royal piece and an enemy slider (a pin). The proof needs a position that is not in check,
//! no enemy piece standing where one of its irregular blocks (run as programs, which may read
//! anything) could reach a royal square, and direction links that can be reversed.
//!
//! In check, with the same proviso (no irregular attacker in reach), a move that only puts one
//! of the mover's non-royal pieces on an empty square (a drop) can neither expose a royal piece
//! nor take a checking piece: it is legal exactly when its square stands between a royal piece
//! and every enemy slider checking it, and never when a leap checks. A side in check in a drop
//! game has a hundred such moves, which no longer need a trial move each.
//! Likewise, in check, a move that places one non-royal piece and empties at most one unpinned
//! square answers the checks exactly when it blocks every checking slide or takes the one
//! checking piece.

pub(super) use super::royal_sets::nearest;
use crate::def::{PlayerId, NONE};
use crate::engine::moves::{MoveList, Op};
use crate::engine::position::{Position, DEAD};
use crate::engine::{Cell, Rules};

/// What one position's royal pieces face, found once before the moves are filtered.
#[derive(Clone, Debug, Default)]
pub struct Safety {
    /// Squares of the mover's royal pieces.
    pub(super) kings: Vec<u16>,
    /// Pieces that are the only one between a royal piece and an enemy slider aiming at it.
    pub(super) pinned: Vec<u16>,
    /// The tables can judge moves here (not in check, no irregular attacker in reach).
    pub(super) proven: bool,
    /// In check from leaps and slides only, no irregular attacker in reach: a move that only
    /// puts one piece of the mover on an empty square (a drop) is safe exactly when that
    /// square is marked [`BLOCK`] (between a royal piece and every slider checking it; none
    /// when a leap checks).
    pub(super) blockable: bool,
    /// With [`Safety::blockable`]: the square of the one piece giving check (`NONE` when
    /// several do).
    pub(super) checker: u16,
    /// Squares of [`BLOCK`]; while examining, the empty squares of the ray being walked.
    pub(super) blocks: Vec<u16>,
    pub(super) ray: Vec<u16>,
    /// Royal squares after a trial move.
    pub(super) after: Vec<u16>,
    /// By square: [`KING`] and [`PINNED`] bits of the squares listed above (all clear
    /// elsewhere), so a move's writes are judged without searching the lists; on boards of
    /// more than 64 squares only (`word` false).
    pub(super) marks: Vec<u8>,
    /// The board has at most 64 squares: the squares of `kings`, `pinned` and `blocks` are
    /// the bits of `king_set`, `pinned_set` and `block_set` instead of `marks`.
    pub(super) word: bool,
    pub(super) king_set: u64,
    pub(super) pinned_set: u64,
    pub(super) block_set: u64,
    /// The occupied squares, where the position is examined on a board of at most 64 squares.
    pub(super) occ: u64,
    /// On a board of at most 64 squares: the squares of the pieces of the other players.
    pub(super) others: u64,
    /// The mover has one royal piece and the tables have
    /// [`SlideLines`](crate::engine::attack::SlideLines): [`Rules::sets_verdict`] judges
    /// simple moves.
    pub(super) typed: bool,
    /// With `typed`: the royal piece's steps are judged (`Rules::note_steps`), for the
    /// squares `steps`: those in `danger` attacked by a leap or a slide once it stands there,
    /// those in `danger_live` not, but in reach of an irregular block of a live piece.
    pub(super) steps_done: bool,
    pub(super) steps: u64,
    pub(super) danger: u64,
    pub(super) danger_live: u64,
    /// The indexes of the moves [`Rules::royal_filter`] drops.
    dropped: Vec<u32>,
    /// The position being filtered was examined already (`Rules::count_legal`, which
    /// clears it): [`Rules::royal_filter`] takes the examination as it is.
    pub(super) examined: bool,
}

impl Safety {
    /// Marks the squares of `kings`, `pinned` and `blocks`: as bits of their sets on a board
    /// of at most 64 squares, else in `marks`.
    fn mark_lists(&mut self) {
        let lists = [
            (&self.kings, KING),
            (&self.pinned, PINNED),
            (&self.blocks, BLOCK),
        ];
        for (list, mark) in lists {
            for &q in list {
                if self.word {
                    let set = match mark {
                        KING => &mut self.king_set,
                        PINNED => &mut self.pinned_set,
                        _ => &mut self.block_set,
                    };
                    *set |= 1 << q;
                } else {
                    self.marks[q as usize] |= mark;
                }
            }
        }
    }

    /// What [`Rules::simple_verdict`] decides from the sets of an examined position on a board
    /// of at most 64 squares: the squares from which it judges no move (royal and pinned
    /// pieces), and the destinations of the simple moves of a live non-royal piece of the
    /// mover from any other square that it keeps (`Rules::count_legal`). `None` when it
    /// judges none of them.
    pub(super) fn simple_sets(&self) -> Option<(u64, u64)> {
        let from = self.king_set | self.pinned_set;
        if !self.word {
            None
        } else if self.proven {
            Some((from, !self.king_set))
        } else if self.blockable {
            let checker = 1u64.checked_shl(u32::from(self.checker)).unwrap_or(0);
            Some((from, (self.block_set | checker) & !self.king_set))
        } else {
            None
        }
    }

    /// The square of the mover's one royal piece, on a board of at most 64 squares.
    pub(super) fn one_king(&self) -> Option<u16> {
        (self.word && self.kings.len() == 1).then(|| self.kings[0])
    }

    /// The [`KING`], [`PINNED`] and [`BLOCK`] bits of square `q`.
    #[inline(always)]
    fn mark(&self, q: u16) -> u8 {
        if self.word {
            let on = |set: u64, mark: u8| if set >> q & 1 != 0 { mark } else { 0 };
            on(self.king_set, KING) | on(self.pinned_set, PINNED) | on(self.block_set, BLOCK)
        } else {
            self.marks[q as usize]
        }
    }
}

const KING: u8 = 1;
const PINNED: u8 = 2;
const BLOCK: u8 = 4;

impl Rules {
    /// How royal safety is decided in this game, for `zrf check`: `None` without royal pieces.
    pub fn royal_safety_scheme(&self) -> Option<String> {
        let names = |on: &[bool]| -> Vec<&str> {
            (self.def.pieces.iter().zip(on))
                .filter(|(_, on)| **on)
                .map(|(p, _)| p.name.as_str())
                .collect()
        };
        let royal = names(&self.royal);
        if royal.is_empty() {
            return None;
        }
        if !self.attacks.usable {
            let why = if self.attacks.capped {
                "the attack tables would be too large"
            } else if self.attacks.overworked {
                "deriving the attack tables passed its work limit"
            } else {
                "the direction links cannot be reversed"
            };
            return Some(format!("every move played and tested ({why})"));
        }
        let mut irregular = vec![false; self.def.pieces.len()];
        for i in 0..self.attacks.irregular_to.len() {
            for &(_, piece, _) in self.attacks.royal_irregular(i) {
                irregular[piece as usize] = true;
            }
        }
        let irregular = names(&irregular);
        let mut s = format!(
            "proven from the attack tables; played and tested instead: moves of {} and of \
             pinned pieces, moves that empty two squares or write other sides' pieces, and all \
             moves in check",
            royal.join(", ")
        );
        if !irregular.is_empty() {
            s += &format!(
                " or while a {} stands where its irregular blocks (run as programs) could reach \
                 a royal piece",
                irregular.join(" or ")
            );
        }
        Some(s)
    }

    /// Examines a position for `side` before its moves are judged.
    pub(super) fn examine_safety(&self, pos: &Position, side: PlayerId, s: &mut Safety) {
        if !s.word {
            for &q in s.kings.iter().chain(&s.pinned).chain(&s.blocks) {
                if let Some(m) = s.marks.get_mut(q as usize) {
                    *m = 0;
                }
            }
        }
        s.word = pos.cells.len() <= 64;
        if !s.word {
            s.marks.resize(pos.cells.len(), 0);
        }
        s.kings.clear();
        s.pinned.clear();
        s.blocks.clear();
        (s.king_set, s.pinned_set, s.block_set) = (0, 0, 0);
        s.typed = false;
        s.steps_done = false;
        s.proven = false;
        s.blockable = false;
        s.checker = NONE;
        let a = &self.attacks;
        let bits = (a.bits.as_ref()).filter(|_| self.config.legality && s.word);
        let owned = &pos.owned;
        let sets = (owned.occupied().zip(owned.of(side.0))).filter(|_| self.config.piece_sets);
        let own_set = if let Some((occ, own)) = sets {
            // `FastPath::PieceSets`: the occupied squares and the mover's pieces are the
            // position's square sets.
            s.occ = occ;
            // The royal squares as a set first, without a branch per piece.
            let (mut left, mut royal) = (own, 0u64);
            while left != 0 {
                let sq = left.trailing_zeros();
                left &= left - 1;
                royal |= u64::from(self.royal_of(pos.cells[sq as usize], side)) << sq;
            }
            while royal != 0 {
                s.kings.push(royal.trailing_zeros() as u16);
                royal &= royal - 1;
            }
            own
        } else {
            let (mut occ, mut own) = (0u64, 0u64);
            for (sq, c) in pos.cells.iter().enumerate() {
                if !c.is_empty() {
                    let bit = 1u64.wrapping_shl(sq as u32);
                    occ |= bit;
                    if c.owner == side.0 {
                        own |= bit;
                        if self.royal_of(*c, side) {
                            s.kings.push(sq as u16);
                        }
                    }
                }
            }
            s.occ = occ;
            own
        };
        s.others = s.occ & !own_set;
        s.typed = s.kings.len() == 1 && bits.is_some_and(|b| b.lines.is_some());
        if let Some(bits) = bits.filter(|_| s.kings.len() == 1) {
            self.examine_sets(bits, pos, side, s);
            return;
        }
        if !self.config.legality || !a.usable {
            return;
        }
        let n_pos = pos.cells.len();
        let n_dirs = self.def.board.directions.len();
        // Checks seen: by a leap (no square blocks it), and by slides (the squares that block
        // every one of them so far are `blocks`).
        let mut leap_check = false;
        let mut slide_checks = 0;
        // Checks seen, and the square of the last piece giving one.
        let mut checks = 0;
        let mut checker = NONE;
        for &k in &s.kings {
            let k = k as usize;
            for pl in 0..self.def.players.len() {
                if pl == side.idx() {
                    continue;
                }
                let enemy = |c: crate::engine::Cell| {
                    !c.is_empty() && c.owner as usize == pl && c.marks & DEAD == 0
                };
                for &(src, piece) in &a.leap_to[pl * n_pos + k] {
                    let c = pos.cells[src as usize];
                    if enemy(c) && c.piece == piece + 1 {
                        leap_check = true;
                        checks += 1;
                        checker = src;
                    }
                }
                for &(start, piece, _) in a.royal_irregular(pl * n_pos + k) {
                    let c = pos.cells[start as usize];
                    if enemy(c) && c.piece == piece + 1 {
                        return;
                    }
                }
                for (d, pieces) in &a.slides[pl] {
                    let base = (pl * n_dirs + d.idx()) * n_pos;
                    let mut q = a.rev[base + k];
                    let mut first = NONE;
                    s.ray.clear();
                    while q != NONE {
                        let c = pos.cells[q as usize];
                        if !c.is_empty() {
                            let slider = enemy(c) && pieces[c.piece as usize - 1];
                            if first != NONE {
                                if slider {
                                    s.pinned.push(first);
                                }
                                break;
                            }
                            if slider {
                                // In check: only a square of this ray can block it.
                                if slide_checks == 0 {
                                    s.blocks.extend_from_slice(&s.ray);
                                } else {
                                    let ray = &s.ray;
                                    s.blocks.retain(|b| ray.contains(b));
                                }
                                slide_checks += 1;
                                checks += 1;
                                checker = q;
                                break;
                            }
                            first = q;
                        } else if first == NONE {
                            s.ray.push(q);
                        }
                        q = a.rev[base + q as usize];
                    }
                }
            }
        }
        if leap_check {
            s.blocks.clear();
        }
        s.mark_lists();
        if leap_check || slide_checks > 0 {
            s.checker = if checks == 1 { checker } else { NONE };
            s.blockable = true;
            return;
        }
        s.proven = true;
    }

    /// In check ([`Safety::blockable`]): whether a move that only puts a piece of `side` on
    /// one empty square blocks every check (`None` for other moves, which are played).
    #[inline]
    fn drop_blocks(&self, s: &Safety, pos: &Position, side: PlayerId, ops: &[Op]) -> Option<bool> {
        let mut written = None;
        for op in ops {
            if let Op::Set(sq, c) = *op {
                if written.is_some()
                    || !pos.cells[sq as usize].is_empty()
                    || c.is_empty()
                    || c.owner != side.0
                    || c.marks & DEAD != 0
                    || self.royal[c.piece as usize - 1]
                {
                    return None;
                }
                written = Some(sq);
            }
        }
        written.map(|sq| s.mark(sq) & BLOCK != 0)
    }

    /// In check ([`Safety::blockable`]): whether a move that puts one non-royal piece of
    /// `side` on one square and empties at most one other occupied square, not a pinned one,
    /// answers every check, by standing between a royal piece and every slider checking it
    /// or by taking the one piece giving check (`None` for other moves, which are played).
    /// Such a move changes no other square, so no other enemy piece can attack after it but
    /// through the square it empties, which only a pin would open.
    #[inline]
    fn evasion_safe(&self, s: &Safety, pos: &Position, side: PlayerId, ops: &[Op]) -> Option<bool> {
        let mut placed = None;
        let mut emptied = 0;
        for op in ops {
            if let Op::Set(sq, c) = *op {
                let mark = s.mark(sq);
                if mark & KING != 0 {
                    return None;
                }
                if c.is_empty() {
                    if !pos.cells[sq as usize].is_empty() {
                        emptied += 1;
                        if emptied > 1 || mark & PINNED != 0 {
                            return None;
                        }
                    }
                } else if placed.is_some_and(|p| p != sq)
                    || c.owner != side.0
                    || c.marks & DEAD != 0
                    || self.royal[c.piece as usize - 1]
                {
                    return None;
                } else {
                    placed = Some(sq);
                }
            }
        }
        let to = placed?;
        // The piece placed must stay there: a later op emptying its square is another shape.
        if ops
            .iter()
            .any(|op| matches!(*op, Op::Set(sq, c) if sq == to && c.is_empty()))
        {
            return None;
        }
        Some(s.mark(to) & BLOCK != 0 || to == s.checker)
    }

    /// The verdict on a simple move read from its header, where its piece, a live non-royal
    /// one of `side`, leaves a square that is neither royal nor pinned for one that is not
    /// royal: safe when not in check ([`Rules::proven_safe`]); in check, on a board of at most
    /// 64 squares, safe exactly when it blocks every check or takes the one piece giving it
    /// ([`Rules::evasion_safe`]). `None` for other moves: the general test must decide.
    #[inline(always)]
    fn simple_verdict(&self, s: &Safety, m: &crate::engine::Move, side: PlayerId) -> Option<bool> {
        let (c, from, to) = (m.cell, m.sq[0], m.sq[1]);
        // The tests of the squares first: most moves that fail fail there.
        if !(m.simple && (s.proven || s.blockable && s.word))
            || s.word && ((s.king_set | s.pinned_set) >> from | s.king_set >> to) & 1 != 0
            || c.is_empty()
            || c.owner != side.0
            || c.marks & DEAD != 0
            || self.royal[c.piece as usize - 1]
        {
            return None;
        }
        if !s.word {
            return (s.marks[from as usize] & (KING | PINNED) | s.marks[to as usize] & KING == 0)
                .then_some(true);
        }
        if s.proven {
            Some(true)
        } else {
            // A piece that comes back to its own square places nothing.
            (from != to).then_some(s.block_set >> to & 1 != 0 || to == s.checker)
        }
    }

    /// A move of `out` judged: [`Rules::simple_verdict`], else [`Rules::move_safe`].
    #[inline(always)]
    fn judge(
        &self,
        s: &mut Safety,
        log: &mut crate::engine::UndoLog,
        pos: &mut Position,
        out: &MoveList,
        m: &crate::engine::Move,
        side: PlayerId,
    ) -> bool {
        match self.simple_verdict(s, m, side) {
            Some(safe) => safe,
            None => self.judge_rest(s, log, pos, out, m, side),
        }
    }

    /// A move of `out` that [`Rules::simple_verdict`] does not judge: the royal piece's step
    /// ([`Rules::step_verdict`]), other simple moves over square sets
    /// ([`Rules::sets_verdict`]), else [`Rules::move_safe`].
    #[inline]
    fn judge_rest(
        &self,
        s: &mut Safety,
        log: &mut crate::engine::UndoLog,
        pos: &mut Position,
        out: &MoveList,
        m: &crate::engine::Move,
        side: PlayerId,
    ) -> bool {
        match self.step_verdict(s, pos, m, side) {
            Some(safe) => safe,
            None => match self.sets_verdict(s, pos, m, side) {
                Some(safe) => safe,
                None => self.move_safe(s, log, pos, out, m, side),
            },
        }
    }

    /// Whether the examined position proves a move safe without playing it.
    #[inline]
    fn proven_safe(&self, s: &Safety, pos: &Position, side: PlayerId, ops: &[Op]) -> bool {
        let mut emptied = 0;
        for op in ops {
            if let Op::Set(sq, c) = *op {
                let mark = s.mark(sq);
                if c.is_empty() {
                    if !pos.cells[sq as usize].is_empty() {
                        emptied += 1;
                        if emptied > 1 || mark & PINNED != 0 {
                            return false;
                        }
                    }
                } else if c.owner != side.0
                    || c.marks & DEAD != 0
                    || self.royal[c.piece as usize - 1]
                {
                    return false;
                }
                if mark & KING != 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Keeps the moves of `out` that leave no royal piece of the side to move attacked.
    pub(super) fn royal_filter(
        &self,
        s: &mut Safety,
        log: &mut crate::engine::UndoLog,
        pos: &mut Position,
        out: &mut MoveList,
    ) {
        let side = self.entry(pos.turn).owner;
        if !std::mem::take(&mut s.examined) {
            self.examine_safety(pos, side, s);
        }
        // The indexes of the moves dropped, in order (few).
        let mut dropped = std::mem::take(&mut s.dropped);
        dropped.clear();
        if s.word && s.proven {
            // Not in check, on a board of at most 64 squares: `Rules::simple_verdict` keeps a
            // simple move of a live non-royal piece of the mover from a square that is neither
            // royal nor pinned to one that is not royal; the rest are judged one by one. Its
            // test is written out here with the sets read once (calling `judge` for every
            // move costs chess perft 4 1.5% more instructions).
            let (stay, kings) = (s.king_set | s.pinned_set, s.king_set);
            for (i, m) in out.moves.iter().enumerate() {
                let c = m.cell;
                let kept = m.simple
                    && (stay >> m.sq[0] | kings >> m.sq[1]) & 1 == 0
                    && !c.is_empty()
                    && c.owner == side.0
                    && c.marks & DEAD == 0
                    && !self.royal[c.piece as usize - 1];
                if !kept && !self.judge_rest(s, log, pos, out, m, side) {
                    dropped.push(i as u32);
                }
            }
        } else {
            for (i, m) in out.moves.iter().enumerate() {
                if !self.judge(s, log, pos, out, m, side) {
                    dropped.push(i as u32);
                }
            }
        }
        // The moves between two dropped ones move down as one block each.
        if let Some(&first) = dropped.first() {
            let moves = &mut out.moves;
            let mut at = first as usize;
            for (j, &d) in dropped.iter().enumerate() {
                let end = dropped.get(j + 1).map_or(moves.len(), |&e| e as usize);
                moves.copy_within(d as usize + 1..end, at);
                at += end - d as usize - 1;
            }
            moves.truncate(at);
        }
        s.dropped = dropped;
    }

    /// [`Rules::royal_filter`] keeping only the moves that capture or promote (and, with
    /// `drops`, the drops: only the checking ones were generated); the others are judged only
    /// until one is safe. Returns whether one of them is.
    pub(super) fn royal_filter_captures(
        &self,
        s: &mut Safety,
        keep: &mut Vec<bool>,
        log: &mut crate::engine::UndoLog,
        pos: &mut Position,
        out: &mut MoveList,
        drops: bool,
    ) -> bool {
        let side = self.entry(pos.turn).owner;
        self.examine_safety(pos, side, s);
        keep.clear();
        let mut other = false;
        for m in &out.moves {
            if m.n_captures() > 0 || m.promote != 0 || drops && m.drop != 0 {
                keep.push(self.judge(s, log, pos, out, m, side));
            } else {
                other = other || self.judge(s, log, pos, out, m, side);
                keep.push(false);
            }
        }
        let mut k = keep.iter();
        out.retain(|_| k.next().copied().unwrap_or(false));
        other
    }

    /// Marks in `scratch.check_mask` the drops of `side` (type and square) whose piece would
    /// attack a royal piece of another side by a leap or a slide of the attack tables.
    /// Returns whether any is marked (false without usable tables).
    pub(super) fn mark_checking_drops(
        &self,
        pos: &Position,
        side: PlayerId,
        scratch: &mut crate::engine::exec::Scratch,
    ) -> bool {
        let a = &self.attacks;
        let n_pos = pos.cells.len();
        let n_pieces = self.def.pieces.len();
        let mask = &mut scratch.check_mask;
        for &i in &scratch.check_marked {
            mask[i as usize] = false;
        }
        scratch.check_marked.clear();
        if !a.usable {
            return false;
        }
        mask.resize(n_pieces * n_pos, false);
        let n_dirs = self.def.board.directions.len();
        let pl = side.idx();
        let mut mark = |piece: usize, sq: u16| {
            let i = piece * n_pos + sq as usize;
            if !mask[i] {
                mask[i] = true;
                scratch.check_marked.push(i as u32);
            }
        };
        for (k, c) in pos.cells.iter().enumerate() {
            if c.is_empty() || c.owner == side.0 || !self.royal[c.piece as usize - 1] {
                continue;
            }
            for &(src, piece) in &a.leap_to[pl * n_pos + k] {
                if pos.cells[src as usize].is_empty() {
                    mark(piece as usize, src);
                }
            }
            for (d, pieces) in &a.slides[pl] {
                let base = (pl * n_dirs + d.idx()) * n_pos;
                let mut q = a.rev[base + k];
                while q != NONE && pos.cells[q as usize].is_empty() {
                    for (t, _) in pieces.iter().enumerate().filter(|(_, on)| **on) {
                        mark(t, q);
                    }
                    q = a.rev[base + q as usize];
                }
            }
        }
        !scratch.check_marked.is_empty()
    }

    /// Whether a move of `out` leaves the royal pieces of `side` (examined in `s`) safe.
    #[inline]
    fn move_safe(
        &self,
        s: &mut Safety,
        log: &mut crate::engine::UndoLog,
        pos: &mut Position,
        out: &MoveList,
        m: &crate::engine::Move,
        side: PlayerId,
    ) -> bool {
        if m.simple && s.kings.len() == 1 && self.config.legality {
            // In check, a move of another piece than the king is answered by `evasion_safe`.
            if self.attacks.bits.is_some() && s.word && (!s.blockable || m.sq[0] == s.kings[0]) {
                return self.simple_safe(s, log, pos, out, m, side);
            }
        }
        let ops = out.ops(m);
        if s.proven && self.proven_safe(s, pos, side, &ops) {
            return true;
        }
        if s.blockable {
            if let Some(safe) = self.drop_blocks(s, pos, side, &ops) {
                return safe;
            }
            if let Some(safe) = self.evasion_safe(s, pos, side, &ops) {
                return safe;
            }
        }
        if !self.config.legality {
            // The reference: play the move and look for royal pieces over the whole board.
            self.make_ops(pos, out, m, log);
            let safe = !self.royal_attacked(pos, side);
            crate::engine::revert(pos, log);
            return safe;
        }
        // The royal squares the move leaves.
        s.after.clear();
        s.after.extend_from_slice(&s.kings);
        for op in ops.iter() {
            if let Op::Set(sq, c) = *op {
                s.after.retain(|&k| k != sq);
                if self.royal_of(c, side) {
                    s.after.push(sq);
                }
            }
        }
        if m.simple && self.attacks.usable {
            // Its two cell writes laid over the board: the tables' answer without playing it.
            if let Some(attacked) = self.any_attacked_after_simple(s, pos, side, m) {
                return !attacked;
            }
        }
        self.trial_safe(s, log, pos, out, m, side)
    }

    /// Plays `m` and tests the royal squares it leaves (`Safety::after`).
    fn trial_safe(
        &self,
        s: &Safety,
        log: &mut crate::engine::UndoLog,
        pos: &mut Position,
        out: &MoveList,
        m: &crate::engine::Move,
        side: PlayerId,
    ) -> bool {
        self.make_ops(pos, out, m, log);
        let safe = !s
            .after
            .iter()
            .any(|&k| self.attacked(pos, k, side, None, true));
        crate::engine::revert(pos, log);
        safe
    }

    /// [`Rules::move_safe`] of a simple move with one royal piece examined, on a board the
    /// attack tables hold as square sets: the royal squares it leaves are found from its two
    /// squares, without its ops, and tested over the sets; a live irregular attacker sends it
    /// to the trial move.
    fn simple_safe(
        &self,
        s: &mut Safety,
        log: &mut crate::engine::UndoLog,
        pos: &mut Position,
        out: &MoveList,
        m: &crate::engine::Move,
        side: PlayerId,
    ) -> bool {
        let (king, from, to) = (s.kings[0], m.sq[0], m.sq[1]);
        s.after.clear();
        if king != from && king != to {
            s.after.push(king);
        }
        if self.royal_of(m.cell, side) {
            s.after.push(to);
        }
        match self.any_attacked_after_simple(s, pos, side, m) {
            Some(attacked) => !attacked,
            None => self.trial_safe(s, log, pos, out, m, side),
        }
    }
}

impl Rules {
    /// For counting (`Rules::count_legal`): whether the one royal piece of `side` (examined in
    /// `s`) may step from `from` to `to` with the simple move whose cell is `cell`, as
    /// [`Rules::simple_safe`] judges it; `None` where that would play the move.
    pub(super) fn royal_step_safe(
        &self,
        s: &mut Safety,
        pos: &Position,
        side: PlayerId,
        (from, to): (u16, u16),
        cell: Cell,
    ) -> Option<bool> {
        let bits = self.attacks.bits.is_some() && self.config.legality;
        if !bits || s.one_king() != Some(from) || from == to {
            return None;
        }
        s.after.clear();
        s.after.push(to);
        let m = crate::engine::Move {
            simple: true,
            sq: [from, to, NONE],
            cell,
            ..Default::default()
        };
        if let Some(safe) = self.step_verdict(s, pos, &m, side) {
            return Some(safe);
        }
        self.any_attacked_after_simple(s, pos, side, &m)
            .map(|attacked| !attacked)
    }

    /// After a simple move of `m` (its from-square emptied, its destination written) and
    /// without playing it: whether a piece of another side than `side` attacks one of the
    /// squares `royal` by a leap or a slide of the tables. `None` when none does but an enemy
    /// piece stands where one of its irregular blocks could reach one of them (those blocks
    /// run as programs on the played position).
    fn any_attacked_after_simple(
        &self,
        s: &Safety,
        pos: &Position,
        side: PlayerId,
        m: &crate::engine::Move,
    ) -> Option<bool> {
        let a = &self.attacks;
        let royal = &s.after[..];
        let (from, to) = (m.sq[0] as usize, m.sq[1] as usize);
        let cell = |q: usize| {
            if q == to {
                m.cell
            } else if q == from {
                Cell::EMPTY
            } else {
                pos.cells[q]
            }
        };
        let n_pos = self.def.board.n_pos();
        let mut irregular = false;
        for &k in royal {
            let k = k as usize;
            for pl in 0..self.def.players.len() {
                if pl == side.idx() {
                    continue;
                }
                if let Some(bits) = a.bits.as_ref().filter(|_| s.word) {
                    let (hit, live) = self.bits_hit(bits, s, pos, pl, k, m);
                    if hit {
                        return Some(true);
                    }
                    irregular |= live;
                    continue;
                }
                if self.leap_or_slide_hits(pl, k, cell) {
                    return Some(true);
                }
                irregular = irregular
                    || a.royal_irregular(pl * n_pos + k)
                        .iter()
                        .any(|&(start, piece, _)| {
                            let c = cell(start as usize);
                            !c.is_empty()
                                && c.owner as usize == pl
                                && c.marks & DEAD == 0
                                && c.piece == piece + 1
                        });
            }
        }
        (!irregular).then_some(false)
    }
}
