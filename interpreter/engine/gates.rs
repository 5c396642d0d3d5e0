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

use super::position::{Cell, DEAD};
use super::special::{GateEntry, Special, GATE_LEAP, GATE_NONE, GATE_STEP};
use super::EngineConfig;
use crate::def::{GameDef, NONE};

/// The most entries (row starts and gates together) the rows of one game may hold; past
/// it, generation reads `Rules::gen_lists` as before (big boards with many piece types).
const MAX_ROW_ENTRIES: usize = 1 << 20;

/// Codes of gate tests ([`GateEntry::gate_code`]).
/// The gate passes on any cell (a bare step that stays on the board).
pub(super) const G_PASS: u8 = 1;
/// The gate's square must be empty.
pub(super) const G_EMPTY: u8 = 2;
/// The gate's square must be occupied.
pub(super) const G_OCCUPIED: u8 = 3;
/// The gate's square must hold a live enemy piece.
pub(super) const G_ENEMY: u8 = 4;
/// The gate's square must not hold a live enemy piece.
pub(super) const G_NOT_ENEMY: u8 = 5;
/// The gate's square must hold a live friendly piece.
pub(super) const G_FRIEND: u8 = 6;
/// The gate's square must not hold a live friendly piece.
pub(super) const G_NOT_FRIEND: u8 = 7;
/// Any other test: asked of the block's [`GateEntry`].
pub(super) const G_TEST: u8 = 8;

/// [`SqGate::flags`]: the block runs straight (`Exec::run_straight`): its tree is straight
/// and the game recycles no captures.
pub(super) const F_STRAIGHT: u8 = 1;
/// [`SqGate::flags`]: no gate: the block runs from the square (`Exec::run`).
pub(super) const F_RUN: u8 = 2;
/// [`SqGate::flags`]: the gate's test is asked of the entry (`GateEntry::passes`).
pub(super) const F_TEST: u8 = 4;
/// [`SqGate::flags`] (beside `F_STRAIGHT` or alone): a straight block that only writes one
/// simple move once its gate passes, whose header is [`GateRows::simples`]`[SqGate::simple]`
/// (`Special::gate_simple`).
pub(super) const F_SIMPLE: u8 = 8;
/// [`SqGate::flags`] (beside `F_STRAIGHT` or alone): a straight block of the draughts jump's shape
/// that, once both gates pass, only captures the gate's square and adds one move landing on
/// the second gate's square, with the add [`GateRows::jumps`]`[SqGate::simple]`
/// (`Special::gate_jump`).
pub(super) const F_JUMP: u8 = 16;

/// The class of a cell for the mover `side`, an index into a gate's mask: bit 0 occupied,
/// bit 1 owned by the mover, bit 2 captured (deferred).
#[inline(always)]
pub(super) fn class(c: Cell, side: u8) -> u32 {
    u32::from(c.piece != 0) | u32::from(c.owner == side) << 1 | u32::from(c.marks & DEAD) << 2
}

/// Whether a gate's mask holds on a cell for the mover `side`: `mask >> class(c, side) & 1`.
/// Every mask ([`mask`]) has its bits of empty classes (even) all equal, so an empty cell,
/// the commonest, is answered by bit 0 without its owner and marks.
#[inline(always)]
pub(super) fn passes(mask: u8, c: Cell, side: u8) -> bool {
    if c.piece == 0 {
        mask & 1 != 0
    } else {
        mask >> class(c, side) & 1 != 0
    }
}

/// The mask of `empty?` ([`mask`]).
pub(super) const EMPTY_MASK: u8 = 0x55;

/// The mask of the classes ([`class`]) on which a test code holds.
pub(super) fn mask(code: u8) -> u8 {
    match code {
        G_EMPTY => EMPTY_MASK,
        G_OCCUPIED => 0xAA,
        G_ENEMY => 0x02,
        G_NOT_ENEMY => 0xFD,
        G_FRIEND => 0x08,
        G_NOT_FRIEND => 0xF7,
        _ => 0xFF,
    }
}

/// One block in one square's row.
#[derive(Clone, Copy, Debug)]
pub(super) struct SqGate {
    /// The gate's square (0 without a gate).
    pub q: u16,
    /// The second gate's square (`GateEntry::second_gate`), or `q`.
    pub q2: u16,
    /// The classes of the gate's square that pass (bit `class`).
    pub mask: u8,
    /// The classes of the second gate's square that pass (0xFF: any, or none).
    pub mask2: u8,
    /// `F_*`.
    pub flags: u8,
    /// The block is the last of its piece's list.
    pub last: bool,
    /// The block's entry in [`GateRows::entries`].
    pub entry: u32,
    /// With [`F_SIMPLE`]: the move's header in [`GateRows::simples`]; with [`F_JUMP`]: the
    /// add in [`GateRows::jumps`].
    pub simple: u32,
}

/// The rows of a game (empty when they would pass [`MAX_ROW_ENTRIES`]).
#[derive(Clone, Debug, Default)]
pub(super) struct GateRows {
    /// Per (selector, player, piece type, square), in that order: where its row begins and
    /// ends in `gates`.
    pub(super) span: Vec<(u32, u32)>,
    pub gates: Vec<SqGate>,
    /// The generation entries the rows point to.
    pub entries: Vec<GateEntry>,
    /// The headers of the simple moves of [`F_SIMPLE`] gates.
    pub simples: Vec<super::Move>,
    /// The adds of [`F_JUMP`] gates.
    pub jumps: Vec<super::exec::Adder>,
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
    /// The straight runner, `F_SIMPLE` and `F_JUMP` are marked as `config` takes them.
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
                            let q = match e.table {
                                GATE_STEP => {
                                    board.next.get(pl * n_dirs * n_pos + e.off as usize + sq)
                                }
                                GATE_LEAP => special.leaps.get(pl * n_pos + e.off as usize + sq),
                                _ => Some(&NONE),
                            };
                            let q = match q {
                                Some(&q) => q,
                                None => NONE,
                            };
                            let is_straight = straight_ok && e.straight;
                            let straight = if is_straight && config.straight {
                                F_STRAIGHT
                            } else {
                                0
                            };
                            let gate = if e.table == GATE_NONE {
                                SqGate {
                                    q: 0,
                                    q2: 0,
                                    mask: 0xFF,
                                    mask2: 0xFF,
                                    flags: F_RUN,
                                    last: k == last,
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
                                let (q2, mask2, gate2) =
                                    match e.second_gate(def, &special.leaps, pl, q) {
                                        None => (q, 0xFF, false),
                                        Some(None) => continue,
                                        Some(Some((q2, code2))) => (q2, mask(code2), true),
                                    };
                                let mut flags = straight | if code == G_TEST { F_TEST } else { 0 };
                                let mut simple = 0;
                                // Under recycled captures only a step to an empty square is
                                // a simple move (it captures nothing).
                                let may_simple = if recycle {
                                    e.straight && code == G_EMPTY && flags & F_TEST == 0
                                } else {
                                    is_straight && flags & F_TEST == 0
                                };
                                if may_simple && mask2 == 0xFF {
                                    let m = special.gate_simple(def, e.id, pl, q);
                                    if let Some(m) = m.filter(|_| config.simple) {
                                        // One header per add (by its address).
                                        let n = rows.simples.len() as u32;
                                        let key = m as *const super::Move as usize;
                                        simple = *simple_ids.entry(key).or_insert(n);
                                        if simple == n {
                                            rows.simples.push(*m);
                                        }
                                        flags |= F_SIMPLE;
                                    }
                                } else if is_straight && flags & F_TEST == 0 && gate2 && config.jump
                                {
                                    if let Some(a) = special.gate_jump(def, e.id, pl, q2) {
                                        // One copy per add (by its address).
                                        let n = rows.jumps.len() as u32;
                                        let key = a as *const super::exec::Adder as usize;
                                        simple = *jump_ids.entry(key).or_insert(n);
                                        if simple == n {
                                            rows.jumps.push(a.clone());
                                        }
                                        flags |= F_JUMP;
                                    }
                                }
                                SqGate {
                                    q,
                                    q2,
                                    mask: mask(code),
                                    mask2,
                                    flags,
                                    last: k == last,
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
    /// alone and none passes (so `Rules::gen_rows` would add nothing there).
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
            g.flags & (F_RUN | F_TEST) != 0
                || passes(g.mask, at(g.q), side)
                    && (g.mask2 == 0xFF || passes(g.mask2, at(g.q2), side))
        })
    }

    /// The gates of every row, and how many are marked `F_STRAIGHT`, `F_SIMPLE` and `F_JUMP`
    /// (`Rules::path_counts`).
    pub fn count(&self) -> [usize; 4] {
        let marked = |f: u8| self.gates.iter().filter(|g| g.flags & f != 0).count();
        [
            self.gates.len(),
            marked(F_STRAIGHT),
            marked(F_SIMPLE),
            marked(F_JUMP),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `passes` answers as the class index does for every gate code and kind of cell (empty
    /// ones with any owner and marks among them).
    #[test]
    fn passes_is_the_class_bit() {
        let codes = [
            G_PASS,
            G_EMPTY,
            G_OCCUPIED,
            G_ENEMY,
            G_NOT_ENEMY,
            G_FRIEND,
            G_NOT_FRIEND,
            G_TEST,
        ];
        let mut checked = 0;
        for code in codes {
            let m = mask(code);
            for piece in [0u16, 1, 3] {
                for owner in 0..3u8 {
                    for marks in 0..4u8 {
                        let c = Cell {
                            piece,
                            owner,
                            marks,
                            attrs: 0,
                        };
                        for side in 0..2u8 {
                            assert_eq!(passes(m, c, side), m >> class(c, side) & 1 != 0);
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 8 * 3 * 3 * 4 * 2);
        // An enemy piece passes `enemy?` and fails `empty?`; an empty cell the reverse.
        let enemy = Cell::new(crate::def::PieceId(0), crate::def::PlayerId(1), 0);
        assert!(passes(mask(G_ENEMY), enemy, 0) && !passes(mask(G_EMPTY), enemy, 0));
        assert!(!passes(mask(G_ENEMY), Cell::EMPTY, 0) && passes(EMPTY_MASK, Cell::EMPTY, 0));
    }
}
