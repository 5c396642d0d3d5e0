//! A game in progress: position, history for repetition, take-back and redo, and moves by text.

use std::collections::HashMap;

use crate::engine::{revert, Cut, GoalContext, MoveList, Outcome, Position, Rules, UndoLog};
use crate::notation::{self, MoveError};

/// A game being played from some position.
pub struct Game {
    /// The rules.
    pub rules: Rules,
    /// The current position.
    pub pos: Position,
    /// Repetition keys of every position so far, the current one last.
    pub hashes: Vec<u64>,
    /// Canonical text of every move played.
    pub played: Vec<String>,
    /// The turn index (`Position::turn`) before each move played, for move numbers.
    pub turns: Vec<u32>,
    /// Moves taken back, the next one to redo last; playing another move clears it.
    pub redo: Vec<String>,
    /// The SAN of every move played (`Nf3`, `Qxf7#`), when the game has SAN (`san::applies`).
    pub sans: Vec<String>,
    /// Whether the game has SAN: moves are also read in it, and `sans` is kept.
    pub has_san: bool,
    /// How often each repetition key occurs in `hashes`, kept by every move and take-back so
    /// that the outcome check does not scan the history (replaying a record stays linear).
    counts: HashMap<u64, u32>,
    log: UndoLog,
    legal: MoveList,
    legal_for: Option<u64>,
    /// A generation of this game was cut by a limit and [`Game::take_cut`] told it.
    cut_told: bool,
}

impl Game {
    /// A game from a position.
    pub fn new(rules: Rules, pos: Position) -> Game {
        let key = pos.repetition_key();
        let has_san = crate::san::applies(&rules.def);
        Game {
            rules,
            pos,
            hashes: vec![key],
            played: Vec::new(),
            turns: Vec::new(),
            redo: Vec::new(),
            sans: Vec::new(),
            has_san,
            counts: HashMap::from([(key, 1)]),
            log: UndoLog::new(),
            legal: MoveList::new(),
            legal_for: None,
            cut_told: false,
        }
    }

    /// Starts again from a position, forgetting every move (and the moves to redo).
    pub fn reset(&mut self, pos: Position) {
        let key = pos.repetition_key();
        self.hashes = vec![key];
        self.counts = HashMap::from([(key, 1)]);
        self.cut_told = false;
        self.pos = pos;
        self.played.clear();
        self.sans.clear();
        self.turns.clear();
        self.redo.clear();
        self.log = UndoLog::new();
        self.legal_for = None;
    }

    /// The legal moves in the current position.
    pub fn legal(&mut self) -> &MoveList {
        if self.legal_for != Some(self.pos.hash) {
            self.rules.legal_moves(&mut self.pos, &mut self.legal);
            self.legal_for = Some(self.pos.hash);
        }
        &self.legal
    }

    /// Canonical texts of the legal moves, in engine order.
    pub fn legal_texts(&mut self) -> Vec<String> {
        self.legal();
        notation::move_texts(&self.rules.def, &self.legal)
    }

    /// Plays a move given as text; on error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::Illegal(format!(
                "the game is over: {}",
                o.describe(&self.rules.def)
            )));
        }
        self.legal();
        let i = match notation::parse_move(&self.rules.def, &self.legal, text) {
            Ok(i) => i,
            Err(MoveError::Illegal(why)) if self.has_san => self.san_move(text, why)?,
            Err(e) => return Err(e),
        };
        let canonical = notation::move_texts(&self.rules.def, &self.legal)[i].clone();
        let san = self
            .has_san
            .then(|| crate::san::texts(&self.rules.def, &self.legal)[i].clone());
        let m = self.legal.moves[i];
        self.turns.push(self.pos.turn);
        self.rules
            .make(&mut self.pos, &self.legal, &m, &mut self.log);
        let key = self.pos.repetition_key();
        self.hashes.push(key);
        *self.counts.entry(key).or_insert(0) += 1;
        self.played.push(canonical.clone());
        if let Some(mut san) = san {
            san += self.check_mark();
            self.sans.push(san);
        }
        // Replaying the move that was taken back keeps the rest of the redo stack.
        if self.redo.last() == Some(&canonical) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(canonical)
    }

    /// The legal move a SAN text names, once zrf's own notation has failed with `why`. A text
    /// that does not look like SAN (`e5-e4`, `a7a8`) keeps the canonical reason and candidates.
    fn san_move(&self, text: &str, why: String) -> Result<usize, MoveError> {
        let def = &self.rules.def;
        let san = crate::san::looks_like_san(text);
        match crate::san::find(def, &self.legal, text) {
            Ok(found) if found.len() == 1 => Ok(found[0]),
            Ok(found) => {
                let names = if san {
                    crate::san::texts(def, &self.legal)
                } else {
                    notation::move_texts(def, &self.legal)
                };
                Err(MoveError::Ambiguous(
                    found.iter().map(|&i| names[i].clone()).collect(),
                ))
            }
            Err(e) if san => Err(e),
            Err(_) => Err(MoveError::Illegal(why)),
        }
    }

    /// Takes back the last move, keeping it for [`Game::redo`]; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.log.depth() == 0 {
            return false;
        }
        revert(&mut self.pos, &mut self.log);
        if let Some(key) = self.hashes.pop() {
            if let Some(n) = self.counts.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.counts.remove(&key);
                }
            }
        }
        self.turns.pop();
        self.sans.pop();
        if let Some(m) = self.played.pop() {
            self.redo.push(m);
        }
        true
    }

    /// Plays again the last move taken back; `None` when there is none.
    pub fn redo(&mut self) -> Option<String> {
        let text = self.redo.last()?.clone();
        // The move was legal here when it was taken back, so this cannot fail.
        self.play(&text).ok()
    }

    /// `+` when the side to move is in check, `#` when it is mated, else nothing.
    pub fn check_mark(&mut self) -> &'static str {
        let side = match self.rules.turns.is_empty() {
            true => return "",
            false => self.rules.entry(self.pos.turn).owner,
        };
        if !self.rules.royal.iter().any(|&r| r) || !self.rules.royal_attacked(&self.pos, side) {
            return "";
        }
        if self.legal().is_empty() {
            "#"
        } else {
            "+"
        }
    }

    /// The legal moves in SAN with check marks, in engine order (`None` without SAN).
    pub fn legal_sans(&mut self) -> Option<Vec<String>> {
        if !self.has_san {
            return None;
        }
        self.legal();
        Some(crate::san::texts_marked(
            &self.rules,
            &mut self.pos,
            &self.legal,
        ))
    }

    /// How often the current position has occurred in this game (itself included).
    pub fn repetitions(&self) -> usize {
        let now = self.pos.repetition_key();
        self.counts.get(&now).copied().unwrap_or(0) as usize
    }

    /// The limit that cut a generation of the current position's moves, the first time one
    /// does in this game (after [`Game::new`] or [`Game::reset`]); `None` afterwards, so a front
    /// end warns once per game.
    pub fn take_cut(&mut self) -> Option<Cut> {
        if self.cut_told {
            return None;
        }
        let cut = self.legal().cut;
        self.cut_told = cut.is_some();
        cut
    }

    /// The outcome, if the game is over.
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.legal();
        let now = self.pos.repetition_key();
        let repetitions = self.counts.get(&now).copied().unwrap_or(0) as usize;
        let cx = GoalContext {
            pos: &self.pos,
            moves: &self.legal,
            repetitions,
        };
        self.rules.outcome(&cx)
    }
}
