//! Emitting moves: what an `add` writes (one move per promotion choice, the pending effects
//! turned into board writes, simple moves whole in their header) into the move list.

use super::{Exec, BLOCK_MOVE_LIMIT};
use crate::def::{AddSpec, PieceId, PlayerId, NONE};
use crate::engine::moves::{Cut, Move, MoveList, Op};
use crate::engine::position::{Cell, Position, DEAD};
use crate::engine::scratch::{Pending, Scratch};
use crate::engine::special::{head_of, Adder};

impl Exec<'_> {
    /// Emits the move (one per promotion choice) that the block describes at this point.
    pub(super) fn add(&mut self, spec: &AddSpec, s: &mut Scratch, out: &mut MoveList) {
        if out.moves.len().saturating_sub(self.first_move) >= BLOCK_MOVE_LIMIT {
            out.note_cut(Cut::BlockMoves);
            self.stop = true;
            return;
        }
        let dest = if self.to == NONE { self.cp } else { self.to };
        if spec.promote.is_empty() {
            self.emit(spec, None, dest, s, out);
        } else {
            for &t in &spec.promote {
                self.emit(spec, Some(t), dest, s, out);
            }
        }
        // A `create` belongs to the move it was added with: the moves the block adds later
        // do not repeat it (a Zillions Focus record: a piece sent to the reserve while one
        // drop target was tried does not appear with the drops tried after it).
        s.pending.retain(|p| !matches!(p, Pending::Create(..)));
    }

    fn emit(
        &mut self,
        spec: &AddSpec,
        promote: Option<PieceId>,
        dest: u16,
        s: &mut Scratch,
        out: &mut MoveList,
    ) {
        let rules = self.rules;
        if rules.config.simple_moves
            && s.subs.is_empty()
            && self.drop.is_none()
            && !spec.copy
            && self.target == NONE
            && (!rules.def.options.recycle_captures
                // Recycling changes nothing when nothing is captured.
                || (s.pending.is_empty() && (dest == self.from || self.cell(dest).is_empty())))
            && self.from != NONE
            && !self.cell(self.from).is_empty()
        {
            if s.pending.iter().all(|p| matches!(p, Pending::Capture(_))) {
                let caps = s.pending.iter().map(|p| match *p {
                    Pending::Capture(q) => q,
                    _ => NONE,
                });
                self.emit_simple_call(&head_of(spec), promote, dest, caps, out);
                return;
            }
            if let Some(attrs) = self.landing_attrs(dest, s) {
                self.emit_simple_attrs(&head_of(spec), promote, dest, attrs, out);
                return;
            }
        }
        let n_pieces = rules.def.pieces.len() as u32;
        // With deferred captures the victims stay, marked, until the whole turn is assembled.
        let deferred = rules.deferred;
        s.captured.clear();
        s.replaced.clear();
        let op_lo = out.ops.len();
        // 1. Every sub-move lifts its piece from the snapshot, then all are placed.
        let main = (self.from, dest);
        let n_subs = s.subs.len();
        if n_subs == 0 {
            // One piece moves (the usual case): the same writes, without searching the ops.
            let (f, t) = main;
            if f != NONE && !spec.copy {
                out.ops.push(Op::Set(f, Cell::EMPTY));
            }
            let cell = if f == NONE {
                self.drop
                    .map(|p| Cell::new(p, self.side, rules.attr_defaults[p.idx()]))
            } else {
                Some(self.cell(f))
            };
            if let Some(mut cell) = cell.filter(|c| !c.is_empty()) {
                if let Some(p) = promote {
                    cell.piece = p.0 + 1;
                }
                // A piece moving onto its own square captures nothing.
                if t != f {
                    let occupant = self.cell(t);
                    if !occupant.is_empty() {
                        s.captured.push((t, occupant));
                    }
                }
                out.ops.push(Op::Set(t, cell));
            }
        } else {
            let moving = |i: usize| if i < n_subs { s.subs[i] } else { main };
            for i in 0..=n_subs {
                let (f, _) = moving(i);
                if f != NONE && !(spec.copy && i == n_subs) {
                    out.ops.push(Op::Set(f, Cell::EMPTY));
                }
            }
            for i in 0..=n_subs {
                let (f, t) = moving(i);
                let mut cell = if f == NONE {
                    match self.drop {
                        Some(p) if i == n_subs => {
                            Cell::new(p, self.side, rules.attr_defaults[p.idx()])
                        }
                        _ => continue,
                    }
                } else {
                    self.cell(f)
                };
                if cell.is_empty() {
                    continue;
                }
                if i == n_subs {
                    if let Some(p) = promote {
                        cell.piece = p.0 + 1;
                    }
                }
                let occupant = match current_op(&out.ops[op_lo..], t) {
                    Some(c) => c,
                    None => self.cell(t),
                };
                let lifted = (0..=n_subs).any(|j| moving(j).0 == t);
                if !occupant.is_empty() && !lifted {
                    s.captured.push((t, occupant));
                }
                out.ops.push(Op::Set(t, cell));
            }
        }
        // 2. Pending effects in program order, each on the cell as it is by then.
        for k in 0..s.pending.len() {
            match s.pending[k] {
                Pending::Capture(p) => {
                    let c = current_op(&out.ops[op_lo..], p).unwrap_or_else(|| self.cell(p));
                    if !c.is_empty() {
                        s.captured.push((p, c));
                        if deferred {
                            out.ops.push(Op::Set(
                                p,
                                Cell {
                                    marks: c.marks | DEAD,
                                    ..c
                                },
                            ));
                        } else {
                            out.ops.push(Op::Set(p, Cell::EMPTY));
                        }
                    }
                }
                Pending::ChangeType(p, t) => {
                    let c = current(&out.ops[op_lo..], p, self.pos);
                    if !c.is_empty() {
                        out.ops.push(Op::Set(
                            p,
                            Cell {
                                piece: t.0 + 1,
                                ..c
                            },
                        ));
                    }
                }
                Pending::Owner(p, o) => {
                    let c = current(&out.ops[op_lo..], p, self.pos);
                    if !c.is_empty() {
                        out.ops.push(Op::Set(p, Cell { owner: o, ..c }));
                    }
                }
                Pending::Flip(p) => {
                    let c = current(&out.ops[op_lo..], p, self.pos);
                    if !c.is_empty() {
                        let n = rules.def.players.len().max(1) as u8;
                        out.ops.push(Op::Set(
                            p,
                            Cell {
                                owner: (c.owner + 1) % n,
                                ..c
                            },
                        ));
                    }
                }
                Pending::Attr(p, a, v) => {
                    let c = current(&out.ops[op_lo..], p, self.pos);
                    if !c.is_empty() {
                        let bit = a.bit();
                        let attrs = if v { c.attrs | bit } else { c.attrs & !bit };
                        out.ops.push(Op::Set(p, Cell { attrs, ..c }));
                    }
                }
                Pending::Create(p, owner, piece) => {
                    let kind = piece.or_else(|| {
                        let (f, _) = main;
                        if f == NONE {
                            self.drop
                        } else {
                            self.cell(f).piece_id()
                        }
                    });
                    if let Some(kind) = kind {
                        if rules.def.options.recycle_captures {
                            // The piece a creation replaces leaves the board as a capture
                            // does: a Zillions record of MarGo drops its one marker every
                            // turn, and each drop's `create` covers it.
                            let c = current(&out.ops[op_lo..], p, self.pos);
                            if !c.is_empty() {
                                s.replaced.push(c);
                            }
                        }
                        out.ops.push(Op::Set(
                            p,
                            Cell::new(kind, PlayerId(owner), rules.attr_defaults[kind.idx()]),
                        ));
                    }
                }
                Pending::Counter(slot, value) => {
                    let old = self.pos.counters[slot as usize] as i64;
                    let delta = value.clamp(i32::MIN as i64, i32::MAX as i64) - old;
                    out.ops.push(Op::Counter(slot, delta as i32));
                }
            }
        }
        // 3. Stores: a drop takes a piece from the store; recycled captures go back to their owner's.
        if let Some(p) = self.drop {
            out.ops
                .push(Op::Store(self.side.0 as u32 * n_pieces + p.0 as u32, -1));
        }
        if rules.def.options.recycle_captures {
            for c in s
                .captured
                .iter()
                .map(|&(_, c)| c)
                .chain(s.replaced.iter().copied())
            {
                if c.piece == u16::MAX {
                    continue; // the imagined defender of an attack test
                }
                let (owner, piece) = rules.recycled(c, self.side);
                out.ops
                    .push(Op::Store(owner as u32 * n_pieces + piece as u32, 1));
            }
        }
        if self.target != NONE {
            // Attack test: only whether the target is captured matters.
            if s.captured.iter().any(|&(p, _)| p == self.target) {
                self.hit = true;
            }
            out.ops.truncate(op_lo);
            return;
        }
        // The path follows the piece that started the move: with cascades (castling, pushes)
        // that is the first sub-move's piece.
        let (pf, pt) = if n_subs > 0 {
            s.subs[0]
        } else {
            (self.from, dest)
        };
        let path_lo = out.squares.len() as u32;
        out.squares.push(pf);
        out.squares.push(pt);
        let path_hi = out.squares.len() as u32;
        for &(p, _) in &s.captured {
            out.squares.push(p);
        }
        let piece = match self.drop {
            Some(p) => p.0 + 1,
            None if pf != NONE => self.cell(pf).piece,
            None => 0,
        };
        let drop = self.drop.map_or(0, |p| p.0 + 1);
        self.push_move(spec, promote, (op_lo, path_lo, path_hi), drop, piece, out);
    }

    /// Closes the move whose ops start at `op_lo` and whose path is `path_lo..path_hi` (the
    /// captured squares follow up to the end of `out.squares`).
    #[inline(always)]
    fn push_move(
        &self,
        spec: &AddSpec,
        promote: Option<PieceId>,
        span: (usize, u32, u32),
        drop: u16,
        piece: u16,
        out: &mut MoveList,
    ) {
        let head = head_of(spec);
        self.push_head(&head, promote, span, drop, piece, out);
    }

    /// When every pending effect is an attribute setting that either lands on `dest` (the
    /// moving piece as it lands) or changes nothing (on the square the piece leaves, or on an
    /// empty square): the bits they set and clear on the landing piece, in program order, so
    /// that the move is written as a simple one with that cell (`(set-attribute
    /// never-moved? false) add`, as a rook or king moves).
    fn landing_attrs(&self, dest: u16, s: &Scratch) -> Option<(u32, u32)> {
        let (mut set, mut clear) = (0u32, 0u32);
        for p in &s.pending {
            let Pending::Attr(q, a, v) = *p else {
                return None;
            };
            if q == dest {
                let bit = a.bit();
                if v {
                    set |= bit;
                    clear &= !bit;
                } else {
                    clear |= bit;
                    set &= !bit;
                }
            } else if q != self.from && !self.cell(q).is_empty() {
                return None;
            }
        }
        Some((set, clear))
    }

    /// [`Exec::push_move`] given the header fields the add fixes ([`head_of`]).
    #[inline(always)]
    fn push_head(
        &self,
        head: &Move,
        promote: Option<PieceId>,
        (op_lo, path_lo, path_hi): (usize, u32, u32),
        drop: u16,
        piece: u16,
        out: &mut MoveList,
    ) {
        out.moves.push(Move {
            op_lo: op_lo as u32,
            op_hi: out.ops.len() as u32,
            path_lo,
            path_hi,
            cap_hi: out.squares.len() as u32,
            drop,
            piece,
            promote: promote.map_or(0, |p| p.0 + 1),
            move_type: self.move_type,
            ..*head
        });
    }
}

impl Exec<'_> {
    /// What a run of a drop block ends with when its prefix has passed and it then only adds
    /// (`a`, [`super::super::special::Seq::lone_add`]) a piece of type `p` on the empty
    /// current square (the run began at `start`): the run's state as `Exec::run_set_up` leaves it, the ops, path and
    /// header that [`Exec::emit`] writes for that drop, and the run's work.
    pub(super) fn emit_drop(
        &mut self,
        block: &crate::def::Block,
        (a, start, p): (&Adder, u16, PieceId),
        s: &mut Scratch,
        out: &mut MoveList,
    ) {
        let rules = self.rules;
        let dest = self.cp;
        (self.from, self.to, self.mark, self.flags, self.steps) = (NONE, NONE, start, 0, 0);
        self.drop = Some(p);
        self.move_type = block.move_type.map_or(u16::MAX, |t| t.0);
        self.first_move = out.moves.len();
        self.stop = false;
        s.pending.clear();
        s.subs.clear();
        // The run's first move: `BLOCK_MOVE_LIMIT` is not reached.
        let n_pieces = rules.def.pieces.len() as u32;
        let op_lo = out.ops.len();
        let cell = Cell::new(p, self.side, rules.attr_defaults[p.idx()]);
        out.ops.push(Op::Set(dest, cell));
        out.ops
            .push(Op::Store(self.side.0 as u32 * n_pieces + p.0 as u32, -1));
        let path_lo = out.squares.len() as u32;
        out.squares.push(NONE);
        out.squares.push(dest);
        let path_hi = out.squares.len() as u32;
        let piece = p.0 + 1;
        self.push_head(&a.head, None, (op_lo, path_lo, path_hi), piece, piece, out);
        s.work = s.work.saturating_add(rules.special.weight(block) as u64);
    }

    /// The simple move's start: the piece's square, its cell, the cell it lands as (promoted to
    /// `promote`), and whether `dest` holds a piece it captures (not the mover itself).
    #[inline(always)]
    fn moving(&self, promote: Option<PieceId>, dest: u16) -> (u16, Cell, Cell, bool) {
        let from = self.from;
        let cells = &self.pos.cells;
        let original = cells[from as usize];
        let mut cell = original;
        if let Some(p) = promote {
            cell.piece = p.0 + 1;
        }
        let taken = dest != from && !cells[dest as usize].is_empty();
        (from, original, cell, taken)
    }

    /// [`Exec::emit`] for the common move: one piece (standing on `from`) goes to `dest`,
    /// capturing what stands there and the pending captures; no cascade, drop, copy, store or
    /// attack test. The same ops, path and captured squares, in the same order, written
    /// straight into `out`. Inlined into [`Exec::add_straight`], generation's hot path.
    #[inline(always)]
    fn emit_simple(
        &mut self,
        head: &Move,
        promote: Option<PieceId>,
        dest: u16,
        caps: impl Iterator<Item = u16>,
        (set, clear): (u32, u32),
        out: &mut MoveList,
    ) {
        // Both callers run outside attack tests, so `Exec::cell` is the board's cell.
        debug_assert_eq!(self.target, NONE);
        let (from, original, mut cell, taken) = self.moving(promote, dest);
        cell.attrs = cell.attrs & !clear | set;
        let mut caps = caps.peekable();
        if caps.peek().is_none()
            && !head.partial
            && !head.must_continue
            && head.finally == 0
            && !(taken && self.rules.deferred)
        {
            // A simple move: all in its header (chains never continue it, and it leaves no
            // deferred capture to remove).
            out.moves.push(Move {
                simple: true,
                sq: [from, dest, dest],
                cell,
                cap_hi: taken as u32,
                piece: original.piece,
                promote: promote.map_or(0, |p| p.0 + 1),
                move_type: self.move_type,
                ..*head
            });
            return;
        }
        let op_lo = out.ops.len();
        let path_lo = out.squares.len() as u32;
        let path_hi = path_lo + 2;
        // The path, then the captured destination, written at once.
        out.squares.extend_from_slice(&[from, dest, dest]);
        if !taken {
            out.squares.pop();
        }
        out.ops
            .extend_from_slice(&[Op::Set(from, Cell::EMPTY), Op::Set(dest, cell)]);
        for p in caps {
            if p == NONE {
                continue;
            }
            let c = current_op(&out.ops[op_lo..], p).unwrap_or_else(|| self.cell(p));
            if !c.is_empty() {
                out.squares.push(p);
                let after = if self.rules.deferred {
                    Cell {
                        marks: c.marks | DEAD,
                        ..c
                    }
                } else {
                    Cell::EMPTY
                };
                out.ops.push(Op::Set(p, after));
            }
        }
        self.push_head(
            head,
            promote,
            (op_lo, path_lo, path_hi),
            0,
            original.piece,
            out,
        );
    }
}

impl Exec<'_> {
    /// [`Exec::emit_simple`], not inlined (the general `add`).
    #[inline(never)]
    fn emit_simple_call(
        &mut self,
        head: &Move,
        promote: Option<PieceId>,
        dest: u16,
        caps: impl Iterator<Item = u16>,
        out: &mut MoveList,
    ) {
        self.emit_simple(head, promote, dest, caps, (0, 0), out);
    }

    /// [`Exec::emit_simple`] with no captures but the landing piece's attribute bits set and
    /// cleared ([`Exec::landing_attrs`]).
    #[inline(never)]
    fn emit_simple_attrs(
        &mut self,
        head: &Move,
        promote: Option<PieceId>,
        dest: u16,
        attrs: (u32, u32),
        out: &mut MoveList,
    ) {
        self.emit_simple(head, promote, dest, std::iter::empty(), attrs, out);
    }

    /// `add` in a straight block run by generation (`Exec::run_straight`): the piece on
    /// `self.from` goes to the current square, capturing `caps`, as [`Exec::emit_simple`]
    /// writes it (the caller has checked what `emit` checks before choosing it). False when
    /// the block has reached [`BLOCK_MOVE_LIMIT`] and stops, as `add` stops it.
    #[inline]
    pub(super) fn add_straight<const RECYCLE: bool>(
        &mut self,
        add: &Adder,
        caps: &[u16],
        out: &mut MoveList,
    ) -> bool {
        if out.moves.len().saturating_sub(self.first_move) >= BLOCK_MOVE_LIMIT {
            out.note_cut(Cut::BlockMoves);
            return false;
        }
        let dest = self.cp;
        if RECYCLE
            && (!caps.is_empty()
                || (dest != self.from && !self.pos.cells[dest as usize].is_empty()))
        {
            // A capture under recycling: what `emit` writes past its simple path.
            if add.promote.is_empty() {
                self.emit_recycled(&add.head, None, dest, caps, out);
            } else {
                for &t in &add.promote {
                    self.emit_recycled(&add.head, Some(t), dest, caps, out);
                }
            }
            return true;
        }
        if let (Some(head), true) = (&add.simple, caps.is_empty()) {
            // The usual move: one piece to an empty square or onto an enemy, all in its
            // header (as `emit_simple` writes it).
            if self.push_simple(head, self.move_type, self.from, dest, out) {
                return true;
            }
        }
        if add.promote.is_empty() {
            self.emit_simple_call(&add.head, None, dest, caps.iter().copied(), out);
        } else {
            // One move per promotion choice (rarer: not inlined).
            for &t in &add.promote {
                self.emit_simple_call(&add.head, Some(t), dest, caps.iter().copied(), out);
            }
        }
        true
    }

    /// [`Exec::add_straight`] with one capture, `cap` (on the board), as a draughts jump
    /// writes it (`Exec::run_jump`): the same move as `emit_simple` writes, assembled
    /// without its loop over captures.
    #[inline(never)]
    pub(super) fn add_jump(&mut self, add: &Adder, cap: u16, out: &mut MoveList) {
        if out.moves.len().saturating_sub(self.first_move) >= BLOCK_MOVE_LIMIT {
            out.note_cut(Cut::BlockMoves);
            return;
        }
        match add.promote.as_slice() {
            [] => self.emit_jump(&add.head, None, cap, out),
            [t] => self.emit_jump(&add.head, Some(*t), cap, out),
            more => {
                for &t in more {
                    self.emit_jump(&add.head, Some(t), cap, out);
                }
            }
        }
    }

    /// [`Exec::emit_simple`] of the piece on `self.from` to the current square with the one
    /// capture `cap` (its ops, path and captured squares, in the same order).
    #[inline(always)]
    fn emit_jump(&mut self, head: &Move, promote: Option<PieceId>, cap: u16, out: &mut MoveList) {
        debug_assert_eq!(self.target, NONE);
        let dest = self.cp;
        let (from, original, cell, taken) = self.moving(promote, dest);
        // The captured square as the move's first two writes leave it.
        let c = if cap == dest {
            cell
        } else if cap == from {
            Cell::EMPTY
        } else {
            self.pos.cells[cap as usize]
        };
        let op_lo = out.ops.len();
        let path_lo = out.squares.len() as u32;
        let mut squares = [from, dest, dest, cap];
        let mut n_sq = 3;
        if !taken {
            squares[2] = cap;
            n_sq = 2;
        }
        let mut ops = [
            Op::Set(from, Cell::EMPTY),
            Op::Set(dest, cell),
            Op::Set(cap, Cell::EMPTY),
        ];
        let mut n_ops = 2;
        if !c.is_empty() {
            if self.rules.deferred {
                ops[2] = Op::Set(
                    cap,
                    Cell {
                        marks: c.marks | DEAD,
                        ..c
                    },
                );
            }
            n_sq += 1;
            n_ops = 3;
        }
        // Written whole (a copy of fixed size), then cut to length.
        out.squares.extend_from_slice(&squares);
        out.squares.truncate(path_lo as usize + n_sq);
        out.ops.extend_from_slice(&ops);
        out.ops.truncate(op_lo + n_ops);
        self.push_head(
            head,
            promote,
            (op_lo, path_lo, path_lo + 2),
            0,
            original.piece,
            out,
        );
    }
}

impl Exec<'_> {
    /// [`Exec::emit`]'s general path for a capture by a straight block under `"recycle
    /// captures"` without deferred captures (`Exec::add_straight`): the piece on `self.from`
    /// goes to `dest`, capturing what stands there and then `caps`, and each captured piece
    /// goes to its store; the same ops, path and captured squares in the same order.
    #[inline(never)]
    fn emit_recycled(
        &mut self,
        head: &Move,
        promote: Option<PieceId>,
        dest: u16,
        caps: &[u16],
        out: &mut MoveList,
    ) {
        let rules = self.rules;
        let n_pieces = rules.def.pieces.len() as u32;
        let from = self.from;
        let op_lo = out.ops.len();
        // The pieces taken, in capture order (at most the destination's and the block's
        // captures, `MAX_STRAIGHT_CAPTURES`).
        let mut taken = [(NONE, Cell::EMPTY); 16];
        let mut n = 0;
        out.ops.push(Op::Set(from, Cell::EMPTY));
        let moving = self.pos.cells[from as usize];
        if !moving.is_empty() {
            let mut cell = moving;
            if let Some(p) = promote {
                cell.piece = p.0 + 1;
            }
            if dest != from {
                let occupant = self.pos.cells[dest as usize];
                if !occupant.is_empty() {
                    taken[n] = (dest, occupant);
                    n += 1;
                }
            }
            out.ops.push(Op::Set(dest, cell));
        }
        for &p in caps {
            let c = current_op(&out.ops[op_lo..], p).unwrap_or(self.pos.cells[p as usize]);
            if !c.is_empty() && n < taken.len() {
                taken[n] = (p, c);
                n += 1;
                out.ops.push(Op::Set(p, Cell::EMPTY));
            }
        }
        for &(_, c) in &taken[..n] {
            if c.piece != u16::MAX {
                let (owner, piece) = rules.recycled(c, self.side);
                out.ops
                    .push(Op::Store(owner as u32 * n_pieces + piece as u32, 1));
            }
        }
        let path_lo = out.squares.len() as u32;
        out.squares.push(from);
        out.squares.push(dest);
        let path_hi = out.squares.len() as u32;
        for &(p, _) in &taken[..n] {
            out.squares.push(p);
        }
        self.push_head(
            head,
            promote,
            (op_lo, path_lo, path_hi),
            0,
            moving.piece,
            out,
        );
    }

    /// [`Exec::push_simple`] out of line (the generation loop's rows: its registers stay
    /// on the loop).
    #[inline(never)]
    pub(super) fn push_simple_call(
        &mut self,
        head: &Move,
        move_type: u16,
        from: u16,
        dest: u16,
        out: &mut MoveList,
    ) -> bool {
        self.push_simple(head, move_type, from, dest, out)
    }

    /// Writes the simple move (`Move::simple`) of the piece on `from` to `dest`, from the
    /// header `head` an [`Adder`] made at load, as [`Exec::emit_simple`] writes it with no
    /// pending captures; false (nothing written) when it captures on `dest` and captures are
    /// deferred, which `emit_simple` writes in full.
    #[inline(always)]
    pub(super) fn push_simple(
        &mut self,
        head: &Move,
        move_type: u16,
        from: u16,
        dest: u16,
        out: &mut MoveList,
    ) -> bool {
        let cells = &self.pos.cells;
        let (Some(&original), Some(&there)) = (cells.get(from as usize), cells.get(dest as usize))
        else {
            return false;
        };
        let taken = dest != from && !there.is_empty();
        if taken && self.rules.deferred {
            return false;
        }
        if !taken && head.promote == 0 && self.quiet_left != u32::MAX {
            // A quiet move in a search for captures: written while the first few are.
            if self.quiet_left == 0 {
                self.quiet_skipped += 1;
                return true;
            }
            self.quiet_left -= 1;
        }
        // The header is copied whole, then its move's fields are written in place.
        out.moves.push(*head);
        let Some(m) = out.moves.last_mut() else {
            return false;
        };
        fill_simple(m, move_type, [from, dest], original, taken);
        true
    }

    /// The quiet simple moves (`Move::simple`, capturing nothing) of the piece on `from` to
    /// each of the empty squares `dests` in turn, from the header `head`: what
    /// [`Exec::push_simple`] writes for each, with the fields they share filled once. A
    /// search for captures, which keeps only the first few quiet moves, writes them one by one.
    #[inline(always)]
    pub(super) fn push_quiet_run(
        &mut self,
        head: &Move,
        move_type: u16,
        from: u16,
        dests: &[u16],
        out: &mut MoveList,
    ) {
        if self.quiet_left != u32::MAX && head.promote == 0 {
            for &q in dests {
                self.push_simple(head, move_type, from, q, out);
            }
            return;
        }
        let (Some(&original), Some((&first, rest))) =
            (self.pos.cells.get(from as usize), dests.split_first())
        else {
            return;
        };
        out.moves.reserve(dests.len());
        out.moves.push(*head);
        let Some(m) = out.moves.last_mut() else {
            return;
        };
        fill_simple(m, move_type, [from, first], original, false);
        for &q in rest {
            // The move before, copied whole, then its squares written in place.
            let Some(&prev) = out.moves.last() else {
                return;
            };
            out.moves.push(prev);
            if let Some(last) = out.moves.last_mut() {
                last.sq = [from, q, q];
            }
        }
    }
}

/// Writes the fields of a simple move (`Move::simple`) that its header `m` (made at load by
/// an [`Adder`]) leaves open: the squares `from` and `dest`, the cell it lands as (the
/// `original` piece, promoted and with the fused attribute bit, computed before the one
/// write), whether it captures on `dest`, the piece and the move type
/// ([`Exec::push_simple`]).
#[inline(always)]
fn fill_simple(m: &mut Move, move_type: u16, [from, dest]: [u16; 2], original: Cell, taken: bool) {
    m.sq = [from, dest, dest];
    let mut cell = original;
    if m.promote != 0 {
        cell.piece = m.promote;
    }
    // An attribute set before the add ([`Adder::with_attr`]; no bit for other adds).
    let bit = m.cell.attrs;
    if bit != 0 {
        if m.cell.marks != 0 {
            cell.attrs |= bit;
        } else {
            cell.attrs &= !bit;
        }
    }
    m.cell = cell;
    m.cap_hi = taken as u32;
    m.piece = original.piece;
    m.move_type = move_type;
}

/// The cell at `p` after the ops written so far for this move.
#[inline]
fn current(ops: &[Op], p: u16, pos: &Position) -> Cell {
    current_op(ops, p).unwrap_or(pos.cells[p as usize])
}

/// The last write to `p` among the ops, if any.
#[inline]
fn current_op(ops: &[Op], p: u16) -> Option<Cell> {
    ops.iter().rev().find_map(|op| match op {
        Op::Set(q, c) if *q == p => Some(*c),
        _ => None,
    })
}
