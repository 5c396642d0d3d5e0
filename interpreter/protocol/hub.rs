//! The Hub protocol, version 2, as Scan 3 speaks it and pydraughts and draughts GUIs drive
//! it, for any game whose board numbers its squares (draughts).
//!
//! Lines are a command word and `key=value` arguments (a value with spaces is quoted). A
//! position is the side to move (`W` or `B`) then one letter per numbered square: `w`, `b`
//! for men, `W`, `B` for kings, `e` for an empty square. A move is `from-to`, or for a
//! capture `fromxto` followed by `x` and every captured square (in any order). Scores are in
//! men (`score=0.25`); a won game in `n` plies scores `100 - n/100`, as pydraughts reads it.
//! Errors are answered with `error message="..."` and change nothing.

use std::sync::Arc;
use std::time::Duration;

use super::{
    convert_line, hub_pairs, printable, Catalogue, Finished, Job, Out, PositionError, Runner,
    SharedLoader,
};
use crate::ai::{Info, Limits, Score, SearchConfig};
use crate::engine::{MoveList, Position, Rules};
use crate::notation;
use crate::play::Game;

/// The longest line the protocol looks at.
pub const MAX_LINE: usize = 1 << 20;
/// The most moves a `pos` command may list.
pub const MAX_MOVES: usize = 100_000;

/// A Hub session.
pub struct Hub {
    out: Out,
    loader: SharedLoader,
    cat: Catalogue,
    variant: String,
    rules: Option<(Rules, Numbers)>,
    game: Option<Game>,
    limits: Limits,
    /// `level time=` and `inc=`: a clock for the whole game, not a time per move.
    clock: Option<(Duration, Duration, Option<u32>)>,
    /// `contempt`: what a draw costs, in percent of the least piece
    /// ([`SearchConfig::contempt`]).
    contempt: i32,
    runner: Runner,
    /// Why the last `pos` was refused: until the next good one, `go` searches nothing.
    refused: Option<String>,
}

/// The numbers Hub gives the squares, as pydraughts (the Hub client of every draughts game
/// but the 10x10 ones) numbers them:
///
/// - In moves: the numbers the board declares; else (8x8 draughts written with square names,
///   Russian and Brazilian draughts) the squares of the colour the pieces start on, numbered
///   from the first rank up, left to right (a1 is 1, h8 is 32).
/// - In positions: one letter per square in the order of the board's PDN numbers (declared,
///   else from the last rank down, left to right: b8 is 1), turned half round when the side
///   that moves first starts on the low numbers (English draughts: Black on 1-12, so the
///   position's first letter is square 32); `W`, `w` and `K`-less kings are always the side
///   that moves first, `B` and `b` the other (in English draughts `w` is a black man).
#[derive(Clone, Debug)]
pub struct Numbers {
    /// The move number of each square (0: none).
    of_square: Vec<u32>,
    /// The place of each square in a position string, from 1 (0: none).
    in_position: Vec<u32>,
    count: u32,
    /// The player who moves first (the position's `W`), and the one PDN FEN calls White.
    first: usize,
    pdn_white: usize,
}

impl Numbers {
    /// The numbering of a game's board; `None` when it has none and none can be derived.
    pub fn of(rules: &Rules) -> Option<Numbers> {
        let (of_square, pdn) = Self::numbering(rules)?;
        let count = pdn.iter().copied().max().unwrap_or(0);
        let start = rules.initial();
        let players = &rules.def.players;
        let first = if rules.turns.is_empty() {
            0
        } else {
            rules.entry(start.turn).owner.idx()
        };
        let named = |want: &str| {
            players
                .iter()
                .position(|p| p.name.eq_ignore_ascii_case(want))
        };
        let pdn_white = named("white").unwrap_or(0);
        // The first mover's men on the low numbers: the position is read turned half round.
        let (mut low, mut high) = (0, 0);
        for (sq, c) in start.cells.iter().enumerate() {
            if !c.is_empty() && c.owner as usize == first && pdn[sq] > 0 {
                if pdn[sq] * 2 <= count {
                    low += 1;
                } else {
                    high += 1;
                }
            }
        }
        let in_position = pdn
            .iter()
            .map(|&k| {
                if k > 0 && low > high {
                    count + 1 - k
                } else {
                    k
                }
            })
            .collect();
        Some(Numbers {
            of_square,
            in_position,
            count,
            first,
            pdn_white,
        })
    }

    /// (move numbers, PDN numbers) of every square.
    fn numbering(rules: &Rules) -> Option<(Vec<u32>, Vec<u32>)> {
        let b = &rules.def.board;
        if b.numbers.iter().any(|&n| n > 0) {
            let of_square: Vec<u32> = (0..b.n_pos())
                .map(|i| b.numbers.get(i).copied().unwrap_or(0) as u32)
                .collect();
            return Some((of_square.clone(), of_square));
        }
        // File letter and rank number names, on a board whose pieces all start on one colour.
        let coords: Option<Vec<(u32, u32)>> = b
            .positions
            .iter()
            .map(|p| {
                let s = p.name.as_bytes();
                (s.len() >= 2 && s[0].is_ascii_lowercase())
                    .then(|| p.name[1..].parse::<u32>().ok())
                    .flatten()
                    .map(|rank| ((s[0] - b'a') as u32, rank))
            })
            .collect();
        let coords = coords?;
        let start = rules.initial();
        let mut colour = None;
        for (i, c) in start.cells.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            let parity = (coords[i].0 + coords[i].1) % 2;
            match colour {
                None => colour = Some(parity),
                Some(p) if p != parity => return None,
                _ => {}
            }
        }
        let colour = colour?;
        let mut squares: Vec<usize> = (0..coords.len())
            .filter(|&i| (coords[i].0 + coords[i].1) % 2 == colour)
            .collect();
        let number = |squares: &[usize]| {
            let mut of_square = vec![0; coords.len()];
            for (k, &i) in squares.iter().enumerate() {
                of_square[i] = k as u32 + 1;
            }
            of_square
        };
        squares.sort_by_key(|&i| (std::cmp::Reverse(coords[i].1), coords[i].0));
        let pdn = number(&squares);
        squares.sort_by_key(|&i| (coords[i].1, coords[i].0));
        Some((number(&squares), pdn))
    }

    /// The number of a square (0 for a square without one).
    pub fn number(&self, sq: u16) -> u32 {
        self.of_square.get(sq as usize).copied().unwrap_or(0)
    }

    /// The square of a number.
    pub fn square(&self, n: u32) -> Option<u16> {
        (n > 0)
            .then(|| self.of_square.iter().position(|&k| k == n))
            .flatten()
            .map(|i| i as u16)
    }

    /// The square of the `n`th letter (from 1) of a position string.
    pub fn square_in_position(&self, n: u32) -> Option<u16> {
        (n > 0)
            .then(|| self.in_position.iter().position(|&k| k == n))
            .flatten()
            .map(|i| i as u16)
    }
}

/// The Hub text of the legal move `i`: `32-28`, or `28x17x22` (from, to, then the captured
/// squares in increasing order).
pub fn move_text(rules: &Rules, nums: &Numbers, list: &MoveList, i: usize) -> String {
    let m = &list.moves[i];
    let path = list.path(m);
    if m.pass || m.drop != 0 || m.huff != 0 || path.is_empty() {
        return notation::move_texts(&rules.def, list)[i].clone();
    }
    let from = nums.number(path[0]);
    let to = nums.number(path[path.len() - 1]);
    if from == 0 || to == 0 {
        return notation::move_texts(&rules.def, list)[i].clone();
    }
    let mut caps: Vec<u32> = list.captured(m).iter().map(|&s| nums.number(s)).collect();
    if caps.is_empty() {
        return format!("{from}-{to}");
    }
    caps.sort_unstable();
    let mut s = format!("{from}x{to}");
    for c in caps {
        s += &format!("x{c}");
    }
    s
}

/// Finds the legal move a Hub move names. Captured squares may come in any order and may be
/// left out when the start and end alone name one move; zrf's own move text is accepted too.
pub fn parse_move(
    rules: &Rules,
    nums: &Numbers,
    list: &MoveList,
    text: &str,
) -> Result<usize, String> {
    let parts: Option<Vec<u32>> = text
        .split(['-', 'x', 'X'])
        .map(|p| p.parse::<u32>().ok())
        .collect();
    let Some(parts) = parts.filter(|n| n.len() >= 2) else {
        return notation::parse_move(&rules.def, list, text).map_err(|e| e.to_string());
    };
    let (from, to) = (parts[0], parts[1]);
    let mut want: Vec<u32> = parts[2..].to_vec();
    want.sort_unstable();
    let candidates: Vec<usize> = (0..list.len())
        .filter(|&i| {
            let m = &list.moves[i];
            let path = list.path(m);
            if m.pass || m.drop != 0 || m.huff != 0 || path.is_empty() {
                return false;
            }
            if nums.number(path[0]) != from || nums.number(path[path.len() - 1]) != to {
                return false;
            }
            if want.is_empty() {
                return true;
            }
            let mut caps: Vec<u32> = list.captured(m).iter().map(|&s| nums.number(s)).collect();
            caps.sort_unstable();
            caps == want
        })
        .collect();
    // Moves with the same start, end and captured pieces are one move in draughts, whatever
    // the squares the piece touched between (zrf lists each path).
    let same_captures = |i: usize| {
        let mut c: Vec<u16> = list.captured(&list.moves[i]).to_vec();
        c.sort_unstable();
        c
    };
    let all_alike = candidates
        .iter()
        .all(|&i| same_captures(i) == same_captures(candidates[0]));
    match candidates.len() {
        1 => Ok(candidates[0]),
        n if n > 1 && all_alike => Ok(candidates[0]),
        0 => Err(format!("`{}` is not a legal move here", printable(text))),
        _ => Err(format!(
            "`{}` could be {}; name the captured squares",
            printable(text),
            candidates
                .iter()
                .map(|&i| move_text(rules, nums, list, i))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Reads a Hub position (`Wbbbb…e…wwww`) as a PDN FEN for zrf's setup reader.
pub fn position_to_pdn(rules: &Rules, nums: &Numbers, text: &str) -> Result<String, String> {
    let n = nums.count as usize;
    let mut chars = text.chars();
    let side = match chars.next() {
        Some(c @ ('W' | 'B')) => c,
        _ => return Err("a Hub position starts with `W` or `B`, the side to move".into()),
    };
    let squares: Vec<char> = chars.collect();
    if squares.len() != n {
        return Err(format!(
            "a Hub position for this game has {n} squares after the side to move, not {}",
            squares.len()
        ));
    }
    // Squares by name (PDN FEN reads them on every board); `w` and `W` are the side that
    // moves first, which PDN FEN may call Black (English draughts).
    let name = |k: usize| -> String {
        match nums.square_in_position(k as u32) {
            Some(sq) => rules.def.board.positions[sq as usize].name.clone(),
            None => k.to_string(),
        }
    };
    let swap = nums.first != nums.pdn_white;
    let side = match (side, swap) {
        ('W', true) => 'B',
        ('B', true) => 'W',
        (c, _) => c,
    };
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for (k, c) in squares.iter().enumerate() {
        let sq = k + 1;
        match c {
            'w' => first.push(name(sq)),
            'W' => first.push(format!("K{}", name(sq))),
            'b' => second.push(name(sq)),
            'B' => second.push(format!("K{}", name(sq))),
            'e' | '.' | '-' => {}
            other => {
                return Err(format!(
                    "square {sq}: `{}` is not one of w, b, W, B, e",
                    printable(&other.to_string())
                ))
            }
        }
    }
    let (white, black) = if swap {
        (second, first)
    } else {
        (first, second)
    };
    Ok(format!("{side}:W{}:B{}", white.join(","), black.join(",")))
}

/// A score in men; wins and losses as pydraughts reads them (`100 - plies/100`).
fn score_text(s: Score) -> String {
    match s {
        Score::Cp(v) => format!("{:.2}", v as f64 / 100.0),
        Score::Win(n) => format!("{:.2}", (10_000 - n.min(9_000) as i64) as f64 / 100.0),
        Score::Loss(n) => format!("{:.2}", -((10_000 - n.min(9_000) as i64) as f64) / 100.0),
    }
}

fn info_line(rules: &Rules, nums: &Numbers, pos: &Position, i: &Info) -> String {
    let secs = i.elapsed.as_secs_f64();
    let nps = if secs > 0.0 {
        (i.nodes as f64 / secs) as u64
    } else {
        0
    };
    let pv = convert_line(rules, pos, &i.pv, &|r, l, k| move_text(r, nums, l, k)).join(" ");
    format!(
        "info depth={d} mean-depth={d}.0 score={} nodes={} time={secs:.3} nps={nps} pv=\"{pv}\"",
        score_text(i.score),
        i.nodes,
        d = i.depth.max(1)
    )
}

/// Seconds as Hub writes them (`1.5`).
fn seconds(v: &str) -> Option<Duration> {
    v.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
        .map(Duration::from_secs_f64)
}

/// What `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hold {
    /// `go think`: search and answer.
    Think,
    /// `go ponder`: think on the opponent's time; answer after `ponder-hit` (and the time
    /// the level gives from then) or `stop`.
    Ponder,
    /// `go analyze`: search without a time limit; answer after `stop`.
    Analyze,
}

impl Hub {
    /// A session over the shipped games, or over the games of `file` when given.
    pub fn new(out: Out, loader: SharedLoader, file: Option<&str>) -> Hub {
        let mut hub = Hub {
            cat: Catalogue::default(),
            variant: String::new(),
            out,
            loader,
            rules: None,
            game: None,
            limits: Limits::default(),
            clock: None,
            contempt: crate::ai::DEFAULT_CONTEMPT,
            runner: Runner::default(),
            refused: None,
        };
        match file {
            Some(path) => hub.open_file(path),
            None => hub.use_shipped(),
        }
        hub
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    fn error(&self, msg: &str) {
        self.say(&format!("error message=\"{}\"", msg.replace('"', "'")));
    }

    /// The shipped games whose boards number their squares.
    fn use_shipped(&mut self) {
        let all = Catalogue::shipped(self.loader.as_ref());
        let entries = all
            .entries
            .iter()
            .filter(|e| {
                all.rules(e, self.loader.as_ref())
                    .is_ok_and(|r| Numbers::of(&r).is_some())
            })
            .cloned()
            .collect();
        self.cat = Catalogue {
            files: all.files,
            entries,
        };
        self.variant = self
            .cat
            .find("normal")
            .or(self.cat.entries.first())
            .map(|e| e.name.clone())
            .unwrap_or_default();
        self.rules = None;
        self.game = None;
        self.refused = None;
    }

    fn open_file(&mut self, path: &str) {
        match super::catalogue_of_file(path, self.loader.as_ref()) {
            Ok(cat) => {
                self.variant = cat.entries[0].name.clone();
                self.cat = cat;
                self.rules = None;
                self.game = None;
                self.refused = None;
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn rules(&mut self) -> Option<&(Rules, Numbers)> {
        if self.rules.is_none() {
            let Some(entry) = self.cat.find(&self.variant).cloned() else {
                self.error(&format!("unknown variant {}", self.variant));
                return None;
            };
            match self.cat.rules(&entry, self.loader.as_ref()) {
                Ok(r) => match Numbers::of(&r) {
                    Some(nums) => {
                        self.runner.prepare(&r);
                        self.rules = Some((r, nums));
                    }
                    None => {
                        self.error(&format!(
                            "{} has no numbered squares, so Hub cannot name its moves",
                            entry.title
                        ));
                        return None;
                    }
                },
                Err(e) => {
                    self.error(&e.to_string());
                    return None;
                }
            }
        }
        self.rules.as_ref()
    }

    /// Waits until the running search, if any, has reported.
    pub fn wait(&mut self) {
        self.runner.wait();
    }

    /// Answers one line; false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let (cmd, rest) = match super::command_of(line, MAX_LINE) {
            Ok(parts) => parts,
            Err(e) => {
                self.error(&e.to_string());
                return true;
            }
        };
        let args = match hub_pairs(rest) {
            Ok(a) => a,
            Err(e) => {
                self.error(&e.to_string());
                return true;
            }
        };
        let get = |k: &str| {
            args.iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        match cmd {
            "" => {}
            "hub" => self.hub(),
            "init" => {
                if self.rules().is_some() {
                    self.say("ready");
                }
            }
            "ping" => self.say("pong"),
            "set-param" => {
                let (Some(name), Some(value)) = (get("name"), get("value")) else {
                    self.error("set-param is written `set-param name=NAME value=VALUE`");
                    return true;
                };
                let (name, value) = (name.to_string(), value.to_string());
                self.set_param(&name, &value);
            }
            "new-game" => {
                self.runner.clear();
                self.game = None;
                self.refused = None;
            }
            "pos" => {
                let pos = get("pos").map(str::to_string);
                let moves = get("moves").unwrap_or("").to_string();
                let start = args.iter().any(|(k, _)| k == "start");
                self.pos(pos.as_deref(), start, &moves);
            }
            "level" => self.level(&args),
            "go" => {
                let mode = args.first().map(|(k, _)| k.as_str()).unwrap_or("think");
                match mode {
                    "think" => self.go(Hold::Think),
                    "ponder" => self.go(Hold::Ponder),
                    "analyze" => self.go(Hold::Analyze),
                    other => self.error(&format!(
                        "go takes think, ponder or analyze, not {}",
                        printable(other)
                    )),
                }
            }
            "ponder-hit" => self.runner.release(),
            "stop" => self.runner.stop(),
            "quit" => {
                self.runner.stop();
                return false;
            }
            _ => self.error(&format!("unknown command {}", printable(cmd))),
        }
        true
    }

    fn hub(&mut self) {
        self.say(&format!(
            "id name=zrf version={} author=\"the zrf developers\" country=\"\"",
            env!("CARGO_PKG_VERSION")
        ));
        let names: Vec<&str> = self.cat.entries.iter().map(|e| e.name.as_str()).collect();
        self.say(&format!(
            "param name=variant value={} type=enum values=\"{}\"",
            self.variant,
            names.join(" ")
        ));
        self.say(&format!(
            "param name=hash value={} type=int min=1 max=4096",
            self.runner.tt_mb
        ));
        self.say(&format!(
            "param name=contempt value={} type=int min={} max={}",
            self.contempt,
            crate::ai::CONTEMPT_RANGE.start(),
            crate::ai::CONTEMPT_RANGE.end()
        ));
        self.say("param name=file value=\"\" type=string");
        self.say("wait");
    }

    fn set_param(&mut self, name: &str, value: &str) {
        self.runner.stop();
        match name {
            "variant" => match self.cat.find(value) {
                Some(e) => {
                    self.variant = e.name.clone();
                    self.rules = None;
                    self.game = None;
                    self.refused = None;
                }
                None => {
                    let names: Vec<&str> =
                        self.cat.entries.iter().map(|e| e.name.as_str()).collect();
                    let hint = crate::diagnostic::nearest(value, names.iter().copied())
                        .map(|n| format!("; did you mean {n}?"))
                        .unwrap_or_default();
                    self.error(&format!("unknown variant {}{hint}", printable(value)));
                }
            },
            "file" => {
                if value.is_empty() {
                    self.use_shipped();
                } else {
                    self.open_file(value);
                }
            }
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    self.runner.tt_mb = mb;
                    self.runner.reset();
                }
                _ => self.error("hash takes megabytes from 1 to 4096"),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(c) if crate::ai::CONTEMPT_RANGE.contains(&c) => self.contempt = c,
                _ => self.error(&format!(
                    "contempt takes a number from {} to {} (percent of the least piece)",
                    crate::ai::CONTEMPT_RANGE.start(),
                    crate::ai::CONTEMPT_RANGE.end()
                )),
            },
            _ => self.error(&format!("unknown parameter {}", printable(name))),
        }
    }

    /// Sets the position; a refused one (a bad position, an illegal move) leaves none, and
    /// `go` then says why and answers a bare `done` rather than search a position the GUI
    /// did not send.
    fn pos(&mut self, pos: Option<&str>, start: bool, moves: &str) {
        self.runner.stop();
        self.game = None;
        self.refused = Some("no rules are loaded".into());
        let Some((rules, nums)) = self.rules().cloned() else {
            return;
        };
        match Self::position(rules, &nums, pos.filter(|_| !start), moves) {
            Ok(game) => {
                self.game = Some(game);
                self.refused = None;
            }
            Err(e) => {
                self.error(&format!("position refused: {e}"));
                self.refused = Some(e.to_string());
            }
        }
    }

    fn position(
        rules: Rules,
        nums: &Numbers,
        pos: Option<&str>,
        moves: &str,
    ) -> Result<Game, PositionError> {
        let position = match pos {
            Some(text) => position_to_pdn(&rules, nums, text)
                .and_then(|pdn| crate::setup::parse(&rules, &pdn).map_err(|e| e.to_string()))
                .map_err(PositionError::HubPosition)?,
            None => rules.initial(),
        };
        let mut game = Game::new(rules, position);
        for (k, mv) in moves.split_whitespace().enumerate() {
            if k >= MAX_MOVES {
                return Err(PositionError::TooManyMoves(MAX_MOVES));
            }
            let list = game.legal().clone();
            parse_move(&game.rules, nums, &list, mv)
                .and_then(|i| {
                    let text = notation::move_texts(&game.rules.def, &list)[i].clone();
                    game.play(&text).map_err(|e| e.to_string())
                })
                .map_err(|why| PositionError::HubMove {
                    number: k + 1,
                    text: mv.to_string(),
                    why,
                })?;
        }
        Ok(game)
    }

    fn level(&mut self, args: &[(String, String)]) {
        let mut limits = Limits::default();
        let mut clock: (Option<Duration>, Duration, Option<u32>) = (None, Duration::ZERO, None);
        for (k, v) in args {
            let bad = || format!("level {k}={}: not a number", printable(v));
            match k.as_str() {
                "depth" => match v.parse::<u32>() {
                    Ok(d) => limits.depth = Some(d.clamp(1, 128)),
                    Err(_) => return self.error(&bad()),
                },
                "nodes" => match v.parse::<u64>() {
                    Ok(n) => limits.nodes = Some(n.max(1)),
                    Err(_) => return self.error(&bad()),
                },
                "move-time" => match seconds(v) {
                    Some(t) => {
                        limits.time = Some(t.max(Duration::from_millis(1)));
                        limits.fixed_time = true;
                    }
                    None => return self.error(&bad()),
                },
                "time" => match seconds(v) {
                    Some(t) => clock.0 = Some(t),
                    None => return self.error(&bad()),
                },
                "inc" => match seconds(v) {
                    Some(t) => clock.1 = t,
                    None => return self.error(&bad()),
                },
                "moves" => match v.parse::<u32>() {
                    Ok(n) => clock.2 = Some(n),
                    Err(_) => return self.error(&bad()),
                },
                "infinite" => {}
                "0" => {}
                _ => return self.error(&format!("unknown level {}", printable(k))),
            }
        }
        self.limits = limits;
        self.clock = clock.0.map(|t| (t, clock.1, clock.2));
    }

    fn go(&mut self, mode: Hold) {
        let hold = mode != Hold::Think;
        self.runner.stop();
        if let Some(why) = &self.refused {
            self.error(&format!(
                "no position to search: the last pos was refused ({why})"
            ));
            self.say("done");
            return;
        }
        let Some((rules, nums)) = self.rules().cloned() else {
            return;
        };
        if self.game.is_none() {
            let pos = rules.initial();
            self.game = Some(Game::new(rules, pos));
        }
        let mut limits = self.limits.clone();
        if limits == Limits::default() && self.clock.is_none() && mode != Hold::Analyze {
            // No `level` yet: a second a move rather than a search that never ends.
            limits.time = Some(Duration::from_secs(1));
        }
        if let Some((time, inc, moves)) = self.clock {
            if limits.time.is_none() {
                // Hub engines add the increment before they think.
                limits.time = Some(super::uci::allot(
                    time + inc,
                    inc,
                    moves,
                    Duration::from_millis(20),
                ));
            }
        }
        // Pondering thinks without a clock until `ponder-hit`; analysis has none at all.
        let ponder_time = match mode {
            Hold::Think => None,
            Hold::Ponder => limits.time.take(),
            Hold::Analyze => {
                limits.time = None;
                None
            }
        };
        let game = self.game.as_mut().expect("set above");
        let job = Job {
            rules: game.rules.clone(),
            pos: game.pos.clone(),
            history: game.hashes.clone(),
            cfg: SearchConfig {
                limits,
                contempt: self.contempt,
                ..SearchConfig::default()
            },
            hold,
            ponder_time,
        };
        // A game zrf's own rules have ended (a draw by the 16-move rule, say) may go on under
        // the GUI's: Hub has no word for a finished game, so the answer is still a legal move,
        // after an `info` line that says why it was not searched.
        let finished = game.outcome().map(|o| o.describe(&game.rules.def));
        let fallback = match finished {
            Some(why) => {
                let list = game.legal().clone();
                (!list.is_empty()).then(|| {
                    // No `=` in the message: pydraughts splits `info` arguments at each one.
                    let why = why.replace(['=', '"'], " ");
                    (why, move_text(&game.rules, &nums, &list, 0))
                })
            }
            None => None,
        };
        let out_info = Arc::clone(&self.out);
        let out_done = Arc::clone(&self.out);
        self.runner.start(
            job,
            {
                let nums = nums.clone();
                move |rules, pos, i| out_info(&info_line(rules, &nums, pos, i))
            },
            move |rules, pos, f: Finished| match f.result {
                Some(r) => {
                    let write = |r: &Rules, l: &MoveList, k: usize| move_text(r, &nums, l, k);
                    let best = convert_line(rules, pos, std::slice::from_ref(&r.best_text), &write);
                    let best = best.first().cloned().unwrap_or(r.best_text.clone());
                    let line = convert_line(rules, pos, &r.info.pv, &write);
                    match line.get(1) {
                        Some(p) if line.first() == Some(&best) => {
                            out_done(&format!("done move={best} ponder={p}"))
                        }
                        _ => out_done(&format!("done move={best}")),
                    }
                }
                None => match &fallback {
                    Some((why, mv)) => {
                        out_done(&format!(
                            "info message=\"the game is over by these rules ({why}); playing on\""
                        ));
                        out_done(&format!("done move={mv}"));
                    }
                    None => out_done("done"),
                },
            },
        );
    }
}
