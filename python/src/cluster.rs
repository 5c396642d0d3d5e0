//! What `zrf.cluster` runs on its workers: perft split into tasks by the moves of its first
//! plies, one game of a self-play match, one file of a corpus check, and the engine protocols
//! over standard input and output (`python -m zrf.uci`, `python -m zrf.hub`). Each call is one
//! task's whole work, returns plain data (ints, strings, tuples) that Ray sends back cheaply,
//! and releases the GIL while it runs.

use pyo3::prelude::*;

use zrf::arena::{self, Contestant, Scored, Tally, Verdict};
use zrf::def::PlayerId;
use zrf::engine::{MoveList, PerftOptions, Position, Rules, UndoLog};

use std::sync::Arc;

use crate::files::PyFiles;
use crate::game::Game;
use crate::{error, guard};

/// The most move sequences [`perft_frontier`] lists: a split deeper than this would send
/// more task descriptions than the work is worth.
const MAX_FRONTIER: usize = 2_000_000;

/// Stack of the thread a rules file is loaded on (nesting in rules files is deep).
const BIG_STACK: usize = 256 << 20;

/// The starting position: the game's, or `setup` read as the binary's `--setup`, then
/// `moves` (texts separated by spaces) played from it as the binary's `--moves` plays them.
fn start(rules: &Arc<Rules>, setup: Option<&str>, moves: Option<&str>) -> PyResult<Position> {
    let pos = match setup {
        None => rules.initial(),
        Some(text) => zrf::setup::parse(rules, text).map_err(|e| {
            error(format!(
                "bad setup: {}",
                zrf::repl::printable(&e.to_string())
            ))
        })?,
    };
    let Some(moves) = moves.filter(|m| !m.trim().is_empty()) else {
        return Ok(pos);
    };
    let mut game = zrf::play::Game::new(rules.clone(), pos);
    for (k, mv) in moves.split_whitespace().enumerate() {
        game.play(mv).map_err(|e| {
            error(format!(
                "move {} `{mv}`: {}",
                k + 1,
                zrf::repl::printable_lines(&e.to_string())
            ))
        })?;
    }
    Ok(game.pos)
}

fn legal(rules: &Rules, pos: &mut Position, list: &mut MoveList, unique: bool) {
    rules.legal_moves(pos, list);
    if unique {
        zrf::engine::unique_captures(list);
    }
}

/// The root moves' texts, the move sequences of the split depth, and the leaf counts above it.
type Frontier = (Vec<String>, Vec<Vec<u32>>, Vec<u64>);

/// Every sequence of `split` moves from the start (each move an index into the legal list
/// of its position, as perft orders them), the texts of the root moves, and the leaf counts
/// of depths 1 to `split` (the number of sequences of each length). Sequences that end early
/// (a position without moves) are dropped: they add nothing deeper.
#[pyfunction]
#[pyo3(signature = (game, split, setup=None, unique=false, moves=None))]
pub fn perft_frontier(
    py: Python<'_>,
    game: PyRef<'_, Game>,
    split: u32,
    setup: Option<String>,
    unique: bool,
    moves: Option<String>,
) -> PyResult<Frontier> {
    let shared = game.shared.clone();
    py.allow_threads(|| {
        guard(|| {
            let rules = &shared.rules;
            let mut pos = start(rules, setup.as_deref(), moves.as_deref())?;
            let mut list = MoveList::new();
            legal(rules, &mut pos, &mut list, unique);
            let texts = zrf::notation::move_texts(&rules.def, &list);
            let mut frontier: Vec<Vec<u32>> = vec![Vec::new()];
            let mut counts = Vec::new();
            let mut log = UndoLog::new();
            for _ in 0..split {
                let mut next = Vec::new();
                for prefix in &frontier {
                    let mut p = pos.clone();
                    replay(rules, &mut p, prefix, unique, &mut list, &mut log)?;
                    legal(rules, &mut p, &mut list, unique);
                    for i in 0..list.len() as u32 {
                        let mut longer = prefix.clone();
                        longer.push(i);
                        next.push(longer);
                    }
                    if next.len() > MAX_FRONTIER {
                        return Err(error(format!(
                            "the split depth gives more than {MAX_FRONTIER} tasks: choose a \
                             smaller one"
                        )));
                    }
                }
                counts.push(next.len() as u64);
                frontier = next;
            }
            Ok((texts, frontier, counts))
        })
    })
}

/// Plays a sequence of move indices.
fn replay(
    rules: &Rules,
    pos: &mut Position,
    prefix: &[u32],
    unique: bool,
    list: &mut MoveList,
    log: &mut UndoLog,
) -> PyResult<()> {
    for &i in prefix {
        legal(rules, pos, list, unique);
        let Some(m) = list.moves.get(i as usize).copied() else {
            return Err(error(format!(
                "move {i} of a perft task is not in the legal list ({} moves)",
                list.len()
            )));
        };
        rules.make(pos, list, &m, log);
    }
    Ok(())
}

/// One perft task: plays `prefix` (move indices from [`perft_frontier`]) and counts the
/// leaves below it at each depth in `depths` (1 or more), as `zrf perft` counts them.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // a Python function's keyword arguments
#[pyo3(signature = (game, prefix, depths, setup=None, unique=false, bulk=false, moves=None))]
pub fn perft_task(
    py: Python<'_>,
    game: PyRef<'_, Game>,
    prefix: Vec<u32>,
    depths: Vec<u32>,
    setup: Option<String>,
    unique: bool,
    bulk: bool,
    moves: Option<String>,
) -> PyResult<Vec<u64>> {
    let shared = game.shared.clone();
    py.allow_threads(|| {
        guard(|| {
            let rules = &shared.rules;
            let mut pos = start(rules, setup.as_deref(), moves.as_deref())?;
            let mut list = MoveList::new();
            let mut log = UndoLog::new();
            replay(rules, &mut pos, &prefix, unique, &mut list, &mut log)?;
            let opts = PerftOptions { unique, bulk };
            Ok(depths
                .iter()
                .map(|&d| rules.perft_with(&mut pos, d, opts))
                .collect())
        })
    })
}

/// Reads the two settings of a match as `zrf selfplay` does.
fn contestants(engine: &str, vs: Option<&str>, time: &str) -> PyResult<(Contestant, Contestant)> {
    let settings = || -> Result<(Contestant, Contestant), arena::SettingError> {
        let time = arena::parse_duration(time)?;
        let vs = vs.unwrap_or(engine);
        let a = Contestant::parse(engine, time, arena::names_random(vs))?;
        let b = Contestant::parse(vs, time, arena::names_random(engine))?;
        Ok((a, b))
    };
    settings().map_err(|e| error(e.to_string()))
}

/// One game's score as Python gets it: `(seat of A, verdict of A as "win"/"draw"/"loss",
/// stopped at the ply limit, plies, points of A)`.
type GameScore = (usize, &'static str, bool, u64, f64);

/// Plays games `indices` of a `zrf selfplay` match: in game i, A (`engine`) sits at seat
/// `i % players` and the seed is `seed * 1_000_003 + i`, as in `zrf selfplay`, so a game is the
/// same whichever worker plays it. Returns what the table needs per game, in order.
#[pyfunction]
#[pyo3(signature = (game, engine, vs, seed, indices, random_plies=2, max_plies=400, time="0.1s", setup=None))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay_games(
    py: Python<'_>,
    game: PyRef<'_, Game>,
    engine: &str,
    vs: Option<&str>,
    seed: u64,
    indices: Vec<u64>,
    random_plies: usize,
    max_plies: usize,
    time: &str,
    setup: Option<String>,
) -> PyResult<Vec<GameScore>> {
    let (a, b) = contestants(engine, vs, time)?;
    let shared = game.shared.clone();
    py.allow_threads(|| {
        guard(|| {
            let rules = &shared.rules;
            let pos = start(rules, setup.as_deref(), None)?;
            let n = rules.def.players.len();
            // As `zrf selfplay`: random movers on every seat play without making text.
            let all_random = matches!((&a, &b), (Contestant::Random, Contestant::Random));
            let mut scratch = all_random.then(|| zrf::play::Game::new(rules.clone(), pos.clone()));
            let stop = std::sync::atomic::AtomicBool::new(false);
            let mut out = Vec::with_capacity(indices.len());
            for index in indices {
                let seat_a = (index % n as u64) as usize;
                let seat = PlayerId(seat_a as u8);
                let seed = arena::game_seed(seed, index);
                let s = match scratch.as_mut() {
                    Some(g) => arena::playout(g, &pos, seed, max_plies).scored(seat, n),
                    None => {
                        let plies = (random_plies, max_plies);
                        arena::match_game(rules, &pos, (&a, &b), seat_a, seed, plies, &stop)
                            .scored(seat, n)
                    }
                };
                let verdict = match s.verdict {
                    Verdict::Win => "win",
                    Verdict::Draw => "draw",
                    Verdict::Loss => "loss",
                };
                out.push((seat_a, verdict, s.unfinished, s.plies, s.points));
            }
            Ok(out)
        })
    })
}

/// The table `zrf selfplay` prints (the game's title, then the tally) for games scored by
/// [`selfplay_games`].
#[pyfunction]
#[pyo3(signature = (game, engine, vs, results, time="0.1s"))]
pub fn selfplay_table(
    game: PyRef<'_, Game>,
    engine: &str,
    vs: Option<&str>,
    results: Vec<(usize, String, bool, u64, f64)>,
    time: &str,
) -> PyResult<String> {
    let (a, b) = contestants(engine, vs, time)?;
    let def = &game.shared.rules.def;
    let n = def.players.len();
    let mut tally = Tally::new(n);
    for (seat, verdict, unfinished, plies, points) in results {
        let verdict = match verdict.as_str() {
            "win" => Verdict::Win,
            "draw" => Verdict::Draw,
            "loss" => Verdict::Loss,
            other => return Err(error(format!("unknown verdict `{other}`"))),
        };
        if seat >= n {
            return Err(error(format!("seat {seat} of a game of {n} players")));
        }
        let s = Scored {
            verdict,
            unfinished,
            plies,
            points,
        };
        tally.add_scored(PlayerId(seat as u8), &s);
    }
    let names: Vec<String> = def.players.iter().map(|p| p.name.clone()).collect();
    Ok(format!(
        "{}\n{}",
        def.title,
        tally.table(&a.label(), &b.label(), &names).trim_end()
    ))
}

/// Runs `f` on a thread with a big stack (rules files nest deeply), the GIL released.
fn on_big_stack<T: Send + 'static>(
    py: Python<'_>,
    f: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    py.allow_threads(|| {
        let worker = std::thread::Builder::new().stack_size(BIG_STACK).spawn(f);
        match worker.map(|h| h.join()) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(_)) => Err(error("internal error in zrf (a bug) while checking a file")),
            Err(e) => Err(error(format!("cannot start a thread: {e}"))),
        }
    })
}

/// `zrf check --folder DIR`'s line for one rules file: `(passed, line)`.
#[pyfunction]
pub fn check_rules_file(py: Python<'_>, path: String) -> PyResult<(bool, String)> {
    on_big_stack(py, move || {
        let line = match crate::files::read_file(&path) {
            Ok(bytes) => zrf::corpus::check_rules(&path, &bytes, &PyFiles::default()),
            Err(why) => zrf::corpus::Line::unreadable(&path, &why.to_string()),
        };
        (line.ok, line.text)
    })
}

/// `zrf replay --check DIR`'s line for one record: `(passed, line)`.
#[pyfunction]
pub fn replay_record_file(py: Python<'_>, path: String) -> PyResult<(bool, String)> {
    on_big_stack(py, move || {
        let line = match crate::files::read_file(&path) {
            Ok(bytes) => zrf::corpus::replay_record(
                &String::from_utf8_lossy(&bytes),
                &path,
                &PyFiles::default(),
            ),
            Err(why) => zrf::corpus::Line::unreadable(&path, &why.to_string()),
        };
        (line.ok, line.text)
    })
}

/// The last line of a corpus check: `N files: A ok, B failed`.
#[pyfunction]
pub fn corpus_totals(what: &str, n: usize, failed: usize) -> String {
    zrf::corpus::totals(what, n, failed.min(n))
}

/// Whether a path names a rules file (`rules`) or a record `zrf replay --check` replays.
#[pyfunction]
pub fn corpus_kind(path: &str) -> Option<&'static str> {
    if zrf::corpus::is_rules(path) {
        Some("rules")
    } else if zrf::corpus::is_checked_record(path) {
        Some("record")
    } else {
        None
    }
}

/// Speaks UCI (`"uci"`) or Hub (`"hub"`) on the process's standard input and output until
/// `quit` or the end of the input, as `zrf uci` and `zrf hub` do; `file` is a rules file whose
/// games become the variants.
#[pyfunction]
#[pyo3(signature = (protocol, file=None))]
pub fn serve_protocol(py: Python<'_>, protocol: &str, file: Option<String>) -> PyResult<()> {
    use std::io::Write;
    let kind = match protocol {
        "uci" => zrf::protocol::Kind::Uci,
        "hub" => zrf::protocol::Kind::Hub,
        other => return Err(error(format!("unknown protocol `{other}`: uci or hub"))),
    };
    on_big_stack(py, move || {
        let out: zrf::protocol::Out = std::sync::Arc::new(|line: &str| {
            let mut o = std::io::stdout().lock();
            let _ = writeln!(o, "{line}");
            let _ = o.flush();
        });
        let loader: zrf::protocol::SharedLoader = std::sync::Arc::new(PyFiles::default());
        let mut input = std::io::stdin().lock();
        zrf::protocol::serve(kind, &mut input, out, loader, file.as_deref());
    })
}

/// Registers the functions of this file in the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(perft_frontier, m)?)?;
    m.add_function(wrap_pyfunction!(perft_task, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay_games, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay_table, m)?)?;
    m.add_function(wrap_pyfunction!(check_rules_file, m)?)?;
    m.add_function(wrap_pyfunction!(replay_record_file, m)?)?;
    m.add_function(wrap_pyfunction!(corpus_totals, m)?)?;
    m.add_function(wrap_pyfunction!(corpus_kind, m)?)?;
    m.add_function(wrap_pyfunction!(serve_protocol, m)?)?;
    Ok(())
}
