//! `zrf serve`: a local web board. Binary side, not the library's: it owns the sockets, the
//! threads and the file watching, and asks the library (`zrf::view`, `zrf::repl::Session`) for
//! everything it shows.
//!
//! The parts, from the socket inwards: `http.rs` (hyper on a small tokio runtime: connection,
//! header, body and time limits), `guard.rs` (the token, Host and Origin checks), `api.rs`
//! (the routes and the games, a plain function of a request that the fuzz target calls too),
//! `game.rs` (one browser tab's game on a thread of its own), `records.rs` (what a loaded
//! record may read), `watch.rs` and `images.rs`.
//!
//! Each browser tab plays its own game, kept by a thread of its own (a session holds data
//! that may not cross threads); request handlers talk to it through a channel. While the
//! computer thinks, the game thread is busy and the HTTP side answers from the last state it
//! published, so the page never waits on a search.

pub mod api;
pub mod command;
mod game;
pub mod guard;
mod http;
mod images;
mod records;
mod watch;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use zrf::repl::OpenError;

use game::{open_session, rules_files};
pub use guard::Guard;
use watch::Watch;

pub use api::Shared;

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
    // The served folder is named absolutely, so that what a record may read does not depend
    // on the current folder.
    let file = absolute(file);
    let token = match guard::new_token() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("zrf serve: no random token: {e}");
            return ExitCode::from(2);
        }
    };
    let listener = match http::bind(host, port) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("zrf serve: cannot listen on {host}:{port}: {e}");
            return ExitCode::from(2);
        }
    };
    let addr = listener.local_addr;
    let shared = Arc::new(Shared::new(
        file.clone(),
        variant,
        Guard::new(token, host, addr.port()),
    ));
    let weak = Arc::downgrade(&shared);
    match Watch::start(move || {
        if let Some(shared) = weak.upgrade() {
            shared.wake_all();
        }
    }) {
        Some(w) => {
            w.add(&rules_files(&file).1);
            shared.set_watch(Arc::new(w));
        }
        None => {
            eprintln!("zrf serve: cannot watch files; changes are seen when the page next asks")
        }
    }
    let shown = if addr.ip().is_unspecified() {
        // Listening everywhere: the loopback address works from this machine.
        std::net::SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), addr.port())
    } else {
        addr
    };
    let url = format!("http://{shown}/?token={}", shared.guard.token());
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
    match http::serve(listener, shared) {
        Ok(()) => {
            println!("zrf serve: stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("zrf serve: {e}");
            ExitCode::from(2)
        }
    }
}

/// `p` from the root, its folder's links resolved (the file itself may be a link).
fn absolute(p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    match (p.parent(), p.file_name()) {
        (Some(dir), Some(name)) => dir.canonicalize().map(|d| d.join(name)).unwrap_or(p),
        _ => p,
    }
}
