//! Goals: after each move, decide whether the game is over and who won.
//!
//! Every goal is evaluated for every player it lists. When several fire at once, the one whose
//! condition comes first in this order decides: pieces-remaining, total-piece-count, captured,
//! absolute-config, relative-config, checkmated, stalemated, repetition, only-pieces, then
//! counter conditions and count-condition goals; between goals of the same kind, file order.

use crate::def::*;
use crate::engine::goal_plan::Check;
use crate::engine::{Position, Rules, DEAD};

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Players who won (empty for a draw).
    pub winners: Vec<PlayerId>,
    /// Players who lost.
    pub losers: Vec<PlayerId>,
    /// The condition that ended the game, e.g. "checkmated".
    pub reason: String,
    /// Points per player, in player order, when the goal gives a score.
    pub scores: Option<Vec<u32>>,
}

impl Outcome {
    /// True for a draw.
    pub fn is_draw(&self) -> bool {
        self.winners.is_empty() && self.losers.is_empty()
    }

    /// `White wins (checkmated)`, `draw (stalemated)`, `White wins 4-0 (impasse)` with scores
    /// in player order.
    pub fn describe(&self, def: &GameDef) -> String {
        let names = |ps: &[PlayerId]| {
            ps.iter()
                .map(|p| def.players[p.idx()].name.as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        };
        let score = match &self.scores {
            Some(s) => format!(
                " {}",
                s.iter().map(u32::to_string).collect::<Vec<_>>().join("-")
            ),
            None => String::new(),
        };
        let text = if self.is_draw() {
            format!("draw{score} ({})", self.reason)
        } else if !self.winners.is_empty() {
            let verb = if self.winners.len() == 1 {
                "wins"
            } else {
                "win"
            };
            format!("{} {verb}{score} ({})", names(&self.winners), self.reason)
        } else {
            format!("{} lose{score} ({})", names(&self.losers), self.reason)
        };
        text
    }
}

fn rank(c: &GoalCond) -> (u8, &'static str) {
    match c {
        GoalCond::PiecesRemaining(..) => (0, "pieces-remaining"),
        GoalCond::TotalPieceCount(..) => (1, "total-piece-count"),
        GoalCond::Captured(_) => (2, "captured"),
        GoalCond::AbsoluteConfig { .. } => (3, "absolute-config"),
        GoalCond::RelativeConfig { .. } => (4, "relative-config"),
        GoalCond::Checkmated(_) => (5, "checkmated"),
        GoalCond::Stalemated => (6, "stalemated"),
        GoalCond::Repetition => (7, "repetition"),
        GoalCond::OnlyPieces(_) => (8, "insufficient material"),
        GoalCond::Not(x) => rank(x),
        GoalCond::And(xs) | GoalCond::Or(xs) => {
            xs.iter().map(rank).min().unwrap_or((9, "condition"))
        }
        GoalCond::Const(_) => (9, "condition"),
        GoalCond::Compare(..) => (9, "counter condition"),
    }
}

/// Facts about the position that goals read.
pub struct GoalContext<'a> {
    /// The position.
    pub pos: &'a Position,
    /// Whether the player to move has a legal move.
    pub has_moves: bool,
    /// How often the current position has occurred (including now).
    pub repetitions: usize,
}

impl Rules {
    /// The outcome, if the game is over in this position.
    pub fn outcome(&self, cx: &GoalContext) -> Option<Outcome> {
        // Most positions end nothing: a plain pass over the goals says so before the outcome
        // is put together (a game's last position tests its goals twice).
        if !self.any_goal_holds(cx) {
            return None;
        }
        self.outcome_by(cx, true)
    }

    /// Whether some goal holds for some player it lists: whether [`Rules::outcome`] is `Some`.
    fn any_goal_holds(&self, cx: &GoalContext) -> bool {
        let to_move = self.entry(cx.pos.turn).mover;
        let plan = &self.goal_plan;
        let goals = self.def.goals.iter().zip(&plan.checks);
        goals.enumerate().any(|(gi, (goal, check))| {
            if plan.idle[gi] && cx.has_moves {
                return false;
            }
            let holds = |&p: &PlayerId| self.check(check, p, to_move, cx);
            // A condition that reads no player holds for all or none.
            match self.goal_shared[gi] {
                true => goal.players.first().is_some_and(holds),
                false => goal.players.iter().any(holds),
            }
        })
    }

    /// [`Rules::outcome`] from the goals' conditions as the rules file gives them, without
    /// their plan (`compiled/goal_plan.rs`): the definition the plan must agree with.
    #[cfg(feature = "internals")]
    pub fn outcome_unplanned(&self, cx: &GoalContext) -> Option<Outcome> {
        self.outcome_by(cx, false)
    }

    fn outcome_by(&self, cx: &GoalContext, planned: bool) -> Option<Outcome> {
        let to_move = self.entry(cx.pos.turn).mover;
        let mut best: Option<((u8, bool, usize), Outcome)> = None;
        let plan = &self.goal_plan;
        for (gi, goal) in self.def.goals.iter().enumerate() {
            // `stalemated` and `checkmated` need a player without moves.
            if planned && plan.idle[gi] && cx.has_moves {
                continue;
            }
            let check = &plan.checks[gi];
            let holds = |p| match planned {
                true => self.check(check, p, to_move, cx),
                false => self.holds(&goal.cond, p, to_move, cx),
            };
            // A condition that reads no player is tested once, not once per player.
            if self.goal_shared[gi] && (goal.players.first()).is_some_and(|&p| !holds(p)) {
                continue;
            }
            for &p in &goal.players {
                if !holds(p) {
                    continue;
                }
                let (r, reason) = rank(&goal.cond);
                let key = (r, goal.kind == GoalKind::Count, gi);
                if best.as_ref().is_some_and(|(k, _)| *k <= key) {
                    continue;
                }
                // A side without a move because it has no piece left lost its pieces, which
                // is what a player wants to read (draughts: every piece captured).
                let bare = String::new();
                let reason = match goal.cond {
                    GoalCond::Stalemated
                        if !cx.pos.cells.iter().any(|c| !c.is_empty() && c.owner == p.0) =>
                    {
                        format!("{} has no pieces left", self.def.players[p.idx()].name)
                    }
                    _ => bare + reason,
                };
                let reason = reason.as_str();
                let others: Vec<PlayerId> = (0..self.def.players.len())
                    .map(|i| PlayerId(i as u8))
                    .filter(|&o| o != p)
                    .collect();
                let outcome = match goal.kind {
                    GoalKind::Win => Outcome {
                        winners: vec![p],
                        losers: others,
                        reason: reason.into(),
                        scores: None,
                    },
                    GoalKind::Loss => Outcome {
                        winners: others,
                        losers: vec![p],
                        reason: reason.into(),
                        scores: None,
                    },
                    GoalKind::Draw => Outcome {
                        winners: vec![],
                        losers: vec![],
                        reason: reason.into(),
                        scores: None,
                    },
                    GoalKind::Count => self.count_outcome(cx.pos, reason),
                };
                let outcome = match goal.score {
                    Some((w, l)) => {
                        let n = self.def.players.len();
                        let scores = (0..n)
                            .map(|i| {
                                let pl = PlayerId(i as u8);
                                if outcome.winners.contains(&pl) || outcome.is_draw() {
                                    w
                                } else {
                                    l
                                }
                            })
                            .collect();
                        Outcome {
                            scores: Some(scores),
                            ..outcome
                        }
                    }
                    None => outcome,
                };
                best = Some((key, outcome));
            }
        }
        best.map(|(_, o)| o)
    }

    fn count_outcome(&self, pos: &Position, reason: &str) -> Outcome {
        let counts: Vec<usize> = (0..self.def.players.len())
            .map(|p| self.count(pos, PlayerId(p as u8), &[]))
            .collect();
        let max = counts.iter().copied().max().unwrap_or(0);
        let top: Vec<PlayerId> = (0..counts.len())
            .filter(|&p| counts[p] == max)
            .map(|p| PlayerId(p as u8))
            .collect();
        if top.len() == counts.len() {
            return Outcome {
                winners: vec![],
                losers: vec![],
                reason: format!("{reason}, equal material"),
                scores: None,
            };
        }
        let losers = (0..counts.len())
            .map(|p| PlayerId(p as u8))
            .filter(|p| !top.contains(p))
            .collect();
        Outcome {
            winners: top,
            losers,
            reason: format!("{reason}, more pieces"),
            scores: None,
        }
    }

    /// Pieces of `player` (of the given types, or any) on the board, plus off-board ones when
    /// `"include off-pieces"` is set.
    pub fn count(&self, pos: &Position, player: PlayerId, types: &[PieceId]) -> usize {
        self.count_with(pos, player, types, self.def.options.include_off_pieces)
    }

    /// [`Rules::count`], with or without the pieces off the board.
    fn count_with(&self, pos: &Position, player: PlayerId, types: &[PieceId], off: bool) -> usize {
        let wanted = |piece: usize| types.is_empty() || types.iter().any(|t| t.idx() == piece);
        let mut n = pos
            .cells
            .iter()
            .filter(|c| {
                !c.is_empty()
                    && c.owner == player.0
                    && c.marks & DEAD == 0
                    && wanted(c.piece as usize - 1)
            })
            .count();
        if off {
            let np = self.def.pieces.len();
            n += (0..np)
                .filter(|&i| wanted(i))
                .map(|i| pos.store[player.idx() * np + i] as usize)
                .sum::<usize>();
        }
        n
    }

    /// Whether a goal's condition, as its plan lays it out, holds for player `p`.
    fn check(&self, c: &Check, p: PlayerId, to_move: PlayerId, cx: &GoalContext) -> bool {
        match c {
            Check::Leaf(c) => self.holds(c, p, to_move, cx),
            Check::Lines(lines) => lines.any(p, &cx.pos.cells),
            Check::Masks(masks) => masks.any(p, &cx.pos.cells),
            Check::Repetition => cx.repetitions >= 3,
            Check::OnlyPieces(most, sets) => self.only_pieces(cx.pos, *most, sets),
            Check::Counter(op, slots, n) => {
                let slot = slots.get(p.idx()).copied().unwrap_or(0) as usize;
                op.test(cx.pos.counters.get(slot).copied().unwrap_or(0) as i64, *n)
            }
            Check::Not(x) => !self.check(x, p, to_move, cx),
            Check::And(xs) => xs.iter().all(|x| self.check(x, p, to_move, cx)),
            Check::Or(xs) => xs.iter().any(|x| self.check(x, p, to_move, cx)),
        }
    }

    fn holds(&self, c: &GoalCond, p: PlayerId, to_move: PlayerId, cx: &GoalContext) -> bool {
        let pos = cx.pos;
        match c {
            GoalCond::Const(b) => *b,
            GoalCond::Compare(op, a, b) => {
                // Counters against numbers, the common case, without the general evaluator.
                let value = |e: &Expr| match e {
                    Expr::Int(n) => *n,
                    Expr::Counter(c) => pos.counters[self.counter_slot(*c, p) as usize] as i64,
                    e => self.eval(pos, p, &[], [NONE; 3], e),
                };
                op.test(value(a), value(b))
            }
            GoalCond::Not(x) => !self.holds(x, p, to_move, cx),
            GoalCond::And(xs) => xs.iter().all(|x| self.holds(x, p, to_move, cx)),
            GoalCond::Or(xs) => xs.iter().any(|x| self.holds(x, p, to_move, cx)),
            GoalCond::Stalemated => p == to_move && !cx.has_moves,
            GoalCond::Checkmated(types) => {
                p == to_move
                    && !cx.has_moves
                    && (0..pos.cells.len()).any(|sq| {
                        let c = pos.cells[sq];
                        !c.is_empty()
                            && c.owner == p.0
                            && types.iter().any(|t| t.0 + 1 == c.piece)
                            && self.attacked(pos, sq as u16, p, None, true)
                    })
            }
            GoalCond::Repetition => cx.repetitions >= 3,
            GoalCond::OnlyPieces(sets) => {
                let most = sets.iter().map(Vec::len).max().unwrap_or(0);
                self.only_pieces(pos, most, sets)
            }
            GoalCond::PiecesRemaining(n, types) => self.count(pos, p, types) == *n as usize,
            GoalCond::TotalPieceCount(n, types) => {
                (0..self.def.players.len())
                    .map(|q| self.count(pos, PlayerId(q as u8), types))
                    .sum::<usize>()
                    == *n as usize
            }
            // A piece still off the board (in hand, waiting to be dropped) was never captured.
            GoalCond::Captured(types) => self.count_with(pos, p, types, true) == 0,
            GoalCond::AbsoluteConfig {
                spec,
                positions,
                zones,
            } => {
                let fits = |sq: usize| self.spec_fits(spec, p, pos.cells[sq]);
                positions.iter().all(|q| fits(q.idx()))
                    && zones.iter().all(|z| {
                        self.def.board.zones[z.idx()].positions[p.idx()]
                            .iter()
                            .any(|q| fits(q.idx()))
                    })
            }
            GoalCond::RelativeConfig { pieces, dirs } => (0..pos.cells.len()).any(|start| {
                // Most squares fail the first piece: tested before the trace is set up.
                if pieces
                    .first()
                    .is_some_and(|spec| !self.spec_fits(spec, p, pos.cells[start]))
                {
                    return false;
                }
                let mut fitted = 0;
                for (at, spec) in self
                    .def
                    .board
                    .trace(p, PosId(start as u16), dirs)
                    .zip(pieces)
                {
                    if !self.spec_fits(spec, p, pos.cells[at.idx()]) {
                        return false;
                    }
                    fitted += 1;
                }
                fitted == pieces.len()
            }),
        }
    }

    /// Whether the pieces on the board and in hand, all players together, are exactly one of
    /// the multisets `sets` (sorted piece types), of which the largest has `most` pieces.
    fn only_pieces(&self, pos: &Position, most: usize, sets: &[Vec<PieceId>]) -> bool {
        // Most positions hold more pieces than any set: counted first, without allocating.
        let on_board = |c: &crate::engine::Cell| !c.is_empty() && c.marks & DEAD == 0;
        let mut n = 0;
        match pos.owned.occupied() {
            // The occupied squares from the position's square sets: only pieces are read.
            Some(mut occupied) => {
                while occupied != 0 {
                    let sq = occupied.trailing_zeros() as usize;
                    occupied &= occupied - 1;
                    n += (pos.cells[sq].marks & DEAD == 0) as usize;
                    if n > most {
                        return false;
                    }
                }
            }
            None => {
                for c in &pos.cells {
                    n += on_board(c) as usize;
                    if n > most {
                        return false;
                    }
                }
            }
        }
        let in_hand: usize = pos.store.iter().map(|&k| k as usize).sum();
        if n + in_hand > most {
            return false;
        }
        let mut have: Vec<PieceId> = Vec::with_capacity(most);
        for c in pos.cells.iter().filter(|c| on_board(c)) {
            have.push(PieceId(c.piece - 1));
        }
        let np = self.def.pieces.len();
        for (i, &k) in pos.store.iter().enumerate() {
            for _ in 0..k {
                have.push(PieceId((i % np) as u16));
            }
        }
        have.sort();
        sets.contains(&have)
    }

    fn spec_fits(&self, spec: &PieceSpec, p: PlayerId, c: crate::engine::Cell) -> bool {
        let owner_ok = !c.is_empty()
            && match spec.owner {
                Owner::Mine => c.owner == p.0,
                Owner::Opponent => c.owner != p.0,
                Owner::Any => true,
            };
        let m =
            owner_ok && (spec.pieces.is_empty() || spec.pieces.iter().any(|t| t.0 + 1 == c.piece));
        m != spec.negated
    }
}
