//! `zrf serve` against hostile clients: each class of request that once crashed, froze or
//! read through the server, sent to the real binary on a loopback port. Every test is bounded
//! in time (connections have timeouts, loops have counts).

mod web;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use web::{exchange, rss_mib, threads_named, Served};

/// Opens a connection with read and write timeouts.
fn connect(addr: &str) -> TcpStream {
    let s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
    s
}

/// Reads a response's status line, or `None` when the server closed without one.
fn status_of(s: &mut TcpStream) -> Option<u16> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(2).any(|w| w == b"\r\n") {
        match s.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&buf)
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
}

/// A normal client: a game's state, answered within `limit`.
fn answered_within(s: &Served, game: &str, limit: Duration) -> Duration {
    let t = Instant::now();
    let (code, st) = s.get(game);
    let took = t.elapsed();
    assert_eq!(code, 200, "{st}");
    assert!(st["moves"].is_array());
    assert!(took < limit, "a normal client waited {took:?}");
    took
}

fn new_game(s: &Served) -> String {
    let (code, st) = s.post("/api/games", &json!({}));
    assert_eq!(code, 200, "{st}");
    format!("/api/games/{}", st["id"])
}

#[test]
fn a_huge_content_length_with_no_body_is_refused_without_allocating() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    let before = rss_mib(s.pid());
    for method in ["GET", "POST"] {
        let mut c = connect(&s.addr);
        let head = format!(
            "{method} {game} HTTP/1.1\r\nHost: {}\r\n{}\r\nContent-Type: application/json\r\nContent-Length: 100000000000000\r\n\r\n",
            s.addr,
            s.auth()
        );
        c.write_all(head.as_bytes()).unwrap();
        let code = status_of(&mut c);
        // A GET's body is not read (the state is sent); a POST's is refused unread.
        let want = if method == "GET" { 200 } else { 413 };
        assert_eq!(code, Some(want), "{method}");
    }
    // Still serving, and no allocation of the declared size.
    answered_within(&s, &game, Duration::from_secs(5));
    assert!(
        rss_mib(s.pid()) < before + 50,
        "{} MiB after, {before} MiB before",
        rss_mib(s.pid())
    );
}

#[test]
fn slow_body_clients_do_not_hold_up_a_normal_client() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    // 80 clients send a POST's head and one byte of its body, then nothing.
    let mut slow = Vec::new();
    for _ in 0..80 {
        let mut c = connect(&s.addr);
        let head = format!(
            "POST {game} HTTP/1.1\r\nHost: {}\r\n{}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{",
            s.addr,
            s.auth()
        );
        c.write_all(head.as_bytes()).unwrap();
        slow.push(c);
    }
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..5 {
        answered_within(&s, &game, Duration::from_secs(2));
    }
    // The slow bodies are given up after the body timeout (10 s) with 408.
    let t = Instant::now();
    let code = status_of(&mut slow[0]);
    assert_eq!(code, Some(408));
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
}

#[test]
fn oversized_headers_are_refused_and_cost_nothing_after() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    let before = rss_mib(s.pid());
    // Header lines without end: the server answers 431 and closes long before 64 MiB.
    let mut c = connect(&s.addr);
    c.write_all(format!("GET {game} HTTP/1.1\r\nHost: {}\r\n", s.addr).as_bytes())
        .unwrap();
    let line = format!("X-Filler: {}\r\n", "a".repeat(1000));
    let mut sent = 0usize;
    while sent < 64 << 20 {
        if c.write_all(line.as_bytes()).is_err() {
            break;
        }
        sent += line.len();
    }
    assert!(sent < 64 << 20, "the server took {sent} bytes of headers");
    let code = status_of(&mut c);
    assert!(code == Some(431) || code.is_none(), "{code:?}");
    // Many header lines, each short.
    let many: Vec<String> = (0..200).map(|i| format!("X-N{i}: 1")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let (code, _, _) = exchange(&s.addr, "GET", &game, &many, b"");
    assert_eq!(code, 431);
    answered_within(&s, &game, Duration::from_secs(5));
    assert!(rss_mib(s.pid()) < before + 50, "{} MiB", rss_mib(s.pid()));
}

#[test]
fn an_idle_connection_flood_is_bounded() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    let pid = s.pid();
    let before = rss_mib(pid);
    // 1,500 idle connections, three times the server's limit.
    let idle: Vec<TcpStream> = (0..1500).map(|_| connect(&s.addr)).collect();
    std::thread::sleep(Duration::from_millis(500));
    answered_within(&s, &game, Duration::from_secs(2));
    let threads = web::proc_status(pid, "Threads");
    assert!(threads < 100, "{threads} threads");
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count();
    assert!(fds < 600, "{fds} descriptors open");
    assert!(rss_mib(pid) < before + 50, "{} MiB", rss_mib(pid));
    drop(idle);
}

#[test]
fn dropped_games_stop_their_searches_and_free_their_threads() {
    let s = Served::start("games/chess.zrf", &[]);
    let pid = s.pid();
    // Four games in which the computer thinks for a day.
    let mut thinking = Vec::new();
    for _ in 0..4 {
        let game = new_game(&s);
        let (code, st) = s.post(
            &game,
            &json!({"cmd": "engine", "setting": "alphabeta time 86400s"}),
        );
        assert_eq!(code, 200, "{st}");
        let (code, st) = s.post(&game, &json!({"cmd": "computer", "sides": [true, false]}));
        assert_eq!(code, 200, "{st}");
        assert_eq!(st["thinking"], true);
        thinking.push(game);
    }
    // 32 newer games push them out.
    for _ in 0..32 {
        new_game(&s);
    }
    let t = Instant::now();
    while threads_named(pid, "zrf-game") > 32 {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "{} game threads",
            threads_named(pid, "zrf-game")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(threads_named(pid, "zrf-game"), 32);
    // A dropped game answers clearly, `stop` included.
    for game in &thinking {
        let (code, st) = s.post(game, &json!({"cmd": "stop"}));
        assert_eq!(code, 410, "{st}");
        assert!(st["error"].as_str().unwrap().contains("closed"), "{st}");
    }
}

/// A record naming its rules file by `tag`, as PGN.
fn record_naming(tag: &str) -> String {
    format!("[Game \"{tag}\"]\n\n1. e4 e5 *\n")
}

#[test]
fn a_record_cannot_read_outside_the_served_folder() {
    let root = std::env::temp_dir().join(format!("zrf-serve-load-{}", std::process::id()));
    let served = root.join("served");
    std::fs::create_dir_all(&served).unwrap();
    let chess = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf"),
    )
    .unwrap();
    std::fs::write(served.join("chess.zrf"), &chess).unwrap();
    // Outside: a rules file, a file that starts like one and holds a secret, a folder.
    std::fs::write(root.join("other.zrf"), &chess).unwrap();
    std::fs::write(root.join("secret.zrf"), "(game SECRET-LINE-42\n").unwrap();
    std::fs::create_dir_all(root.join("adir.zrf")).unwrap();
    let s = Served::start(&served.join("chess.zrf").to_string_lossy(), &[]);
    let game = new_game(&s);
    let outside = |name: &str| root.join(name).to_string_lossy().into_owned();
    let names = [
        outside("other.zrf"),
        outside("secret.zrf"),
        outside("adir.zrf"),
        outside("missing.zrf"),
        "../other.zrf".to_string(),
        "../secret.zrf".to_string(),
        "/etc/passwd".to_string(),
        "/etc/hostname".to_string(),
    ];
    let mut answers = Vec::new();
    for name in &names {
        let (code, st) = s.post(
            &game,
            &json!({"cmd": "load", "name": "x.pgn", "record": record_naming(name)}),
        );
        assert_eq!(code, 400, "{name}: {st}");
        let e = st["error"].as_str().unwrap().to_string();
        assert!(!e.contains("SECRET"), "{name}: {e}");
        // The same answer whatever exists there, once the name the record gave is removed.
        answers.push(e.replace(name.as_str(), "NAME"));
    }
    assert!(
        answers.windows(2).all(|w| w[0] == w[1]),
        "answers differ: {answers:#?}"
    );
    // The game in progress is unchanged, and its rules too.
    let (_, st) = s.get(&game);
    assert_eq!(st["history"], json!([]));
    // A rules file of the served folder, by bare name, loads.
    let (code, st) = s.post(
        &game,
        &json!({"cmd": "load", "name": "x.pgn", "record": record_naming("chess.zrf")}),
    );
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["history"], json!(["e2-e4", "e7-e5"]));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn records_too_long_for_a_game_are_refused() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(1300).join(" ");
    let (code, st) = s.post(
        &game,
        &json!({"cmd": "load", "name": "long.pgn", "record": format!("{moves} *\n")}),
    );
    assert_eq!(code, 400, "{st}");
    assert!(
        st["error"].as_str().unwrap().contains("at most 5000 moves"),
        "{st}"
    );
    // A file of 200,000 empty games costs no more than its text.
    let before = rss_mib(s.pid());
    let empty = "*\n".repeat(200_000);
    let (code, st) = s.post(
        &game,
        &json!({"cmd": "load", "name": "many.pgn", "record": empty}),
    );
    assert_eq!(code, 200, "{st}");
    assert!(rss_mib(s.pid()) < before + 50, "{} MiB", rss_mib(s.pid()));
}

/// Requests without the token, with a wrong one, and the ways of sending the right one.
#[test]
fn the_token_is_required() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    let wrong = "Authorization: token 0000";
    for path in ["/", "/page.js", "/api/games", &game, "/images/0.png"] {
        for method in ["GET", "POST"] {
            for headers in [vec![], vec![wrong]] {
                let (code, _, body) = exchange(&s.addr, method, path, &headers, b"{}");
                assert_eq!(code, 403, "{method} {path} {headers:?}");
                let body: Value = serde_json::from_slice(&body).unwrap();
                assert!(body["error"].as_str().unwrap().contains("token"), "{body}");
            }
        }
    }
    let (code, _, _) = exchange(&s.addr, "GET", "/?token=0000", &[], b"");
    assert_eq!(code, 403);
    // The token in the page's URL sets a cookie that later requests carry.
    let (code, head, page) = exchange(&s.addr, "GET", &format!("/?token={}", s.token), &[], b"");
    assert_eq!(code, 200);
    assert!(String::from_utf8_lossy(&page).contains("<svg id=\"board\""));
    let cookie = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or(l.strip_prefix("Set-Cookie: "))
        })
        .expect("a cookie")
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().unwrap();
    let (code, _, _) = exchange(&s.addr, "GET", &game, &[&format!("Cookie: {pair}")], b"");
    assert_eq!(code, 200);
    let (code, _, _) = exchange(&s.addr, "GET", &game, &[&s.auth()], b"");
    assert_eq!(code, 200);
    // Listening on every address changes nothing: the token is still required.
    let all = Served::start("games/chess.zrf", &["--host", "0.0.0.0"]);
    let (code, _, _) = exchange(&all.addr, "POST", "/api/games", &[], b"{}");
    assert_eq!(code, 403);
    let (code, _) = all.post("/api/games", &json!({}));
    assert_eq!(code, 200);
}

#[test]
fn a_host_naming_another_site_is_refused() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    let port = s.addr.rsplit(':').next().unwrap();
    for host in [
        format!("evil.example:{port}"),
        "attacker.test".to_string(),
        format!("127.0.0.1.nip.io:{port}"),
    ] {
        let (code, _, body) = exchange(
            &s.addr,
            "GET",
            &game,
            &[&s.auth(), &format!("Host: {host}")],
            b"",
        );
        assert_eq!(code, 403, "{host}");
        assert!(String::from_utf8_lossy(&body).contains("Host"), "{host}");
    }
    for host in [
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        s.addr.clone(),
    ] {
        let (code, _, _) = exchange(
            &s.addr,
            "GET",
            &game,
            &[&s.auth(), &format!("Host: {host}")],
            b"",
        );
        assert_eq!(code, 200, "{host}");
    }
}

#[test]
fn a_cross_site_origin_is_refused() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    let body = json!({"cmd": "move", "move": "e2-e4"}).to_string();
    for origin in ["http://evil.example", "null", "https://127.0.0.1"] {
        let (code, _, answer) = exchange(
            &s.addr,
            "POST",
            &game,
            &[&s.auth(), &format!("Origin: {origin}")],
            body.as_bytes(),
        );
        assert_eq!(code, 403, "{origin}");
        assert!(String::from_utf8_lossy(&answer).contains("cross-site"));
    }
    let (_, st) = s.get(&game);
    assert_eq!(st["history"], json!([]), "nothing was played");
    let own = format!("Origin: http://{}", s.addr);
    let (code, _, _) = exchange(&s.addr, "POST", &game, &[&s.auth(), &own], body.as_bytes());
    assert_eq!(code, 200);
}

#[test]
fn json_sent_as_another_type_is_refused() {
    let s = Served::start("games/chess.zrf", &[]);
    let game = new_game(&s);
    let body = json!({"cmd": "move", "move": "e2-e4"}).to_string();
    for kind in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let (code, _, _) = exchange(
            &s.addr,
            "POST",
            &game,
            &[&s.auth(), &format!("Content-Type: {kind}")],
            body.as_bytes(),
        );
        assert_eq!(code, 415, "{kind}");
    }
    let (_, st) = s.get(&game);
    assert_eq!(st["history"], json!([]), "nothing was played");
}
