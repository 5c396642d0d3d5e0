//! `zrf lsp` driven as an editor drives it: a client here speaks JSON-RPC with LSP's
//! `Content-Length` framing over the server's standard input and output, with the messages
//! of `lsp-types`. Each step asserts what an author would see.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use lsp_types::*;
use serde_json::{json, Value};

mod common;

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for a response.
    notes: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zrf"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("zrf lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = 0usize;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        len = n.parse().expect("a length");
                    }
                }
                let mut body = vec![0; len];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                let v: Value = serde_json::from_slice(&body).expect("JSON from the server");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let mut c = Client {
            child,
            stdin,
            incoming: rx,
            next_id: 0,
            notes: Vec::new(),
        };
        let init = c.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        assert!(init["result"]["capabilities"]["hoverProvider"] == json!(true));
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, v: Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn recv(&mut self) -> Value {
        self.incoming
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// Writes bytes as they are, framing and all.
    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The next message that is not a notification.
    fn response(&mut self) -> Value {
        loop {
            let v = self.recv();
            if v.get("method").is_none() {
                return v;
            }
            self.notes.push(v);
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its whole response (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let v = self.recv();
            if v.get("id") == Some(&json!(id)) && v.get("method").is_none() {
                return v;
            }
            self.notes.push(v);
        }
    }

    fn result<T: serde::de::DeserializeOwned>(&mut self, method: &str, params: Value) -> T {
        let v = self.request(method, params);
        assert!(v.get("error").is_none(), "{method}: {v}");
        serde_json::from_value(v["result"].clone()).expect("a well-formed result")
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &Uri) -> Vec<Diagnostic> {
        let pos = self.notes.iter().position(|n| is_diags_for(n, uri));
        let note = match pos {
            Some(i) => self.notes.remove(i),
            None => loop {
                let v = self.recv();
                if is_diags_for(&v, uri) {
                    break v;
                }
                self.notes.push(v);
            },
        };
        let p: PublishDiagnosticsParams =
            serde_json::from_value(note["params"].clone()).expect("diagnostics");
        p.diagnostics
    }

    /// The diagnostics published for `uri`, waiting (and skipping earlier lists) until they
    /// satisfy `want`.
    fn diagnostics_until(
        &mut self,
        uri: &Uri,
        want: impl Fn(&[Diagnostic]) -> bool,
    ) -> Vec<Diagnostic> {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let mut last = None;
        while std::time::Instant::now() < deadline {
            let pos = self.notes.iter().position(|n| is_diags_for(n, uri));
            let note = match pos {
                Some(i) => self.notes.remove(i),
                None => match self.incoming.recv_timeout(Duration::from_secs(1)) {
                    Ok(v) if is_diags_for(&v, uri) => v,
                    Ok(v) => {
                        self.notes.push(v);
                        continue;
                    }
                    Err(_) => continue,
                },
            };
            let p: PublishDiagnosticsParams =
                serde_json::from_value(note["params"].clone()).expect("diagnostics");
            if want(&p.diagnostics) {
                return p.diagnostics;
            }
            last = Some(p.diagnostics);
        }
        panic!(
            "no diagnostics as wanted for {}; last: {last:?}",
            uri.as_str()
        )
    }

    fn open(&mut self, uri: &Uri, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri.as_str(), "languageId": "zrf", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &Uri, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri.as_str(), "version": version}, "contentChanges": [{"text": text}]}),
        );
    }
}

fn is_diags_for(v: &Value, uri: &Uri) -> bool {
    v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri.as_str()
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uri_of(path: &std::path::Path) -> Uri {
    Uri::from_str(&format!("file://{}", path.display())).expect("a URI")
}

const MOVES: &str = "; Steps of one square.\n(define step ($1 (verify empty?) add))\n(define hop ($1 $1 (verify emty?) add))\n";

const GAME: &str = r#"(include "moves.zrf")
(game
  (title "Mini")
  (players White Black)
  (turn-order White Blak)
  (board
    (grid
      (start-rectangle 0 0 50 50)
      (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
      (directions (n 0 -1) (s 0 1))))
  (board-setup (White (Pawn a1 b1)) (Black (Pawn a3 c3)))
  (piece (name Pawn) (moves (step n) (step s)))
  (loss-condition (White Black) stalemated))
"#;

/// The LSP position of the `nth` occurrence of `needle` in `text`, plus `shift` characters.
fn pos_of(text: &str, needle: &str, nth: usize, shift: u32) -> Position {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .map(|(i, _)| i)
        .expect("the needle");
    let line = text[..at].matches('\n').count() as u32;
    let col = (at - text[..at].rfind('\n').map_or(0, |i| i + 1)) as u32;
    Position::new(line, col + shift)
}

fn at(uri: &Uri, p: Position) -> Value {
    json!({"textDocument": {"uri": uri.as_str()}, "position": p})
}

#[test]
// `WorkspaceEdit::changes` is keyed by `Uri`, which clippy sees as mutable.
#[allow(clippy::mutable_key_type)]
fn an_editor_session() {
    let dir = common::TempDir::new("lsp");
    let moves_path = dir.write("moves.zrf", MOVES);
    let game_path = dir.write("mini.zrf", GAME);
    let uri = uri_of(&game_path);
    let moves_uri = uri_of(&moves_path);
    let mut c = Client::start();

    // An unknown player: the diagnostic covers the misspelt name.
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri.as_str(), "languageId": "zrf", "version": 1, "text": GAME}}),
    );
    let diags = c.diagnostics(&uri);
    let bad = diags
        .iter()
        .find(|d| d.severity == Some(DiagnosticSeverity::ERROR))
        .unwrap_or_else(|| panic!("an error: {diags:?}"));
    assert!(bad.message.contains("Blak"), "{}", bad.message);
    let start = pos_of(GAME, "Blak", 0, 0);
    assert_eq!(
        bad.range,
        Range::new(start, Position::new(start.line, start.character + 4))
    );
    assert!(
        bad.message.contains("help: did you mean `Black`?"),
        "{}",
        bad.message
    );

    // A misspelt condition inside an included macro: shown at the use, with the macro's
    // definition and the use as related information.
    let through_macro = GAME.replace("Blak", "Black").replace("(step s)", "(hop s)");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri.as_str(), "version": 2}, "contentChanges": [{"text": through_macro}]}),
    );
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert!(d.message.contains("emty?"), "{}", d.message);
    let start = pos_of(&through_macro, "(hop s)", 0, 0);
    assert_eq!(d.range.start, start, "{d:?}");
    let related = d.related_information.as_ref().expect("related information");
    assert!(
        related
            .iter()
            .any(|r| r.location.uri == moves_uri && r.message.contains("definition of `hop`")),
        "{related:?}"
    );
    assert!(related
        .iter()
        .any(|r| r.location.uri == uri && r.message.contains("use of `hop`")));

    // Fixed: the diagnostics are cleared.
    let fixed = GAME.replace("Blak", "Black");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri.as_str(), "version": 3}, "contentChanges": [{"text": fixed}]}),
    );
    let diags = c.diagnostics(&uri);
    assert!(diags.is_empty(), "{diags:?}");

    // Go to the macro, defined in the included file.
    let locs: GotoDefinitionResponse = c.result(
        "textDocument/definition",
        at(&uri, pos_of(&fixed, "(step n)", 0, 2)),
    );
    let GotoDefinitionResponse::Array(locs) = locs else {
        panic!("an array of locations")
    };
    assert_eq!(locs.len(), 1);
    assert_eq!(locs[0].uri, moves_uri);
    let def_at = pos_of(MOVES, "step", 0, 0);
    assert_eq!(
        locs[0].range,
        Range::new(def_at, Position::new(def_at.line, def_at.character + 4))
    );

    // References: the definition and both uses.
    let refs: Vec<Location> = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": uri.as_str()}, "position": pos_of(&fixed, "(step s)", 0, 2), "context": {"includeDeclaration": true}}),
    );
    assert_eq!(refs.len(), 3);

    // Hover a piece: zrf check's line for it.
    let hover: Hover = c.result("textDocument/hover", at(&uri, pos_of(&fixed, "Pawn", 0, 1)));
    let HoverContents::Markup(m) = hover.contents else {
        panic!("markup")
    };
    assert!(m.value.contains("**piece** `Pawn`"), "{}", m.value);
    assert!(m.value.contains("Pawn: 2 move block(s)"), "{}", m.value);

    // Hover a macro use: its text and its expansion there.
    let hover: Hover = c.result(
        "textDocument/hover",
        at(&uri, pos_of(&fixed, "(step n)", 0, 2)),
    );
    let HoverContents::Markup(m) = hover.contents else {
        panic!("markup")
    };
    assert!(
        m.value.contains("(define step ($1 (verify empty?) add))"),
        "{}",
        m.value
    );
    assert!(
        m.value
            .contains("expands here to:\n```zrf\n(n (verify empty?) add)\n```"),
        "{}",
        m.value
    );

    // Complete a direction inside a macro call.
    let items: CompletionResponse = c.result(
        "textDocument/completion",
        at(&uri, pos_of(&fixed, "(step s)", 0, 6)),
    );
    let CompletionResponse::Array(items) = items else {
        panic!("an array")
    };
    let s = items.iter().find(|i| i.label == "s").unwrap_or_else(|| {
        panic!(
            "`s` offered: {:?}",
            items.iter().map(|i| &i.label).collect::<Vec<_>>()
        )
    });
    assert_eq!(s.detail.as_deref(), Some("direction"));
    // After a `(` in a piece: its keywords and the macros, with placeholders.
    let items: CompletionResponse = c.result(
        "textDocument/completion",
        at(&uri, pos_of(&fixed, "(moves", 0, 1)),
    );
    let CompletionResponse::Array(items) = items else {
        panic!("an array")
    };
    assert!(items.iter().any(|i| i.label == "moves"));
    let step = items.iter().find(|i| i.label == "step").expect("the macro");
    assert_eq!(step.insert_text.as_deref(), Some("step ${1:$1}"));

    // Rename the macro: its definition in the include and both uses.
    let edit: WorkspaceEdit = c.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri.as_str()}, "position": pos_of(&fixed, "(step n)", 0, 1), "newName": "walk"}),
    );
    let changes = edit.changes.expect("changes");
    assert_eq!(changes[&uri].len(), 2);
    assert_eq!(changes[&moves_uri].len(), 1);
    assert!(changes.values().flatten().all(|e| e.new_text == "walk"));

    // Outline, highlighting, lenses.
    let syms: DocumentSymbolResponse = c.result(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    let DocumentSymbolResponse::Nested(syms) = syms else {
        panic!("nested symbols")
    };
    assert_eq!(syms[0].name, "Mini");
    assert_eq!(
        syms[0].children.as_ref().map(|c| c[0].name.as_str()),
        Some("Pawn")
    );
    let toks: SemanticTokensResult = c.result(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    let SemanticTokensResult::Tokens(toks) = toks else {
        panic!("tokens")
    };
    assert!(toks.data.len() > 40);
    let lenses: Vec<CodeLens> = c.result(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    let perft = lenses
        .iter()
        .filter_map(|l| l.command.clone())
        .find(|c| c.command == "zrf.perft")
        .expect("a perft lens");
    let out: String = c.result(
        "workspace/executeCommand",
        json!({"command": perft.command, "arguments": perft.arguments}),
    );
    // By hand: White's two pawns step up; Black then has 1 reply to a1-a2 and 2 to b1-b2;
    // White then has 2, 2 and 3 moves.
    assert!(out.ends_with("\n1 2\n2 3\n3 7"), "{out}");

    // Format: the whole text replaced by `zrf fmt`'s layout.
    let edits: Vec<TextEdit> = c.result(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri.as_str()}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(edits.len(), 1);
    assert_eq!(
        edits[0].new_text,
        zrf::format::format(&fixed).expect("formats")
    );

    // Every prefix of the file, as if typed, with a hover, a completion and tokens at its end:
    // answered, whatever the text.
    for (version, cut) in (0..fixed.len()).step_by(23).enumerate() {
        let typed = &fixed[..cut];
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri.as_str(), "version": 10 + version}, "contentChanges": [{"text": typed}]}),
        );
        let end = pos_of(&format!("{typed}\u{1}"), "\u{1}", 0, 0);
        for method in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
        ] {
            let v = c.request(method, at(&uri, end));
            assert!(v.get("error").is_none(), "{method} at {cut}: {v}");
        }
        let v = c.request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri.as_str()}}),
        );
        assert!(v.get("error").is_none(), "tokens at {cut}: {v}");
    }

    // Nonsense is refused and the server goes on.
    let v = c.request("textDocument/hover", json!({"bogus": 1}));
    assert!(v.get("error").is_some(), "{v}");
    let v = c.request("textDocument/hover", at(&uri, Position::new(9999, 9999)));
    assert!(v.get("error").is_none(), "{v}");

    let v = c.request("shutdown", Value::Null);
    assert!(v.get("error").is_none());
    c.notify("exit", Value::Null);
    let status = c.child.wait().expect("exits");
    assert!(status.success());
}

/// The VS Code package: its JSON files are valid, the grammar is the one the package names,
/// and its keywords cover the forms the shipped games write inside `game`, `board`, `grid`,
/// `piece` and `zone`.
#[test]
fn the_editor_package_is_consistent() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode");
    let read = |p: &str| -> Value {
        let text = std::fs::read_to_string(root.join(p)).expect("the file");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    let package = read("package.json");
    read("language-configuration.json");
    let grammar_entry = &package["contributes"]["grammars"][0];
    let grammar = read(grammar_entry["path"].as_str().expect("a path"));
    assert_eq!(grammar["scopeName"], grammar_entry["scopeName"]);
    let exts = &package["contributes"]["languages"][0]["extensions"];
    assert_eq!(exts, &json!([".zrf", ".tests"]));
    let pattern = grammar["repository"]["atom"]["patterns"][0]["match"]
        .as_str()
        .expect("the keyword pattern");
    let alternation = pattern
        .split_once("\\s*(")
        .and_then(|(_, r)| r.split_once(")(?="))
        .map(|(a, _)| a)
        .expect("an alternation");
    let keywords: Vec<&str> = alternation.split('|').collect();
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut missing = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(games).expect("games").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "zrf") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a game");
        let (forms, _) = zrf::syntax::parse_file(zrf::source::FileId(0), &text);
        let mut stack: Vec<&zrf::syntax::Sexp> = forms.iter().collect();
        while let Some(f) = stack.pop() {
            let Some(items) = f.list() else { continue };
            if matches!(f.head(), Some("game" | "board" | "grid" | "piece" | "zone")) {
                for child in &items[1..] {
                    if let Some(h) = child.head() {
                        if !keywords.contains(&h) && h.chars().any(|c| c.is_ascii_lowercase()) {
                            missing.insert(h.to_string());
                        }
                    }
                }
            }
            stack.extend(items);
        }
    }
    // Macro calls written in these forms are names of the game's own, not keywords.
    missing.retain(|h| !text_defines(h));
    assert!(
        missing.is_empty(),
        "keywords the grammar lacks: {missing:?}"
    );
}

/// True when a shipped game or the standard library defines a macro of this name.
fn text_defines(name: &str) -> bool {
    let needle = format!("(define {name}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    ["games", "stdlib"].iter().any(|d| {
        std::fs::read_dir(root.join(d))
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains(&needle)))
    })
}

/// The range of the `nth` occurrence of `needle` in `text`.
fn range_of(text: &str, needle: &str, nth: usize) -> Range {
    let start = pos_of(text, needle, nth, 0);
    assert!(!needle.contains('\n'));
    let len = needle.encode_utf16().count() as u32;
    Range::new(start, Position::new(start.line, start.character + len))
}

/// A problem inside an included file is shown in that file at its place (read from disk, or
/// the editor's unsaved text when the file is open), with the including file's `include`
/// form as related information, and briefly at that `include` form; fixed, both are cleared.
#[test]
fn diagnostics_in_an_included_file_are_shown_there() {
    let dir = common::TempDir::new("lsp-include");
    let broken = "(define step ($1 (verify empty?) add))\n(define hop ($1 $1 add)))\n";
    let moves_path = dir.write("moves.zrf", broken);
    let fixed = GAME.replace("Blak", "Black");
    let game_path = dir.write("mini.zrf", &fixed);
    let (uri, moves_uri) = (uri_of(&game_path), uri_of(&moves_path));
    let include = range_of(&fixed, "(include \"moves.zrf\")", 0);
    let mut c = Client::start();

    // From disk: the stray `)` at line 2, column 25 of moves.zrf.
    c.open(&uri, &fixed);
    let there = c.diagnostics_until(&moves_uri, |d| !d.is_empty());
    assert_eq!(there.len(), 1, "{there:?}");
    assert!(there[0].message.contains("unexpected `)`"), "{there:?}");
    assert_eq!(
        there[0].range,
        Range::new(Position::new(1, 24), Position::new(1, 25))
    );
    let related = there[0].related_information.as_ref().expect("related");
    assert_eq!(related[0].location.uri, uri);
    assert_eq!(related[0].location.range, include);
    assert!(related[0].message.contains("included here"), "{related:?}");
    let here = c.diagnostics_until(&uri, |d| !d.is_empty());
    assert_eq!(here.len(), 1, "{here:?}");
    assert_eq!(here[0].range, include);
    assert_eq!(here[0].severity, Some(DiagnosticSeverity::ERROR));
    assert!(
        here[0].message.contains("moves.zrf:2:25: unexpected `)`"),
        "{}",
        here[0].message
    );
    let to = here[0].related_information.as_ref().expect("related");
    assert_eq!(to[0].location.uri, moves_uri);
    assert_eq!(to[0].location.range, there[0].range);

    // The include opened in the editor and fixed there, unsaved: both are cleared.
    let good = broken.replace("add)))", "add))");
    c.open(&moves_uri, &good);
    c.diagnostics_until(&moves_uri, |d| d.is_empty());
    c.diagnostics_until(&uri, |d| d.is_empty());

    // A new mistake typed in the include (unsaved): an unknown piece in a game written there.
    let typed = format!("{good}(define extra (foo))\n(define z ($1 (\n");
    c.change(&moves_uri, 2, &typed);
    let there = c.diagnostics_until(&moves_uri, |d| !d.is_empty());
    assert!(there.iter().all(|d| d.range.start.line == 3), "{there:?}");
    let here = c.diagnostics_until(&uri, |d| !d.is_empty());
    assert!(here.iter().all(|d| d.range == include), "{here:?}");
    assert!(here[0].message.contains("moves.zrf:4:"), "{here:?}");

    // Closed unsaved: the file on disk is read again, with its own mistake.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": moves_uri.as_str()}}),
    );
    let there = c.diagnostics_until(&moves_uri, |d| {
        d.len() == 1 && d[0].range.start == Position::new(1, 24)
    });
    assert_eq!(there[0].range.end, Position::new(1, 25));
    c.diagnostics_until(&uri, |d| {
        d.len() == 1 && d[0].message.contains("moves.zrf:2:25")
    });

    // Fixed on disk and the game edited: cleared everywhere.
    std::fs::write(&moves_path, &good).expect("write");
    c.change(&uri, 2, &format!("{fixed}\n"));
    c.diagnostics_until(&uri, |d| d.is_empty());
    c.diagnostics_until(&moves_uri, |d| d.is_empty());
}

/// Two open games include one file of macros: find references and rename of a macro reach
/// both games and the include (open with unsaved text); a piece is renamed in its game; a
/// macro of the built-in library is refused with a reason, and nothing is edited.
#[test]
#[allow(clippy::mutable_key_type)]
fn rename_reaches_every_open_game_but_never_the_library() {
    let dir = common::TempDir::new("lsp-rename");
    let moves_path = dir.write("moves.zrf", MOVES);
    let fixed = GAME.replace("Blak", "Black").replace("(step s)", "(hop s)");
    let mini_path = dir.write("mini.zrf", &fixed);
    let other = format!(
        "(include \"chess-pieces.zrf\")\n{}",
        fixed
            .replace("\"Mini\"", "\"Other\"")
            .replace("(step n) (hop s)", "(step n) (step s) (slide n)")
    );
    let other_path = dir.write("other.zrf", &other);
    let lone = GAME.replace("(include \"moves.zrf\")", "(define step ($1 add))");
    let lone_path = dir.write("lone.zrf", &lone);
    let uris = [&mini_path, &other_path, &moves_path, &lone_path].map(|p| uri_of(p));
    let [mini, other_uri, moves, lone_uri] = &uris;
    let mut c = Client::start();
    c.open(mini, &fixed);
    c.open(other_uri, &other);
    // The include open with an unsaved change above the macros: places move with it.
    let unsaved = format!(";; edited\n{MOVES}");
    c.open(moves, &unsaved);
    // A game with a macro of the same name of its own: not the same macro.
    c.open(lone_uri, &lone);

    let refs: Vec<Location> = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": mini.as_str()}, "position": pos_of(&fixed, "(step n)", 0, 2), "context": {"includeDeclaration": true}}),
    );
    let count = |uri: &Uri| refs.iter().filter(|l| &l.uri == uri).count();
    assert_eq!(
        (count(mini), count(other_uri), count(moves), count(lone_uri)),
        (1, 2, 1, 0),
        "{refs:?}"
    );
    let def = refs
        .iter()
        .find(|l| &l.uri == moves)
        .expect("the definition");
    assert_eq!(def.range, range_of(&unsaved, "step", 0));

    let edit: WorkspaceEdit = c.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": other_uri.as_str()}, "position": pos_of(&other, "(step s)", 0, 3), "newName": "walk"}),
    );
    let changes = edit.changes.expect("changes");
    assert_eq!(changes.len(), 3, "{changes:?}");
    assert_eq!(
        changes[mini],
        vec![TextEdit {
            range: range_of(&fixed, "step", 0),
            new_text: "walk".into()
        }]
    );
    assert_eq!(changes[other_uri].len(), 2);
    assert_eq!(changes[other_uri][1].range, range_of(&other, "step", 1));
    assert_eq!(changes[moves][0].range, range_of(&unsaved, "step", 0));

    // A piece: its declaration and its uses in the board setup.
    let edit: WorkspaceEdit = c.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": mini.as_str()}, "position": pos_of(&fixed, "Pawn", 1, 0), "newName": "Man"}),
    );
    let changes = edit.changes.expect("changes");
    let mut got: Vec<Range> = changes[mini].iter().map(|e| e.range).collect();
    got.sort_by_key(|r| (r.start.line, r.start.character));
    let want: Vec<Range> = (0..3).map(|i| range_of(&fixed, "Pawn", i)).collect();
    assert_eq!(got, want);
    assert_eq!(changes.len(), 1, "only this game: {changes:?}");

    // The library's `slide`: refused, with the reason.
    let v = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": other_uri.as_str()}, "position": pos_of(&other, "(slide n)", 0, 2), "newName": "glide"}),
    );
    let message = v["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("an error: {v}"));
    assert!(
        message.contains("`slide` is declared in the built-in library (chess-pieces.zrf)"),
        "{message}"
    );
    // Asked before the editor prompts for the new name: refused the same way.
    let v = c.request(
        "textDocument/prepareRename",
        at(other_uri, pos_of(&other, "(slide n)", 0, 2)),
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("built-in library")),
        "{v}"
    );
    let v: Value = c.result(
        "textDocument/prepareRename",
        at(other_uri, pos_of(&other, "(step s)", 0, 2)),
    );
    assert_eq!(
        serde_json::from_value::<Range>(v).expect("a range"),
        range_of(&other, "step", 1)
    );
    // Its references still include the library's declaration, for reading.
    let refs: Vec<Location> = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": other_uri.as_str()}, "position": pos_of(&other, "(slide n)", 0, 2), "context": {"includeDeclaration": true}}),
    );
    assert!(
        refs.iter()
            .any(|l| l.uri.as_str().ends_with("/chess-pieces.zrf")),
        "{refs:?}"
    );
    assert!(refs.iter().any(|l| &l.uri == other_uri), "{refs:?}");
}

/// Nothing a client sends stops the server or makes it hang: malformed frames and messages
/// are answered with JSON-RPC errors, positions past the end of a line or of the file are
/// answered, a file over the size limit and one nested too deeply are reported, and the
/// server answers afterwards and shuts down cleanly.
#[test]
fn nothing_a_client_sends_stops_the_server() {
    let dir = common::TempDir::new("lsp-robust");
    let fixed = GAME.replace("Blak", "Black");
    let path = dir.write("mini.zrf", &fixed);
    dir.write("moves.zrf", MOVES);
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.open(&uri, &fixed);

    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    c.send_raw(frame("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ").as_bytes());
    let v = c.response();
    assert_eq!(v["error"]["code"], json!(-32700), "{v}");
    assert_eq!(v["id"], Value::Null);
    c.send_raw(frame(r#"{"jsonrpc": "2.0", "id": 41, "params": {}}"#).as_bytes());
    let v = c.response();
    assert_eq!(
        (v["id"].clone(), v["error"]["code"].clone()),
        (json!(41), json!(-32600)),
        "{v}"
    );
    c.send_raw(b"Content-Length: lots\r\n\r\n");
    let v = c.response();
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("`lots`")),
        "{v}"
    );
    // A length over the limit: the body is skipped, not kept.
    let huge = 65 << 20;
    c.send_raw(format!("Content-Length: {huge}\r\n\r\n").as_bytes());
    c.send_raw(&vec![b' '; huge]);
    let v = c.response();
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("over the limit")),
        "{v}"
    );
    let v = c.request("textDocument/frobnicate", json!({}));
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("does not answer")),
        "{v}"
    );
    let v = c.request("textDocument/hover", json!({"textDocument": {"uri": 5}}));
    assert!(v.get("error").is_some(), "{v}");
    let v = c.request(
        "textDocument/hover",
        at(
            &"file:///nowhere.zrf".parse().expect("uri"),
            Position::new(0, 0),
        ),
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("not open")),
        "{v}"
    );

    // Past the end of a line, of the last line, and of the file: answered.
    let last = fixed.lines().count() as u32;
    for p in [
        Position::new(0, 500),
        Position::new(last, 3),
        Position::new(u32::MAX, u32::MAX),
    ] {
        for method in [
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/completion",
            "textDocument/prepareRename",
        ] {
            let v = c.request(method, at(&uri, p));
            assert!(v.get("error").is_none(), "{method} at {p:?}: {v}");
        }
        let v = c.request(
            "textDocument/references",
            json!({"textDocument": {"uri": uri.as_str()}, "position": p, "context": {"includeDeclaration": true}}),
        );
        assert_eq!(v["result"], json!([]), "{v}");
        let v = c.request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri.as_str()}, "position": p, "newName": "x"}),
        );
        assert!(v.get("error").is_none(), "{v}");
    }

    // A file over the size limit: one diagnostic, and requests refused with the reason.
    let big_uri = uri_of(&dir.0.join("big.zrf"));
    let big = format!("{fixed}{}", "; padding\n".repeat(900_000));
    c.open(&big_uri, &big);
    let d = c.diagnostics_until(&big_uri, |d| !d.is_empty());
    assert!(d[0].message.contains("too large to analyse"), "{d:?}");
    let v = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": big_uri.as_str()}}),
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("too large")),
        "{v}"
    );
    // Nested beyond the library's limit: reported, and every request answered.
    let deep_uri = uri_of(&dir.0.join("deep.zrf"));
    let deep = format!("{}{}", "(".repeat(100_000), ")".repeat(100_000));
    c.open(&deep_uri, &deep);
    let d = c.diagnostics_until(&deep_uri, |d| !d.is_empty());
    assert!(
        d.iter().any(|d| d.message.contains("nested too deeply")),
        "{d:?}"
    );
    for method in [
        "textDocument/semanticTokens/full",
        "textDocument/formatting",
        "textDocument/documentSymbol",
        "textDocument/codeLens",
    ] {
        let v = c.request(method, json!({"textDocument": {"uri": deep_uri.as_str()}, "options": {"tabSize": 2, "insertSpaces": true}}));
        assert!(v.get("result").is_some() || v.get("error").is_some(), "{v}");
    }
    let v = c.request(
        "textDocument/hover",
        at(&deep_uri, Position::new(0, 50_000)),
    );
    assert!(v.get("error").is_none(), "{v}");

    // A burst of perft commands: a few run, the rest are refused until one ends, instead of
    // starting a thread each. Ko shogi's perft 3 (327,288 leaves) takes long enough, even in a
    // release build, for the burst to arrive while the first four run (the file's default variant,
    // Little Ko Shogi).
    let ko_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/dagaz/shogi/ko-shogi.zrf");
    let ko = std::fs::read_to_string(&ko_path).expect("ko shogi");
    let ko_uri = uri_of(&ko_path);
    c.open(&ko_uri, &ko);
    let first = c.next_id + 1;
    for _ in 0..12 {
        c.next_id += 1;
        let id = c.next_id;
        c.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "workspace/executeCommand",
            "params": {"command": "zrf.perft", "arguments": [ko_uri.as_str(), "Little Ko Shogi (13x13)"]}}),
        );
    }
    let (mut ran, mut refused) = (0, 0);
    while ran + refused < 12 {
        let v = c.response();
        let id = v["id"].as_i64().expect("an id");
        assert!((first..first + 12).contains(&id), "{v}");
        match v["result"].as_str() {
            Some(out) => {
                assert!(out.ends_with("\n1 67\n2 4475\n3 327288"), "{out}");
                ran += 1;
            }
            None => {
                let m = v["error"]["message"].as_str().unwrap_or_default();
                assert!(m.contains("4 commands are running already"), "{v}");
                refused += 1;
            }
        }
    }
    assert!(ran >= 4 && refused >= 1, "{ran} ran, {refused} refused");

    // Still serving: a hover on the game, then a clean shutdown.
    let hover: Hover = c.result("textDocument/hover", at(&uri, pos_of(&fixed, "Pawn", 0, 1)));
    assert!(format!("{hover:?}").contains("Pawn"));
    let v = c.request("shutdown", Value::Null);
    assert!(v.get("error").is_none(), "{v}");
    c.notify("exit", Value::Null);
    assert!(c.child.wait().expect("exits").success());
}

/// A request right after a change analyses the text at once; the diagnostics of that
/// analysis are published too (not lost because the pause never came).
#[test]
fn a_request_before_the_pause_still_brings_the_diagnostics() {
    let dir = common::TempDir::new("lsp-early");
    dir.write("moves.zrf", MOVES);
    let path = dir.write("mini.zrf", GAME);
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.open(&uri, GAME);
    let v = c.request("textDocument/hover", at(&uri, pos_of(GAME, "Pawn", 0, 1)));
    assert!(v["result"]["contents"]["value"]
        .as_str()
        .is_some_and(|s| s.contains("Pawn")));
    let d = c.diagnostics_until(&uri, |d| !d.is_empty());
    assert_eq!(d[0].range, range_of(GAME, "Blak", 0));
    let fixed = GAME.replace("Blak", "Black");
    c.change(&uri, 2, &fixed);
    let v = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    assert_eq!(v["result"][0]["name"], json!("Mini"), "{v}");
    c.diagnostics_until(&uri, |d| d.is_empty());
}

/// A game with every kind of name, including the library's chess pieces.
const KINDS: &str = r#"(include "chess-pieces.zrf")
(define step ($1 (verify empty?) add))
(game
  (title "Kinds")
  (players White Black)
  (turn-order White Black)
  (board
    (grid
      (start-rectangle 0 0 50 50)
      (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
      (directions (n 0 -1) (s 0 1) (e 1 0)))
    (symmetry Black (n s))
    (zone (name goal) (players White) (positions a3 b3 c3))
    (zone (name goal) (players Black) (positions a1 b1 c1)))
  (board-setup (White (Pawn a1 b1)) (Black (Pawn a3 c3)))
  (piece
    (name Pawn)
    (attribute fresh true)
    (moves
      ((verify fresh) (set-flag moved true) n (verify empty?) (if (in-zone? goal) (set-attribute fresh false)) add)
      (step e)
      (slide n)))
  (win-condition (White Black) (absolute-config Pawn (goal))))

(variant (title "Kinds 2"))
"#;

/// Definition, hover, completion, highlighting, outline and lenses on every kind of name the
/// issue lists: macros (the game's and the library's), pieces, directions, zones, positions,
/// players, attributes and flags; the lenses' commands run; a tests file's lens runs it.
#[test]
fn every_kind_of_name() {
    let dir = common::TempDir::new("lsp-kinds");
    let path = dir.write("kinds.zrf", KINDS);
    let tests = "(test \"the game goes on at the start\"\n  (expect-result \"ongoing\"))\n(test \"a wrong claim\"\n  (expect-result \"draw\"))\n";
    let tests_path = dir.write("kinds.tests", tests);
    let uri = uri_of(&path);
    let mut c = Client::start();
    c.open(&uri, KINDS);
    let here = |needle: &str, nth: usize| range_of(KINDS, needle, nth);

    // Definitions: (cursor, nth, shift) -> the declarations in this file.
    let cases: &[(&str, usize, u32, &[Range])] = &[
        ("goal)", 0, 1, &[here("goal", 0), here("goal", 1)]),
        ("fresh false", 0, 0, &[here("fresh", 0)]),
        ("moved", 0, 1, &[here("moved", 0)]),
        ("White (Pawn", 0, 0, &[here("White", 0), here("White", 2)]),
        (" n (verify", 0, 1, &[here("n", 8)]),
        ("(step e)", 0, 2, &[here("step", 0)]),
    ];
    for &(needle, nth, shift, want) in cases {
        let v: GotoDefinitionResponse = c.result(
            "textDocument/definition",
            at(&uri, pos_of(KINDS, needle, nth, shift)),
        );
        let GotoDefinitionResponse::Array(locs) = v else {
            panic!("locations")
        };
        let got: Vec<Range> = locs.iter().map(|l| l.range).collect();
        assert_eq!(got, want, "{needle}");
        assert!(locs.iter().all(|l| l.uri == uri));
    }
    // A grid position is declared by the grid's dimensions.
    let v: GotoDefinitionResponse = c.result(
        "textDocument/definition",
        at(&uri, pos_of(KINDS, "a1 b1)", 0, 0)),
    );
    let GotoDefinitionResponse::Array(locs) = v else {
        panic!("locations")
    };
    assert_eq!(locs[0].range.start, pos_of(KINDS, "(dimensions", 0, 0));
    // The library's macro: its file, written where the editor can open it.
    let v: GotoDefinitionResponse = c.result(
        "textDocument/definition",
        at(&uri, pos_of(KINDS, "(slide n)", 0, 2)),
    );
    let GotoDefinitionResponse::Array(locs) = v else {
        panic!("locations")
    };
    let lib = uri_to_text(&locs[0].uri);
    let start = locs[0].range.start;
    let line = lib.lines().nth(start.line as usize).expect("the line");
    assert!(
        line[start.character as usize..].starts_with("slide ($1"),
        "{line}"
    );

    // Hovers: a position's zones and links, a direction's opposite and links, a zone's
    // positions per player.
    let hover = |c: &mut Client, needle: &str, nth: usize, shift: u32| -> String {
        let h: Hover = c.result(
            "textDocument/hover",
            at(&uri, pos_of(KINDS, needle, nth, shift)),
        );
        let HoverContents::Markup(m) = h.contents else {
            panic!("markup")
        };
        m.value
    };
    let a1 = hover(&mut c, "a1 b1)", 0, 0);
    assert!(a1.contains("**position** `a1`"), "{a1}");
    assert!(a1.contains("zones: goal (Black)"), "{a1}");
    assert!(a1.contains("links (for White): n → a2, e → b1"), "{a1}");
    let n = hover(&mut c, " n (verify", 0, 1);
    assert!(n.contains("opposite: s"), "{n}");
    assert!(n.contains("6 link(s) for White: a2 → a3"), "{n}");
    let goal = hover(&mut c, "goal)", 0, 1);
    assert!(
        goal.contains("White: a3 b3 c3\n\nBlack: a1 b1 c1"),
        "{goal}"
    );
    let slide = hover(&mut c, "(slide n)", 0, 2);
    assert!(
        slide.contains("expands here to:\n```zrf\n(n (while empty? add n) (verify enemy?) add)"),
        "{slide}"
    );

    // Completion of the names in scope, and after `(` of the library's macros with their
    // arguments as placeholders.
    let labels = |c: &mut Client, p: Position| -> Vec<(String, String, Option<String>)> {
        let r: CompletionResponse = c.result("textDocument/completion", at(&uri, p));
        let CompletionResponse::Array(items) = r else {
            panic!("items")
        };
        items
            .into_iter()
            .map(|i| (i.label, i.detail.unwrap_or_default(), i.insert_text))
            .collect()
    };
    let names = labels(&mut c, pos_of(KINDS, "(symmetry Black", 0, 10));
    for (label, kind) in [
        ("Black", "player"),
        ("goal", "zone"),
        ("a1", "position"),
        ("e", "direction"),
        ("Pawn", "piece"),
    ] {
        assert!(
            names.iter().any(|(l, d, _)| l == label && d == kind),
            "{label} as {kind}: {names:?}"
        );
    }
    let calls = labels(&mut c, pos_of(KINDS, "(slide n)", 0, 1));
    assert!(
        calls
            .iter()
            .any(|(l, _, t)| l == "slide" && t.as_deref() == Some("slide ${1:$1}")),
        "{calls:?}"
    );

    // Highlighting: a macro use, a piece, a direction, a zone, `$1`.
    let toks: SemanticTokensResult = c.result(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    let SemanticTokensResult::Tokens(toks) = toks else {
        panic!("tokens")
    };
    let (mut line, mut col) = (0, 0);
    let mut typed = std::collections::HashMap::new();
    for t in &toks.data {
        line += t.delta_line;
        col = if t.delta_line == 0 {
            col + t.delta_start
        } else {
            t.delta_start
        };
        typed.insert(Position::new(line, col), t.token_type);
    }
    // The legend: comment, string, number, keyword, macro, class, enum member, namespace,
    // variable, parameter.
    for (needle, nth, shift, ty) in [
        ("(step e)", 0, 1, 4),
        ("Pawn", 1, 0, 5),
        (" n (verify", 0, 1, 6),
        ("goal)", 0, 0, 7),
        ("$1", 0, 0, 9),
        ("\"Kinds\"", 0, 0, 1),
    ] {
        assert_eq!(
            typed.get(&pos_of(KINDS, needle, nth, shift)),
            Some(&ty),
            "{needle}"
        );
    }

    // The outline: the macro, the game with its piece, the variant.
    let syms: DocumentSymbolResponse = c.result(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    let DocumentSymbolResponse::Nested(syms) = syms else {
        panic!("nested")
    };
    let names: Vec<(&str, SymbolKind)> = syms.iter().map(|s| (s.name.as_str(), s.kind)).collect();
    assert_eq!(
        names,
        [
            ("step", SymbolKind::FUNCTION),
            ("Kinds", SymbolKind::NAMESPACE),
            ("Kinds 2", SymbolKind::NAMESPACE)
        ]
    );

    // Lenses: perft and the start position of the variant; run, as the editor runs them.
    let lenses: Vec<CodeLens> = c.result(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    let commands: Vec<lsp_types::Command> = lenses.into_iter().filter_map(|l| l.command).collect();
    assert_eq!(commands.len(), 4);
    let run = |c: &mut Client, cmd: &lsp_types::Command| -> String {
        c.result(
            "workspace/executeCommand",
            json!({"command": cmd.command, "arguments": cmd.arguments}),
        )
    };
    let start = commands
        .iter()
        .find(|c| {
            c.command == "zrf.startPosition"
                && c.arguments.as_ref().is_some_and(|a| a[1] == "Kinds 2")
        })
        .expect("a start position lens");
    let out = run(&mut c, start);
    assert!(out.starts_with("Kinds 2: start position\n"), "{out}");
    // By hand: a1 goes to a2 and takes on a3 (slide n); b1 goes to b2 and b3 (slide n) and
    // steps e to c1 (a1's step e is blocked by b1); the same move twice counts once: 5.
    let perft = commands
        .iter()
        .find(|c| c.command == "zrf.perft")
        .expect("perft");
    let out = run(&mut c, perft);
    assert_eq!(out.lines().nth(1), Some("1 5"), "{out}");

    // A tests file: one lens, "run tests", which runs `zrf test` on it.
    let tests_uri = uri_of(&tests_path);
    c.open(&tests_uri, tests);
    let lenses: Vec<CodeLens> = c.result(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": tests_uri.as_str()}}),
    );
    assert_eq!(lenses.len(), 1);
    let cmd = lenses[0].command.clone().expect("a command");
    assert_eq!(cmd.title, "run tests");
    let out = run(&mut c, &cmd);
    assert!(
        out.contains("ok   ") && out.contains("the game goes on at the start"),
        "{out}"
    );
    assert!(out.contains("expected `draw`, got `ongoing`"), "{out}");
    assert!(out.ends_with("1 passed, 1 failed"), "{out}");

    // The game's own Pawn is renamed in the game only; the library's namesake is left alone.
    let edit: WorkspaceEdit = c.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri.as_str()}, "position": pos_of(KINDS, "Pawn", 2, 0), "newName": "Man"}),
    );
    #[allow(clippy::mutable_key_type)]
    let changes = edit.changes.expect("changes");
    assert_eq!(changes.keys().collect::<Vec<_>>(), [&uri]);
    assert_eq!(changes[&uri].len(), KINDS.matches("Pawn").count());
}

fn uri_to_text(uri: &Uri) -> String {
    let path = uri.as_str().strip_prefix("file://").expect("a file URI");
    std::fs::read_to_string(path).expect("the file")
}

/// Through two includes: the problem is shown in the innermost file with the middle file's
/// `include` form as related information, and at the game's own `include` form.
#[test]
fn diagnostics_through_nested_includes() {
    let dir = common::TempDir::new("lsp-nested");
    let broken = "(define step ($1 (verify empty?) add))\n(define hop ($1 $1 add)))\n";
    let moves_path = dir.write("moves.zrf", broken);
    let mid = "; shared\n(include \"moves.zrf\")\n";
    let mid_path = dir.write("mid.zrf", mid);
    let game = GAME
        .replace("Blak", "Black")
        .replace("\"moves.zrf\"", "\"mid.zrf\"");
    let game_path = dir.write("mini.zrf", &game);
    let (uri, moves_uri) = (uri_of(&game_path), uri_of(&moves_path));
    let mut c = Client::start();
    c.open(&uri, &game);
    let there = c.diagnostics_until(&moves_uri, |d| !d.is_empty());
    let related = there[0].related_information.as_ref().expect("related");
    assert_eq!(related[0].location.uri, uri_of(&mid_path));
    assert_eq!(
        related[0].location.range,
        range_of(mid, "(include \"moves.zrf\")", 0)
    );
    let here = c.diagnostics_until(&uri, |d| !d.is_empty());
    assert_eq!(here.len(), 1, "{here:?}");
    assert_eq!(here[0].range, range_of(&game, "(include \"mid.zrf\")", 0));
    assert!(here[0].message.contains("moves.zrf:2:25"), "{here:?}");
}
