//! Goals: `win-condition`, `loss-condition`, `draw-condition` and `count-condition`.

use super::Cx;
use crate::def::*;
use crate::diagnostic::Diagnostic;
use crate::syntax::{Sexp, SexpKind};

const GOAL_CONDS: &[&str] = crate::keywords::GOAL;

/// Resolves one goal form.
pub fn resolve_goal(cx: &mut Cx, form: &Sexp) -> Option<Goal> {
    let items = form.list()?;
    let kind = match form.head()? {
        "win-condition" => GoalKind::Win,
        "loss-condition" => GoalKind::Loss,
        "draw-condition" => GoalKind::Draw,
        _ => GoalKind::Count,
    };
    let (players, cond, score) = match items {
        [_, players, cond] => (players, cond, None),
        [_, players, cond, score] if score.head() == Some("score") => {
            let nums: Vec<i64> = score.list().unwrap_or_default()[1..]
                .iter()
                .filter_map(|n| cx.int(n, "a score"))
                .collect();
            match nums.as_slice() {
                [w, l] if *w >= 0 && *l >= 0 => (players, cond, Some((*w as u32, *l as u32))),
                _ => {
                    cx.error(
                        score.span,
                        "expected `(score WINNER OTHERS)` with two numbers of at least 0",
                    );
                    return None;
                }
            }
        }
        _ => {
            cx.missing(
                form,
                "players or condition",
                "(win-condition (PLAYER...) CONDITION [(score W L)])",
            );
            return None;
        }
    };
    let players: Vec<PlayerId> = match &players.kind {
        SexpKind::List(ps) => ps.iter().filter_map(|p| cx.player(p)).collect(),
        SexpKind::Sym(_) => cx.player(players).into_iter().collect(),
        _ => {
            cx.expected(players, "a list of players");
            return None;
        }
    };
    let cond = goal_cond(cx, cond)?;
    Some(Goal {
        kind,
        players,
        cond,
        score,
        span: form.span,
    })
}

fn goal_cond(cx: &mut Cx, node: &Sexp) -> Option<GoalCond> {
    let (head, args) = match &node.kind {
        SexpKind::Sym(s) => (s.as_ref(), &[][..]),
        SexpKind::List(items) if !items.is_empty() => match items[0].sym() {
            Some(h) => (h, &items[1..]),
            None => {
                cx.expected(&items[0], "a goal condition name");
                return None;
            }
        },
        _ => {
            cx.expected(node, "a goal condition");
            return None;
        }
    };
    let count = |cx: &mut Cx| -> Option<u32> {
        let n = args.first().and_then(|a| cx.int(a, "a count"));
        match n {
            Some(n) if n >= 0 => Some(n as u32),
            Some(_) => {
                cx.error(args[0].span, "a count cannot be negative");
                None
            }
            None => {
                if args.is_empty() {
                    cx.missing(node, "count", &format!("({head} N [PIECE...])"));
                }
                None
            }
        }
    };
    let pieces = |cx: &mut Cx, from: &[Sexp]| -> Vec<PieceId> {
        from.iter().filter_map(|p| cx.piece(p)).collect()
    };
    Some(match head {
        "true" => GoalCond::Const(true),
        "false" => GoalCond::Const(false),
        "stalemated" => GoalCond::Stalemated,
        "repetition" => GoalCond::Repetition,
        "checkmated" => GoalCond::Checkmated(pieces(cx, args)),
        "captured" => GoalCond::Captured(pieces(cx, args)),
        "only-pieces" => {
            if args.is_empty() {
                cx.missing(
                    node,
                    "sets of pieces",
                    "(only-pieces (KING KING) (KING KING BISHOP) ...)",
                );
                return None;
            }
            let mut sets = Vec::new();
            for a in args {
                let mut set = match &a.kind {
                    SexpKind::List(items) => pieces(cx, items),
                    _ => pieces(cx, std::slice::from_ref(a)),
                };
                set.sort();
                sets.push(set);
            }
            GoalCond::OnlyPieces(sets)
        }
        "pieces-remaining" => {
            let n = count(cx)?;
            GoalCond::PiecesRemaining(n, pieces(cx, &args[1..]))
        }
        "total-piece-count" => {
            let n = count(cx)?;
            GoalCond::TotalPieceCount(n, pieces(cx, &args[1..]))
        }
        "<" | "<=" | "=" | ">=" | ">" | "/=" => {
            let [a, b] = args else {
                cx.error(node.span, format!("`{head}` compares two numbers"));
                return None;
            };
            let (a, b) = (
                super::program::expr(cx, a, false),
                super::program::expr(cx, b, false),
            );
            GoalCond::Compare(super::program::cmp_op(head), a?, b?)
        }
        "not" => match args {
            [a] => GoalCond::Not(Box::new(goal_cond(cx, a)?)),
            _ => {
                cx.error(node.span, "`not` takes one condition");
                return None;
            }
        },
        "and" | "or" => {
            let parts: Option<Vec<GoalCond>> = args
                .iter()
                .map(|a| goal_cond(cx, a))
                .collect::<Vec<_>>()
                .into_iter()
                .collect();
            if head == "and" {
                GoalCond::And(parts?)
            } else {
                GoalCond::Or(parts?)
            }
        }
        "absolute-config" => {
            let Some((places, specs)) = args.split_last() else {
                cx.missing(
                    node,
                    "pieces and positions",
                    "(absolute-config PIECE... (POSITION-OR-ZONE...))",
                );
                return None;
            };
            let mut spec = PieceSpec {
                owner: Owner::Mine,
                pieces: Vec::new(),
                negated: false,
            };
            for s in specs {
                let one = piece_spec(cx, s)?;
                if spec.pieces.is_empty() {
                    spec.owner = one.owner;
                }
                spec.negated |= one.negated;
                spec.pieces.extend(one.pieces);
            }
            let mut positions = Vec::new();
            let mut zones = Vec::new();
            let place_list: Vec<&Sexp> = match places.list() {
                Some(l) => l.iter().collect(),
                None => vec![places],
            };
            let mut unreachable = false;
            for p in place_list {
                let name = p.atom_text().unwrap_or_default();
                if let Some(&z) = cx.zones.get(&name) {
                    zones.push(z);
                } else if let Some(pos) = cx.soft("the goal can never be met", |cx| cx.position(p))
                {
                    positions.push(pos);
                } else {
                    unreachable = true;
                }
            }
            if unreachable {
                return Some(GoalCond::Const(false));
            }
            GoalCond::AbsoluteConfig {
                spec,
                positions,
                zones,
            }
        }
        "relative-config" => {
            let mut pieces_out = Vec::new();
            let mut dirs = Vec::new();
            for (i, a) in args.iter().enumerate() {
                if i % 2 == 0 {
                    pieces_out.push(piece_spec(cx, a)?);
                } else {
                    dirs.push(cx.dir(a)?);
                }
            }
            if pieces_out.len() != dirs.len() + 1 {
                cx.error(node.span, "`relative-config` alternates pieces and directions, starting and ending with a piece");
                return None;
            }
            GoalCond::RelativeConfig {
                pieces: pieces_out,
                dirs,
            }
        }
        _ => {
            let d = Diagnostic::error(node.span, format!("unknown goal condition `{head}`"))
                .with_label(
                    "expected a goal condition such as `stalemated` or `(pieces-remaining 0)`",
                )
                .suggest(head, GOAL_CONDS.iter().copied());
            cx.diags.push(d);
            return None;
        }
    })
}

/// `King`, `(opponent King)`, `(any-owner Man)`, `(not King)`, `(not (opponent King))`.
fn piece_spec(cx: &mut Cx, node: &Sexp) -> Option<PieceSpec> {
    match &node.kind {
        SexpKind::Sym(_) => Some(PieceSpec {
            owner: Owner::Mine,
            pieces: vec![cx.piece(node)?],
            negated: false,
        }),
        SexpKind::List(items) if items.len() >= 2 => {
            let rest = &items[1..];
            match items[0].sym() {
                Some("not") => {
                    let mut inner = if rest.len() == 1 {
                        piece_spec(cx, &rest[0])?
                    } else {
                        PieceSpec {
                            owner: Owner::Mine,
                            pieces: rest.iter().filter_map(|p| cx.piece(p)).collect(),
                            negated: false,
                        }
                    };
                    inner.negated = !inner.negated;
                    Some(inner)
                }
                Some(w @ ("opponent" | "any-owner")) => Some(PieceSpec {
                    owner: if w == "opponent" {
                        Owner::Opponent
                    } else {
                        Owner::Any
                    },
                    pieces: rest.iter().filter_map(|p| cx.piece(p)).collect(),
                    negated: false,
                }),
                _ => {
                    cx.expected(
                        node,
                        "a piece, `(opponent PIECE)`, `(any-owner PIECE)` or `(not PIECE)`",
                    );
                    None
                }
            }
        }
        _ => {
            cx.expected(
                node,
                "a piece, `(opponent PIECE)`, `(any-owner PIECE)` or `(not PIECE)`",
            );
            None
        }
    }
}
