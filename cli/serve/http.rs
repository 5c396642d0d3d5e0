//! The socket side: hyper's HTTP/1.1 server on a tokio runtime of two threads, with every
//! resource a client can hold bounded.
//!
//! - Connections: at most [`MAX_CONNECTIONS`]. When full, the oldest connection that is
//!   between requests (idle, or still sending its request's head) is closed to make room; if
//!   every one is inside a request, the newcomer gets a fixed 503 written without waiting
//!   and is closed. Nothing on the accepting task ever waits on a client.
//! - A request's head: at most [`MAX_HEAD_BYTES`] and [`MAX_HEADERS`] lines (hyper answers
//!   431 and closes), read within [`HEAD_TIMEOUT`], which also closes idle connections.
//! - A body: read only for `POST`, only after the guard let the head through, at most
//!   [`api::MAX_BODY`] (a larger `Content-Length` is refused before reading), within
//!   [`BODY_TIMEOUT`]. An unread body is never drained: hyper reads what is there and closes.
//! - Handlers: at most [`MAX_IN_FLIGHT`] at once on the blocking pool; past that a request
//!   gets 503 at once. A panic in one is answered 500 and ends nothing else.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, Response};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Body, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};

use super::api::{self, Shared, MAX_BODY};

/// The most connections open at once.
pub const MAX_CONNECTIONS: usize = 512;
/// The most requests answered at once.
pub const MAX_IN_FLIGHT: usize = 64;
/// The longest a request's head may take to arrive, counted from when the server is ready
/// for it (so also the longest a connection may sit idle).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a request's body may take to arrive.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest request head (request line and headers).
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// The most header lines in a request.
pub const MAX_HEADERS: usize = 64;
/// hyper's read buffer (its minimum is 8 KiB): the most a connection buffers at once.
const MAX_BUFFER: usize = 64 * 1024;

const FULL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
Content-Length: 44\r\nConnection: close\r\n\r\n{\"error\": \"too many connections; try again\"}";

/// A bound listening socket.
pub struct Listener {
    socket: std::net::TcpListener,
    pub local_addr: SocketAddr,
}

pub fn bind(host: &str, port: u16) -> std::io::Result<Listener> {
    let socket = std::net::TcpListener::bind((host, port))?;
    socket.set_nonblocking(true)?;
    let local_addr = socket.local_addr()?;
    Ok(Listener { socket, local_addr })
}

/// Serves until Ctrl-C.
pub fn serve(listener: Listener, shared: Arc<Shared>) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(MAX_IN_FLIGHT + 2)
        .thread_name("zrf-http")
        .enable_all()
        .build()?;
    let stop = Arc::new(Notify::new());
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || stop.notify_one());
    }
    let served = rt.block_on(accept(listener, shared, stop));
    // A handler may be waiting on a game thread: do not wait for it.
    rt.shutdown_timeout(Duration::from_secs(1));
    served
}

/// The open connections, oldest first, and whether each is inside a request.
#[derive(Default)]
struct Connections {
    table: Mutex<(u64, BTreeMap<u64, Slot>)>,
}

#[derive(Clone)]
struct Slot {
    /// Requests of the connection being answered (0 or 1 with HTTP/1.1).
    busy: Arc<AtomicUsize>,
    /// Closes the connection.
    shed: Arc<Notify>,
}

/// A connection's place in the table, given back when dropped.
struct Ticket {
    id: u64,
    slot: Slot,
    all: Arc<Connections>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut t = self
            .all
            .table
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        t.1.remove(&self.id);
    }
}

impl Connections {
    /// A place for a new connection, making room if needed; `None` when every connection
    /// is inside a request.
    fn admit(self: &Arc<Self>) -> Option<Ticket> {
        let mut t = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        if t.1.len() >= MAX_CONNECTIONS {
            let idle =
                t.1.iter()
                    .find(|(_, s)| s.busy.load(Ordering::SeqCst) == 0)
                    .map(|(k, _)| *k)?;
            if let Some(s) = t.1.remove(&idle) {
                s.shed.notify_one();
            }
        }
        t.0 += 1;
        let id = t.0;
        let slot = Slot {
            busy: Arc::default(),
            shed: Arc::default(),
        };
        t.1.insert(id, slot.clone());
        Some(Ticket {
            id,
            slot,
            all: self.clone(),
        })
    }
}

async fn accept(listener: Listener, shared: Arc<Shared>, stop: Arc<Notify>) -> std::io::Result<()> {
    let listener = TcpListener::from_std(listener.socket)?;
    let connections = Arc::new(Connections::default());
    let in_flight = Arc::new(Semaphore::new(MAX_IN_FLIGHT));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_BUFFER)
        .max_headers(MAX_HEADERS)
        .max_header_size(MAX_HEAD_BYTES);
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                Err(_) => {
                    // Out of file descriptors, or a connection reset before it was taken:
                    // wait a moment rather than spin.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            _ = stop.notified() => return Ok(()),
        };
        let Some(ticket) = connections.admit() else {
            // One non-blocking write into an empty socket buffer, then closed.
            let _ = stream.try_write(FULL);
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(
            stream,
            ticket,
            builder.clone(),
            shared.clone(),
            in_flight.clone(),
        ));
    }
}

/// Counts a request as under way on its connection while it lives.
struct Busy(Arc<AtomicUsize>);

impl Busy {
    fn new(n: &Arc<AtomicUsize>) -> Busy {
        n.fetch_add(1, Ordering::SeqCst);
        Busy(n.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn connection(
    stream: TcpStream,
    ticket: Ticket,
    builder: http1::Builder,
    shared: Arc<Shared>,
    in_flight: Arc<Semaphore>,
) {
    let busy = ticket.slot.busy.clone();
    let service = service_fn(move |req: Request<Incoming>| {
        let (shared, in_flight) = (shared.clone(), in_flight.clone());
        let busy = Busy::new(&busy);
        async move {
            let answer = answer(req, shared, in_flight).await;
            drop(busy);
            Ok::<_, Infallible>(answer)
        }
    });
    let conn = builder.serve_connection(TokioIo::new(stream), service);
    tokio::select! {
        _ = conn => {}
        _ = ticket.slot.shed.notified() => {}
    }
    drop(ticket);
}

fn full(r: api::Reply) -> Response<Full<Bytes>> {
    r.map(Full::new)
}

async fn answer(
    req: Request<Incoming>,
    shared: Arc<Shared>,
    in_flight: Arc<Semaphore>,
) -> Response<Full<Bytes>> {
    let (parts, body) = req.into_parts();
    // The head is checked before the body is read; `api::handle` checks it again (the same
    // answer), so that what the fuzz target calls is what answers here.
    if let Err(r) = api::admit(&shared, &parts) {
        return full(api::refusal(r));
    }
    let bytes = if parts.method == Method::POST {
        match read_body(body).await {
            Ok(b) => b,
            Err(r) => return full(r),
        }
    } else {
        Bytes::new()
    };
    let Ok(permit) = in_flight.try_acquire_owned() else {
        return full(api::error(503, "too many requests at once; try again"));
    };
    let answered = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        api::handle(&shared, &parts, &bytes)
    })
    .await;
    match answered {
        Ok(r) => full(r),
        Err(_) => full(api::error(
            500,
            "internal error while answering (a bug in zrf); nothing else is affected",
        )),
    }
}

/// A request's body: at most `MAX_BODY` bytes, within `BODY_TIMEOUT`.
async fn read_body(body: Incoming) -> Result<Bytes, api::Reply> {
    let too_large = || api::error(413, "the request body is too large");
    if body.size_hint().lower() > MAX_BODY as u64 {
        return Err(too_large());
    }
    let read = tokio::time::timeout(BODY_TIMEOUT, Limited::new(body, MAX_BODY).collect()).await;
    match read {
        Err(_) => Err(api::error(408, "the request body took too long to arrive")),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => Err(too_large()),
        Ok(Err(_)) => Err(api::error(400, "cannot read the request body")),
        Ok(Ok(c)) => Ok(c.to_bytes()),
    }
}
