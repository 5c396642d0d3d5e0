//! Options: `(option "name" value)` and the legacy keyword forms such as `(pass-turn true)`.

use super::Cx;
use crate::def::*;
use crate::syntax::Sexp;

/// Legacy option keywords and the option each stands for.
pub const LEGACY: &[&str] = &[
    "pass-turn",
    "pass-partial",
    "recycle-captures",
    "recycle-promotions",
    "animate-captures",
    "animate-drops",
    "allow-flipping",
    "include-off-pieces",
    "maximal-captures",
    "highlight-goals",
    "progressive-levels",
    "discard-cascades",
];

/// ZoG options that only change the user interface.
const UI_OPTIONS: &[&str] = &[
    "animate captures",
    "animate drops",
    "smart moves",
    "highlight goals",
    "prevent flipping",
    "allow flipping",
    "progressive levels",
    "show moves list",
];

/// Options only the Dagaz project understands (besides names with "extension"/"invariant").
const DAGAZ_OPTIONS: &[&str] = &[
    "shared pieces",
    "shared-pieces",
    "show hints",
    "show blink",
    "show captures",
    "ko",
    "sliding-puzzle",
    "smart-moves",
    "mancala setup",
    "shogi promotion",
    "smart to",
    "zrf-advanced",
    "board-model",
    "pente-restrictions",
    "chaturanga-promotion",
    "kamisado-setup",
    "advisor-wait",
    "detect-loops",
    "complete-partial",
    "moves-limit",
    "stalemate-draw",
    "show-lose",
    "promote-dialog",
    "drag-n-drop",
    "show-drops",
    "selection-screen",
    "silent-?-moves",
];

/// True for a legacy option keyword.
pub fn is_legacy(head: &str) -> bool {
    LEGACY.contains(&head)
}

/// Reads every option form of a game.
pub fn resolve_options(cx: &mut Cx, forms: &[std::rc::Rc<Sexp>]) -> Options {
    let mut opts = Options::default();
    for form in forms {
        let items = form.list().unwrap_or_default();
        let (name, value_node) = match form.head() {
            Some("option") => {
                let Some(name) = items.get(1).and_then(|n| cx.text(n, "an option name")) else {
                    cx.missing(form, "option name", "(option \"NAME\" VALUE)");
                    continue;
                };
                (name, items.get(2))
            }
            Some(h) if is_legacy(h) => (h.replace('-', " "), items.get(1)),
            _ => continue,
        };
        let Some(value_node) = value_node else {
            cx.missing(form, "option value", "(option \"NAME\" VALUE)");
            continue;
        };
        let value = value_node.atom_text().unwrap_or_default();
        opts.all.push((name.clone(), value.clone()));
        // Zillions also accepted other values: a number reads as true unless it is 0, any
        // other word leaves the option off; both with a warning (docs/semantics.md).
        let lenient = |cx: &mut Cx, expected: &str| -> bool {
            let on = value.parse::<i64>().is_ok_and(|n| n != 0);
            let reading = if value.parse::<i64>().is_ok() {
                format!("read as {}", if on { "true" } else { "false" })
            } else {
                "the option is left off".to_string()
            };
            cx.warn(
                value_node.span,
                format!("option \"{name}\" expects {expected}, found `{value}`"),
            )
            .primary
            .text = reading;
            on
        };
        let boolean = |cx: &mut Cx| -> bool {
            match value.as_str() {
                "true" => true,
                "false" => false,
                _ => lenient(cx, "`true` or `false`"),
            }
        };
        match name.as_str() {
            "pass turn" => {
                opts.pass_turn = match value.as_str() {
                    "true" => PassTurn::Yes,
                    "false" => PassTurn::No,
                    "forced" => PassTurn::Forced,
                    _ if lenient(cx, "`true`, `false` or `forced`") => PassTurn::Yes,
                    _ => PassTurn::No,
                }
            }
            "pass partial" => opts.pass_partial = boolean(cx),
            "maximal captures" => {
                opts.maximal_captures = match value.as_str() {
                    "true" => 1,
                    "false" => 0,
                    "2" => 2,
                    _ => lenient(cx, "`true`, `false` or `2`") as u8,
                }
            }
            "recycle captures" if value == "capturer" => {
                opts.recycle_captures = true;
                opts.recycle_to_capturer = true;
            }
            "recycle captures" => opts.recycle_captures = boolean(cx),
            "recycle promotions" => opts.recycle_promotions = boolean(cx),
            "include off pieces" | "include off-pieces" => opts.include_off_pieces = boolean(cx),
            "discard cascades" => opts.discard_cascades = boolean(cx),
            "deferred captures" => opts.deferred_captures = boolean(cx),
            "complete captures" => opts.complete_captures = boolean(cx),
            "huffing" => opts.huffing = boolean(cx),
            n if UI_OPTIONS.contains(&n) => {}
            n if n.contains("extension")
                || n.contains("invariant")
                || DAGAZ_OPTIONS.contains(&n) =>
            {
                cx.warn(form.span, format!("ignored: Dagaz-only option \"{n}\""))
                    .primary
                    .text = "its rules live in Dagaz's JavaScript, not in the rules file".into();
            }
            n => {
                let known: Vec<&str> = [
                    "pass turn",
                    "pass partial",
                    "maximal captures",
                    "recycle captures",
                    "recycle promotions",
                    "include off-pieces",
                    "discard cascades",
                    "deferred captures",
                    "complete captures",
                    "huffing",
                ]
                .into_iter()
                .chain(UI_OPTIONS.iter().copied())
                .collect();
                let d = crate::diagnostic::Diagnostic::warning(
                    form.span,
                    format!("unknown option \"{n}\" is ignored"),
                )
                .suggest(n, known);
                cx.diags.push(d);
            }
        }
    }
    opts
}
