//! The generation loop's gate rows: for each selector of `Rules::gen_lists`, player, piece
//! type and start square, the blocks whose gate can pass there, with the gate's square read
//! out of the direction (or fused leap) table at load and its test reduced to a small code.
//!
//! A block whose first step leaves the board from a square never appears in that square's
//! row, a zone test on the gate's square (fixed for a player and a square) is decided at
//! load, and the common tests (`empty?`, `enemy?`, `friend?`, negated or not, `on-board?`)
//! are one cell read and a comparison in the loop, with no table lookup. The rows hold the
//! same blocks in the same order as the lists they are made from, so generation adds the
//! same moves in the same order.

use crate::def::{GameDef, NONE};
use crate::engine::gate_test::{passes, Classes, GateTest};
use crate::engine::position::{Cell, DEAD};
use crate::engine::special::{GateEntry, GateTable, Special};
use crate::engine::EngineConfig;

/// The most entries (row starts and gates together) the rows of one game may hold; past
/// it, generation reads `Rules::gen_lists` as before (big boards with many piece types).
const MAX_ROW_ENTRIES: usize = 1 << 20;

bitflags::bitflags! {
    /// How generation treats one block of a row ([`SqGate::flags`]).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(in crate::engine) struct RowFlags: u16 {
        /// the block runs straight (`Exec::run_straight`): its tree is straight
        /// and the game recycles no captures.
        const STRAIGHT = 1;
        /// no gate: the block runs from the square (`Exec::run`).
        const RUN = 2;
        /// the gate's test is asked of the entry (`GateEntry::passes`).
        const TEST = 4;
        /// Beside `STRAIGHT` or alone: a straight block that only writes one
        /// simple move once its gate passes, whose header is [`GateRows::simples`]`[SqGate::simple]`
        /// (`Special::gate_simple`).
        const SIMPLE = 8;
        /// Beside `STRAIGHT` or alone: a straight block of the draughts jump's shape
        /// that, once both gates pass, only captures the gate's square and adds one move landing on
        /// the second gate's square, with the add [`GateRows::jumps`]`[SqGate::simple]`
        /// (`Special::gate_jump`).
        const JUMP = 16;
        /// A plain slide answered over square sets (`compiled/rays.rs`), whose ray is
        /// `Rays::rays[SqGate::simple]`.
        const RAY = 32;
        /// On every gate of a row whose moves reach each destination at most once, each
        /// from the row's square (`GateRows::mark_distinct`): generation notes nothing for
        /// the duplicate check there (`Scratch::note_square`).
        const DISTINCT = 64;
        /// As `SIMPLE`, for a block whose one simple move lands on its second gate's
        /// square ([`SqGate::q2`]: a pawn's double step), written by `Generator::run_row_gate`.
        const SIMPLE2 = 128;
        /// A `SIMPLE` or `RAY` gate whose moves the last level of bulk perft counts instead of
        /// writing them (`compiled/count.rs`): generation leaves it out on the squares
        /// `Scratch::count_part` names.
        const COUNTED = 256;
        /// The block is the last of its piece's list.
        const LAST = 512;
    }
}

/// One block in one square's row.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct SqGate {
    /// The gate's square (0 without a gate).
    pub q: u16,
    /// The second gate's square (`GateEntry::second_gate`), or `q`: where a `SIMPLE2`
    /// gate's move lands.
    pub q2: u16,
    /// The classes of the gate's square that pass.
    pub mask: Classes,
    /// The classes of the second gate's square that pass (any: any, or none).
    pub mask2: Classes,
    pub flags: RowFlags,
    /// The block's entry in [`GateRows::entries`].
    pub entry: u32,
    /// With `SIMPLE`: the move's header in [`GateRows::simples`]; with `JUMP`: the
    /// add in [`GateRows::jumps`]; with `RAY`: the ray in `Rays::rays`.
    pub simple: u32,
}

/// The rows of a game (empty when they would pass [`MAX_ROW_ENTRIES`]).
#[derive(Clone, Debug, Default)]
pub(in crate::engine) struct GateRows {
    /// Per (selector, player, piece type, square), in that order: where its row begins and
    /// ends in `gates`.
    pub(super) span: Vec<(u32, u32)>,
    pub gates: Vec<SqGate>,
    /// The generation entries the rows point to.
    pub entries: Vec<GateEntry>,
    /// The headers of the simple moves of `SIMPLE` gates.
    pub simples: Vec<crate::engine::Move>,
    /// The adds of `JUMP` gates.
    pub jumps: Vec<crate::engine::special::Adder>,
    /// Per (selector, player, piece type): the length of its list.
    list_len: Vec<u32>,
    /// Per (selector, player): the index of its rows ([`GateRows::base`]), `usize::MAX` for none.
    bases: Vec<usize>,
    n_players: usize,
    n_pieces: usize,
    n_pos: usize,
}

impl GateRows {
    /// The rows of `lists` (`Rules::gen_lists`), when they fit.
    /// The straight runner, `RowFlags::SIMPLE` and `RowFlags::JUMP` are marked as `config` takes them.
    pub fn build(
        def: &GameDef,
        special: &Special,
        lists: &[Vec<Vec<GateEntry>>],
        config: EngineConfig,
    ) -> GateRows {
        let board = &def.board;
        let n_pos = board.n_pos();
        let n_players = def.players.len();
        let n_pieces = def.pieces.len();
        let n_dirs = board.directions.len();
        let n_rows = lists.len() * n_players * n_pieces * n_pos;
        if n_rows >= MAX_ROW_ENTRIES {
            return GateRows::default();
        }
        // Under recycled captures a straight block's capture is written with its store ops
        // (`Exec::add_straight`), except with deferred captures.
        let recycle = def.options.recycle_captures;
        let straight_ok = !(recycle && def.options.deferred_captures);
        let mut rows = GateRows {
            span: Vec::with_capacity(n_rows),
            gates: Vec::new(),
            entries: Vec::new(),
            simples: Vec::new(),
            jumps: Vec::new(),
            list_len: Vec::new(),
            bases: Vec::new(),
            n_players,
            n_pieces,
            n_pos,
        };
        let mut simple_ids: rustc_hash::FxHashMap<usize, u32> = Default::default();
        let mut jump_ids: rustc_hash::FxHashMap<usize, u32> = Default::default();
        for sel in lists {
            for pl in 0..n_players {
                for pi in 0..n_pieces {
                    let list = sel.get(pi).map_or(&[][..], |l| &l[..]);
                    let first = rows.entries.len() as u32;
                    rows.entries.extend_from_slice(list);
                    rows.list_len.push(list.len() as u32);
                    let last = list.len().wrapping_sub(1);
                    for sq in 0..n_pos {
                        let row_start = rows.gates.len() as u32;
                        for (k, e) in list.iter().enumerate() {
                            let is_last = if k == last {
                                RowFlags::LAST
                            } else {
                                RowFlags::empty()
                            };
                            let q = match e.table {
                                GateTable::Step => {
                                    board.next.get(pl * n_dirs * n_pos + e.off as usize + sq)
                                }
                                GateTable::Leap => {
                                    special.leaps.get(pl * n_pos + e.off as usize + sq)
                                }
                                _ => Some(&NONE),
                            };
                            let q = match q {
                                Some(&q) => q,
                                None => NONE,
                            };
                            let is_straight = straight_ok && e.straight;
                            let straight = if is_straight && config.straight {
                                RowFlags::STRAIGHT
                            } else {
                                RowFlags::empty()
                            };
                            let gate = if e.table == GateTable::None {
                                SqGate {
                                    q: 0,
                                    q2: 0,
                                    mask: Classes::ANY,
                                    mask2: Classes::ANY,
                                    flags: RowFlags::RUN | is_last,
                                    entry: first + k as u32,
                                    simple: 0,
                                }
                            } else if q == NONE || q as usize >= n_pos {
                                // The block ends at its first step.
                                continue;
                            } else {
                                let Some(code) = e.gate_code(def, pl, q) else {
                                    continue;
                                };
                                if !special.gate_zones_hold(def, e.id, pl, q) {
                                    continue;
                                }
                                let (q2, mask2, gate2) =
                                    match e.second_gate(def, &special.leaps, pl, q) {
                                        None => (q, Classes::ANY, false),
                                        Some(None) => continue,
                                        Some(Some((q2, code2))) => (q2, code2.classes(), true),
                                    };
                                let mut flags = straight;
                                flags.set(RowFlags::TEST, code == GateTest::Other);
                                let mut simple = 0;
                                // Under recycled captures only a step to an empty square is
                                // a simple move (it captures nothing).
                                let lands_empty = if gate2 {
                                    mask2 == Classes::EMPTY
                                } else {
                                    code == GateTest::Empty
                                };
                                let may_simple = if recycle {
                                    e.straight && lands_empty && !flags.contains(RowFlags::TEST)
                                } else {
                                    is_straight && !flags.contains(RowFlags::TEST)
                                };
                                // With a second gate, the move lands there.
                                let head = (may_simple && config.simple)
                                    .then(|| {
                                        special.gate_simple(def, e.id, pl, q, gate2.then_some(q2))
                                    })
                                    .flatten();
                                if let Some(m) = head {
                                    // One header per add (by its address).
                                    let n = rows.simples.len() as u32;
                                    let key = m as *const crate::engine::Move as usize;
                                    simple = *simple_ids.entry(key).or_insert(n);
                                    if simple == n {
                                        rows.simples.push(*m);
                                    }
                                    flags |= if gate2 {
                                        RowFlags::SIMPLE2
                                    } else {
                                        RowFlags::SIMPLE
                                    };
                                } else if !(may_simple && mask2 == Classes::ANY)
                                    && is_straight
                                    && !flags.contains(RowFlags::TEST)
                                    && gate2
                                    && config.jump
                                {
                                    if let Some(a) = special.gate_jump(def, e.id, pl, q2) {
                                        // One copy per add (by its address).
                                        let n = rows.jumps.len() as u32;
                                        let key =
                                            a as *const crate::engine::special::Adder as usize;
                                        simple = *jump_ids.entry(key).or_insert(n);
                                        if simple == n {
                                            rows.jumps.push(a.clone());
                                        }
                                        flags |= RowFlags::JUMP;
                                    }
                                }
                                SqGate {
                                    q,
                                    q2,
                                    mask: code.classes(),
                                    mask2,
                                    flags: flags | is_last,
                                    entry: first + k as u32,
                                    simple,
                                }
                            };
                            rows.gates.push(gate);
                            if rows.gates.len() + rows.span.len() > MAX_ROW_ENTRIES {
                                return GateRows::default();
                            }
                        }
                        rows.span.push((row_start, rows.gates.len() as u32));
                    }
                }
            }
        }
        rows.bases = (0..lists.len() * n_players)
            .map(|i| {
                rows.base_of(i / n_players, i % n_players)
                    .unwrap_or(usize::MAX)
            })
            .collect();
        rows
    }

    /// Marks `RowFlags::DISTINCT` the rows whose gates each write moves to a known set of
    /// destinations, pairwise apart: a `SIMPLE` gate its square, a `SIMPLE2` gate its
    /// second square, a `JUMP` gate its second
    /// square (an add with at most one promotion), a `RAY` gate the squares of its ray
    /// (`ray_mask`: the squares of `Rays::rays[SqGate::simple]`). Every such move's path
    /// begins at the row's square, so the moves of a row are distinct and the duplicate check
    /// needs no note of them (`EngineConfig::distinct`). Rows with another gate stay unmarked.
    pub fn mark_distinct(&mut self, ray_mask: impl Fn(u32) -> Option<u64>) {
        let mut seen: Vec<bool> = vec![false; self.n_pos];
        for &(a, b) in &self.span {
            let Some(row) = self.gates.get_mut(a as usize..b as usize) else {
                continue;
            };
            if row.is_empty() {
                continue;
            }
            seen.iter_mut().for_each(|s| *s = false);
            let mut apart = true;
            let mut take = |q: usize| match seen.get_mut(q) {
                Some(s) if !*s => {
                    *s = true;
                    true
                }
                _ => false,
            };
            for g in row.iter() {
                apart &= if g.flags.contains(RowFlags::RAY) {
                    ray_mask(g.simple).is_some_and(|mut m| {
                        let mut ok = m != 0;
                        while m != 0 {
                            ok &= take(m.trailing_zeros() as usize);
                            m &= m - 1;
                        }
                        ok
                    })
                } else if g.flags.contains(RowFlags::SIMPLE) {
                    take(g.q as usize)
                } else if g.flags.contains(RowFlags::SIMPLE2) {
                    take(g.q2 as usize)
                } else if g.flags.contains(RowFlags::JUMP) {
                    let one =
                        (self.jumps.get(g.simple as usize)).is_some_and(|j| j.promote.len() <= 1);
                    one && take(g.q2 as usize)
                } else {
                    false
                };
                if !apart {
                    break;
                }
            }
            if apart {
                row.iter_mut().for_each(|g| g.flags |= RowFlags::DISTINCT);
            }
        }
    }

    /// The index of the rows of selector `sel` and player `pl` (square 0 of piece type 0),
    /// `None` when there are none: read from [`GateRows::bases`].
    #[inline(always)]
    pub fn base(&self, sel: usize, pl: usize) -> Option<usize> {
        if pl >= self.n_players {
            return None;
        }
        let b = *self.bases.get(sel.checked_mul(self.n_players)? + pl)?;
        (b != usize::MAX).then_some(b)
    }

    /// [`GateRows::base`] computed, for [`GateRows::bases`].
    fn base_of(&self, sel: usize, pl: usize) -> Option<usize> {
        let b = (sel.checked_mul(self.n_players)? + pl) * self.n_pieces * self.n_pos;
        (b + self.n_pieces * self.n_pos <= self.span.len() && !self.span.is_empty()).then_some(b)
    }

    /// Whether piece type `pi` has blocks in the lists of a base ([`GateRows::base`]).
    pub fn has_list(&self, base: usize, pi: usize) -> bool {
        let i = base / self.n_pos.max(1) + pi;
        self.list_len.get(i).is_some_and(|&n| n > 0)
    }

    /// Whether the piece `c` on `sq` may add a move with the rows of a base
    /// ([`GateRows::base`]) on a board whose cells `at` reads: false only when the piece is
    /// not a live piece of `side`, or every block of its row has a gate decided by masks
    /// alone and none passes (so `Generator::gen_rows` would add nothing there).
    #[inline]
    pub fn may_move(
        &self,
        base: usize,
        sq: u16,
        c: Cell,
        side: u8,
        at: impl Fn(u16) -> Cell,
    ) -> bool {
        if c.is_empty() || c.owner != side || c.marks & DEAD != 0 {
            return false;
        }
        let spans = self.spans(base);
        let Some(&(a, b)) = spans.get((c.piece as usize - 1) * self.n_pos + sq as usize) else {
            return false;
        };
        let Some(row) = self.gates.get(a as usize..b as usize) else {
            return false;
        };
        row.iter().any(|g| {
            g.flags.intersects(RowFlags::RUN | RowFlags::TEST)
                || passes(g.mask, at(g.q), side)
                    && (g.mask2 == Classes::ANY || passes(g.mask2, at(g.q2), side))
        })
    }

    /// The gates of every row, and how many are marked `STRAIGHT`, `SIMPLE` and `JUMP`
    /// (`Rules::path_counts`).
    pub fn count(&self) -> [usize; 4] {
        let marked = |f: RowFlags| self.gates.iter().filter(|g| g.flags.contains(f)).count();
        [
            self.gates.len(),
            marked(RowFlags::STRAIGHT),
            marked(RowFlags::SIMPLE) + marked(RowFlags::SIMPLE2),
            marked(RowFlags::JUMP),
        ]
    }

    /// The spans of the rows of a base ([`GateRows::base`]), by piece type and square.
    #[inline(always)]
    pub fn spans(&self, base: usize) -> &[(u32, u32)] {
        self.span
            .get(base..base + self.n_pieces * self.n_pos)
            .unwrap_or(&[])
    }
}
