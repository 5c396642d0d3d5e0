//! Test helpers for `zrf serve`: the binary on a free loopback port, a small HTTP/1.1 client
//! (one request per connection) and a WebDriver client over the same.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Sends one request; the status and the body.
pub fn request(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    request_with(addr, method, path, &[], body)
}

/// Sends one request with extra header lines (`"Name: value"`); the status and the body.
pub fn request_with(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &[u8],
) -> (u16, Vec<u8>) {
    let (code, _, body) = exchange(addr, method, path, headers, body);
    (code, body)
}

/// Sends one request with extra header lines; the status, the response head and the body.
pub fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &[u8],
) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let mut extra = String::new();
    for h in headers {
        extra.push_str(h);
        extra.push_str("\r\n");
    }
    let has = |name: &str| {
        headers
            .iter()
            .any(|h| h.to_ascii_lowercase().starts_with(&format!("{name}:")))
    };
    if !has("host") {
        extra.push_str(&format!("Host: {addr}\r\n"));
    }
    if !has("content-type") {
        extra.push_str("Content-Type: application/json\r\n");
    }
    let head = format!(
        "{method} {path} HTTP/1.1\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let _ = s.write_all(body);
    // Read until the body is complete: chromedriver keeps the connection open.
    let mut out = Vec::new();
    let mut buf = [0u8; 16384];
    loop {
        if let Some(end) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&out[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if length.is_some_and(|n| out.len() >= end + 4 + n) {
                break;
            }
        }
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    let text_end = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8_lossy(&out[..text_end]).to_string();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    let mut body = out[text_end + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    (status, head, body)
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 || b.len() < eol + 4 + size {
            break;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[eol + 4 + size..];
    }
    out
}

/// `zrf serve FILE --port 0`, stopped when dropped.
pub struct Served {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The token printed in the URL.
    pub token: String,
}

impl Served {
    pub fn start(file: &str, args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zrf"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["serve", file, "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("zrf serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("an address in {line:?}"))
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "bound to loopback: {addr}");
        let token = line
            .split("?token=")
            .nth(1)
            .map(|t| t.split_whitespace().next().unwrap_or("").to_string())
            .unwrap_or_else(|| panic!("a token in {line:?}"));
        Served { child, addr, token }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The page's URL, with the token.
    pub fn url(&self) -> String {
        format!("http://{}/?token={}", self.addr, self.token)
    }

    /// The header that carries the token.
    pub fn auth(&self) -> String {
        format!("Authorization: token {}", self.token)
    }

    /// One request with the token.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
        request_with(&self.addr, method, path, &[&self.auth()], body)
    }

    pub fn raw(&self, method: &str, path: &str, body: &[u8]) -> (u16, Value) {
        let (code, b) = self.request(method, path, body);
        (code, serde_json::from_slice(&b).unwrap_or(Value::Null))
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.raw("POST", path, body.to_string().as_bytes())
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        self.raw("GET", path, b"")
    }

    pub fn text(&self, path: &str) -> (u16, String) {
        let (code, b) = self.request("GET", path, b"");
        (code, String::from_utf8_lossy(&b).to_string())
    }

    /// Polls a game until `done` holds (at most 30 s).
    pub fn wait(&self, game: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let (_, st) = self.get(game);
            if done(&st) && st["thinking"] == false {
                return st;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "timed out: {st}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A line of `/proc/PID/status` (`VmRSS`, `Threads`) as a number.
pub fn proc_status(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The resident memory of a process, in MiB.
pub fn rss_mib(pid: u32) -> u64 {
    proc_status(pid, "VmRSS") / 1024
}

/// The threads of a process whose name starts with `prefix`.
pub fn threads_named(pid: u32, prefix: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter(|t| {
            std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.starts_with(prefix))
        })
        .count()
}

/// Where a program is on `PATH`.
pub fn which(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A headless Chromium driven through chromedriver's WebDriver protocol.
pub struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    /// Starts chromedriver and a headless session; `None` when chromedriver is missing.
    pub fn start() -> Option<Browser> {
        let driver_path = which("chromedriver")?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        let driver = Command::new(driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let addr = format!("127.0.0.1:{port}");
        let start = Instant::now();
        while TcpStream::connect(&addr).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut args = vec![
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=1100,800",
        ];
        args.push("--hide-scrollbars");
        let mut options = serde_json::json!({ "args": args });
        if let Some(bin) = which("chromium") {
            options["binary"] = Value::String(bin.to_string_lossy().to_string());
        }
        let caps = serde_json::json!({
            "capabilities": { "alwaysMatch": { "goog:chromeOptions": options } }
        });
        let mut b = Browser {
            driver,
            addr,
            session: String::new(),
        };
        let v = b.call("POST", "/session", &caps);
        b.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("a WebDriver session: {v}"))
            .to_string();
        Some(b)
    }

    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        let body = if method == "GET" {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        let (code, out) = request(&self.addr, method, path, &body);
        let v: Value = serde_json::from_slice(&out).unwrap_or(Value::Null);
        assert!(code < 300, "WebDriver {method} {path}: {code} {v}");
        v["value"].clone()
    }

    fn at(&self, tail: &str) -> String {
        format!("/session/{}{tail}", self.session)
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", &self.at("/url"), &serde_json::json!({ "url": url }));
    }

    /// Runs a script in the page (a returned promise is awaited).
    pub fn exec(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            &self.at("/execute/sync"),
            &serde_json::json!({ "script": script, "args": args }),
        )
    }

    /// Clicks the first element matching a CSS selector.
    pub fn click(&self, css: &str) {
        let v = self.call(
            "POST",
            &self.at("/element"),
            &serde_json::json!({ "using": "css selector", "value": css }),
        );
        let id = v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("an element for {css}: {v}"))
            .to_string();
        self.call(
            "POST",
            &self.at(&format!("/element/{id}/click")),
            &serde_json::json!({}),
        );
    }

    /// Waits until a script returns true (at most 30 s).
    pub fn wait(&self, what: &str, script: &str) {
        let start = Instant::now();
        while self.exec(script, serde_json::json!([])) != Value::Bool(true) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "timed out waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Saves a PNG screenshot of the page.
    pub fn screenshot(&self, path: &std::path::Path) {
        let v = self.call("GET", &self.at("/screenshot"), &Value::Null);
        let png = base64(v.as_str().expect("base64 text"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(&self.addr, "DELETE", &self.at(""), b"");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(val).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &d) in chunk.iter().enumerate() {
            n |= (d as u32) << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}
