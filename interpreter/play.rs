//! A game in progress: position, history for repetition, take-back and redo, and moves by text.

use crate::engine::{revert, GoalContext, MoveList, Outcome, Position, Rules, UndoLog};
use crate::notation::{self, MoveError};

/// A game being played from some position.
pub struct Game {
    /// The rules.
    pub rules: Rules,
    /// The current position.
    pub pos: Position,
    /// Repetition keys of every position so far, the current one last.
    pub hashes: Vec<u64>,
    /// How often each key occurs in `hashes`, so that a long game's outcome is found in
    /// constant time.
    seen: std::collections::HashMap<u64, u32>,
    /// Canonical text of every move played.
    pub played: Vec<String>,
    /// The turn index (`Position::turn`) before each move played, for move numbers.
    pub turns: Vec<u32>,
    /// Moves taken back, the next one to redo last; playing another move clears it.
    pub redo: Vec<String>,
    log: UndoLog,
    legal: MoveList,
    legal_for: Option<u64>,
}

impl Game {
    /// A game from a position.
    pub fn new(rules: Rules, pos: Position) -> Game {
        let hashes = vec![pos.repetition_key()];
        let seen = hashes.iter().map(|&h| (h, 1)).collect();
        Game {
            rules,
            pos,
            hashes,
            seen,
            played: Vec::new(),
            turns: Vec::new(),
            redo: Vec::new(),
            log: UndoLog::new(),
            legal: MoveList::new(),
            legal_for: None,
        }
    }

    /// Starts again from a position, forgetting every move (and the moves to redo).
    pub fn reset(&mut self, pos: Position) {
        self.hashes = vec![pos.repetition_key()];
        self.seen = self.hashes.iter().map(|&h| (h, 1)).collect();
        self.pos = pos;
        self.played.clear();
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
        let i = notation::parse_move(&self.rules.def, &self.legal, text)?;
        let canonical = notation::move_texts(&self.rules.def, &self.legal)[i].clone();
        let m = self.legal.moves[i];
        self.turns.push(self.pos.turn);
        self.rules
            .make(&mut self.pos, &self.legal, &m, &mut self.log);
        let key = self.pos.repetition_key();
        self.hashes.push(key);
        *self.seen.entry(key).or_default() += 1;
        self.played.push(canonical.clone());
        // Replaying the move that was taken back keeps the rest of the redo stack.
        if self.redo.last() == Some(&canonical) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(canonical)
    }

    /// Takes back the last move, keeping it for [`Game::redo`]; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.log.depth() == 0 {
            return false;
        }
        revert(&mut self.pos, &mut self.log);
        if let Some(key) = self.hashes.pop() {
            if let Some(n) = self.seen.get_mut(&key) {
                *n -= 1;
            }
        }
        self.turns.pop();
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

    /// The outcome, if the game is over.
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.legal();
        let now = self.pos.repetition_key();
        let repetitions = self.seen.get(&now).copied().unwrap_or(0) as usize;
        let cx = GoalContext {
            pos: &self.pos,
            moves: &self.legal,
            repetitions,
        };
        self.rules.outcome(&cx)
    }
}
