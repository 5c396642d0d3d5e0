//! Any request to `zrf serve`'s request handling (`serve::api::handle`, what answers each
//! request read off a socket), without the socket: the server's own code is compiled in
//! through `#[path]`, as the binary compiles it, serving `games/chess.zrf`.
//!
//! The input: the first byte's bits choose the method (bits 0-2) and whether to add a valid
//! token (bit 3), an allowed `Host` (bit 4), `Content-Type: application/json` (bit 5) and
//! whether `{game}` in the path becomes the newest game's id (bit 6); the rest, decoded
//! lossily, is the target on its first line, then header lines up to an empty line, then the
//! body. The answer must never be a 500 (a handler panic), and an answer to `/api/` must be
//! JSON.
#![no_main]
#![allow(dead_code)]

#[path = "../../cli/fsio.rs"]
mod fsio;
#[path = "../../cli/serve/mod.rs"]
mod serve;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serve::api::{handle, Shared};
use serve::Guard;

const TOKEN: &str = "fuzz-token";

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/chess.zrf");
        let file = file.canonicalize().unwrap_or(file);
        Shared::new(file, None, Guard::new(TOKEN.into(), "127.0.0.1", 8080))
    })
}

/// The newest game's id.
static NEWEST: AtomicU64 = AtomicU64::new(1);

const METHODS: [&str; 8] = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "GET"];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (head, body) = match text.find("\n\n") {
        Some(i) => (&text[..i], &text[i + 2..]),
        None => (&text[..], ""),
    };
    let mut lines = head.lines();
    let mut target = lines.next().unwrap_or("/").to_string();
    if flags & 64 != 0 {
        target = target.replace("{game}", &NEWEST.load(Ordering::SeqCst).to_string());
    }
    let mut b = http::Request::builder()
        .method(METHODS[usize::from(flags & 7)])
        .uri(target.as_str());
    for line in lines {
        if let Some((k, v)) = line.split_once(':') {
            b = b.header(k.trim(), v.trim());
        }
    }
    if flags & 8 != 0 {
        b = b.header("authorization", format!("token {TOKEN}"));
    }
    if flags & 16 != 0 {
        b = b.header("host", "127.0.0.1:8080");
    }
    if flags & 32 != 0 {
        b = b.header("content-type", "application/json");
    }
    // What hyper would refuse before a handler saw it (a bad target or header) is skipped.
    let Ok(req) = b.body(()) else {
        return;
    };
    let (parts, ()) = req.into_parts();
    let answer = handle(shared(), &parts, body.as_bytes());
    let status = answer.status().as_u16();
    assert_ne!(status, 500, "{} {}: {:?}", parts.method, parts.uri, answer.body());
    if parts.uri.path().starts_with("/api/") {
        let v: serde_json::Value = serde_json::from_slice(answer.body()).expect("JSON");
        if parts.uri.path() == "/api/games" && status == 200 {
            if let Some(id) = v["id"].as_u64() {
                NEWEST.store(id, Ordering::SeqCst);
            }
        }
    }
});
