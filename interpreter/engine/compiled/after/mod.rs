//! `after-move` without the interpreter, for the programs the resolver's output shows to be
//! plain: only `if` and counter settings, with conditions on the move just made
//! (`capture-made?`, `moved-piece?`), constants and comparisons. Such a program is run
//! straight over its tree, with the interpreter's semantics: expressions read the position
//! after the move, and a later setting of a counter replaces an earlier one. The fifty-move
//! clock idiom is recognised whole and costs one counter op. `count-pieces` without a zone is
//! answered from one tally of the board per move.

use crate::def::*;
use crate::engine::arith::arith;
use crate::engine::position::{Cell, Position, DEAD};
use crate::engine::undo::UndoLog;
use crate::engine::undo::{
    MemoKey, Tally, MAX_CACHED, MAX_CACHED_PLAYERS, MAX_MEMO_READS, MAX_TALLY, MEMO_SIZE,
};

mod clock;
pub(in crate::engine) use clock::{Clock, ClockLeaves};

/// Whether an `after-move` program is plain (see the module comment).
pub(in crate::engine) fn plain_program(body: &[Instr]) -> bool {
    fn cond(c: &Cond) -> bool {
        match c {
            Cond::Const(_) | Cond::CaptureMade | Cond::MovedPiece(_) | Cond::Compare(..) => true,
            Cond::Not(x) => cond(x),
            Cond::And(xs) | Cond::Or(xs) => xs.iter().all(cond),
            _ => false,
        }
    }
    body.iter().all(|i| match i {
        Instr::SetCounter(..) => true,
        Instr::If(c, a, b) => cond(c) && plain_program(a) && plain_program(b),
        _ => false,
    })
}

/// A plain program compiled at load: the same tree, with each `count-pieces` over the whole
/// board turned into one mask per mover over the tally's slots, and each condition that reads
/// only the tally (`PCond::Cached`) answered from bits kept with the tally.
#[derive(Clone, Debug)]
pub(in crate::engine) struct Prog {
    pub(in crate::engine) body: Vec<PInstr>,
    /// Whether some `count-pieces` reads the tally.
    pub(in crate::engine) counts: bool,
    /// The conditions that read only the tally (counts, constants, arithmetic): their value
    /// is the same for every position with the same tally, so they are evaluated when the
    /// tally changes, for every player, and kept as bits ([`Tally::bits`]).
    pure: Vec<PCond>,
    n_players: usize,
    n_pieces: usize,
    /// The counters the program reads, when its settings depend on nothing else than them,
    /// the mover, the move's capture and piece type and the cached conditions: then its
    /// settings are remembered by those inputs ([`Memo`]).
    reads: Option<Vec<Slot>>,
    /// Distinct for every compiled program (copies share it): what an [`UndoLog`] keeps for
    /// one program (tallies with cached conditions, the memo) is not used for another.
    pub(in crate::engine) id: u64,
}

/// The next [`Prog::id`].
static NEXT_PROG: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A counter's place in `Position::counters`, resolved at load: `base`, plus the mover for a
/// per-player counter.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Slot {
    base: u32,
    per_player: bool,
}

impl Slot {
    fn new(def: &GameDef, c: u16) -> Slot {
        let width = |d: &CounterDef| {
            if d.per_player {
                def.players.len().max(1) as u32
            } else {
                1
            }
        };
        Slot {
            base: def.counters[..c as usize].iter().map(width).sum(),
            per_player: def.counters[c as usize].per_player,
        }
    }

    #[inline]
    pub(in crate::engine) fn of(self, mover: PlayerId) -> u32 {
        self.base + if self.per_player { mover.0 as u32 } else { 0 }
    }
}

#[derive(Clone, Debug)]
pub(in crate::engine) enum PInstr {
    Set(Slot, PExpr),
    If(PCond, Vec<PInstr>, Vec<PInstr>),
}

#[derive(Clone, Debug)]
pub(in crate::engine) enum PCond {
    Const(bool),
    Not(Box<PCond>),
    And(Vec<PCond>),
    Or(Vec<PCond>),
    CaptureMade,
    /// By type + 1: whether moving a piece of that type makes it true.
    MovedPiece(Vec<bool>),
    Compare(CmpOp, PExpr, PExpr),
    /// Condition `k` of [`Prog::pure`]: bit `k` of the tally's bits for the mover.
    Cached(u8),
}

#[derive(Clone, Debug)]
pub(in crate::engine) enum PExpr {
    Int(i64),
    Counter(Slot),
    Arith(char, Box<PExpr>, Box<PExpr>),
    /// `count-pieces` over the whole board: by mover, the tally slots it sums.
    Count(Vec<u64>),
    /// Anything else, evaluated by `Rules::eval`.
    Other(Expr),
}

impl PInstr {
    /// Collects the counters the instruction reads; false when it reads anything else than
    /// counters, the move and cached conditions.
    fn reads(&self, out: &mut Vec<Slot>) -> bool {
        match self {
            PInstr::Set(_, e) => e.reads(out),
            PInstr::If(c, a, b) => {
                c.reads(out) && a.iter().all(|i| i.reads(out)) && b.iter().all(|i| i.reads(out))
            }
        }
    }

    fn counts(&self) -> bool {
        match self {
            PInstr::Set(_, e) => e.counts(),
            PInstr::If(c, a, b) => {
                c.counts() || a.iter().any(Self::counts) || b.iter().any(Self::counts)
            }
        }
    }

    /// Moves the tally-only conditions of a body into `pure`, leaving `Cached` in their place.
    fn cache(body: &mut [PInstr], pure: &mut Vec<PCond>) {
        for i in body {
            if let PInstr::If(c, a, b) = i {
                c.cache(pure);
                Self::cache(a, pure);
                Self::cache(b, pure);
            }
        }
    }
}

impl PCond {
    fn reads(&self, out: &mut Vec<Slot>) -> bool {
        match self {
            PCond::Not(x) => x.reads(out),
            PCond::And(xs) | PCond::Or(xs) => xs.iter().all(|x| x.reads(out)),
            PCond::Compare(_, a, b) => a.reads(out) && b.reads(out),
            PCond::Const(_) | PCond::CaptureMade | PCond::MovedPiece(_) | PCond::Cached(_) => true,
        }
    }

    fn counts(&self) -> bool {
        match self {
            PCond::Not(x) => x.counts(),
            PCond::And(xs) | PCond::Or(xs) => xs.iter().any(Self::counts),
            PCond::Compare(_, a, b) => a.counts() || b.counts(),
            _ => false,
        }
    }

    /// Whether the condition reads nothing but the tally and constants.
    fn pure(&self) -> bool {
        match self {
            PCond::Const(_) => true,
            PCond::Not(x) => x.pure(),
            PCond::And(xs) | PCond::Or(xs) => xs.iter().all(Self::pure),
            PCond::Compare(_, a, b) => a.pure() && b.pure(),
            _ => false,
        }
    }

    /// Replaces the largest tally-only parts that count pieces by `Cached`.
    fn cache(&mut self, pure: &mut Vec<PCond>) {
        if self.pure() && self.counts() {
            if pure.len() < MAX_CACHED {
                let c = std::mem::replace(self, PCond::Cached(pure.len() as u8));
                pure.push(c);
            }
            return;
        }
        match self {
            PCond::Not(x) => x.cache(pure),
            PCond::And(xs) | PCond::Or(xs) => xs.iter_mut().for_each(|x| x.cache(pure)),
            _ => {}
        }
    }

    /// The value of a tally-only condition for `mover`.
    fn eval_pure(&self, tally: &[u32; MAX_TALLY], mover: usize) -> bool {
        match self {
            PCond::Const(b) => *b,
            PCond::Not(x) => !x.eval_pure(tally, mover),
            PCond::And(xs) => xs.iter().all(|x| x.eval_pure(tally, mover)),
            PCond::Or(xs) => xs.iter().any(|x| x.eval_pure(tally, mover)),
            PCond::Compare(op, a, b) => {
                op.test(a.eval_pure(tally, mover), b.eval_pure(tally, mover))
            }
            _ => false,
        }
    }
}

impl PExpr {
    fn reads(&self, out: &mut Vec<Slot>) -> bool {
        match self {
            PExpr::Int(_) => true,
            PExpr::Counter(c) => {
                if !out.iter().any(|s| s.base == c.base) {
                    out.push(*c);
                }
                true
            }
            PExpr::Arith(_, a, b) => a.reads(out) && b.reads(out),
            PExpr::Count(_) | PExpr::Other(_) => false,
        }
    }

    fn counts(&self) -> bool {
        match self {
            PExpr::Count(_) => true,
            PExpr::Arith(_, a, b) => a.counts() || b.counts(),
            _ => false,
        }
    }

    fn pure(&self) -> bool {
        match self {
            PExpr::Int(_) | PExpr::Count(_) => true,
            PExpr::Arith(_, a, b) => a.pure() && b.pure(),
            _ => false,
        }
    }

    /// The value of a tally-only expression for `mover`.
    fn eval_pure(&self, tally: &[u32; MAX_TALLY], mover: usize) -> i64 {
        match self {
            PExpr::Int(n) => *n,
            PExpr::Arith(op, a, b) => {
                let a = a.eval_pure(tally, mover);
                arith(*op, a, b.eval_pure(tally, mover))
            }
            PExpr::Count(masks) => count(masks, tally, mover),
            _ => 0,
        }
    }
}

/// The pieces a `count-pieces` mask set counts for `mover`.
#[inline]
pub(in crate::engine) fn count(masks: &[u64], tally: &[u32; MAX_TALLY], mover: usize) -> i64 {
    let mut m = masks.get(mover).copied().unwrap_or(0);
    let mut n = 0i64;
    while m != 0 {
        n += tally[m.trailing_zeros() as usize] as i64;
        m &= m - 1;
    }
    n
}

/// The tally slot a cell counts in, if any.
#[inline]
fn tally_slot(c: Cell, n_pieces: usize) -> Option<usize> {
    let slot = (c.owner as usize * n_pieces + c.piece as usize).wrapping_sub(1);
    (!c.is_empty() && c.marks & DEAD == 0 && slot < MAX_TALLY).then_some(slot)
}

/// The tally of a position, by one scan of its board.
fn scan(pos: &Position, n_pieces: usize) -> [u32; MAX_TALLY] {
    let mut t = [0u32; MAX_TALLY];
    for &c in &pos.cells {
        // Owners outside the player list are never counted as anyone's: their slots are
        // past the players' or beyond the tally, and no mask reads them.
        if let Some(s) = tally_slot(c, n_pieces) {
            t[s] += 1;
        }
    }
    t
}

impl Prog {
    /// Compiles a plain program (`plain_program` holds) for `def`.
    pub(in crate::engine) fn compile(def: &GameDef) -> Prog {
        let mut body = Self::body(def, &def.after_move);
        let counts = body.iter().any(PInstr::counts);
        let mut pure = Vec::new();
        if counts && def.players.len() <= MAX_CACHED_PLAYERS {
            PInstr::cache(&mut body, &mut pure);
        }
        let mut reads = Vec::new();
        let memo = body.iter().all(|i| i.reads(&mut reads)) && reads.len() <= MAX_MEMO_READS;
        Prog {
            body,
            counts,
            pure,
            n_players: def.players.len(),
            n_pieces: def.pieces.len(),
            reads: memo.then_some(reads),
            id: NEXT_PROG.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The memo key of a run, when the program is remembered.
    #[inline]
    pub(in crate::engine) fn memo_key(
        &self,
        pos: &Position,
        mover: PlayerId,
        after: (bool, u16),
        bits: u64,
    ) -> Option<MemoKey> {
        let reads = self.reads.as_ref()?;
        let mut key = [0u64; 2 + MAX_MEMO_READS / 2];
        key[0] = mover.0 as u64 | (after.0 as u64) << 8 | (after.1 as u64) << 16;
        key[1] = bits;
        for (k, slot) in reads.iter().enumerate() {
            let v = pos.counters[slot.of(mover) as usize] as u32 as u64;
            key[2 + k / 2] |= v << (32 * (k % 2));
        }
        Some(key)
    }

    fn body(def: &GameDef, body: &[Instr]) -> Vec<PInstr> {
        body.iter()
            .filter_map(|i| match i {
                Instr::SetCounter(c, e) => {
                    Some(PInstr::Set(Slot::new(def, *c), Self::expr(def, e)))
                }
                Instr::If(c, a, b) => Some(PInstr::If(
                    Self::cond(def, c),
                    Self::body(def, a),
                    Self::body(def, b),
                )),
                _ => None,
            })
            .collect()
    }

    fn cond(def: &GameDef, c: &Cond) -> PCond {
        match c {
            Cond::Not(x) => PCond::Not(Box::new(Self::cond(def, x))),
            Cond::And(xs) => PCond::And(xs.iter().map(|x| Self::cond(def, x)).collect()),
            Cond::Or(xs) => PCond::Or(xs.iter().map(|x| Self::cond(def, x)).collect()),
            Cond::CaptureMade => PCond::CaptureMade,
            Cond::MovedPiece(ts) => {
                let mut by_type = vec![false; def.pieces.len() + 1];
                for t in ts {
                    if let Some(b) = by_type.get_mut(t.idx() + 1) {
                        *b = true;
                    }
                }
                PCond::MovedPiece(by_type)
            }
            Cond::Compare(op, a, b) => PCond::Compare(*op, Self::expr(def, a), Self::expr(def, b)),
            Cond::Const(b) => PCond::Const(*b),
            // Not plain: `plain_program` keeps such programs from being compiled.
            _ => PCond::Const(false),
        }
    }

    fn expr(def: &GameDef, e: &Expr) -> PExpr {
        let (n_players, n_pieces) = (def.players.len(), def.pieces.len());
        match e {
            Expr::Int(n) => PExpr::Int(*n),
            Expr::Counter(c) => PExpr::Counter(Slot::new(def, *c)),
            Expr::Arith(op, a, b) => PExpr::Arith(
                *op,
                Box::new(Self::expr(def, a)),
                Box::new(Self::expr(def, b)),
            ),
            Expr::CountPieces(owner, pieces, None) if n_players * n_pieces <= MAX_TALLY => {
                let masks = (0..n_players)
                    .map(|side| {
                        let mut m = 0u64;
                        for pl in 0..n_players {
                            let wanted = match owner {
                                Owner::Mine => pl == side,
                                Owner::Opponent => pl != side,
                                Owner::Any => true,
                            };
                            for t in 0..n_pieces {
                                if wanted
                                    && (pieces.is_empty() || pieces.iter().any(|p| p.idx() == t))
                                {
                                    m |= 1 << (pl * n_pieces + t);
                                }
                            }
                        }
                        m
                    })
                    .collect();
                PExpr::Count(masks)
            }
            _ => PExpr::Other(e.clone()),
        }
    }

    /// The tally-only conditions of a tally, for every player; remembered in `memo` by the
    /// counts when there are at most 8 slots (`ns`).
    fn cached_bits(
        &self,
        counts: &[u32; MAX_TALLY],
        ns: usize,
        memo: &mut Vec<([u32; 8], [u64; MAX_CACHED_PLAYERS])>,
    ) -> [u64; MAX_CACHED_PLAYERS] {
        let mut bits = [0u64; MAX_CACHED_PLAYERS];
        if self.pure.is_empty() {
            return bits;
        }
        let mut key = [0u32; 8];
        let at = (ns <= 8).then(|| {
            key.copy_from_slice(&counts[..8]);
            let h = key.iter().fold(0u64, |h, &x| {
                (h ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            });
            (h >> 58) as usize & (MEMO_SIZE - 1)
        });
        if let Some(i) = at {
            if memo.is_empty() {
                // No tally has these counts (the counts of a slot past `ns` are 0).
                memo.resize(MEMO_SIZE, ([u32::MAX; 8], [0; MAX_CACHED_PLAYERS]));
            }
            if memo[i].0 == key {
                return memo[i].1;
            }
        }
        for (mover, b) in bits.iter_mut().enumerate().take(self.n_players) {
            for (k, c) in self.pure.iter().enumerate() {
                *b |= u64::from(c.eval_pure(counts, mover)) << k;
            }
        }
        if let Some(i) = at {
            memo[i] = (key, bits);
        }
        bits
    }

    /// Makes `log.after_tallies[d + 1]` the tally of `pos`, the position after the move
    /// last applied in `log` (at depth `d`): the tally before that move (`[d]`, kept under
    /// its hash) changed by the cells the move wrote, or one scan of the board when the
    /// position before is not known. Returns `d + 1`. A move that leaves every count as it
    /// was (most moves) keeps the cached conditions as they were. Hash equality stands for
    /// equal positions here as it does for repetitions. Inlined into its one caller, which
    /// runs after every move of a game that counts pieces.
    #[inline(always)]
    pub(in crate::engine) fn tally_after(&self, pos: &Position, log: &mut UndoLog) -> usize {
        let n_pieces = self.n_pieces;
        let (before, d) = match log.last_cells() {
            Some((before, _)) => (before, log.depth() - 1),
            None => (pos.hash ^ 1, 0),
        };
        if log.after_tallies.len() < d + 2 {
            log.after_tallies.resize(d + 2, Tally::default());
        }
        let ns = self.n_players.saturating_mul(self.n_pieces).min(MAX_TALLY);
        let mut tallies = std::mem::take(&mut log.after_tallies);
        let (lo, hi) = tallies.split_at_mut(d + 1);
        let (base, t) = (&mut lo[d], &mut hi[0]);
        // Known once the program has run (`after_move_plain_run`).
        t.hash = 0;
        let known = base.hash == before;
        if known {
            // A few slots (the usual case) are copied as one fixed block.
            let w = if ns <= 8 { 8 } else { MAX_TALLY };
            t.counts[..w].copy_from_slice(&base.counts[..w]);
        } else {
            // Not known: counted from the board, and the position before from that.
            t.counts = scan(pos, n_pieces);
            base.counts = t.counts;
        }
        // The change: for each square written, its cell before the move out (the old cell of
        // its first write) and its cell now in.
        let cells = log.cells_since(d);
        for (k, &(sq, old)) in cells.iter().enumerate() {
            if cells[..k].iter().any(|&(q, _)| q == sq) {
                continue;
            }
            let new = pos.cells[sq as usize];
            if old == new {
                continue;
            }
            let counts = if known {
                &mut t.counts
            } else {
                &mut base.counts
            };
            let (out, into) = (tally_slot(old, n_pieces), tally_slot(new, n_pieces));
            if known {
                if let Some(s) = out {
                    counts[s] = counts[s].wrapping_sub(1);
                }
                if let Some(s) = into {
                    counts[s] = counts[s].wrapping_add(1);
                }
            } else {
                if let Some(s) = out {
                    counts[s] = counts[s].wrapping_add(1);
                }
                if let Some(s) = into {
                    counts[s] = counts[s].wrapping_sub(1);
                }
            }
        }
        let same = if ns <= 8 {
            t.counts[..8] == base.counts[..8]
        } else {
            t.counts[..ns] == base.counts[..ns]
        };
        if !known {
            base.hash = before;
            base.bits = self.cached_bits(&base.counts, ns, &mut log.after_bits);
            t.bits = self.cached_bits(&t.counts, ns, &mut log.after_bits);
        } else if same {
            t.bits = base.bits;
        } else {
            t.bits = self.cached_bits(&t.counts, ns, &mut log.after_bits);
        }
        log.after_tallies = tallies;
        d + 1
    }
}
