//! `zrf selfplay`: matches between computer players (`zrf::arena`), with a progress bar.

use std::path::Path;
use std::process::ExitCode;

use crate::rules::prepare;
use crate::At;

/// The settings of `zrf selfplay`.
#[derive(clap::Args)]
pub(crate) struct Match {
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Time per move of a setting that names no limit.
    #[arg(long, default_value = "0.1s")]
    time: String,
    /// Player A's setting, e.g. `mcts`, `depth 4`, `alphabeta time 1s`, `time 1s opponent best`
    /// (an engine facing `random` assumes random replies unless told `opponent best`).
    #[arg(long, default_value = "")]
    engine: String,
    /// Player B's setting (default: the same as A), e.g. `random` or `depth 2`.
    #[arg(long)]
    vs: Option<String>,
    /// Seed of the random opening plies and of the random mover.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of random plies at the start of each game.
    #[arg(long, default_value_t = 2)]
    random_plies: usize,
    /// Games still going after this many plies count as draws.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Print one line per game (moves and result).
    #[arg(long)]
    verbose: bool,
}

pub(crate) fn selfplay(file: &Path, at: &At, m: &Match) -> ExitCode {
    use zrf::arena::{self, Contestant, Tally};
    let game = match prepare(file, at) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let settings = (|| -> Result<(Contestant, Contestant), arena::SettingError> {
        let time = arena::parse_duration(&m.time)?;
        let vs = m.vs.as_deref().unwrap_or(&m.engine);
        let a = Contestant::parse(&m.engine, time, arena::names_random(vs))?;
        let b = Contestant::parse(vs, time, arena::names_random(&m.engine))?;
        Ok((a, b))
    })();
    let (a, b) = match settings {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let rules = &game.rules;
    let n = rules.def.players.len();
    let seat_names: Vec<String> = rules.def.players.iter().map(|p| p.name.clone()).collect();
    let bar = indicatif::ProgressBar::new(u64::from(m.games));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games, {elapsed} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut tally = Tally::new(n);
    // Random movers on every seat play without text, unless the moves are to be printed.
    let all_random = matches!((&a, &b), (Contestant::Random, Contestant::Random));
    let mut text_free = (all_random && !m.verbose).then(|| game.clone());
    for g in 0..m.games {
        let seat_a = (g as usize) % n;
        let seat = zrf::def::PlayerId(seat_a as u8);
        let seed = arena::game_seed(m.seed, u64::from(g));
        if let Some(scratch) = text_free.as_mut() {
            let r = arena::playout(scratch, &game.pos, seed, m.max_plies);
            tally.add_playout(seat, &r, n);
        } else {
            let r = play_one(rules, &game.pos, (&a, &b), seat_a, seed, m, &stop);
            tally.add(seat, &r, n);
            if m.verbose {
                let result = match &r.outcome {
                    Some(o) => o.describe(&rules.def),
                    None => "stopped at the ply limit".into(),
                };
                bar.suspend(|| {
                    say!(
                        "game {} (A {}): {} [{}]",
                        g + 1,
                        seat_names[seat_a],
                        r.moves.join(" "),
                        result
                    )
                });
            }
        }
        // Random games take microseconds: the bar and its message follow them in batches.
        let done = g + 1;
        if text_free.is_none() || done % BAR_BATCH == 0 || done == m.games {
            let t = tally.total();
            bar.set_message(format!("A +{} ={} -{}", t.wins, t.draws, t.losses));
            bar.set_position(u64::from(done));
        }
    }
    bar.finish_and_clear();
    say!("{}", rules.def.title);
    say!(
        "{}",
        tally.table(&a.label(), &b.label(), &seat_names).trim_end()
    );
    ExitCode::SUCCESS
}

/// Games of random movers between two updates of the progress bar.
const BAR_BATCH: u32 = 256;

/// One game of a match with engines (or with its moves printed): A (`ab.0`) in seat `seat_a`.
fn play_one(
    rules: &zrf::engine::Rules,
    start: &zrf::engine::Position,
    ab: (&zrf::arena::Contestant, &zrf::arena::Contestant),
    seat_a: usize,
    seed: u64,
    m: &Match,
    stop: &std::sync::atomic::AtomicBool,
) -> zrf::arena::GameResult {
    zrf::arena::match_game(
        rules,
        start,
        ab,
        seat_a,
        seed,
        (m.random_plies, m.max_plies),
        stop,
    )
}
