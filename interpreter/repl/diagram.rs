//! The board as text: a diagram of the first grid with its file and rank labels, square
//! numbers beside the rows on numbered boards, and a list for squares outside the grid.

use std::fmt::Write;

use crate::def::*;
use crate::engine::{Cell, Position, Rules};
use crate::summary::{pad_end, pad_start};

/// ANSI styles, used only when the caller asks for colour.
pub(crate) mod ansi {
    pub const RESET: &str = "\x1b[0m";
    pub const DIM: &str = "\x1b[2m";
    pub const BOLD: &str = "\x1b[1m";
    pub const RED: &str = "\x1b[31m";
    pub const UNDERLINE: &str = "\x1b[4m";
    /// One colour per player, in `players` order (then repeating).
    pub const PLAYERS: [&str; 6] = [
        "\x1b[1;33m",
        "\x1b[1;36m",
        "\x1b[1;35m",
        "\x1b[1;32m",
        "\x1b[1;34m",
        "\x1b[1;31m",
    ];
}

/// One letter (or short notation) per piece type: its `notation` when it has one of at most
/// three characters, else a letter of its name that no other type uses yet (so a Knight
/// beside a King gets `N`), else the first letter of its name.
pub fn piece_letters(def: &GameDef) -> Vec<String> {
    let short = |p: &PieceDef| {
        p.notation
            .as_deref()
            .filter(|n| !n.is_empty() && n.chars().count() <= 3)
            .map(str::to_uppercase)
    };
    let mut used: Vec<String> = def.pieces.iter().filter_map(short).collect();
    def.pieces
        .iter()
        .map(|p| {
            if let Some(n) = short(p) {
                return n;
            }
            let letters = p.name.chars().filter(|c| c.is_alphanumeric());
            let pick = letters
                .map(|c| c.to_uppercase().to_string())
                .find(|c| !used.contains(c))
                .or_else(|| p.name.chars().next().map(|c| c.to_uppercase().to_string()))
                .unwrap_or_else(|| "?".into());
            used.push(pick.clone());
            pick
        })
        .collect()
}

/// The text of a piece in a diagram: its letter ([`piece_letters`]), upper case for the
/// first player and lower case for the second; with more than two players, the first letter
/// of the owner's name followed by the piece's letter in lower case.
pub fn piece_text(def: &GameDef, letters: &[String], cell: Cell) -> String {
    let letter = &letters[cell.piece as usize - 1];
    if def.players.len() > 2 {
        let owner = def.players[cell.owner as usize]
            .name
            .chars()
            .next()
            .unwrap_or('?')
            .to_uppercase()
            .to_string();
        return owner + &letter.to_lowercase();
    }
    if cell.owner == 0 {
        letter.to_uppercase()
    } else {
        letter.to_lowercase()
    }
}

/// The legend of the letters: `P Pawn, N Knight, ...` (dummy pieces left out).
pub fn legend(def: &GameDef) -> String {
    let letters = piece_letters(def);
    def.pieces
        .iter()
        .zip(&letters)
        .filter(|(p, _)| !p.dummy)
        .map(|(p, l)| format!("{l} {}", p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The grid a diagram shows: its labels and the position at each coordinate.
struct Grid<'a> {
    labels: &'a [Vec<String>],
    at: std::collections::HashMap<[u16; MAX_DIMS], u16>,
}

fn first_grid(def: &GameDef) -> Option<Grid<'_>> {
    let grid = def.board.grids.first()?;
    if grid.labels.is_empty() {
        return None;
    }
    let mut at = std::collections::HashMap::new();
    for (i, p) in def.board.positions.iter().enumerate() {
        if let Some((0, coords)) = p.grid {
            if !p.dummy {
                at.insert(coords, i as u16);
            }
        }
    }
    Some(Grid {
        labels: &grid.labels,
        at,
    })
}

/// Draws the board. `color` adds ANSI colours: pieces by owner, dim labels, and the squares
/// of the last move underlined.
pub fn diagram(rules: &Rules, pos: &Position, color: bool) -> String {
    diagram_turned(rules, pos, color, false)
}

/// [`diagram`], turned half round when `flip` (the last rank and file first: the board as the
/// second player sees it).
pub fn diagram_turned(rules: &Rules, pos: &Position, color: bool, flip: bool) -> String {
    let def = &rules.def;
    let letters = piece_letters(def);
    let mut out = String::new();
    let mut shown = vec![false; pos.cells.len()];
    if let Some(grid) = first_grid(def) {
        let view = View { color, flip };
        draw_grid(rules, pos, view, &grid, &letters, &mut shown, &mut out);
    }
    // Squares outside the grid (other grids, explicit positions): the occupied ones, by name.
    let others: Vec<String> = (0..pos.cells.len())
        .filter(|&s| !shown[s] && !pos.cells[s].is_empty() && !def.board.positions[s].dummy)
        .map(|s| {
            format!(
                "{} {}",
                crate::notation::square(def, s as u16),
                paint(
                    &piece_text(def, &letters, pos.cells[s]),
                    pos.cells[s].owner,
                    false,
                    color
                )
            )
        })
        .collect();
    if !others.is_empty() {
        let head = if out.is_empty() {
            "pieces"
        } else {
            "off the grid"
        };
        let _ = writeln!(out, "{head}: {}", others.join(", "));
    } else if out.is_empty() {
        out += "(the board is empty)\n";
    }
    out
}

fn paint(text: &str, owner: u8, last: bool, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    let mut s = String::from(ansi::PLAYERS[owner as usize % ansi::PLAYERS.len()]);
    if last {
        s += ansi::UNDERLINE;
    }
    s + text + ansi::RESET
}

/// How to draw the board.
#[derive(Clone, Copy)]
struct View {
    color: bool,
    flip: bool,
}

fn draw_grid(
    rules: &Rules,
    pos: &Position,
    view: View,
    grid: &Grid,
    letters: &[String],
    shown: &mut [bool],
    out: &mut String,
) {
    let def = &rules.def;
    let color = view.color;
    let files = &grid.labels[0];
    let one_row = [String::new()];
    let ranks: &[String] = grid.labels.get(1).map_or(&one_row[..], |r| &r[..]);
    let order = |n: usize| -> Vec<usize> {
        if view.flip {
            (0..n).rev().collect()
        } else {
            (0..n).collect()
        }
    };
    let (file_order, rank_order) = (order(files.len()), order(ranks.len()));
    let numbered = def.board.numbers.iter().any(|&n| n > 0);
    let width = files
        .iter()
        .map(|f| f.chars().count())
        .chain((0..def.pieces.len()).map(|p| {
            piece_text(def, letters, Cell::new(PieceId(p as u16), PlayerId(0), 0))
                .chars()
                .count()
        }))
        .max()
        .unwrap_or(1)
        .max(1);
    let rank_width = ranks.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let dim = |s: &str| {
        if color {
            format!("{}{s}{}", ansi::DIM, ansi::RESET)
        } else {
            s.to_string()
        }
    };
    let file_line = {
        let cells: Vec<String> = file_order
            .iter()
            .map(|&f| pad_end(&files[f], width))
            .collect();
        let pad = " ".repeat(rank_width + 1);
        format!("{pad}{}", dim(cells.join(" ").trim_end()))
    };
    // Higher dimensions: one layer per combination of their labels.
    let higher: Vec<usize> = grid.labels.iter().skip(2).map(Vec::len).collect();
    let n_layers: usize = higher.iter().product();
    for layer in 0..n_layers.max(1) {
        let mut coords = [0u16; MAX_DIMS];
        let mut rest = layer;
        let mut names = Vec::new();
        for (d, &n) in higher.iter().enumerate() {
            coords[d + 2] = (rest % n) as u16;
            names.push(grid.labels[d + 2][rest % n].clone());
            rest /= n;
        }
        if !names.is_empty() {
            let _ = writeln!(out, "level {}:", names.join(" "));
        }
        let _ = writeln!(out, "{file_line}");
        for &r in &rank_order {
            let rank = &ranks[r];
            coords[1] = r as u16;
            let mut cells = Vec::new();
            let mut numbers = Vec::new();
            for &f in &file_order {
                coords[0] = f as u16;
                let text = match grid.at.get(&coords) {
                    None => " ".repeat(width),
                    Some(&sq) => {
                        shown[sq as usize] = true;
                        if let Some(&n) = def.board.numbers.get(sq as usize).filter(|&&n| n > 0) {
                            numbers.push(n);
                        }
                        let cell = pos.cells[sq as usize];
                        let last = sq == pos.last_to || sq == pos.last_from;
                        if cell.is_empty() {
                            let dot = pad_end(".", width);
                            if color && last {
                                format!("{}{dot}{}", ansi::UNDERLINE, ansi::RESET)
                            } else {
                                dot
                            }
                        } else {
                            let t = piece_text(def, letters, cell);
                            let pad = " ".repeat(width.saturating_sub(t.chars().count()));
                            paint(&t, cell.owner, last, color) + &pad
                        }
                    }
                };
                cells.push(text);
            }
            let label = dim(&pad_start(rank, rank_width));
            let mut line = format!("{label} {} {}", cells.join(" "), dim(rank));
            if numbered && !numbers.is_empty() {
                let list: Vec<String> = numbers.iter().map(|n| format!("{n:>3}")).collect();
                line += &format!("   {}", dim(&list.join("")));
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let _ = writeln!(out, "{file_line}");
    }
}
