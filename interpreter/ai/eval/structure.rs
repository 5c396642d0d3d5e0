//! The structure of promoters (pawns) and the pieces that depend on it, derived from the
//! moves on the empty board: a promoter with another of its side on its way ahead (doubled),
//! one with no promoter of its side on the neighbouring lines (isolated), one a promoter of
//! its side captures onto (defended); two pieces of a type bound to part of the board on
//! different parts (the bishop pair); a piece on a promoters' line it reaches whole, without
//! promoters of its side or of any (a rook on a half-open or open file); a promoter no
//! promoter of the other side can stop (passed), by its advancement and the phase.

use super::weights::hundredths;
use super::*;

/// Words of a square set; boards of more squares get no structure terms.
const WORDS: usize = 4;
/// The most squares a board may have for the structure terms.
const MAX_SQUARES: usize = WORDS * 64;

/// A set of squares.
pub(super) type Squares = [u64; WORDS];

/// The unit of [`Structure::advance`]: the square of the advancement in 1024ths.
const ADV_ONE: i64 = 1024;

/// Not bound to a colour complex.
pub(super) const NO_COMPLEX: u8 = u8::MAX;

fn set(s: &mut Squares, sq: usize) {
    s[sq / 64] |= 1 << (sq % 64);
}

fn meets(a: &Squares, b: &Squares) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// Square sets by player, type and square (indexes of `Evaluator::pst`).
#[derive(Clone, Debug)]
pub(super) struct Structure {
    /// Whether each type is a promoter.
    pub(super) promoter: Vec<bool>,
    /// The squares its moves on the empty board reach, one move after another (its way ahead).
    ahead: Vec<Squares>,
    /// The squares of the neighbouring lines: the ways of the squares it captures onto from
    /// any square of its own way, its own line left out.
    beside: Vec<Squares>,
    /// The squares from which a promoter of its side captures onto it, by player and square.
    guards: Vec<Squares>,
    /// The squares where a promoter of the other side would stop it: its way ahead, and the
    /// squares from which the other side's promoters capture onto its square or its way.
    stoppers: Vec<Squares>,
    /// The square of its advancement towards promotion, in 1024ths ([`ADV_ONE`]).
    advance: Vec<u16>,
    /// The colour complex of a piece bound to part of the board (a bishop), by the index of
    /// `Evaluator::pst`; `NO_COMPLEX` for the others.
    pub(super) complex: Vec<u8>,
    /// The promoters' line through a square, by the index of `Evaluator::pst`, for the
    /// pieces that reach the whole line from there (a rook on its file); empty for others.
    pub(super) line: Vec<Squares>,
    /// The weights of the terms, in hundredths ([`Weights`]).
    doubled: i32,
    isolated: i32,
    defended: i32,
    pair: i32,
    half_open: i32,
    open: i32,
    passed: i64,
    passed_mg: i64,
    passed_eg: i64,
    free_eg: i64,
}

/// The structure tables, or `None` where no type promotes, the board is too large or more
/// than two players take turns.
pub(super) fn structure(
    rules: &Rules,
    graphs: &[Option<Graph>],
    players: &[PlayerId],
    promoter: &[bool],
    w: &Weights,
) -> Option<Box<Structure>> {
    let def = &rules.def;
    let n_pieces = def.pieces.len();
    let n_pos = def.board.n_pos();
    let n_players = def.players.len();
    if n_pos > MAX_SQUARES || players.len() != 2 || !promoter.iter().any(|&p| p) {
        return None;
    }
    let idx = |p: usize, t: usize, sq: usize| (p * n_pieces + t) * n_pos + sq;
    let mut ahead = vec![[0u64; WORDS]; n_players * n_pieces * n_pos];
    let mut beside = ahead.clone();
    let mut guards = vec![[0u64; WORDS]; n_players * n_pos];
    let mut complex = vec![NO_COMPLEX; n_players * n_pieces * n_pos];
    let mut lines = vec![[0u64; WORDS]; n_players * n_pieces * n_pos];
    let mut advance = vec![0u16; n_players * n_pieces * n_pos];
    let mut scratch = Scratch::default();
    let mut list = MoveList::new();
    for &p in players {
        let q = players.iter().copied().find(|&q| q != p)?;
        // A board full of the other side's pieces: the squares a promoter captures onto.
        let filler = def
            .setup
            .placements
            .iter()
            .find(|pl| pl.player == q && !rules.royal[pl.piece.idx()])
            .map(|pl| pl.piece.idx())?;
        let mut full = rules.initial();
        for sq in 0..n_pos {
            full.set(
                sq as u16,
                Cell::new(PieceId(filler as u16), q, rules.attr_defaults[filler]),
            );
        }
        for t in (0..n_pieces).filter(|&t| promoter[t]) {
            let g = graphs[p.idx() * n_pieces + t].as_ref()?;
            // Advancement: moves left to promote against the most from the setup's squares
            // of this type (else from any square).
            let left = g.distances(n_pos, |sq| g.promotes[sq]);
            let from_setup = def
                .setup
                .placements
                .iter()
                .filter(|pl| pl.player == p && pl.piece.idx() == t)
                .map(|pl| left[pl.pos.idx()])
                .filter(|&d| d != u32::MAX)
                .max();
            let most = from_setup
                .or_else(|| left.iter().copied().filter(|&d| d != u32::MAX).max())
                .unwrap_or(0);
            for (sq, &d) in left.iter().enumerate() {
                if d != u32::MAX && most > 0 {
                    let a = (most.saturating_sub(d)) as f64 / most as f64;
                    advance[idx(p.idx(), t, sq)] = (a * a * ADV_ONE as f64).round() as u16;
                }
            }
            // Captures from each square.
            let piece = Cell::new(PieceId(t as u16), p, rules.attr_defaults[t]);
            let mut hits: Vec<Vec<usize>> = vec![Vec::new(); n_pos];
            for (sq, h) in hits.iter_mut().enumerate() {
                if def.board.positions[sq].dummy {
                    continue;
                }
                let old = full.set(sq as u16, piece);
                list.clear();
                rules.gen_steps(&full, p, None, sq as u16, &mut scratch, &mut list);
                full.set(sq as u16, old);
                for m in &list.moves {
                    for &c in list.captured(m) {
                        if c != NONE && !h.contains(&(c as usize)) {
                            h.push(c as usize);
                        }
                    }
                }
            }
            // The way ahead of each square, then its whole line (ahead, behind and itself).
            let mut way = vec![[0u64; WORDS]; n_pos];
            for (sq, w) in way.iter_mut().enumerate() {
                let mut stack = vec![sq];
                while let Some(s) = stack.pop() {
                    for &to in &g.edges[g.lo[s]..g.lo[s + 1]] {
                        let to = to as usize;
                        if w[to / 64] & (1 << (to % 64)) == 0 {
                            set(w, to);
                            stack.push(to);
                        }
                    }
                }
            }
            let mut line = way.clone();
            for sq in 0..n_pos {
                set(&mut line[sq], sq);
                for (from, w) in way.iter().enumerate() {
                    if w[sq / 64] & (1 << (sq % 64)) != 0 {
                        set(&mut line[sq], from);
                    }
                }
            }
            // Pieces that reach a whole line from a square of it: the line is theirs there.
            for u in (0..n_pieces).filter(|&u| !promoter[u] && !rules.royal[u]) {
                let Some(gu) = graphs[p.idx() * n_pieces + u].as_ref() else {
                    continue;
                };
                for sq in 0..n_pos {
                    let mut reached = [0u64; WORDS];
                    set(&mut reached, sq);
                    for &to in &gu.edges[gu.lo[sq]..gu.lo[sq + 1]] {
                        set(&mut reached, to as usize);
                    }
                    let l = &line[sq];
                    let n_line: u32 = l.iter().map(|w| w.count_ones()).sum();
                    let whole = l.iter().zip(&reached).all(|(a, b)| a & !b == 0);
                    if n_line >= 3 && whole && lines[idx(p.idx(), u, sq)] == [0; WORDS] {
                        lines[idx(p.idx(), u, sq)] = *l;
                    }
                }
            }
            for sq in 0..n_pos {
                let i = idx(p.idx(), t, sq);
                ahead[i] = way[sq];
                let mut b = [0u64; WORDS];
                for x in 0..n_pos {
                    if line[sq][x / 64] & (1 << (x % 64)) == 0 {
                        continue;
                    }
                    for &c in &hits[x] {
                        for (w, l) in b.iter_mut().zip(&line[c]) {
                            *w |= l;
                        }
                    }
                }
                for (w, l) in b.iter_mut().zip(&line[sq]) {
                    *w &= !l;
                }
                beside[i] = b;
                for &c in &hits[sq] {
                    set(&mut guards[p.idx() * n_pos + c], sq);
                }
            }
        }
    }
    // Colour complexes: the parts of the board a type's moves connect (both ways), for types
    // that neither promote nor are royal and whose moves leave the board in 2 to 8 parts.
    for &p in players {
        for t in (0..n_pieces).filter(|&t| !promoter[t] && !rules.royal[t]) {
            let Some(g) = graphs[p.idx() * n_pieces + t].as_ref() else {
                continue;
            };
            let mut part = vec![NO_COMPLEX; n_pos];
            let mut links: Vec<Vec<usize>> = vec![Vec::new(); n_pos];
            for sq in 0..n_pos {
                for &to in &g.edges[g.lo[sq]..g.lo[sq + 1]] {
                    links[sq].push(to as usize);
                    links[to as usize].push(sq);
                }
            }
            let mut n_parts = 0usize;
            for start in 0..n_pos {
                if part[start] != NO_COMPLEX || links[start].is_empty() {
                    continue;
                }
                if n_parts >= 8 {
                    n_parts = 9;
                    break;
                }
                let mut stack = vec![start];
                part[start] = n_parts as u8;
                while let Some(s) = stack.pop() {
                    for &to in &links[s] {
                        if part[to] == NO_COMPLEX {
                            part[to] = n_parts as u8;
                            stack.push(to);
                        }
                    }
                }
                n_parts += 1;
            }
            if (2..=8).contains(&n_parts) {
                for sq in 0..n_pos {
                    complex[idx(p.idx(), t, sq)] = part[sq];
                }
            }
        }
    }
    // Stoppers: the other side's promoters ahead on the line or guarding a square of the way.
    let mut stoppers = vec![[0u64; WORDS]; n_players * n_pieces * n_pos];
    for &p in players {
        let q = players.iter().copied().find(|&q| q != p)?;
        for t in (0..n_pieces).filter(|&t| promoter[t]) {
            for sq in 0..n_pos {
                let i = idx(p.idx(), t, sq);
                let mut s = ahead[i];
                let mut way = ahead[i];
                set(&mut way, sq);
                for c in 0..n_pos {
                    if way[c / 64] & (1 << (c % 64)) != 0 {
                        for (w, g) in s.iter_mut().zip(&guards[q.idx() * n_pos + c]) {
                            *w |= g;
                        }
                    }
                }
                stoppers[i] = s;
            }
        }
    }
    Some(Box::new(Structure {
        stoppers,
        advance,
        complex,
        line: lines,
        promoter: promoter.to_vec(),
        ahead,
        beside,
        guards,
        doubled: hundredths(w.doubled),
        isolated: hundredths(w.isolated),
        defended: hundredths(w.defended),
        pair: hundredths(w.pair),
        half_open: hundredths(w.half_open),
        open: hundredths(w.open),
        passed: hundredths(w.passed) as i64,
        passed_mg: hundredths(w.passed_mg) as i64,
        passed_eg: hundredths(w.passed_eg) as i64,
        free_eg: hundredths(w.free_eg) as i64,
    }))
}

impl Structure {
    /// The structure's worth for side 0 less side 1: `at`, each promoter's index in the
    /// tables, its side and its owner and square as `owner * n_pos + square`; `own`, the
    /// squares of each side's promoters; `liners`, the index and side of each piece that
    /// has a line ([`Structure::line`]); `parts`, the complexes each side's bound pieces
    /// stand on, by `type * 2 + side`.
    pub(super) fn worth(
        &self,
        at: &[(usize, usize, usize)],
        own: &[Squares; 2],
        liners: &[(usize, usize)],
        parts: &[u8; 64],
    ) -> i32 {
        let mut v = [0i32; 2];
        for &(i, side) in liners {
            let l = &self.line[i];
            if !meets(l, &own[side]) {
                v[side] += self.half_open;
                if !meets(l, &own[1 - side]) {
                    v[side] += self.open;
                }
            }
        }
        for (k, &m) in parts.iter().enumerate() {
            if m.count_ones() >= 2 {
                v[k % 2] += self.pair;
            }
        }
        for &(i, side, g) in at {
            let mine = &own[side];
            if meets(&self.ahead[i], mine) {
                v[side] -= self.doubled;
            }
            if !meets(&self.beside[i], mine) {
                v[side] -= self.isolated;
            }
            if meets(&self.guards[g], mine) {
                v[side] += self.defended;
            }
        }
        v[0] - v[1]
    }

    /// The passed promoters' worth for side 0 less side 1: `at` and `own` as in
    /// [`Structure::worth`], `occupied` the squares holding a piece, `phase` of `most` the
    /// material left ([`super::phase::Phased`]).
    pub(super) fn passers(
        &self,
        at: &[(usize, usize, usize)],
        own: &[Squares; 2],
        occupied: &Squares,
        phase: i64,
        most: i64,
    ) -> i64 {
        let gone = most - phase;
        let mut v = [0i64; 2];
        for &(i, side, _) in at {
            if meets(&self.stoppers[i], &own[1 - side]) {
                continue;
            }
            let a = self.advance[i] as i64;
            let mut w =
                self.passed * most * ADV_ONE + a * (self.passed_mg * phase + self.passed_eg * gone);
            if !meets(&self.ahead[i], occupied) {
                w += a * self.free_eg * gone;
            }
            v[side] += w;
        }
        (v[0] - v[1]) / (most * ADV_ONE)
    }
}
