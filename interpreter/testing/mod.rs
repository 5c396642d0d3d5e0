//! Test cases for rules files: `(test …)` forms in a sibling `FILE.tests`, run by `zrf test`
//! (format: `docs/testing.md`).
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
//!   (perft 2 49)                   ; perft at a depth
//!   (snapshot position moves summary (perft 3)))  ; recorded in FILE.snap
//! ```

pub mod paths;
mod snapshots;

pub use snapshots::{diff, normalize, Snapshots};

use crate::diagnostic::Diagnostic;
use crate::engine::Rules;
use crate::expand::GameSource;
use crate::play::Game;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::{parse_file, Sexp, SexpKind};

/// One test's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResult {
    /// The test's name.
    pub name: String,
    /// Where the `(test` form starts in the tests file (for `FILE:LINE:COL`).
    pub span: Span,
    /// `None` when its expectations held; otherwise what went wrong.
    pub failure: Option<String>,
    /// What zrf produces now for each snapshot the case asks for.
    pub snapshots: Vec<SnapshotResult>,
}

/// One snapshot of one case: the recorded text and the text zrf produces now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotResult {
    /// `position`, `moves`, `summary` or `perft N`.
    pub kind: String,
    /// What the snapshot file holds (`None`: pending, never accepted).
    pub recorded: Option<String>,
    /// What zrf produces now (normalized as stored).
    pub current: String,
}

impl SnapshotResult {
    /// True when the recorded text is the current one.
    pub fn matches(&self) -> bool {
        self.recorded.as_deref() == Some(self.current.as_str())
    }
}

impl TestResult {
    /// True when the expectations held and every snapshot matches.
    pub fn passed(&self) -> bool {
        self.failure.is_none() && self.snapshots.iter().all(SnapshotResult::matches)
    }
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
    "snapshot",
];

/// The forms that check something; a case needs at least one.
const EXPECTATIONS: &[&str] = &[
    "expect-moves",
    "expect-includes",
    "expect-excludes",
    "expect-result",
    "perft",
    "snapshot",
];

/// What `(snapshot ...)` may record.
const SNAPSHOT_KINDS: &[&str] = &["position", "moves", "summary", "(perft DEPTH)"];

/// The deepest perft a test may ask for.
pub const MAX_TEST_PERFT: i64 = 12;

/// The default work budget of one case (`zrf test --max-nodes`): the positions whose moves
/// its perft counts may generate, in all.
pub const MAX_NODES: u64 = 1_000_000;

/// Perft counts at depths 1 to `depth`, within the positions `left` allows (and taken from
/// it). Counting depth `d` generates the moves of every position at the depths before it,
/// whose number the counts before it give, so a depth is counted only when it fits; past
/// the budget, why.
fn perft_within(game: &mut Game, depth: u32, left: &mut u64) -> Result<Vec<u64>, String> {
    let mut counts = Vec::new();
    let mut before = 1u64; // positions at the depths before `d`: the root, then the counts
    for d in 1..=depth {
        // Depth `d` generates the positions of depths 0 to d - 1.
        if before > *left {
            return Err(format!(
                "perft {d} would generate the moves of {before} positions, more than the \
                 {left} left of this case's budget (zrf test --max-nodes)"
            ));
        }
        *left -= before;
        let n = game.rules.perft(&mut game.pos, d);
        before = before.saturating_add(n);
        counts.push(n);
    }
    Ok(counts)
}

/// Runs the `(test …)` forms of a tests file against the games of a loaded rules file,
/// comparing snapshots with `recorded` (the snapshot file's entries).
///
/// Problems with the tests file itself are diagnostics (errors: the run fails); failing
/// expectations and changed or pending snapshots are results.
pub fn run(
    games: &[GameSource],
    map: &mut SourceMap,
    tests: FileId,
    recorded: &Snapshots,
) -> (Vec<TestResult>, Vec<Diagnostic>) {
    run_within(games, map, tests, recorded, MAX_NODES)
}

/// [`run`] with a work budget per case other than [`MAX_NODES`]: the positions whose moves
/// its perft counts may generate. A case that would go past it fails, saying so.
pub fn run_within(
    games: &[GameSource],
    map: &mut SourceMap,
    tests: FileId,
    recorded: &Snapshots,
    max_nodes: u64,
) -> (Vec<TestResult>, Vec<Diagnostic>) {
    let text = map.file(tests).text.clone();
    let (forms, mut diags) = parse_file(tests, &text);
    let mut results = Vec::new();
    let mut names: Vec<(String, Span)> = Vec::new();
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
        let name = match items.get(1).map(|n| &n.kind) {
            Some(SexpKind::Str(s)) if !s.trim().is_empty() && !s.contains(['\n', '\r']) => {
                s.trim().to_string()
            }
            _ => {
                diags.push(
                    Diagnostic::error(form.span, "a test needs a name")
                        .with_label("expected `(test \"NAME\" ...)`")
                        .with_note(
                            "the name, in double quotes on one line, comes right after `test`",
                        ),
                );
                continue;
            }
        };
        if let Some((_, first)) = names.iter().find(|(n, _)| *n == name) {
            diags.push(
                Diagnostic::error(items[1].span, format!("two tests are called \"{name}\""))
                    .with_label("this name is taken")
                    .with_secondary(*first, "the first test of that name")
                    .with_note("snapshots are recorded by test name, so names must differ"),
            );
            continue;
        }
        names.push((name.clone(), items[1].span));
        let start = Span::new(tests, form.span.lo as usize, form.span.lo as usize + 1);
        if let Some((failure, snapshots)) = case(
            games,
            form,
            &name,
            &items[2..],
            recorded,
            max_nodes,
            &mut diags,
        ) {
            results.push(TestResult {
                name,
                span: start,
                failure,
                snapshots,
            });
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

/// The snapshot kinds a `(snapshot ...)` form names, e.g. `["position", "perft 3"]`.
fn snapshot_kinds(form: &Sexp, diags: &mut Vec<Diagnostic>) -> Option<Vec<(String, u32)>> {
    let items = form.list().unwrap_or_default();
    if items.len() < 2 {
        diags.push(
            Diagnostic::error(form.span, "`snapshot` names nothing to record").with_label(format!(
                "expected one or more of {}",
                crate::resolve::quoted(SNAPSHOT_KINDS)
            )),
        );
        return None;
    }
    let mut kinds = Vec::new();
    for it in &items[1..] {
        let kind = match (&it.kind, it.head()) {
            (SexpKind::Sym(s), _) if matches!(&**s, "position" | "moves" | "summary") => {
                (s.to_string(), 0)
            }
            (_, Some("perft")) => match it.list().unwrap_or_default() {
                [_, d] => match d.kind {
                    SexpKind::Int(n) if (1..=MAX_TEST_PERFT).contains(&n) => {
                        (format!("perft {n}"), n as u32)
                    }
                    _ => {
                        diags.push(
                            Diagnostic::error(d.span, "expected a depth from 1 to 12").with_label(
                                "`(perft DEPTH)` records the counts at depths 1 to DEPTH",
                            ),
                        );
                        return None;
                    }
                },
                _ => {
                    diags.push(
                        Diagnostic::error(it.span, "expected `(perft DEPTH)`")
                            .with_label("one depth; the counts up to it are recorded"),
                    );
                    return None;
                }
            },
            _ => {
                let shown = it.atom_text().unwrap_or_else(|| it.describe());
                diags.push(
                    Diagnostic::error(it.span, format!("unknown snapshot `{shown}`"))
                        .with_label(format!(
                            "expected one of {}",
                            crate::resolve::quoted(SNAPSHOT_KINDS)
                        ))
                        .suggest(&shown, ["position", "moves", "summary", "perft"]),
                );
                return None;
            }
        };
        if kinds.iter().any(|(k, _)| *k == kind.0) {
            diags.push(
                Diagnostic::error(it.span, format!("`{}` is asked for twice", kind.0))
                    .with_label("each snapshot once per test"),
            );
            return None;
        }
        kinds.push(kind);
    }
    Some(kinds)
}

type CaseOutcome = (Option<String>, Vec<SnapshotResult>);

/// Runs one case: `None` when the case itself is malformed (a diagnostic says why), else
/// the first failed expectation (if any) and the snapshots.
fn case(
    games: &[GameSource],
    form: &Sexp,
    name: &str,
    checks: &[Sexp],
    recorded: &Snapshots,
    max_nodes: u64,
    diags: &mut Vec<Diagnostic>,
) -> Option<CaseOutcome> {
    let find = |key: &str| checks.iter().find(|c| c.head() == Some(key));
    for c in checks {
        let head = c.head().unwrap_or("");
        if !CHECKS.contains(&head) {
            let shown = if head.is_empty() {
                c.atom_text().unwrap_or_else(|| c.describe())
            } else {
                head.to_string()
            };
            diags.push(
                Diagnostic::error(c.span, format!("unknown test form `{shown}`"))
                    .with_label(format!(
                        "expected one of {}",
                        crate::resolve::quoted(CHECKS)
                    ))
                    .suggest(&shown, CHECKS.iter().copied()),
            );
            return None;
        }
        if matches!(head, "variant" | "setup")
            && checks.iter().filter(|o| o.head() == Some(head)).count() > 1
        {
            diags.push(
                Diagnostic::error(c.span, format!("`{head}` is given twice"))
                    .with_label("a test has one variant and one setup"),
            );
            return None;
        }
    }
    if !checks
        .iter()
        .any(|c| c.head().is_some_and(|h| EXPECTATIONS.contains(&h)))
    {
        diags.push(
            Diagnostic::error(form.span, format!("the test \"{name}\" checks nothing"))
                .with_label("no expectation in this test")
                .with_note(format!(
                    "add one of {}; `(snapshot ...)` records what zrf produces, for `zrf test --accept`",
                    crate::resolve::quoted(EXPECTATIONS)
                )),
        );
        return None;
    }
    let mut wanted = Vec::new();
    for c in checks.iter().filter(|c| c.head() == Some("snapshot")) {
        for kind in snapshot_kinds(c, diags)? {
            if wanted.iter().any(|(k, _): &(String, u32)| *k == kind.0) {
                diags.push(
                    Diagnostic::error(c.span, format!("`{}` is asked for twice", kind.0))
                        .with_label("each snapshot once per test"),
                );
                return None;
            }
            wanted.push(kind);
        }
    }
    let variant = match find("variant") {
        Some(v) => Some(text_arg(v, diags)?),
        None => None,
    };
    let idx = match crate::summary::select_variant(games, variant.as_deref()) {
        Ok(i) => i,
        Err(msg) => {
            diags.push(Diagnostic::error(
                find("variant").map_or(form.span, |v| v.span),
                msg.to_string(),
            ));
            return None;
        }
    };
    let (def, _) = crate::resolve_game(&games[idx]);
    let Some(def) = def else {
        return Some((Some("the rules file does not load".into()), Vec::new()));
    };
    let summary = wanted
        .iter()
        .any(|(k, _)| k == "summary")
        .then(|| crate::summary::describe(&def));
    let rules = Rules::new(def);
    let pos = match find("setup") {
        Some(s) => match crate::setup::parse(&rules, &text_arg(s, diags)?) {
            Ok(p) => p,
            Err(e) => return Some((Some(format!("bad setup: {e}")), Vec::new())),
        },
        None => rules.initial(),
    };
    let mut game = Game::new(rules, pos);
    // The forms run in order: each `(moves ...)` plays on from where the game stands, and each
    // expectation checks the game at that point.
    let mut failure = None;
    let mut played = 0;
    let mut left = max_nodes;
    for c in checks {
        if failure.is_some() {
            break;
        }
        failure = match c.head() {
            Some("moves") => {
                let mut bad = None;
                for mv in text_arg(c, diags)?.split_whitespace() {
                    played += 1;
                    if let Err(e) = game.play(mv) {
                        bad = Some(format!("move {played} `{mv}`: {e}"));
                        break;
                    }
                }
                if bad.is_some() {
                    return Some((bad, Vec::new()));
                }
                None
            }
            Some(
                key @ ("expect-moves" | "expect-includes" | "expect-excludes" | "expect-result"),
            ) => {
                let want = text_arg(c, diags)?;
                expectation(&mut game, key, &want)
            }
            Some("perft") => {
                let args = c.list().unwrap_or_default();
                let (Some(SexpKind::Int(d)), Some(SexpKind::Int(n)), 3) = (
                    args.get(1).map(|a| &a.kind),
                    args.get(2).map(|a| &a.kind),
                    args.len(),
                ) else {
                    diags.push(
                        Diagnostic::error(c.span, "expected `(perft DEPTH COUNT)`")
                            .with_label("two whole numbers: the depth and the count"),
                    );
                    return None;
                };
                if !(0..=MAX_TEST_PERFT).contains(d) {
                    diags.push(Diagnostic::error(
                        args[1].span,
                        format!("expected a depth from 0 to {MAX_TEST_PERFT}"),
                    ));
                    return None;
                }
                match perft_within(&mut game, *d as u32, &mut left) {
                    Ok(counts) => {
                        let got = counts.last().copied().unwrap_or(1);
                        (got != *n as u64).then(|| format!("perft {d}: expected {n}, got {got}"))
                    }
                    Err(why) => Some(why),
                }
            }
            _ => None,
        };
    }
    let mut snapshots = Vec::new();
    for (kind, depth) in wanted {
        let current = normalize(&match kind.as_str() {
            "position" => format!(
                "{}\n\n{}",
                normalize(&crate::repl::diagram::diagram(
                    &game.rules,
                    &game.pos,
                    false
                )),
                crate::setup::native(&game.rules, &game.pos)
            ),
            "moves" => {
                let mut texts = game.legal_texts();
                texts.sort();
                match game.outcome() {
                    Some(o) => format!("result: {}", o.describe(&game.rules.def)),
                    None if texts.is_empty() => "no legal move".to_string(),
                    None => texts.join("\n"),
                }
            }
            "summary" => summary.clone().unwrap_or_default(),
            _ => match perft_within(&mut game, depth, &mut left) {
                Ok(counts) => (counts.iter().enumerate())
                    .map(|(d, n)| format!("{} {n}", d + 1))
                    .collect::<Vec<_>>()
                    .join("\n"),
                Err(why) => {
                    failure.get_or_insert(why);
                    continue;
                }
            },
        });
        let recorded = recorded
            .entries
            .get(&(name.to_string(), kind.clone()))
            .cloned();
        snapshots.push(SnapshotResult {
            kind,
            recorded,
            current,
        });
    }
    Some((failure, snapshots))
}

/// Checks one `expect-...` form against the game; `Some(why)` when it does not hold.
fn expectation(game: &mut Game, key: &str, want: &str) -> Option<String> {
    let legal = game.legal_texts();
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
    match key {
        "expect-moves" => {
            let mut want = words(want);
            let mut got = legal.clone();
            want.sort();
            got.sort();
            if want == got {
                return None;
            }
            let missing: Vec<&String> = want.iter().filter(|m| !got.contains(m)).collect();
            let extra: Vec<&String> = got.iter().filter(|m| !want.contains(m)).collect();
            Some(format!(
                "legal moves differ: missing {missing:?}, unexpected {extra:?}"
            ))
        }
        "expect-includes" => {
            let missing: Vec<String> = words(want)
                .into_iter()
                .filter(|m| !legal.contains(m))
                .collect();
            (!missing.is_empty()).then(|| format!("not legal: {missing:?}"))
        }
        "expect-excludes" => {
            let present: Vec<String> = words(want)
                .into_iter()
                .filter(|m| legal.contains(m))
                .collect();
            (!present.is_empty()).then(|| format!("legal but should not be: {present:?}"))
        }
        _ => {
            let got = game
                .outcome()
                .map_or("ongoing".to_string(), |o| o.describe(&game.rules.def));
            (!got.starts_with(want)).then(|| format!("result: expected `{want}`, got `{got}`"))
        }
    }
}

/// The snapshot table after accepting `results`: every snapshot the cases asked for, with
/// its current text where `accept(case, kind)` says so and its recorded text otherwise;
/// entries no case asks for any more are dropped. Order: the cases' order.
pub fn accepted(
    results: &[TestResult],
    mut accept: impl FnMut(&TestResult, &SnapshotResult) -> bool,
) -> Snapshots {
    let mut out = Snapshots::default();
    for r in results {
        for s in &r.snapshots {
            let text = if s.matches() {
                s.recorded.clone()
            } else if accept(r, s) {
                Some(s.current.clone())
            } else {
                s.recorded.clone()
            };
            if let Some(text) = text {
                out.entries.insert((r.name.clone(), s.kind.clone()), text);
            }
        }
    }
    out
}
