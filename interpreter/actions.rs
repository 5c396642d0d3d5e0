//! Moves as numbers: a fixed action encoding per game, for programs that choose moves by
//! index (reinforcement learning, OpenSpiel, PettingZoo).
//!
//! The encoding depends only on the game definition (the number of positions `N` and of piece
//! types `T`), so an action keeps its meaning across runs and positions:
//!
//! | range | action |
//! |---|---|
//! | `from * N + to` | a step of the moving piece from one position to another |
//! | `N² + type * N + sq` | a drop of a piece type on a position |
//! | `N² + T·N + type` | the choice of the piece type a promotion makes |
//! | `N² + T·N + T + sq` | huffing the piece on a position (before the move) |
//! | `N² + T·N + T + N` | pass |
//! | `... + 1` | stop: end the turn here, where it could also go on |
//! | `... + 2 + k` | the `k`-th of several turns that the actions before cannot tell apart |
//!
//! A whole turn is a sequence of these actions, made by [`turns`]: its huff, then its drop or
//! one step per pair of consecutive squares of its path (a capture chain is one action per
//! jump), then its promotion choice where the player chooses, then a choice index where other
//! turns have the same sequence. The player keeps choosing actions until the sequence names one
//! turn: [`next`] says whether a prefix names a turn or lists the actions that may follow it.
//! Every step must be chosen (a forced jump too); the promotion and choice actions only when
//! several turns remain.

use crate::def::GameDef;
use crate::engine::MoveList;

/// The most turns that may share one sequence of steps and promotions (choices `0..MAX_CHOICES`).
pub const MAX_CHOICES: u32 = 256;

/// What an action means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A step of the moving piece from a position to another (the same one for a move in place).
    Step(u16, u16),
    /// A piece type dropped on a position.
    Drop(u16, u16),
    /// The piece type a promotion makes.
    Promote(u16),
    /// The piece on a position huffed before the move.
    Huff(u16),
    /// Pass.
    Pass,
    /// End the turn with the steps chosen so far.
    Stop,
    /// The `k`-th (from 0, in engine order) of turns with the same other actions.
    Choice(u32),
}

/// The numbering of one game's actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Space {
    /// Positions on the board.
    pub n_pos: u32,
    /// Piece types.
    pub n_types: u32,
}

impl Space {
    /// The numbering for a game.
    pub fn new(def: &GameDef) -> Space {
        Space {
            n_pos: def.board.n_pos() as u32,
            n_types: def.pieces.len() as u32,
        }
    }

    fn drops(&self) -> u64 {
        self.n_pos as u64 * self.n_pos as u64
    }

    fn promotes(&self) -> u64 {
        self.drops() + self.n_types as u64 * self.n_pos as u64
    }

    fn huffs(&self) -> u64 {
        self.promotes() + self.n_types as u64
    }

    fn pass(&self) -> u64 {
        self.huffs() + self.n_pos as u64
    }

    /// How many actions there are (every action is below this).
    pub fn size(&self) -> u64 {
        self.pass() + 2 + MAX_CHOICES as u64
    }

    /// The number of an action. Squares and types must be those of the game.
    pub fn encode(&self, a: Action) -> u64 {
        let n = self.n_pos as u64;
        match a {
            Action::Step(f, t) => f as u64 * n + t as u64,
            Action::Drop(p, sq) => self.drops() + p as u64 * n + sq as u64,
            Action::Promote(p) => self.promotes() + p as u64,
            Action::Huff(sq) => self.huffs() + sq as u64,
            Action::Pass => self.pass(),
            Action::Stop => self.pass() + 1,
            Action::Choice(k) => self.pass() + 2 + k as u64,
        }
    }

    /// What a number means; `None` outside the space.
    pub fn decode(&self, a: u64) -> Option<Action> {
        let n = self.n_pos as u64;
        if a < self.drops() {
            return Some(Action::Step((a / n) as u16, (a % n) as u16));
        }
        if a < self.promotes() {
            let r = a - self.drops();
            return Some(Action::Drop((r / n) as u16, (r % n) as u16));
        }
        if a < self.huffs() {
            return Some(Action::Promote((a - self.promotes()) as u16));
        }
        if a < self.pass() {
            return Some(Action::Huff((a - self.huffs()) as u16));
        }
        match a - self.pass() {
            0 => Some(Action::Pass),
            1 => Some(Action::Stop),
            k if k < 2 + MAX_CHOICES as u64 => Some(Action::Choice((k - 2) as u32)),
            _ => None,
        }
    }

    /// An action as text: `e2-e4`, `Q@e4`, `=Q`, `h14:`, `pass`, `stop`, `~2` (choice 1).
    pub fn text(&self, def: &GameDef, a: u64) -> String {
        use crate::notation::{piece_letter, square};
        match self.decode(a) {
            Some(Action::Step(f, t)) => format!("{}-{}", square(def, f), square(def, t)),
            Some(Action::Drop(p, sq)) => format!("{}@{}", piece_letter(def, p), square(def, sq)),
            Some(Action::Promote(p)) => format!("={}", piece_letter(def, p)),
            Some(Action::Huff(sq)) => format!("h{}:", square(def, sq)),
            Some(Action::Pass) => "pass".into(),
            Some(Action::Stop) => "stop".into(),
            Some(Action::Choice(k)) => format!("~{}", k + 1),
            None => format!("#{a}"),
        }
    }
}

/// The action sequences of every legal turn of a position, kept in reused buffers.
#[derive(Clone, Debug, Default)]
pub struct Turns {
    /// Every turn's actions, one after the other.
    seq: Vec<u32>,
    /// Where each turn's actions start in `seq` (one more entry than turns).
    start: Vec<u32>,
    /// How many leading actions of each turn must be chosen: all but trailing promotion and
    /// choice actions, which are needed only while other turns remain.
    needed: Vec<u32>,
    /// Turn indices sorted by their sequences (ties by engine order).
    order: Vec<u32>,
    /// Scratch for the choice pass.
    scratch: Vec<u32>,
    /// Scratch for sorting: first action and turn index in one key.
    keys: Vec<u64>,
    /// The action numbering.
    space: Option<Space>,
    /// Every turn is one action of its own ([`single_steps`], or [`single_actions`] with
    /// `by_keys`): `seq` holds each turn's action in engine order, `firsts` them ascending and
    /// `turn_of` the turn of each, and `start`, `needed`, `order` and (but with `by_keys`)
    /// `keys` are not built (each turn starts at its index, needs its one action, and sorts
    /// where its action does).
    simple: bool,
    /// With `simple`, the turns' actions ascending: the actions legal at the start of the turn.
    firsts: Vec<u32>,
    /// With `simple`, per step action: the turn it was last given to (valid where that turn's
    /// action in `seq` is this one, so it is never cleared).
    turn_of: Vec<u16>,
    /// A bit per step action, set only while [`single_steps`] runs.
    bits: Vec<u64>,
    /// A bit per word of `bits` that has a bit set.
    summary: Vec<u64>,
    /// With `simple`, the turns were numbered by [`single_actions`]: `keys` holds each turn's
    /// action above its index, ascending, and `turn_of` is not used.
    by_keys: bool,
}

/// What a prefix of actions names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// One turn, by its index in the move list.
    Turn(usize),
    /// Several turns remain: the actions that may follow are in the caller's buffer.
    Choose,
    /// No legal turn starts with these actions.
    None,
}

impl Turns {
    /// Empty buffers.
    pub fn new() -> Turns {
        Turns::default()
    }

    /// How many turns there are.
    pub fn len(&self) -> usize {
        match self.simple {
            true => self.seq.len(),
            false => self.start.len().saturating_sub(1),
        }
    }

    /// No legal turn.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The actions of turn `i` (in the move list's order).
    pub fn actions(&self, i: usize) -> &[u32] {
        match self.simple {
            true => &self.seq[i..i + 1],
            false => &self.seq[self.start[i] as usize..self.start[i + 1] as usize],
        }
    }

    /// Whether every turn is one action and no two share it: then each legal action names its
    /// turn at once ([`Turns::single`]).
    pub fn all_single(&self) -> bool {
        self.simple
            || self.seq.len() == self.len()
                && self
                    .order
                    .windows(2)
                    .all(|w| self.seq[w[0] as usize] != self.seq[w[1] as usize])
    }

    /// The turn whose first action is `a`, when that action alone names it.
    pub fn single(&self, a: u32) -> Option<usize> {
        if self.simple && self.by_keys {
            let head = a as u64;
            let lo = self.keys.partition_point(|&k| k >> 32 < head);
            let &k = self.keys.get(lo)?;
            return (k >> 32 == head).then_some(k as u32 as usize);
        }
        if self.simple {
            let i = *self.turn_of.get(a as usize)? as usize;
            return (self.seq.get(i) == Some(&a)).then_some(i);
        }
        // `keys` holds each turn's first action + 1 above its index, ascending.
        let head = a as u64 + 1;
        let lo = self.keys.partition_point(|&k| k >> 32 < head);
        let &k = self.keys.get(lo)?;
        let i = k as u32 as usize;
        if k >> 32 != head || self.needed[i] > 1 {
            return None;
        }
        match self.keys.get(lo + 1) {
            Some(&k) if k >> 32 == head => None,
            _ => Some(i),
        }
    }
}

/// Builds the action sequences of every move of `list` into `out` (the entry function).
pub fn turns(def: &GameDef, list: &MoveList, out: &mut Turns) {
    let space = *out.space.get_or_insert_with(|| Space::new(def));
    (out.simple, out.by_keys) = match single_steps(list, space, out) {
        Single::Done => (true, false),
        Single::TryActions => {
            let numbered = single_actions(list, space, out);
            (numbered, numbered)
        }
        Single::No => (false, false),
    };
    if out.simple {
        return;
    }
    out.seq.clear();
    out.start.clear();
    out.needed.clear();
    out.start.push(0);
    let enc = |a: Action| space.encode(a) as u32;
    for m in &list.moves {
        let path = list.path(m);
        if m.huff != 0 {
            out.seq.push(enc(Action::Huff(m.huff - 1)));
        }
        if m.pass {
            out.seq.push(enc(Action::Pass));
        } else if m.drop != 0 {
            if let Some(&sq) = path.last() {
                out.seq.push(enc(Action::Drop(m.drop - 1, sq)));
            }
        } else if path.len() == 1 {
            out.seq.push(enc(Action::Step(path[0], path[0])));
        } else {
            for w in path.windows(2) {
                out.seq.push(enc(Action::Step(w[0], w[1])));
            }
        }
        out.needed
            .push(out.seq.len() as u32 - out.start.last().copied().unwrap_or(0));
        if m.promote != 0 && m.promote_choice {
            out.seq.push(enc(Action::Promote(m.promote - 1)));
        }
        out.start.push(out.seq.len() as u32);
    }
    sort(out);
    add_choices(out, space);
}

/// The most positions a board may have for [`single_steps`], which keeps a table with an entry
/// per step (16,384 of them at most).
const MAX_SIMPLE_POS: u32 = 128;

/// The common case of [`turns`]: every turn is one step (no huff, drop, pass, chain or
/// promotion choice) and no two turns share it. Then each turn is its own action and no choice
/// is needed: only `seq`, `firsts` (through a bit per step, so no sort) and `turn_of` are
/// built, and `out` is complete when this returns [`Single::Done`]. For any other list (with
/// `out` to be rebuilt), whether [`single_actions`] may number it: a board of more than
/// [`MAX_SIMPLE_POS`] positions, or a turn of one action that is not a step.
fn single_steps(list: &MoveList, space: Space, out: &mut Turns) -> Single {
    let n_pos = space.n_pos;
    if n_pos > MAX_SIMPLE_POS || list.moves.len() > u16::MAX as usize {
        return Single::TryActions;
    }
    // Room for every step, rounded up to whole words of bits.
    let size = (n_pos * n_pos).div_ceil(64) as usize * 64;
    let Turns {
        seq,
        firsts,
        turn_of,
        bits,
        summary,
        ..
    } = out;
    if turn_of.len() != size {
        *turn_of = vec![0; size];
        *bits = vec![0; size / 64];
        *summary = vec![0; size.div_ceil(64 * 64)];
    }
    let (bits, summary, turn_of) = (&mut bits[..], &mut summary[..], &mut turn_of[..]);
    // Each turn's step, written in place (a push would store the length at every move).
    seq.clear();
    seq.resize(list.moves.len(), 0);
    for (i, (m, slot)) in list.moves.iter().zip(seq.iter_mut()).enumerate() {
        let step = match *list.path(m) {
            [f, t]
                if m.huff == 0
                    && !m.pass
                    && m.drop == 0
                    && !(m.promote != 0 && m.promote_choice) =>
            {
                f as usize * n_pos as usize + t as usize
            }
            _ => usize::MAX,
        };
        let (w, bit) = (step / 64, 1 << (step % 64));
        match bits.get_mut(w) {
            Some(word) if *word & bit == 0 => *word |= bit,
            _ => {
                // Leave the bits clear for the next list.
                for &a in &seq[..i] {
                    bits[a as usize / 64] = 0;
                    summary[a as usize / 4096] = 0;
                }
                // A drop, a pass or a step in place is one action too; a step taken twice, a
                // chain, a huff or a promotion choice is not one distinct action.
                let one = m.huff == 0
                    && !(m.promote != 0 && m.promote_choice)
                    && (m.pass || m.drop != 0 || list.path(m).len() == 1);
                return match step == usize::MAX && one {
                    true => Single::TryActions,
                    false => Single::No,
                };
            }
        }
        summary[w / 64] |= 1 << (w % 64);
        turn_of[step] = i as u16;
        *slot = step as u32;
    }
    // The steps ascending, clearing the bits as they are read.
    firsts.clear();
    firsts.reserve(seq.len());
    for (s, sum) in summary.iter_mut().enumerate() {
        let mut words = std::mem::take(sum);
        while words != 0 {
            let w = s * 64 + words.trailing_zeros() as usize;
            words &= words - 1;
            let mut word = std::mem::take(&mut bits[w]);
            while word != 0 {
                firsts.push((w * 64) as u32 + word.trailing_zeros());
                word &= word - 1;
            }
        }
    }
    Single::Done
}

/// What [`single_steps`] made of a list.
enum Single {
    /// Every turn is one step, numbered.
    Done,
    /// Not numbered, but every turn may be one action: [`single_actions`] may number it.
    TryActions,
    /// Not every turn is one distinct action.
    No,
}

/// The case of [`turns`] where every turn is one action but not every one a step (drops, passes,
/// steps in place, as in tic-tac-toe) and no two turns share it: each turn is its own action,
/// and only `seq`, `keys` (each action above its turn's index, sorted) and `firsts` are built.
/// False (with `out` to be rebuilt) for any other list.
fn single_actions(list: &MoveList, space: Space, out: &mut Turns) -> bool {
    /// The key of a turn that is not one action: above every other key, so it sorts last.
    const OTHER: u64 = u64::MAX;
    // Each action with its turn's index in one key.
    if space.size() > u32::MAX as u64 {
        return false;
    }
    let n_pos = space.n_pos as u64;
    let Turns {
        seq, firsts, keys, ..
    } = out;
    // One pass that no test stops, so the keys are written without a check of room per move.
    keys.clear();
    keys.extend(list.moves.iter().enumerate().map(|(i, m)| {
        let action = match *list.path(m) {
            _ if m.huff != 0 || (m.promote != 0 && m.promote_choice) => return OTHER,
            _ if m.pass => space.encode(Action::Pass),
            [.., sq] if m.drop != 0 => space.encode(Action::Drop(m.drop - 1, sq)),
            _ if m.drop != 0 => return OTHER,
            [f, t] => f as u64 * n_pos + t as u64,
            [sq] => sq as u64 * n_pos + sq as u64,
            _ => return OTHER,
        };
        action << 32 | i as u64
    }));
    seq.clear();
    seq.extend(keys.iter().map(|&k| (k >> 32) as u32));
    sort_keys(keys);
    if keys.last() == Some(&OTHER) {
        return false;
    }
    firsts.clear();
    firsts.extend(keys.iter().map(|&k| (k >> 32) as u32));
    // Two turns with the same action need a choice.
    firsts.windows(2).all(|w| w[0] != w[1])
}

/// Sorts the turns by their sequences: by first action through one integer key each (most
/// turns are one action), then each run of equal first actions by the whole sequence.
fn sort(t: &mut Turns) {
    let Turns {
        seq,
        start,
        order,
        keys,
        ..
    } = t;
    let n = start.len().saturating_sub(1);
    let of = |i: u32| &seq[start[i as usize] as usize..start[i as usize + 1] as usize];
    // Key: first action + 1 (0 for an empty sequence) above the turn index.
    keys.clear();
    keys.extend((0..n as u32).map(|i| {
        let first = of(i).first().map_or(0, |&a| a as u64 + 1);
        (first << 32) | i as u64
    }));
    sort_keys(keys);
    order.clear();
    order.extend(keys.iter().map(|&k| k as u32));
    let mut k = 0;
    while k < n {
        let head = keys[k] >> 32;
        let mut e = k + 1;
        while e < n && keys[e] >> 32 == head {
            e += 1;
        }
        if e - k > 1 {
            order[k..e].sort_unstable_by(|&a, &b| of(a).cmp(of(b)).then(a.cmp(&b)));
        }
        k = e;
    }
}

/// Sorts the keys ascending. Moves come grouped by the square they start from, so the keys are
/// nearly sorted already: an insertion sort does few moves there, and a long list (where a
/// badly ordered one would cost too much) takes the library's sort.
fn sort_keys(keys: &mut [u64]) {
    if keys.len() > 64 {
        keys.sort_unstable();
        return;
    }
    for i in 1..keys.len() {
        let k = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] > k {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = k;
    }
}

/// Turns with equal sequences get a choice action each, numbered in engine order.
fn add_choices(t: &mut Turns, space: Space) {
    let n = t.len();
    let same = |t: &Turns, a: u32, b: u32| t.actions(a as usize) == t.actions(b as usize);
    // `keys` is in `order`'s order: turns whose first actions differ differ.
    let head = |k: usize| t.keys[k] >> 32;
    if (1..n).all(|k| head(k - 1) != head(k) || !same(t, t.order[k - 1], t.order[k])) {
        return;
    }
    // choice[i] for every turn, u32::MAX where none is needed.
    let mut choice = vec![u32::MAX; n];
    let mut k = 0;
    while k < n {
        let mut e = k + 1;
        while e < n && same(t, t.order[k], t.order[e]) {
            e += 1;
        }
        if e - k > 1 {
            // `order` breaks ties by engine order, so the group is already in it.
            for (c, &i) in t.order[k..e].iter().enumerate() {
                choice[i as usize] = (c as u32).min(MAX_CHOICES - 1);
            }
        }
        k = e;
    }
    let mut seq = std::mem::take(&mut t.scratch);
    seq.clear();
    let mut start = Vec::with_capacity(n + 1);
    start.push(0);
    for (i, &c) in choice.iter().enumerate() {
        seq.extend_from_slice(t.actions(i));
        if c != u32::MAX {
            seq.push(space.encode(Action::Choice(c)) as u32);
        }
        start.push(seq.len() as u32);
    }
    t.scratch = std::mem::replace(&mut t.seq, seq);
    t.start = start;
    sort(t);
}

/// What the actions `prefix` name among `turns`. With [`Next::Choose`], `out` holds the
/// actions that may follow, ascending (a [`Action::Stop`] where a turn ends there and others
/// go on).
pub fn next(turns: &Turns, prefix: &[u32], out: &mut Vec<u32>) -> Next {
    out.clear();
    let Some(space) = turns.space else {
        return Next::None;
    };
    let stop = space.encode(Action::Stop) as u32;
    let len = prefix.len();
    if let Some((&last, head)) = prefix.split_last() {
        if last == stop {
            return match (0..turns.len()).find(|&i| turns.actions(i) == head) {
                Some(i) => Next::Turn(i),
                None => Next::None,
            };
        }
    }
    if turns.simple {
        // Each turn is its own action: the first action names it.
        return match prefix {
            [] if turns.firsts.is_empty() => Next::None,
            [] => {
                out.extend_from_slice(&turns.firsts);
                Next::Choose
            }
            &[a] => turns.single(a).map_or(Next::None, Next::Turn),
            _ => Next::None,
        };
    }
    if prefix.is_empty() && turns.len() > 1 {
        // Every turn follows: the first actions are the keys' heads, ascending.
        let mut ends = false;
        for &k in &turns.keys {
            match (k >> 32) as u32 {
                0 => ends = true,
                h if out.last() != Some(&(h - 1)) => out.push(h - 1),
                _ => {}
            }
        }
        if ends {
            let at = out.partition_point(|&a| a < stop);
            out.insert(at, stop);
        }
        return Next::Choose;
    }
    let of = |i: u32| turns.actions(i as usize);
    let lo = turns.order.partition_point(|&i| of(i) < prefix);
    let hi =
        lo + turns.order[lo..].partition_point(|&i| of(i).len() >= len && &of(i)[..len] == prefix);
    let range = &turns.order[lo..hi];
    match range {
        [] => return Next::None,
        [i] if turns.needed[*i as usize] as usize <= len => return Next::Turn(*i as usize),
        _ => {}
    }
    // The range is sorted, so the next actions come ascending and equal ones together; a
    // sequence that ends here sorts first, and its stop goes in its place by number.
    let mut ends = false;
    for &i in range {
        match of(i).get(len) {
            Some(&a) => {
                if out.last() != Some(&a) {
                    out.push(a);
                }
            }
            None => ends = true,
        }
    }
    if ends {
        let at = out.partition_point(|&a| a < stop);
        out.insert(at, stop);
    }
    Next::Choose
}

/// The actions that name turn `i` when chosen one after the other from the start of the turn.
pub fn sequence(turns: &Turns, i: usize) -> Vec<u32> {
    let mut prefix = Vec::new();
    let mut out = Vec::new();
    let all = turns.actions(i);
    loop {
        match next(turns, &prefix, &mut out) {
            Next::Turn(_) | Next::None => return prefix,
            Next::Choose => {
                let a = match all.get(prefix.len()) {
                    Some(&a) => a,
                    None => match turns.space {
                        Some(s) => s.encode(Action::Stop) as u32,
                        None => return prefix,
                    },
                };
                prefix.push(a);
            }
        }
    }
}

/// How many turns start with `prefix` (for chance players, who pick turns uniformly).
pub fn count(turns: &Turns, prefix: &[u32]) -> usize {
    let len = prefix.len();
    (0..turns.len())
        .filter(|&i| {
            let s = turns.actions(i);
            s.len() >= len && &s[..len] == prefix
        })
        .count()
}
