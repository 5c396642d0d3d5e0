//! LSP's framing on standard input and output (`Content-Length` headers, JSON bodies), with
//! lsp-server's message types. Unlike lsp-server's own stdio transport, a malformed message
//! (bad JSON, a missing or huge length, an over-long header) is answered with a JSON-RPC error
//! and skipped, so nothing a client sends stops the server or makes it read without bound.

use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, Message};
use serde_json::{json, Value};

/// The largest message read (a document of the library's largest file, escaped, fits).
pub const MAX_MESSAGE: usize = 64 << 20;
/// The longest header line read.
const MAX_HEADER: usize = 8 << 10;

/// JSON-RPC's codes for a body that is not JSON and for one that is not a message.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

/// What one frame held.
enum Frame {
    Body(Vec<u8>),
    /// A frame that cannot be read; the reason, answered to the client.
    Bad(String),
}

/// A connection on standard input and output, and the thread that writes (joined at the
/// end so that every answer is flushed). The reader stops at `exit` or the end of input.
pub fn stdio() -> (Connection, JoinHandle<()>) {
    let (to_client, outgoing) = bounded::<Message>(0);
    let (incoming, from_client) = bounded::<Message>(0);
    let writer = std::thread::spawn(move || {
        for msg in outgoing {
            if msg.write(&mut io::stdout().lock()).is_err() {
                return;
            }
        }
    });
    std::thread::spawn(move || read_all(&mut io::stdin().lock(), &incoming, &mut io::stdout()));
    let conn = Connection {
        sender: to_client,
        receiver: from_client,
    };
    (conn, writer)
}

/// Reads messages until the end of input or `exit`, sending each on; a bad frame is answered
/// on `out` with an error and skipped.
pub fn read_all(input: &mut impl BufRead, to_server: &Sender<Message>, out: &mut impl Write) {
    loop {
        let frame = match read_frame(input) {
            Ok(Some(frame)) => frame,
            Ok(None) | Err(_) => return,
        };
        let reply = match frame {
            Frame::Body(body) => match parse(&body) {
                Ok(msg) => {
                    let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                    if to_server.send(msg).is_err() || exit {
                        return;
                    }
                    continue;
                }
                Err(reply) => reply,
            },
            Frame::Bad(why) => error(Value::Null, INVALID_REQUEST, &why),
        };
        let text = reply.to_string();
        // One write: standard output is locked for it, so no other answer splits the frame.
        let frame = format!("Content-Length: {}\r\n\r\n{text}", text.len());
        let _ = out.write_all(frame.as_bytes());
        let _ = out.flush();
    }
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// A body as a message, or the error to answer.
fn parse(body: &[u8]) -> Result<Message, Value> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| error(Value::Null, PARSE_ERROR, &format!("not JSON: {e}")))?;
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let has = |k: &str| value.get(k).is_some();
    if !has("method") && !has("result") && !has("error") {
        return Err(error(id, INVALID_REQUEST, "a message needs a `method`"));
    }
    serde_json::from_value(value)
        .map_err(|e| error(id, INVALID_REQUEST, &format!("not a JSON-RPC message: {e}")))
}

/// One header line, without its line end; `None` at the end of input. A line longer than
/// [`MAX_HEADER`] is read to its end and given as `Err`.
fn header_line(input: &mut impl BufRead) -> io::Result<Option<Result<String, ()>>> {
    let mut line = Vec::new();
    let n = input
        .by_ref()
        .take(MAX_HEADER as u64)
        .read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    if !line.ends_with(b"\n") {
        if n < MAX_HEADER {
            return Ok(None); // the input ended inside the line
        }
        // Skip the rest of the over-long line, a bounded piece at a time.
        loop {
            let mut rest = Vec::new();
            let m = input
                .by_ref()
                .take(MAX_HEADER as u64)
                .read_until(b'\n', &mut rest)?;
            if m == 0 {
                return Ok(None);
            }
            if rest.ends_with(b"\n") {
                return Ok(Some(Err(())));
            }
        }
    }
    let text = String::from_utf8_lossy(&line);
    Ok(Some(Ok(text.trim_end_matches(['\r', '\n']).to_string())))
}

/// The next frame; `None` at the end of input.
fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut bad: Option<String> = None;
    let mut lines = 0;
    loop {
        let line = match header_line(input)? {
            None => return Ok(None),
            Some(Ok(line)) => line,
            Some(Err(())) => {
                bad = Some(format!("a header line is over {MAX_HEADER} bytes"));
                lines += 1;
                continue;
            }
        };
        if line.is_empty() {
            if lines == 0 {
                continue; // blank lines between frames
            }
            break;
        }
        lines += 1;
        let (name, value) = line.split_once(':').unwrap_or((&line, ""));
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| format!("Content-Length `{value}` is not a length")),
            );
        }
    }
    let length = match (length, bad) {
        (Some(Err(why)), _) | (None, Some(why)) => return Ok(Some(Frame::Bad(why))),
        (None, None) => return Ok(Some(Frame::Bad("a message without Content-Length".into()))),
        (Some(Ok(n)), why) => {
            bad = why;
            n
        }
    };
    if length > MAX_MESSAGE {
        let skipped = io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        if skipped < length as u64 {
            return Ok(None);
        }
        return Ok(Some(Frame::Bad(format!(
            "a message of {length} bytes is over the limit of {} MiB",
            MAX_MESSAGE >> 20
        ))));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(match bad {
        Some(why) => Frame::Bad(why),
        None => Frame::Body(body),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &[u8]) -> (Vec<Message>, String) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut out = Vec::new();
        read_all(&mut io::Cursor::new(input), &tx, &mut out);
        drop(tx);
        (
            rx.into_iter().collect(),
            String::from_utf8_lossy(&out).into_owned(),
        )
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn bad_frames_are_answered_and_skipped() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = [
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","id":7,"params":{}}"#),
            "Content-Length: many\r\n\r\n".to_string(),
            format!("X: {}\r\n\r\n", "y".repeat(3 * MAX_HEADER)),
            format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 3) + &"z".repeat(MAX_MESSAGE + 3),
            "\r\n\r\n".to_string(),
            "Content-Type: x\r\n\r\n".to_string(),
            frame(good),
        ]
        .concat();
        let (msgs, out) = run(input.as_bytes());
        assert_eq!(msgs.len(), 1, "{msgs:?}");
        assert!(matches!(&msgs[0], Message::Notification(n) if n.method == "initialized"));
        assert_eq!(out.matches("Content-Length:").count(), 6, "{out}");
        assert!(out.contains("a message without Content-Length"), "{out}");
        assert!(out.contains(r#""code":-32700"#), "{out}");
        assert!(out.contains(r#""id":7"#), "{out}");
        assert!(out.contains("`many` is not a length"), "{out}");
        assert!(out.contains("a header line is over 8192 bytes"), "{out}");
        assert!(out.contains("over the limit of 64 MiB"), "{out}");
    }
}
