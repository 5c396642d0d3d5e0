//! `zrf serve`: a local web board. Compiled into the binary (through `#[path]` in `main.rs`),
//! not into the library: it owns the sockets, the threads and the file watching, and asks the
//! library (`zrf::view`, `zrf::repl::Session`) for everything it shows.
//!
//! Each browser tab plays its own game, kept by a thread of its own (a session holds data
//! that may not cross threads); HTTP threads talk to it through a channel. While the computer
//! thinks, the game thread is busy and the HTTP side answers from the last state it published,
//! so the page never waits on a search.

mod game;
mod images;
mod watch;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response, Server};
use zrf::repl::OpenError;

use game::{game_thread, open_session, rules_files};
use images::Images;
use watch::Watch;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");

/// The largest request body read (a game record sent to `load` included).
const MAX_BODY: u64 = 1024 * 1024;
/// The most games kept at once; the least recently used goes first.
const MAX_GAMES: usize = 32;
/// The most requests handled at once.
const MAX_IN_FLIGHT: u64 = 64;

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
