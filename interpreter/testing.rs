//! Test cases for rules files: `(test …)` forms in a sibling `FILE.tests`, run by `zrf test`.
//!
//! ```text
//! (test "a man on 18 moves to 14 or 15"
//!   (variant "8x8")                ; optional: title or number
//!   (setup "W:W18:B1")             ; optional: FEN, PDN FEN or native text
//!   (moves "18-14 1-5")            ; optional: moves played first
//!   (expect-moves "18-14 18-15")   ; the exact set of legal moves
//!   (expect-includes "18-14")      ; these are legal
//!   (expect-excludes "18-22")      ; these are not
//!   (expect-result "draw")         ; the outcome starts with this ("ongoing" if none)
//!   (perft 2 49))                  ; perft at a depth
//! ```

use crate::diagnostic::Diagnostic;
use crate::engine::Rules;
use crate::expand::GameSource;
use crate::play::Game;
use crate::source::{FileId, SourceMap};
use crate::syntax::{parse_file, Sexp, SexpKind};

/// One test's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResult {
    /// The test's name.
    pub name: String,
    /// `None` when it passed; otherwise what went wrong.
    pub failure: Option<String>,
}

const CHECKS: &[&str] = &[
    "variant",
    "setup",
    "moves",
    "expect-moves",
    "expect-includes",
    "expect-excludes",
    "expect-result",
    "perft",
];

/// Runs the `(test …)` forms of a tests file against the games of a loaded rules file.
///
/// Problems with the tests file itself are diagnostics; failing expectations are results.
pub fn run(
    games: &[GameSource],
    map: &mut SourceMap,
    tests: FileId,
) -> (Vec<TestResult>, Vec<Diagnostic>) {
    let text = map.file(tests).text.clone();
    let (forms, mut diags) = parse_file(tests, &text);
    let mut results = Vec::new();
    for form in &forms {
        let Some(items) = form.list().filter(|_| form.head() == Some("test")) else {
            diags.push(
                Diagnostic::error(
                    form.span,
                    format!(
                        "expected a `(test \"NAME\" ...)` form, found {}",
                        form.describe()
                    ),
                )
                .with_label("a tests file holds only test forms"),
            );
            continue;
        };
        let name = items
            .get(1)
            .and_then(Sexp::atom_text)
            .unwrap_or_else(|| format!("test {}", results.len() + 1));
        match case(games, form, &items[2..], &mut diags) {
            Some(failure) => results.push(TestResult { name, failure }),
            None => continue,
        }
    }
    (results, diags)
}

/// The text argument of a check form, e.g. `"e2e4 e7e5"` in `(moves "e2e4 e7e5")`.
fn text_arg(form: &Sexp, diags: &mut Vec<Diagnostic>) -> Option<String> {
    let arg = form.list().and_then(|l| l.get(1));
    match arg.map(|a| &a.kind) {
        Some(SexpKind::Str(s)) | Some(SexpKind::Sym(s)) => Some(s.to_string()),
        Some(SexpKind::Int(n)) => Some(n.to_string()),
        _ => {
            diags.push(
                Diagnostic::error(form.span, "expected a text argument")
                    .with_label("write it in double quotes"),
            );
            None
        }
    }
}

/// Runs one case: `None` when the case itself is malformed (a diagnostic says why),
/// `Some(None)` when it passed, `Some(Some(why))` when it failed.
fn case(
    games: &[GameSource],
    form: &Sexp,
    checks: &[Sexp],
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<String>> {
    let find = |key: &str| checks.iter().find(|c| c.head() == Some(key));
    for c in checks {
        let head = c.head().unwrap_or("");
        if !CHECKS.contains(&head) {
            diags.push(
                Diagnostic::error(c.span, format!("unknown test form `{head}`"))
                    .with_label(format!(
                        "expected one of {}",
                        crate::resolve::quoted(CHECKS)
                    ))
                    .suggest(head, CHECKS.iter().copied()),
            );
            return None;
        }
    }
    let variant = match find("variant") {
        Some(v) => Some(text_arg(v, diags)?),
        None => None,
    };
    let idx = match crate::summary::select_variant(games, variant.as_deref()) {
        Ok(i) => i,
        Err(msg) => {
            diags.push(Diagnostic::error(form.span, msg));
            return None;
        }
    };
    let (def, _) = crate::resolve_game(&games[idx]);
    let Some(def) = def else {
        return Some(Some("the rules file does not load".into()));
    };
    let rules = Rules::new(def);
    let pos = match find("setup") {
        Some(s) => match crate::setup::parse(&rules, &text_arg(s, diags)?) {
            Ok(p) => p,
            Err(e) => return Some(Some(format!("bad setup: {e}"))),
        },
        None => rules.initial(),
    };
    let mut game = Game::new(rules, pos);
    if let Some(m) = find("moves") {
        for (k, mv) in text_arg(m, diags)?.split_whitespace().enumerate() {
            if let Err(e) = game.play(mv) {
                return Some(Some(format!("move {} `{mv}`: {e}", k + 1)));
            }
        }
    }
    let legal = game.legal_texts();
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
    if let Some(c) = find("expect-moves") {
        let mut want = words(&text_arg(c, diags)?);
        let mut got = legal.clone();
        want.sort();
        got.sort();
        if want != got {
            let missing: Vec<&String> = want.iter().filter(|m| !got.contains(m)).collect();
            let extra: Vec<&String> = got.iter().filter(|m| !want.contains(m)).collect();
            return Some(Some(format!(
                "legal moves differ: missing {missing:?}, unexpected {extra:?}"
            )));
        }
    }
    if let Some(c) = find("expect-includes") {
        let missing: Vec<String> = words(&text_arg(c, diags)?)
            .into_iter()
            .filter(|m| !legal.contains(m))
            .collect();
        if !missing.is_empty() {
            return Some(Some(format!("not legal: {missing:?}")));
        }
    }
    if let Some(c) = find("expect-excludes") {
        let present: Vec<String> = words(&text_arg(c, diags)?)
            .into_iter()
            .filter(|m| legal.contains(m))
            .collect();
        if !present.is_empty() {
            return Some(Some(format!("legal but should not be: {present:?}")));
        }
    }
    if let Some(c) = find("expect-result") {
        let want = text_arg(c, diags)?;
        let got = game
            .outcome()
            .map_or("ongoing".to_string(), |o| o.describe(&game.rules.def));
        if !got.starts_with(&want) {
            return Some(Some(format!("result: expected `{want}`, got `{got}`")));
        }
    }
    if let Some(c) = find("perft") {
        let args = c.list().unwrap_or_default();
        let (Some(SexpKind::Int(d)), Some(SexpKind::Int(n))) =
            (args.get(1).map(|a| &a.kind), args.get(2).map(|a| &a.kind))
        else {
            diags.push(Diagnostic::error(c.span, "expected `(perft DEPTH COUNT)`"));
            return None;
        };
        let got = game.rules.perft(&mut game.pos, (*d).clamp(0, 12) as u32);
        if got != *n as u64 {
            return Some(Some(format!("perft {d}: expected {n}, got {got}")));
        }
    }
    Some(None)
}
