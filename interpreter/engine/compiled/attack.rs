//! The fast path for `attacked?`: attack patterns derived from the move programs when they
//! are compiled, tested backwards from the target square.
//!
//! Each block is classified as a leap (fixed steps, then capture), a slide (a ray over empty
//! squares, then capture), non-capturing (its destination is verified empty and it captures
//! nothing), or irregular. Leaps and slides are tested through tables computed from the board's
//! links; irregular blocks are run in attack mode, as the general path does.

use crate::def::*;

/// How one block can capture.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Leap(Vec<DirId>),
    Slide(DirId),
    Quiet,
    Irregular,
}

/// Attack tables of one game.
#[derive(Clone, Debug, Default)]
pub struct Attacks {
    /// Per player: sliding directions, each with the piece types that slide that way.
    pub slides: Vec<Vec<(DirId, Vec<bool>)>>,
    /// Reverse links per player and direction: `rev[(player * n_dirs + dir) * n_pos + pos]`.
    pub rev: Vec<u16>,
    /// False when some direction's links cannot be reversed: use the general path.
    pub usable: bool,
    /// `leap_to[player * n_pos + target]`: (source square, piece type) pairs that leap there.
    pub leap_to: Vec<Vec<(u16, u16)>>,
    /// `irregular_to[player * n_pos + target]`: (start square, piece type, block index) of the
    /// irregular blocks that could capture there, but for those whose piece also leaps there
    /// from that start (the leap answers first, whatever the block would do).
    pub irregular_to: Vec<Vec<(u16, u16, u16)>>,
    /// The entries of `irregular_to` that could capture a royal piece, by the same index;
    /// `None` when they are all of them. A block that captures only a piece it has verified
    /// to be of a non-royal type (`(verify (piece? Pawn)) capture`, en passant) cannot.
    irregular_royal: Option<Vec<Vec<(u16, u16, u16)>>>,
    /// The tables would have passed [`MAX_BYTES`]: they are empty and not `usable`, and
    /// `attacked?` runs the programs instead.
    pub capped: bool,
    /// Deriving the irregular blocks' tables passed [`MAX_WORK`]: none are kept.
    pub overworked: bool,
    /// The leaps and slides as one-word square sets, on boards of at most 64 squares whose
    /// slides walk the squares in one order of their indexes.
    pub bits: Option<AttackBits>,
}

/// [`Attacks`]' leaps and slides over square sets of one word (bit `q` for square `q`).
#[derive(Clone, Debug, Default)]
pub struct AttackBits {
    /// Piece types.
    pub n_types: usize,
    /// `leap[(player * n_pos + target) * n_types + type]`: the squares from which a piece of
    /// that type leaps onto the target.
    pub leap: Vec<u64>,
    /// `ray[(player * n_pos + target) * n_slides + j]`: the squares the `j`-th slide of
    /// `Attacks::slides[player]` crosses on its way to the target.
    pub ray: Vec<u64>,
    /// `up[player * n_slides + j]`: that slide's squares come in ascending index order
    /// towards the target (the nearest piece is the lowest bit), else descending.
    pub up: Vec<bool>,
    /// The most slides of a player.
    pub n_slides: usize,
    /// `slide_types[player * n_slides + j]`: the piece types (bit `type`) of that slide.
    pub slide_types: Vec<u64>,
    /// `irregular[(player * n_pos + target) * n_types + type]`: the squares from which an
    /// irregular block of that type could capture a royal piece on the target
    /// (`Attacks::royal_irregular`).
    pub irregular: Vec<u64>,
    /// `reach[player * n_pos + target]`: the squares of `leap` and `irregular` of every type.
    pub reach: Vec<u64>,
    /// The slides by piece type and the squares between a target and each square of its
    /// rays, where no two slides of a player cross one square on their way to one target.
    pub lines: Option<SlideLines>,
}

/// [`AttackBits`]' slides by piece type, with the squares between a target and each square
/// of its rays: on each ray to a target the squares nearer to it than a given square of the
/// ray are known without knowing which slide the ray is, as no square lies on two rays to
/// one target.
#[derive(Clone, Debug, Default)]
pub struct SlideLines {
    /// `slide[(player * n_pos + target) * n_types + type]`: the squares of the rays of the
    /// slides of that type to the target (where such a piece attacks it on an empty board).
    pub slide: Vec<u64>,
    /// `rays[player * n_pos + target]`: the squares of every ray to the target.
    pub rays: Vec<u64>,
    /// `leaps[(player * n_pos + q) * n_types + type]`: the squares a piece of that type on
    /// `q` leaps onto ([`AttackBits::leap`] turned around).
    pub leaps: Vec<u64>,
    /// `between[(player * n_pos + target) * n_pos + q]`: the squares of the ray through `q`
    /// between the target and `q` (a slider on `q` attacks the target when they are all
    /// empty); 0 where `q` is on no ray to the target.
    pub between: Vec<u64>,
}

impl SlideLines {
    /// The lines of `bits`' rays, walked nearest first as `up` says; `None` where two rays to
    /// one target share a square.
    fn new(bits: &AttackBits, n_players: usize, n_pos: usize) -> Option<SlideLines> {
        let (ns, nt) = (bits.n_slides, bits.n_types);
        let mut slide = vec![0u64; n_players * n_pos * nt];
        let mut rays = vec![0u64; n_players * n_pos];
        let mut between = vec![0u64; n_players * n_pos * n_pos];
        let mut leaps = vec![0u64; bits.leap.len()];
        for (i, &set) in bits.leap.iter().enumerate() {
            let (row, t) = (i / nt, i % nt);
            let (pl, target) = (row / n_pos, row % n_pos);
            let mut left = set;
            while left != 0 {
                let q = left.trailing_zeros() as usize;
                left &= left - 1;
                leaps[(pl * n_pos + q) * nt + t] |= 1 << target;
            }
        }
        for pl in 0..n_players {
            for target in 0..n_pos {
                let i = pl * n_pos + target;
                for j in 0..ns {
                    let set = bits.ray[i * ns + j];
                    if set & rays[i] != 0 {
                        return None;
                    }
                    rays[i] |= set;
                    let types = bits.slide_types[pl * ns + j];
                    for (t, sets) in slide[i * nt..][..nt].iter_mut().enumerate() {
                        if types >> t & 1 != 0 {
                            *sets |= set;
                        }
                    }
                    let mut left = set;
                    while left != 0 {
                        let q = left.trailing_zeros() as usize;
                        left &= left - 1;
                        let below = (1u64 << q) - 1;
                        let nearer = if bits.up[pl * ns + j] {
                            below
                        } else {
                            !below & !(1u64 << q)
                        };
                        between[i * n_pos + q] = set & nearer;
                    }
                }
            }
        }
        Some(SlideLines {
            slide,
            rays,
            leaps,
            between,
        })
    }
}

impl AttackBits {
    /// The sets of `a` on a board of `n_pos` squares, or `None` where a slide's squares are
    /// not in one order of their indexes (or the board or the piece types pass 64).
    fn new(a: &Attacks, n_pos: usize, n_dirs: usize, n_types: usize) -> Option<AttackBits> {
        if n_pos > 64 || n_types > 64 || !a.usable {
            return None;
        }
        let n_players = a.slides.len();
        let n_slides = a.slides.iter().map(Vec::len).max().unwrap_or(0);
        let mut leap = vec![0u64; n_players * n_pos * n_types];
        for (i, list) in a.leap_to.iter().enumerate() {
            for &(src, piece) in list {
                leap[i * n_types + piece as usize] |= 1 << src;
            }
        }
        let mut irregular = vec![0u64; n_players * n_pos * n_types];
        for i in 0..a.irregular_to.len() {
            for &(start, piece, _) in a.royal_irregular(i) {
                irregular[i * n_types + piece as usize] |= 1 << start;
            }
        }
        let mut ray = vec![0u64; n_players * n_pos * n_slides];
        let mut up = vec![true; n_players * n_slides];
        let mut slide_types = vec![0u64; n_players * n_slides];
        for (pl, list) in a.slides.iter().enumerate() {
            for (j, (d, pieces)) in list.iter().enumerate() {
                for (t, _) in pieces.iter().enumerate().filter(|(_, on)| **on) {
                    slide_types[pl * n_slides + j] |= 1 << t;
                }
                let base = (pl * n_dirs + d.idx()) * n_pos;
                // Ascending or descending, the same for every target of this slide.
                let mut order: Option<bool> = None;
                for target in 0..n_pos {
                    let mut set = 0u64;
                    let mut last = target;
                    let mut q = a.rev[base + target];
                    while q != NONE {
                        let at = q as usize;
                        let rising = at > last;
                        // A square met twice (a ring) or out of order: no sets for this game.
                        if set >> at & 1 == 1 || *order.get_or_insert(rising) != rising {
                            return None;
                        }
                        set |= 1 << at;
                        last = at;
                        q = a.rev[base + at];
                    }
                    ray[(pl * n_pos + target) * n_slides + j] = set;
                }
                up[pl * n_slides + j] = order.unwrap_or(true);
            }
        }
        let reach = (leap
            .chunks(n_types.max(1))
            .zip(irregular.chunks(n_types.max(1))))
        .map(|(l, o)| l.iter().chain(o).fold(0, |all, &set| all | set))
        .collect();
        let mut bits = AttackBits {
            n_types,
            leap,
            ray,
            up,
            n_slides,
            slide_types,
            irregular,
            reach,
            lines: None,
        };
        bits.lines = SlideLines::new(&bits, n_players, n_pos);
        Some(bits)
    }
}

/// The most memory, in bytes, the tables may take (their entries counted as they are derived;
/// growth of the lists may add up to as much again). Past it the tables are dropped and
/// `attacked?` runs the move programs, slower but in constant memory: without the cap, a
/// thousand types on a 50x50 board would take gigabytes (every irregular block may add an
/// entry per start and target square).
pub const MAX_BYTES: usize = 128 << 20;

/// Counts the bytes the tables take while they are derived.
struct Budget {
    used: usize,
    max: usize,
}

impl Budget {
    /// Adds `bytes`; false once past the limit.
    fn take(&mut self, bytes: usize) -> bool {
        self.used = self.used.saturating_add(bytes);
        self.used <= self.max
    }
}

/// Squares from which a leap pattern reaches each square, for one player.
#[derive(Clone, Debug)]
struct LeapTable {
    /// Which piece types leap this way.
    pieces: Vec<bool>,
    /// `starts[sq]..starts[sq + 1]` indexes `sources`.
    starts: Vec<u32>,
    /// Attacker squares.
    sources: Vec<u16>,
}

impl Attacks {
    /// Derives the tables, or gives `Attacks::capped` tables past [`MAX_BYTES`].
    pub fn new(def: &GameDef) -> Attacks {
        Attacks::with_limit(def, MAX_BYTES)
    }

    /// [`Attacks::new`], knowing which piece types are royal (`royal[type]`), so that
    /// [`Attacks::royal_irregular`] can leave out the blocks that cannot capture them.
    pub fn with_royal(def: &GameDef, royal: &[bool]) -> Attacks {
        Attacks::derive(def, MAX_BYTES, royal)
    }

    /// The entries of `irregular_to[i]` whose block could capture a royal piece on the
    /// target (all of them unless the tables were made [`Attacks::with_royal`]).
    #[inline(always)]
    pub fn royal_irregular(&self, i: usize) -> &[(u16, u16, u16)] {
        match &self.irregular_royal {
            Some(lists) => &lists[i],
            None => &self.irregular_to[i],
        }
    }

    /// Heap memory the tables hold, in bytes.
    pub fn bytes(&self) -> usize {
        fn vec<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        vec(&self.rev)
            + vec(&self.slides)
            + self
                .slides
                .iter()
                .flatten()
                .map(|(_, p)| vec(p))
                .sum::<usize>()
            + self.slides.iter().map(vec).sum::<usize>()
            + vec(&self.leap_to)
            + self.leap_to.iter().map(vec).sum::<usize>()
            + vec(&self.irregular_to)
            + self.irregular_to.iter().map(vec).sum::<usize>()
            + self
                .irregular_royal
                .as_ref()
                .map_or(0, |lists| vec(lists) + lists.iter().map(vec).sum::<usize>())
    }

    /// Empty tables that send every `attacked?` to the general path, for games past the limit.
    fn capped() -> Attacks {
        Attacks {
            capped: true,
            ..Attacks::default()
        }
    }

    /// [`Attacks::new`] with another limit than [`MAX_BYTES`] (for tests).
    pub fn with_limit(def: &GameDef, max_bytes: usize) -> Attacks {
        Attacks::derive(def, max_bytes, &[])
    }

    /// The tables within `max_bytes`, with royal types `royal` (a type past its end counts
    /// as royal).
    fn derive(def: &GameDef, max_bytes: usize, royal: &[bool]) -> Attacks {
        let board = &def.board;
        let n_pos = board.n_pos();
        let n_dirs = board.directions.len();
        let n_players = def.players.len().max(1);
        let n_pieces = def.pieces.len();
        // The reverse links and one list head per player and square for each of the two
        // square-indexed tables.
        let mut budget = Budget {
            used: 0,
            max: max_bytes,
        };
        let heads =
            std::mem::size_of::<Vec<(u16, u16)>>() + std::mem::size_of::<Vec<(u16, u16, u16)>>();
        if !budget.take(
            (n_players * n_dirs * n_pos).saturating_mul(2)
                + (n_players * n_pos).saturating_mul(heads),
        ) {
            return Attacks::capped();
        }
        // Reverse links; a position with two incoming links of the same direction makes the
        // direction unusable for slides.
        let mut usable = true;
        let mut rev = vec![NONE; n_players * n_dirs * n_pos];
        for pl in 0..n_players {
            for d in 0..n_dirs {
                for p in 0..n_pos {
                    if let Some(q) =
                        board.step(PlayerId(pl as u8), DirId(d as u16), PosId(p as u16))
                    {
                        let i = (pl * n_dirs + d) * n_pos + q.idx();
                        if rev[i] != NONE {
                            usable = false;
                        }
                        rev[i] = p as u16;
                    }
                }
            }
        }
        let mut work = MAX_WORK;
        let mut leaps: Vec<Vec<LeapTable>> = vec![Vec::new(); n_players];
        // Each player's leap tables by a hash of their squares, so that finding a table
        // already made costs one lookup, not a comparison with every table (many leaper
        // types took minutes).
        let mut leap_index: Vec<std::collections::HashMap<u64, Vec<usize>>> =
            vec![Default::default(); n_players];
        let table_key = |t: &LeapTable| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            t.sources.hash(&mut h);
            t.starts.hash(&mut h);
            h.finish()
        };
        let mut slides: Vec<Vec<(DirId, Vec<bool>)>> = vec![Vec::new(); n_players];
        let mut irregular = Vec::new();
        for (pi, piece) in def.pieces.iter().enumerate() {
            for (bi, block) in piece.moves.iter().enumerate() {
                match shape(&block.body) {
                    Shape::Quiet => {}
                    Shape::Irregular => irregular.push((pi, bi)),
                    Shape::Slide(d) => {
                        for list in slides.iter_mut() {
                            match list.iter_mut().find(|(dd, _)| *dd == d) {
                                Some((_, ps)) => ps[pi] = true,
                                None => {
                                    let mut ps = vec![false; n_pieces];
                                    ps[pi] = true;
                                    list.push((d, ps));
                                }
                            }
                        }
                    }
                    Shape::Leap(dirs) => {
                        for (pl, list) in leaps.iter_mut().enumerate() {
                            let table = leap_table(board, PlayerId(pl as u8), &dirs);
                            let key = table_key(&table);
                            let same = leap_index[pl].get(&key).and_then(|c| {
                                c.iter().copied().find(|&i| {
                                    list[i].sources == table.sources
                                        && list[i].starts == table.starts
                                })
                            });
                            match same {
                                Some(i) => list[i].pieces[pi] = true,
                                None => {
                                    leap_index[pl].entry(key).or_default().push(list.len());
                                    if !budget.take(
                                        2 * table.sources.len() + 4 * table.starts.len() + n_pieces,
                                    ) {
                                        return Attacks::capped();
                                    }
                                    let mut pieces = vec![false; n_pieces];
                                    pieces[pi] = true;
                                    list.push(LeapTable { pieces, ..table });
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut leap_to = vec![Vec::new(); n_players * n_pos];
        for (pl, list) in leaps.iter().enumerate() {
            for t in list {
                for target in 0..n_pos {
                    for &src in &t.sources[t.starts[target] as usize..t.starts[target + 1] as usize]
                    {
                        for (pi, _) in t.pieces.iter().enumerate().filter(|(_, on)| **on) {
                            // Repeats are removed below, once per square (counting them here
                            // keeps the bound on memory).
                            if !budget.take(std::mem::size_of::<(u16, u16)>()) {
                                return Attacks::capped();
                            }
                            leap_to[pl * n_pos + target].push((src, pi as u16));
                        }
                    }
                }
            }
        }
        for slot in &mut leap_to {
            slot.sort_unstable();
            slot.dedup();
        }
        // Irregular blocks: where each could capture from each start square, one start at a
        // time, so that only the entries are kept. An entry whose piece leaps from the same
        // start onto the target is left out: the leap is tested first and already answers.
        // Where a block verifies a square's piece of a non-royal type before capturing it,
        // the same block without that capture gives the squares it could take a royal piece
        // on (with its own work limit: past it, all of them).
        let mut irregular_to = vec![Vec::new(); n_players * n_pos];
        let mut irregular_royal: Option<Vec<Vec<(u16, u16, u16)>>> = None;
        let row_has = |row: &Option<Vec<u64>>, target: usize| {
            row.as_ref()
                .is_none_or(|r| r[target / 64] >> (target % 64) & 1 == 1)
        };
        let royal_bodies: Vec<Option<Vec<Instr>>> = (irregular.iter())
            .map(|&(pi, bi)| royal_body(&def.pieces[pi].moves[bi].body, royal))
            .collect();
        if royal_bodies.iter().any(Option::is_some) {
            irregular_royal = Some(vec![Vec::new(); n_players * n_pos]);
        }
        for (&(pi, bi), royal_body) in irregular.iter().zip(&royal_bodies) {
            let body = &def.pieces[pi].moves[bi].body;
            let mut royal_work = MAX_WORK;
            for pl in 0..n_players {
                for start in 0..n_pos {
                    // Past the work limit: no tables; `attacked?` runs the programs.
                    let Ok(row) = reach_row(def, PlayerId(pl as u8), start as u16, body, &mut work)
                    else {
                        return Attacks {
                            overworked: true,
                            ..Attacks::default()
                        };
                    };
                    // Where the block could take a royal piece, when that differs from `row`
                    // (past its work limit, `row` stands for it).
                    let royal_row = (royal_body.as_ref()).and_then(|b| {
                        reach_row(def, PlayerId(pl as u8), start as u16, b, &mut royal_work).ok()
                    });
                    for target in 0..n_pos {
                        if !row_has(&row, target) {
                            continue;
                        }
                        let i = pl * n_pos + target;
                        let leaps = &leap_to[i];
                        if leaps.binary_search(&(start as u16, pi as u16)).is_ok() {
                            continue;
                        }
                        let entry = (start as u16, pi as u16, bi as u16);
                        let size = std::mem::size_of::<(u16, u16, u16)>();
                        if !budget.take(size) {
                            return Attacks::capped();
                        }
                        irregular_to[i].push(entry);
                        if let Some(lists) = &mut irregular_royal {
                            if row_has(royal_row.as_ref().unwrap_or(&row), target) {
                                if !budget.take(size) {
                                    return Attacks::capped();
                                }
                                lists[i].push(entry);
                            }
                        }
                    }
                }
            }
        }
        let mut a = Attacks {
            slides,
            rev,
            usable,
            leap_to,
            irregular_to,
            irregular_royal,
            capped: false,
            overworked: false,
            bits: None,
        };
        a.bits = AttackBits::new(&a, n_pos, n_dirs, n_pieces);
        a
    }
}

fn leap_table(board: &Board, player: PlayerId, dirs: &[DirId]) -> LeapTable {
    let n_pos = board.n_pos();
    let mut by_target: Vec<Vec<u16>> = vec![Vec::new(); n_pos];
    for a in 0..n_pos {
        let mut p = Some(PosId(a as u16));
        for &d in dirs {
            p = p.and_then(|q| board.step(player, d, q));
        }
        if let Some(t) = p {
            by_target[t.idx()].push(a as u16);
        }
    }
    let mut starts = Vec::with_capacity(n_pos + 1);
    let mut sources = Vec::new();
    for list in by_target {
        starts.push(sources.len() as u32);
        sources.extend(list);
    }
    starts.push(sources.len() as u32);
    LeapTable {
        pieces: Vec::new(),
        starts,
        sources,
    }
}

/// True when `c` holds only where the piece is of a type that is not royal (`royal[type]`,
/// a type past its end counting as royal).
fn verifies_not_royal(c: &Cond, royal: &[bool]) -> bool {
    match c {
        Cond::Piece(t, None) => !royal.get(t.idx()).copied().unwrap_or(true),
        Cond::And(xs) => xs.iter().any(|x| verifies_not_royal(x, royal)),
        _ => false,
    }
}

/// `body` without the captures of the current square that follow a `verify` of its piece's
/// type being non-royal (with nothing between that moves on or could change the square's
/// piece), or `None` when it has none: where the block could capture a royal piece.
fn royal_body(body: &[Instr], royal: &[bool]) -> Option<Vec<Instr>> {
    fn strip(body: &[Instr], royal: &[bool], changed: &mut bool) -> Vec<Instr> {
        let mut out = Vec::with_capacity(body.len());
        // The current square holds a piece of a non-royal type.
        let mut verified = false;
        for i in body {
            out.push(match i {
                Instr::Verify(c) => {
                    verified |= verifies_not_royal(c, royal);
                    i.clone()
                }
                Instr::Capture(None) if verified => {
                    *changed = true;
                    Instr::Verify(Cond::Const(true))
                }
                Instr::Capture(None)
                | Instr::SetAttribute(..)
                | Instr::SetFlag(..)
                | Instr::SetPositionFlag(..)
                | Instr::SetVar(..)
                | Instr::SetCounter(..) => i.clone(),
                Instr::If(c, a, b) => {
                    verified = false;
                    Instr::If(
                        c.clone(),
                        strip(a, royal, changed),
                        strip(b, royal, changed),
                    )
                }
                Instr::While(c, a) => {
                    verified = false;
                    Instr::While(c.clone(), strip(a, royal, changed))
                }
                _ => {
                    verified = false;
                    i.clone()
                }
            });
        }
        out
    }
    let mut changed = false;
    let out = strip(body, royal, &mut changed);
    changed.then_some(out)
}

/// Effects and tests that do not change where a block can capture.
fn inert(i: &Instr) -> bool {
    matches!(
        i,
        Instr::SetAttribute(..) | Instr::SetFlag(..) | Instr::SetPositionFlag(..)
    )
}

/// True for an ending that always adds a move here: `add`, or an `if` whose branches both do.
fn always_adds(tail: &[Instr]) -> bool {
    for i in tail {
        match i {
            Instr::Add(spec) if !spec.copy => return true,
            Instr::If(_, a, b) if always_adds(a) && always_adds(b) => return true,
            i if inert(i) => {}
            _ => return false,
        }
    }
    false
}

/// True when the ending can only add moves to this (empty) square and captures nothing.
fn quiet_tail(tail: &[Instr]) -> bool {
    tail.iter().all(|i| match i {
        Instr::Add(_) => true,
        Instr::Verify(_) => true,
        Instr::If(_, a, b) => quiet_tail(a) && quiet_tail(b),
        i => inert(i),
    })
}

fn is_capture_check(c: &Cond) -> bool {
    match c {
        Cond::Enemy(None) => true,
        Cond::Not(x) => matches!(**x, Cond::Friend(None)),
        _ => false,
    }
}

fn shape(body: &[Instr]) -> Shape {
    // Leading steps.
    let mut k = 0;
    let mut dirs = Vec::new();
    while let Some(Instr::Step(d)) = body.get(k) {
        dirs.push(*d);
        k += 1;
    }
    if dirs.is_empty() {
        return Shape::Irregular;
    }
    let rest = &body[k..];
    match rest {
        // Leap: steps, a capture check, an ending that adds.
        [Instr::Verify(c), tail @ ..] if is_capture_check(c) && always_adds(tail) => {
            Shape::Leap(dirs)
        }
        // Non-capturing: steps, `empty?`, then only tests and adds.
        [Instr::Verify(Cond::Empty(None)), tail @ ..] if quiet_tail(tail) => {
            // A later step would move on; only tests and adds may follow.
            Shape::Quiet
        }
        // Slide: one step, `(while empty? … step)`, a capture check, an ending that adds.
        [Instr::While(Cond::Empty(None), inner), Instr::Verify(c), tail @ ..]
            if dirs.len() == 1
                && is_capture_check(c)
                && always_adds(tail)
                && matches!(inner.last(), Some(Instr::Step(d)) if *d == dirs[0])
                && inner[..inner.len() - 1]
                    .iter()
                    .all(|i| matches!(i, Instr::Add(_)) || inert(i)) =>
        {
            Shape::Slide(dirs[0])
        }
        // Steps then more steps after an emptiness check (a pawn's double step).
        [Instr::Verify(Cond::Empty(None)), ..] if no_capture(rest) && ends_on_empty(rest) => {
            Shape::Quiet
        }
        _ => Shape::Irregular,
    }
}

/// No instruction in the block can capture anything except by landing.
fn no_capture(body: &[Instr]) -> bool {
    body.iter().all(|i| match i {
        Instr::Capture(_)
        | Instr::Cascade
        | Instr::Create { .. }
        | Instr::Go(_)
        | Instr::Goto(_)
        | Instr::Back => false,
        Instr::If(_, a, b) => no_capture(a) && no_capture(b),
        Instr::While(_, a) => no_capture(a),
        _ => true,
    })
}

/// Every step in the block is followed (before any add) by `(verify empty?)`.
fn ends_on_empty(body: &[Instr]) -> bool {
    let mut checked = true;
    for i in body {
        match i {
            Instr::Step(_) | Instr::Opposite(_) => checked = false,
            Instr::Verify(Cond::Empty(None)) => checked = true,
            Instr::Add(_) if !checked => return false,
            Instr::If(..) | Instr::While(..) if !checked => return false,
            Instr::If(_, a, b) if !(quiet_tail(a) && quiet_tail(b)) => return false,
            Instr::While(..) => return false,
            _ => {}
        }
    }
    true
}

/// Abstract state of a block run: current position, mark and pending destination.
type State = (u16, u16, u16);

/// Most abstract states followed before giving up (the block may then capture anywhere).
const MAX_STATES: usize = 4096;

/// The squares a block could capture on when a player's piece runs it from `start`, found by
/// running the program with every condition taken both ways: a bit set (one bit per square),
/// or `None` when it could capture anywhere; `Err` once the `work` left runs out.
fn reach_row(
    def: &GameDef,
    player: PlayerId,
    start: u16,
    body: &[Instr],
    work: &mut usize,
) -> Result<Option<Vec<u64>>, ()> {
    let mut reach = Reach {
        board: &def.board,
        player,
        hits: vec![0u64; def.board.n_pos().div_ceil(64)],
        everywhere: false,
        work: *work,
    };
    reach.run(body, vec![(start, start, NONE)]);
    if reach.work == 0 {
        return Err(());
    }
    *work = reach.work;
    Ok((!reach.everywhere).then_some(reach.hits))
}

/// Most abstract states processed (summed over every instruction run) while deriving all the
/// irregular blocks' tables of a game. Past it the game gets no tables and `attacked?` runs
/// the programs: deriving them would cost more than it saves (a file with hundreds of
/// stack-shuffling blocks took minutes), and the limit keeps `Rules::new` within a fixed cost
/// whatever the board and the programs.
pub const MAX_WORK: usize = 1 << 24;

/// The union of two sorted lists without repeats, sorted.
fn merge(a: &[State], b: &[State]) -> Vec<State> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

struct Reach<'a> {
    board: &'a Board,
    player: PlayerId,
    hits: Vec<u64>,
    everywhere: bool,
    /// States that may still be processed ([`MAX_WORK`]); at 0 the run stops, as if
    /// `everywhere`.
    work: usize,
}

impl Reach<'_> {
    fn hit(&mut self, sq: u16) {
        if sq != NONE {
            self.hits[sq as usize / 64] |= 1 << (sq % 64);
        }
    }

    fn step(&self, d: DirId, p: u16) -> u16 {
        if p == NONE {
            return NONE;
        }
        self.board
            .step(self.player, d, PosId(p))
            .map_or(NONE, |q| q.0)
    }

    fn target(&self, t: Option<Target>, cp: u16) -> u16 {
        match t {
            None => cp,
            Some(Target::Pos(p)) => p.0,
            Some(Target::Dir(d)) => self.step(d, cp),
            Some(Target::Opposite(d)) => match self.board.opposite[d.idx()] {
                Some(o) => self.step(o, cp),
                None => NONE,
            },
        }
    }

    /// The states after `body`, recording possible capture squares on the way.
    fn run(&mut self, body: &[Instr], mut states: Vec<State>) -> Vec<State> {
        let mut i = 0;
        while let Some(instr) = body.get(i) {
            i += 1;
            if self.everywhere || states.is_empty() {
                return states;
            }
            self.work = self.work.saturating_sub(states.len());
            if self.work == 0 {
                self.everywhere = true;
                return states;
            }
            // `mark ... back` around instructions that neither capture nor move a piece nor
            // touch the mark or the destination (a sweep over the board that sets attributes)
            // comes back where it started: the same states as `mark` alone.
            if let Instr::Mark = instr {
                if let Some(k) = body[i..].iter().position(|x| !neutral(x)) {
                    if let Instr::Back = body[i + k] {
                        states = self.instr(instr, states);
                        states.sort_unstable();
                        states.dedup();
                        i += k + 1;
                        continue;
                    }
                }
            }
            states = self.instr(instr, states);
            states.sort_unstable();
            states.dedup();
            if states.len() > MAX_STATES {
                self.everywhere = true;
            }
        }
        states
    }

    fn instr(&mut self, instr: &Instr, states: Vec<State>) -> Vec<State> {
        let mut out = Vec::with_capacity(states.len());
        match instr {
            Instr::Step(d) => out.extend(
                states
                    .iter()
                    .map(|&(cp, m, t)| (self.step(*d, cp), m, t))
                    .filter(|s| s.0 != NONE),
            ),
            Instr::Opposite(d) => {
                if let Some(o) = self.board.opposite[d.idx()] {
                    out.extend(
                        states
                            .iter()
                            .map(|&(cp, m, t)| (self.step(o, cp), m, t))
                            .filter(|s| s.0 != NONE),
                    );
                }
            }
            Instr::Goto(p) => out.extend(states.iter().map(|&(_, m, t)| (p.0, m, t))),
            Instr::Mark => out.extend(states.iter().map(|&(cp, _, t)| (cp, cp, t))),
            Instr::Back => out.extend(states.iter().map(|&(_, m, t)| (m, m, t))),
            Instr::To => out.extend(states.iter().map(|&(cp, m, _)| (cp, m, cp))),
            Instr::Go(GoTarget::Mark) => out.extend(states.iter().map(|&(_, m, t)| (m, m, t))),
            Instr::Go(GoTarget::To) => out.extend(
                states
                    .iter()
                    .filter(|s| s.2 != NONE)
                    .map(|&(_, m, t)| (t, m, t)),
            ),
            // Jumps to squares the program cannot know in advance: give up.
            Instr::Go(_) | Instr::From => {
                self.everywhere = true;
                return states;
            }
            Instr::Cascade => {
                for &(cp, m, t) in &states {
                    self.hit(if t == NONE { cp } else { t });
                    out.push((cp, m, NONE));
                }
            }
            Instr::Capture(t) | Instr::Create { at: t, .. } => {
                for &(cp, _, _) in &states {
                    let sq = self.target(*t, cp);
                    self.hit(sq);
                }
                out = states;
            }
            Instr::Add(_) => {
                for &(cp, _, t) in &states {
                    self.hit(if t == NONE { cp } else { t });
                }
                out = states;
            }
            Instr::Verify(_)
            | Instr::SetAttribute(..)
            | Instr::SetFlag(..)
            | Instr::SetPositionFlag(..)
            | Instr::SetVar(..)
            | Instr::SetCounter(..) => out = states,
            Instr::ChangeType(..) | Instr::ChangeOwner(_) | Instr::Flip(_) => out = states,
            Instr::If(_, a, b) => {
                out = self.run(a, states.clone());
                out.extend(self.run(b, states));
            }
            Instr::While(_, body) => {
                // Zero or more passes, until no new state appears. `all` stays sorted, so
                // finding the new states costs a search each, not a scan.
                let mut all = states.clone();
                all.sort_unstable();
                all.dedup();
                let mut frontier = states;
                while !frontier.is_empty() && !self.everywhere {
                    let next = self.run(body, frontier);
                    frontier = next
                        .into_iter()
                        .filter(|s| all.binary_search(s).is_err())
                        .collect();
                    frontier.sort_unstable();
                    frontier.dedup();
                    all = merge(&all, &frontier);
                    self.work = self.work.saturating_sub(all.len());
                    if self.work == 0 || all.len() > MAX_STATES {
                        self.everywhere = true;
                    }
                }
                out = all;
            }
        }
        out
    }
}

/// True when `i` can only move the current square, test, or leave effects that capture
/// nothing (types, owners, attributes, flags, counters): between `mark` and `back` such
/// instructions change none of the states [`Reach`] follows.
fn neutral(i: &Instr) -> bool {
    match i {
        Instr::Step(_)
        | Instr::Opposite(_)
        | Instr::Goto(_)
        | Instr::Verify(_)
        | Instr::SetAttribute(..)
        | Instr::SetFlag(..)
        | Instr::SetPositionFlag(..)
        | Instr::SetVar(..)
        | Instr::SetCounter(..)
        | Instr::ChangeType(..)
        | Instr::ChangeOwner(_)
        | Instr::Flip(_) => true,
        Instr::If(_, a, b) => a.iter().chain(b).all(neutral),
        Instr::While(_, b) => b.iter().all(neutral),
        Instr::Mark
        | Instr::Back
        | Instr::Go(_)
        | Instr::From
        | Instr::To
        | Instr::Cascade
        | Instr::Capture(_)
        | Instr::Create { .. }
        | Instr::Add(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5x5 game whose only piece runs a block that marks and targets squares along its way
    /// north: its abstract states (square, mark, destination) grow with the cube of the path.
    fn def() -> GameDef {
        let text = r#"(game (title "T") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d/e" (1 0)) ("5/4/3/2/1" (0 1)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (piece (name P) (moves ((while (on-board? n) (if empty? mark) (if friend? to) n)
    back (verify enemy?) add)))
  (board-setup (A (P a1)) (B (P e5)))
  (win-condition (A B) (checkmated P)))"#;
        let loaded = crate::load("t.zrf", text.as_bytes(), &crate::expand::NoFiles);
        let (def, diags) = crate::resolve_game(&loaded.games[0]);
        assert!(diags.is_empty(), "{diags:?}");
        def.expect("resolves")
    }

    #[test]
    fn irregular_tables_stop_at_the_work_limit() {
        let def = def();
        let body = &def.pieces[0].moves[0].body;
        assert_eq!(shape(body), Shape::Irregular);
        // Enough work: every row derived; from a1 the block can capture on the squares it
        // could mark: a1 to a4 (on a5 the loop has ended).
        let n_pos = def.board.n_pos();
        let all = |work: &mut usize| -> Option<Vec<Option<Vec<u64>>>> {
            let mut rows = Vec::new();
            for pl in 0..2u8 {
                for start in 0..n_pos {
                    rows.push(reach_row(&def, PlayerId(pl), start as u16, body, work).ok()?);
                }
            }
            Some(rows)
        };
        let mut work = MAX_WORK;
        let rows = all(&mut work).expect("within the limit");
        let spent = MAX_WORK - work;
        let a1 = def.board.positions.iter().position(|p| p.name == "a1");
        let row = rows[a1.expect("a1")].as_ref().expect("not everywhere")[0];
        let hits: Vec<&str> = (0..25)
            .filter(|&sq| row >> sq & 1 == 1)
            .map(|sq| def.board.positions[sq].name.as_str())
            .collect();
        assert_eq!(hits, ["a4", "a3", "a2", "a1"]);
        // 2 players x 25 starts, a few hundred states each.
        assert!(spent > 50 && spent < 50_000, "{spent}");
        // Less work than that: no rows, and a game needing it gets no tables (`attacked?`
        // runs the programs).
        let mut work = spent / 2;
        assert!(all(&mut work).is_none());
        assert!(Attacks::new(&def).usable);
    }

    #[test]
    fn a_sweep_between_mark_and_back_costs_one_state() {
        // Gwangsanghui's moves sweep the board setting attributes before they add; followed
        // state by state, each sweep cost a state per square and a big board ran out of work.
        let text = |sweep: &str| {
            format!(
                r#"(game (title "T") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d/e" (1 0)) ("5/4/3/2/1" (0 1)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (piece (name P) (attribute seen? false)
    (moves (n (while empty? {sweep} n) {sweep} (verify enemy?) add)))
  (board-setup (A (P a1)) (B (P e5)))
  (win-condition (A B) (checkmated P)))"#
            )
        };
        let reach = |sweep: &str| {
            let loaded = crate::load("t.zrf", text(sweep).as_bytes(), &crate::expand::NoFiles);
            let (def, _) = crate::resolve_game(&loaded.games[0]);
            let def = def.expect("resolves");
            let body = &def.pieces[0].moves[0].body;
            let a1 = def.board.positions.iter().position(|p| p.name == "a1");
            let mut work = MAX_WORK;
            let row = reach_row(&def, PlayerId(0), a1.expect("a1") as u16, body, &mut work)
                .expect("within work");
            (row.expect("not everywhere"), MAX_WORK - work)
        };
        let (plain, plain_work) = reach("");
        let (swept, swept_work) =
            reach("mark a5 (while (on-board? e) e (if friend? (set-attribute seen? true))) back");
        assert_eq!(plain, swept, "the same squares are reachable");
        // Each sweep is one `mark` over the states at hand, not a walk over the row.
        assert!(swept_work <= 2 * plain_work, "{swept_work} vs {plain_work}");
    }

    #[test]
    fn en_passant_cannot_take_a_king() {
        // Chess's en passant verifies that it takes a Pawn: it stays in the tables for
        // `attacked?` of any square, but not among the blocks that could take a King.
        let text = include_str!("../../../games/chess.zrf");
        let loaded = crate::load("chess.zrf", text.as_bytes(), &crate::expand::NoFiles);
        let (def, _) = crate::resolve_game(&loaded.games[0]);
        let def = def.expect("resolves");
        let kind = |name: &str| def.pieces.iter().position(|p| p.name == name).expect(name);
        let (pawn, king) = (kind("Pawn") as u16, kind("King"));
        let mut royal = vec![false; def.pieces.len()];
        royal[king] = true;
        let a = Attacks::with_royal(&def, &royal);
        let pawns = |list: &[(u16, u16, u16)]| list.iter().filter(|e| e.1 == pawn).count();
        let all: usize = a.irregular_to.iter().map(|l| pawns(l)).sum();
        let royal: usize = (0..a.irregular_to.len())
            .map(|i| pawns(a.royal_irregular(i)))
            .sum();
        // Per player and side (west, east), a pawn standing on any of 8 ranks and 7 files
        // could take beside it (the tables take every condition both ways); where it lands,
        // its diagonal capture reaches anyway.
        assert_eq!((all, royal), (2 * 2 * 8 * 7, 0));
        // Not knowing the royal types, every entry counts.
        let unknown = Attacks::new(&def);
        let royal: usize = (0..unknown.irregular_to.len())
            .map(|i| pawns(unknown.royal_irregular(i)))
            .sum();
        assert_eq!(royal, all);
    }

    #[test]
    fn slide_lines_of_chess() {
        // The squares between a target and a square of one of its rays, the rays by type,
        // and the king's leaps turned around, on the chess board.
        let text = include_str!("../../../games/chess.zrf");
        let loaded = crate::load("chess.zrf", text.as_bytes(), &crate::expand::NoFiles);
        let (def, _) = crate::resolve_game(&loaded.games[0]);
        let def = def.expect("resolves");
        let kind = |name: &str| def.pieces.iter().position(|p| p.name == name).expect(name);
        let sq = |name: &str| {
            let at = def.board.positions.iter().position(|p| p.name == name);
            at.expect(name)
        };
        let set = |names: &[&str]| names.iter().fold(0u64, |all, n| all | 1 << sq(n));
        let a = Attacks::new(&def);
        let bits = a.bits.as_ref().expect("square sets");
        let lines = bits.lines.as_ref().expect("no two rays share a square");
        let (n_pos, nt) = (def.board.n_pos(), bits.n_types);
        let (e1, e8, h4) = (sq("e1"), sq("e8"), sq("h4"));
        let between = |target: usize, q: usize| lines.between[target * n_pos + q];
        assert_eq!(between(e1, e8), set(&["e2", "e3", "e4", "e5", "e6", "e7"]));
        assert_eq!(between(e1, h4), set(&["f2", "g3"]));
        assert_eq!(between(e1, sq("g2")), 0, "on no ray to e1");
        let slide = |t: &str| lines.slide[e1 * nt + kind(t)];
        assert_eq!(slide("Rook") | slide("Bishop"), slide("Queen"));
        assert_eq!(slide("Rook") & slide("Bishop"), 0);
        assert_eq!(slide("Queen"), lines.rays[e1]);
        assert_eq!(slide("Knight"), 0);
        let king = lines.leaps[e1 * nt + kind("King")];
        assert_eq!(king, set(&["d1", "d2", "e2", "f2", "f1"]));
    }
}
