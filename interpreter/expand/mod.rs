//! Expansion: includes and `define` macros are replaced by their text, so later stages see
//! macro-free S-expressions; then each `game` and `variant` is assembled into one list of forms.
//!
//! Spans of expanded nodes keep pointing into the `define` body, tagged with an [`ExpId`](crate::source::ExpId) whose
//! record names the call, so a diagnostic can show the use site and the definition.

mod include;
mod substitute;
mod variants;

use std::rc::Rc;

use indexmap::IndexMap;

use substitute::highest_param;
pub use variants::{assemble, GameSource};

use crate::diagnostic::{Code, Diagnostic};
use crate::source::{Expansion, FileId, SourceMap, Span};
use crate::syntax::{parse_file, Sexp, SexpKind};

/// How deep macro calls may nest before expansion stops with an error.
pub const MAX_MACRO_DEPTH: usize = 64;
/// How many nodes expansion may produce for one file, at least. The largest file of the
/// public corpus expands to about 82,000 nodes, but big Zillions files (shogi variants with
/// hundreds of piece types written through macros) need millions; exponential expansion still
/// stops here after a few more doublings.
pub const MAX_EXPANDED_NODES: usize = 4_000_000;
/// Expansion may also produce this many nodes per byte of the rules read (the file and its
/// includes), up to [`MAX_EXPANDED_NODES_BIG`]: a large file of many macro calls, such as a
/// 129 KB version of Focus that expands to 5 million nodes, loads, while a small file that
/// doubles itself stops at the same point as before.
pub const EXPANDED_NODES_PER_BYTE: usize = 64;
/// The most nodes expansion may produce, whatever the size of the rules (about 40 bytes a
/// node, so at most some 700 MB).
pub const MAX_EXPANDED_NODES_BIG: usize = 16_000_000;
/// How deeply lists may nest after expansion.
pub const MAX_EXPANDED_NESTING: usize = 400;
/// How deeply includes may nest.
pub const MAX_INCLUDE_DEPTH: usize = 16;
/// How many bytes the included files of one load may hold in all (a file included again and
/// again counts each time), so that includes cannot make a load read without end.
pub const MAX_INCLUDED_BYTES: usize = 16 << 20;

/// The expansion budget for rules of `bytes` bytes (the file and its includes): it grows with
/// the size of the rules, within fixed bounds.
pub fn node_budget(bytes: usize) -> usize {
    bytes
        .saturating_mul(EXPANDED_NODES_PER_BYTE)
        .clamp(MAX_EXPANDED_NODES, MAX_EXPANDED_NODES_BIG)
}

/// Reads included files: the library does no I/O, so the caller supplies this.
pub trait Loader {
    /// The bytes of the file at `path` (already joined to the including file's folder),
    /// or `None` if there is no such file.
    fn load(&self, path: &str) -> Option<Vec<u8>>;

    /// Like [`Loader::load`], but says why a file that exists cannot be read (too large, a
    /// directory): [`ReadError::Missing`] when there is no such file (an include then falls
    /// back on the standard library), [`ReadError::Unreadable`] otherwise.
    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        self.load(path).ok_or(ReadError::Missing)
    }
}

/// Why a file was not read ([`Loader::read`], `repl::Files::read_if_exists`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// There is no such file.
    #[error("no such file")]
    Missing,
    /// The file is there but cannot be read: why (a directory, too large, no permission).
    #[error("{0}")]
    Unreadable(String),
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::Missing,
            _ => ReadError::Unreadable(e.to_string()),
        }
    }
}

/// A loader that finds nothing: only the embedded standard library can be included.
pub struct NoFiles;

impl Loader for NoFiles {
    fn load(&self, _path: &str) -> Option<Vec<u8>> {
        None
    }
}

/// One `define`.
#[derive(Clone, Debug)]
pub struct Macro {
    /// The items spliced in place of a call.
    pub body: Vec<Sexp>,
    /// The whole `(define …)` form.
    pub span: Span,
    /// The macro's name in the `define`.
    pub name_span: Span,
}

/// Parses `root` (already in `map`), follows its includes and expands every macro call.
///
/// Returns the macro-free top-level forms (normally `game`, `variant` and `version`) and
/// the diagnostics of every file read.
pub fn expand(
    map: &mut SourceMap,
    root: FileId,
    loader: &dyn Loader,
) -> (Vec<Sexp>, Vec<Diagnostic>) {
    let (mut ex, top) = Expander::collect_root(map, root, loader);
    let mut out = Vec::new();
    for (at, form) in top {
        ex.at = at;
        ex.arities.clear();
        ex.expand_node(form, None, 0, 0, &mut out);
    }
    (out, ex.diags)
}

/// The macro table that expanding a file would build (for tests and tooling): each name with
/// its last definition.
pub fn macros(
    map: &mut SourceMap,
    root: FileId,
    loader: &dyn Loader,
) -> (IndexMap<String, Rc<Macro>>, Vec<Diagnostic>) {
    let (ex, _) = Expander::collect_root(map, root, loader);
    let table = ex
        .macros
        .into_iter()
        .filter_map(|(name, defs)| Some((name, Rc::clone(&defs.last()?.1))))
        .collect();
    (table, ex.diags)
}

struct Env<'a> {
    args: &'a [Sexp],
    name: &'a str,
    parent: Option<&'a Env<'a>>,
    /// True when the call was already warned about for missing arguments, so each `$N`
    /// without an argument is not reported again.
    quiet: bool,
}

struct Expander<'a> {
    map: &'a mut SourceMap,
    loader: &'a dyn Loader,
    /// Every definition of each name, with the place (in reading order) of its `define`.
    macros: IndexMap<String, Vec<(usize, Rc<Macro>)>>,
    /// The place, in reading order, of the top-level form being expanded.
    at: usize,
    /// The next place to hand out while collecting.
    places: usize,
    /// Arities computed for the current place (a macro's arity depends on which definitions
    /// its calls see, so this is cleared when the place changes).
    arities: std::collections::HashMap<*const Macro, usize>,
    diags: Vec<Diagnostic>,
    includes: Vec<String>,
    nodes: usize,
    /// Bytes of the root file (with `included`, they set the expansion budget).
    root_bytes: usize,
    too_large: bool,
    /// Bytes of included files read so far.
    included: usize,
    /// Macro calls expanded so far.
    calls: usize,
}

impl<'a> Expander<'a> {
    /// Reads the root file and runs the first pass: defines collected, includes inlined.
    fn collect_root(
        map: &'a mut SourceMap,
        root: FileId,
        loader: &'a dyn Loader,
    ) -> (Expander<'a>, Vec<(usize, Sexp)>) {
        let root_bytes = map.file(root).text.len();
        let mut ex = Expander {
            map,
            loader,
            macros: IndexMap::new(),
            at: 0,
            places: 0,
            arities: std::collections::HashMap::new(),
            diags: Vec::new(),
            includes: Vec::new(),
            nodes: 0,
            too_large: false,
            included: 0,
            root_bytes,
            calls: 0,
        };
        let name = ex.map.file(root).name.clone();
        let (forms, diags) = parse_file(root, &ex.map.file(root).text.clone());
        ex.diags.extend(diags);
        ex.includes.push(name);
        let mut top = Vec::new();
        ex.collect(forms, &mut top);
        (ex, top)
    }

    /// First pass over a file's top level: registers defines, inlines includes, and numbers
    /// both in reading order.
    fn collect(&mut self, forms: Vec<Sexp>, out: &mut Vec<(usize, Sexp)>) {
        for form in forms {
            self.places += 1;
            match form.head() {
                Some("define") => self.define(&form),
                Some("include") => {
                    if let Some((file, sub)) = self.read_include(&form) {
                        let name = self.map.file(file).name.clone();
                        self.includes.push(name);
                        self.collect(sub, out);
                        self.includes.pop();
                    }
                }
                _ => out.push((self.places, form)),
            }
        }
    }

    fn define(&mut self, form: &Sexp) {
        let items = form.list().unwrap_or_default();
        let Some(name_node) = items.get(1) else {
            self.diags.push(
                Diagnostic::error(form.span, "`define` needs a name")
                    .with_label("expected `(define NAME BODY...)`"),
            );
            return;
        };
        let Some(name) = name_node.sym() else {
            self.diags.push(
                Diagnostic::error(
                    name_node.span,
                    format!("expected a macro name, found {}", name_node.describe()),
                )
                .with_label("expected `(define NAME BODY...)`"),
            );
            return;
        };
        let defs = self.macros.entry(name.to_string()).or_default();
        if let Some((_, old)) = defs.last() {
            if old.body == items[2..] {
                return;
            }
            self.diags.push(
                Diagnostic::warning(name_node.span, format!("macro `{name}` is defined again, differently"))
                    .with_label("calls after this point use this definition")
                    .with_secondary(old.name_span, "calls before the second definition use this one")
                    .with_note("a call uses the last definition before it in reading order (includes read in place), or the first one when it comes before every definition"),
            );
        }
        defs.push((
            self.places,
            Rc::new(Macro {
                body: items[2..].to_vec(),
                span: form.span,
                name_span: name_node.span,
            }),
        ));
    }

    /// The definition of `name` that a call at the current place uses: the last one before
    /// it, or the first one when the call comes before all of them.
    fn lookup_macro(&self, name: &str) -> Option<Rc<Macro>> {
        let defs = self.macros.get(name)?;
        let before = defs.iter().rev().find(|(at, _)| *at < self.at);
        before.or(defs.first()).map(|(_, m)| Rc::clone(m))
    }

    /// How many arguments a macro takes: the highest `$N` in its body, or in the body of a
    /// macro it calls with fewer arguments (those `$N` come from this call).
    fn arity(&mut self, mac: &Macro, visiting: &mut Vec<*const Macro>) -> usize {
        let me = mac as *const Macro;
        if let Some(&n) = self.arities.get(&me) {
            return n;
        }
        if visiting.contains(&me) {
            return 0;
        }
        visiting.push(me);
        let mut most = 0;
        let mut stack: Vec<&Sexp> = mac.body.iter().collect();
        while let Some(node) = stack.pop() {
            match &node.kind {
                SexpKind::Sym(t) | SexpKind::Str(t) => most = most.max(highest_param(t)),
                SexpKind::List(items) => {
                    if let Some(inner) = node.head().and_then(|h| self.lookup_macro(h)) {
                        let n = self.arity(&inner, visiting);
                        if n > items.len() - 1 {
                            most = most.max(n);
                        }
                    }
                    stack.extend(items);
                }
                SexpKind::Int(_) => {}
            }
        }
        visiting.pop();
        self.arities.insert(me, most);
        most
    }

    fn node_limit(&self) -> usize {
        node_budget(self.root_bytes + self.included)
    }

    fn bump(&mut self, span: Span) -> bool {
        self.nodes += 1;
        let limit = self.node_limit();
        if self.nodes > limit {
            if !self.too_large {
                self.too_large = true;
                let d = if self.calls > 0 {
                    Diagnostic::error(span, "macro expansion is too large")
                        .with_code(Code::ExpansionTooLarge)
                        .with_label(format!("expansion passed {limit} nodes here"))
                        .with_note("a macro probably calls itself, directly or through others")
                } else {
                    Diagnostic::error(span, "the rules are too large")
                        .with_code(Code::RulesTooLarge)
                        .with_label(format!("the file passes {limit} items here"))
                        .with_note(format!(
                            "zrf reads at most {limit} atoms and lists, includes and macro expansions counted"
                        ))
                };
                self.diags.push(d);
            }
            return false;
        }
        true
    }

    /// Expands one node, appending what it becomes (a call may splice many items) to `out`.
    ///
    /// The node is taken by value: a macro body is substituted into a fresh tree, which is
    /// then expanded by moving its atoms and lists into the output, not copied again (and the
    /// substituted tree is not dropped node by node afterwards).
    fn expand_node(
        &mut self,
        node: Sexp,
        env: Option<&Env>,
        depth: usize,
        nest: usize,
        out: &mut Vec<Sexp>,
    ) {
        if !self.bump(node.span) {
            return;
        }
        let Some(items) = node.list() else {
            out.push(node);
            return;
        };
        if nest > MAX_EXPANDED_NESTING {
            self.diags.push(
                Diagnostic::error(
                    node.span,
                    "lists are nested too deeply after macro expansion",
                )
                .with_code(Code::ExpansionNestedTooDeeply)
                .with_label(format!("nesting passes {MAX_EXPANDED_NESTING} here")),
            );
            return;
        }
        match node.head() {
            Some("define") => {
                self.diags.push(
                    Diagnostic::error(
                        node.span,
                        "`define` is only allowed at the top level of a file",
                    )
                    .with_label("move this definition out of the enclosing form"),
                );
                return;
            }
            Some("include") => {
                if let Some((file, sub)) = self.read_include(&node) {
                    let name = self.map.file(file).name.clone();
                    self.includes.push(name);
                    for form in sub {
                        self.expand_node(form, env, depth, nest, out);
                    }
                    self.includes.pop();
                }
                return;
            }
            Some(name) => {
                if let Some(mac) = self.lookup_macro(name) {
                    self.call(&node, name, mac, &items[1..], env, depth, nest, out);
                    return;
                }
            }
            _ => {}
        }
        let span = node.span;
        let SexpKind::List(items) = node.kind else {
            unreachable!("a list")
        };
        let mut expanded = Vec::with_capacity(items.len());
        for it in items {
            self.expand_node(it, env, depth, nest + 1, &mut expanded);
        }
        out.push(Sexp {
            kind: SexpKind::List(expanded),
            span,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        node: &Sexp,
        name: &str,
        mac: Rc<Macro>,
        args: &[Sexp],
        env: Option<&Env>,
        depth: usize,
        nest: usize,
        out: &mut Vec<Sexp>,
    ) {
        if depth >= MAX_MACRO_DEPTH {
            let mut chain = vec![name.to_string()];
            let mut cur = env;
            while let Some(e) = cur {
                chain.push(e.name.to_string());
                cur = e.parent;
            }
            // Some macro of the chain calls itself (directly or through others) only when a
            // name comes back; otherwise the chain is merely deep.
            let recursive = {
                let mut names: Vec<&String> = chain.iter().collect();
                names.sort();
                names.windows(2).any(|w| w[0] == w[1])
            };
            chain.reverse();
            let short: Vec<String> = if chain.len() > 8 {
                let mut s = chain[..4].to_vec();
                s.push("...".into());
                s.extend_from_slice(&chain[chain.len() - 3..]);
                s
            } else {
                chain
            };
            self.diags.push(
                Diagnostic::error(
                    node.span,
                    if recursive {
                        format!("macro `{name}` expands into itself without end")
                    } else {
                        format!("macro calls nest more than {MAX_MACRO_DEPTH} deep at `{name}`")
                    },
                )
                .with_label(format!(
                    "macro calls nest deeper than {MAX_MACRO_DEPTH} here"
                ))
                .with_note(format!("call chain: {}", short.join(" -> "))),
            );
            self.too_large = true;
            return;
        }
        if self.too_large {
            return;
        }
        self.calls += 1;
        let takes = self.arity(&mac, &mut Vec::new());
        let given = args.len();
        let outer = std::iter::successors(env, |e| e.parent)
            .map(|e| e.args.len())
            .max()
            .unwrap_or(0);
        let mut quiet = false;
        if given < takes && outer < takes {
            let wording = format!(
                "`{name}` takes {takes} argument{}, {given} given",
                if takes == 1 { "" } else { "s" }
            );
            if given == 0 {
                // The usual slip: a macro with parameters called as if it had none. Its body
                // would only produce follow-on errors, so it is left out.
                self.diags.push(
                    Diagnostic::error(node.span, wording)
                        .with_label(format!("`${}` has no argument", given + 1))
                        .with_secondary(
                            mac.name_span,
                            format!("`{name}` is defined here and uses `${takes}`"),
                        ),
                );
                return;
            }
            // Zillions replaces a missing argument by nothing, and real files rely on it
            // (`capture $2` in a one-argument call): a warning, once per call.
            // At most a few are named: `$N` may be any number a token holds.
            let first_missing = given.max(outer) + 1;
            let mut missing: Vec<String> = (first_missing..=takes)
                .take(8)
                .map(|k| format!("`${k}`"))
                .collect();
            if takes - first_missing >= 8 {
                missing.push(format!("... `${takes}`"));
            }
            self.diags.push(
                Diagnostic::warning(node.span, wording)
                    .with_label("too few arguments")
                    .with_secondary(mac.name_span, "defined here")
                    .with_note(format!(
                        "{} {} replaced by nothing (a whole token) or left as written (inside a token), as in Zillions",
                        missing.join(", "),
                        if missing.len() == 1 { "is" } else { "are" }
                    )),
            );
            quiet = true;
        } else if given > takes && !mac.body.is_empty() {
            // Zillions substitutes `$N` by number and never counts arguments; real files pass
            // unused ones (Klin Zha's `(block-2 e e)` with a body that uses only `$1`).
            self.diags.push(
                Diagnostic::warning(
                    args[takes].span,
                    format!(
                        "`{name}` takes {takes} argument{}, {given} given",
                        if takes == 1 { "" } else { "s" }
                    ),
                )
                .with_label(
                    if given - takes == 1 {
                        "this argument is not used"
                    } else {
                        "these arguments are not used"
                    }
                    .to_string(),
                )
                .with_secondary(
                    mac.name_span,
                    format!(
                        "`{name}` is defined here{}",
                        if takes == 0 {
                            " without parameters".to_string()
                        } else {
                            format!(" and uses up to `${takes}`")
                        }
                    ),
                )
                .with_note("the extra arguments are ignored, as in Zillions"),
            );
        }
        let exp = self.map.add_expansion(Expansion {
            name: name.to_string(),
            call: node.span,
            define: mac.span,
        });
        let new_env = Env {
            args,
            name,
            parent: env,
            quiet,
        };
        for item in &mac.body {
            if let Some(substituted) = self.substitute(item, &new_env, exp) {
                self.expand_node(substituted, Some(&new_env), depth + 1, nest, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_text(text: &str) -> (String, Vec<Diagnostic>) {
        let mut map = SourceMap::new();
        let f = map.add("t.zrf", text);
        let (forms, diags) = expand(&mut map, f, &NoFiles);
        (
            forms
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            diags,
        )
    }

    #[test]
    fn splices_bodies_and_substitutes_parameters() {
        let (out, d) = expand_text(
            "(game (moves (step n) (slide-all)))
             (define step ($1 (verify empty?) add))
             (define slide-all (slide n) (slide e))
             (define slide ($1 (while empty? add $1)))",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            out,
            "(game (moves (n (verify empty?) add) (n (while empty? add n)) (e (while empty? add e))))"
        );
    }

    #[test]
    fn pastes_tokens_and_falls_back_to_the_outer_call() {
        let (out, d) = expand_text(
            "(define zone-of (name line-$1-x) (inner $2))
             (define inner (p $1 $2))
             (game (zone-of a b))",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(out, "(game (name line-a-x) (p b b))");
    }

    #[test]
    fn pasted_numbers_become_integers() {
        let (out, _) = expand_text("(define n (count $1$2)) (game (n 1 2))");
        assert_eq!(out, "(game (count 12))");
    }

    #[test]
    fn recursion_is_an_error_with_a_chain() {
        let (_, d) = expand_text("(define a (b)) (define b (a)) (game (a))");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].message.contains("expands into itself"));
        assert!(d[0].notes[0].contains("a -> b -> a"), "{:?}", d[0].notes);
    }

    #[test]
    fn exponential_growth_is_stopped() {
        let mut src = String::from("(define m0 x)");
        for i in 1..40 {
            src += &format!("(define m{i} (m{p}) (m{p}))", p = i - 1);
        }
        src += "(game (m39))";
        let (_, d) = expand_text(&src);
        assert!(d.iter().any(|d| d.is(Code::ExpansionTooLarge)), "{d:?}");
    }

    #[test]
    fn the_budget_grows_with_the_rules_within_bounds() {
        // The doubling file of `exponential_growth_is_stopped` stops where it always did; a
        // 129 KB file of many macro calls (a real version of Focus needs 5,041,706 nodes)
        // gets room; nothing gets more than the cap.
        assert_eq!(node_budget(932), MAX_EXPANDED_NODES);
        assert_eq!(node_budget(129_000), 8_256_000);
        assert!(node_budget(129_000) > 5_041_706);
        assert_eq!(node_budget(1 << 20), MAX_EXPANDED_NODES_BIG);
        assert_eq!(node_budget(usize::MAX), MAX_EXPANDED_NODES_BIG);
    }

    #[test]
    fn missing_include_is_reported() {
        let (_, d) = expand_text("(include \"nowhere.zrf\") (game)");
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("cannot find included file"));
    }

    #[test]
    fn stdlib_is_included_from_anywhere() {
        let (_, d) = expand_text("(include \"prelude.zrf\") (game (players A B))");
        assert!(d.is_empty(), "{d:?}");
    }
}
