//! A macro body copied for one call: `$N` replaced by argument N (of the innermost call that
//! has it), `$N` inside a token pasted as text, a missing argument warned about; the copy is
//! charged to the expansion budget.

use super::{Env, Expander, MAX_EXPANDED_NESTING, MAX_EXPANDED_NODES_BIG};
use crate::diagnostic::Diagnostic;
use crate::source::{ExpId, Span};
use crate::syntax::{Sexp, SexpKind};

impl Expander<'_> {
    /// Copies a body node, replacing `$N` with the call's arguments and tagging spans.
    ///
    /// A `$N` token with no argument anywhere up the call chain disappears (with a warning),
    /// as Zillions substitutes empty text for it.
    pub(super) fn substitute(&mut self, node: &Sexp, env: &Env, exp: ExpId) -> Option<Sexp> {
        let span = Span { exp, ..node.span };
        Some(match &node.kind {
            SexpKind::List(items) => Sexp {
                kind: SexpKind::List(
                    items
                        .iter()
                        .filter_map(|it| self.substitute(it, env, exp))
                        .collect(),
                ),
                span,
            },
            SexpKind::Sym(s) if s.contains('$') => {
                if let Some(k) = whole_param(s) {
                    match lookup(env, k) {
                        Some(arg) => {
                            // Arguments can grow with every call (`(define a (a ($1 $1)))`):
                            // charge their size to the expansion budget before copying them.
                            self.nodes += size(arg, MAX_EXPANDED_NODES_BIG);
                            if !self.bump(span) {
                                return None;
                            }
                            // Arguments can also deepen with every call; copying one is recursive.
                            if depth(arg, MAX_EXPANDED_NESTING + 1) > MAX_EXPANDED_NESTING {
                                if !self.too_large {
                                    self.too_large = true;
                                    self.diags.push(
                                        Diagnostic::error(span, "a macro argument is nested too deeply")
                                            .with_label(format!("`${k}` of `{}` is nested deeper than {MAX_EXPANDED_NESTING} lists", env.name)),
                                    );
                                }
                                return None;
                            }
                            return Some(arg.clone());
                        }
                        None => {
                            self.missing_argument(span, k, env, "is replaced by nothing");
                            return None;
                        }
                    }
                }
                match self.paste(s, env, span) {
                    Some(text) => Sexp::atom(&text, span),
                    None => Sexp {
                        kind: node.kind.clone(),
                        span,
                    },
                }
            }
            SexpKind::Str(s) if s.contains('$') => {
                let text = self.paste(s, env, span).unwrap_or_else(|| s.to_string());
                Sexp {
                    kind: SexpKind::Str(text.into()),
                    span,
                }
            }
            _ => Sexp {
                kind: node.kind.clone(),
                span,
            },
        })
    }

    /// Warns that `$k` has no argument in the call `env`, and what happens to it.
    fn missing_argument(&mut self, span: Span, k: usize, env: &Env, what: &str) {
        if env.quiet {
            return;
        }
        self.diags.push(
            Diagnostic::warning(span, format!("`${k}` has no argument"))
                .with_label(format!(
                    "the call of `{}` gives {} argument(s)",
                    env.name,
                    env.args.len()
                ))
                .with_note(format!("`${k}` {what}")),
        );
    }

    /// Replaces every `$N` inside a token with the text of argument N.
    fn paste(&mut self, s: &str, env: &Env, span: Span) -> Option<String> {
        let mut res = String::with_capacity(s.len());
        let mut rest = s;
        while let Some(i) = rest.find('$') {
            res.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                res.push('$');
                rest = after;
                continue;
            }
            let k: usize = after[..digits].parse().unwrap_or(0);
            match lookup(env, k).map(|a| (a.atom_text(), a)) {
                Some((Some(text), _)) => res.push_str(&text),
                Some((None, arg)) => {
                    self.diags.push(
                        Diagnostic::error(
                            arg.span,
                            format!("a list cannot be pasted into the token `{s}`"),
                        )
                        .with_label(format!("argument ${k} of `{}`", env.name))
                        .with_secondary(span, "pasted here"),
                    );
                    return None;
                }
                None => {
                    self.missing_argument(span, k, env, "is left as it is");
                    return None;
                }
            }
            rest = &after[digits..];
        }
        res.push_str(rest);
        Some(res)
    }
}

/// The nesting depth of a tree, looking no deeper than `limit`.
fn depth(node: &Sexp, limit: usize) -> usize {
    let mut best = 0;
    let mut stack = vec![(node, 1usize)];
    while let Some((it, d)) = stack.pop() {
        best = best.max(d);
        if d >= limit {
            return d;
        }
        if let Some(items) = it.list() {
            stack.extend(items.iter().map(|i| (i, d + 1)));
        }
    }
    best
}

/// The number of nodes in a tree, counting no further than `limit`.
fn size(node: &Sexp, limit: usize) -> usize {
    let mut n = 0;
    let mut stack = vec![node];
    while let Some(it) = stack.pop() {
        n += 1;
        if n >= limit {
            break;
        }
        if let Some(items) = it.list() {
            stack.extend(items);
        }
    }
    n
}

/// The highest `N` of the `$N` in a token (0 when there is none).
pub(super) fn highest_param(s: &str) -> usize {
    let mut most = 0;
    let mut rest = s;
    while let Some(i) = rest.find('$') {
        let after = &rest[i + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        most = most.max(after[..digits].parse().unwrap_or(0));
        rest = &after[digits..];
    }
    most
}

/// `$3` → 3, when the whole token is one parameter.
fn whole_param(s: &str) -> Option<usize> {
    let d = s.strip_prefix('$')?;
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    d.parse().ok()
}

/// Argument `k` (1-based) of the innermost call that has it: a `$k` beyond a call's
/// arguments falls back to the enclosing call, as Zillions files expect.
fn lookup<'e>(env: &'e Env, k: usize) -> Option<&'e Sexp> {
    let mut cur = Some(env);
    while let Some(e) = cur {
        if k >= 1 && k <= e.args.len() {
            return Some(&e.args[k - 1]);
        }
        cur = e.parent;
    }
    None
}
