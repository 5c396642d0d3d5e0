//! The observation tensor: planes over the board's cells, as OpenSpiel's board games give them.
//!
//! A board made of one grid of one or two dimensions (chess, draughts, tic-tac-toe) gives
//! planes of `H × W` cells: `W` the grid's first dimension, `H` its second (one row for a grid
//! of one dimension), in the order the rules file lists their labels, so that a chess plane is
//! the board as White sees it drawn (row 0 is rank 8, column 0 file a). Grid cells that are not
//! positions (removed with `kill-positions`) stay zero. Any other board (several grids, a grid
//! of three or more dimensions, positions outside a grid) gives planes of `N` cells, one per
//! position in `Game.positions()` order. docs/python.md lists the planes.

use zrf::actions::{Action, Space};
use zrf::def::{GameDef, NONE};
use zrf::engine::{Position, Rules};

/// The most values an observation tensor may have (a larger one is refused, not allocated).
pub const MAX_VALUES: usize = 1 << 26;

/// Where each part of the observation lies; fixed per game.
#[derive(Clone, Debug)]
pub struct Layout {
    /// `[C, H, W]` for a grid board, `[C, N]` otherwise.
    pub shape: Vec<usize>,
    /// Cells per plane (`H·W` or `N`).
    cells: usize,
    /// The cell of each position in a plane.
    cell_of: Vec<usize>,
    players: usize,
    types: usize,
    /// Attribute planes (the attributes that fit a cell's bits).
    attrs: usize,
    /// Whether the game has pieces in hand (some piece drops).
    hands: bool,
    counters: usize,
}

impl Layout {
    pub fn new(rules: &Rules) -> Layout {
        let def = &rules.def;
        let n = def.board.n_pos();
        let (cells, cell_of, grid) = match grid_cells(def) {
            Some((h, w, cell_of)) => (h * w, cell_of, Some((h, w))),
            None => (n, (0..n).collect(), None),
        };
        let players = def.players.len();
        let types = def.pieces.len();
        let mut l = Layout {
            shape: Vec::new(),
            cells,
            cell_of,
            players,
            types,
            attrs: def.attributes.len().min(32),
            hands: def.pieces.iter().any(|p| !p.drops.is_empty()),
            counters: rules.n_counter_slots(),
        };
        let c = l.planes();
        l.shape = match grid {
            Some((h, w)) => vec![c, h, w],
            None => vec![c, cells],
        };
        l
    }

    /// The number of planes.
    pub fn planes(&self) -> usize {
        let (t, p) = (self.types, self.players);
        t * p + self.attrs + 2 + 1 + if self.hands { p * t } else { 0 } + p + self.counters
    }

    /// A name per plane, in order (`Game.observation_planes()`): `piece Pawn +0` (pieces of a
    /// type whose owner is the observer, `+1` the next player...), `attribute NAME`,
    /// `last from`, `last to`, `turn so far`, `hand Pawn +0`, `to move +0`, `counter NAME`
    /// (`counter NAME PLAYER` for a counter per player).
    pub fn names(&self, def: &GameDef) -> Vec<String> {
        let p = self.players;
        let mut out = Vec::with_capacity(self.planes());
        for piece in &def.pieces {
            out.extend((0..p).map(|k| format!("piece {} +{k}", piece.name)));
        }
        out.extend(
            def.attributes
                .iter()
                .take(self.attrs)
                .map(|a| format!("attribute {a}")),
        );
        out.extend(["last from", "last to", "turn so far"].map(String::from));
        if self.hands {
            for k in 0..p {
                out.extend(
                    def.pieces
                        .iter()
                        .map(|piece| format!("hand {} +{k}", piece.name)),
                );
            }
        }
        out.extend((0..p).map(|k| format!("to move +{k}")));
        for c in &def.counters {
            if c.per_player {
                let names = def.players.iter().map(|pl| pl.name.as_str());
                let names: Vec<&str> = if p == 0 { vec![""] } else { names.collect() };
                out.extend(names.iter().map(|n| format!("counter {} {n}", c.name)));
            } else {
                out.push(format!("counter {}", c.name));
            }
        }
        out.truncate(self.planes());
        out
    }

    /// The number of values (the product of the shape).
    pub fn len(&self) -> usize {
        self.planes().saturating_mul(self.cells)
    }

    /// Fills `v` (zeroed, `len()` values) with a position seen by `player`: `prefix` the
    /// actions chosen so far in the turn being made, `mover` the player to move if any.
    #[allow(clippy::too_many_arguments)]
    pub fn fill(
        &self,
        v: &mut [f32],
        pos: &Position,
        space: &Space,
        prefix: &[u32],
        player: usize,
        mover: Option<usize>,
    ) {
        let (t, p, cells) = (self.types, self.players, self.cells);
        let pm = p.max(1);
        let rel = |o: usize| (o + pm - player % pm) % pm;
        let mut plane = 0;
        // Pieces by type and owner, then their attributes.
        let attrs_at = t * p;
        for (sq, c) in pos.cells.iter().enumerate().take(self.cell_of.len()) {
            if c.piece == 0 {
                continue;
            }
            let cell = self.cell_of[sq];
            let k = (c.piece as usize - 1) * p + rel(c.owner as usize);
            v[k * cells + cell] = 1.0;
            for a in 0..self.attrs {
                if c.attrs & (1 << a) != 0 {
                    v[(attrs_at + a) * cells + cell] = 1.0;
                }
            }
        }
        plane += t * p + self.attrs;
        // The last move: its from-square, then its destination.
        for (k, sq) in [pos.last_from, pos.last_to].into_iter().enumerate() {
            if sq != NONE {
                if let Some(&cell) = self.cell_of.get(sq as usize) {
                    v[(plane + k) * cells + cell] = 1.0;
                }
            }
        }
        plane += 2;
        // The squares the turn being made has touched so far.
        let mut touch = |sq: u16| {
            if let Some(&cell) = self.cell_of.get(sq as usize) {
                v[plane * cells + cell] = 1.0;
            }
        };
        for &a in prefix {
            match space.decode(a as u64) {
                Some(Action::Step(f, to)) => {
                    touch(f);
                    touch(to);
                }
                Some(Action::Drop(_, sq)) | Some(Action::Huff(sq)) => touch(sq),
                _ => {}
            }
        }
        plane += 1;
        let fill_plane = |v: &mut [f32], k: usize, x: f32| {
            if x != 0.0 {
                v[k * cells..(k + 1) * cells].fill(x);
            }
        };
        if self.hands {
            for owner in 0..p {
                for k in 0..t {
                    let have = pos.store.get(owner * t + k).copied().unwrap_or(0);
                    fill_plane(v, plane + rel(owner) * t + k, have as f32);
                }
            }
            plane += p * t;
        }
        if let Some(m) = mover {
            fill_plane(v, plane + rel(m), 1.0);
        }
        plane += p;
        for k in 0..self.counters {
            let x = pos.counters.get(k).copied().unwrap_or(0);
            fill_plane(v, plane + k, x as f32);
        }
    }
}

/// For a board of one grid of one or two dimensions holding every position: its height, width
/// and the cell of each position.
fn grid_cells(def: &GameDef) -> Option<(usize, usize, Vec<usize>)> {
    let b = &def.board;
    let [grid] = &b.grids[..] else { return None };
    let dims = grid.labels.len();
    if !(1..=2).contains(&dims) {
        return None;
    }
    let w = grid.labels[0].len();
    let h = if dims == 2 { grid.labels[1].len() } else { 1 };
    let mut cell_of = Vec::with_capacity(b.positions.len());
    for p in &b.positions {
        let (g, idx) = p.grid?;
        if g != 0 {
            return None;
        }
        let (x, y) = (idx[0] as usize, if dims == 2 { idx[1] as usize } else { 0 });
        if x >= w || y >= h {
            return None;
        }
        cell_of.push(y * w + x);
    }
    Some((h, w, cell_of))
}
