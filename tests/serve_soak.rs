//! A bounded soak of `zrf serve` (about 25 s): normal clients, slow clients, oversized
//! requests, an idle connection flood and games dropped while searching for a day, all at
//! once, while a probe asks for its game's state ten times a second. The probe must be
//! answered throughout, and the server's memory and threads must stay bounded.

mod web;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use web::{exchange, proc_status, rss_mib, threads_named, Served};

const RUN: Duration = Duration::from_secs(25);

fn connect(addr: &str) -> Option<TcpStream> {
    let s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    s.set_write_timeout(Some(Duration::from_secs(5))).ok()?;
    Some(s)
}

fn new_game(s: &Served) -> Option<String> {
    let (code, st) = s.post("/api/games", &json!({}));
    (code == 200).then(|| format!("/api/games/{}", st["id"]))
}

struct Workers(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Workers {
    fn stop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
        for w in self.1.drain(..) {
            w.join().expect("a client thread");
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
        for w in self.1.drain(..) {
            let _ = w.join();
        }
    }
}

#[test]
fn the_server_answers_a_normal_client_throughout_a_hostile_load() {
    let s = Arc::new(Served::start("games/chess.zrf", &[]));
    let pid = s.pid();
    let probe_game = new_game(&s).expect("a game");
    let start = Instant::now();
    let running = Arc::new(AtomicBool::new(true));
    let live = {
        let running = running.clone();
        move || running.load(Ordering::SeqCst) && start.elapsed() < RUN
    };
    // Stops and joins the clients when the test ends, also by a failed assertion, so the
    // last reference to the server drops and kills it (no server left running).
    let mut workers = Workers(running.clone(), Vec::new());
    let hostile = Arc::new(AtomicU64::new(0));

    // Normal clients: moves and takebacks in games of their own.
    for _ in 0..4 {
        let (s, live) = (s.clone(), live.clone());
        workers.1.push(std::thread::spawn(move || {
            while live() {
                let Some(game) = new_game(&s) else { continue };
                for _ in 0..10 {
                    s.post(&game, &json!({"cmd": "move", "move": "e2-e4"}));
                    s.post(&game, &json!({"cmd": "undo"}));
                }
            }
        }));
    }
    // Slow clients: a POST's head and one byte of body, held open.
    {
        let (s, live, hostile) = (s.clone(), live.clone(), hostile.clone());
        workers.1.push(std::thread::spawn(move || {
            let mut held = Vec::new();
            while live() {
                for _ in 0..20 {
                    if let Some(mut c) = connect(&s.addr) {
                        let head = format!(
                            "POST /api/games HTTP/1.1\r\nHost: {}\r\n{}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{{",
                            s.addr,
                            s.auth()
                        );
                        let _ = c.write_all(head.as_bytes());
                        held.push(c);
                        hostile.fetch_add(1, Ordering::SeqCst);
                    }
                }
                held.truncate(200);
                std::thread::sleep(Duration::from_millis(1000));
            }
        }));
    }
    // Oversized requests: bodies over the limit, heads over the limit, huge declared lengths.
    {
        let (s, live, hostile) = (s.clone(), live.clone(), hostile.clone());
        workers.1.push(std::thread::spawn(move || {
            let big = vec![b' '; 2 << 20];
            let filler = format!("X-Filler: {}", "a".repeat(60_000));
            while live() {
                s.raw("POST", "/api/games", &big);
                exchange(&s.addr, "GET", "/", &[&s.auth(), &filler], b"");
                if let Some(mut c) = connect(&s.addr) {
                    let head = format!(
                        "POST /api/games HTTP/1.1\r\nHost: {}\r\n{}\r\nContent-Type: application/json\r\nContent-Length: 100000000000000\r\n\r\n",
                        s.addr,
                        s.auth()
                    );
                    let _ = c.write_all(head.as_bytes());
                    let _ = c.read(&mut [0u8; 512]);
                }
                hostile.fetch_add(3, Ordering::SeqCst);
            }
        }));
    }
    // Idle connections: 800 at a time, renewed every few seconds.
    {
        let (s, live, hostile) = (s.clone(), live.clone(), hostile.clone());
        workers.1.push(std::thread::spawn(move || {
            while live() {
                let idle: Vec<TcpStream> = (0..800).filter_map(|_| connect(&s.addr)).collect();
                hostile.fetch_add(idle.len() as u64, Ordering::SeqCst);
                for _ in 0..30 {
                    if !live() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }));
    }
    // Games whose computer searches for a day, pushed out by newer games.
    {
        let (s, live) = (s.clone(), live.clone());
        workers.1.push(std::thread::spawn(move || {
            while live() {
                if let Some(game) = new_game(&s) {
                    s.post(
                        &game,
                        &json!({"cmd": "engine", "setting": "alphabeta time 86400s"}),
                    );
                    s.post(&game, &json!({"cmd": "computer", "sides": [true, false]}));
                }
                for _ in 0..6 {
                    new_game(&s);
                }
                std::thread::sleep(Duration::from_millis(300));
            }
        }));
    }

    // The probe, and the samples of memory and threads.
    let mut worst = Duration::ZERO;
    let mut answered = 0;
    let (mut rss_max, mut threads_max, mut games_max) = (0, 0, 0);
    let rss_start = rss_mib(pid);
    while start.elapsed() < RUN {
        let t = Instant::now();
        let (code, st) = s.get(&probe_game);
        let took = t.elapsed();
        assert_eq!(
            code,
            200,
            "the probe was refused after {:?}: {st}",
            start.elapsed()
        );
        worst = worst.max(took);
        answered += 1;
        rss_max = rss_max.max(rss_mib(pid));
        threads_max = threads_max.max(proc_status(pid, "Threads"));
        games_max = games_max.max(threads_named(pid, "zrf-game"));
        std::thread::sleep(Duration::from_millis(100));
    }
    workers.stop();
    eprintln!(
        "soak: {answered} probes answered, slowest {worst:?}; {} hostile requests and \
         connections; RSS {rss_start} MiB at start, {rss_max} MiB at most; at most \
         {threads_max} threads, {games_max} of them games",
        hostile.load(Ordering::SeqCst)
    );
    assert!(answered > 50, "{answered} probes");
    assert!(worst < Duration::from_secs(5), "the probe waited {worst:?}");
    assert!(rss_max < 600, "{rss_max} MiB");
    // 32 games kept, and at most 8 more starting or ending.
    assert!(games_max <= 40, "{games_max} game threads");
    assert!(threads_max < 200, "{threads_max} threads");
    // Once the load stops, the dropped games' threads are gone.
    let t = Instant::now();
    while threads_named(pid, "zrf-game") > 32 {
        assert!(t.elapsed() < Duration::from_secs(20), "game threads linger");
        std::thread::sleep(Duration::from_millis(200));
    }
}
