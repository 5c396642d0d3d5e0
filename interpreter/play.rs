//! A game in progress: position, history for repetition, take-back and redo, and moves by text.
//!
//! A game steps without text: [`Game::play_index`] plays a legal move by its index and records
//! only that index. The texts of the moves played (canonical and SAN) are made when a caller
//! first reads them ([`Game::played`], [`Game::sans`], [`Game::redo_texts`]), by replaying the
//! recorded indices from the last position whose texts are known.

use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;

use crate::engine::{
    revert, Cut, GoalContext, MoveList, Outcome, Picked, Position, Rules, UndoLog, Workspace,
};
use crate::notation::{self, MoveError};

/// The plies a new game has room for before its history grows.
const RESERVED_PLIES: usize = 256;

/// A game being played from some position.
///
/// `Clone` shares the rules and copies the position and history; a game is `Send` and `Sync`.
pub struct Game {
    /// The rules, shared by every clone of the game.
    pub rules: Arc<Rules>,
    /// The current position.
    pub pos: Position,
    /// Repetition keys of every position so far, the current one last.
    pub hashes: Vec<u64>,
    /// The turn index (`Position::turn`) before each move played, for move numbers.
    pub turns: Vec<u32>,
    /// Whether the game has SAN (`san::applies`): moves are also read in it, and
    /// [`Game::sans`] gives the moves played in it.
    pub has_san: bool,
    /// The position the game started from.
    start: Position,
    /// The index in the legal list of each move of the line: the first `turns.len()` were
    /// played, the rest were taken back, the next one to redo first.
    line: Vec<u32>,
    /// The texts of the line's first moves, made when first read.
    texts: Mutex<Texts>,
    /// How often each repetition key occurs in `hashes`, kept by every move and take-back so
    /// that the outcome check does not scan the history (replaying a record stays linear).
    counts: FxHashMap<u64, u32>,
    log: UndoLog,
    /// Buffers of move generation, reused by every position.
    ws: Workspace,
    legal: MoveList,
    legal_for: Option<u64>,
    /// The number of legal moves of the position with this hash, counted by
    /// `Rules::count_legal_noted` with `legal` as its buffer (which then holds what the count
    /// left, unless `legal_for` is that hash too).
    counted_for: Option<(u64, usize)>,
    /// The moves of one piece, written to find a move by its index (`Rules::legal_move_at`).
    picked: MoveList,
    /// The outcome of the current position, once asked, with the hash and ply it is for.
    outcome_for: Option<(u64, usize, Option<Outcome>)>,
    /// A generation of this game was cut by a limit and [`Game::take_cut`] told it.
    cut_told: bool,
}

/// The texts of the first moves of a game's line, and the position after them.
#[derive(Clone, Default)]
struct Texts {
    /// Canonical text of each move.
    played: Vec<String>,
    /// SAN with check mark of each move, when the game has SAN.
    sans: Vec<String>,
    /// The position after the moves of `played` (`None`: replay from the start).
    at: Option<(Position, UndoLog)>,
}

/// The moves to redo, as [`Game::redo_stack`] saves them for [`Game::set_redo_stack`].
#[derive(Clone, Debug)]
pub struct RedoStack {
    /// The repetition key and ply of the position they start from.
    at: (u64, usize),
    moves: Vec<u32>,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        let texts = self
            .texts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        Game {
            rules: Arc::clone(&self.rules),
            pos: self.pos.clone(),
            hashes: self.hashes.clone(),
            turns: self.turns.clone(),
            has_san: self.has_san,
            start: self.start.clone(),
            line: self.line.clone(),
            texts: Mutex::new(texts),
            counts: self.counts.clone(),
            log: self.log.clone(),
            ws: Workspace::default(),
            legal: self.legal.clone(),
            legal_for: self.legal_for,
            counted_for: self.counted_for,
            picked: MoveList::new(),
            outcome_for: self.outcome_for.clone(),
            cut_told: self.cut_told,
        }
    }
}

impl Game {
    /// A game from a position, under rules given whole or shared (`Arc<Rules>`).
    pub fn new(rules: impl Into<Arc<Rules>>, pos: Position) -> Game {
        let rules = rules.into();
        let key = pos.repetition_key();
        let has_san = crate::san::applies(&rules.def);
        // Room for a game's usual length, so that playing it out does not grow these again
        // and again.
        let mut counts = FxHashMap::with_capacity_and_hasher(RESERVED_PLIES, Default::default());
        counts.insert(key, 1);
        let mut hashes = Vec::with_capacity(RESERVED_PLIES);
        hashes.push(key);
        Game {
            rules,
            start: pos.clone(),
            pos,
            hashes,
            turns: Vec::with_capacity(RESERVED_PLIES),
            has_san,
            line: Vec::with_capacity(RESERVED_PLIES),
            texts: Mutex::new(Texts::default()),
            counts,
            log: UndoLog::new(),
            ws: Workspace::default(),
            legal: MoveList::new(),
            legal_for: None,
            counted_for: None,
            picked: MoveList::new(),
            outcome_for: None,
            cut_told: false,
        }
    }

    /// Starts again from a position, forgetting every move (and the moves to redo).
    pub fn reset(&mut self, pos: Position) {
        self.start.clone_from(&pos);
        self.pos = pos;
        self.restart();
    }

    /// Starts again from a position, reusing this game's buffers (no allocation once they
    /// have grown).
    pub fn reset_to(&mut self, pos: &Position) {
        self.start.clone_from(pos);
        self.pos.clone_from(pos);
        self.restart();
    }

    /// Forgets every move, `pos` and `start` being the new start.
    fn restart(&mut self) {
        let key = self.pos.repetition_key();
        self.hashes.clear();
        self.hashes.push(key);
        self.counts.clear();
        self.counts.insert(key, 1);
        self.cut_told = false;
        self.turns.clear();
        self.line.clear();
        let texts = self.texts.get_mut().unwrap_or_else(PoisonError::into_inner);
        texts.played.clear();
        texts.sans.clear();
        texts.at = None;
        self.log.clear();
        self.legal_for = None;
        self.counted_for = None;
        self.outcome_for = None;
    }

    /// The position the game started from (at [`Game::new`] or the last reset).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The legal moves in the current position.
    pub fn legal(&mut self) -> &MoveList {
        if self.legal_for != Some(self.pos.hash) {
            (self.rules).legal_moves_in(&mut self.ws, &mut self.pos, &mut self.legal);
            self.legal_for = Some(self.pos.hash);
            self.counted_for = None;
        }
        &self.legal
    }

    /// The number of legal moves in the current position, [`Game::legal`]'s length, counted
    /// without writing most of them where the rules allow (`Rules::count_legal_noted`).
    pub fn legal_count(&mut self) -> usize {
        let hash = self.pos.hash;
        if self.legal_for == Some(hash) {
            return self.legal.len();
        }
        match self.counted_for {
            Some((h, n)) if h == hash => n,
            _ => {
                let rules = &*self.rules;
                let n =
                    rules.count_legal_noted(&mut self.ws, &mut self.pos, &mut self.legal) as usize;
                // The buffer holds this position's whole list, or what the count left.
                self.legal_for = self.ws.counted_whole().then_some(hash);
                self.counted_for = Some((hash, n));
                n
            }
        }
    }

    /// Canonical texts of the legal moves, in engine order.
    pub fn legal_texts(&mut self) -> Vec<String> {
        self.legal();
        notation::move_texts(&self.rules.def, &self.legal)
    }

    /// Plays a move given as text; on error nothing changes. Returns the move's canonical text.
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        self.refuse_if_over()?;
        self.legal();
        let i = match notation::parse_move(&self.rules.def, &self.legal, text) {
            Ok(i) => i,
            Err(MoveError::Illegal(why)) if self.has_san => self.san_move(text, why)?,
            Err(e) => return Err(e),
        };
        let canonical = notation::move_texts(&self.rules.def, &self.legal).swap_remove(i);
        self.play_index(i)?;
        Ok(canonical)
    }

    /// Plays the `i`-th move of [`Game::legal`] without making any text; on error (the game is
    /// over, no such move) nothing changes.
    pub fn play_index(&mut self, i: usize) -> Result<(), MoveError> {
        self.refuse_if_over()?;
        let n = self.legal_count();
        if i >= n {
            return Err(MoveError::Illegal(match n {
                0 => "there are no legal moves in this position".into(),
                _ => format!(
                    "there is no move {i} here: the legal moves are 0 to {}",
                    n - 1
                ),
            }));
        }
        let rules = &*self.rules;
        // Where the moves were only counted, the move is found without the whole list.
        let found = match self.legal_for == Some(self.pos.hash) {
            true => Some(Picked::Listed(i)),
            false => {
                let (ws, pos, picked) = (&mut self.ws, &mut self.pos, &mut self.picked);
                rules.legal_move_at(ws, pos, &self.legal, i, picked)
            }
        };
        let picked = found.unwrap_or_else(|| {
            // Not found from the count: the whole list.
            rules.legal_moves_in(&mut self.ws, &mut self.pos, &mut self.legal);
            self.legal_for = Some(self.pos.hash);
            self.counted_for = None;
            Picked::Listed(i)
        });
        let (list, m) = match picked {
            Picked::Written(j) => (&self.picked, self.picked.moves.get(j)),
            Picked::Listed(j) => (&self.legal, self.legal.moves.get(j)),
        };
        let Some(&m) = m else {
            return Err(MoveError::Illegal(format!("there is no move {i} here")));
        };
        let ply = self.turns.len();
        // Replaying the move that was taken back keeps the rest of the redo stack.
        if self.line.len() > ply {
            if self.line[ply] as usize != i {
                self.line.truncate(ply);
                let texts = self.texts.get_mut().unwrap_or_else(PoisonError::into_inner);
                if texts.played.len() > ply {
                    texts.played.truncate(ply);
                    texts.sans.truncate(ply);
                    texts.at = Some((self.pos.clone(), UndoLog::new()));
                }
                self.line.push(i as u32);
            }
        } else {
            self.line.push(i as u32);
        }
        self.outcome_for = None;
        self.turns.push(self.pos.turn);
        rules.make(&mut self.pos, list, &m, &mut self.log);
        let key = self.pos.repetition_key();
        self.hashes.push(key);
        *self.counts.entry(key).or_insert(0) += 1;
        Ok(())
    }

    /// An error when the game is over.
    fn refuse_if_over(&mut self) -> Result<(), MoveError> {
        let Some(o) = self.known_outcome().clone() else {
            return Ok(());
        };
        Err(MoveError::Illegal(format!(
            "the game is over: {}",
            o.describe(&self.rules.def)
        )))
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
        if self.log.depth() == 0 || self.turns.is_empty() {
            return false;
        }
        revert(&mut self.pos, &mut self.log);
        self.outcome_for = None;
        if let Some(key) = self.hashes.pop() {
            if let Some(n) = self.counts.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.counts.remove(&key);
                }
            }
        }
        self.turns.pop();
        true
    }

    /// Plays again the last move taken back, returning its canonical text; `None` when there
    /// is none.
    pub fn redo(&mut self) -> Option<String> {
        let ply = self.turns.len();
        let i = *self.line.get(ply)? as usize;
        // The move was legal here when it was taken back, so this cannot fail.
        self.play_index(i).ok()?;
        self.texts().played.get(ply).cloned()
    }

    /// The number of moves played.
    pub fn plies(&self) -> usize {
        self.turns.len()
    }

    /// The indices (in the legal list of their position) of the moves played, in order.
    pub fn played_indices(&self) -> &[u32] {
        &self.line[..self.turns.len()]
    }

    /// The canonical text of every move played.
    pub fn played(&self) -> Vec<String> {
        self.texts().played[..self.turns.len()].to_vec()
    }

    /// The canonical text of the last move played.
    pub fn last_played(&self) -> Option<String> {
        let n = self.turns.len();
        (n > 0).then(|| self.texts().played[n - 1].clone())
    }

    /// The SAN of every move played, with check marks (`Nf3`, `Qxf7#`); empty without SAN.
    pub fn sans(&self) -> Vec<String> {
        if !self.has_san {
            return Vec::new();
        }
        self.texts().sans[..self.turns.len()].to_vec()
    }

    /// The SAN of the last move played; `None` without SAN.
    pub fn last_san(&self) -> Option<String> {
        let n = self.turns.len();
        (n > 0 && self.has_san).then(|| self.texts().sans[n - 1].clone())
    }

    /// The number of moves taken back that [`Game::redo`] can play again.
    pub fn redo_len(&self) -> usize {
        self.line.len() - self.turns.len()
    }

    /// The canonical texts of the moves taken back, the next one to redo last.
    pub fn redo_texts(&self) -> Vec<String> {
        let n = self.turns.len();
        self.texts().played[n..].iter().rev().cloned().collect()
    }

    /// The moves to redo, to give back with [`Game::set_redo_stack`] after trying moves.
    pub fn redo_stack(&self) -> RedoStack {
        let n = self.turns.len();
        RedoStack {
            at: (self.pos.repetition_key(), n),
            moves: self.line[n..].to_vec(),
        }
    }

    /// Makes `stack` the moves to redo again, when the game stands where it was saved
    /// (else nothing changes).
    pub fn set_redo_stack(&mut self, stack: RedoStack) {
        let n = self.turns.len();
        if stack.at != (self.pos.repetition_key(), n) || self.line[n..] == stack.moves[..] {
            return;
        }
        self.line.truncate(n);
        self.line.extend_from_slice(&stack.moves);
        let texts = self.texts.get_mut().unwrap_or_else(PoisonError::into_inner);
        if texts.played.len() > n {
            texts.played.truncate(n);
            texts.sans.truncate(n);
            texts.at = Some((self.pos.clone(), UndoLog::new()));
        }
    }

    /// The texts, made for the whole line (played and to redo) if they are not yet.
    fn texts(&self) -> std::sync::MutexGuard<'_, Texts> {
        let mut texts = self.texts.lock().unwrap_or_else(PoisonError::into_inner);
        if texts.played.len() < self.line.len() {
            self.make_texts(&mut texts);
        }
        texts
    }

    /// Makes the texts of the line's moves past those `texts` has, replaying them from the
    /// position after its last one (or from the start).
    fn make_texts(&self, texts: &mut Texts) {
        let rules = &*self.rules;
        let def = &rules.def;
        let known = texts.played.len();
        let mut list = MoveList::new();
        let (mut pos, mut log) = match texts.at.take() {
            Some(at) => at,
            None => {
                let mut pos = self.start.clone();
                let mut log = UndoLog::new();
                for &i in &self.line[..known] {
                    rules.legal_moves(&mut pos, &mut list);
                    let Some(&m) = list.moves.get(i as usize) else {
                        return;
                    };
                    rules.make(&mut pos, &list, &m, &mut log);
                }
                (pos, log)
            }
        };
        for &i in &self.line[known..] {
            let i = i as usize;
            rules.legal_moves(&mut pos, &mut list);
            let Some(&m) = list.moves.get(i) else {
                break;
            };
            texts
                .played
                .push(notation::move_texts(def, &list).swap_remove(i));
            let san = self
                .has_san
                .then(|| crate::san::texts(def, &list).swap_remove(i));
            rules.make(&mut pos, &list, &m, &mut log);
            if let Some(san) = san {
                texts
                    .sans
                    .push(san + crate::san::after_move(rules, &mut pos));
            }
        }
        texts.at = Some((pos, log));
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

    /// The outcome, if the game is over (the goals are evaluated once per position).
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.known_outcome().clone()
    }

    /// Whether the game is over, without copying the outcome.
    pub fn is_over(&mut self) -> bool {
        self.known_outcome().is_some()
    }

    /// The outcome of the current position, evaluated when it is not known yet.
    fn known_outcome(&mut self) -> &Option<Outcome> {
        let ply = self.turns.len();
        let known = (self.outcome_for.as_ref())
            .is_some_and(|(hash, at, _)| *hash == self.pos.hash && *at == ply);
        if !known {
            let o = self.evaluate_goals();
            self.outcome_for = Some((self.pos.hash, ply, o));
        }
        match &self.outcome_for {
            Some((_, _, o)) => o,
            None => &None,
        }
    }

    fn evaluate_goals(&mut self) -> Option<Outcome> {
        let cx = GoalContext {
            has_moves: self.legal_count() > 0,
            pos: &self.pos,
            repetitions: self.repetitions(),
        };
        self.rules.outcome(&cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared<T: Send + Sync>() {}

    #[test]
    fn games_and_rules_cross_threads() {
        shared::<Rules>();
        shared::<Game>();
    }
}
