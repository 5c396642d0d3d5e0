//! The turn layer: single steps expanded into whole turns, then move priorities, maximal
//! captures, royal safety and passing; the entry points `legal_moves` and `legal_captures_in`.

use super::chains::{last_write, Gen};
use super::workspace::Workspace;
use super::Rules;
use crate::def::*;
use crate::engine::moves::{Move, MoveList, Op};
use crate::engine::position;
use crate::engine::position::{Cell, Position, HUFFABLE};
use crate::engine::rules::{rank_of, GEN_MOVE_LIMIT, GEN_WORK_LIMIT};
use crate::engine::scratch::{Captures, Drops, Mode};
use crate::engine::undo::{apply, revert};

impl Rules {
    /// The legal moves of the side to move: whole turns, filtered by priorities, maximal
    /// captures and royal safety. `pos` is used as a scratch board and restored.
    pub fn legal_moves(&self, pos: &mut Position, out: &mut MoveList) {
        self.legal_moves_in(&mut Workspace::default(), pos, out);
    }

    /// [`Rules::legal_moves`] with buffers kept between calls (no allocation once warm).
    pub fn legal_moves_in(&self, ws: &mut Workspace, pos: &mut Position, out: &mut MoveList) {
        self.legal_moves_of::<false>(ws, pos, out);
    }

    /// [`Rules::legal_moves_in`]; with `COUNTING`, the generation of the rows over the mover's
    /// square set leaves out what `Rules::count_legal` counts (`Scratch::count_skip`), and the
    /// number of whole turns before the filters is noted (`Workspace::generated`).
    #[inline(always)]
    pub(super) fn legal_moves_of<const COUNTING: bool>(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        out: &mut MoveList,
    ) {
        out.clear();
        // One budget for the whole call: generation, chains and royal safety.
        ws.scratch.open_budget(GEN_WORK_LIMIT);
        let entry = self.entry(pos.turn);
        let mut cut = None;
        if entry.move_type.is_none() && self.rank_passes.len() > 1 {
            // Only the best-ranked move type that has a whole move is legal: the ranks are
            // generated one by one, best first, and the first that gives a move is the
            // answer (the worse ones are never generated).
            for k in 0..self.rank_passes.len() {
                out.clear();
                self.whole_turns::<COUNTING>(ws, pos, entry.owner, k, out);
                cut = cut.or(out.cut);
                if !out.is_empty() {
                    break;
                }
            }
            // Every move begins with a block of this one rank: priorities keep them all.
            ws.one_rank = true;
        } else {
            let sel = self.type_selector(entry.move_type);
            self.whole_turns::<COUNTING>(ws, pos, entry.owner, sel, out);
            cut = out.cut;
        }
        if COUNTING {
            ws.generated = out.len();
        }
        self.finish(ws, pos, out);
        ws.distinct = false;
        ws.one_rank = false;
        if let Some(why) = cut {
            out.note_cut(why);
        }
        ws.scratch.close_budget(out);
    }

    /// The legal moves of the piece on `sq` as [`Rules::legal_moves_in`] would write them, in
    /// its order. Only for the games `compiled/count.rs` counts: one rank of blocks, no partial
    /// moves (so the steps are the whole turns), filters that judge each move alone.
    #[inline(never)]
    pub(super) fn legal_moves_from(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        sq: u16,
        out: &mut MoveList,
    ) {
        out.clear();
        ws.scratch.open_budget(GEN_WORK_LIMIT);
        let entry = self.entry(pos.turn);
        self.gen_steps(pos, entry.owner, entry.move_type, sq, &mut ws.scratch, out);
        ws.distinct = !ws.scratch.may_repeat;
        self.finish(ws, pos, out);
        ws.distinct = false;
        ws.scratch.close_budget(out);
    }

    /// Marks, for [`Workspace::gives_check_from`], the types and empty squares from which a
    /// piece of the side to move would attack a royal piece of another side by a leap or a
    /// slide of the attack tables (drops there give check, and so do quiet moves there that
    /// open no other line). False when none is marked or the tables are not usable.
    pub fn mark_checks(&self, ws: &mut Workspace, pos: &Position) -> bool {
        self.mark_checking_drops(pos, self.entry(pos.turn).owner, &mut ws.scratch)
    }

    /// The legal moves that capture or promote: [`Rules::legal_moves_in`] with the others
    /// left out once the filters that compare moves (priorities, maximal captures,
    /// precedence) have run. Royal safety judges the others only until one is legal, so a
    /// search's quiescence does not pay for judging quiet moves. Returns whether a legal move
    /// was left out (a quiet move or a pass): with an empty `out`, false means no legal move.
    pub fn legal_captures_in(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> bool {
        let wanted = |m: &Move| m.n_captures() > 0 || m.promote != 0;
        if self.def.options.huffing {
            self.legal_moves_in(ws, pos, out);
            let other = out.moves.iter().any(|m| !wanted(m));
            out.retain(wanted);
            return other;
        }
        ws.other_legal = false;
        // Drops that can neither capture nor promote are not generated; when no other quiet
        // move is legal, one of them might be, so then the drops are generated after all.
        ws.scratch.drops_skipped = false;
        let drops = if !self.quiet_drops {
            Drops::All
        } else if ws.checking_drops
            && self.mark_checking_drops(pos, self.entry(pos.turn).owner, &mut ws.scratch)
        {
            Drops::Checking
        } else {
            Drops::None
        };
        ws.scratch.mode = Mode::Captures(Captures {
            few_quiet: true,
            drops,
        });
        ws.scratch.quiet_skipped = 0;
        ws.scratch.quiet_overflow = false;
        self.legal_moves_in(ws, pos, out);
        ws.scratch.mode = Mode::Captures(Captures {
            few_quiet: false,
            drops,
        });
        if ws.scratch.quiet_skipped > 0 && (!ws.other_legal || ws.scratch.quiet_overflow) {
            // None of the quiet moves written is legal (or so many were left out that a
            // block's limit might have cut otherwise): every move, as before.
            ws.other_legal = false;
            ws.scratch.drops_skipped = false;
            self.legal_moves_in(ws, pos, out);
        }
        if ws.scratch.drops_skipped && !ws.other_legal {
            ws.other_legal = false;
            ws.scratch.mode = Mode::Captures(Captures {
                few_quiet: false,
                drops: Drops::All,
            });
            self.legal_moves_in(ws, pos, out);
        }
        ws.scratch.mode = Mode::Generate;
        ws.other_legal
    }

    /// The whole turns (chains expanded, not yet filtered) that the blocks of `side` chosen by
    /// selector `sel` (`Rules::gen_lists`) begin, into `out` (empty).
    fn whole_turns<const COUNTING: bool>(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        side: PlayerId,
        sel: usize,
        out: &mut MoveList,
    ) {
        ws.distinct = false;
        // The steps are generated into `out` (empty), which they stay in when they are whole
        // turns, the usual case.
        debug_assert!(out.is_empty() && out.ops.is_empty() && out.squares.is_empty());
        self.gen_steps_where::<COUNTING>(pos, side, sel, NONE, &mut ws.scratch, out);
        // Deferred captures are removed when the chain ends: a step that captured nothing
        // has none to remove.
        let deferred = self.deferred;
        if out.len() <= GEN_MOVE_LIMIT
            && (out.moves.iter())
                .all(|m| !m.partial && m.finally == 0 && (!deferred || m.cap_hi == m.path_hi))
        {
            // Single steps are whole turns already: the list is the output as it stands.
            // The generator shows when no two of these moves can be the same (the filter
            // then skips its duplicate check).
            ws.distinct = !ws.scratch.may_repeat;
            return;
        }
        let mut steps = ws.take_buf();
        std::mem::swap(out, &mut steps);
        let mut gen = Gen {
            rules: self,
            side,
            work: 0,
            lazy: !self.def.options.complete_captures,
            may_repeat: ws.scratch.may_repeat,
            cont_base: None,
            ws,
        };
        gen.ws.chain_keys.clear();
        gen.ws.chain_keys.push(pos.repetition_key());
        let mut prefix = gen.ws.take_buf();
        gen.expand_all(pos, &steps, &mut prefix, 0, out);
        let all_plain = gen.lazy;
        // A chain's path is its start and every step's landing square: when no list of
        // steps (the first steps, each continuation) holds two with the same start and
        // landing square, two chains with one path took the same steps, so no two moves
        // written are equal (the filter skips its duplicate check).
        let distinct = !gen.may_repeat;
        ws.bufs.push(prefix);
        if all_plain {
            // Every step ended its chain as it stands (`Gen::lazy`): the steps are the output.
            let cut = out.cut.or(steps.cut);
            std::mem::swap(out, &mut steps);
            out.cut = cut;
        } else if let Some(why) = steps.cut {
            out.note_cut(why);
        }
        ws.bufs.push(steps);
        if self.def.options.complete_captures {
            let mut k = ws.dead.iter();
            out.retain(|_| !k.next().copied().unwrap_or(false));
            ws.dead.clear();
        }
        ws.distinct = distinct;
    }

    /// The filters of whole turns (or huffing's variations on them).
    fn finish(&self, ws: &mut Workspace, pos: &mut Position, out: &mut MoveList) {
        if self.def.options.huffing {
            self.huffing(ws, pos, out);
        } else {
            self.filter(ws, pos, out, true);
        }
    }

    /// `"huffing"`: the moves of the side to move are every move the compelling rules would
    /// filter out too; a move they would reject marks the pieces that could have obeyed them
    /// (at their new square, for the piece that moved). Every move clears the marks the
    /// opponent's last move left, and may be preceded by removing one marked piece (a huff).
    fn huffing(&self, ws: &mut Workspace, pos: &mut Position, out: &mut MoveList) {
        let side = self.entry(pos.turn).owner;
        let marked: Vec<u16> = (0..pos.cells.len() as u16)
            .filter(|&sq| {
                let c = pos.cells[sq as usize];
                !c.is_empty() && c.owner != side.0 && c.marks & HUFFABLE != 0
            })
            .collect();
        let mut clear: Vec<Op> = marked
            .iter()
            .map(|&sq| {
                let c = pos.cells[sq as usize];
                Op::Set(
                    sq,
                    Cell {
                        marks: c.marks & !HUFFABLE,
                        ..c
                    },
                )
            })
            .collect();
        let plain = std::mem::take(out);
        self.huffing_moves(ws, pos, plain, &clear, out);
        let n = clear.len();
        for &sq in &marked {
            // Huff `sq`, then look for the moves of the position without it.
            clear.push(Op::Set(sq, Cell::EMPTY));
            apply(
                pos,
                &clear,
                pos.turn,
                pos.last_from,
                pos.last_to,
                &mut ws.log,
            );
            let mut after = MoveList::new();
            self.legal_moves_in(ws, pos, &mut after);
            revert(pos, &mut ws.log);
            // The moves were found with the marks already cleared: clear them, then huff.
            self.prefix_moves(&after, &clear, sq + 1, out);
            clear.truncate(n);
        }
    }

    /// Filters `all` (the generated moves of one position), marks the neglecting pieces of
    /// every move the compelling rules reject, and writes each move after the ops `pre`.
    fn huffing_moves(
        &self,
        ws: &mut Workspace,
        pos: &mut Position,
        mut all: MoveList,
        pre: &[Op],
        out: &mut MoveList,
    ) {
        let side = self.entry(pos.turn).owner;
        let mut strict = all.clone();
        strict.retain(|m| !m.stopped);
        self.filter(ws, pos, &mut strict, true);
        self.filter(ws, pos, &mut all, false);
        let mut neglect: Vec<u16> = Vec::new();
        for k in &strict.moves {
            let from = strict.path(k)[0];
            if from != NONE && !k.pass && !neglect.contains(&from) {
                neglect.push(from);
            }
        }
        out.clear();
        for m in &all.moves {
            let compelled = strict
                .moves
                .iter()
                .any(|k| strict.path(k) == all.path(m) && strict.ops(k) == all.ops(m));
            let op_lo = out.ops.len();
            out.ops.extend_from_slice(pre);
            out.ops.extend(all.ops(m).iter().map(|op| match *op {
                Op::Set(sq, c) => Op::Set(
                    sq,
                    Cell {
                        marks: c.marks & !HUFFABLE,
                        ..c
                    },
                ),
                op => op,
            }));
            if !compelled {
                let path = all.path(m);
                for &from in &neglect {
                    let at = if from == path[0] {
                        path[path.len() - 1]
                    } else {
                        from
                    };
                    let c = last_write(&out.ops[op_lo..], at).unwrap_or(pos.cells[at as usize]);
                    if !c.is_empty() && c.owner == side.0 {
                        out.ops.push(Op::Set(
                            at,
                            Cell {
                                marks: c.marks | HUFFABLE,
                                ..c
                            },
                        ));
                    }
                }
            }
            out.close_move(op_lo as u32, &all, m);
        }
    }

    /// Appends the moves of `list`, each after the ops `pre` and with `huff` set.
    fn prefix_moves(&self, list: &MoveList, pre: &[Op], huff: u16, out: &mut MoveList) {
        for m in &list.moves {
            let op_lo = out.ops.len() as u32;
            out.ops.extend_from_slice(pre);
            out.ops.extend_from_slice(&list.ops(m));
            out.close_move(op_lo, list, m).huff = huff;
        }
    }

    /// The filters of a move list; without `compel`, only those that are not obligations a
    /// player may neglect under `"huffing"` (duplicates, royal safety, passing).
    fn filter(&self, ws: &mut Workspace, pos: &mut Position, out: &mut MoveList, compel: bool) {
        if out.is_empty() {
            if self.def.options.pass_turn == PassTurn::Forced {
                if ws.scratch.mode.captures() {
                    ws.other_legal = true;
                    return;
                }
                push_pass(out);
            }
            return;
        }
        // Priorities first: when two blocks of different types make the same move, the copy
        // of the better-ranked type is the one that stays (ZoG keeps the move).
        if compel {
            self.compel(&mut ws.keys, ws.one_rank, pos, out);
        }
        // The filters above only drop moves, so a list shown distinct stays so.
        if !ws.distinct || !self.config.distinct {
            dedup_moves(ws, out);
        }
        debug_assert!(
            !ws.distinct || !has_equal_moves(out),
            "a list shown distinct"
        );
        let royal = self.royal.iter().any(|&r| r);
        if ws.scratch.mode.captures() {
            let drops = ws.scratch.mode.drops() == Drops::Checking;
            let wanted = |m: &Move| m.n_captures() > 0 || m.promote != 0 || drops && m.drop != 0;
            ws.other_legal = if royal {
                let (s, keep, log) = (&mut ws.safety, &mut ws.keep, &mut ws.log);
                self.royal_filter_captures(s, keep, log, pos, out, drops)
            } else {
                let other = out.moves.iter().any(|m| !wanted(m));
                out.retain(wanted);
                other
            };
            ws.other_legal |= match self.def.options.pass_turn {
                PassTurn::Yes => true,
                PassTurn::Forced => out.is_empty() && !ws.other_legal,
                _ => false,
            };
            return;
        }
        if royal {
            self.royal_filter(&mut ws.safety, &mut ws.log, pos, out);
        }
        match self.def.options.pass_turn {
            PassTurn::Yes => push_pass(out),
            PassTurn::Forced if out.is_empty() => push_pass(out),
            _ => {}
        }
    }

    /// The filters that compel a choice: move priorities (unless the moves are known to be of
    /// `one_rank`), maximal captures, capture precedence. `keys` is a buffer.
    fn compel(&self, keys: &mut Vec<u64>, one_rank: bool, pos: &Position, out: &mut MoveList) {
        if !self.def.move_priorities.is_empty() && !one_rank {
            let rank = |m: &Move| rank_of(&self.rank, m.move_type);
            let best = out.moves.iter().map(rank).min().unwrap_or(0);
            out.retain(|m| rank(m) == best);
        }
        if self.def.options.maximal_captures > 0 {
            keys.clear();
            // A simple move takes what it captures ([`taken`], without the call).
            keys.extend(out.moves.iter().map(|m| {
                if m.simple {
                    out.captured(m).len() as u64
                } else {
                    taken(pos, out, m) as u64
                }
            }));
            keep_best(out, keys);
        }
        if self.def.options.maximal_captures == 2 {
            // zrf's reading of `2`: among the longest captures, the most promoted pieces
            // (pieces of any type but the first declared one, usually kings).
            let promoted: Vec<PieceId> = (1..self.def.pieces.len())
                .map(|i| PieceId(i as u16))
                .collect();
            self.precedence(&Precedence::MostCapturedOf(promoted), pos, out);
        }
        for crit in &self.def.capture_precedence {
            self.precedence(crit, pos, out);
        }
    }

    /// Keeps the moves that are best by one capture-precedence criterion.
    fn precedence(&self, crit: &Precedence, pos: &Position, out: &mut MoveList) {
        // Capture precedence says nothing about positions without a capture.
        if out.moves.iter().all(|m| m.cap_hi == m.path_hi) {
            return;
        }
        let piece_at = |sq: u16| pos.cells[sq as usize].piece.wrapping_sub(1);
        let keys: Vec<u64> = out
            .moves
            .iter()
            .map(|m| {
                let caps = out.captured(m);
                match crit {
                    Precedence::MostCaptured => caps.len() as u64,
                    Precedence::MostValue(values) => caps
                        .iter()
                        .map(|&sq| values.get(piece_at(sq) as usize).copied().unwrap_or(1) as u64)
                        .sum(),
                    Precedence::MostCapturedOf(ts) => caps
                        .iter()
                        .filter(|&&sq| ts.iter().any(|t| t.0 == piece_at(sq)))
                        .count() as u64,
                    Precedence::MovedBy(ts) => {
                        let from = out.path(m)[0];
                        u64::from(from != NONE && ts.iter().any(|t| t.0 == piece_at(from)))
                    }
                }
            })
            .collect();
        keep_best(out, &keys);
    }
}

/// Keeps the moves whose key is the largest (no pass over the moves when all keys are equal).
fn keep_best(out: &mut MoveList, keys: &[u64]) {
    let best = keys.iter().copied().max().unwrap_or(0);
    if keys.iter().all(|&k| k == best) {
        return;
    }
    let mut k = keys.iter();
    out.retain(|_| k.next() == Some(&best));
}

/// The pieces a move takes, as `"maximal captures"` counts them: the pieces it captures, and
/// the pieces on other squares than its path that it turns into another type or hands to
/// another owner (`change-type` or `change-owner` on a jumped piece). Zillions counts both:
/// in its Northern Kings, where a jumped king becomes a marked checker, its saved games take
/// such a jump while a capture of a single checker is on offer (`docs/semantics.md`).
fn taken(pos: &Position, out: &MoveList, m: &Move) -> usize {
    let caps = out.captured(m);
    // A simple move writes only its path's two squares.
    if m.simple {
        return caps.len();
    }
    let path = out.path(m);
    // The last write to a square is what the move leaves there.
    let mut seen: Vec<u16> = Vec::new();
    let mut changed = 0;
    for op in out.ops(m).iter().rev() {
        let Op::Set(sq, c) = *op else { continue };
        if path.contains(&sq) || caps.contains(&sq) || seen.contains(&sq) {
            continue;
        }
        seen.push(sq);
        let b = pos.cells[sq as usize];
        if !b.is_empty() && !c.is_empty() && (b.piece, b.owner) != (c.piece, c.owner) {
            changed += 1;
        }
    }
    caps.len() + changed
}

/// Whether two moves of a list are equal as [`dedup_moves`] compares them (a check of the
/// generator's proofs that a list is distinct, in debug builds).
fn has_equal_moves(out: &MoveList) -> bool {
    // Grouped by path first: a pairwise scan is quadratic, and chain games write tens of
    // thousands of moves in one list (debug builds run this on every list).
    let m = &out.moves;
    let mut by_path: std::collections::HashMap<&[u16], Vec<usize>> = Default::default();
    for (i, mv) in m.iter().enumerate() {
        by_path.entry(out.path(mv)).or_default().push(i);
    }
    by_path.values().any(|group| {
        group.iter().enumerate().any(|(k, &i)| {
            group[..k]
                .iter()
                .any(|&j| out.ops(&m[i]) == out.ops(&m[j]) && m[i].promote == m[j].promote)
        })
    })
}

/// Keeps the first of moves that do exactly the same thing by the same path (two blocks of a
/// piece can describe one move, as a step and a slide of one square do).
fn dedup_moves(ws: &mut Workspace, out: &mut MoveList) {
    ws.fingerprints.clear();
    for m in &out.moves {
        // Cheap: path ends, sizes and promotion; equal fingerprints are compared in full.
        let path = out.path(m);
        let h = (path[0] as u64) << 48
            ^ (path[path.len() - 1] as u64) << 32
            ^ (out.n_ops(m) as u64) << 16
            ^ (path.len() as u64) << 8
            ^ m.promote as u64;
        ws.fingerprints.push(h);
    }
    let n = out.moves.len();
    ws.keep.clear();
    ws.keep.resize(n, true);
    let same = |i: usize, j: usize| {
        let (a, b) = (&out.moves[i], &out.moves[j]);
        out.ops(a) == out.ops(b) && out.path(a) == out.path(b) && a.promote == b.promote
    };
    let mut any = false;
    // Most lists have no two equal fingerprints: sorted, they show it at once.
    ws.sorted.clear();
    ws.sorted.extend_from_slice(&ws.fingerprints);
    ws.sorted.sort_unstable();
    if ws.sorted.windows(2).all(|w| w[0] != w[1]) {
        return;
    }
    if n <= 64 {
        // The usual case: a few dozen moves, compared pairwise by fingerprint.
        for i in 1..n {
            for j in 0..i {
                if ws.keep[j] && ws.fingerprints[i] == ws.fingerprints[j] && same(i, j) {
                    ws.keep[i] = false;
                    any = true;
                    break;
                }
            }
        }
    } else {
        // Long lists (long chains, big drop games): fingerprint the whole path and every op,
        // sort by it, and compare in full only within groups of equal fingerprints.
        for (k, m) in out.moves.iter().enumerate() {
            let mut h = ws.fingerprints[k];
            for &sq in out.path(m) {
                h = position::mix(h ^ u64::from(sq));
            }
            for op in out.ops(m).iter() {
                let x = match *op {
                    Op::Set(sq, c) => u64::from(sq) << 48 ^ position::cell_hash(sq, c),
                    Op::Store(i, d) => 1 << 62 ^ u64::from(i) << 32 ^ u64::from(d as u32),
                    Op::Counter(i, d) => 2 << 62 ^ u64::from(i) << 32 ^ u64::from(d as u32),
                };
                h = position::mix(h ^ x);
            }
            ws.fingerprints[k] = h;
        }
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by_key(|&i| (ws.fingerprints[i as usize], i));
        let mut lo = 0;
        while lo < n {
            let fp = ws.fingerprints[order[lo] as usize];
            let mut hi = lo + 1;
            while hi < n && ws.fingerprints[order[hi] as usize] == fp {
                hi += 1;
            }
            for a in lo + 1..hi {
                let i = order[a] as usize;
                if order[lo..a]
                    .iter()
                    .any(|&j| ws.keep[j as usize] && same(i, j as usize))
                {
                    ws.keep[i] = false;
                    any = true;
                }
            }
            lo = hi;
        }
    }
    if any {
        let mut k = ws.keep.iter();
        out.retain(|_| k.next().copied().unwrap_or(true));
    }
}

fn push_pass(out: &mut MoveList) {
    let lo = out.squares.len() as u32;
    out.squares.push(NONE);
    out.squares.push(NONE);
    let ops = out.ops.len() as u32;
    out.moves.push(Move {
        op_lo: ops,
        op_hi: ops,
        path_lo: lo,
        path_hi: lo + 2,
        cap_hi: lo + 2,
        move_type: u16::MAX,
        cont_type: u16::MAX,
        pass: true,
        ..Move::default()
    });
}
