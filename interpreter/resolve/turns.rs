//! Who moves and which moves come first: the players (random players, `?NAME` pairs), the
//! turn order, `move-priorities`, and `capture-precedence` (a zrf extension).

use super::{quoted, Cx};
use crate::def::*;
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use crate::syntax::{Sexp, SexpKind};

impl Cx {
    pub(super) fn players_form(&mut self, forms: &[&Sexp], game_span: Span) -> Vec<Player> {
        let Some(form) = forms.last() else {
            self.error(game_span, "this game has no players")
                .primary
                .text = "expected a `(players NAME...)` form".into();
            return Vec::new();
        };
        let mut out = Vec::new();
        for it in &form.list().unwrap_or_default()[1..] {
            let Some(name) = self.sym(it, "a player name") else {
                continue;
            };
            let (random, plain) = match name.strip_prefix('?') {
                Some(rest) => (true, rest),
                None => (false, name),
            };
            // A plain name may so far stand for a random player (`?Chu` is also `Chu`).
            let alias = !random
                && self
                    .players
                    .get(name)
                    .is_some_and(|e| out.get(e.idx()).is_some_and(|p: &Player| p.random));
            if self.players.contains_key(name) && !alias {
                self.error(it.span, format!("player `{name}` is listed twice"));
                continue;
            }
            // `(players Chu ?Chu)`: the random player beside a plain one of the same name
            // keeps its `?` (Zillions uses such pairs for each side's dice).
            let earlier = self.players.get(plain).copied();
            let paired = match earlier {
                Some(e) if random || out.get(e.idx()).is_some_and(|p: &Player| p.random) => true,
                Some(_) => {
                    self.error(it.span, format!("player `{plain}` is listed twice"));
                    continue;
                }
                None => false,
            };
            if out.len() >= 32 {
                self.error(it.span, "more than 32 players");
                break;
            }
            let id = PlayerId(out.len() as u8);
            self.players.insert(name.to_string(), id);
            let shown = if paired && random { name } else { plain };
            if paired && !random {
                // The earlier random player of this name is called `?NAME` from now on.
                if let Some(e) = earlier {
                    out[e.idx()].name = format!("?{plain}");
                }
            }
            if random && !paired {
                // A random player is referred to with or without the `?`.
                self.players.insert(plain.to_string(), id);
            }
            out.push(Player {
                name: shown.to_string(),
                random,
            });
        }
        if out.is_empty() {
            self.error(form.span, "a game needs at least one player");
        }
        out
    }

    pub(super) fn turn_order(&mut self, forms: &[&Sexp], n_players: usize) -> TurnOrder {
        let Some(form) = forms.last() else {
            let all: Vec<TurnEntry> = (0..n_players)
                .map(|i| TurnEntry {
                    mover: PlayerId(i as u8),
                    owner: PlayerId(i as u8),
                    move_type: None,
                })
                .collect();
            return TurnOrder {
                once: Vec::new(),
                cycle: all,
            };
        };
        let mut once = Vec::new();
        let mut cycle = Vec::new();
        let mut seen_repeat = false;
        for it in &form.list().unwrap_or_default()[1..] {
            if it.sym() == Some("repeat") {
                if seen_repeat {
                    self.error(it.span, "`repeat` appears twice in `turn-order`");
                }
                seen_repeat = true;
                continue;
            }
            let entry = match &it.kind {
                SexpKind::Sym(_) => self.player(it).map(|p| TurnEntry {
                    mover: p,
                    owner: p,
                    move_type: None,
                }),
                SexpKind::List(parts) if (2..=3).contains(&parts.len()) => {
                    let mover = self.player(&parts[0]);
                    let mut owner = mover;
                    let mut move_type = None;
                    for (k, p) in parts[1..].iter().enumerate() {
                        let Some(name) = self.sym(p, "a player or a move type") else {
                            continue;
                        };
                        if k == 0 && self.players.contains_key(name) {
                            owner = self.players.get(name).copied();
                        } else {
                            move_type = Some(self.move_type_use(name, p.span));
                        }
                    }
                    mover.zip(owner).map(|(mover, owner)| TurnEntry {
                        mover,
                        owner,
                        move_type,
                    })
                }
                _ => {
                    self.expected(
                        it,
                        "a player, `(PLAYER MOVE-TYPE)`, `(PLAYER OWNER [MOVE-TYPE])` or `repeat`",
                    );
                    None
                }
            };
            if let Some(e) = entry {
                if seen_repeat {
                    cycle.push(e);
                } else {
                    once.push(e);
                }
            }
        }
        if !seen_repeat {
            cycle = std::mem::take(&mut once);
        }
        if cycle.is_empty() {
            self.error(form.span, "the turn order never repeats anything")
                .primary
                .text = "expected at least one player after `repeat`".into();
        }
        TurnOrder { once, cycle }
    }

    /// `(capture-precedence CRITERION...)`, a zrf extension.
    pub(super) fn precedence(&mut self, form: &Sexp) -> Vec<Precedence> {
        const CRITERIA: &[&str] = crate::keywords::CAPTURE_PRECEDENCE;
        let mut out = Vec::new();
        for c in form.list().and_then(|l| l.get(1..)).unwrap_or_default() {
            let head = c.head().unwrap_or_else(|| c.sym().unwrap_or(""));
            let args = c.list().and_then(|l| l.get(1..)).unwrap_or_default();
            let crit = match head {
                "most-captured" => Precedence::MostCaptured,
                "most-value" => {
                    let mut values = vec![1u32; self.pieces.len()];
                    for pair in args {
                        match pair.list() {
                            Some([p, v]) => {
                                let (p, v) = (self.piece(p), self.int(v, "a value"));
                                if let (Some(p), Some(v)) = (p, v) {
                                    values[p.idx()] = v.clamp(0, 1_000_000) as u32;
                                }
                            }
                            _ => self.expected(pair, "a pair `(PIECE VALUE)`"),
                        }
                    }
                    Precedence::MostValue(values)
                }
                "most-captured-of" | "moved-by" => {
                    let ps: Vec<PieceId> = args.iter().filter_map(|p| self.piece(p)).collect();
                    if head == "moved-by" {
                        Precedence::MovedBy(ps)
                    } else {
                        Precedence::MostCapturedOf(ps)
                    }
                }
                _ => {
                    let d = Diagnostic::error(
                        c.span,
                        format!("unknown capture-precedence criterion `{head}`"),
                    )
                    .with_label(format!("expected one of {}", quoted(CRITERIA)))
                    .suggest(head, CRITERIA.iter().copied());
                    self.diags.push(d);
                    continue;
                }
            };
            out.push(crit);
        }
        out
    }

    pub(super) fn priorities(&mut self, forms: &[&Sexp]) -> Vec<MoveTypeId> {
        let mut out = Vec::new();
        if let Some(form) = forms.last() {
            for it in &form.list().unwrap_or_default()[1..] {
                if let Some(name) = self.sym(it, "a move type") {
                    out.push(self.move_type_use(name, it.span));
                }
            }
        }
        out
    }
}
