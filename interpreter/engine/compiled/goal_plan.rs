//! The goals' conditions prepared at load (`GoalPlan`): `relative-config` patterns laid on
//! the board once per player and start square, and which goals can hold only where the player
//! to move has no legal move, so that the outcome test after each move reads a few cells.

use crate::def::*;
use crate::engine::position::Cell;

/// Every goal's condition as the outcome test reads it.
#[derive(Clone, Debug, Default)]
pub struct GoalPlan {
    /// Per goal: its condition, `relative-config` patterns laid out.
    pub(in crate::engine) checks: Vec<Check>,
    /// Per goal: its condition holds only when the player to move has no legal move
    /// (`stalemated`, `checkmated`, or a conjunction with one), so it is skipped otherwise.
    pub(in crate::engine) idle: Vec<bool>,
}

/// A goal condition with its `relative-config` patterns laid out; other conditions are kept
/// as they are and tested by the engine's goal evaluation.
#[derive(Clone, Debug)]
pub(in crate::engine) enum Check {
    Not(Box<Check>),
    And(Vec<Check>),
    Or(Vec<Check>),
    Lines(Lines),
    Masks(Masks),
    /// `repetition`.
    Repetition,
    /// A counter against a number (`(>= halfmove-clock 100)`): the counter's slot per player,
    /// the comparison with the counter on the left.
    Counter(CmpOp, Vec<u32>, i64),
    /// `only-pieces`: the most pieces of any of its sets, then the sets (sorted piece types).
    OnlyPieces(usize, Vec<Vec<PieceId>>),
    Leaf(GoalCond),
}

/// `relative-config` patterns whose pieces all fit one test, on a board of at most 64
/// squares: each placement a set of squares, which stands where every square fits (several
/// patterns of an `or` in one, as tic-tac-toe's four lines).
#[derive(Clone, Debug)]
pub(in crate::engine) struct Masks {
    fit: Fit,
    /// Per player: the square set of each placement.
    sets: Vec<Vec<u64>>,
}

impl Masks {
    /// Whether one of the placements stands on `cells` for player `p`.
    #[inline]
    pub(in crate::engine) fn any(&self, p: PlayerId, cells: &[Cell]) -> bool {
        let Some(sets) = self.sets.get(p.idx()) else {
            return false;
        };
        let cells = &cells[..cells.len().min(64)];
        let f = &self.fit;
        let mut have = 0u64;
        if f.owner == Owner::Mine && f.types.is_empty() && !f.negated {
            // The common pattern (a line of the player's pieces): one comparison per cell.
            for (i, c) in cells.iter().enumerate() {
                have |= (((c.piece != 0) & (c.owner == p.0)) as u64) << i;
            }
        } else {
            for (i, &c) in cells.iter().enumerate() {
                have |= (f.fits(p.0, c) as u64) << i;
            }
        }
        sets.iter().any(|&m| m & !have == 0)
    }
}

/// A `relative-config` pattern: the squares of every placement of it that stays on the board.
#[derive(Clone, Debug)]
pub(in crate::engine) struct Lines {
    fits: Vec<Fit>,
    /// Per player: the squares of each placement, `fits.len()` of them per placement, in the
    /// order of their start squares.
    squares: Vec<Vec<u16>>,
}

/// A `PieceSpec` as a test of one cell.
#[derive(Clone, Debug, PartialEq)]
struct Fit {
    owner: Owner,
    /// Bit `piece` (`Cell::piece`, type + 1) set for each type named; empty for any type.
    types: Vec<u64>,
    negated: bool,
}

impl Fit {
    /// The test of `spec` in a game of `n_types` piece types.
    fn new(spec: &PieceSpec, n_types: usize) -> Fit {
        let mut types = Vec::new();
        // A spec that names every type of the game tests only the owner.
        let every = (0..n_types).all(|t| spec.pieces.iter().any(|p| p.idx() == t));
        for t in &spec.pieces {
            let bit = t.idx() + 1;
            if types.len() <= bit / 64 {
                types.resize(bit / 64 + 1, 0);
            }
            types[bit / 64] |= 1 << (bit % 64);
        }
        if every {
            types.clear();
        }
        Fit {
            owner: spec.owner,
            types,
            negated: spec.negated,
        }
    }

    #[inline]
    fn fits(&self, p: u8, c: Cell) -> bool {
        let owner_ok = !c.is_empty()
            && match self.owner {
                Owner::Mine => c.owner == p,
                Owner::Opponent => c.owner != p,
                Owner::Any => true,
            };
        let piece = c.piece as usize;
        let m = owner_ok
            && (self.types.is_empty()
                || (self.types.get(piece / 64)).is_some_and(|w| w >> (piece % 64) & 1 == 1));
        m != self.negated
    }
}

impl Lines {
    fn new(def: &GameDef, pieces: &[PieceSpec], dirs: &[DirId]) -> Lines {
        let (board, n_players) = (&def.board, def.players.len());
        let k = pieces.len();
        let squares = (0..n_players)
            .map(|p| {
                let mut out = Vec::new();
                for start in 0..board.n_pos() {
                    let at = board.trace(PlayerId(p as u8), PosId(start as u16), dirs);
                    let line: Vec<u16> = at.take(k).map(|q| q.0).collect();
                    if line.len() == k {
                        out.extend_from_slice(&line);
                    }
                }
                out
            })
            .collect();
        Lines {
            fits: (pieces.iter())
                .map(|s| Fit::new(s, def.pieces.len()))
                .collect(),
            squares,
        }
    }

    /// Whether the pattern stands somewhere on `cells` for player `p`.
    #[inline]
    pub(in crate::engine) fn any(&self, p: PlayerId, cells: &[Cell]) -> bool {
        let Some((first, rest)) = self.fits.split_first() else {
            // An empty pattern fits on any square.
            return !cells.is_empty();
        };
        let Some(squares) = self.squares.get(p.idx()) else {
            return false;
        };
        let k = self.fits.len();
        squares.chunks_exact(k).any(|line| {
            first.fits(p.0, cells[line[0] as usize])
                && (rest.iter().zip(&line[1..])).all(|(f, &q)| f.fits(p.0, cells[q as usize]))
        })
    }
}

/// Whether `c` can hold only where the player to move has no legal move.
fn idle(c: &GoalCond) -> bool {
    match c {
        GoalCond::Stalemated | GoalCond::Checkmated(_) => true,
        GoalCond::And(xs) => xs.iter().any(idle),
        GoalCond::Or(xs) => !xs.is_empty() && xs.iter().all(idle),
        _ => false,
    }
}

/// The placements of a pattern as square sets, when the board has at most 64 squares and
/// every piece of the pattern is the same test.
fn masks(lines: &Lines) -> Option<Masks> {
    let (first, rest) = lines.fits.split_first()?;
    if rest.iter().any(|f| f != first) || lines.squares.iter().flatten().any(|&q| q >= 64) {
        return None;
    }
    let k = lines.fits.len();
    let sets = (lines.squares.iter())
        .map(|sq| {
            (sq.chunks_exact(k))
                .map(|line| line.iter().fold(0u64, |m, &q| m | 1 << q))
                .collect()
        })
        .collect();
    Some(Masks {
        fit: first.clone(),
        sets,
    })
}

/// A comparison of a counter with a number, as the counter's slot per player, the comparison
/// with the counter on the left and the number.
fn counter(def: &GameDef, base: &[u32], c: &GoalCond) -> Option<Check> {
    let GoalCond::Compare(op, a, b) = c else {
        return None;
    };
    let (op, c, n) = match (a, b) {
        (Expr::Counter(c), Expr::Int(n)) => (*op, *c, *n),
        (Expr::Int(n), Expr::Counter(c)) => {
            let flipped = match op {
                CmpOp::Lt => CmpOp::Gt,
                CmpOp::Le => CmpOp::Ge,
                CmpOp::Ge => CmpOp::Le,
                CmpOp::Gt => CmpOp::Lt,
                op => *op,
            };
            (flipped, *c, *n)
        }
        _ => return None,
    };
    let per_player = def.counters.get(c as usize)?.per_player;
    let base = *base.get(c as usize)?;
    let slots = (0..def.players.len() as u32)
        .map(|p| base + if per_player { p } else { 0 })
        .collect();
    Some(Check::Counter(op, slots, n))
}

fn check(def: &GameDef, base: &[u32], c: &GoalCond) -> Check {
    let check = |c: &GoalCond| check(def, base, c);
    let all = |xs: &[GoalCond]| xs.iter().map(check).collect();
    if let Some(c) = counter(def, base, c) {
        return c;
    }
    match c {
        GoalCond::Repetition => Check::Repetition,
        GoalCond::OnlyPieces(sets) => {
            Check::OnlyPieces(sets.iter().map(Vec::len).max().unwrap_or(0), sets.clone())
        }
        GoalCond::Not(x) => Check::Not(Box::new(check(x))),
        GoalCond::And(xs) => Check::And(all(xs)),
        GoalCond::Or(xs) => {
            // Patterns of the same piece test become one set of placements.
            let mut out: Vec<Check> = Vec::new();
            for x in xs.iter().map(check) {
                match (out.last_mut(), x) {
                    (Some(Check::Masks(a)), Check::Masks(b)) if a.fit == b.fit => {
                        for (s, t) in a.sets.iter_mut().zip(b.sets) {
                            s.extend(t);
                        }
                    }
                    (_, x) => out.push(x),
                }
            }
            match out.len() {
                1 => out.pop().unwrap_or(Check::Or(Vec::new())),
                _ => Check::Or(out),
            }
        }
        GoalCond::RelativeConfig { pieces, dirs } => {
            let lines = Lines::new(def, pieces, dirs);
            match masks(&lines) {
                Some(m) => Check::Masks(m),
                None => Check::Lines(lines),
            }
        }
        c => Check::Leaf(c.clone()),
    }
}

/// The plan of every goal of `def`, whose counters start at `counter_base` in a position's
/// counters (`Tables::counter_base`).
pub(in crate::engine) fn plan(def: &GameDef, counter_base: &[u32]) -> GoalPlan {
    GoalPlan {
        checks: (def.goals.iter())
            .map(|g| check(def, counter_base, &g.cond))
            .collect(),
        idle: def.goals.iter().map(|g| idle(&g.cond)).collect(),
    }
}
