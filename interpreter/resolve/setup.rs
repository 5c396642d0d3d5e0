//! What a game starts with: the pieces `board-setup` places and holds off the board, and the
//! counters (`counter`, a zrf extension) with their start values.

use indexmap::IndexMap;

use super::Cx;
use crate::def::*;
use crate::source::Span;
use crate::syntax::Sexp;

impl Cx {
    pub(super) fn setup_forms(&mut self, forms: &[&Sexp]) -> Setup {
        let mut setup = Setup::default();
        let mut occupied: IndexMap<PosId, Span> = IndexMap::new();
        for form in forms {
            for entry in &form.list().unwrap_or_default()[1..] {
                let Some(parts) = self.list(entry, "`(PLAYER (PIECE POSITION...) ...)`") else {
                    continue;
                };
                let Some(player) = parts
                    .first()
                    .and_then(|p| self.soft("these pieces are not placed", |cx| cx.player(p)))
                else {
                    if parts.is_empty() {
                        self.missing(entry, "player", "(PLAYER (PIECE POSITION...) ...)");
                    }
                    continue;
                };
                for group in &parts[1..] {
                    let Some(g) = self.list(group, "`(PIECE POSITION...)`") else {
                        continue;
                    };
                    let Some(piece) = g.first().and_then(|p| self.piece(p)) else {
                        continue;
                    };
                    let mut i = 1;
                    while i < g.len() {
                        if g[i].sym() == Some("off") {
                            match g
                                .get(i + 1)
                                .and_then(|n| self.int(n, "a count after `off`"))
                            {
                                Some(n) if n >= 0 => {
                                    let held: u32 = setup
                                        .off
                                        .iter()
                                        .filter(|o| o.player == player && o.piece == piece)
                                        .map(|o| o.count)
                                        .sum();
                                    if n + i64::from(held) > i64::from(MAX_OFF) {
                                        self.error(
                                            g[i + 1].span,
                                            format!(
                                                "{} pieces off the board is more than {MAX_OFF}",
                                                n + i64::from(held)
                                            ),
                                        )
                                        .primary
                                        .text = format!(
                                            "a player may hold at most {MAX_OFF} of one type"
                                        );
                                    } else {
                                        setup.off.push(OffCount {
                                            player,
                                            piece,
                                            count: n as u32,
                                        });
                                    }
                                }
                                Some(_) => {
                                    self.error(g[i + 1].span, "an `off` count cannot be negative");
                                }
                                None if g.len() <= i + 1 => {
                                    self.missing(group, "count", "(PIECE off N)");
                                }
                                None => {}
                            }
                            i += 2;
                            continue;
                        }
                        if let Some(pos) =
                            self.soft("this piece is not placed", |cx| cx.position(&g[i]))
                        {
                            if let Some(prev) = occupied.insert(pos, g[i].span) {
                                self.warn(
                                    g[i].span,
                                    "this position is set up twice; the later piece stays",
                                )
                                .secondary
                                .push(crate::diagnostic::Label {
                                    span: prev,
                                    text: "first placed here".into(),
                                });
                                setup.placements.retain(|p| p.pos != pos);
                            }
                            setup.placements.push(Placement { player, piece, pos });
                        }
                        i += 1;
                    }
                }
            }
        }
        setup
    }

    /// `(counter NAME [per-player] [start N])`, a zrf extension.
    pub(super) fn counter_form(&mut self, form: &Sexp) {
        let args = form.list().and_then(|l| l.get(1..)).unwrap_or_default();
        let Some(name) = args.first().and_then(|n| self.sym(n, "a counter name")) else {
            if args.is_empty() {
                self.missing(
                    form,
                    "counter name",
                    "(counter NAME [per-player] [start N])",
                );
            }
            return;
        };
        let mut def = CounterDef {
            name: name.to_string(),
            per_player: false,
            start: 0,
        };
        for a in &args[1..] {
            match (a.sym(), a.head()) {
                (Some("per-player"), _) => def.per_player = true,
                (_, Some("start")) => {
                    if let Some(n) = a
                        .list()
                        .and_then(|l| l.get(1))
                        .and_then(|n| self.int(n, "a start value"))
                    {
                        def.start = n;
                    }
                }
                _ => self.expected(a, "`per-player` or `(start N)`"),
            }
        }
        if self.counters.contains_key(name) {
            self.error(form.span, format!("counter `{name}` is declared twice"));
            return;
        }
        self.counters
            .insert(name.to_string(), self.counter_defs.len() as u16);
        self.counter_defs.push(def);
    }
}
