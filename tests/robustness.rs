//! Robustness: no input makes zrf panic, overflow its stack or hang.
//!
//! Every input goes through `check_source` (all stages) and then through diagnostic rendering,
//! the way `zrf check` handles a file, on a thread with a fixed stack and under a time limit.
//! Inputs are random bytes, random soups of ZRF-like tokens, and mutations of real rules
//! files; a last property checks that printing a tree and reading it back gives the same tree.
//!
//! The cargo-fuzz targets in `fuzz/` explore the same entry points without a time budget.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::Duration;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::FileFailurePersistence;
use zrf::diagnostic::{render, RenderOptions};
use zrf::expand::NoFiles;
use zrf::source::{FileId, SourceMap, Span};
use zrf::syntax::{parse_file, Sexp, SexpKind};

/// The stack each check runs on: the size Rust gives any spawned thread (and every test),
/// so a pass here means the library is safe to call from any thread, not only from `main`.
const STACK: usize = 2 * 1024 * 1024;

/// How long one check may take in a debug build before it counts as a hang. The slowest
/// input here (`exponential_expansion`) takes about 3 s of CPU in a debug build; the limit is
/// wall-clock time, so it leaves room for a machine loaded tenfold (20 s failed at load average
/// 14 on 2 cores) while still catching a check that never ends.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Runs `check_source` and renders its diagnostics on a fresh thread with [`STACK`] bytes of
/// stack; returns a description of the failure if it panicked or ran past [`TIME_LIMIT`].
///
/// A stack overflow cannot be caught: it aborts the test binary, which fails the run just
/// the same (and the message names the thread, `zrf-check`).
fn check(bytes: &[u8]) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let input = bytes.to_vec();
    std::thread::Builder::new()
        .name("zrf-check".into())
        .stack_size(STACK)
        .spawn(move || {
            let res = catch_unwind(AssertUnwindSafe(|| {
                let (map, diags) = zrf::check_source("fuzz.zrf", &input, &NoFiles);
                check_spans(&map, &diags);
                render(&map, &diags, RenderOptions { color: false })
            }));
            let _ = tx.send(res.map(|_| ()).map_err(|e| panic_text(&*e)));
        })
        .expect("spawn a check thread");
    match rx.recv_timeout(TIME_LIMIT) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(msg)) => Err(failure("panicked", &msg, bytes)),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(failure(
            "hung",
            &format!("no result after {TIME_LIMIT:?}"),
            bytes,
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(failure("died", "no result", bytes)),
    }
}

/// Every diagnostic's spans point at an existing file (the renderer relies on it).
fn check_spans(map: &SourceMap, diags: &[zrf::diagnostic::Diagnostic]) {
    let files = map.files().len();
    for d in diags {
        for span in std::iter::once(d.primary.span).chain(d.secondary.iter().map(|l| l.span)) {
            let site = map.use_site(span);
            assert!(
                (site.file.0 as usize) < files && (span.file.0 as usize) < files,
                "diagnostic `{}` points at a file that was never loaded: {span:?}",
                d.message
            );
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic with a non-string payload)".into()
    }
}

/// Saves the input under `target/robustness-failures/` and describes the failure.
fn failure(what: &str, msg: &str, bytes: &[u8]) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/robustness-failures");
    let name = format!("{:016x}.zrf", fnv1a(bytes));
    let saved = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(dir.join(&name), bytes))
        .map_or_else(
            |e| format!("(could not save it: {e})"),
            |()| format!("saved as {}", dir.join(&name).display()),
        );
    let shown: Vec<u8> = bytes.iter().copied().take(2000).collect();
    format!(
        "check_source {what}: {msg}\ninput ({} bytes, {saved}):\n{}{}",
        bytes.len(),
        shown.escape_ascii(),
        if bytes.len() > shown.len() { "..." } else { "" }
    )
}

/// `cases` random cases; failing seeds are kept in `proptest-regressions/robustness.txt`
/// (the default place is not found because the library's root is not `src/lib.rs`).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/robustness.txt",
        ))),
        ..ProptestConfig::default()
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

// ---------------------------------------------------------------------------------------------
// Random input.

/// Tokens a rules file is made of, with the ones that start or end something over-represented.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => Just("(".to_string()),
        6 => Just(")".to_string()),
        2 => Just("\"".to_string()),
        1 => Just(";".to_string()),
        2 => Just("\n".to_string()),
        3 => prop_oneof![Just("$1"), Just("$2"), Just("$3"), Just("$0"), Just("$99"), Just("x$1-$2")]
            .prop_map(str::to_string),
        3 => prop_oneof![
            Just("define"),
            Just("include"),
            Just("game"),
            Just("variant"),
            Just("version"),
            Just("title"),
            Just("players"),
            Just("board"),
            Just("pieces"),
            Just("moves"),
            Just("default"),
            Just("\"prelude.zrf\""),
        ]
        .prop_map(str::to_string),
        3 => prop_oneof![Just("m"), Just("n"), Just("a"), Just("b"), Just("add"), Just("?x")]
            .prop_map(str::to_string),
        2 => any::<i64>().prop_map(|n| n.to_string()),
        1 => (0u8..20).prop_map(|n| n.to_string()),
        1 => "[a-z][a-z0-9-]{0,6}",
        1 => "\"[^\"]{0,8}\"",
        // Names past the length limit, control characters, arithmetic at the bounds.
        1 => prop_oneof![
            Just("n".repeat(300)),
            Just("\"a\u{1b}[2J\"".to_string()),
            Just("(/ -9223372036854775808 -1)".to_string()),
            Just("(set-flag f true)".to_string()),
        ],
    ]
}

/// A soup of tokens; separators are sometimes left out so that tokens run together.
fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (token(), prop_oneof![4 => Just(" "), 1 => Just("")]),
        0..120,
    )
    .prop_map(|toks| {
        toks.into_iter()
            .flat_map(|(t, sep)| [t, sep.to_string()])
            .collect()
    })
}

/// A soup arranged as macro definitions followed by uses, so that expansion has work to do.
fn macro_soup() -> impl Strategy<Value = String> {
    let name = prop_oneof![Just("m"), Just("n"), Just("p")];
    let define = (name.clone(), soup()).prop_map(|(n, body)| format!("(define {n} {body})\n"));
    let game = prop::collection::vec((name, soup()), 0..4).prop_map(|calls| {
        let body: String = calls
            .into_iter()
            .map(|(n, args)| format!("({n} {args})"))
            .collect();
        format!("(game (title \"g\") {body})\n")
    });
    (prop::collection::vec(define, 0..4), game, soup()).prop_map(|(defs, game, tail)| {
        let mut s: String = defs.concat();
        s += &game;
        s += &tail;
        s
    })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_bytes_do_not_crash(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&bytes).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn random_text_reads_with_sane_spans(text in any::<String>()) {
        let (forms, _) = parse_file(FileId(0), &text);
        let mut stack: Vec<&Sexp> = forms.iter().collect();
        while let Some(node) = stack.pop() {
            let (lo, hi) = (node.span.lo as usize, node.span.hi as usize);
            prop_assert!(lo <= hi && hi <= text.len(), "span {:?} outside the text", node.span);
            prop_assert!(text.is_char_boundary(lo) && text.is_char_boundary(hi));
            if let Some(items) = node.list() {
                stack.extend(items);
            }
        }
    }

    #[test]
    fn token_soup_does_not_crash(text in soup()) {
        check(text.as_bytes()).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    // Fewer: each case defines and calls macros, so it is about ten times slower.
    #![proptest_config(config(128))]

    #[test]
    fn macro_soup_does_not_crash(text in macro_soup()) {
        check(text.as_bytes()).map_err(TestCaseError::fail)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Mutations of real rules files.

/// `games/*.zrf`, `stdlib/*.zrf` and the vendored Dagaz corpus.
fn corpus() -> &'static [(PathBuf, Vec<u8>)] {
    static FILES: OnceLock<Vec<(PathBuf, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths = Vec::new();
        for dir in ["games", "stdlib"] {
            zrf_files(&root.join(dir), &mut paths);
        }
        zrf_files(&root.join("tests/corpus/dagaz"), &mut paths);
        paths.sort();
        paths
            .into_iter()
            .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
            .collect()
    })
}

fn zrf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            zrf_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zrf"))
        {
            out.push(path);
        }
    }
}

/// One edit of a file; positions are fractions of its current length.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index, Index),
    Duplicate(Index, Index),
    Insert(Index, &'static str),
    Swap(Index, Index, Index, Index),
    Truncate(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let ix = any::<Index>;
    prop_oneof![
        3 => (ix(), ix()).prop_map(|(a, b)| Mutation::Delete(a, b)),
        2 => (ix(), ix()).prop_map(|(a, b)| Mutation::Duplicate(a, b)),
        4 => (ix(), prop_oneof![Just("("), Just(")"), Just("\""), Just("$1")])
            .prop_map(|(a, s)| Mutation::Insert(a, s)),
        2 => (ix(), ix(), ix(), ix()).prop_map(|(a, b, c, d)| Mutation::Swap(a, b, c, d)),
        1 => ix().prop_map(Mutation::Truncate),
    ]
}

/// A byte range `lo..hi` of a file of `len` bytes, at most 256 bytes long.
fn range(len: usize, at: &Index, size: &Index) -> (usize, usize) {
    let lo = if len == 0 { 0 } else { at.index(len + 1) };
    let hi = lo + size.index(257).min(len - lo);
    (lo, hi)
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len();
    match m {
        Mutation::Delete(a, b) => {
            let (lo, hi) = range(len, a, b);
            bytes.drain(lo..hi);
        }
        Mutation::Duplicate(a, b) => {
            let (lo, hi) = range(len, a, b);
            let copy = bytes[lo..hi].to_vec();
            bytes.splice(hi..hi, copy);
        }
        Mutation::Insert(a, s) => {
            let at = a.index(len + 1);
            bytes.splice(at..at, s.bytes());
        }
        Mutation::Swap(a, b, c, d) => {
            let (lo1, hi1) = range(len, a, b);
            let (lo2, hi2) = range(len, c, d);
            // Swap only when the ranges do not overlap; otherwise the edit does nothing.
            let ((lo1, hi1), (lo2, hi2)) = if lo1 <= lo2 {
                ((lo1, hi1), (lo2, hi2))
            } else {
                ((lo2, hi2), (lo1, hi1))
            };
            if hi1 <= lo2 {
                let mut out = bytes[..lo1].to_vec();
                out.extend_from_slice(&bytes[lo2..hi2]);
                out.extend_from_slice(&bytes[hi1..lo2]);
                out.extend_from_slice(&bytes[lo1..hi1]);
                out.extend_from_slice(&bytes[hi2..]);
                *bytes = out;
            }
        }
        Mutation::Truncate(a) => bytes.truncate(a.index(len + 1)),
    }
}

proptest! {
    // 48 cases of 3 files each: about 150 loads of real files.
    #![proptest_config(config(48))]

    #[test]
    fn mutated_rules_files_do_not_crash(
        picks in prop::collection::vec(
            (any::<Index>(), prop::collection::vec(mutation(), 1..5)),
            3,
        ),
    ) {
        let files = corpus();
        if files.is_empty() {
            println!("note: no .zrf files found to mutate");
            return Ok(());
        }
        for (pick, mutations) in &picks {
            let (path, original) = &files[pick.index(files.len())];
            let mut bytes = original.clone();
            for m in mutations {
                apply(&mut bytes, m);
            }
            check(&bytes).map_err(|e| {
                TestCaseError::fail(format!("{} after {mutations:?}: {e}", path.display()))
            })?;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Print, then read back.

/// A tree without spans, to compare what was printed with what was read.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Sym(String),
    Str(String),
    Int(i64),
    List(Vec<Shape>),
}

fn shape(node: &Sexp) -> Shape {
    match &node.kind {
        SexpKind::Sym(s) => Shape::Sym(s.to_string()),
        SexpKind::Str(s) => Shape::Str(s.to_string()),
        SexpKind::Int(n) => Shape::Int(*n),
        SexpKind::List(items) => Shape::List(items.iter().map(shape).collect()),
    }
}

fn sexp(kind: SexpKind) -> Sexp {
    Sexp {
        kind,
        span: Span::default(),
    }
}

/// Trees up to 6 lists deep: symbols that cannot read as integers, strings without `"`
/// (but with any other character, `;` and `(` included), and any `i64`.
fn tree() -> impl Strategy<Value = Sexp> {
    let leaf = prop_oneof![
        "[a-zA-Z?!*<>=_][a-zA-Z0-9?!*<>=_$.+-]{0,8}".prop_map(|s| sexp(SexpKind::Sym(s.into()))),
        "[^\"]{0,12}".prop_map(|s| sexp(SexpKind::Str(s.into()))),
        any::<i64>().prop_map(|n| sexp(SexpKind::Int(n))),
    ];
    leaf.prop_recursive(6, 96, 8, |inner| {
        prop::collection::vec(inner, 0..8).prop_map(|items| sexp(SexpKind::List(items)))
    })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn printed_trees_read_back_the_same(forms in prop::collection::vec(tree(), 1..4)) {
        let text = forms.iter().map(Sexp::to_string).collect::<Vec<_>>().join("\n");
        let (read, diags) = parse_file(FileId(0), &text);
        prop_assert!(diags.is_empty(), "{text:?} gave {diags:?}");
        let want: Vec<Shape> = forms.iter().map(shape).collect();
        let got: Vec<Shape> = read.iter().map(shape).collect();
        prop_assert_eq!(&got, &want, "text: {:?}", text);
        // Each node's span covers text that reads back as that node alone.
        let mut stack: Vec<&Sexp> = read.iter().collect();
        while let Some(node) = stack.pop() {
            let piece = &text[node.span.lo as usize..node.span.hi as usize];
            let (again, _) = parse_file(FileId(0), piece);
            prop_assert_eq!(again.iter().map(shape).collect::<Vec<_>>(), vec![shape(node)]);
            if let Some(items) = node.list() {
                stack.extend(items);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Known-hard inputs that random generation is unlikely to reach.

fn must_survive(cases: &[(&str, String)]) {
    for (name, text) in cases {
        if let Err(e) = check(text.as_bytes()) {
            panic!("{name}: {}", e.chars().take(3000).collect::<String>());
        }
    }
}

#[test]
fn deep_or_broken_text() {
    must_survive(&[
        ("deep parens", "(".repeat(100_000) + &")".repeat(100_000)),
        ("deep unclosed parens", "(".repeat(100_000)),
        ("many stray closes on many lines", ")\n".repeat(100_000)),
        (
            "unterminated string",
            "(game \"".to_string() + &"x".repeat(100_000),
        ),
        (
            "nul and control bytes",
            "(game\0(\x01title\x7f\"\0\")\r\x0b)".into(),
        ),
    ]);
}

#[test]
fn malformed_top_level_forms() {
    must_survive(&[
        (
            "empty forms",
            "() (()) (game ()) (variant ()) (define) (include)".into(),
        ),
        (
            "atoms at top",
            "game variant 1 \"s\" $1 define include".into(),
        ),
        (
            "variant before game",
            "(variant (title \"v\")) (game (title \"g\"))".into(),
        ),
        ("define inside game", "(game (define x y) (x))".into()),
        (
            "define with a list name",
            "(define (a) b) (game (a))".into(),
        ),
    ]);
}

#[test]
fn includes_that_cannot_work() {
    must_survive(&[
        ("self include", "(include \"fuzz.zrf\") (game)".into()),
        (
            "include a folder",
            "(include \"\") (include \"/\") (game)".into(),
        ),
        (
            "include with a list",
            "(include (\"prelude.zrf\")) (game)".into(),
        ),
        (
            "include twice",
            "(include \"prelude.zrf\") (include \"prelude.zrf\") (game)".into(),
        ),
        (
            "include inside a form",
            "(game (include \"prelude.zrf\") (include \"x.zrf\"))".into(),
        ),
    ]);
}

#[test]
fn recursive_macros() {
    must_survive(&[
        ("direct recursion", "(define a (a)) (game (a))".into()),
        ("splicing recursion", "(define a a (a)) (game (a))".into()),
        (
            "mutual recursion",
            "(define a (b $1)) (define b (a ($1))) (game (a x))".into(),
        ),
    ]);
}

/// Expansion stops at its node budget; then every later stage must cope with the stray `x`
/// forms that were made before it stopped.
#[test]
fn exponential_expansion() {
    let mut exp = String::from("(define m0 x)");
    for i in 1..40 {
        exp += &format!("(define m{i} (m{p}) (m{p}))", p = i - 1);
    }
    exp += "(game (m39))";
    must_survive(&[("exponential expansion", exp)]);
}

#[test]
fn nesting_built_by_macro_bodies() {
    // Each macro wraps the next call in 150 lists, so the tree passes the reader's depth
    // limit only once expanded.
    let mut deep = String::new();
    for i in 0..64 {
        let next = if i == 63 {
            "$1".to_string()
        } else {
            format!("(w{} $1)", i + 1)
        };
        deep += &format!(
            "(define w{i} {}{next}{})\n",
            "(".repeat(150),
            ")".repeat(150)
        );
    }
    deep += &format!("(game (w0 {}x{}))", "(".repeat(150), ")".repeat(150));
    must_survive(&[("nesting built by macro bodies", deep)]);
}

/// Arguments that grow 190 levels per call are refused at substitution, before copying them
/// could recurse past the stack.
#[test]
fn nesting_built_by_macro_arguments() {
    // Each call passes its argument on wrapped in 190 more lists, at the top of its body, so
    // the argument alone grows 190 levels per call before anything expands it.
    let mut args = String::new();
    for i in 0..64 {
        args += &format!(
            "(define a{i} (a{} {}$1{}))\n",
            i + 1,
            "(".repeat(190),
            ")".repeat(190)
        );
    }
    args += "(game (a0 x))";
    must_survive(&[("nesting built by macro arguments", args)]);
}

#[test]
fn arguments_that_double_each_call() {
    must_survive(&[(
        "argument doubled by each call",
        "(define a (a ($1 $1))) (game (a x))".into(),
    )]);
}

#[test]
fn pasting_long_arguments() {
    must_survive(&[(
        "pasting long arguments",
        format!(
            "(define p $1$1$1$1$1$1$1$1) (define q (p (p $1))) (game (q {}))",
            "y".repeat(10_000)
        ),
    )]);
}

/// Lines too long to show are left out of rendered diagnostics, so many errors on one long
/// line render quickly.
#[test]
fn many_errors_on_one_line_render_quickly() {
    let text = ")".repeat(100_000);
    if let Err(e) = check(text.as_bytes()) {
        panic!("{}", e.chars().take(300).collect::<String>());
    }
}

/// A loader that serves one small file under any name, counting how often it is read.
struct Repeating(std::cell::Cell<usize>);

impl zrf::expand::Loader for Repeating {
    fn load(&self, _path: &str) -> Option<Vec<u8>> {
        self.0.set(self.0.get() + 1);
        // 1 MiB less a byte: a comment (cheap to read even in a debug build).
        let mut text = vec![b'x'; (1 << 20) - 1];
        text[0] = b';';
        Some(text)
    }
}

/// Including the same file again and again (no cycle, no nesting) stops at 16 MiB of
/// included text in all, with an error on each include past the limit.
#[test]
fn includes_stop_at_16_mib_in_all() {
    let text = "(include \"one.zrf\")\n".repeat(40) + "(game (title \"x\") (players A B))";
    let loader = Repeating(std::cell::Cell::new(0));
    let loaded = zrf::load("main.zrf", text.as_bytes(), &loader);
    let refused: Vec<_> = loaded
        .diags
        .iter()
        .filter(|d| d.message == "cannot include `one.zrf`")
        .collect();
    // Each file is 1 MiB less a byte, so sixteen fit and the other 24 do not.
    assert_eq!(refused.len(), 24, "{:?}", loaded.diags.first());
    assert_eq!(loader.0.get(), 40);
}

/// Found by the `play_never_panics` fuzz target: a piece declared a second time with an
/// attribute the first declaration lacks panicked (the attribute was never registered). It
/// loads now, with the warning about the second declaration.
#[test]
fn a_piece_declared_twice_with_a_new_attribute() {
    let text = r#"(game (title "T") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b" (1 0)) ("2/1" (0 1))) (directions (n 0 -1))))
  (piece (name P) (moves (n add)))
  (piece (name P) (attribute moved false) (moves (n add))))"#;
    must_survive(&[("a piece declared twice", text.to_string())]);
    let (_, diags) = zrf::check_source("t.zrf", text.as_bytes(), &NoFiles);
    assert!(!zrf::diagnostic::has_errors(&diags), "{diags:?}");
    assert!(
        diags
            .iter()
            .any(|d| d.message == "piece `P` is declared twice"),
        "{diags:?}"
    );
}

/// A `$N` with a number near the largest a machine word holds, in a macro called with one
/// argument: the warning names a few missing arguments instead of allocating for all of them
/// (this aborted with a failed allocation of exabytes).
#[test]
fn a_parameter_number_near_the_word_limit() {
    let text = "(define m (x $1 $4490396469423802272)) (game (title \"T\") (m a))";
    must_survive(&[("huge parameter number", text.to_string())]);
    let (_, diags) = zrf::check_source("huge.zrf", text.as_bytes(), &zrf::expand::NoFiles);
    let warning = diags
        .iter()
        .find(|d| d.message.contains("takes 4490396469423802272 arguments"))
        .expect("the arity warning");
    assert!(
        warning.notes[0].starts_with("`$2`, `$3`")
            && warning.notes[0].contains("... `$4490396469423802272`"),
        "{:?}",
        warning.notes
    );
}
