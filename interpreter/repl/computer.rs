//! The computer player in a session: `ai`, `go`, `analyse`, `engine` and `play-as`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::{Output, Session};
use crate::ai::{Engine, EngineKind, Info, Limits, Opponent, SearchConfig, SearchResult};
use crate::arena::{self, limits_text};
use crate::notation::MoveError;

/// The longest game `play-as both` plays in one command.
const AUTO_PLY_LIMIT: usize = 1000;

/// Called with a one-line progress report while the computer thinks.
pub type Progress = Box<dyn FnMut(&str)>;

/// The computer player's state: its engine, default setting, the sides it plays.
pub struct Computer {
    engine: Option<Engine>,
    /// The setting `ai` and automatic replies use.
    pub config: SearchConfig,
    /// For each player: the computer replies for it.
    pub plays: Vec<bool>,
    /// Set to stop a search (the terminal sets it on Ctrl-C).
    pub stop: Arc<AtomicBool>,
    /// True while the computer thinks (so that Ctrl-C stops the search, not the program).
    pub thinking: Arc<AtomicBool>,
    /// Where progress lines go while thinking.
    pub progress: Option<Progress>,
    /// Where the moves the computer plays by itself (`play-as`) go as soon as they are
    /// played, so that a game played out shows move by move; without it they are part of the
    /// command's answer.
    pub said: Option<Progress>,
    /// Something can set `stop` (the terminal does, on Ctrl-C): `analyse` without limits then
    /// searches until stopped, rather than with the setting's limits.
    pub stoppable: bool,
    /// The generator that chooses random players' moves (`?Dice`): seeded, so a session
    /// that types the same lines plays the same game.
    dice: crate::ai::Rng,
}

impl Computer {
    /// Alpha-beta with one second per move, playing no side.
    pub fn new(players: usize) -> Computer {
        Computer {
            engine: None,
            config: SearchConfig {
                kind: EngineKind::AlphaBeta,
                limits: Limits {
                    time: Some(Duration::from_secs(1)),
                    ..Limits::default()
                },
                seed: 0,
                opponent: Opponent::Best,
                multi_pv: 1,
                contempt: crate::ai::DEFAULT_CONTEMPT,
                searchmoves: Vec::new(),
            },
            plays: vec![false; players],
            stop: Arc::new(AtomicBool::new(false)),
            thinking: Arc::new(AtomicBool::new(false)),
            progress: None,
            said: None,
            stoppable: false,
            dice: crate::ai::Rng::new(0),
        }
    }

    /// Forgets what the engine learnt of the old rules; keeps the setting and, as far as the
    /// new game has them, the sides played.
    pub fn new_rules(&mut self, players: usize) {
        self.engine = None;
        self.plays.resize(players, false);
    }
}

/// `depth 6  +0.35  123,456 nodes  1.20 s  e2-e4 e7-e5`.
pub fn info_line(info: &Info) -> String {
    let line = if info.multipv > 1 {
        format!("line {}  ", info.multipv)
    } else {
        String::new()
    };
    format!(
        "{line}depth {}  {}  {} nodes  {:.2} s  {}",
        info.depth,
        info.score,
        info.nodes,
        info.elapsed.as_secs_f64(),
        info.pv.join(" ")
    )
}

/// Why the computer or a random player did not move. `Display` gives the message shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The game is over: how it ended.
    #[error("the game is over: {0}")]
    Over(String),
    /// The side to move has no legal move.
    #[error("there is no move to play")]
    NoMove,
    /// The move chosen was refused when played (`by`: who chose it).
    #[error("{by} `{text}`: {why}")]
    Refused {
        /// Who chose it: "the engine chose", "the random move".
        by: &'static str,
        /// The move's text.
        text: String,
        /// Why it was refused.
        why: MoveError,
    },
}

impl Session {
    /// Runs the engine on the current position, sending progress lines to the terminal and
    /// keeping each in `lines`; `None` when the game is over or there is no move.
    fn think(&mut self, cfg: &SearchConfig, lines: &mut Vec<String>) -> Option<SearchResult> {
        if self.game.outcome().is_some() {
            return None;
        }
        let c = &mut self.computer;
        c.stop.store(false, Ordering::Relaxed);
        let engine = c
            .engine
            .get_or_insert_with(|| Engine::new(&self.game.rules));
        let sink = &mut c.progress;
        let game = &self.game;
        let mut report = |info: &Info| {
            // The line in SAN where the game has it.
            let line = if game.has_san {
                let mut info = info.clone();
                info.pv = crate::san::line(&game.rules, &game.pos, &info.pv);
                info_line(&info)
            } else {
                info_line(info)
            };
            if let Some(p) = sink.as_mut() {
                p(&line);
            }
            lines.push(line);
        };
        let was = c.thinking.swap(true, Ordering::Relaxed);
        let r = engine.search(
            &game.rules,
            &game.pos,
            &game.hashes,
            cfg,
            &c.stop,
            &mut report,
        );
        c.thinking.store(was, Ordering::Relaxed);
        if let Some(p) = sink.as_mut() {
            p("");
        }
        r
    }

    /// Plays the computer's move with a setting; the text says what it played.
    fn computer_move(&mut self, cfg: &SearchConfig) -> Result<String, TurnError> {
        if let Some(o) = self.game.outcome() {
            return Err(TurnError::Over(o.describe(&self.game.rules.def)));
        }
        let mover = self.mover_name();
        let Some(r) = self.think(cfg, &mut Vec::new()) else {
            return Err(TurnError::NoMove);
        };
        (self.play_one(&r.best_text)).map_err(|why| TurnError::Refused {
            by: "the engine chose",
            text: r.best_text.clone(),
            why,
        })?;
        let shown = self.game.last_san().unwrap_or_else(|| r.best_text.clone());
        let stopped = if self.computer.stop.load(Ordering::Relaxed) {
            ", stopped"
        } else {
            ""
        };
        Ok(format!(
            "{mover} plays {shown} (depth {}, {}, {:.2} s{stopped}).",
            r.info.depth,
            r.info.score,
            r.info.elapsed.as_secs_f64()
        ))
    }

    /// A random player's turn (`?Dice`): one of its legal moves, chosen uniformly.
    fn random_move(&mut self) -> Result<String, TurnError> {
        let mover = self.mover_name();
        let texts = self.game.legal_texts();
        if texts.is_empty() {
            return Err(TurnError::NoMove);
        }
        let text = texts[self.computer.dice.below(texts.len())].clone();
        (self.play_one(&text)).map_err(|why| TurnError::Refused {
            by: "the random move",
            text: text.clone(),
            why,
        })?;
        let shown = self.game.last_san().unwrap_or(text);
        Ok(format!(
            "{mover} plays {shown} (at random, one of {}).",
            texts.len()
        ))
    }

    /// When a random player (`?Dice`) is to move and the game goes on, plays one of its moves
    /// as the REPL does between turns (uniformly, from the session's seeded generator) and
    /// says what it played; `None` when another player is to move.
    pub fn random_turn(&mut self) -> Option<Result<String, TurnError>> {
        if self.game.rules.turns.is_empty() || self.game.outcome().is_some() {
            return None;
        }
        let mover = self.game.rules.entry(self.game.pos.turn).mover.idx();
        if !self.game.rules.def.players[mover].random {
            return None;
        }
        Some(self.random_move())
    }

    /// `ai`: the computer moves with the session's setting.
    pub(super) fn ai(&mut self, rest: &str) -> Output {
        if !rest.is_empty() {
            return self.go(rest);
        }
        let cfg = self.computer.config.clone();
        self.move_and_reply(&cfg)
    }

    /// `go LIMITS`: the computer moves with these limits (this move only).
    pub(super) fn go(&mut self, rest: &str) -> Output {
        let cfg = match self.setting(rest) {
            Ok(c) => c,
            Err(e) => return self.error(e.to_string()),
        };
        self.move_and_reply(&cfg)
    }

    fn move_and_reply(&mut self, cfg: &SearchConfig) -> Output {
        match self.computer_move(cfg) {
            Ok(said) => {
                let more = self.auto_replies();
                Output::text(format!("{said}\n{more}{}", self.show()))
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// The session's setting changed by `[mcts|alphabeta] [depth N] [time T] [nodes N]
    /// [opponent random|best]`; a setting with no limit keeps the session's limits.
    fn setting(&self, rest: &str) -> Result<SearchConfig, arena::SettingError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let arena::Setting {
            kind,
            limits,
            opponent,
        } = arena::parse_setting(&words)?;
        let base = &self.computer.config;
        let no_limit = limits.depth.is_none() && limits.time.is_none() && limits.nodes.is_none();
        let kind = kind.unwrap_or(base.kind);
        let limits = if no_limit {
            base.limits.clone()
        } else {
            limits
        };
        if kind == EngineKind::Mcts && limits.time.is_none() && limits.nodes.is_none() {
            return Err(arena::SettingError::MctsNoLimit(limits_text(&limits)));
        }
        Ok(SearchConfig {
            kind,
            limits,
            seed: base.seed,
            opponent: opponent.unwrap_or(base.opponent),
            multi_pv: base.multi_pv,
            contempt: base.contempt,
            searchmoves: Vec::new(),
        })
    }

    /// `analyse [lines N] [LIMITS]`: search without playing; shows the best line and its
    /// score (with `lines N`, the N best moves, each with its line, best first).
    pub(super) fn analyse(&mut self, rest: &str) -> Output {
        let mut multi_pv = 1;
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut kept = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if words[i].eq_ignore_ascii_case("lines") {
                match words.get(i + 1).and_then(|v| v.parse::<u32>().ok()) {
                    Some(n) if (1..=256).contains(&n) => multi_pv = n,
                    _ => return self.error("`lines` needs a number from 1 to 256, e.g. `lines 3`"),
                }
                i += 2;
            } else {
                kept.push(words[i]);
                i += 1;
            }
        }
        let rest = kept.join(" ");
        let rest = rest.as_str();
        let cfg = match self.setting(rest) {
            // No limit given and Ctrl-C at hand: search until stopped.
            Ok(mut c) if rest.trim().is_empty() && self.computer.stoppable => {
                c.limits = Limits {
                    nodes: (c.kind == EngineKind::Mcts).then_some(u64::MAX),
                    ..Limits::default()
                };
                c
            }
            Ok(c) => c,
            Err(e) => return self.error(e.to_string()),
        };
        // Analysis shows the game's own values: a draw reads 0, whatever contempt play uses.
        let cfg = SearchConfig {
            multi_pv,
            contempt: 0,
            ..cfg
        };
        if let Some(o) = self.game.outcome() {
            return self.error(format!(
                "the game is over: {}",
                o.describe(&self.game.rules.def)
            ));
        }
        let mut lines = Vec::new();
        match self.think(&cfg, &mut lines) {
            Some(r) => {
                let mut text = String::new();
                for l in &lines {
                    text += l;
                    text.push('\n');
                }
                let best = if self.game.has_san {
                    let g = &self.game;
                    crate::san::line(&g.rules, &g.pos, std::slice::from_ref(&r.best_text)).remove(0)
                } else {
                    r.best_text.clone()
                };
                text += &format!(
                    "best {best} ({}, depth {}, {} nodes, {:.2} s)",
                    r.info.score,
                    r.info.depth,
                    r.info.nodes,
                    r.info.elapsed.as_secs_f64()
                );
                Output::text(text)
            }
            None => self.error("there is no move to analyse"),
        }
    }

    /// `engine [SETTING]`: show or change the setting of `ai` and automatic replies.
    pub(super) fn engine(&mut self, rest: &str) -> Output {
        if !rest.is_empty() {
            match self.setting(rest) {
                Ok(c) => self.computer.config = c,
                Err(e) => return self.error(e.to_string()),
            }
        }
        Output::text(format!(
            "engine: {}",
            arena::setting_text(&self.computer.config)
        ))
    }

    /// `play-as SIDE|both|none`: the sides the computer plays; it replies at once if it is
    /// to move.
    pub(super) fn play_as(&mut self, rest: &str) -> Output {
        let def = &self.game.rules.def;
        let n = def.players.len();
        let want = rest.trim().to_lowercase();
        let plays: Vec<bool> = match want.as_str() {
            "both" | "all" => vec![true; n],
            "none" | "" => vec![false; n],
            w => match def.players.iter().position(|p| p.name.to_lowercase() == w) {
                Some(i) => (0..n).map(|k| k == i).collect(),
                None => {
                    let names: Vec<String> =
                        def.players.iter().map(|p| p.name.to_lowercase()).collect();
                    return self.error(format!(
                        "`{rest}` is not a player: say {}, both or none",
                        names.join(", ")
                    ));
                }
            },
        };
        self.computer.plays = plays;
        let who: Vec<&str> = def
            .players
            .iter()
            .zip(&self.computer.plays)
            .filter(|(_, &on)| on)
            .map(|(p, _)| p.name.as_str())
            .collect();
        let said = if who.is_empty() {
            "The computer plays no side.".to_string()
        } else {
            format!("The computer plays {}.", who.join(" and "))
        };
        let before = self.game.plies();
        // A front end that shows the computer's moves as they come shows this line first.
        let said = match self.computer.said.as_mut() {
            Some(show) => {
                show(&said);
                None
            }
            None => Some(said),
        };
        let more = self.auto_replies();
        let board = if self.game.plies() == before {
            String::new()
        } else {
            self.show()
        };
        match said {
            Some(said) if board.is_empty() => Output::text(said),
            Some(said) => Output::text(format!("{said}\n{more}{board}")),
            None => Output::text(board),
        }
    }

    /// Lets the computer move while it is to play a side it plays; the lines it said.
    pub(super) fn auto_replies(&mut self) -> String {
        let mut out = String::new();
        let mut plies = 0;
        // Ctrl-C between two searches stops the game too, rather than the program.
        let was = self.computer.thinking.swap(true, Ordering::Relaxed);
        self.computer.stop.store(false, Ordering::Relaxed);
        while plies < AUTO_PLY_LIMIT && !self.computer.stop.load(Ordering::Relaxed) {
            if self.game.rules.turns.is_empty() || self.game.outcome().is_some() {
                break;
            }
            let mover = self.game.rules.entry(self.game.pos.turn).mover.idx();
            let random = self.game.rules.def.players[mover].random;
            if !random && !self.computer.plays.get(mover).copied().unwrap_or(false) {
                break;
            }
            let cfg = self.computer.config.clone();
            let played = if random {
                self.random_move()
            } else {
                self.computer_move(&cfg)
            };
            match played {
                Ok(said) => match self.computer.said.as_mut() {
                    Some(show) => show(&said),
                    None => {
                        out += &said;
                        out.push('\n');
                    }
                },
                Err(e) => {
                    out += &format!("The computer could not move: {e}\n");
                    break;
                }
            }
            plies += 1;
        }
        self.computer.thinking.store(was, Ordering::Relaxed);
        out
    }
}
