//! The server's answers as a plain function of a request (`handle`): the guard's checks, the
//! routes, and the games kept for the browser tabs. `http.rs` calls it for each request read
//! off a socket; the fuzz target calls it directly.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{CACHE_CONTROL, CONTENT_TYPE, SET_COOKIE};
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode};
use serde_json::{json, Value};

use super::command::Command;
use super::game::{game_thread, GameLink};
use super::guard::{Guard, Refusal};
use super::images::Images;
use super::watch::Watch;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");

/// The largest request body read (a game record sent to `load` included).
pub const MAX_BODY: usize = 1024 * 1024;
/// The most games kept at once; the least recently used goes first, its search stopped.
pub const MAX_GAMES: usize = 32;
/// The most game threads at once: the games kept, and games starting or still ending (a
/// dropped game's thread ends when the command it is running ends).
pub const MAX_GAME_THREADS: usize = MAX_GAMES + 8;
/// How long a request waits for its game's answer before it is given the last state.
const ANSWER_WAIT: Duration = Duration::from_secs(30);
/// How many requests may wait in one game's queue; past it the game is busy (503).
const QUEUE: usize = 8;

/// A request to a game thread and where to send its answer.
pub type Job = (Command, SyncSender<Result<Value, String>>);

/// The HTTP side's handle on one game.
struct Handle {
    jobs: SyncSender<Job>,
    link: GameLink,
    used: Instant,
}

impl Handle {
    /// Tells the game thread to stop: its search ends, and the thread ends once it sees its
    /// queue closed (when this handle is dropped).
    fn drop_game(self) {
        self.link.dropped.store(true, Ordering::SeqCst);
        self.link.stop.store(true, Ordering::SeqCst);
    }
}

/// What every request handler shares.
pub struct Shared {
    pub file: PathBuf,
    variant: Option<String>,
    pub guard: Guard,
    games: Mutex<HashMap<u64, Handle>>,
    /// The ids of games dropped lately (at most `MAX_GAMES * 4`), so that a request to one
    /// is told so.
    gone: Mutex<Vec<u64>>,
    next_id: AtomicU64,
    /// Game threads running.
    threads: Arc<AtomicUsize>,
    images: Arc<Images>,
    /// The rules file's watcher (unset when the system has none: then each request compares
    /// the file's modification time).
    watch: OnceLock<Arc<Watch>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while a lock was held leaves data that is still whole (maps and values).
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    pub fn new(file: PathBuf, variant: Option<&str>, guard: Guard) -> Shared {
        Shared {
            file,
            variant: variant.map(str::to_string),
            guard,
            games: Mutex::new(HashMap::new()),
            gone: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
            threads: Arc::default(),
            images: Arc::new(Images::default()),
            watch: OnceLock::new(),
        }
    }

    pub fn set_watch(&self, w: Arc<Watch>) {
        let _ = self.watch.set(w);
    }

    /// Wakes every game after the rules changed, so that each reloads without waiting for a
    /// request.
    pub fn wake_all(&self) {
        let games = lock(&self.games);
        for h in games.values() {
            let (tx, _) = sync_channel(1);
            let _ = h.jobs.try_send((Command::State, tx));
        }
    }

    fn forget(&self, id: u64, h: Handle) {
        h.drop_game();
        let mut gone = lock(&self.gone);
        if gone.len() >= MAX_GAMES * 4 {
            gone.remove(0);
        }
        gone.push(id);
    }
}

/// An answer.
pub type Reply = Response<Bytes>;

fn reply(status: u16, kind: &'static str, body: impl Into<Bytes>) -> Reply {
    let mut r = Response::new(body.into());
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    r.headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// An error answer: `{"error": msg}`.
pub fn error(status: u16, msg: &str) -> Reply {
    reply(
        status,
        "application/json",
        json!({ "error": msg }).to_string(),
    )
}

fn ok(v: &Value) -> Reply {
    reply(200, "application/json", v.to_string())
}

/// Checks a request's headers before its body is read: `Err` says why it is refused, and
/// [`refusal`] is the answer.
pub fn admit(shared: &Shared, parts: &Parts) -> Result<bool, Refusal> {
    let m = &parts.method;
    if *m != Method::GET && *m != Method::HEAD && *m != Method::POST {
        return Err(Refusal {
            status: 405,
            why: "only GET and POST are answered",
        });
    }
    shared.guard.admit(m, parts.uri.query(), &parts.headers)
}

/// The answer to a refused request.
pub fn refusal(r: Refusal) -> Reply {
    error(r.status, r.why)
}

/// Answers a request: the guard's checks, then the route.
pub fn handle(shared: &Shared, parts: &Parts, body: &[u8]) -> Reply {
    match admit(shared, parts) {
        Err(r) => refusal(r),
        Ok(set_cookie) => respond(shared, parts, body, set_cookie),
    }
}

/// Answers a request that [`admit`] let through.
fn respond(shared: &Shared, parts: &Parts, body: &[u8], set_cookie: bool) -> Reply {
    let mut r = route(shared, &parts.method, parts.uri.path(), body);
    if set_cookie {
        if let Ok(v) = HeaderValue::from_str(&shared.guard.set_cookie()) {
            r.headers_mut().insert(SET_COOKIE, v);
        }
    }
    r
}

fn route(shared: &Shared, method: &Method, path: &str, body: &[u8]) -> Reply {
    let body = if *method == Method::POST {
        if body.len() > MAX_BODY {
            return error(413, "the request body is too large");
        }
        if body.iter().all(u8::is_ascii_whitespace) {
            Value::Object(Default::default())
        } else {
            match serde_json::from_slice::<Value>(body) {
                Ok(v) if v.is_object() => v,
                _ => return error(400, "the body must be a JSON object"),
            }
        }
    } else {
        Value::Null
    };
    let get = *method == Method::GET || *method == Method::HEAD;
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (get, parts.as_slice()) {
        (true, [""]) | (true, ["index.html"]) => reply(200, "text/html; charset=utf-8", PAGE),
        (true, ["page.js"]) => reply(200, "text/javascript; charset=utf-8", SCRIPT),
        (true, ["images", name]) => image(shared, name),
        (false, ["api", "games"]) => new_game(shared, &body),
        (true, ["api", "games", id]) => match id.parse::<u64>() {
            Ok(id) => ask(shared, id, Command::State),
            Err(_) => error(404, "no such game"),
        },
        (false, ["api", "games", id]) => match id.parse::<u64>() {
            Ok(id) => match Command::from_body(body) {
                Ok(cmd) => ask(shared, id, cmd),
                Err(e) => error(400, &e),
            },
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
            Ok(png) => {
                let mut r = reply(200, "image/png", png.bytes.clone());
                r.headers_mut()
                    .insert(CACHE_CONTROL, HeaderValue::from_static("max-age=3600"));
                r
            }
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
    let running = ThreadCount::take(&shared.threads);
    let Some(running) = running else {
        return error(
            503,
            "too many games are starting or closing at once; try again in a moment",
        );
    };
    let id = shared.next_id.fetch_add(1, Ordering::SeqCst);
    let (jobs, rx) = sync_channel::<Job>(QUEUE);
    let (first_tx, first_rx) = channel();
    let link = GameLink::default();
    let file = shared.file.clone();
    let thread_link = link.clone();
    let pictures = shared.images.clone();
    let watch = shared.watch.get().cloned();
    let spawned = std::thread::Builder::new()
        .name(format!("zrf-game-{id}"))
        .stack_size(64 << 20)
        .spawn(move || {
            let _running = running;
            game_thread(
                id,
                file,
                (pictures, watch),
                variant,
                rx,
                first_tx,
                thread_link,
            )
        });
    if spawned.is_err() {
        return error(503, "cannot start a game thread");
    }
    match first_rx.recv() {
        Ok(Ok(v)) => {
            let evicted = {
                let mut games = lock(&shared.games);
                let old = if games.len() >= MAX_GAMES {
                    let oldest = games.iter().min_by_key(|(_, h)| h.used).map(|(k, _)| *k);
                    oldest.and_then(|k| games.remove(&k).map(|h| (k, h)))
                } else {
                    None
                };
                games.insert(
                    id,
                    Handle {
                        jobs,
                        link,
                        used: Instant::now(),
                    },
                );
                old
            };
            if let Some((k, h)) = evicted {
                shared.forget(k, h);
            }
            ok(&v)
        }
        Ok(Err(e)) => error(422, &e),
        Err(_) => error(500, "the game thread stopped"),
    }
}

/// One of the game threads counted in `Shared::threads`, given back when dropped.
struct ThreadCount(Arc<AtomicUsize>);

impl ThreadCount {
    fn take(n: &Arc<AtomicUsize>) -> Option<ThreadCount> {
        n.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |k| {
            (k < MAX_GAME_THREADS).then_some(k + 1)
        })
        .ok()?;
        Some(ThreadCount(n.clone()))
    }
}

impl Drop for ThreadCount {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn gone(shared: &Shared, id: u64) -> Reply {
    if lock(&shared.gone).contains(&id) {
        error(
            410,
            "this game was closed to make room for newer ones (the server keeps 32); its \
             search is stopped: start a new game",
        )
    } else {
        error(
            404,
            "no such game (it may have been closed; start a new one)",
        )
    }
}

fn ask(shared: &Shared, id: u64, cmd: Command) -> Reply {
    let (jobs, link) = {
        let mut games = lock(&shared.games);
        let Some(h) = games.get_mut(&id) else {
            drop(games);
            return gone(shared, id);
        };
        h.used = Instant::now();
        (h.jobs.clone(), h.link.clone())
    };
    if link.busy.load(Ordering::SeqCst) {
        return match cmd {
            Command::State => ok(&lock(&link.state)),
            Command::Stop => {
                link.stop.store(true, Ordering::SeqCst);
                ok(&lock(&link.state))
            }
            _ => error(409, "the computer is thinking; wait or stop it"),
        };
    }
    let (tx, rx): (_, Receiver<_>) = sync_channel(1);
    match jobs.try_send((cmd, tx)) {
        Ok(()) => {}
        Err(std::sync::mpsc::TrySendError::Full(_)) => {
            return error(503, "the game has too many requests waiting; try again")
        }
        Err(std::sync::mpsc::TrySendError::Disconnected(_)) => {
            return error(410, "the game has ended; start a new one")
        }
    }
    match rx.recv_timeout(ANSWER_WAIT) {
        Ok(Ok(v)) => ok(&v),
        Ok(Err(e)) => error(400, &e),
        Err(_) => ok(&lock(&link.state)),
    }
}
