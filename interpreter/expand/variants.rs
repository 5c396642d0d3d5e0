//! Assembles each `game` and `variant` into one flat list of game-level forms.
//!
//! A variant inherits from the nearest preceding game: `piece` forms merge by piece name,
//! `option` forms by option name, goal conditions are replaced as a group when the variant
//! gives any, and every other form replaces the game's forms with the same keyword.

use std::rc::Rc;

use crate::diagnostic::Diagnostic;
use crate::keywords::TOP_LEVEL;
use crate::source::Span;
use crate::syntax::{Sexp, SexpKind};

/// A game or variant, ready to be resolved.
#[derive(Clone, Debug)]
pub struct GameSource {
    /// The title (or a placeholder when the file gives none).
    pub title: String,
    /// The merged game-level forms, each a list with a head keyword. A variant shares the
    /// forms it inherits with its game, so a file of many variants of a large game holds one
    /// copy of the game.
    pub forms: Vec<Rc<Sexp>>,
    /// The `(game …)` or `(variant …)` form.
    pub span: Span,
    /// True for a variant.
    pub is_variant: bool,
    /// True when the variant says `(default)`.
    pub is_default: bool,
}

const GOALS: [&str; 4] = [
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
];

/// Builds the list of games and variants from the expanded top-level forms.
///
/// Menu separators (`(title "-")`) are left out. `version` forms are accepted and ignored.
pub fn assemble(top: Vec<Sexp>) -> (Vec<GameSource>, Vec<Diagnostic>) {
    // Each top-level list's items are moved into shared nodes, not copied: the expanded tree
    // of a big file is millions of nodes.
    let top: Vec<Top> = top
        .into_iter()
        .map(|form| match form.kind {
            SexpKind::List(items) => Top {
                head: items.first().and_then(|h| h.sym()).map(str::to_string),
                items: Some(items.into_iter().map(Rc::new).collect()),
                form: Sexp {
                    kind: SexpKind::List(Vec::new()),
                    span: form.span,
                },
            },
            _ => Top {
                head: None,
                items: None,
                form,
            },
        })
        .collect();
    let mut out: Vec<GameSource> = Vec::new();
    let mut diags = Vec::new();
    let mut base: Option<Vec<Rc<Sexp>>> = None;
    // The keyword forms of each game, shared by its variants.
    let mut bodies: Vec<Option<Vec<Rc<Sexp>>>> = vec![None; top.len()];
    for (k, t) in top.iter().enumerate() {
        let form = &t.form;
        let Some(items) = t.items.as_deref() else {
            diags.push(
                Diagnostic::error(form.span, format!("expected a `(game ...)` form, found {}", form.describe()))
                    .with_label("only `game`, `variant`, `define`, `include` and `version` may stand at the top level"),
            );
            continue;
        };
        let head = t.head.as_deref();
        match head {
            Some("version") => continue,
            Some("game") | Some("variant") => {}
            _ => {
                let found = head.map_or_else(|| form.describe(), |h| format!("`{h}`"));
                let d =
                    Diagnostic::error(form.span, format!("unexpected {found} at the top level"))
                        .with_label(format!(
                            "expected one of {}",
                            (TOP_LEVEL.iter().map(|w| format!("`{w}`")))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                let d = match head {
                    Some(h) => d.suggest(h, TOP_LEVEL.iter().copied()),
                    None => d,
                };
                diags.push(d);
                continue;
            }
        }
        let mut body: Vec<Rc<Sexp>> = Vec::new();
        let mut stray = 0;
        for it in items.get(1..).unwrap_or_default() {
            if it.head().is_some() {
                body.push(Rc::clone(it));
            } else if stray < 50 {
                stray += 1;
                diags.push(
                    Diagnostic::error(
                        it.span,
                        format!(
                            "expected a form such as `(board ...)`, found {}",
                            it.describe()
                        ),
                    )
                    .with_label("every item of a game is a list that starts with a keyword"),
                );
            }
        }
        let is_variant = head == Some("variant");
        let is_default = body.iter().any(|f| f.head() == Some("default"));
        let title = body
            .iter()
            .rev()
            .find(|f| f.head() == Some("title"))
            .and_then(|f| f.list()?.get(1)?.atom_text());
        if is_variant && title.as_deref() == Some("-") {
            continue;
        }
        let forms = if is_variant {
            let next = match base {
                Some(_) => None,
                None => later_game(&top, k + 1, &mut bodies),
            };
            match (&base, next) {
                (Some(b), _) => merge(b, &body),
                // Zillions reads a variant that comes before any game as a variant of the
                // game that follows it.
                (None, Some(next)) => {
                    diags.push(
                        Diagnostic::warning(form.span, "a variant should follow its game")
                            .with_label(
                                "read as a variant of the first `(game ...)` after it, as Zillions reads it",
                            ),
                    );
                    merge(&next, &body)
                }
                (None, None) => {
                    diags.push(
                        Diagnostic::warning(form.span, "a variant should follow a game")
                            .with_label(
                                "no `(game ...)` comes before or after this variant; it is read as a game",
                            ),
                    );
                    base = Some(body.clone());
                    body
                }
            }
        } else {
            // A game read before, by a variant in front of it, is shared with that variant.
            let body = bodies[k].take().unwrap_or(body);
            base = Some(body.clone());
            body
        };
        let forms: Vec<Rc<Sexp>> = forms
            .into_iter()
            .filter(|f| f.head() != Some("default"))
            .collect();
        let title = title
            .or_else(|| {
                forms
                    .iter()
                    .rev()
                    .find(|f| f.head() == Some("title"))
                    .and_then(|f| f.list()?.get(1)?.atom_text())
            })
            .unwrap_or_else(|| format!("Untitled {}", out.len() + 1));
        out.push(GameSource {
            title,
            forms,
            span: form.span,
            is_variant,
            is_default,
        });
    }
    (out, diags)
}

/// The forms of the first `(game ...)` in `top` from `from` on (keyword forms only), if any,
/// kept in `bodies` so that the game shares them when it is read.
fn later_game(
    top: &[Top],
    from: usize,
    bodies: &mut [Option<Vec<Rc<Sexp>>>],
) -> Option<Vec<Rc<Sexp>>> {
    let k = from
        + top[from..]
            .iter()
            .position(|f| f.head.as_deref() == Some("game"))?;
    if bodies[k].is_none() {
        let items = top[k].items.as_deref()?;
        bodies[k] = Some(
            items
                .get(1..)
                .unwrap_or_default()
                .iter()
                .filter(|it| it.head().is_some())
                .cloned()
                .collect(),
        );
    }
    bodies[k].clone()
}

/// A top-level form: a list's head and its items (shared), or another atom as read.
struct Top {
    head: Option<String>,
    items: Option<Vec<Rc<Sexp>>>,
    /// The form itself, without its items when it is a list (its span, for messages).
    form: Sexp,
}

/// The key a form is merged by: its keyword, plus the piece or option name where it has one.
fn key(form: &Sexp) -> (String, Option<String>) {
    let head = form.head().unwrap_or("").to_string();
    let items = form.list().unwrap_or_default();
    let name = match head.as_str() {
        "piece" => items
            .iter()
            .skip(1)
            .find(|f| f.head() == Some("name"))
            .and_then(|f| f.list()?.get(1)?.atom_text()),
        "option" => items.get(1).and_then(Sexp::atom_text),
        _ => None,
    };
    (head, name)
}

fn merge(base: &[Rc<Sexp>], variant: &[Rc<Sexp>]) -> Vec<Rc<Sexp>> {
    let var_has_goals = variant.iter().any(|f| is_goal(f));
    let mut out: Vec<Rc<Sexp>> = Vec::new();
    let mut used = vec![false; variant.len()];
    for form in base {
        if var_has_goals && is_goal(form) {
            continue;
        }
        let k = key(form);
        let keyed = k.1.is_some() || !matches!(k.0.as_str(), "piece" | "option");
        let replacements: Vec<usize> = if keyed {
            variant
                .iter()
                .enumerate()
                .filter(|(_, v)| !is_goal(v) && key(v) == k)
                .map(|(i, _)| i)
                .collect()
        } else {
            Vec::new()
        };
        if replacements.is_empty() {
            out.push(form.clone());
            continue;
        }
        for i in replacements {
            if !used[i] {
                used[i] = true;
                out.push(variant[i].clone());
            }
        }
    }
    for (i, form) in variant.iter().enumerate() {
        if !used[i] {
            out.push(form.clone());
        }
    }
    out
}

fn is_goal(form: &Sexp) -> bool {
    matches!(&form.kind, SexpKind::List(_)) && form.head().is_some_and(|h| GOALS.contains(&h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;
    use crate::syntax::parse_file;

    fn titles_and_forms(text: &str) -> Vec<(String, String)> {
        let (top, d) = parse_file(FileId(0), text);
        assert!(d.is_empty());
        let (games, d) = assemble(top);
        assert!(d.is_empty(), "{d:?}");
        games
            .into_iter()
            .map(|g| {
                let forms: Vec<String> = g.forms.iter().map(|f| f.to_string()).collect();
                (g.title, forms.join(" "))
            })
            .collect()
    }

    #[test]
    fn variants_merge_pieces_options_and_replace_goals() {
        let games = titles_and_forms(
            r#"(game (title "G") (option "a" 1) (option "b" 2) (piece (name P) x) (piece (name Q) y)
                     (win-condition (A) w) (loss-condition (A) l) (board b1))
               (variant (title "-"))
               (variant (title "V") (default) (option "b" 3) (piece (name Q) z) (piece (name R) r)
                        (loss-condition (A) l2) (board b2))"#,
        );
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].0, "V");
        assert_eq!(
            games[1].1,
            r#"(title "V") (option "a" 1) (option "b" 3) (piece (name P) x) (piece (name Q) z) (board b2) (piece (name R) r) (loss-condition (A) l2)"#
        );
    }
}
