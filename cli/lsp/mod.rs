//! `zrf lsp`: a Language Server Protocol server on standard input and output, for `.zrf` and
//! `.tests` files (lsp-server for the transport, as rust-analyzer; lsp-types for messages).
//!
//! One thread owns the documents and their analyses (the library's trees are not `Send`).
//! A change is analysed once the author pauses ([`DEBOUNCE`]), or at once when a request
//! needs it; each request is answered inside `catch_unwind`, so an internal error fails that
//! request, not the server. Perft and tests run on threads of their own and answer when done.

mod analysis;
mod commands;
mod features;
mod text;
mod transport;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crossbeam_channel::{select, unbounded, Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::*;
use serde_json::Value;

use analysis::{analyse, Analysis, DocLoader, Published};
use text::{uri_to_path, LineIndex};
use zrf::names::Name;

/// How long the author must pause before a change is analysed.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

struct Doc {
    uri: Uri,
    path: PathBuf,
    text: String,
    version: i32,
    lines: LineIndex,
    /// When the text last changed, if it has not been analysed since.
    dirty: Option<Instant>,
    analysis: Option<Analysis>,
    /// The diagnostics of the last analysis.
    diagnostics: Option<Published>,
    /// Analysed since its diagnostics were last published.
    unpublished: bool,
}

impl Doc {
    fn is_tests(&self) -> bool {
        self.path.extension().is_some_and(|e| e == "tests")
    }

    /// Larger than any rules file zrf reads: not analysed, formatted or highlighted.
    fn too_large(&self) -> bool {
        self.text.len() as u64 > crate::fsio::MAX_FILE_BYTES
    }
}

/// The result of a command run on its own thread: the request to answer and the text.
pub(crate) type Done = (RequestId, Result<String, String>);

struct Server {
    conn: Connection,
    docs: HashMap<String, Doc>,
    done_tx: Sender<Done>,
    /// The diagnostics last published, by URI (of open documents and of the files they
    /// include).
    shown: HashMap<String, (Uri, Vec<lsp_types::Diagnostic>)>,
    /// A document was analysed or closed since diagnostics were last published.
    stale: bool,
}

/// Serves one editor until it says `exit`.
pub fn run() -> ExitCode {
    let (conn, writer) = transport::stdio();
    let caps = capabilities();
    let Ok(caps) = serde_json::to_value(caps) else {
        return ExitCode::FAILURE;
    };
    if let Err(e) = conn.initialize(caps) {
        eprintln!("zrf lsp: {e}");
        return ExitCode::FAILURE;
    }
    let (done_tx, done_rx) = unbounded();
    let mut server = Server {
        conn,
        docs: HashMap::new(),
        done_tx,
        shown: HashMap::new(),
        stale: false,
    };
    let code = server.serve(&done_rx);
    drop(server);
    // Every answer written; the reader may still wait on input, and ends with the process.
    let _ = writer.join();
    code
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["(".into(), " ".into()]),
            ..Default::default()
        }),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: commands::NAMES.iter().map(|c| c.to_string()).collect(),
            work_done_progress_options: Default::default(),
        }),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: features::TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        ..Default::default()
    }
}

impl Server {
    fn serve(&mut self, done_rx: &Receiver<Done>) -> ExitCode {
        loop {
            let wait = self
                .docs
                .values()
                .filter_map(|d| d.dirty)
                .min()
                .map(|t| (t + DEBOUNCE).saturating_duration_since(Instant::now()));
            let timeout = crossbeam_channel::after(wait.unwrap_or(Duration::from_secs(3600)));
            select! {
                recv(self.conn.receiver) -> msg => {
                    let Ok(msg) = msg else { return ExitCode::SUCCESS };
                    match msg {
                        Message::Request(req) => {
                            if self.conn.handle_shutdown(&req).unwrap_or(true) {
                                return ExitCode::SUCCESS;
                            }
                            self.request(req);
                        }
                        Message::Notification(n) => {
                            if n.method == "exit" {
                                return ExitCode::SUCCESS;
                            }
                            self.notification(n);
                        }
                        Message::Response(_) => {}
                    }
                }
                recv(done_rx) -> done => {
                    if let Ok((id, result)) = done {
                        self.finish_command(id, result);
                    }
                }
                recv(timeout) -> _ => self.analyse_due(),
            }
            self.publish();
        }
    }

    fn send(&self, msg: Message) {
        let _ = self.conn.sender.send(msg);
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        self.send(Message::Notification(Notification::new(
            method.to_string(),
            params,
        )));
    }

    /// Analyses the documents whose pause has lasted long enough.
    fn analyse_due(&mut self) {
        let now = Instant::now();
        let due: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| d.dirty.is_some_and(|t| now >= t + DEBOUNCE))
            .map(|(k, _)| k.clone())
            .collect();
        for key in due {
            self.ensure(&key);
        }
    }

    /// Analyses a document if its text changed since the last analysis.
    fn ensure(&mut self, key: &str) {
        let open: HashMap<PathBuf, String> = self
            .docs
            .values()
            .map(|d| (d.path.clone(), d.text.clone()))
            .collect();
        let Some(doc) = self.docs.get_mut(key) else {
            return;
        };
        if doc.analysis.is_some() && doc.dirty.is_none() {
            return;
        }
        if doc.too_large() {
            doc.analysis = None;
            doc.diagnostics = Some(Published {
                own: vec![lsp_types::Diagnostic {
                    message: format!(
                        "the file is too large to analyse ({} bytes; the limit is {} MiB)",
                        doc.text.len(),
                        crate::fsio::MAX_FILE_BYTES >> 20
                    ),
                    severity: Some(DiagnosticSeverity::ERROR),
                    source: Some("zrf".into()),
                    ..Default::default()
                }],
                elsewhere: Vec::new(),
            });
            doc.dirty = None;
            doc.unpublished = true;
            self.stale = true;
            return;
        }
        let loader = DocLoader { open: &open };
        let name = doc.path.to_string_lossy().into_owned();
        let is_tests = doc.is_tests();
        let text = &doc.text;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            analyse(&name, text, &loader, is_tests)
        }));
        doc.analysis = result.ok();
        doc.diagnostics = Some(match &doc.analysis {
            Some(a) => a.lsp_diagnostics(),
            None => Published {
                own: vec![lsp_types::Diagnostic {
                    message: "zrf could not analyse this file (an internal error)".into(),
                    source: Some("zrf".into()),
                    ..Default::default()
                }],
                elsewhere: Vec::new(),
            },
        });
        doc.dirty = None;
        doc.unpublished = true;
        self.stale = true;
    }

    /// Publishes the diagnostics of every URI whose list changed, and of every document
    /// analysed since its last publication. A file's list gathers its own diagnostics (when it
    /// is open) and those that the open documents' loads found in it (as an include).
    fn publish(&mut self) {
        if !self.stale {
            return;
        }
        self.stale = false;
        let by_path: HashMap<&Path, &Doc> =
            self.docs.values().map(|d| (d.path.as_path(), d)).collect();
        let mut all: BTreeMap<String, (Uri, Vec<lsp_types::Diagnostic>)> = BTreeMap::new();
        let mut add = |uri: &Uri, d: &lsp_types::Diagnostic| {
            let list = &mut all
                .entry(uri.as_str().to_string())
                .or_insert_with(|| (uri.clone(), Vec::new()))
                .1;
            let same = |x: &lsp_types::Diagnostic| {
                x.range == d.range && x.message == d.message && x.severity == d.severity
            };
            if !list.iter().any(same) {
                list.push(d.clone());
            }
        };
        let mut keys: Vec<&String> = self.docs.keys().collect();
        keys.sort();
        for key in &keys {
            let doc = &self.docs[*key];
            let Some(p) = &doc.diagnostics else { continue };
            for d in &p.own {
                add(&doc.uri, d);
            }
        }
        for key in &keys {
            let Some(p) = &self.docs[*key].diagnostics else {
                continue;
            };
            for (uri, d) in &p.elsewhere {
                // The editor's spelling of the URI when the file is open.
                let open = uri_to_path(uri).and_then(|p| by_path.get(p.as_path()).copied());
                add(open.map_or(uri, |o| &o.uri), d);
            }
        }
        let mut every: Vec<String> = all.keys().chain(self.shown.keys()).cloned().collect();
        every.sort();
        every.dedup();
        let mut sends = Vec::new();
        for key in every {
            let forced = self.docs.get(&key).is_some_and(|d| d.unpublished);
            let now = all.remove(&key).or_else(|| {
                let uri = self.shown.get(&key).map(|(u, _)| u.clone())?;
                Some((uri, Vec::new()))
            });
            let Some((uri, list)) = now else { continue };
            let before = self.shown.get(&key).map(|(_, l)| l);
            if forced || before.unwrap_or(&Vec::new()) != &list {
                sends.push(PublishDiagnosticsParams {
                    uri: uri.clone(),
                    diagnostics: list.clone(),
                    version: self.docs.get(&key).map(|d| d.version),
                });
            }
            if list.is_empty() && !self.docs.contains_key(&key) {
                self.shown.remove(&key);
            } else {
                self.shown.insert(key, (uri, list));
            }
        }
        for doc in self.docs.values_mut() {
            doc.unpublished = false;
        }
        for p in sends {
            self.notify("textDocument/publishDiagnostics", p);
        }
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    self.set_text(d.uri, d.text, d.version);
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    if let Some(change) = p.content_changes.into_iter().last() {
                        let d = p.text_document;
                        self.set_text(d.uri, change.text, d.version);
                    }
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                    let key = p.text_document.uri.as_str().to_string();
                    self.mark_includers(&key);
                    self.docs.remove(&key);
                    self.stale = true;
                }
            }
            _ => {}
        }
    }

    fn set_text(&mut self, uri: Uri, text: String, version: i32) {
        let key = uri.as_str().to_string();
        let path = uri_to_path(&uri).unwrap_or_else(|| PathBuf::from(uri.as_str()));
        let lines = LineIndex::new(&text);
        // The last diagnostics stay shown until the new text is analysed.
        let diagnostics = self.docs.remove(&key).and_then(|d| d.diagnostics);
        self.docs.insert(
            key.clone(),
            Doc {
                uri,
                path,
                text,
                version,
                lines,
                dirty: Some(Instant::now()),
                analysis: None,
                diagnostics,
                unpublished: false,
            },
        );
        self.mark_includers(&key);
    }

    /// Marks for analysis the open documents that read the document `key` (an include).
    fn mark_includers(&mut self, key: &str) {
        let Some(path) = self.docs.get(key).map(|d| d.path.clone()).or_else(|| {
            let uri: Uri = key.parse().ok()?;
            uri_to_path(&uri)
        }) else {
            return;
        };
        let name = path.to_string_lossy().into_owned();
        let now = Instant::now();
        for (k, d) in self.docs.iter_mut() {
            let reads = d
                .analysis
                .as_ref()
                .is_some_and(|a| a.map.files().iter().skip(1).any(|f| f.name == name));
            if k != key && reads {
                d.dirty = Some(now);
            }
        }
    }

    fn request(&mut self, req: Request) {
        let id = req.id.clone();
        let method = req.method.clone();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(req)));
        let response = match result {
            Ok(Ok(Some(value))) => Response::new_ok(id, value),
            Ok(Ok(None)) => return,
            Ok(Err(message)) => Response::new_err(id, ErrorCode::RequestFailed as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("zrf: internal error while answering {method}"),
            ),
        };
        self.send(Message::Response(response));
    }

    /// The document a request is about, analysed; its key.
    fn doc_for(&mut self, uri: &Uri) -> Result<String, String> {
        let key = uri.as_str().to_string();
        if !self.docs.contains_key(&key) {
            return Err(format!("{} is not open", uri.as_str()));
        }
        if self.docs[&key].too_large() {
            return Err(format!("{} is too large for zrf", uri.as_str()));
        }
        self.ensure(&key);
        Ok(key)
    }

    /// Answers a request: `Ok(None)` when the answer comes later (a command running).
    fn answer(&mut self, req: Request) -> Result<Option<Value>, String> {
        fn params<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, String> {
            serde_json::from_value(v).map_err(|e| format!("bad parameters: {e}"))
        }
        fn json(v: impl serde::Serialize) -> Result<Option<Value>, String> {
            serde_json::to_value(v).map(Some).map_err(|e| e.to_string())
        }
        fn at<'a>(
            docs: &'a HashMap<String, Doc>,
            key: &str,
            pos: Position,
        ) -> (Option<&'a Analysis>, usize) {
            let d = &docs[key];
            (d.analysis.as_ref(), d.lines.offset(&d.text, pos))
        }
        match req.method.as_str() {
            "textDocument/definition" => {
                let p: GotoDefinitionParams = params(req.params)?;
                let tp = p.text_document_position_params;
                let key = self.doc_for(&tp.text_document.uri)?;
                let (a, off) = at(&self.docs, &key, tp.position);
                let locs = a.map(|a| features::definition(a, off)).unwrap_or_default();
                json(GotoDefinitionResponse::Array(locs))
            }
            "textDocument/references" => {
                let p: ReferenceParams = params(req.params)?;
                let tp = p.text_document_position;
                let key = self.doc_for(&tp.text_document.uri)?;
                let with = p.context.include_declaration;
                let found = self.everywhere(&key, tp.position).map(|(_, places)| {
                    let places = places.into_iter().filter(|p| with || !p.def);
                    places.map(|p| p.location).collect::<Vec<_>>()
                });
                json(found.unwrap_or_default())
            }
            "textDocument/hover" => {
                let p: HoverParams = params(req.params)?;
                let tp = p.text_document_position_params;
                let key = self.doc_for(&tp.text_document.uri)?;
                let (a, off) = at(&self.docs, &key, tp.position);
                json(a.and_then(|a| features::hover(a, off)))
            }
            "textDocument/completion" => {
                let p: CompletionParams = params(req.params)?;
                let tp = p.text_document_position;
                let key = self.doc_for(&tp.text_document.uri)?;
                let (a, off) = at(&self.docs, &key, tp.position);
                let text = &self.docs[&key].text;
                let items = a
                    .map(|a| features::completion(a, text, off))
                    .unwrap_or_default();
                json(CompletionResponse::Array(items))
            }
            "textDocument/documentSymbol" => {
                let p: DocumentSymbolParams = params(req.params)?;
                let key = self.doc_for(&p.text_document.uri)?;
                let syms = self.docs[&key]
                    .analysis
                    .as_ref()
                    .map(features::symbols)
                    .unwrap_or_default();
                json(DocumentSymbolResponse::Nested(syms))
            }
            "textDocument/prepareRename" => {
                let p: TextDocumentPositionParams = params(req.params)?;
                let key = self.doc_for(&p.text_document.uri)?;
                let (a, off) = at(&self.docs, &key, p.position);
                let Some((name, span)) = a.and_then(|a| features::name_at(a, off)) else {
                    return json(Value::Null);
                };
                let a = a.ok_or("no analysis")?;
                if let Some(why) = features::library_only(name, &features::places(a, name)) {
                    return Err(why);
                }
                json(PrepareRenameResponse::Range(a.range(span)))
            }
            "textDocument/rename" => {
                let p: RenameParams = params(req.params)?;
                let tp = p.text_document_position;
                let key = self.doc_for(&tp.text_document.uri)?;
                let bad = p.new_name.is_empty()
                    || p.new_name.contains(|c: char| {
                        c.is_whitespace() || c.is_control() || "();\"".contains(c)
                    });
                if bad {
                    return Err(format!("`{}` is not a name", p.new_name));
                }
                match self.everywhere(&key, tp.position) {
                    Some((name, places)) => json(features::rename(&name, &places, &p.new_name)?),
                    None => json(Value::Null),
                }
            }
            "textDocument/formatting" => {
                let p: DocumentFormattingParams = params(req.params)?;
                let key = self.doc_for(&p.text_document.uri)?;
                let d = &self.docs[&key];
                let out = zrf::format::format(&d.text).map_err(|e| e.message)?;
                let end = d.lines.position(&d.text, d.text.len());
                let edits = if out == d.text {
                    Vec::new()
                } else {
                    vec![TextEdit {
                        range: Range::new(Position::new(0, 0), end),
                        new_text: out,
                    }]
                };
                json(edits)
            }
            "textDocument/semanticTokens/full" => {
                let p: SemanticTokensParams = params(req.params)?;
                let key = self.doc_for(&p.text_document.uri)?;
                let d = &self.docs[&key];
                let data = d
                    .analysis
                    .as_ref()
                    .map(|a| features::semantic_tokens(a, &d.text, &d.lines))
                    .unwrap_or_default();
                json(SemanticTokensResult::Tokens(SemanticTokens {
                    result_id: None,
                    data,
                }))
            }
            "textDocument/codeLens" => {
                let p: CodeLensParams = params(req.params)?;
                let key = self.doc_for(&p.text_document.uri)?;
                let d = &self.docs[&key];
                let lenses = d
                    .analysis
                    .as_ref()
                    .map(|a| features::lenses(a, &d.uri, d.is_tests()))
                    .unwrap_or_default();
                json(lenses)
            }
            "workspace/executeCommand" => {
                let p: ExecuteCommandParams = params(req.params)?;
                let uri = p
                    .arguments
                    .first()
                    .and_then(Value::as_str)
                    .and_then(|s| s.parse::<Uri>().ok())
                    .ok_or("the command needs the document's URI")?;
                let key = uri.as_str().to_string();
                let d = self.docs.get(&key).ok_or("the document is not open")?;
                let open: HashMap<PathBuf, String> = self
                    .docs
                    .values()
                    .map(|d| (d.path.clone(), d.text.clone()))
                    .collect();
                let job = commands::Job {
                    command: p.command,
                    path: d.path.clone(),
                    text: d.text.clone(),
                    variant: p.arguments.get(1).and_then(Value::as_str).map(String::from),
                    open,
                };
                commands::spawn(job, req.id, self.done_tx.clone())?;
                Ok(None)
            }
            m => Err(format!("zrf lsp does not answer {m}")),
        }
    }

    /// The name at a position of a document and every place it is written in the open
    /// documents' loads that see the same declaration (two games including one file of
    /// macros), each place once, with the editor's URI for open files.
    fn everywhere(&mut self, key: &str, pos: Position) -> Option<(Name, Vec<features::Place>)> {
        let mut keys: Vec<String> = self.docs.keys().cloned().collect();
        keys.sort();
        for k in &keys {
            self.ensure(k);
        }
        let d = self.docs.get(key)?;
        let a = d.analysis.as_ref()?;
        let (name, _) = features::name_at(a, d.lines.offset(&d.text, pos))?;
        let mut all = features::places(a, name);
        if name.defs.is_empty() {
            return Some((name.clone(), all));
        }
        let mine = features::places(a, name);
        for k in keys.iter().filter(|k| k.as_str() != key) {
            let Some(b) = self.docs[k].analysis.as_ref() else {
                continue;
            };
            if let Some(theirs) = features::same_name(&mine, b, name) {
                all.extend(theirs);
            }
        }
        let open: HashMap<PathBuf, &Uri> = self
            .docs
            .values()
            .map(|d| {
                (
                    std::fs::canonicalize(&d.path).unwrap_or(d.path.clone()),
                    &d.uri,
                )
            })
            .collect();
        let mut seen = std::collections::HashSet::new();
        all.retain(|p| seen.insert((p.file.clone(), p.location.range)));
        for p in &mut all {
            if let Some(uri) = open.get(&p.file) {
                p.location.uri = (*uri).clone();
            }
        }
        Some((name.clone(), all))
    }

    fn finish_command(&self, id: RequestId, result: Result<String, String>) {
        let response = match result {
            Ok(text) => {
                self.notify(
                    "window/showMessage",
                    ShowMessageParams {
                        typ: MessageType::INFO,
                        message: text.clone(),
                    },
                );
                Response::new_ok(id, Value::String(text))
            }
            Err(e) => Response::new_err(id, ErrorCode::RequestFailed as i32, e),
        };
        self.send(Message::Response(response));
    }
}
