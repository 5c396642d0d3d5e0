//! `zrf.State`: a game in progress, stepped by actions or by move texts.

use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use zrf::actions::{self, Action, Next, Turns};
use zrf::engine::{Outcome, Position};
use zrf::play::Game as PlayGame;

use crate::game::{Game, Shared};
use crate::{error, guard, CHANCE, TERMINAL};

/// The actions a new state has room for before its history grows.
const RESERVED_PLIES: usize = 256;

/// What a state knows between calls.
pub struct Inner {
    pub shared: Arc<Shared>,
    pub game: PlayGame,
    /// The position text it started from, when not the rules' own start.
    pub setup: Option<String>,
    /// The action sequences of the current position's turns, valid when `fresh`.
    turns: Turns,
    /// The outcome of the current position, valid when `fresh`.
    outcome: Option<Outcome>,
    fresh: bool,
    /// The actions legal now (ascending), valid when `fresh`.
    options: Vec<u32>,
    /// Actions chosen so far in the turn being made.
    prefix: Vec<u32>,
    /// Every action applied, in order.
    history: Vec<u32>,
    /// How many actions each whole turn played took.
    per_turn: Vec<u32>,
    engine: Option<zrf::ai::Engine>,
}

/// The buffers a dropped state leaves to the next new state of its game (its game, grown to a
/// game's length, and its action lists), so that a loop of playouts does not grow them again
/// for every game.
pub struct Spare {
    game: PlayGame,
    turns: Turns,
    options: Vec<u32>,
    prefix: Vec<u32>,
    history: Vec<u32>,
    per_turn: Vec<u32>,
}

/// The most spare buffers a game keeps.
const MAX_SPARE: usize = 4;

impl Inner {
    fn new(shared: Arc<Shared>, pos: Position, setup: Option<String>) -> Inner {
        let spare = (shared.spare.lock().ok()).and_then(|mut s| s.pop());
        if let Some(mut s) = spare {
            s.game.reset_to(&pos);
            for v in [
                &mut s.options,
                &mut s.prefix,
                &mut s.history,
                &mut s.per_turn,
            ] {
                v.clear();
            }
            return Inner {
                shared,
                game: s.game,
                setup,
                turns: s.turns,
                outcome: None,
                fresh: false,
                options: s.options,
                prefix: s.prefix,
                history: s.history,
                per_turn: s.per_turn,
                engine: None,
            };
        }
        let game = PlayGame::new(shared.rules.clone(), pos);
        Inner {
            shared,
            game,
            setup,
            turns: Turns::new(),
            outcome: None,
            fresh: false,
            options: Vec::new(),
            prefix: Vec::new(),
            // Most games are shorter: the buffers are not grown again and again in playouts.
            history: Vec::with_capacity(RESERVED_PLIES),
            per_turn: Vec::with_capacity(RESERVED_PLIES),
            engine: None,
        }
    }

    /// Brings the turns, the outcome and the legal actions up to date.
    fn settle(&mut self) {
        if self.fresh {
            return;
        }
        // The actions need the whole list: made first, the goals read its length from it
        // instead of counting the moves again.
        self.game.legal();
        self.outcome = self.game.outcome();
        if self.outcome.is_none() && self.history.len() as u64 >= self.shared.max_len {
            self.outcome = Some(draw(format!(
                "the maximum game length of {} actions",
                self.shared.max_len
            )));
        }
        // A player left without moves where no goal ends the game: a draw, as in playouts
        // (OpenSpiel needs a legal action in every position that is not terminal).
        if self.outcome.is_none() && self.game.legal().is_empty() {
            self.outcome = Some(draw("no legal moves".into()));
        }
        actions::turns(&self.shared.rules.def, self.game.legal(), &mut self.turns);
        self.options.clear();
        if self.outcome.is_none() {
            let mut out = std::mem::take(&mut self.options);
            if actions::next(&self.turns, &self.prefix, &mut out) != Next::Choose {
                out.clear();
            }
            self.options = out;
        }
        self.fresh = true;
    }

    fn current_player(&mut self) -> i64 {
        self.settle();
        if self.outcome.is_some() {
            return TERMINAL;
        }
        let rules = &self.game.rules;
        if rules.turns.is_empty() {
            return 0;
        }
        let p = rules.entry(self.game.pos.turn).mover.idx();
        if rules.def.players[p].random {
            return CHANCE;
        }
        p as i64
    }

    /// Plays turn `i` of the legal moves; the actions that chose it are already recorded.
    fn play_turn(&mut self, i: usize) -> Result<(), String> {
        self.game.play_index(i).map_err(|e| e.to_string())?;
        self.fresh = false;
        Ok(())
    }

    /// Applies one action; refused actions change nothing.
    fn apply(&mut self, a: u32) -> Result<(), String> {
        self.settle();
        if let Some(o) = &self.outcome {
            return Err(format!(
                "the game is over: {}",
                o.describe(&self.shared.rules.def)
            ));
        }
        // An action that alone names a turn is legal (the first actions are the options).
        if self.prefix.is_empty() {
            if let Some(i) = self.turns.single(a) {
                self.play_turn(i)?;
                self.history.push(a);
                self.per_turn.push(1);
                return Ok(());
            }
        }
        if self.options.binary_search(&a).is_err() {
            return Err(self.not_legal(a as u64));
        }
        self.prefix.push(a);
        let mut out = Vec::new();
        match actions::next(&self.turns, &self.prefix, &mut out) {
            Next::Turn(i) => {
                if let Err(e) = self.play_turn(i) {
                    self.prefix.pop();
                    return Err(e);
                }
                self.history.push(a);
                self.per_turn.push(self.prefix.len() as u32);
                self.prefix.clear();
            }
            Next::Choose => {
                self.history.push(a);
                self.options = out;
                // The game may end by its length in the middle of a turn.
                self.fresh = (self.history.len() as u64) < self.shared.max_len;
            }
            Next::None => {
                self.prefix.pop();
                return Err(self.not_legal(a as u64));
            }
        }
        Ok(())
    }

    fn not_legal(&self, a: u64) -> String {
        let space = &self.shared.space;
        if a >= space.size() {
            return format!(
                "action {a} is out of range: this game's actions are 0 to {}",
                space.size() - 1
            );
        }
        format!(
            "action {a} ({}) is not legal here",
            space.text(&self.shared.rules.def, a)
        )
    }

    /// Takes back the last action; false when there is none.
    fn undo(&mut self) -> bool {
        if !self.prefix.is_empty() {
            self.prefix.pop();
            self.history.pop();
            self.fresh = false;
            return true;
        }
        let Some(n) = self.per_turn.pop() else {
            return false;
        };
        if !self.game.undo() {
            self.per_turn.push(n);
            return false;
        }
        let len = self.history.len();
        let turn = self.history.split_off(len - n as usize);
        self.prefix = turn[..turn.len() - 1].to_vec();
        self.history.extend_from_slice(&self.prefix);
        self.fresh = false;
        true
    }

    /// The index of the whole turn a text names, among the turns that start with the prefix.
    fn turn_of_text(&mut self, text: &str) -> Result<usize, String> {
        let found = self.turns_of_text(text)?;
        match found[..] {
            [i] => Ok(i),
            _ => {
                let texts = zrf::notation::move_texts(&self.shared.rules.def, self.game.legal());
                let names: Vec<&str> = found.iter().map(|&i| texts[i].as_str()).collect();
                Err(format!(
                    "`{text}` is ambiguous: it could be {}",
                    names.join(", ")
                ))
            }
        }
    }

    /// The whole turns a text may name (several when it is ambiguous) among those that start
    /// with the actions chosen so far.
    fn turns_of_text(&mut self, text: &str) -> Result<Vec<usize>, String> {
        self.settle();
        if text.len() > 10_000 {
            return Err("the move text is too long".into());
        }
        let def = &self.shared.rules.def;
        let list = self.game.legal();
        let found = match zrf::notation::parse_move(def, list, text) {
            Ok(i) => vec![i],
            Err(e) => {
                let texts = zrf::notation::move_texts(def, list);
                let by_text = |names: &[String]| -> Vec<usize> {
                    names
                        .iter()
                        .filter_map(|n| texts.iter().position(|t| t == n))
                        .collect()
                };
                let san = if zrf::san::applies(def) {
                    zrf::san::find(def, list, text).unwrap_or_default()
                } else {
                    Vec::new()
                };
                match e {
                    _ if !san.is_empty() => san,
                    zrf::notation::MoveError::Ambiguous(names) => by_text(&names),
                    e => return Err(e.to_string()),
                }
            }
        };
        let p = &self.prefix;
        let found: Vec<usize> = found
            .into_iter()
            .filter(|&i| {
                let seq = actions::sequence(&self.turns, i);
                seq.len() >= p.len() && seq[..p.len()] == p[..]
            })
            .collect();
        if found.is_empty() {
            return Err(format!(
                "`{text}` does not continue the actions chosen so far in this turn"
            ));
        }
        Ok(found)
    }

    /// The action that a text names here: an action's own text, or a whole move's (its next
    /// action).
    fn string_to_action(&mut self, text: &str) -> Result<u32, String> {
        self.settle();
        if self.outcome.is_some() {
            return Err("the game is over".into());
        }
        let t = text.trim();
        for a in self.options.clone() {
            let own = self.shared.space.text(&self.shared.rules.def, a as u64);
            if own == t || self.action_text(a) == t {
                return Ok(a);
            }
        }
        let found = self.turns_of_text(t)?;
        let len = self.prefix.len();
        let next: Vec<Option<u32>> = found
            .iter()
            .map(|&i| actions::sequence(&self.turns, i).get(len).copied())
            .collect();
        match next[..] {
            [Some(a), ..] if next.iter().all(|&b| b == Some(a)) => Ok(a),
            _ => Err(self
                .turn_of_text(t)
                .err()
                .unwrap_or_else(|| format!("`{text}` names no action here"))),
        }
    }

    /// An action's text: the whole move's canonical text where the action alone names a turn
    /// here, else the step's own text.
    fn action_text(&mut self, a: u32) -> String {
        self.settle();
        let def = &self.shared.rules.def;
        let mut p = self.prefix.clone();
        p.push(a);
        let mut out = Vec::new();
        if let Next::Turn(i) = actions::next(&self.turns, &p, &mut out) {
            // The canonical text, made unique among the legal moves.
            let texts = zrf::notation::move_texts(def, self.game.legal());
            if let Some(t) = texts.get(i) {
                return t.clone();
            }
        }
        self.shared.space.text(def, a as u64)
    }

    fn returns(&mut self) -> Vec<f64> {
        self.settle();
        let n = self.shared.rules.def.players.len();
        let mut r = vec![0.0; n];
        if let Some(o) = &self.outcome {
            for w in &o.winners {
                r[w.idx()] = 1.0;
            }
            for l in &o.losers {
                r[l.idx()] = -1.0;
            }
        }
        r
    }

    fn observation(&mut self, player: usize) -> Vec<f32> {
        let mover = usize::try_from(self.current_player()).ok();
        let layout = &self.shared.layout;
        let mut v = vec![0f32; layout.len()];
        layout.fill(
            &mut v,
            &self.game.pos,
            &self.shared.space,
            &self.prefix,
            player,
            mover,
        );
        v
    }

    /// A copy: the same position, history and repetitions.
    fn copy(&self) -> Result<Inner, String> {
        Ok(Inner {
            shared: self.shared.clone(),
            game: self.game.clone(),
            setup: self.setup.clone(),
            turns: self.turns.clone(),
            outcome: self.outcome.clone(),
            fresh: self.fresh,
            options: self.options.clone(),
            prefix: self.prefix.clone(),
            history: self.history.clone(),
            per_turn: self.per_turn.clone(),
            engine: None,
        })
    }
}

/// A draw for a reason the rules' goals do not give (the game's length, no legal moves).
fn draw(reason: String) -> Outcome {
    Outcome {
        winners: Vec::new(),
        losers: Vec::new(),
        reason,
        scores: None,
    }
}

/// `best_move`'s answer: move text, action, score text, principal line.
type BestMove = (String, u32, String, Vec<String>);

/// A game in progress (`Game.new_initial_state()`); safe to share between threads.
#[pyclass(frozen, module = "zrf._zrf")]
pub struct State {
    /// Boxed, so that the Python object stays small: a new state neither clears nor copies
    /// the game's few kilobytes into it.
    inner: Mutex<Box<Inner>>,
}

impl Drop for State {
    /// Leaves the state's buffers to the next new state of its game (a few are kept).
    fn drop(&mut self) {
        let g = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        let shared = g.shared.clone();
        let Ok(mut spare) = shared.spare.try_lock() else {
            return;
        };
        if spare.len() >= MAX_SPARE {
            return;
        }
        // What the state keeps in place of its game until it is dropped: a game of no
        // position, cheaper to make and drop than a copy of the blank one.
        let husk = PlayGame::new(shared.rules.clone(), Position::empty(0, 0, 0));
        spare.push(Spare {
            game: std::mem::replace(&mut g.game, husk),
            turns: std::mem::take(&mut g.turns),
            options: std::mem::take(&mut g.options),
            prefix: std::mem::take(&mut g.prefix),
            history: std::mem::take(&mut g.history),
            per_turn: std::mem::take(&mut g.per_turn),
        });
    }
}

impl State {
    pub fn new(shared: Arc<Shared>, pos: Position, setup: Option<String>) -> State {
        State {
            inner: Mutex::new(Box::new(Inner::new(shared, pos, setup))),
        }
    }

    pub fn from_inner(inner: Inner) -> State {
        State {
            inner: Mutex::new(Box::new(inner)),
        }
    }

    /// The state's lock. A thread waiting for it lets other Python threads run, so a thread
    /// that holds it and needs the GIL (or a long call) cannot deadlock with the waiters.
    fn lock(&self, py: Python<'_>) -> MutexGuard<'_, Box<Inner>> {
        loop {
            match self.inner.try_lock() {
                Ok(g) => return g,
                Err(std::sync::TryLockError::Poisoned(e)) => return e.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => {
                    py.allow_threads(std::thread::yield_now);
                }
            }
        }
    }
}

/// An action from a Python int: a clear error for negatives, huge values and other types.
fn action_arg(a: &Bound<'_, PyAny>) -> PyResult<u64> {
    // A plain int in range, the common case, in one conversion (the 128-bit one below costs
    // several calls into Python under the stable ABI).
    if let Ok(int) = a.downcast_exact::<pyo3::types::PyInt>() {
        if let Ok(v) = int.extract::<i64>() {
            if (0..=u32::MAX as i64).contains(&v) {
                return Ok(v as u64);
            }
        }
    }
    if a.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err("an action is an int, not a bool"));
    }
    match a.extract::<i128>() {
        Ok(v) if v < 0 => Err(error(format!("action {v} is negative"))),
        Ok(v) if v > u32::MAX as i128 => Err(error(format!("action {v} is out of range"))),
        Ok(v) => Ok(v as u64),
        Err(_) if a.is_instance_of::<pyo3::types::PyInt>() => {
            Err(error("the action is out of range"))
        }
        Err(_) => Err(PyTypeError::new_err(format!(
            "an action is an int, not {}",
            a.get_type().name()?
        ))),
    }
}

#[pymethods]
impl State {
    /// The player to move (from 0), `zrf.TERMINAL` when the game is over, `zrf.CHANCE` for a
    /// random player.
    fn current_player(&self, py: Python<'_>) -> PyResult<i64> {
        guard(|| Ok(self.lock(py).current_player()))
    }

    /// The legal actions, ascending (empty when the game is over).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut g = self.lock(py);
        guard(|| {
            g.settle();
            g.shared.action_list(py, &g.options)
        })
    }

    /// One flag per action (1 legal, 0 not), as a NumPy uint8 array... as a list of ints.
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut g = self.lock(py);
        let size = g.shared.space.size();
        if size > 1 << 26 {
            return Err(error(format!(
                "the action space ({size}) is too large for a mask; use legal_actions()"
            )));
        }
        let mut mask = vec![0u8; size as usize];
        guard(|| {
            g.settle();
            for &a in &g.options {
                mask[a as usize] = 1;
            }
            Ok(())
        })?;
        let np = py.import("numpy")?;
        let bytes = pyo3::types::PyByteArray::new(py, &mask);
        np.call_method1("frombuffer", (bytes, "uint8"))
    }

    /// The legal moves as zrf's canonical texts, in engine order: every whole turn that starts
    /// with the actions chosen so far in this turn.
    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let mut g = self.lock(py);
        guard(|| {
            g.settle();
            if g.outcome.is_some() {
                return Ok(Vec::new());
            }
            let def = g.shared.rules.def.clone();
            let texts = zrf::notation::move_texts(&def, g.game.legal());
            if g.prefix.is_empty() {
                return Ok(texts);
            }
            let keep: Vec<String> = (0..texts.len())
                .filter(|&i| {
                    let s = g.turns.actions(i);
                    s.len() >= g.prefix.len() && s[..g.prefix.len()] == g.prefix[..]
                })
                .map(|i| texts[i].clone())
                .collect();
            Ok(keep)
        })
    }

    /// The text of an action here (a whole move's canonical text when the action completes it).
    fn action_to_string(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = action_arg(action)?;
        let mut g = self.lock(py);
        guard(|| {
            if a >= g.shared.space.size() {
                return Err(error(g.not_legal(a)));
            }
            Ok(g.action_text(a as u32))
        })
    }

    /// The action a text names: any notation zrf accepts (`e2e4`, `Nf3`, `11-15`, `e7e8q`) or an
    /// action's own text (`e7-e8`, `=Q`, `stop`).
    fn string_to_action(&self, py: Python<'_>, text: &str) -> PyResult<u32> {
        let mut g = self.lock(py);
        guard(|| g.string_to_action(text).map_err(error))
    }

    /// Applies one action; an illegal one raises `ZrfError` and changes nothing.
    fn apply_action(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = action_arg(action)?;
        let mut g = self.lock(py);
        guard(|| {
            if a >= g.shared.space.size() {
                return Err(error(g.not_legal(a)));
            }
            g.apply(a as u32).map_err(error)
        })
    }

    /// Plays a whole move given as text (any notation zrf accepts); returns its canonical text.
    fn play(&self, py: Python<'_>, text: &str) -> PyResult<String> {
        let mut g = self.lock(py);
        guard(|| {
            g.settle();
            if let Some(o) = &g.outcome {
                return Err(error(format!(
                    "the game is over: {}",
                    o.describe(&g.shared.rules.def)
                )));
            }
            let i = g.turn_of_text(text).map_err(error)?;
            let shared = g.shared.clone();
            let canonical = zrf::notation::move_texts(&shared.rules.def, g.game.legal())[i].clone();
            let seq = actions::sequence(&g.turns, i);
            let rest = seq[g.prefix.len()..].to_vec();
            for a in rest {
                g.apply(a).map_err(error)?;
            }
            Ok(canonical)
        })
    }

    /// Takes back the last action; false when there is none.
    fn undo(&self, py: Python<'_>) -> PyResult<bool> {
        let mut g = self.lock(py);
        guard(|| Ok(g.undo()))
    }

    /// A copy with the same position and history.
    fn clone(&self, py: Python<'_>) -> PyResult<State> {
        let g = self.lock(py);
        guard(|| g.copy().map(State::from_inner).map_err(error))
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<State> {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<State> {
        self.clone(py)
    }

    /// Whether the game is over.
    fn is_terminal(&self, py: Python<'_>) -> PyResult<bool> {
        let mut g = self.lock(py);
        guard(|| {
            g.settle();
            Ok(g.outcome.is_some())
        })
    }

    /// Per player: 1 for a win, -1 for a loss, 0 for a draw or an unfinished game.
    fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        let mut g = self.lock(py);
        guard(|| Ok(g.returns()))
    }

    /// Same as `returns()` (zrf gives rewards only at the end).
    fn rewards(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        self.returns(py)
    }

    /// The outcome as text (`White wins (checkmated)`), or None while the game goes on.
    fn result(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let mut g = self.lock(py);
        guard(|| {
            g.settle();
            let def = &g.shared.rules.def;
            Ok(g.outcome.as_ref().map(|o| o.describe(def)))
        })
    }

    /// Whether a random player is to move.
    fn is_chance_node(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.current_player(py)? == CHANCE)
    }

    /// At a random player's turn, each legal action with its probability (turns are equally
    /// likely); empty otherwise.
    fn chance_outcomes(&self, py: Python<'_>) -> PyResult<Vec<(u32, f64)>> {
        let mut g = self.lock(py);
        guard(|| {
            if g.current_player() != CHANCE {
                return Ok(Vec::new());
            }
            let total = actions::count(&g.turns, &g.prefix) as f64;
            let mut out = Vec::new();
            let mut p = g.prefix.clone();
            for &a in &g.options {
                p.push(a);
                let n = if g.shared.space.decode(a as u64) == Some(Action::Stop) {
                    1
                } else {
                    actions::count(&g.turns, &p)
                };
                p.pop();
                out.push((a, n as f64 / total.max(1.0)));
            }
            Ok(out)
        })
    }

    /// Every action applied so far, in order.
    fn history(&self, py: Python<'_>) -> Vec<u32> {
        self.lock(py).history.clone()
    }

    /// The canonical texts of the whole moves played so far.
    fn move_history(&self, py: Python<'_>) -> Vec<String> {
        self.lock(py).game.played()
    }

    /// zrf's position text (the native form, which `set_position` reads back).
    fn position(&self, py: Python<'_>) -> PyResult<String> {
        let g = self.lock(py);
        guard(|| Ok(zrf::setup::native(&g.game.rules, &g.game.pos)))
    }

    /// Starts again from a position: zrf's position text, a FEN or a PDN FEN. On error nothing
    /// changes.
    fn set_position(&self, py: Python<'_>, text: &str) -> PyResult<()> {
        if text.len() > 1_000_000 {
            return Err(error(format!(
                "the position text is too long ({} bytes; the limit is 1000000)",
                text.len()
            )));
        }
        let mut g = self.lock(py);
        guard(|| {
            let pos = zrf::setup::parse(&g.game.rules, text)
                .map_err(|e| error(format!("bad position: {e}")))?;
            let shared = g.shared.clone();
            let engine = g.engine.take();
            **g = Inner::new(shared, pos, Some(text.trim().to_string()));
            g.engine = engine;
            Ok(())
        })
    }

    /// The observation as a NumPy float32 array of `Game.observation_tensor_shape()` (see
    /// docs/python.md for the planes), from `player`'s point of view (the player to move when
    /// None).
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player: Option<i64> = match player {
            Some(p) if p.is_instance_of::<pyo3::types::PyBool>() => {
                return Err(PyTypeError::new_err("a player is an int, not a bool"))
            }
            Some(p) => p.extract()?,
            None => None,
        };
        let mut g = self.lock(py);
        let n = g.shared.rules.def.players.len() as i64;
        let who = match player {
            Some(p) if p < 0 || p >= n => {
                return Err(error(format!("player {p} is not 0 to {}", n - 1)))
            }
            Some(p) => p as usize,
            None => g.current_player().max(0) as usize,
        };
        let layout = &g.shared.layout;
        if layout.len() > crate::observe::MAX_VALUES {
            return Err(error(format!(
                "the observation tensor {:?} is too large (over {} values)",
                layout.shape,
                crate::observe::MAX_VALUES
            )));
        }
        let shape = layout.shape.clone();
        let v = guard(|| Ok(g.observation(who)))?;
        drop(g);
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let np = py.import("numpy")?;
        let buf = pyo3::types::PyByteArray::new(py, &bytes);
        np.call_method1("frombuffer", (buf, "<f4"))?
            .call_method1("reshape", (shape,))
    }

    /// Counts the leaf positions `depth` whole turns from here.
    #[pyo3(signature = (depth, bulk=false))]
    fn perft(&self, py: Python<'_>, depth: u32, bulk: bool) -> PyResult<u64> {
        let (rules, mut pos) = {
            let g = self.lock(py);
            (g.shared.clone(), g.game.pos.clone())
        };
        crate::game::perft(py, &rules.rules, &mut pos, depth, bulk)
    }

    /// Perft below each legal move: (canonical text, count) in engine order.
    fn divide(&self, py: Python<'_>, depth: u32) -> PyResult<Vec<(String, u64)>> {
        if depth == 0 || depth > crate::game::MAX_PERFT_DEPTH {
            return Err(error(format!(
                "divide needs a depth from 1 to {}",
                crate::game::MAX_PERFT_DEPTH
            )));
        }
        let (shared, mut pos) = {
            let g = self.lock(py);
            (g.shared.clone(), g.game.pos.clone())
        };
        py.allow_threads(|| {
            guard(|| {
                let rules = &shared.rules;
                let mut list = zrf::engine::MoveList::new();
                rules.legal_moves(&mut pos, &mut list);
                let texts = zrf::notation::move_texts(&rules.def, &list);
                let mut log = zrf::engine::UndoLog::new();
                let mut out = Vec::new();
                for (i, m) in list.moves.iter().enumerate() {
                    rules.make(&mut pos, &list, m, &mut log);
                    let n = rules.perft(&mut pos, depth - 1);
                    zrf::engine::revert(&mut pos, &mut log);
                    out.push((texts[i].clone(), n));
                }
                Ok(out)
            })
        })
    }

    /// The engine's choice here with the limits of the REPL's `go` (a tenth of a second when
    /// none is given): (move text, action, score text, principal line).
    #[pyo3(signature = (depth=None, nodes=None, time=None))]
    fn best_move(
        &self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<Option<BestMove>> {
        let time = match time {
            Some(t) if !(t.is_finite() && t > 0.0 && t < 1e6) => {
                return Err(error(format!(
                    "time {t} must be a number of seconds above 0"
                )))
            }
            Some(t) => Some(std::time::Duration::from_secs_f64(t)),
            None => None,
        };
        py.allow_threads(|| {
            guard(|| {
                // Without the GIL, waiting for the lock blocks no other Python thread.
                let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
                g.settle();
                if g.outcome.is_some() {
                    return Ok(None);
                }
                let mut cfg = zrf::ai::SearchConfig::default();
                if depth.is_some() || nodes.is_some() || time.is_some() {
                    cfg.limits = zrf::ai::Limits {
                        depth,
                        nodes,
                        time,
                        fixed_time: time.is_some(),
                    };
                }
                let mut engine = match g.engine.take() {
                    Some(e) => e,
                    None => zrf::ai::Engine::new(&g.game.rules),
                };
                let stop = std::sync::atomic::AtomicBool::new(false);
                let r = g.game.think(&mut engine, &cfg, &stop, &mut |_| {});
                g.engine = Some(engine);
                let Some(r) = r else { return Ok(None) };
                let seq = actions::sequence(&g.turns, r.best);
                let first = seq.get(g.prefix.len()).copied().unwrap_or(0);
                Ok(Some((
                    r.best_text,
                    first,
                    r.info.score.to_string(),
                    r.info.pv,
                )))
            })
        })
    }

    /// The game as a PGN record (chess-like games of two players).
    fn to_pgn(&self, py: Python<'_>) -> PyResult<String> {
        self.record(py, "game.pgn")
    }

    /// The game as a PDN record (draughts of two players).
    fn to_pdn(&self, py: Python<'_>) -> PyResult<String> {
        self.record(py, "game.pdn")
    }

    /// The game as a Zillions saved game (`.zsg`).
    fn to_zsg(&self, py: Python<'_>) -> PyResult<String> {
        self.record(py, "game.zsg")
    }

    /// The game as zrf's own record (`.game`).
    fn to_record(&self, py: Python<'_>) -> PyResult<String> {
        self.record(py, "game.game")
    }

    /// Its Game.
    #[getter]
    fn game(&self, py: Python<'_>) -> Game {
        Game {
            shared: self.lock(py).shared.clone(),
        }
    }

    /// The board as the REPL draws it.
    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        let g = self.lock(py);
        guard(|| {
            Ok(zrf::repl::diagram::diagram(
                &g.game.rules,
                &g.game.pos,
                false,
            ))
        })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let g = self.lock(py);
        format!(
            "<zrf.State of {:?} after {} moves>",
            g.shared.title(),
            g.game.plies()
        )
    }
}

impl State {
    fn record(&self, py: Python<'_>, name: &str) -> PyResult<String> {
        let g = self.lock(py);
        guard(|| record_text(&g, name).map_err(error))
    }
}

/// The game as a record in the format `name`'s extension asks for, through a REPL session.
fn record_text(g: &Inner, name: &str) -> Result<String, String> {
    let sh = &g.shared;
    // Records read from a file know their variant by title only.
    let variant = match sh.titles.len() {
        1 => sh.title().to_string(),
        _ => (sh.variant + 1).to_string(),
    };
    let mut s = zrf::repl::Session::open(&sh.path, &sh.files, Some(&variant), g.setup.as_deref())
        .map_err(|e| e.to_string())?;
    for t in &g.game.played() {
        s.game_mut().play(t).map_err(|e| e.to_string())?;
    }
    s.record_as(name)
}

/// The most playouts one `zrf.playouts` call runs (each keeps its result until the call ends).
pub const MAX_PLAYOUTS: u64 = 1_000_000;

/// Runs `n` random games from the start in Rust: NumPy arrays of their lengths in plies
/// (`int64`, `n`) and returns (`float64`, `n × num_players()`), and with `outcomes=True` a
/// third, `bool`: whether a goal ended the game (not the ply limit or a lack of moves).
#[pyfunction]
#[pyo3(signature = (game, n, seed=0, max_plies=None, outcomes=false))]
pub fn playouts<'py>(
    py: Python<'py>,
    game: &Game,
    n: &Bound<'py, PyAny>,
    seed: u64,
    max_plies: Option<&Bound<'py, PyAny>>,
    outcomes: bool,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let n = match crate::positive_int(n, "n", MAX_PLAYOUTS) {
        Err(_) if n.extract::<i64>().ok() == Some(0) => 0,
        r => r?,
    };
    let max_plies = match max_plies {
        Some(m) if !m.is_none() => {
            crate::positive_int(m, "max_plies", crate::game::MAX_MAX_GAME_LENGTH)?
        }
        _ => game.shared.max_len,
    };
    let shared = game.shared.clone();
    let done = py.allow_threads(|| {
        guard(|| {
            let rules = shared.rules.clone();
            let start = rules.initial();
            Ok(zrf::arena::playouts(
                rules,
                &start,
                n as usize,
                seed,
                max_plies as usize,
            ))
        })
    })?;
    let players = game.shared.rules.def.players.len();
    let mut lengths = Vec::with_capacity(done.len() * 8);
    let mut returns = Vec::with_capacity(done.len() * players * 8);
    let mut ended = Vec::with_capacity(done.len());
    for p in &done {
        lengths.extend_from_slice(&(p.plies as i64).to_le_bytes());
        for k in 0..players {
            let r = p.returns.get(k).copied().unwrap_or(0.0);
            returns.extend_from_slice(&r.to_le_bytes());
        }
        ended.push(p.outcome.is_some() as u8);
    }
    let np = py.import("numpy")?;
    let array = |bytes: &[u8], dtype: &str| {
        np.call_method1(
            "frombuffer",
            (pyo3::types::PyByteArray::new(py, bytes), dtype),
        )
    };
    let lengths = array(&lengths, "<i8")?;
    let returns = array(&returns, "<f8")?.call_method1("reshape", ((done.len(), players),))?;
    let mut out = vec![lengths, returns];
    if outcomes {
        out.push(array(&ended, "bool")?);
    }
    pyo3::types::PyTuple::new(py, out)
}

/// Reads every game of a record file (PGN, PDN, `.game`, `.zsg`) as states.
#[pyfunction]
#[pyo3(signature = (path, rules=None))]
pub fn read_records(py: Python<'_>, path: &str, rules: Option<&Game>) -> PyResult<Vec<State>> {
    if path.len() > 4096 {
        return Err(error(format!(
            "cannot read a path of {} bytes: no such file",
            path.len()
        )));
    }
    let hint_shared = rules.map(|g| g.shared.clone());
    let path = path.to_string();
    let got = py.allow_threads(|| guard(|| Ok(read_all(&path, hint_shared))))?;
    got.map_err(error)
}

fn read_all(path: &str, rules: Option<Arc<Shared>>) -> Result<Vec<State>, String> {
    let bytes = crate::files::read_file(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let text = zrf::source::decode(&bytes);
    let mut files = crate::files::PyFiles::default();
    let (hint_path, titles, variant) = match &rules {
        Some(sh) => {
            files = sh.files.clone();
            (
                Some(sh.path.clone()),
                Some(sh.titles.clone()),
                Some(sh.title().to_string()),
            )
        }
        None => (None, None, None),
    };
    let hint = zrf::repl::records::RulesHint {
        path: hint_path.as_deref(),
        titles,
        variant,
    };
    let mut out = Vec::new();
    let mut n = 1;
    loop {
        let (mut s, _) = match zrf::repl::Session::from_records(&text, path, Some(n), &hint, &files)
        {
            Ok(x) => x,
            Err(zrf::repl::OpenError::Record(m, None))
                if n > 1 && m.contains("there is no game") =>
            {
                break
            }
            Err(e) => return Err(format!("{path}: game {n}: {e}")),
        };
        out.push(state_of_session(&mut s, &files)?);
        n += 1;
        if n > 100_000 || zrf::records::zsg::is_zsg(&text) {
            break;
        }
    }
    Ok(out)
}

/// A state holding a session's game (rules, start, moves).
fn state_of_session(
    s: &mut zrf::repl::Session,
    files: &crate::files::PyFiles,
) -> Result<State, String> {
    let g = s.game_mut();
    let played = g.played();
    let start = g.start().clone();
    let rules = g.rules.clone();
    let shared = |max_len| {
        Arc::new(Shared::new(
            s.path().to_string(),
            files.clone(),
            vec![s.title().to_string()],
            0,
            rules.clone(),
            max_len,
        ))
    };
    let shared_first = shared(crate::game::MAX_MAX_GAME_LENGTH);
    let st = State::new(shared_first, start, None);
    {
        let mut g = st.inner.lock().unwrap_or_else(|e| e.into_inner());
        for t in &played {
            let i = g.turn_of_text(t)?;
            let seq = actions::sequence(&g.turns, i);
            for a in seq {
                g.apply(a)?;
            }
        }
        // A game read from a record may go on for the default length past its actions.
        let n = g.history.len() as u64;
        g.shared = shared(n + crate::game::DEFAULT_MAX_GAME_LENGTH);
        g.fresh = false;
    }
    Ok(st)
}
