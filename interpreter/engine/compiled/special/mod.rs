//! The specialised move programs: each block's `Instr`/`Cond` tree rewritten at load into a
//! tree of fused node types for the common idioms, which `Exec::run` walks instead of the
//! plain tree.
//!
//! zrf stays a tree-walking interpreter; this tree is only cheaper to walk. Directions become
//! offsets into the board's flat `next` table (the mover's table is chosen once per run),
//! conditions on a square become one [`Test`], and the idioms of real files become single
//! nodes: a step tested on arrival ([`Node::StepTest`]), a run over squares that pass a test
//! ([`Node::Skip`]), and a slide that adds a move on each square it passes
//! ([`Node::AddWhile`]). Anything else keeps its plain instruction ([`Node::Plain`]) or plain
//! condition ([`SCond::Plain`]), run by the plain interpreter.
//!
//! Invariant: for every block, start square and position, walking the specialised tree adds
//! the same moves in the same order, with the same pending effects, as walking the plain
//! tree. The one allowed difference is where a block cut by [`STEP_LIMIT`] stops: the
//! specialised tree counts steps only in loops (a straight line of nodes is bounded by the
//! tree's size), so both cut the block, possibly a few instructions apart.
//! `EngineConfig::tree` turns the specialised tree on, and the `paths` test compares it
//! with the plain tree on every shipped game and a sample of the corpus.

use crate::def::*;
use crate::engine::gate_test::GateTest;
pub(in crate::engine) use adder::{head_of, Adder};
use std::cell::RefCell;

mod adder;
mod count;
mod drops;
mod slide;
mod straight;

use straight::{attrs_straight, straight_nodes};

use drops::DropPrefix;

/// The specialised programs of a game, one per block (by `Block::id`).
#[derive(Clone, Debug, Default)]
pub struct Special {
    blocks: Vec<Seq>,
    /// The landing squares of fused leaps ([`Node::Leap`]): `leaps[at + player * n_pos + p]`.
    pub(in crate::engine) leaps: Vec<u16>,
    /// Each block's size: the instructions and conditions of its plain tree (`weight`), the
    /// work a run of its straight-line part stands for.
    weights: Vec<u32>,
    /// The words of one zone's membership bits for one player (`Board::zone_bits`).
    pub(in crate::engine) zone_words: usize,
    /// By block id: a drop block's prefix that tests only its own square.
    drop_prefixes: Vec<Option<DropPrefix>>,
}

impl Special {
    /// Numbers every move and drop block of `def` (`Block::id`) and builds its specialised tree.
    pub fn build(def: &mut GameDef) -> Special {
        let n_pos = def.board.n_pos();
        let cx = Build {
            n_pos,
            n_players: def.players.len(),
            n_dirs: def.board.directions.len(),
            opposite: def.board.opposite.clone(),
            next: def.board.next.clone(),
            leaps: RefCell::new(Vec::new()),
            fuse_attr: !def.options.recycle_captures && !def.options.deferred_captures,
        };
        let mut blocks = Vec::new();
        let mut weights = Vec::new();
        for piece in &mut def.pieces {
            for block in piece.moves.iter_mut().chain(piece.drops.iter_mut()) {
                block.id = blocks.len() as u32;
                blocks.push(cx.seq(&block.body));
                weights.push(weight(&block.body));
            }
        }
        let mut drop_prefixes: Vec<Option<DropPrefix>> = blocks.iter().map(|_| None).collect();
        for block in def.pieces.iter().flat_map(|p| &p.drops) {
            if let Some(seq) = blocks.get(block.id as usize) {
                drop_prefixes[block.id as usize] = DropPrefix::of(seq, def);
            }
        }
        Special {
            blocks,
            leaps: cx.leaps.into_inner(),
            weights,
            zone_words: n_pos.div_ceil(64),
            drop_prefixes,
        }
    }

    /// The prefix of a drop block that tests only its own square ([`DropPrefix`]).
    #[inline]
    pub(in crate::engine) fn drop_prefix(&self, block: &Block) -> Option<&DropPrefix> {
        self.drop_prefixes.get(block.id as usize)?.as_ref()
    }

    /// A block's size: its instructions and conditions, nested ones included (1 for a block
    /// the engine did not number).
    #[inline]
    pub(in crate::engine) fn weight(&self, block: &Block) -> u32 {
        self.weights.get(block.id as usize).copied().unwrap_or(1)
    }

    /// The specialised tree of a block, when `on` (`EngineConfig::tree`).
    #[inline]
    pub(in crate::engine) fn tree(&self, block: &Block, on: bool) -> Option<&Seq> {
        if on {
            self.blocks.get(block.id as usize)
        } else {
            None
        }
    }
}

/// The instructions and conditions of a program, nested ones included (saturating).
fn weight(body: &[Instr]) -> u32 {
    fn cond(c: &Cond) -> u32 {
        1u32.saturating_add(match c {
            Cond::Not(x) => cond(x),
            Cond::And(xs) | Cond::Or(xs) => xs.iter().fold(0u32, |n, x| n.saturating_add(cond(x))),
            _ => 0,
        })
    }
    body.iter().fold(0u32, |n, i| {
        n.saturating_add(1).saturating_add(match i {
            Instr::SetAttribute(_, c, _)
            | Instr::SetFlag(_, c)
            | Instr::SetPositionFlag(_, c, _)
            | Instr::Verify(c) => cond(c),
            Instr::If(c, a, b) => cond(c).saturating_add(weight(a)).saturating_add(weight(b)),
            Instr::While(c, b) => cond(c).saturating_add(weight(b)),
            _ => 0,
        })
    })
}

/// True when running `i` can do nothing but leave effects for after the move: a type, an
/// owner, an attribute, a created piece or a counter (no capture, no move, no flag, no step,
/// no check that could end the block). An attack test asks only whether the target is
/// captured, and none of these reads or writes anything that decides it.
fn attack_inert(i: &Instr) -> bool {
    match i {
        Instr::ChangeType(..)
        | Instr::ChangeOwner(_)
        | Instr::Flip(_)
        | Instr::Create { .. }
        | Instr::SetAttribute(..)
        | Instr::SetCounter(..) => true,
        Instr::If(_, a, b) => a.iter().chain(b).all(attack_inert),
        _ => false,
    }
}

/// A sequence of nodes, with the number of plain instructions it stands for.
#[derive(Clone, Debug)]
pub struct Seq {
    pub(in crate::engine) nodes: Vec<Node>,
    pub(in crate::engine) cost: u32,
    /// How many leading nodes only move and test (`Step`, `StepTest`, `Verify` of a test):
    /// they run before the block's run is set up.
    pub(in crate::engine) prefix: usize,
    /// The first node when it is a step or a leap (with its test, `on-board?` for a bare
    /// step): the gate every run passes first.
    pub(in crate::engine) gate: Option<(Gate, Test)>,
    /// The sequence is straight: steps, tests of squares, captures, adds (no copy), and
    /// `if`s and loops of the same, at most [`MAX_STRAIGHT_CAPTURES`] captures and none in a
    /// loop. Such a block reads nothing but the board and the current square and writes
    /// nothing but captures, so generation runs it without setting up a run
    /// ([`Exec::run_straight`]).
    straight: bool,
}

/// The most captures a straight block may hold ([`Seq::straight`]).
pub(in crate::engine) const MAX_STRAIGHT_CAPTURES: usize = 8;

/// One block as the generation loop sees it: where it stands in its piece's `moves`, and its
/// gate and straightness copied out of its tree as plain fields, so that a block that fails at
/// its gate costs one read of this entry, one table read and one cell test.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct GateEntry {
    /// The gate's offset: into the mover's part of `Board::next` (a step) or of
    /// `Special::leaps` (a leap).
    pub off: u32,
    /// The block's index in its piece's `moves`.
    pub block: u32,
    /// The block's id (`Block::id`).
    pub id: u32,
    /// Where the gate's square is read.
    pub table: GateTable,
    /// The tree is straight ([`Seq::straight`]).
    pub straight: bool,
    /// The gate's test.
    pub(in crate::engine) test: Test,
    /// The block's move type (`u16::MAX`: none), for a straight run.
    pub move_type: u16,
    /// The block's size ([`Special::weight`]), for a straight run.
    pub weight: u32,
    /// A straight block's second gate: the step or leap after its gate, past captures of the
    /// gate's square, with its test (see [`GateEntry::second_gate`]).
    gate2: Option<(Gate, Test)>,
    /// A block without a gate whose tree begins with a test of its own square (castling's
    /// `(verify never-moved?)`): that test, which generation makes before entering the run.
    pub(in crate::engine) lead: Option<Test>,
    /// With `lead`, when the tree's next node is a plain condition fused with a step
    /// (`Node::CheckStep`, castling's `(verify not-attacked?)` and step over an empty
    /// square): the step and its test, which end the run when they fail, whatever the
    /// condition (it only reads).
    pub(in crate::engine) lead_step: Option<(u32, Test)>,
}

/// Where a [`GateEntry`]'s gate square is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) enum GateTable {
    /// The block has no gate.
    None,
    /// The gate is one step.
    Step,
    /// The gate is a fused leap.
    Leap,
}

impl GateEntry {
    /// The gate's test on square `q` (on the board) for player `pl`, as a gate test,
    /// `gates.rs`: `None` when it can never hold there (a zone the square is not in).
    pub(super) fn gate_code(&self, def: &GameDef, pl: usize, q: u16) -> Option<GateTest> {
        test_code(self.test, def, pl, q)
    }

    /// The second gate (see [`GateEntry::gate2`]) from square `q` for player `pl`: `None`
    /// when there is none; inside, its square and code (`None`: the block ends there).
    pub(super) fn second_gate(
        &self,
        def: &GameDef,
        leaps: &[u16],
        pl: usize,
        q: u16,
    ) -> Option<Option<(u16, GateTest)>> {
        let (g, t) = self.gate2?;
        let board = &def.board;
        let n_pos = board.n_pos();
        let q2 = match g {
            Gate::Step(off) => {
                let n_dirs = board.directions.len();
                board
                    .next
                    .get(pl * n_dirs * n_pos + off as usize + q as usize)
            }
            Gate::Leap(at) => leaps.get(at as usize + pl * n_pos + q as usize),
        };
        let q2 = match q2 {
            Some(&q2) if (q2 as usize) < n_pos => q2,
            _ => return Some(None),
        };
        match test_code(t, def, pl, q2) {
            None => Some(None),
            Some(GateTest::Other) => None,
            Some(code) => Some(Some((q2, code))),
        }
    }
}

/// A test of square `q` (on the board) for player `pl`, as a code of `gates.rs`: `None`
/// when it can never hold there (a zone the square is not in).
fn test_code(t: Test, def: &GameDef, pl: usize, q: u16) -> Option<GateTest> {
    {
        let code = match (t.kind, t.neg) {
            (Kind::OnBoard, false) => GateTest::Pass,
            (Kind::OnBoard, true) => return None,
            (Kind::Empty, false) => GateTest::Empty,
            (Kind::Empty, true) => GateTest::Occupied,
            (Kind::Enemy, false) => GateTest::Enemy,
            (Kind::Enemy, true) => GateTest::NotEnemy,
            (Kind::Friend, false) => GateTest::Friend,
            (Kind::Friend, true) => GateTest::NotFriend,
            (Kind::Zone(z), neg) => {
                let board = &def.board;
                let words = board.n_pos().div_ceil(64);
                let i = (z.idx() * board.n_players + pl) * words + q as usize / 64;
                let inside = board
                    .zone_bits
                    .get(i)
                    .is_some_and(|w| w >> (q % 64) & 1 == 1);
                if inside == neg {
                    return None;
                }
                GateTest::Pass
            }
            _ => GateTest::Other,
        };
        Some(code)
    }
}

impl Special {
    /// The generation entry of block `index` of a piece (see [`GateEntry`]).
    pub(in crate::engine) fn entry(&self, index: usize, block: &Block) -> GateEntry {
        let seq = self.blocks.get(block.id as usize);
        let (table, off, test) = match seq.and_then(|s| s.gate) {
            Some((Gate::Step(off), t)) => (GateTable::Step, off, t),
            Some((Gate::Leap(at), t)) => (GateTable::Leap, at, t),
            None => (
                GateTable::None,
                0,
                Test {
                    kind: Kind::OnBoard,
                    neg: false,
                },
            ),
        };
        let straight = seq.is_some_and(|s| s.straight);
        // A straight block reads only the board: once its gate passes, captures of the
        // gate's square record a square and change nothing else, and zone tests of it are
        // decided at load (`Special::gate_zones_hold`), so a step and test that follow them
        // decide as well as the gate whether the block goes on.
        let gate2 = match seq {
            Some(s) if straight && s.gate.is_some() => s.nodes[1..]
                .iter()
                .find(|n| !matches!(n, Node::Capture(Tgt::Here)) && zone_here(n).is_none())
                .and_then(|n| match *n {
                    Node::StepTest(off, t) => Some((Gate::Step(off), t)),
                    Node::Leap(at, t) => Some((Gate::Leap(at), t)),
                    _ => None,
                }),
            _ => None,
        };
        let lead = match seq.and_then(|s| s.nodes.first()) {
            Some(Node::Verify(SCond::Test(t, Tgt::Here))) if table == GateTable::None => Some(*t),
            _ => None,
        };
        let lead_step = match seq.and_then(|s| s.nodes.get(1).filter(|_| s.prefix == 1)) {
            Some(&Node::CheckStep(_, off, t)) if lead.is_some() => Some((off, t)),
            _ => None,
        };
        GateEntry {
            off,
            block: index as u32,
            id: block.id,
            table,
            straight,
            test,
            move_type: block.move_type.map_or(u16::MAX, |t| t.0),
            weight: self.weight(block),
            gate2,
            lead,
            lead_step,
        }
    }
}

/// How a gate finds its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) enum Gate {
    /// One step: an offset into the mover's part of `Board::next`.
    Step(u32),
    /// A fused leap: an offset into `Special::leaps`.
    Leap(u32),
}

/// The most entries the fused leap tables of a game may hold (past it, steps stay apart).
const MAX_LEAP_ENTRIES: usize = 1 << 21;

/// A square relative to the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) enum Tgt {
    /// The current square.
    Here,
    /// One step: the offset `dir * n_pos` into the mover's part of `Board::next`.
    Off(u32),
    /// A fixed square.
    Pos(u16),
    /// No square (the opposite of a direction that has none).
    Nowhere,
}

/// What a [`Test`] asks of a square that exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) enum Kind {
    Empty,
    Friend,
    Enemy,
    /// A piece of this type + 1.
    Piece(u16),
    /// A piece with this attribute bit (below 32).
    Attr(u16),
    OnBoard,
    Zone(ZoneId),
}

/// A test of one square: `kind` holds on a square that exists, inverted when `neg`
/// (`not-empty?` is true off the board, as `(not empty?)` is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) struct Test {
    pub(in crate::engine) kind: Kind,
    pub(in crate::engine) neg: bool,
}

/// A specialised condition.
#[derive(Clone, Debug)]
pub(in crate::engine) enum SCond {
    Const(bool),
    Test(Test, Tgt),
    And(Vec<SCond>),
    Or(Vec<SCond>),
    Plain(Cond),
}

/// A specialised instruction.
#[derive(Clone, Debug)]
pub(in crate::engine) enum Node {
    /// Step by an offset; off the board ends the block.
    Step(u32),
    /// Step, then end the block unless the test holds on the new square.
    StepTest(u32, Test),
    /// Two or more steps in a row, the last one tested, read from one table
    /// (`Special::leaps`, at this offset).
    Leap(u32, Test),
    /// End the block unless the condition holds.
    Verify(SCond),
    /// `Verify` of a plain condition, then `StepTest`: the step's test is tried first.
    CheckStep(SCond, u32, Test),
    /// Capture the piece there.
    Capture(Tgt),
    /// Emit a move.
    Add(Adder),
    /// While the test holds here, step (`(while empty? n)`).
    Skip(Test, u32),
    /// While the test holds here, add a move and step (`(while empty? add n)`).
    AddWhile(Test, Adder, u32),
    If(SCond, Seq, Seq),
    While(SCond, Seq),
    /// A loop whose body is a step followed only by effects left for after the move (types,
    /// owners, attributes, created pieces, counters), such as a sweep over the board that
    /// clears marks: an attack test, where only captures of the target count, walks the
    /// steps alone (the same squares, the same rounds counted); otherwise it is `While`.
    Walk(SCond, Seq, u32),
    /// Anything else, run by the plain interpreter.
    Plain(Instr),
}

/// The captures of a straight block so far.
pub(in crate::engine) struct Caps {
    pub(in crate::engine) sq: [u16; MAX_STRAIGHT_CAPTURES],
    pub(in crate::engine) n: usize,
}

struct Build {
    n_pos: usize,
    n_players: usize,
    n_dirs: usize,
    opposite: Vec<Option<DirId>>,
    next: Vec<u16>,
    leaps: RefCell<Vec<u16>>,
    /// A `set-attribute` of the current square before an add may be fused into the add
    /// ([`Adder::with_attr`]): captures are neither recycled nor deferred, so the simple
    /// moves that carry it are all that a straight walk writes.
    fuse_attr: bool,
}

impl Build {
    fn off(&self, d: DirId) -> u32 {
        (d.idx() * self.n_pos) as u32
    }

    fn tgt(&self, t: Option<Target>) -> Tgt {
        match t {
            None => Tgt::Here,
            Some(Target::Pos(p)) => Tgt::Pos(p.0),
            Some(Target::Dir(d)) => Tgt::Off(self.off(d)),
            Some(Target::Opposite(d)) => match self.opposite[d.idx()] {
                Some(o) => Tgt::Off(self.off(o)),
                None => Tgt::Nowhere,
            },
        }
    }

    /// A condition that is one test of one square.
    fn test(&self, c: &Cond) -> Option<(Test, Tgt)> {
        let (kind, t) = match c {
            Cond::Not(x) => {
                let (test, t) = self.test(x)?;
                return Some((
                    Test {
                        neg: !test.neg,
                        ..test
                    },
                    t,
                ));
            }
            Cond::Empty(t) => (Kind::Empty, t),
            Cond::Friend(t) => (Kind::Friend, t),
            Cond::Enemy(t) => (Kind::Enemy, t),
            Cond::Piece(p, t) => (Kind::Piece(p.0 + 1), t),
            Cond::Attribute(a, t) if a.0 < 32 => (Kind::Attr(a.0), t),
            Cond::OnBoard(t) => (Kind::OnBoard, t),
            Cond::InZone(z, t) => (Kind::Zone(*z), t),
            _ => return None,
        };
        Some((Test { kind, neg: false }, self.tgt(*t)))
    }

    fn cond(&self, c: &Cond) -> SCond {
        if let Some((test, t)) = self.test(c) {
            return SCond::Test(test, t);
        }
        match c {
            Cond::Const(b) => SCond::Const(*b),
            Cond::And(xs) => SCond::And(xs.iter().map(|x| self.cond(x)).collect()),
            Cond::Or(xs) => SCond::Or(xs.iter().map(|x| self.cond(x)).collect()),
            _ => SCond::Plain(c.clone()),
        }
    }

    /// The offset of a step instruction, `None` inside when it can never succeed.
    fn step_of(&self, i: &Instr) -> Option<Option<u32>> {
        match i {
            Instr::Step(d) => Some(Some(self.off(*d))),
            Instr::Opposite(d) => Some(self.opposite[d.idx()].map(|o| self.off(o))),
            _ => None,
        }
    }

    /// A test of the current square only.
    fn here_test(&self, c: &Cond) -> Option<Test> {
        match self.test(c)? {
            (test, Tgt::Here) => Some(test),
            _ => None,
        }
    }

    fn seq(&self, body: &[Instr]) -> Seq {
        let mut nodes = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let instr = &body[i];
            if let Some(step) = self.step_of(instr) {
                let Some(off) = step else {
                    nodes.push(Node::Verify(SCond::Const(false)));
                    i += 1;
                    continue;
                };
                if let Some(Instr::Verify(c)) = body.get(i + 1) {
                    if let Some(test) = self.here_test(c) {
                        nodes.push(Node::StepTest(off, test));
                        i += 2;
                        continue;
                    }
                }
                nodes.push(Node::Step(off));
                i += 1;
                continue;
            }
            if let (Instr::SetAttribute(a, Cond::Const(v), None), Some(Instr::Add(spec))) =
                (instr, body.get(i + 1))
            {
                if let Some(add) = (self.fuse_attr)
                    .then(|| Adder::with_attr(spec.clone(), *a, *v))
                    .flatten()
                {
                    nodes.push(Node::Add(add));
                    i += 2;
                    continue;
                }
            }
            nodes.push(self.node(instr));
            i += 1;
        }
        self.fuse_leap(&mut nodes);
        // A plain condition (an attack test, an expression) followed by a step: the step and
        // its test, which cost a table read, go first. Both only read, and either failing ends
        // the block, so the order changes nothing but the work.
        let mut k = 0;
        while k + 1 < nodes.len() {
            let step = match nodes[k + 1] {
                Node::StepTest(off, test) => Some((off, test)),
                Node::Step(off) => Some((
                    off,
                    Test {
                        kind: Kind::OnBoard,
                        neg: false,
                    },
                )),
                _ => None,
            };
            if let (Some((off, test)), Node::Verify(SCond::Plain(_))) = (step, &nodes[k]) {
                let Node::Verify(c) = nodes.remove(k) else {
                    unreachable!("matched above")
                };
                nodes[k] = Node::CheckStep(c, off, test);
            }
            k += 1;
        }
        let prefix = nodes
            .iter()
            .take_while(|n| {
                matches!(
                    n,
                    Node::Step(_)
                        | Node::StepTest(..)
                        | Node::Leap(..)
                        | Node::Verify(SCond::Test(..) | SCond::Const(_))
                )
            })
            .count();
        let gate = match nodes.first() {
            Some(&Node::StepTest(off, test)) => Some((Gate::Step(off), test)),
            Some(&Node::Leap(at, test)) => Some((Gate::Leap(at), test)),
            Some(&Node::Step(off)) => Some((
                Gate::Step(off),
                Test {
                    kind: Kind::OnBoard,
                    neg: false,
                },
            )),
            _ => None,
        };
        let mut caps = 0;
        let straight = straight_nodes(&nodes, &mut caps, false)
            && caps <= MAX_STRAIGHT_CAPTURES
            && attrs_straight(&nodes, caps);
        Seq {
            nodes,
            cost: body.len() as u32,
            prefix,
            gate,
            straight,
        }
    }

    /// Fuses a sequence's leading steps (two or more bare steps, the last of them possibly
    /// tested) into one [`Node::Leap`] with its table of landing squares per player.
    fn fuse_leap(&self, nodes: &mut Vec<Node>) {
        let mut offs = Vec::new();
        let mut test = Test {
            kind: Kind::OnBoard,
            neg: false,
        };
        for node in nodes.iter() {
            match *node {
                Node::Step(off) => offs.push(off),
                Node::StepTest(off, t) => {
                    offs.push(off);
                    test = t;
                    break;
                }
                _ => break,
            }
        }
        let (n_pos, n_players) = (self.n_pos, self.n_players);
        let mut leaps = self.leaps.borrow_mut();
        if offs.len() < 2 || leaps.len() + n_players * n_pos > MAX_LEAP_ENTRIES {
            return;
        }
        let at = leaps.len() as u32;
        for pl in 0..n_players {
            let base = pl * self.n_dirs * n_pos;
            for p in 0..n_pos {
                let mut q = p as u16;
                for &off in &offs {
                    q = match self.next.get(base + off as usize + q as usize) {
                        Some(&r) if q != NONE => r,
                        _ => NONE,
                    };
                }
                leaps.push(q);
            }
        }
        nodes.splice(..offs.len(), [Node::Leap(at, test)]);
    }

    fn node(&self, instr: &Instr) -> Node {
        match instr {
            Instr::Verify(c) => Node::Verify(self.cond(c)),
            Instr::Capture(t) => Node::Capture(self.tgt(*t)),
            Instr::Add(spec) => Node::Add(Adder::new(spec.clone())),
            Instr::If(c, a, b) => Node::If(self.cond(c), self.seq(a), self.seq(b)),
            Instr::While(c, body) => {
                if let Some(test) = self.here_test(c) {
                    match body.as_slice() {
                        [s] => {
                            if let Some(Some(off)) = self.step_of(s) {
                                return Node::Skip(test, off);
                            }
                        }
                        [Instr::Add(spec), s] => {
                            if let Some(Some(off)) = self.step_of(s) {
                                return Node::AddWhile(test, Adder::new(spec.clone()), off);
                            }
                        }
                        _ => {}
                    }
                }
                if let [first, rest @ ..] = body.as_slice() {
                    if let Some(Some(off)) = self.step_of(first) {
                        if !rest.is_empty() && rest.iter().all(attack_inert) {
                            return Node::Walk(self.cond(c), self.seq(body), off);
                        }
                    }
                }
                Node::While(self.cond(c), self.seq(body))
            }
            _ => Node::Plain(instr.clone()),
        }
    }
}

impl Seq {
    /// The add that is all the block does once its prefix has passed (as in a drop block that
    /// verifies its square and adds), when it offers no promotion and is no copy.
    #[inline(always)]
    pub(in crate::engine) fn lone_add(&self) -> Option<&Adder> {
        match self.nodes.get(self.prefix..) {
            Some([Node::Add(a)]) if a.promote.is_empty() && !a.copy && a.attr.is_none() => Some(a),
            _ => None,
        }
    }
}

/// The test of a `(verify (in-zone? Z))` (or `not-in-zone?`) of the current square.
fn zone_here(n: &Node) -> Option<Test> {
    match n {
        Node::Verify(SCond::Test(t, Tgt::Here)) if matches!(t.kind, Kind::Zone(_)) => Some(*t),
        _ => None,
    }
}

impl Special {
    /// The specialised tree of the block with this id, whether `EngineConfig::tree` is on or
    /// not (its callers are the paths built on it).
    #[inline(always)]
    pub(in crate::engine) fn seq_of(&self, id: u32) -> &Seq {
        &self.blocks[id as usize]
    }

    /// Whether the zone tests of its gate's square that a straight block makes after its
    /// gate, before anything but captures of that square (`(verify (in-zone? Z))`, as a
    /// pawn's double step asks), hold on square `q` for player `pl`: decided at load, as the
    /// gate's own zone test is, so that the gate rows leave out a block that ends there.
    pub(super) fn gate_zones_hold(&self, def: &GameDef, id: u32, pl: usize, q: u16) -> bool {
        let Some(seq) = self.blocks.get(id as usize) else {
            return true;
        };
        if !seq.straight || seq.gate.is_none() {
            return true;
        }
        for n in seq.nodes.iter().skip(1) {
            if let Some(t) = zone_here(n) {
                if test_code(t, def, pl, q).is_none() {
                    return false;
                }
            } else if !matches!(n, Node::Capture(Tgt::Here)) {
                break;
            }
        }
        true
    }

    /// The header of the simple move (`Move::simple`) that block `id` writes once its gate
    /// has passed on square `q` for player `pl`, when that is all it does: a straight block
    /// whose gate is followed by one add of a simple move, or by an `if` on a zone of the
    /// landing square (decided here) with such an add in the branch taken. With `q2`, the
    /// square of the block's second gate (`GateEntry::second_gate`, whose test the rows
    /// make), the block may first test zones of the gate's square (decided at load,
    /// [`Special::gate_zones_hold`]) and step to the second gate, where it lands (a pawn's
    /// double step). Generation then writes the move from the gate row
    /// (`Exec::push_simple`), as the block would.
    pub(super) fn gate_simple(
        &self,
        def: &GameDef,
        id: u32,
        pl: usize,
        q: u16,
        q2: Option<u16>,
    ) -> Option<&crate::engine::Move> {
        let seq = self.blocks.get(id as usize)?;
        if !seq.straight || seq.gate.is_none() {
            return None;
        }
        fn only_add(s: &Seq) -> Option<&crate::engine::Move> {
            match s.nodes.as_slice() {
                [Node::Add(a)] => a.simple(),
                _ => None,
            }
        }
        let mut rest = seq.nodes.get(1..)?;
        let mut land = q;
        if let Some(q2) = q2 {
            while let [n, tail @ ..] = rest {
                if zone_here(n).is_none() {
                    break;
                }
                rest = tail;
            }
            let [Node::StepTest(..) | Node::Leap(..), tail @ ..] = rest else {
                return None;
            };
            rest = tail;
            land = q2;
        }
        match rest {
            [Node::Add(a)] => a.simple(),
            [Node::If(SCond::Test(t, Tgt::Here), a, b)] if matches!(t.kind, Kind::Zone(_)) => {
                if test_code(*t, def, pl, land).is_some() {
                    only_add(a)
                } else {
                    only_add(b)
                }
            }
            _ => None,
        }
    }

    /// The add that block `id` runs once both its gates have passed (the gate on `q`, the
    /// second gate on `q2`, for player `pl`), when that is all it does besides capturing the
    /// gate's square: a straight block of the draughts jump's shape (gate, `capture` of the
    /// gate's square, the second gate's step and test, then one add, or an `if` on a zone of
    /// the landing square, decided here, with one add in the branch taken). Generation then
    /// writes the add's move from the gate row (`Exec::add_straight` with that one capture),
    /// as the block's run would, without walking its tree.
    pub(super) fn gate_jump(&self, def: &GameDef, id: u32, pl: usize, q2: u16) -> Option<&Adder> {
        let seq = self.blocks.get(id as usize)?;
        if !seq.straight || seq.gate.is_none() {
            return None;
        }
        fn only_add(s: &Seq) -> Option<&Adder> {
            match s.nodes.as_slice() {
                [Node::Add(a)] => Some(a),
                _ => None,
            }
        }
        let [Node::Capture(Tgt::Here), Node::StepTest(..) | Node::Leap(..), tail] =
            seq.nodes.get(1..)?
        else {
            return None;
        };
        match tail {
            Node::Add(a) => Some(a),
            Node::If(
                SCond::Test(
                    t @ Test {
                        kind: Kind::Zone(_),
                        ..
                    },
                    Tgt::Here,
                ),
                a,
                b,
            ) => {
                if test_code(*t, def, pl, q2).is_some() {
                    only_add(a)
                } else {
                    only_add(b)
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Cut, EngineConfig, FastPath, MoveList, Rules};

    /// A game of one piece type on a 6x6 board with the given blocks; A moves first, from c3.
    fn rules(moves: &str) -> Rules {
        let text = format!(
            r#"(game (title "T") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d/e/f" (1 0)) ("6/5/4/3/2/1" (0 1)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0)))
    (zone (name far) (players A B) (positions a6 b6 c6 d6 e6 f6)))
  (piece (name P) (moves {moves}))
  (piece (name K))
  (board-setup (A (P c3)) (B (P c4) (K d3))))"#
        );
        let loaded = crate::load("t.zrf", text.as_bytes(), &crate::expand::NoFiles);
        let (def, diags) = crate::resolve_game(&loaded.games[0]);
        assert!(diags.is_empty(), "{diags:?}");
        Rules::new(def.expect("resolves"))
    }

    /// The legal moves at the start with the specialised trees on and off, which must agree.
    fn both(rules: &mut Rules) -> MoveList {
        let mut on = MoveList::new();
        let mut off = MoveList::new();
        rules.legal_moves(&mut rules.initial(), &mut on);
        rules.configure(EngineConfig::all().with(FastPath::Tree, false));
        rules.legal_moves(&mut rules.initial(), &mut off);
        rules.configure(EngineConfig::all());
        assert_eq!(on.moves, off.moves);
        assert_eq!(on.ops, off.ops);
        assert_eq!(on.squares, off.squares);
        assert_eq!(on.cut, off.cut);
        on
    }

    fn straight(rules: &Rules) -> Vec<bool> {
        rules.def.pieces[0]
            .moves
            .iter()
            .map(|b| rules.special.blocks[b.id as usize].straight)
            .collect()
    }

    #[test]
    fn draughts_jumps_steps_and_slides_are_straight() {
        let mut r = rules(
            "(n (verify enemy?) capture n (verify empty?) (if (in-zone? far) (add K) else add))
              (e (while empty? add e) (verify enemy?) add)
              (n (while empty? n) (verify enemy?) capture n (while empty? add n))
              (e (while (not-empty? e) capture e) add)
              (e mark (verify empty?) add)
              (e (verify (attacked? n)) add)",
        );
        // A loop that captures, `mark` and an attack test keep the general path.
        assert_eq!(straight(&r), [true, true, true, false, false, false]);
        // From c3: the jump over c4 to c5, the capture of d3 east, and the flying jump over c4
        // to c5 (the jump again, kept once) and c6; the other blocks repeat the capture of d3
        // or find d3 occupied.
        let moves = both(&mut r);
        assert_eq!(moves.len(), 3);
    }

    #[test]
    fn draughts_jumps_are_written_from_the_rows() {
        // The jump shape (gate, capture of its square, second gate, one add or an `if` on a
        // zone of the landing square, decided per row), which the rows write without the
        // tree: from c3 over c4 to c5, or over d3 to e3.
        for text in [
            "(n (verify enemy?) capture n (verify empty?) (if (in-zone? far) (add K) else add))",
            "(e (verify enemy?) capture e (verify empty?) add)",
            "(n (verify enemy?) capture n (verify empty?) (if (not-in-zone? far) add))",
        ] {
            let mut r = rules(text);
            assert!(!r.gate_rows.jumps.is_empty(), "{text}");
            let moves = both(&mut r);
            assert_eq!(moves.len(), 1, "{text}");
            assert_eq!(moves.captured(&moves.moves[0]).len(), 1, "{text}");
        }
        // Two captures, or a second step after the landing, keep the straight run.
        for text in [
            "(n (verify enemy?) capture capture n (verify empty?) add)",
            "(n (verify enemy?) capture n (verify empty?) n add)",
        ] {
            let mut r = rules(text);
            assert!(r.gate_rows.jumps.is_empty(), "{text}");
            both(&mut r);
        }
    }

    #[test]
    fn straight_loops_keep_the_limits() {
        // Adds without end: cut at the block's move limit, as the plain tree cuts it.
        let mut r = rules("(w (while true add))");
        assert_eq!(straight(&r), [true]);
        // (The same move each time, kept once.)
        let moves = both(&mut r);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves.cut, Some(Cut::BlockMoves));
        // Loops without end: cut at the step limit, no move.
        let mut r = rules("(w (while true (verify true)) add)");
        assert_eq!(straight(&r), [true]);
        let moves = both(&mut r);
        assert!(moves.is_empty());
        assert_eq!(moves.cut, Some(Cut::Steps));
    }
}
