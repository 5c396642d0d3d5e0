//! `zrf serve`: a local web board. Compiled into the binary (through `#[path]` in `main.rs`),
//! not into the library: it owns the sockets, the threads and the file watching, and asks the
//! library (`zrf::view`, `zrf::repl::Session`) for everything it shows.
//!
//! Each browser tab plays its own game, kept by a thread of its own (a session holds data
//! that may not cross threads); HTTP threads talk to it through a channel. While the computer
//! thinks, the game thread is busy and the HTTP side answers from the last state it published,
//! so the page never waits on a search.

mod images;
mod watch;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response, Server};
use zrf::diagnostic::{render, RenderOptions};
use zrf::repl::{Files, OpenError, Session};

use crate::fsio;
use images::Images;
use watch::Watch;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");

/// The largest request body read (a game record sent to `load` included).
const MAX_BODY: u64 = 1024 * 1024;
/// The most games kept at once; the least recently used goes first.
const MAX_GAMES: usize = 32;
/// The most random players' turns played in a row (a game of dice players only stops here).
const RANDOM_PLY_LIMIT: usize = 1000;
/// The most requests handled at once.
const MAX_IN_FLIGHT: u64 = 64;

struct FsFiles;

impl Files for FsFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        fsio::read_file(Path::new(path)).map_err(|e| e.to_string())
    }

    fn write(&self, _path: &str, _contents: &str) -> Result<(), String> {
        Err("the web board writes no files".into())
    }
}

/// Reads includes, noting each file asked for (found or not), so that they can be watched.
#[derive(Default)]
struct FsLoader {
    asked: std::cell::RefCell<Vec<PathBuf>>,
}

impl zrf::expand::Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        self.asked.borrow_mut().push(PathBuf::from(path));
        fsio::read_file(Path::new(path)).ok()
    }
}

/// A request to a game thread and where to send its answer.
type Job = (Value, Sender<Result<Value, String>>);

/// The HTTP side's handle on one game.
struct Handle {
    jobs: Sender<Job>,
    /// The last state the game published (JSON), served while the game thread is busy.
    state: Arc<Mutex<Value>>,
    busy: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    used: Instant,
}

struct Shared {
    file: PathBuf,
    variant: Option<String>,
    games: Mutex<HashMap<u64, Handle>>,
    next_id: AtomicU64,
    in_flight: AtomicU64,
    images: Arc<Images>,
    /// The rules file's watcher (unset when the system has none: then each request compares
    /// the file's modification time).
    watch: OnceLock<Arc<Watch>>,
}

/// Wakes every game after the rules changed, so that each reloads without waiting for a
/// request.
fn wake_all(shared: &Shared) {
    let games = shared.games.lock().expect("games lock");
    for h in games.values() {
        let (tx, _) = channel();
        let _ = h.jobs.send((json!({ "cmd": "state" }), tx));
    }
}

/// Runs the server until Ctrl-C.
pub fn run(file: &Path, variant: Option<&str>, host: &str, port: u16, open: bool) -> ExitCode {
    // Refuse a file that does not load, as `zrf play` does.
    if let Err(e) = open_session(file, variant) {
        eprintln!("{e}");
        return match e {
            OpenError::Rules { .. } => ExitCode::from(1),
            _ => ExitCode::from(2),
        };
    }
    let server = match Server::http((host, port)) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("zrf serve: cannot listen on {host}:{port}: {e}");
            return ExitCode::from(2);
        }
    };
    let addr = match server.server_addr().to_ip() {
        Some(a) => a,
        None => {
            eprintln!("zrf serve: no IP address to listen on");
            return ExitCode::from(2);
        }
    };
    let url = format!("http://{addr}/");
    println!("zrf serve: {} at {url} (Ctrl-C stops)", file.display());
    use std::io::Write;
    let _ = std::io::stdout().flush();
    if open {
        let _ = std::process::Command::new("xdg-open")
            .arg(&url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
    }
    let stopping = Arc::new(AtomicBool::new(false));
    {
        let server = server.clone();
        let stopping = stopping.clone();
        let _ = ctrlc::set_handler(move || {
            stopping.store(true, Ordering::SeqCst);
            server.unblock();
        });
    }
    let shared = Arc::new(Shared {
        file: file.to_path_buf(),
        variant: variant.map(str::to_string),
        games: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
        in_flight: AtomicU64::new(0),
        images: Arc::new(Images::default()),
        watch: OnceLock::new(),
    });
    let weak = Arc::downgrade(&shared);
    match Watch::start(move || {
        if let Some(shared) = weak.upgrade() {
            wake_all(&shared);
        }
    }) {
        Some(w) => {
            w.add(&rules_files(file).1);
            let _ = shared.watch.set(Arc::new(w));
        }
        None => {
            eprintln!("zrf serve: cannot watch files; changes are seen when the page next asks")
        }
    }
    for request in server.incoming_requests() {
        if stopping.load(Ordering::SeqCst) {
            break;
        }
        if shared.in_flight.load(Ordering::SeqCst) >= MAX_IN_FLIGHT {
            let _ = request.respond(error(503, "too many requests at once"));
            continue;
        }
        shared.in_flight.fetch_add(1, Ordering::SeqCst);
        let shared = shared.clone();
        std::thread::spawn(move || {
            handle(&shared, request);
            shared.in_flight.fetch_sub(1, Ordering::SeqCst);
        });
    }
    println!("zrf serve: stopped");
    ExitCode::SUCCESS
}

type Reply = Response<std::io::Cursor<Vec<u8>>>;

fn content(kind: &str) -> Header {
    Header::from_bytes("Content-Type", kind).expect("a valid header")
}

fn error(code: u16, msg: &str) -> Reply {
    let body = json!({ "error": msg }).to_string();
    Response::from_string(body)
        .with_status_code(code)
        .with_header(content("application/json"))
}

fn ok(v: &Value) -> Reply {
    Response::from_string(v.to_string())
        .with_header(content("application/json"))
        .with_header(Header::from_bytes("Cache-Control", "no-store").expect("a valid header"))
}

fn handle(shared: &Shared, mut request: Request) {
    let method = request.method().clone();
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("").to_string();
    let body = if method == Method::Post {
        let mut buf = Vec::new();
        let limit = request.as_reader().take(MAX_BODY + 1).read_to_end(&mut buf);
        if limit.is_err() {
            let _ = request.respond(error(400, "cannot read the request body"));
            return;
        }
        if buf.len() as u64 > MAX_BODY {
            let _ = request.respond(error(413, "the request body is too large"));
            return;
        }
        if buf.is_empty() {
            Value::Object(Default::default())
        } else {
            match serde_json::from_slice::<Value>(&buf) {
                Ok(v) if v.is_object() => v,
                _ => {
                    let _ = request.respond(error(400, "the body must be a JSON object"));
                    return;
                }
            }
        }
    } else {
        Value::Null
    };
    let reply = route(shared, &method, &path, body);
    let _ = request.respond(reply);
}

fn route(shared: &Shared, method: &Method, path: &str, body: Value) -> Reply {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (method, parts.as_slice()) {
        (Method::Get, [""]) | (Method::Get, ["index.html"]) => {
            Response::from_string(PAGE).with_header(content("text/html; charset=utf-8"))
        }
        (Method::Get, ["page.js"]) => {
            Response::from_string(SCRIPT).with_header(content("text/javascript; charset=utf-8"))
        }
        (Method::Get, ["images", name]) => image(shared, name),
        (Method::Post, ["api", "games"]) => new_game(shared, &body),
        (Method::Get, ["api", "games", id]) => match id.parse::<u64>() {
            Ok(id) => ask(shared, id, json!({ "cmd": "state" })),
            Err(_) => error(404, "no such game"),
        },
        (Method::Post, ["api", "games", id]) => match id.parse::<u64>() {
            Ok(id) => ask(shared, id, body),
            Err(_) => error(404, "no such game"),
        },
        (_, ["api", ..]) => error(404, "no such API call"),
        _ => error(404, "not found"),
    }
}

/// `GET /images/N.png`: a bitmap the rules file names, as PNG.
fn image(shared: &Shared, name: &str) -> Reply {
    let Some(n) = name
        .strip_suffix(".png")
        .and_then(|n| n.parse::<usize>().ok())
    else {
        return error(404, "no such image");
    };
    match shared.images.get(n) {
        None => error(404, "no such image"),
        Some((png, _)) => match png.as_ref() {
            Ok(png) => Response::from_data(png.bytes.clone())
                .with_header(content("image/png"))
                .with_header(
                    Header::from_bytes("Cache-Control", "max-age=3600").expect("a valid header"),
                ),
            Err(e) => error(422, e),
        },
    }
}

fn new_game(shared: &Shared, body: &Value) -> Reply {
    let variant = match body.get("variant") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) | None => shared.variant.clone(),
        Some(_) => return error(400, "`variant` must be a string"),
    };
    let id = shared.next_id.fetch_add(1, Ordering::SeqCst);
    let (jobs, rx) = channel::<Job>();
    let (first_tx, first_rx) = channel();
    let state = Arc::new(Mutex::new(Value::Null));
    let busy = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let file = shared.file.clone();
    let (st, bz, sp) = (state.clone(), busy.clone(), stop.clone());
    let pictures = shared.images.clone();
    let watch = shared.watch.get().cloned();
    let spawned = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            game_thread(
                id,
                file,
                (pictures, watch),
                variant,
                rx,
                first_tx,
                st,
                bz,
                sp,
            )
        });
    if spawned.is_err() {
        return error(503, "cannot start a game thread");
    }
    match first_rx.recv() {
        Ok(Ok(v)) => {
            let mut games = shared.games.lock().expect("games lock");
            if games.len() >= MAX_GAMES {
                if let Some(&old) = games.iter().min_by_key(|(_, h)| h.used).map(|(k, _)| k) {
                    games.remove(&old);
                }
            }
            games.insert(
                id,
                Handle {
                    jobs,
                    state,
                    busy,
                    stop,
                    used: Instant::now(),
                },
            );
            ok(&v)
        }
        Ok(Err(e)) => error(422, &e),
        Err(_) => error(500, "the game thread stopped"),
    }
}

fn ask(shared: &Shared, id: u64, body: Value) -> Reply {
    let (jobs, state, busy, stop) = {
        let mut games = shared.games.lock().expect("games lock");
        let Some(h) = games.get_mut(&id) else {
            return error(
                404,
                "no such game (it may have been closed; start a new one)",
            );
        };
        h.used = Instant::now();
        (
            h.jobs.clone(),
            h.state.clone(),
            h.busy.clone(),
            h.stop.clone(),
        )
    };
    let cmd = body.get("cmd").and_then(Value::as_str).unwrap_or("");
    if busy.load(Ordering::SeqCst) {
        return match cmd {
            "state" => ok(&state.lock().expect("state lock")),
            "stop" => {
                stop.store(true, Ordering::SeqCst);
                ok(&state.lock().expect("state lock"))
            }
            _ => error(409, "the computer is thinking; wait or stop it"),
        };
    }
    let (tx, rx) = channel();
    if jobs.send((body, tx)).is_err() {
        return error(410, "the game has ended; start a new one");
    }
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(Ok(v)) => ok(&v),
        Ok(Err(e)) => error(400, &e),
        Err(_) => ok(&state.lock().expect("state lock")),
    }
}

fn open_session(file: &Path, variant: Option<&str>) -> Result<Session, OpenError> {
    open_at(file, variant, None)
}

fn open_at(file: &Path, variant: Option<&str>, setup: Option<&str>) -> Result<Session, OpenError> {
    Session::open(&file.to_string_lossy(), &FsFiles, variant, setup)
}

/// The file's modification time and length: a change of either means an edit (the length
/// catches edits within a coarse clock tick).
fn modified(file: &Path) -> Option<(SystemTime, u64)> {
    let m = std::fs::metadata(file).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// One game: the session, the sides the computer plays, the rules file's last change.
struct Game {
    id: u64,
    file: PathBuf,
    images: Arc<Images>,
    watch: Option<Arc<Watch>>,
    /// The watcher's generation the rules were last loaded at.
    seen: u64,
    session: Session,
    variants: Vec<String>,
    variant: usize,
    computer: Vec<bool>,
    version: u64,
    mtime: Option<(SystemTime, u64)>,
    /// The rendered diagnostics of the rules file, when its latest text does not load.
    broken: Option<String>,
    message: String,
    /// The position set with `setup`, which a reload starts from again.
    start: Option<String>,
    /// A record asked for with `save` (file name and text), handed to the page once.
    saved: Option<(String, String)>,
}

/// The titles of the file's games and variants, and the files it reads (itself and its
/// includes, found or not).
fn rules_files(file: &Path) -> (Vec<String>, Vec<PathBuf>) {
    let bytes = fsio::read_file(file).unwrap_or_default();
    let loader = FsLoader::default();
    let loaded = zrf::load(&file.to_string_lossy(), &bytes, &loader);
    let titles = loaded.games.iter().map(|g| g.title.clone()).collect();
    let mut files = loader.asked.into_inner();
    files.insert(0, file.to_path_buf());
    (titles, files)
}

fn variant_titles(file: &Path) -> Vec<String> {
    rules_files(file).0
}

#[allow(clippy::too_many_arguments)]
fn game_thread(
    id: u64,
    file: PathBuf,
    (pictures, watch): (Arc<Images>, Option<Arc<Watch>>),
    variant: Option<String>,
    jobs: Receiver<Job>,
    first: Sender<Result<Value, String>>,
    state: Arc<Mutex<Value>>,
    busy: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
) {
    let mtime = modified(&file);
    let session = match open_session(&file, variant.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            let _ = first.send(Err(e.to_string()));
            return;
        }
    };
    let variants = variant_titles(&file);
    let title = session.title().to_string();
    let idx = variants.iter().position(|t| *t == title).unwrap_or(0);
    let n = session.game().rules.def.players.len();
    let mut g = Game {
        id,
        file,
        images: pictures,
        seen: watch
            .as_ref()
            .map_or(0, |w| w.generation.load(Ordering::SeqCst)),
        watch,
        session,
        variants,
        variant: idx,
        computer: vec![false; n],
        version: 1,
        mtime,
        broken: None,
        message: String::new(),
        start: None,
        saved: None,
    };
    g.session.computer.stop = stop;
    g.random_turns();
    let v = g.state(false);
    *state.lock().expect("state lock") = v.clone();
    if first.send(Ok(v)).is_err() {
        return;
    }
    while let Ok((body, reply)) = jobs.recv() {
        g.reload_if_changed();
        let answer = g.command(&body);
        // After a redo, the recorded random moves are the ones to replay.
        if g.session.game().redo.is_empty() {
            g.random_turns();
        }
        let think = answer.is_ok() && g.computer_to_move();
        if think {
            busy.store(true, Ordering::SeqCst);
        }
        let v = g.state(think);
        *state.lock().expect("state lock") = v.clone();
        let _ = reply.send(answer.map(|_| v));
        if think {
            let out = g.session.eval_line("ai");
            g.message = out.text.lines().next().unwrap_or("").to_string();
            g.version += 1;
            g.random_turns();
            *state.lock().expect("state lock") = g.state(false);
            busy.store(false, Ordering::SeqCst);
        }
    }
}

impl Game {
    /// Plays the random players' turns (`?Dice`) as the REPL does, so the page never waits on
    /// one; what they played becomes the message.
    fn random_turns(&mut self) {
        let mut said = Vec::new();
        for _ in 0..RANDOM_PLY_LIMIT {
            match self.session.random_turn() {
                None => break,
                Some(Ok(t)) => said.push(t),
                Some(Err(e)) => {
                    said.push(format!("The random player could not move: {e}"));
                    break;
                }
            }
        }
        if !said.is_empty() {
            if !self.message.is_empty() {
                said.insert(0, std::mem::take(&mut self.message));
            }
            self.message = said.join(" ");
            self.version += 1;
        }
    }

    /// Whether a person plays some side (one that is neither random nor the computer's).
    fn person_plays(&self) -> bool {
        let def = &self.session.game().rules.def;
        def.players
            .iter()
            .enumerate()
            .any(|(k, p)| !p.random && !self.computer.get(k).copied().unwrap_or(false))
    }

    /// Whether a random player (`?Dice`) is to move.
    fn random_to_move(&mut self) -> bool {
        let game = self.session.game_mut();
        let mover = game.rules.entry(game.pos.turn).mover.idx();
        game.rules.def.players[mover].random
    }

    fn computer_to_move(&mut self) -> bool {
        let game = self.session.game_mut();
        if game.outcome().is_some() {
            return false;
        }
        let mover = game.rules.entry(game.pos.turn).mover.idx();
        self.computer.get(mover).copied().unwrap_or(false)
    }

    /// Reloads the rules when the file changed, replaying the moves that are still legal.
    fn reload_if_changed(&mut self) {
        if let Some(w) = &self.watch {
            let now = w.generation.load(Ordering::SeqCst);
            if now == self.seen {
                return;
            }
            self.seen = now;
        } else {
            let now = modified(&self.file);
            if now == self.mtime {
                return;
            }
            self.mtime = now;
        }
        self.version += 1;
        let number = (self.variant + 1).to_string();
        match open_at(&self.file, Some(&number), self.start.as_deref()) {
            Ok(mut s) => {
                let played = self.session.game().played.clone();
                let mut kept = 0;
                for m in &played {
                    if s.game_mut().play(m).is_err() {
                        break;
                    }
                    kept += 1;
                }
                s.computer.config = self.session.computer.config.clone();
                s.computer.stop = self.session.computer.stop.clone();
                let n = s.game().rules.def.players.len();
                self.computer.resize(n, false);
                self.session = s;
                let (titles, files) = rules_files(&self.file);
                self.variants = titles;
                if let Some(w) = &self.watch {
                    // The new text may include other files.
                    w.add(&files);
                }
                self.broken = None;
                self.message = if kept == played.len() {
                    format!("Rules reloaded; {kept} moves replayed.")
                } else {
                    format!(
                        "Rules reloaded; {kept} of {} moves are still legal and were replayed.",
                        played.len()
                    )
                };
            }
            Err(OpenError::Rules { map, diags }) => {
                self.broken = Some(render(&map, &diags, RenderOptions { color: false }));
                self.message =
                    "The rules file has errors; playing on with the last good rules.".into();
            }
            Err(e) => {
                self.broken = Some(e.to_string());
                self.message =
                    "The rules file cannot be loaded; playing on with the last good rules.".into();
            }
        }
    }

    fn command(&mut self, body: &Value) -> Result<(), String> {
        let cmd = body
            .get("cmd")
            .and_then(Value::as_str)
            .ok_or("the body needs a `cmd` string")?;
        let text = |key: &str| -> Result<String, String> {
            body.get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or(format!("`{cmd}` needs a `{key}` string"))
        };
        let before = self.version;
        match cmd {
            "state" => return Ok(()),
            "stop" => {}
            "move" => {
                let m = text("move")?;
                let played = self
                    .session
                    .game_mut()
                    .play(&m)
                    .map_err(|e| format!("{m}: {e}"))?;
                self.message = format!("Played {played}.");
            }
            "undo" => {
                if !self.session.game_mut().undo() {
                    return Err("there is no move to take back".into());
                }
                // Back to a side the person plays, if there is one (random players' turns are
                // taken back too, or they would be played again at once).
                while (self.computer_to_move() || self.random_to_move())
                    && self.person_plays()
                    && self.session.game_mut().undo()
                {}
                self.message = "Move taken back.".into();
            }
            "redo" => {
                let m = self
                    .session
                    .game_mut()
                    .redo()
                    .ok_or("there is no move to redo")?;
                self.message = format!("Replayed {m}.");
            }
            "new" => {
                self.line("new")?;
                self.start = None;
            }
            "setup" => {
                let t = text("position")?;
                if t.contains('\n') {
                    return Err("a position is one line".into());
                }
                self.line(&format!("setup {t}"))?;
                self.start = Some(t.trim().to_string());
                self.message = "Position set.".into();
            }
            "engine" => {
                let t = text("setting")?;
                if t.contains('\n') {
                    return Err("a setting is one line".into());
                }
                self.line(&format!("engine {t}"))?;
            }
            "computer" => {
                let sides = body
                    .get("sides")
                    .and_then(Value::as_array)
                    .ok_or("`computer` needs `sides`, a list of booleans")?;
                let n = self.computer.len();
                if sides.len() != n || sides.iter().any(|b| !b.is_boolean()) {
                    return Err(format!("`sides` needs {n} booleans, one per player"));
                }
                self.computer = sides.iter().map(|b| b.as_bool() == Some(true)).collect();
            }
            "variant" => {
                let v = text("variant")?;
                let s = open_session(&self.file, Some(&v)).map_err(|e| e.to_string())?;
                let title = s.title().to_string();
                self.variant = self.variants.iter().position(|t| *t == title).unwrap_or(0);
                let config = self.session.computer.config.clone();
                let stop = self.session.computer.stop.clone();
                self.session = s;
                self.session.computer.config = config;
                self.session.computer.stop = stop;
                let n = self.session.game().rules.def.players.len();
                self.computer = vec![false; n];
                self.start = None;
                self.message = format!("Playing {title}.");
            }
            "save" => {
                // A record in the format asked for, named after the rules file and placed
                // beside it, so that the rules path it holds finds the rules again on `load`.
                let ext = text("format")?;
                if !matches!(ext.as_str(), "game" | "pgn" | "pdn" | "zsg") {
                    return Err(format!(
                        "unknown record format `{ext}`: `game`, `pgn`, `pdn` or `zsg`"
                    ));
                }
                let stem = self
                    .file
                    .file_stem()
                    .map_or("game".into(), |s| s.to_string_lossy().into_owned());
                let name = format!("{stem}.{ext}");
                let path = self.file.with_file_name(&name);
                let record = self.session.record_as(&path.to_string_lossy())?;
                self.message = format!("Saved as {name}.");
                self.saved = Some((name, record));
            }
            "load" => {
                let name = text("name")?;
                let record = text("record")?;
                // Only the file name counts: the record is read as if it lay beside the
                // rules file.
                let bare = Path::new(&name)
                    .file_name()
                    .map_or("record.game".into(), |s| s.to_string_lossy().into_owned());
                let path = self.file.with_file_name(&bare);
                let out = self
                    .session
                    .load_record(&path.to_string_lossy(), &record, &FsFiles);
                if out.error {
                    return Err(out.text.trim().to_string());
                }
                let n = self.session.game().rules.def.players.len();
                self.computer = vec![false; n];
                self.start = None;
                let title = self.session.title();
                self.variant = self.variants.iter().position(|t| t == title).unwrap_or(0);
                // The first line says what was loaded; the rest is the text diagram.
                self.message = out.text.lines().next().unwrap_or_default().to_string();
            }
            other => return Err(format!("unknown command `{other}`")),
        }
        if self.version == before {
            self.version += 1;
        }
        Ok(())
    }

    /// Runs a REPL line; its text becomes the message, a refusal the error.
    fn line(&mut self, line: &str) -> Result<(), String> {
        let out = self.session.eval_line(line);
        let first = out.text.lines().next().unwrap_or("").to_string();
        if out.error {
            return Err(out.text.trim().to_string());
        }
        self.message = first;
        Ok(())
    }

    fn state(&mut self, thinking: bool) -> Value {
        let fen = self.session.eval_line("fen");
        let fen = (!fen.error).then(|| fen.text.trim().to_string());
        let result = self.session.result();
        let engine = self.session.eval_line("engine").text.trim().to_string();
        let game = self.session.game_mut();
        game.legal();
        let def = &game.rules.def;
        let board = zrf::view::board(def);
        let moves = if game.outcome().is_some() {
            Vec::new()
        } else {
            let list = game.legal().clone();
            zrf::view::moves(&game.rules.def, &list)
        };
        let def = &game.rules.def;
        let mover = game.rules.entry(game.pos.turn).mover.idx();
        let cells: Vec<Value> = board
            .cells
            .iter()
            .map(|c| {
                json!({ "id": c.id, "name": c.name, "label": c.label, "rect": c.rect,
                        "grid": c.grid, "dark": c.dark })
            })
            .collect();
        let zones: Vec<Value> = board
            .zones
            .iter()
            .map(|(name, per)| json!({ "name": name, "positions": per }))
            .collect();
        let pieces: Vec<Value> = def
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                json!({ "name": p.name, "letter": zrf::notation::piece_letter(def, i as u16),
                        "help": p.help })
            })
            .collect();
        let on: Vec<Value> = zrf::view::pieces(&game.pos)
            .iter()
            .map(|p| json!([p.at, p.piece, p.owner]))
            .collect();
        let moves: Vec<Value> = moves
            .iter()
            .map(|m| {
                json!({ "text": m.text, "from": m.from, "to": m.to, "path": m.path,
                        "captures": m.captures, "drop": m.drop, "pass": m.pass })
            })
            .collect();
        let players: Vec<&str> = def.players.iter().map(|p| p.name.as_str()).collect();
        let native = zrf::setup::native(&game.rules, &game.pos);
        let hand = zrf::view::hand(def, &game.pos);
        let shown = |s: Option<images::Shown>| match s {
            Some(s) => json!({ "url": s.url, "width": s.width, "height": s.height }),
            None => Value::Null,
        };
        // The board's bitmap matches the rectangles only when they come from the file.
        let board_image = zrf::view::board_image(def)
            .filter(|_| board.from_file)
            .and_then(|name| self.images.show(&self.file, &name, false));
        let piece_images: Vec<Vec<Value>> = zrf::view::piece_images(def)
            .into_iter()
            .map(|per| {
                per.into_iter()
                    .map(|name| shown(name.and_then(|n| self.images.show(&self.file, &n, true))))
                    .collect()
            })
            .collect();
        json!({
            "id": self.id,
            "version": self.version,
            "file": self.file.to_string_lossy(),
            "title": def.title,
            "variants": self.variants,
            "variant": self.variant,
            "players": players,
            "mover": mover,
            "pieces": pieces,
            "board": { "cells": cells, "bounds": board.bounds, "from_file": board.from_file,
                       "zones": zones, "links": board.links },
            "position": on,
            "hand": hand,
            "images": { "board": shown(board_image), "pieces": piece_images },
            "moves": moves,
            "history": game.played,
            "redo": game.redo.len(),
            "result": result,
            "fen": fen,
            "native": native,
            "computer": self.computer,
            "engine": engine,
            "thinking": thinking,
            "broken": self.broken,
            "message": self.message,
            "saved": self.saved.take().map(|(name, text)| json!({ "name": name, "text": text })),
        })
    }
}
