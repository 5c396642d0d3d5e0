//! What a graphical front end needs to draw a game and let a person play it: the board's
//! geometry (the pixel rectangles Zillions draws each position in), the pieces on it and in
//! hand, and the legal moves with their squares. Plain data; `zrf serve` turns it into JSON.

use crate::def::{GameDef, NONE};
use crate::engine::{MoveList, Position};
use crate::notation;

/// Side of a square when the file gives no rectangles.
pub const DEFAULT_SIZE: i32 = 50;

/// One position as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellView {
    /// Position id (index in `Board::positions`).
    pub id: usize,
    /// The name (`e4`).
    pub name: String,
    /// The name notation uses (a declared number, else the name).
    pub label: String,
    /// `x1 y1 x2 y2` in the board's pixels.
    pub rect: [i32; 4],
    /// A grid square: drawn checkered, `dark` telling the colour.
    pub grid: bool,
    /// The dark colour of a checkered grid.
    pub dark: bool,
}

/// The board as drawn: every shown position and the bounds around them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Positions that are shown (dummies are not).
    pub cells: Vec<CellView>,
    /// `x1 y1 x2 y2` containing every cell.
    pub bounds: [i32; 4],
    /// The rectangles come from the file (false: zrf laid the board out itself).
    pub from_file: bool,
    /// Zones: name and, per player, position ids.
    pub zones: Vec<(String, Vec<Vec<usize>>)>,
}

/// The board's geometry. Positions without a rectangle in the file are laid out by zrf:
/// grid positions by their indices, other positions in a row below.
pub fn board(def: &GameDef) -> BoardView {
    let b = &def.board;
    let from_file = b
        .positions
        .iter()
        .filter(|p| !p.dummy)
        .all(|p| p.rect.is_some());
    let mut cells = Vec::new();
    // Fallback layout: a grid's first dimension runs right, the second down, a third places
    // whole boards side by side; other positions go in a row below everything else.
    let mut loose = Vec::new();
    let mut bottom = 0;
    for (id, p) in b.positions.iter().enumerate() {
        if p.dummy {
            continue;
        }
        let rect = if from_file { p.rect } else { None };
        let rect = rect.or_else(|| {
            let (g, idx) = p.grid?;
            let sizes: Vec<usize> = b.grids[g as usize].labels.iter().map(Vec::len).collect();
            let s = DEFAULT_SIZE;
            let w = sizes.first().copied().unwrap_or(1) as i32;
            let mut x = idx[0] as i32 * s;
            let y = if sizes.len() > 1 {
                idx[1] as i32 * s
            } else {
                0
            };
            for (k, &i) in idx.iter().enumerate().take(sizes.len()).skip(2) {
                let stride: i32 = sizes[..k].iter().take(1).map(|&n| n as i32).product();
                x += i as i32 * (stride.max(w) * s + s / 2) * (k as i32 - 1);
            }
            Some([x, y, x + s, y + s])
        });
        let grid = p.grid.is_some();
        let dark = p
            .grid
            .map(|(_, idx)| (idx[0] as usize + idx[1] as usize) % 2 == 1)
            .unwrap_or(false);
        match rect {
            Some(r) => {
                bottom = bottom.max(r[3]);
                cells.push(CellView {
                    id,
                    name: p.name.clone(),
                    label: notation::square(def, id as u16),
                    rect: r,
                    grid,
                    dark,
                })
            }
            None => loose.push(id),
        }
    }
    for (k, id) in loose.into_iter().enumerate() {
        let x = k as i32 * DEFAULT_SIZE;
        let y = bottom + DEFAULT_SIZE / 2;
        cells.push(CellView {
            id,
            name: b.positions[id].name.clone(),
            label: notation::square(def, id as u16),
            rect: [x, y, x + DEFAULT_SIZE, y + DEFAULT_SIZE],
            grid: false,
            dark: false,
        });
    }
    let mut bounds = [i32::MAX, i32::MAX, i32::MIN, i32::MIN];
    for c in &mut cells {
        let r = &mut c.rect;
        // Some files give the corners the other way round.
        if r[0] > r[2] {
            r.swap(0, 2);
        }
        if r[1] > r[3] {
            r.swap(1, 3);
        }
        bounds = [
            bounds[0].min(r[0]),
            bounds[1].min(r[1]),
            bounds[2].max(r[2]),
            bounds[3].max(r[3]),
        ];
    }
    if cells.is_empty() {
        bounds = [0, 0, DEFAULT_SIZE, DEFAULT_SIZE];
    }
    let zones = b
        .zones
        .iter()
        .map(|z| {
            let per: Vec<Vec<usize>> = z
                .positions
                .iter()
                .map(|ps| ps.iter().map(|p| p.idx()).collect())
                .collect();
            (z.name.clone(), per)
        })
        .collect();
    BoardView {
        cells,
        bounds,
        from_file,
        zones,
    }
}

/// A piece on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceOn {
    /// Position id.
    pub at: usize,
    /// Piece type id.
    pub piece: usize,
    /// Owner (player index).
    pub owner: usize,
}

/// A legal move as the board shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveView {
    /// Canonical text, unique among the legal moves (what to send back to play it).
    pub text: String,
    /// The square the piece leaves (`None` for a drop or a pass).
    pub from: Option<usize>,
    /// The last landing square (`None` for a pass).
    pub to: Option<usize>,
    /// Every landing square in order.
    pub path: Vec<usize>,
    /// Squares of captured pieces.
    pub captures: Vec<usize>,
    /// The dropped piece type.
    pub drop: Option<usize>,
    /// A pass.
    pub pass: bool,
}

/// The pieces on the board.
pub fn pieces(pos: &Position) -> Vec<PieceOn> {
    pos.cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.piece != 0)
        .map(|(at, c)| PieceOn {
            at,
            piece: c.piece as usize - 1,
            owner: c.owner as usize,
        })
        .collect()
}

/// Pieces in hand (the off-board stores): `hand[player][piece]`.
pub fn hand(def: &GameDef, pos: &Position) -> Vec<Vec<u32>> {
    let n = def.pieces.len();
    (0..def.players.len())
        .map(|p| {
            (0..n)
                .map(|k| pos.store.get(p * n + k).copied().unwrap_or(0))
                .collect()
        })
        .collect()
}

/// The legal moves with their squares, texts as `notation::move_texts` writes them.
pub fn moves(def: &GameDef, list: &MoveList) -> Vec<MoveView> {
    let texts = notation::move_texts(def, list);
    list.moves
        .iter()
        .zip(texts)
        .map(|(m, text)| {
            let path: Vec<u16> = list.path(m).to_vec();
            let from = match path.first() {
                Some(&s) if m.drop == 0 && !m.pass && s != NONE => Some(s as usize),
                _ => None,
            };
            let landing: Vec<usize> = path
                .iter()
                .skip(1)
                .filter(|&&s| s != NONE)
                .map(|&s| s as usize)
                .collect();
            MoveView {
                text,
                from,
                to: if m.pass {
                    None
                } else {
                    landing.last().copied()
                },
                path: landing,
                captures: list.captured(m).iter().map(|&s| s as usize).collect(),
                drop: (m.drop != 0).then(|| m.drop as usize - 1),
                pass: m.pass,
            }
        })
        .collect()
}
