//! The moves of a lone piece on an empty board, and the squares pieces can reach.

use super::*;

/// Moves of one piece on an otherwise empty board: destinations, and promotions.
pub(super) struct Graph {
    /// `edges[lo[sq]..lo[sq + 1]]`: the squares one move reaches from `sq`.
    pub(super) lo: Vec<usize>,
    pub(super) edges: Vec<u16>,
    /// Whether some move from this square promotes.
    pub(super) promotes: Vec<bool>,
    /// The types moves promote to.
    pub(super) targets: Vec<u16>,
}

impl Graph {
    /// Fewest moves from each square to one of the squares where `done` holds (0 there);
    /// `u32::MAX` when none is reachable.
    pub(super) fn distances(&self, n_pos: usize, done: impl Fn(usize) -> bool) -> Vec<u32> {
        let mut d: Vec<u32> = (0..n_pos)
            .map(|sq| if done(sq) { 0 } else { u32::MAX })
            .collect();
        loop {
            let mut changed = false;
            for sq in 0..n_pos {
                for &to in &self.edges[self.lo[sq]..self.lo[sq + 1]] {
                    let via = d[to as usize].saturating_add(1);
                    if via < d[sq] {
                        d[sq] = via;
                        changed = true;
                    }
                }
            }
            if !changed {
                return d;
            }
        }
    }
}

/// The moves of a lone piece of type `t` on every square of an empty board.
pub(super) fn empty_graph(
    rules: &Rules,
    board: &mut Position,
    p: PlayerId,
    t: usize,
    scratch: &mut Scratch,
    list: &mut MoveList,
) -> Graph {
    let n_pos = board.cells.len();
    let mut g = Graph {
        lo: vec![0],
        edges: Vec::new(),
        promotes: vec![false; n_pos],
        targets: Vec::new(),
    };
    let piece = Cell::new(PieceId(t as u16), p, rules.attr_defaults[t]);
    for sq in 0..n_pos {
        if !rules.def.board.positions[sq].dummy {
            board.set(sq as u16, piece);
            list.clear();
            rules.gen_steps(board, p, None, sq as u16, scratch, list);
            board.set(sq as u16, Cell::EMPTY);
            let first = g.edges.len();
            for m in &list.moves {
                let path = list.path(m);
                let to = path[path.len() - 1];
                if to == NONE || to as usize == sq {
                    continue;
                }
                if !g.edges[first..].contains(&to) {
                    g.edges.push(to);
                }
                if let Some(u) = promotion(list, m, t, to) {
                    g.promotes[sq] = true;
                    if !g.targets.contains(&u) {
                        g.targets.push(u);
                    }
                }
            }
        }
        g.lo.push(g.edges.len());
    }
    g
}

/// The type a move turns its piece into, if it promotes.
pub(super) fn promotion(
    list: &MoveList,
    m: &crate::engine::Move,
    t: usize,
    to: u16,
) -> Option<u16> {
    if m.promote != 0 && m.promote as usize != t + 1 {
        return Some(m.promote - 1);
    }
    if m.finally != 0 && m.finally as usize != t + 1 {
        return Some(m.finally - 1);
    }
    let last = list.ops(m).iter().rev().find_map(|op| match op {
        Op::Set(q, c) if *q == to => Some(*c),
        _ => None,
    })?;
    (!last.is_empty() && last.piece as usize != t + 1).then(|| last.piece - 1)
}

/// Squares pieces can stand on in play: setup squares, drop squares and every square a piece
/// can move to from those (on an empty board). All squares but dummies when that finds none.
pub(super) fn reachable(
    rules: &Rules,
    graphs: &[Option<Graph>],
    players: &[PlayerId],
    n_pieces: usize,
) -> Vec<bool> {
    let def = &rules.def;
    let n_pos = def.board.n_pos();
    let mut reach = vec![false; n_pos];
    for pl in &def.setup.placements {
        reach[pl.pos.idx()] = true;
    }
    // Drops: run every drop block on an empty board.
    let mut empty = rules.initial();
    for sq in 0..n_pos {
        empty.set(sq as u16, Cell::EMPTY);
    }
    let mut scratch = Scratch::default();
    let mut list = MoveList::new();
    for &p in players {
        for (t, piece) in def.pieces.iter().enumerate() {
            if piece.drops.is_empty() {
                continue;
            }
            let idx = (p.idx() * n_pieces + t) as u32;
            if empty.store[idx as usize] == 0 {
                empty.add_store(idx, 1);
            }
            list.clear();
            rules.gen_steps(&empty, p, None, NONE, &mut scratch, &mut list);
            for m in &list.moves {
                let path = list.path(m);
                if let Some(&to) = path.last().filter(|&&to| to != NONE) {
                    reach[to as usize] = true;
                }
            }
        }
    }
    let mut stack: Vec<usize> = (0..n_pos).filter(|&sq| reach[sq]).collect();
    while let Some(sq) = stack.pop() {
        for g in graphs.iter().flatten() {
            for &to in &g.edges[g.lo[sq]..g.lo[sq + 1]] {
                if !reach[to as usize] {
                    reach[to as usize] = true;
                    stack.push(to as usize);
                }
            }
        }
    }
    if !reach.iter().any(|&r| r) {
        for (sq, r) in reach.iter_mut().enumerate() {
            *r = !def.board.positions[sq].dummy;
        }
    }
    for (sq, r) in reach.iter_mut().enumerate() {
        *r &= !def.board.positions[sq].dummy;
    }
    reach
}
