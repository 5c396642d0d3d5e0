//! Lines of `relative-config` goals partly filled, and their worth.

use super::*;

/// One place where a `relative-config` goal could be met: the player it counts for, its
/// squares and where its worth by squares filled starts in `Evaluator::line_worth`.
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub(super) player: u8,
    pub(super) first: usize,
    pub(super) len: usize,
    pub(super) worth: usize,
}

/// A square of a line and the piece types that fit there (`u64::MAX`: any).
#[derive(Clone, Copy, Debug)]
pub(super) struct LineCell {
    pub(super) sq: u16,
    pub(super) types: u64,
}

/// The lines of the `relative-config` goals that a player wins or loses by (directly or
/// within an `or`), where every square wants a piece of that player: each place on the board
/// where the pattern fits. A line lacking `m` of its `n` pieces is worth
/// `LINE_UNITS / m²` units (for a loss goal, against its player); a full line is the goal
/// itself, decided by the rules.
pub(super) fn goal_lines(def: &GameDef, active: &[bool]) -> (Vec<Line>, Vec<LineCell>, Vec<i32>) {
    let mut lines = Vec::new();
    let mut cells = Vec::new();
    let mut worths = Vec::new();
    let mut patterns = Vec::new();
    pub(super) fn collect<'a>(c: &'a GoalCond, out: &mut Vec<(&'a [PieceSpec], &'a [DirId])>) {
        match c {
            GoalCond::RelativeConfig { pieces, dirs } => out.push((pieces, dirs)),
            GoalCond::Or(xs) => xs.iter().for_each(|x| collect(x, out)),
            _ => {}
        }
    }
    for goal in &def.goals {
        let sign = match goal.kind {
            GoalKind::Win => 1.0,
            GoalKind::Loss => -1.0,
            _ => continue,
        };
        patterns.clear();
        collect(&goal.cond, &mut patterns);
        for &(specs, dirs) in &patterns {
            if specs.len() < 2 || specs.iter().any(|s| s.negated || s.owner != Owner::Mine) {
                continue;
            }
            let n = specs.len();
            let worth = worths.len();
            worths.extend((0..=n).map(|k| {
                let missing = (n - k) as f64;
                if k == 0 || k == n {
                    0
                } else {
                    (sign * LINE_UNITS * UNIT as f64 / (missing * missing)).round() as i32
                }
            }));
            for &p in goal.players.iter().filter(|p| active[p.idx()]) {
                for start in 0..def.board.positions.len() {
                    let first = cells.len();
                    let trace = def.board.trace(p, PosId(start as u16), dirs);
                    cells.extend(trace.zip(specs).map(|(at, spec)| LineCell {
                        sq: at.0,
                        types: if spec.pieces.is_empty() {
                            u64::MAX
                        } else {
                            spec.pieces.iter().fold(0u64, |m, t| m | 1 << (t.0 % 64))
                        },
                    }));
                    if cells.len() - first < n || def.board.positions[start].dummy {
                        cells.truncate(first);
                        continue;
                    }
                    lines.push(Line {
                        player: p.0,
                        first,
                        len: n,
                        worth,
                    });
                    if lines.len() > MAX_LINES {
                        return (Vec::new(), Vec::new(), Vec::new());
                    }
                }
            }
        }
    }
    (lines, cells, worths)
}

impl Evaluator {
    /// A line's worth in `pos`: by how many of its squares hold a fitting piece of its player,
    /// if all the others are empty; nothing once something else stands in it.
    #[inline]
    pub(super) fn line_worth(&self, pos: &Position, line: &Line) -> i32 {
        let mut filled = 0;
        for lc in &self.line_cells[line.first..line.first + line.len] {
            let c = pos.cells[lc.sq as usize];
            if c.is_empty() {
                continue;
            }
            let fits = c.owner == line.player
                && c.piece >= 1
                && (lc.types == u64::MAX || lc.types >> ((c.piece - 1) % 64) & 1 == 1);
            if !fits {
                return 0;
            }
            filled += 1;
        }
        self.line_worth[line.worth + filled]
    }
}
