//! What a graphical front end needs to draw a game and let a person play it: the board's
//! geometry (the pixel rectangles Zillions draws each position in), the pieces on it and in
//! hand, and the legal moves with their squares. Plain data; `zrf serve` turns it into JSON.

use std::collections::HashMap;

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
    /// Pairs of linked positions (any direction, first player's view), each pair once: the
    /// lines drawn between positions of boards that are not checkered.
    pub links: Vec<(usize, usize)>,
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
    // Fallback layout: a grid's first dimension runs right, the second down (further ones are
    // spread by `spread_layers`); other positions go in a row below everything else.
    let mut loose = Vec::new();
    let mut bottom = 0;
    for (id, p) in b.positions.iter().enumerate() {
        if p.dummy {
            continue;
        }
        let rect = if from_file { p.rect } else { None };
        let rect = rect.or_else(|| {
            let (g, idx) = p.grid?;
            let dims = b.grids[g as usize].labels.len();
            let s = DEFAULT_SIZE;
            // Layers of a 3-D grid land on each other here; `spread_layers` moves them apart.
            let x = idx[0] as i32 * s;
            let y = if dims > 1 { idx[1] as i32 * s } else { 0 };
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
    spread_layers(b, &mut cells);
    spread_grids(b, &mut cells);
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
    // Checkering suits a grid whose squares line up in rows and columns and either fill the
    // whole rectangle or keep one colour (draughts); other grids (hexagons drawn as a grid,
    // morris points) are drawn as spots joined by their links.
    let n_grids = b.grids.len();
    let mut plain = vec![true; n_grids];
    let mut count = vec![0usize; n_grids];
    let mut colours = vec![[false; 2]; n_grids];
    let mut row_y: Vec<HashMap<u16, i32>> = vec![HashMap::new(); n_grids];
    let mut col_x: Vec<HashMap<u16, i32>> = vec![HashMap::new(); n_grids];
    for c in &cells {
        let Some((g, idx)) = b.positions[c.id].grid else {
            continue;
        };
        let g = g as usize;
        count[g] += 1;
        colours[g][c.dark as usize] = true;
        if *row_y[g].entry(idx[1]).or_insert(c.rect[1]) != c.rect[1]
            || *col_x[g].entry(idx[0]).or_insert(c.rect[0]) != c.rect[0]
        {
            plain[g] = false;
        }
    }
    for (g, grid) in b.grids.iter().enumerate() {
        let full: usize = grid.labels.iter().map(Vec::len).product();
        let one_colour = !(colours[g][0] && colours[g][1]);
        if count[g] != full && !one_colour {
            plain[g] = false;
        }
    }
    for c in &mut cells {
        if let Some((g, _)) = b.positions[c.id].grid {
            c.grid = plain[g as usize];
        }
    }
    let mut links = Vec::new();
    let n = b.n_pos();
    let n_dirs = b.directions.len();
    // Directions that some other direction reverses are the board's lines; a one-way
    // direction beside them is a walk for the rules (Morris's `x` visits every point in turn)
    // and would draw lines the board does not have. A board with one-way directions only (a
    // race track) draws them.
    let two_way: Vec<bool> = (0..n_dirs)
        .map(|d| b.opposite.get(d).copied().flatten().is_some())
        .collect();
    let any_two_way = two_way.iter().any(|&t| t);
    for d in (0..n_dirs).filter(|&d| two_way[d] || !any_two_way) {
        for from in 0..n {
            let to = b.next.get(d * n + from).copied().unwrap_or(NONE);
            if to != NONE && (to as usize) != from {
                let (a, z) = (from.min(to as usize), from.max(to as usize));
                links.push((a, z));
            }
        }
    }
    links.sort_unstable();
    links.dedup();
    links.retain(|&(a, z)| !b.positions[a].dummy && !b.positions[z].dummy);
    // Only the lines to nearest neighbours: long links (a knight's leap, a jump over the
    // centre) would cross the board.
    let mut centre = vec![None; n];
    for c in &cells {
        let r = c.rect;
        centre[c.id] = Some(((r[0] + r[2]) as f64 / 2.0, (r[1] + r[3]) as f64 / 2.0));
    }
    let length = |a: usize, z: usize| -> Option<f64> {
        let (p, q) = (centre[a]?, centre[z]?);
        Some(((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt())
    };
    let mut shortest = vec![f64::INFINITY; n];
    for &(a, z) in &links {
        if let Some(l) = length(a, z) {
            shortest[a] = shortest[a].min(l);
            shortest[z] = shortest[z].min(l);
        }
    }
    links.retain(|&(a, z)| {
        length(a, z).is_some_and(|l| l > 0.0 && (l <= 1.6 * shortest[a] || l <= 1.6 * shortest[z]))
    });
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
        links,
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

/// A bitmap named by the file, as a path relative to the rules file's folder with `/`
/// separators (Zillions files write `images\\Chess\\wk.bmp`). Finding and reading the file is
/// the front end's business.
pub fn image_path(name: &str) -> String {
    name.trim().replace('\\', "/")
}

/// The board's bitmap (the first `(image ...)` file), if the file names one.
pub fn board_image(def: &GameDef) -> Option<String> {
    def.board.images.first().map(|s| image_path(s))
}

/// Each piece type's bitmap per player (`images[piece][player]`, the first file listed for
/// that player), `None` where the file names none.
pub fn piece_images(def: &GameDef) -> Vec<Vec<Option<String>>> {
    def.pieces
        .iter()
        .map(|p| {
            (0..def.players.len())
                .map(|k| {
                    p.images
                        .iter()
                        .find(|(q, _)| q.idx() == k)
                        .and_then(|(_, files)| files.first())
                        .map(|f| image_path(f))
                })
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

/// A grid of three or more dimensions whose file puts several positions in one rectangle
/// (the layers of a 3-D board): each layer is moved right by its index in the third
/// dimension, and down by its index in the fourth and later ones, so that all can be seen.
fn spread_layers(b: &crate::def::Board, cells: &mut [CellView]) {
    for (g, grid) in b.grids.iter().enumerate() {
        if grid.labels.len() < 3 {
            continue;
        }
        let mine: Vec<usize> = (0..cells.len())
            .filter(|&i| {
                b.positions[cells[i].id]
                    .grid
                    .is_some_and(|(h, _)| h as usize == g)
            })
            .collect();
        let mut rects: Vec<[i32; 4]> = mine.iter().map(|&i| cells[i].rect).collect();
        rects.sort_unstable();
        rects.dedup();
        if rects.len() == mine.len() || mine.is_empty() {
            continue;
        }
        let x1 = mine.iter().map(|&i| cells[i].rect[0]).min().unwrap_or(0);
        let x2 = mine.iter().map(|&i| cells[i].rect[2]).max().unwrap_or(0);
        let y1 = mine.iter().map(|&i| cells[i].rect[1]).min().unwrap_or(0);
        let y2 = mine.iter().map(|&i| cells[i].rect[3]).max().unwrap_or(0);
        let (w, h) = (x2 - x1 + DEFAULT_SIZE / 2, y2 - y1 + DEFAULT_SIZE / 2);
        for &i in &mine {
            let Some((_, idx)) = b.positions[cells[i].id].grid else {
                continue;
            };
            let dx = w.saturating_mul(idx[2] as i32);
            let mut dy = 0i32;
            let mut stride = 1i32;
            for (k, labels) in grid.labels.iter().enumerate().skip(3) {
                dy = dy.saturating_add(h.saturating_mul(stride).saturating_mul(idx[k] as i32));
                stride = stride.saturating_mul(labels.len() as i32);
            }
            let r = &mut cells[i].rect;
            *r = [
                r[0].saturating_add(dx),
                r[1].saturating_add(dy),
                r[2].saturating_add(dx),
                r[3].saturating_add(dy),
            ];
        }
    }
}

/// Grids that the file (or the fallback layout) puts on the same rectangles, as boards drawn
/// in several views or grids without a `start-rectangle`: each such grid is moved right of
/// everything drawn before it.
fn spread_grids(b: &crate::def::Board, cells: &mut [CellView]) {
    let grid_of = |c: &CellView| b.positions[c.id].grid.map(|(g, _)| g as usize);
    let mut right = i32::MIN;
    let mut seen: std::collections::HashSet<[i32; 4]> = std::collections::HashSet::new();
    for g in 0..b.grids.len() {
        let mine: Vec<usize> = (0..cells.len())
            .filter(|&i| grid_of(&cells[i]) == Some(g))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let clash = mine.iter().any(|&i| seen.contains(&cells[i].rect));
        if clash {
            let x1 = mine.iter().map(|&i| cells[i].rect[0]).min().unwrap_or(0);
            let dx = right.saturating_add(DEFAULT_SIZE / 2).saturating_sub(x1);
            for &i in &mine {
                let r = &mut cells[i].rect;
                r[0] = r[0].saturating_add(dx);
                r[2] = r[2].saturating_add(dx);
            }
        }
        for &i in &mine {
            seen.insert(cells[i].rect);
            right = right.max(cells[i].rect[2]);
        }
    }
}
