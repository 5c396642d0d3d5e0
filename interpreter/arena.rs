//! Matches between computer players: `zrf selfplay` and the strength tables.
//!
//! A [`Contestant`] is an engine setting or the random mover. [`play_game`] plays one game
//! from a position with one contestant per seat (seat = player of the rules, in order) and
//! returns its moves and result; [`Tally`] adds results up per contestant and seat. Nothing
//! here prints: the binary draws the progress bar and the table.

use std::fmt::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::ai::{Engine, EngineKind, Limits, Opponent, Rng, SearchConfig};
use crate::def::PlayerId;
use crate::engine::{Outcome, Position, Rules};
use crate::play::Game;

/// Who plays a seat.
#[derive(Clone, Debug)]
pub enum Contestant {
    /// The search engine with these settings.
    Engine(SearchConfig),
    /// A uniformly random legal move.
    Random,
}

impl Contestant {
    /// Reads a setting: `random`, or an optional `mcts`/`alphabeta` followed by limits such
    /// as `depth 4`, `time 0.1s`, `time 200ms`, `nodes 20000` (in any combination) and an
    /// optional `opponent random|best`. With no limit, `default_time` applies. An engine
    /// facing the random mover (`facing_random`) expects random replies unless the setting
    /// says otherwise.
    pub fn parse(
        text: &str,
        default_time: Duration,
        facing_random: bool,
    ) -> Result<Contestant, SettingError> {
        if names_random(text) {
            return Ok(Contestant::Random);
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let Setting {
            kind,
            mut limits,
            opponent,
        } = parse_setting(&words).map_err(|e| SettingError::OrRandom(Box::new(e)))?;
        if limits.depth.is_none() && limits.time.is_none() && limits.nodes.is_none() {
            limits.time = Some(default_time);
        }
        let assumed = if facing_random {
            Opponent::Random
        } else {
            Opponent::Best
        };
        Ok(Contestant::Engine(SearchConfig {
            kind: kind.unwrap_or(EngineKind::AlphaBeta),
            limits,
            seed: 0,
            opponent: opponent.unwrap_or(assumed),
            multi_pv: 1,
            contempt: crate::ai::DEFAULT_CONTEMPT,
            searchmoves: Vec::new(),
        }))
    }

    /// A short name for tables: `random`, `alphabeta time 0.1s`, `mcts nodes 5000`.
    pub fn label(&self) -> String {
        match self {
            Contestant::Random => "random".into(),
            Contestant::Engine(cfg) => setting_text(cfg),
        }
    }
}

/// A setting as it would be typed: `alphabeta time 0.1s`, `mcts nodes 5000 opponent random`.
pub fn setting_text(cfg: &SearchConfig) -> String {
    let mut text = format!("{} {}", kind_name(cfg.kind), limits_text(&cfg.limits));
    if cfg.opponent == Opponent::Random {
        text += " opponent random";
    }
    text
}

/// Whether a setting names the random mover.
pub fn names_random(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case("random")
}

/// The words of an engine setting; what they leave out is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setting {
    /// `mcts` or `alphabeta`.
    pub kind: Option<EngineKind>,
    /// `depth N`, `time T`, `nodes N`.
    pub limits: Limits,
    /// `opponent random` or `opponent best`.
    pub opponent: Option<Opponent>,
}

/// The name a setting gives the search: `alphabeta` or `mcts`.
pub fn kind_name(kind: EngineKind) -> &'static str {
    match kind {
        EngineKind::AlphaBeta => "alphabeta",
        EngineKind::Mcts => "mcts",
    }
}

/// Why an engine setting was not read. `Display` gives the message shown to the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// `opponent` without `random` or `best`.
    #[error(
        "`opponent` needs `random` (play for the expected result against random replies) or \
         `best` (assume the best replies)"
    )]
    Opponent,
    /// A limit's word without its value.
    #[error("`{0}` needs a value, e.g. `{0} {ex}`", ex = example(.0))]
    NoValue(String),
    /// A depth that is not a whole number from 1 to 64.
    #[error("bad depth `{0}`: a whole number from 1 to 64")]
    Depth(String),
    /// A node count that is not a positive whole number.
    #[error("bad node count `{0}`")]
    Nodes(String),
    /// A time that does not read, or is not above 0 and at most a day.
    #[error("bad time `{0}`: write it like `2s`, `0.5s` or `200ms`")]
    Time(String),
    /// A word that is no part of a setting.
    #[error(
        "unknown engine setting `{0}`: expected `depth N`, `time T`, `nodes N`, \
         `opponent random|best`, `mcts` or `alphabeta`"
    )]
    Unknown(String),
    /// MCTS given a depth.
    #[error("MCTS has no depth limit: give it `time T` or `nodes N`")]
    MctsDepth,
    /// MCTS left with no limit but depth (the limits as text).
    #[error("MCTS has no depth limit, and `{0}` gives no other: add `time T` or `nodes N`")]
    MctsNoLimit(String),
    /// A match's setting, which may also be `random`.
    #[error("{0} (or `random`, the random mover)")]
    OrRandom(Box<SettingError>),
}

/// Reads `[mcts|alphabeta] [depth N] [time T] [nodes N] [opponent random|best]`.
pub fn parse_setting(words: &[&str]) -> Result<Setting, SettingError> {
    let mut limits = Limits::default();
    let mut kind = None;
    let mut opponent = None;
    let mut i = 0;
    while i < words.len() {
        let w = words[i].to_ascii_lowercase();
        match w.as_str() {
            "mcts" => kind = Some(EngineKind::Mcts),
            "alphabeta" | "alpha-beta" | "ab" => kind = Some(EngineKind::AlphaBeta),
            "opponent" => {
                let value = words.get(i + 1).map(|v| v.to_ascii_lowercase());
                opponent = Some(match value.as_deref() {
                    Some("random") => Opponent::Random,
                    Some("best") => Opponent::Best,
                    _ => return Err(SettingError::Opponent),
                });
                i += 1;
            }
            "depth" | "time" | "nodes" | "movetime" => {
                let Some(value) = words.get(i + 1) else {
                    return Err(SettingError::NoValue(w));
                };
                match w.as_str() {
                    "depth" => {
                        limits.depth = Some(
                            value
                                .parse()
                                .ok()
                                .filter(|&d: &u32| (1..=64).contains(&d))
                                .ok_or_else(|| SettingError::Depth(value.to_string()))?,
                        )
                    }
                    "nodes" => {
                        limits.nodes = Some(
                            value
                                .parse()
                                .ok()
                                .filter(|&n: &u64| n >= 1)
                                .ok_or_else(|| SettingError::Nodes(value.to_string()))?,
                        )
                    }
                    _ => limits.time = Some(parse_duration(value)?),
                }
                i += 1;
            }
            _ => return Err(SettingError::Unknown(words[i].to_string())),
        }
        i += 1;
    }
    if kind == Some(EngineKind::Mcts) && limits.depth.is_some() {
        return Err(SettingError::MctsDepth);
    }
    Ok(Setting {
        kind,
        limits,
        opponent,
    })
}

fn example(word: &str) -> &'static str {
    match word {
        "depth" => "4",
        "nodes" => "20000",
        _ => "2s",
    }
}

/// Reads a duration: `2s`, `0.1s`, `150ms`, `1m`, or a bare number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, SettingError> {
    let t = text.trim().to_ascii_lowercase();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t.as_str(), 1.0)
    };
    match num.parse::<f64>() {
        Ok(v) if v > 0.0 && v * scale <= 86_400.0 => Ok(Duration::from_secs_f64(v * scale)),
        _ => Err(SettingError::Time(text.to_string())),
    }
}

/// `depth 4 time 0.1s`.
pub fn limits_text(l: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(t) = l.time {
        parts.push(format!("time {}", duration_text(t)));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes {n}"));
    }
    parts.join(" ")
}

/// `0.1s`, `2s`, `150ms`.
pub fn duration_text(t: Duration) -> String {
    let ms = t.as_millis();
    if ms < 100 && ms * 1000 == t.as_micros() {
        format!("{ms}ms")
    } else {
        let s = format!("{:.3}", t.as_secs_f64());
        format!("{}s", s.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// How one game went.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The moves played, in canonical text.
    pub moves: Vec<String>,
    /// The result, or `None` when the game reached the ply limit (scored as a draw).
    pub outcome: Option<Outcome>,
}

impl GameResult {
    /// The points of a seat: 1 for a win, ½ for a draw or the ply limit, 0 for a loss; with
    /// scored results, the seat's share of the points given out.
    pub fn points(&self, seat: PlayerId, n_players: usize) -> f64 {
        points(self.outcome.as_ref(), seat, n_players)
    }

    /// Won, drawn or lost for a seat.
    pub fn verdict(&self, seat: PlayerId) -> Verdict {
        verdict(self.outcome.as_ref(), seat)
    }
}

/// The points of a seat in a game that ended with `outcome` (`None`: stopped), as
/// [`GameResult::points`] counts them.
fn points(outcome: Option<&Outcome>, seat: PlayerId, n_players: usize) -> f64 {
    let Some(o) = outcome else {
        return 1.0 / n_players as f64;
    };
    if let Some(s) = &o.scores {
        let total: u32 = s.iter().sum();
        if total > 0 {
            return f64::from(s.get(seat.idx()).copied().unwrap_or(0)) / f64::from(total);
        }
    }
    if o.winners.contains(&seat) {
        1.0 / o.winners.len() as f64
    } else if o.is_draw() {
        1.0 / n_players as f64
    } else if o.losers.contains(&seat) || !o.winners.is_empty() {
        0.0
    } else {
        // Some players lost and this one did not: share what the losers gave up.
        1.0 / (n_players - o.losers.len()).max(1) as f64
    }
}

/// Won, drawn or lost for a seat in a game that ended with `outcome` (`None`: stopped).
fn verdict(outcome: Option<&Outcome>, seat: PlayerId) -> Verdict {
    match outcome {
        None => Verdict::Draw,
        Some(o) if o.winners.contains(&seat) => Verdict::Win,
        Some(o) if o.losers.contains(&seat) => Verdict::Loss,
        Some(o) if !o.winners.is_empty() => Verdict::Loss,
        Some(o) if !o.losers.is_empty() => Verdict::Win,
        Some(_) => Verdict::Draw,
    }
}

/// What a [`Tally`] keeps of one game for the seat A held: small, plain data, so that a game
/// played in another process can be sent back and counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    /// A's result.
    pub verdict: Verdict,
    /// Stopped at the ply limit.
    pub unfinished: bool,
    /// Plies played.
    pub plies: u64,
    /// A's points ([`GameResult::points`]).
    pub points: f64,
}

impl GameResult {
    /// What a [`Tally`] keeps of this game, for A at `seat`.
    pub fn scored(&self, seat: PlayerId, n_players: usize) -> Scored {
        Scored {
            verdict: self.verdict(seat),
            unfinished: self.outcome.is_none(),
            plies: self.moves.len() as u64,
            points: self.points(seat, n_players),
        }
    }
}

/// A game's result for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won (or some opponents lost and this seat did not).
    Win,
    /// Drawn, or stopped at the ply limit.
    Draw,
    /// Lost.
    Loss,
}

/// How one game of a match is played.
#[derive(Clone, Debug)]
pub struct Pairing<'a> {
    /// `seats[p]` plays player `p`.
    pub seats: Vec<&'a Contestant>,
    /// Seed of the random plies, of the random mover and of the engines.
    pub seed: u64,
    /// The first plies are random, so that deterministic settings still give different games.
    pub random_plies: usize,
    /// The game stops, as a draw, after this many plies.
    pub max_plies: usize,
}

/// Plays one game from `start`, one engine per seat (none when every seat is the random
/// mover); `stop` ends it early (as at the ply limit).
pub fn play_game(
    rules: &Rules,
    start: &Position,
    how: &Pairing,
    engines: &mut [Engine],
    stop: &AtomicBool,
) -> GameResult {
    let Pairing {
        seats,
        seed,
        random_plies,
        max_plies,
    } = how;
    let (random_plies, max_plies) = (*random_plies, *max_plies);
    let mut game = Game::new(rules.clone(), start.clone());
    let mut rng = Rng::new(*seed);
    for ply in 0..max_plies {
        if stop.load(std::sync::atomic::Ordering::Relaxed) || game.is_over() {
            break;
        }
        let n = game.legal_count();
        if n == 0 {
            break;
        }
        let seat = rules.entry(game.pos.turn).mover.idx();
        let choice = match seats.get(seat).copied() {
            _ if ply < random_plies => rng.below(n),
            Some(Contestant::Random) | None => rng.below(n),
            Some(Contestant::Engine(cfg)) => {
                let cfg = SearchConfig {
                    seed: rng.next_u64(),
                    ..cfg.clone()
                };
                match game.think(&mut engines[seat], &cfg, stop, &mut |_| {}) {
                    Some(r) if r.best < n => r.best,
                    _ => rng.below(n),
                }
            }
        };
        if game.play_index(choice).is_err() {
            break;
        }
    }
    GameResult {
        moves: game.played(),
        outcome: game.outcome(),
    }
}

/// Game i of a match between A (`ab.0`, in seat `seat_a`) and B (`ab.1`, every other seat),
/// as `zrf selfplay` plays it: engines built for it when a seat needs one, the first
/// `plies.0` plies random, stopped after `plies.1` plies; `seed` is [`game_seed`] of the
/// match's seed and i.
pub fn match_game(
    rules: &Rules,
    start: &Position,
    ab: (&Contestant, &Contestant),
    seat_a: usize,
    seed: u64,
    plies: (usize, usize),
    stop: &AtomicBool,
) -> GameResult {
    let n = rules.def.players.len();
    let seats: Vec<&Contestant> = (0..n)
        .map(|s| if s == seat_a { ab.0 } else { ab.1 })
        .collect();
    // Building an engine derives the evaluation (up to a second on big boards): the random
    // mover needs none.
    let any_engine = seats.iter().any(|c| matches!(c, Contestant::Engine(_)));
    let mut engines: Vec<Engine> = if any_engine {
        (0..n).map(|_| Engine::new(rules)).collect()
    } else {
        Vec::new()
    };
    let how = Pairing {
        seats,
        seed,
        random_plies: plies.0,
        max_plies: plies.1,
    };
    play_game(rules, start, &how, &mut engines, stop)
}

/// How one random game went ([`playouts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Playout {
    /// The number of plies played.
    pub plies: usize,
    /// The result, or `None` when the game reached the ply limit or a position without
    /// moves that no goal ends (scored as a draw).
    pub outcome: Option<Outcome>,
    /// Per player, in player order: 1 for a win, -1 for a loss, 0 for a draw or no result
    /// ([`Verdict`]).
    pub returns: Vec<f64>,
}

impl Playout {
    /// The points of a seat, as [`GameResult::points`] counts them.
    pub fn points(&self, seat: PlayerId, n_players: usize) -> f64 {
        points(self.outcome.as_ref(), seat, n_players)
    }

    /// Won, drawn or lost for a seat.
    pub fn verdict(&self, seat: PlayerId) -> Verdict {
        verdict(self.outcome.as_ref(), seat)
    }

    /// What a [`Tally`] keeps of this game, for A at `seat`.
    pub fn scored(&self, seat: PlayerId, n_players: usize) -> Scored {
        Scored {
            verdict: self.verdict(seat),
            unfinished: self.outcome.is_none(),
            plies: self.plies as u64,
            points: self.points(seat, n_players),
        }
    }
}

/// The seed of game `i` of a match or a batch of playouts seeded with `seed`.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_mul(1_000_003).wrapping_add(i)
}

/// Plays one game of uniformly random legal moves from `start` in `game` (whose buffers are
/// reused), without making any text: the game [`play_game`] plays with the random mover in
/// every seat and the same seed. It stops after `max_plies` plies.
pub fn playout(game: &mut Game, start: &Position, seed: u64, max_plies: usize) -> Playout {
    game.reset_to(start);
    let mut rng = Rng::new(seed);
    for _ in 0..max_plies {
        if game.is_over() {
            break;
        }
        let n = game.legal_count();
        if n == 0 || game.play_index(rng.below(n)).is_err() {
            break;
        }
    }
    let outcome = game.outcome();
    let returns = (0..game.rules.def.players.len())
        .map(|p| match verdict(outcome.as_ref(), PlayerId(p as u8)) {
            Verdict::Win => 1.0,
            Verdict::Draw => 0.0,
            Verdict::Loss => -1.0,
        })
        .collect();
    Playout {
        plies: game.plies(),
        outcome,
        returns,
    }
}

/// Plays `n` games of uniformly random legal moves from `start`, game `i` seeded with
/// [`game_seed`]`(seed, i)`, each stopped after `max_plies` plies. No text is made; the
/// results depend only on the rules, `start`, `seed` and `max_plies`.
pub fn playouts(
    rules: impl Into<Arc<Rules>>,
    start: &Position,
    n: usize,
    seed: u64,
    max_plies: usize,
) -> Vec<Playout> {
    let mut game = Game::new(rules, start.clone());
    (0..n)
        .map(|i| playout(&mut game, start, game_seed(seed, i as u64), max_plies))
        .collect()
}

/// Results of a match between contestant A and contestant B, counted per seat A held.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Per seat of A: wins, draws, losses (of A), total plies, games, points of A.
    pub seats: Vec<SeatTally>,
}

/// One seat's row of a [`Tally`].
#[derive(Clone, Debug, Default)]
pub struct SeatTally {
    /// A won.
    pub wins: u32,
    /// Drawn (or stopped at the ply limit).
    pub draws: u32,
    /// A lost.
    pub losses: u32,
    /// Games stopped at the ply limit (counted in `draws` too).
    pub unfinished: u32,
    /// Plies over all games.
    pub plies: u64,
    /// Points of A.
    pub points: f64,
}

impl SeatTally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

impl Tally {
    /// An empty tally for a game of `n` players.
    pub fn new(n: usize) -> Tally {
        Tally {
            seats: vec![SeatTally::default(); n],
        }
    }

    /// Adds a game in which A sat at `seat`.
    pub fn add(&mut self, seat: PlayerId, r: &GameResult, n_players: usize) {
        self.add_scored(seat, &r.scored(seat, n_players));
    }

    /// Adds a random game ([`playout`]) in which A sat at `seat`.
    pub fn add_playout(&mut self, seat: PlayerId, r: &Playout, n_players: usize) {
        self.add_scored(seat, &r.scored(seat, n_players));
    }

    /// Adds what a [`Tally`] keeps of a game in which A sat at `seat` (a game played
    /// elsewhere, its [`Scored`] sent back).
    pub fn add_scored(&mut self, seat: PlayerId, s: &Scored) {
        let Some(t) = self.seats.get_mut(seat.idx()) else {
            return;
        };
        match s.verdict {
            Verdict::Win => t.wins += 1,
            Verdict::Draw => t.draws += 1,
            Verdict::Loss => t.losses += 1,
        }
        t.unfinished += u32::from(s.unfinished);
        t.plies += s.plies;
        t.points += s.points;
    }

    /// Every seat together.
    pub fn total(&self) -> SeatTally {
        let mut all = SeatTally::default();
        for t in &self.seats {
            all.wins += t.wins;
            all.draws += t.draws;
            all.losses += t.losses;
            all.unfinished += t.unfinished;
            all.plies += t.plies;
            all.points += t.points;
        }
        all
    }

    /// The table `zrf selfplay` prints: a row per seat A held, then the total.
    pub fn table(&self, a: &str, b: &str, seat_names: &[String]) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "A = {a}\nB = {b}");
        let _ = writeln!(
            out,
            "{:<14} {:>5} {:>5} {:>5} {:>6} {:>7} {:>9}",
            "A plays", "games", "wins", "draws", "losses", "score", "avg plies"
        );
        let row = |out: &mut String, name: &str, t: &SeatTally| {
            let g = t.games();
            if g == 0 {
                return;
            }
            let _ = writeln!(
                out,
                "{:<14} {:>5} {:>5} {:>5} {:>6} {:>6.1}% {:>9.1}",
                name,
                g,
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.points / f64::from(g),
                t.plies as f64 / f64::from(g)
            );
        };
        for (i, t) in self.seats.iter().enumerate() {
            let name = seat_names
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("seat {i}"));
            row(&mut out, &name, t);
        }
        row(&mut out, "all", &self.total());
        let unfinished = self.total().unfinished;
        if unfinished > 0 {
            let _ = writeln!(
                out,
                "{unfinished} game(s) reached the ply limit and count as draws."
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_settings_say_what_is_wrong() {
        let err = |text: &str| parse_setting(&text.split_whitespace().collect::<Vec<_>>());
        assert_eq!(
            err("depth").unwrap_err().to_string(),
            "`depth` needs a value, e.g. `depth 4`"
        );
        assert_eq!(
            err("depth 65").unwrap_err(),
            SettingError::Depth("65".into())
        );
        assert_eq!(
            err("opponent").unwrap_err().to_string(),
            "`opponent` needs `random` (play for the expected result against random replies) \
             or `best` (assume the best replies)"
        );
        assert_eq!(
            err("fly").unwrap_err().to_string(),
            "unknown engine setting `fly`: expected `depth N`, `time T`, `nodes N`, \
             `opponent random|best`, `mcts` or `alphabeta`"
        );
        assert_eq!(
            Contestant::parse("time 0", Duration::from_secs(1), false)
                .unwrap_err()
                .to_string(),
            "bad time `0`: write it like `2s`, `0.5s` or `200ms` (or `random`, the random mover)"
        );
    }
}
