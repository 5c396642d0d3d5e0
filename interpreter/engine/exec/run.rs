//! Walking the specialised tree: `Exec`'s entry points into a block's fused nodes (gated,
//! straight-line and looping runs) and the node, test and condition evaluators.

use super::{Exec, Flow, STEP_LIMIT};
use crate::def::{Block, ZoneId, NONE};
use crate::engine::moves::MoveList;
use crate::engine::position::{Cell, DEAD};
use crate::engine::scratch::{Pending, Scratch};
use crate::engine::special::{
    Adder, Caps, Gate, GateEntry, Kind, Node, SCond, Seq, Test, Tgt, MAX_STRAIGHT_CAPTURES,
};

impl Exec<'_> {
    /// Runs a block whose gate the caller has passed, landing on `self.cp` (generation only:
    /// no attack test). The rest of the prefix runs before the run is set up, as in `run`.
    #[inline(always)]
    pub(super) fn run_gated(
        &mut self,
        block: &Block,
        seq: &Seq,
        start: u16,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        if seq.prefix > 1 && !self.enter_rest(seq, 1) {
            return;
        }
        self.run_set_up(block, Some(seq), start, None, scratch, out);
    }

    /// Runs the read-only prefix of a block's tree from `self.cp`: whether the block goes on.
    /// It reads only the board, the mover and the current square, none of which the set-up of
    /// a run changes, so a block that fails here has added nothing and ends as the plain one.
    #[inline(always)]
    pub(super) fn enter(&mut self, seq: &Seq) -> bool {
        if self.hit {
            return false;
        }
        let mut first = 0;
        if let Some((g, t)) = seq.gate {
            self.cp = match g {
                Gate::Step(off) => self.next(off, self.cp),
                Gate::Leap(at) => self.leap(at, self.cp),
            };
            if self.cp == NONE || !self.test(t, self.cp) {
                return false;
            }
            first = 1;
        }
        first == seq.prefix || self.enter_rest(seq, first)
    }

    /// The prefix nodes from `first` on (see [`Exec::enter`]).
    fn enter_rest(&mut self, seq: &Seq, first: usize) -> bool {
        for node in &seq.nodes[first..seq.prefix] {
            let go = match node {
                Node::Step(off) => {
                    self.cp = self.next(*off, self.cp);
                    self.cp != NONE
                }
                Node::StepTest(off, t) => {
                    self.cp = self.next(*off, self.cp);
                    self.cp != NONE && self.test(*t, self.cp)
                }
                Node::Leap(at, t) => {
                    self.cp = self.leap(*at, self.cp);
                    self.cp != NONE && self.test(*t, self.cp)
                }
                Node::Verify(SCond::Test(t, at)) => self.test(*t, self.tgt(*at)),
                Node::Verify(SCond::Const(b)) => *b,
                _ => true,
            };
            if !go {
                return false;
            }
        }
        true
    }

    /// Runs a straight block ([`Seq::straight`]) whose gate the caller has passed, landing on
    /// `self.cp`, for generation (no attack test, no drop): no run is set up, the captures are
    /// kept in a small array, and each add writes its move at once ([`Exec::add_straight`]).
    /// The same moves as `run_gated`, and the same limits: loop rounds count against
    /// [`STEP_LIMIT`] and adds against `BLOCK_MOVE_LIMIT` as in [`Exec::seq_from`].
    #[inline]
    pub(super) fn run_straight(
        &mut self,
        e: &GateEntry,
        seq: &Seq,
        start: u16,
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        if scratch.out_of_work(out) {
            return;
        }
        self.begin_run(e, start, out);
        let mut caps = Caps {
            sq: [NONE; MAX_STRAIGHT_CAPTURES],
            n: 0,
        };
        // Recycled captures need store ops: a copy of the runner for them, so that the
        // others' adds stay as they were.
        if self.rules.def.options.recycle_captures {
            self.straight_from::<true>(seq, 1, &mut caps, out);
        } else {
            self.straight_from::<false>(seq, 1, &mut caps, out);
        }
        scratch.work = scratch
            .work
            .saturating_add(self.steps as u64)
            .saturating_add(e.weight as u64);
        if self.steps > STEP_LIMIT {
            out.note_cut(crate::engine::Cut::Steps);
        }
    }

    /// Runs a straight block of the draughts jump's shape (`Special::gate_jump`) whose gates
    /// have passed, from `start` over `cap` to `dest`: its one add, as [`Exec::run_straight`]
    /// reaches it (the gate's square captured, the landing square current).
    pub(super) fn run_jump(
        &mut self,
        e: &GateEntry,
        add: &Adder,
        (start, cap, dest): (u16, u16, u16),
        scratch: &mut Scratch,
        out: &mut MoveList,
    ) {
        self.begin_run(e, start, out);
        self.cp = dest;
        self.add_jump(add, cap, out);
        scratch.work = scratch.work.saturating_add(e.weight as u64);
    }

    /// What a straight run and a jump set before their first node: the block's move type, the
    /// piece's square, no steps yet, and where its moves start in `out`.
    #[inline(always)]
    fn begin_run(&mut self, e: &GateEntry, start: u16, out: &MoveList) {
        self.move_type = e.move_type;
        self.from = start;
        self.steps = 0;
        self.first_move = out.moves.len();
    }

    /// The nodes of a straight sequence from `first` on; false once the block ends.
    fn straight_from<const RECYCLE: bool>(
        &mut self,
        seq: &Seq,
        first: usize,
        caps: &mut Caps,
        out: &mut MoveList,
    ) -> bool {
        for node in &seq.nodes[first..] {
            let go = match node {
                Node::Step(off) => {
                    self.cp = self.next(*off, self.cp);
                    self.cp != NONE
                }
                Node::StepTest(off, t) => {
                    self.cp = self.next(*off, self.cp);
                    self.cp != NONE && self.gen_test(*t, self.cp)
                }
                Node::Leap(at, t) => {
                    self.cp = self.leap(*at, self.cp);
                    self.cp != NONE && self.gen_test(*t, self.cp)
                }
                Node::Verify(c) => self.pure(c),
                Node::Capture(t) => {
                    let p = self.tgt(*t);
                    if p != NONE {
                        caps.sq[caps.n] = p;
                        caps.n += 1;
                    }
                    true
                }
                Node::Add(spec) => self.add_straight::<RECYCLE>(spec, &caps.sq[..caps.n], out),
                Node::If(c, a, b) => {
                    let body = if self.pure(c) { a } else { b };
                    match body.nodes.as_slice() {
                        [Node::Add(spec)] => {
                            self.add_straight::<RECYCLE>(spec, &caps.sq[..caps.n], out)
                        }
                        _ => self.straight_from::<RECYCLE>(body, 0, caps, out),
                    }
                }
                Node::Skip(t, off) => loop {
                    if !self.gen_test(*t, self.cp) {
                        break true;
                    }
                    self.cp = self.next(*off, self.cp);
                    if self.cp == NONE || self.count(2) == Flow::Stop {
                        break false;
                    }
                },
                Node::AddWhile(t, spec, off) => loop {
                    if !self.gen_test(*t, self.cp) {
                        break true;
                    }
                    if !self.add_straight::<RECYCLE>(spec, &caps.sq[..caps.n], out) {
                        break false;
                    }
                    self.cp = self.next(*off, self.cp);
                    if self.cp == NONE || self.count(3) == Flow::Stop {
                        break false;
                    }
                },
                Node::While(c, body) => loop {
                    if !self.pure(c) {
                        break true;
                    }
                    if !self.straight_from::<RECYCLE>(body, 0, caps, out)
                        || self.count(body.cost + 1) == Flow::Stop
                    {
                        break false;
                    }
                },
                _ => unreachable!("not a straight node"),
            };
            if !go {
                return false;
            }
        }
        true
    }

    /// A condition of tests and constants, in generation (see [`Exec::gen_test`]).
    #[inline(always)]
    fn pure(&self, c: &SCond) -> bool {
        match c {
            SCond::Test(t, at) => self.gen_test(*t, self.tgt(*at)),
            _ => self.pure_slow(c),
        }
    }

    fn pure_slow(&self, c: &SCond) -> bool {
        match c {
            SCond::Test(t, at) => self.gen_test(*t, self.tgt(*at)),
            SCond::Const(b) => *b,
            SCond::And(xs) => xs.iter().all(|x| self.pure(x)),
            SCond::Or(xs) => xs.iter().any(|x| self.pure(x)),
            SCond::Plain(_) => unreachable!("not a straight condition"),
        }
    }

    /// Runs a block's specialised tree after its prefix (the caller has set up the run).
    pub(super) fn run_special(&mut self, seq: &Seq, s: &mut Scratch, out: &mut MoveList) {
        self.seq_from(seq, seq.prefix, s, out);
    }

    /// The square one step (offset `off`) from `p`, or `NONE`.
    #[inline(always)]
    fn next(&self, off: u32, p: u16) -> u16 {
        match self
            .rules
            .def
            .board
            .next
            .get(self.base + off as usize + p as usize)
        {
            Some(&q) if p != NONE => q,
            _ => NONE,
        }
    }

    /// The landing square of the fused leap at `at` from `p`, or `NONE`.
    #[inline(always)]
    fn leap(&self, at: u32, p: u16) -> u16 {
        let n_pos = self.pos.cells.len();
        match self
            .rules
            .special
            .leaps
            .get(at as usize + self.side.idx() * n_pos + p as usize)
        {
            Some(&q) if p != NONE => q,
            _ => NONE,
        }
    }

    #[inline(always)]
    fn tgt(&self, t: Tgt) -> u16 {
        match t {
            Tgt::Here => self.cp,
            Tgt::Off(o) => self.next(o, self.cp),
            Tgt::Pos(p) => p,
            Tgt::Nowhere => NONE,
        }
    }

    /// [`Exec::test`] in generation, where no attack test imagines a piece on its target.
    #[inline(always)]
    fn gen_test(&self, t: Test, p: u16) -> bool {
        if let Kind::Zone(z) = t.kind {
            // A zone reads no cell (off the board, the test fails as below).
            return if (p as usize) < self.pos.cells.len() {
                self.in_zone(z, p) != t.neg
            } else {
                t.neg
            };
        }
        let Some(&c) = self.pos.cells.get(p as usize) else {
            return t.neg;
        };
        let side = self.side.0;
        let holds = match t.kind {
            Kind::Empty => c.is_empty(),
            Kind::Friend => !c.is_empty() && c.owner == side && c.marks & DEAD == 0,
            Kind::Enemy => !c.is_empty() && c.owner != side && c.marks & DEAD == 0,
            Kind::Piece(k) => c.piece == k,
            Kind::Attr(a) => !c.is_empty() && c.attrs >> a & 1 == 1,
            Kind::OnBoard => true,
            Kind::Zone(z) => self.in_zone(z, p),
        };
        holds != t.neg
    }

    /// Whether `p` is in zone `z` for the mover.
    #[inline(always)]
    fn in_zone(&self, z: ZoneId, p: u16) -> bool {
        let board = &self.rules.def.board;
        let words = self.rules.special.zone_words;
        let i = (z.idx() * board.n_players + self.side.idx()) * words + p as usize / 64;
        board
            .zone_bits
            .get(i)
            .is_some_and(|w| w >> (p % 64) & 1 == 1)
    }

    /// Whether the step by offset `off` from `p` stays on the board and its test `t` holds
    /// on the square it reaches.
    #[inline]
    pub(super) fn step_passes(&self, off: u32, p: u16, t: Test) -> bool {
        let q = self.next(off, p);
        q != NONE && self.test(t, q)
    }

    /// Whether test `t` holds on square `p` (`NONE`: off the board).
    #[inline(always)]
    pub(super) fn test(&self, t: Test, p: u16) -> bool {
        let holds = p != NONE && {
            let c = self.cell(p);
            match t.kind {
                Kind::Empty => c.is_empty(),
                Kind::Friend => !c.is_empty() && c.owner == self.side.0 && c.marks & DEAD == 0,
                Kind::Enemy => !c.is_empty() && c.owner != self.side.0 && c.marks & DEAD == 0,
                Kind::Piece(k) => c.piece == k,
                Kind::Attr(a) => !c.is_empty() && c.attrs >> a & 1 == 1,
                Kind::OnBoard => true,
                Kind::Zone(z) => self.in_zone(z, p),
            }
        };
        holds != t.neg
    }

    /// A condition, with the common case (one test of one square) inlined.
    #[inline(always)]
    fn scond(&self, c: &SCond, s: &Scratch) -> bool {
        match c {
            SCond::Test(t, at) => self.test(*t, self.tgt(*at)),
            _ => self.scond_slow(c, s),
        }
    }

    fn scond_slow(&self, c: &SCond, s: &Scratch) -> bool {
        match c {
            SCond::Test(t, at) => self.test(*t, self.tgt(*at)),
            SCond::Const(b) => *b,
            SCond::And(xs) => xs.iter().all(|x| self.scond(x, s)),
            SCond::Or(xs) => xs.iter().any(|x| self.scond(x, s)),
            SCond::Plain(c) => self.cond(c, s),
        }
    }

    /// Adds a move; the block ends once an attack test has hit or the block's move limit is
    /// reached (the plain interpreter stops before its next instruction).
    #[inline(always)]
    fn add_node(&mut self, spec: &Adder, s: &mut Scratch, out: &mut MoveList) -> Flow {
        if let Some((a, v)) = spec.attr {
            // The fused `set-attribute` of the current square, as the plain one leaves it.
            s.pending.push(Pending::Attr(self.cp, a, v));
        }
        self.add(spec, s, out);
        if self.hit || self.stop {
            Flow::Stop
        } else {
            Flow::Go
        }
    }

    /// Counts one loop round of `cost` plain instructions against the step limit.
    #[inline(always)]
    fn count(&mut self, cost: u32) -> Flow {
        self.steps += cost;
        if self.steps > STEP_LIMIT {
            Flow::Stop
        } else {
            Flow::Go
        }
    }

    fn while_loop(&mut self, c: &SCond, body: &Seq, s: &mut Scratch, out: &mut MoveList) -> Flow {
        loop {
            if !self.scond(c, s) {
                return Flow::Go;
            }
            if self.seq(body, s, out) == Flow::Stop || self.count(body.cost + 1) == Flow::Stop {
                return Flow::Stop;
            }
        }
    }

    #[inline(always)]
    fn seq(&mut self, seq: &Seq, s: &mut Scratch, out: &mut MoveList) -> Flow {
        self.seq_from(seq, 0, s, out)
    }

    fn seq_from(&mut self, seq: &Seq, first: usize, s: &mut Scratch, out: &mut MoveList) -> Flow {
        for node in &seq.nodes[first..] {
            let flow = match node {
                Node::Step(off) => {
                    self.cp = self.next(*off, self.cp);
                    if self.cp == NONE {
                        Flow::Stop
                    } else {
                        Flow::Go
                    }
                }
                Node::StepTest(off, t) => {
                    self.cp = self.next(*off, self.cp);
                    if self.cp != NONE && self.test(*t, self.cp) {
                        Flow::Go
                    } else {
                        Flow::Stop
                    }
                }
                Node::Leap(at, t) => {
                    self.cp = self.leap(*at, self.cp);
                    if self.cp != NONE && self.test(*t, self.cp) {
                        Flow::Go
                    } else {
                        Flow::Stop
                    }
                }
                Node::Verify(c) => {
                    if self.scond(c, s) {
                        Flow::Go
                    } else {
                        Flow::Stop
                    }
                }
                Node::CheckStep(c, off, t) => {
                    let q = self.next(*off, self.cp);
                    if q != NONE && self.test(*t, q) && self.scond(c, s) {
                        self.cp = q;
                        Flow::Go
                    } else {
                        Flow::Stop
                    }
                }
                Node::Capture(t) => {
                    let p = self.tgt(*t);
                    if p != NONE {
                        s.pending.push(Pending::Capture(p));
                    }
                    Flow::Go
                }
                Node::Add(spec) => self.add_node(spec, s, out),
                Node::Skip(t, off) => loop {
                    if !self.test(*t, self.cp) {
                        break Flow::Go;
                    }
                    self.cp = self.next(*off, self.cp);
                    if self.cp == NONE || self.count(2) == Flow::Stop {
                        break Flow::Stop;
                    }
                },
                Node::AddWhile(t, spec, off) => loop {
                    if !self.test(*t, self.cp) {
                        break Flow::Go;
                    }
                    if self.add_node(spec, s, out) == Flow::Stop {
                        break Flow::Stop;
                    }
                    self.cp = self.next(*off, self.cp);
                    if self.cp == NONE || self.count(3) == Flow::Stop {
                        break Flow::Stop;
                    }
                },
                Node::If(c, a, b) => {
                    let body = if self.scond(c, s) { a } else { b };
                    match body.nodes.as_slice() {
                        // Promotion or not (`(if (in-zone? crown) (add King) else add)`).
                        [Node::Add(spec)] => self.add_node(spec, s, out),
                        _ => self.seq(body, s, out),
                    }
                }
                Node::While(c, body) => self.while_loop(c, body, s, out),
                Node::Walk(c, body, off) => {
                    if self.target == NONE {
                        self.while_loop(c, body, s, out)
                    } else {
                        loop {
                            if !self.scond(c, s) {
                                break Flow::Go;
                            }
                            self.cp = self.next(*off, self.cp);
                            if self.cp == NONE || self.count(body.cost + 1) == Flow::Stop {
                                break Flow::Stop;
                            }
                        }
                    }
                }
                Node::Plain(i) => self.instr(i, s, out),
            };
            if flow == Flow::Stop {
                return Flow::Stop;
            }
        }
        Flow::Go
    }
}

impl Exec<'_> {
    /// Whether the gate's test holds on a cell that exists, for the mover `side` (see
    /// [`Seq::gate_passes`]); the two tests of most gates first.
    #[inline(always)]
    pub(super) fn gate_passes(&self, e: &GateEntry, c: Cell, side: u8) -> bool {
        let t = e.test;
        match t.kind {
            Kind::Empty => c.is_empty() != t.neg,
            Kind::Enemy => (!c.is_empty() && c.owner != side && c.marks & DEAD == 0) != t.neg,
            _ => test_cell(t, c, side, self),
        }
    }
}

/// A gate's test of a cell that exists, for the mover `side`.
#[inline(always)]
fn test_cell(t: Test, c: Cell, side: u8, exec: &Exec) -> bool {
    let holds = match t.kind {
        Kind::Empty => c.is_empty(),
        Kind::Friend => !c.is_empty() && c.owner == side && c.marks & DEAD == 0,
        Kind::Enemy => !c.is_empty() && c.owner != side && c.marks & DEAD == 0,
        Kind::Piece(k) => c.piece == k,
        Kind::Attr(a) => !c.is_empty() && c.attrs >> a & 1 == 1,
        Kind::OnBoard => true,
        Kind::Zone(_) => return exec.test(t, exec.cp),
    };
    holds != t.neg
}
