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
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
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
    (status, body)
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = b.windows(2).position(|w| w == b"\r\n") else {
            break;
        };
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
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
        Served { child, addr }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    pub fn raw(&self, method: &str, path: &str, body: &[u8]) -> (u16, Value) {
        let (code, b) = request(&self.addr, method, path, body);
        (code, serde_json::from_slice(&b).unwrap_or(Value::Null))
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.raw("POST", path, body.to_string().as_bytes())
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        self.raw("GET", path, b"")
    }

    pub fn text(&self, path: &str) -> (u16, String) {
        let (code, b) = request(&self.addr, "GET", path, b"");
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
