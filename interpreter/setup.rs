//! Positions as text: FEN for boards with ranks and files, PDN FEN for draughts, and the
//! native text that round-trips every part of a position in any game.

use crate::def::*;
use crate::engine::{Cell, Position, Rules};

/// Why a position text was not read. `Display` gives the message shown to the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The text is none of the three forms.
    #[error("expected a FEN, a PDN FEN (`W:W31,32:B1,2`) or zrf's native position text")]
    Unrecognised,
    /// The game has no such form: FEN needs a two-dimensional grid and two players, PDN a
    /// piece for men (and for kings, a king), and the side to move must move in the game.
    #[error("{0}")]
    Unsupported(String),
    /// The text names a square, piece, player, counter or attribute the game does not have.
    #[error("{0}")]
    Unknown(String),
    /// A field cannot be read: a bad number, a rank of the wrong length, an unknown field.
    #[error("{0}")]
    Malformed(String),
    /// The fields are read but do not make a position: too many pieces off the board, a
    /// turn past the turn order, a castling right without its rook, a `~` on no piece.
    #[error("{0}")]
    Invalid(String),
}

/// Reads a position in any of the three forms.
pub fn parse(rules: &Rules, text: &str) -> Result<Position, SetupError> {
    let pos = parse_any(rules, text)?;
    if let Some(i) = pos.store.iter().position(|&n| n > MAX_OFF) {
        let n_pieces = rules.def.pieces.len().max(1);
        return Err(SetupError::Invalid(format!(
            "{} holds {} {} off the board; at most {MAX_OFF} are allowed",
            rules.def.players[i / n_pieces].name,
            pos.store[i],
            rules.def.pieces[i % n_pieces].name
        )));
    }
    Ok(pos)
}

fn parse_any(rules: &Rules, text: &str) -> Result<Position, SetupError> {
    let t = crate::records::strip_bom(text).trim();
    if t.starts_with("turn ") || t.contains("; ") && !t.contains('/') {
        parse_native(rules, t)
    } else if t.len() > 2 && (t.starts_with("W:") || t.starts_with("B:") || t.starts_with("[FEN")) {
        parse_pdn(rules, t)
    } else if t.contains('/') {
        parse_fen(rules, t)
    } else {
        Err(SetupError::Unrecognised)
    }
}

/// The first turn index at which `player` moves.
fn turn_of(rules: &Rules, player: PlayerId) -> Result<u32, SetupError> {
    rules
        .turns
        .iter()
        .enumerate()
        .skip(rules.once)
        .chain(rules.turns.iter().enumerate().take(rules.once))
        .find(|(_, e)| e.mover == player)
        .map(|(i, _)| i as u32)
        .ok_or_else(|| {
            SetupError::Unsupported(format!(
                "{} never moves in this game",
                rules.def.players[player.idx()].name
            ))
        })
}

fn piece_by_letter(def: &GameDef, letter: &str) -> Option<PieceId> {
    def.pieces
        .iter()
        .position(|p| {
            p.notation
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(letter))
        })
        .map(|i| PieceId(i as u16))
}

/// Ranks and files of the first grid: rows from the top (the highest-numbered rank first), each a
/// list of squares by file (`NONE` where the board has no such square). FEN reads and writes this.
pub fn fen_rows(def: &GameDef) -> Result<Vec<Vec<u16>>, SetupError> {
    let grid = def.board.grids.first().ok_or(SetupError::Unsupported(
        "this board has no grid, so it has no FEN".into(),
    ))?;
    if grid.labels.len() != 2 {
        return Err(SetupError::Unsupported(
            "FEN needs a two-dimensional grid".into(),
        ));
    }
    let (files, ranks) = (&grid.labels[0], &grid.labels[1]);
    let mut order: Vec<usize> = (0..ranks.len()).collect();
    if ranks.iter().all(|r| r.parse::<i64>().is_ok()) {
        order.sort_by_key(|&i| std::cmp::Reverse(ranks[i].parse::<i64>().unwrap_or(0)));
    }
    let mut out = Vec::new();
    for r in order {
        let mut row = Vec::new();
        for f in files {
            let name = format!("{f}{}", ranks[r]);
            row.push(def.board.pos_id(&name).map_or(NONE, |p| p.0));
        }
        out.push(row);
    }
    Ok(out)
}

fn parse_fen(rules: &Rules, t: &str) -> Result<Position, SetupError> {
    let def = &rules.def;
    if def.players.len() < 2 {
        return Err(SetupError::Unsupported("FEN needs two players".into()));
    }
    let n_pieces = def.pieces.len();
    let mut fields = t.split_whitespace();
    let mut board = fields.next().unwrap_or("").to_string();
    let mut pocket = String::new();
    if let Some(i) = board.find('[') {
        pocket = board[i + 1..].trim_end_matches(']').to_string();
        board.truncate(i);
    }
    let rows = fen_rows(def)?;
    let mut ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() == rows.len() + 1 {
        // Pocket written as a ninth rank.
        pocket = ranks.pop().unwrap_or("").to_string();
    }
    if ranks.len() != rows.len() {
        return Err(SetupError::Malformed(format!(
            "the FEN has {} ranks; this board has {}",
            ranks.len(),
            rows.len()
        )));
    }
    let mut pos = Position::empty(
        def.board.n_pos(),
        def.players.len() * n_pieces,
        rules.n_counter_slots(),
    );
    for (r, text) in ranks.iter().enumerate() {
        let mut f: usize = 0;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap_or(0) as usize;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    // A run of digits too long for any board saturates, and is refused below.
                    n = n.saturating_mul(10).saturating_add(d as usize);
                    chars.next();
                }
                f = f.saturating_add(n);
                continue;
            }
            if c == '~' {
                // A promoted piece (crazyhouse): set its `promoted?` attribute, if it has one.
                let sq = rows[r].get(f.wrapping_sub(1)).copied().unwrap_or(NONE);
                if sq == NONE || pos.cells[sq as usize].is_empty() {
                    return Err(SetupError::Invalid(format!(
                        "rank {} of the FEN has a `~` that follows no piece (it marks the \
                         piece before it as promoted)",
                        r + 1
                    )));
                }
                if let (Some(a), true) = (
                    def.attributes.iter().position(|a| a == "promoted?"),
                    sq != NONE,
                ) {
                    let cell = pos.cells[sq as usize];
                    pos.set(
                        sq,
                        Cell {
                            attrs: cell.attrs | 1 << a,
                            ..cell
                        },
                    );
                }
                continue;
            }
            let piece = piece_by_letter(def, &c.to_string())
                .ok_or_else(|| SetupError::Unknown(format!("no piece has the letter `{c}`")))?;
            let owner = PlayerId(if c.is_uppercase() { 0 } else { 1 });
            let sq = *rows[r].get(f).ok_or_else(|| {
                SetupError::Malformed(format!("rank {} of the FEN is too long", r + 1))
            })?;
            if sq != NONE {
                pos.set(
                    sq,
                    Cell::new(piece, owner, rules.attr_defaults[piece.idx()]),
                );
            }
            f += 1;
        }
        if f != rows[r].len() {
            return Err(SetupError::Malformed(format!(
                "rank {} of the FEN has {f} squares; the board has {}",
                r + 1,
                rows[r].len()
            )));
        }
    }
    for c in pocket.chars().filter(|c| c.is_alphabetic()) {
        let piece = piece_by_letter(def, &c.to_string())
            .ok_or_else(|| SetupError::Unknown(format!("no piece has the letter `{c}`")))?;
        let owner = if c.is_uppercase() { 0 } else { 1 };
        pos.add_store((owner * n_pieces + piece.idx()) as u32, 1);
    }
    let side = match fields.next() {
        None | Some("w") | Some("W") => PlayerId(0),
        Some("b") | Some("B") => PlayerId(1),
        Some(x) => {
            return Err(SetupError::Malformed(format!(
                "expected `w` or `b` for the side to move, found `{x}`"
            )))
        }
    };
    let castling = fields.next().unwrap_or("-");
    let ep = fields.next().unwrap_or("-");
    let halfmove = fields.next();
    // The fullmove number is the front end's (move numbers of records); it must be a number
    // that counting on from cannot overflow.
    if let Some(full) = fields.next() {
        if full.parse::<u32>().is_err() {
            return Err(SetupError::Malformed(format!(
                "bad fullmove number `{full}`: a number from 0 to {}",
                u32::MAX
            )));
        }
    }
    castling_rights(rules, &mut pos, castling)?;
    rules.start_counters(&mut pos);
    // The halfmove clock goes to a counter named `halfmove-clock`, where the game has one.
    if let (Some(h), Some(c)) = (
        halfmove,
        def.counters.iter().position(|c| c.name == "halfmove-clock"),
    ) {
        let value: i32 = h
            .parse()
            .map_err(|_| SetupError::Malformed(format!("bad halfmove clock `{h}`")))?;
        let slot = rules.counter_base[c];
        let old = pos.counters[slot as usize];
        pos.add_counter(slot, value.wrapping_sub(old));
    }
    let (mut lf, mut lt) = (NONE, NONE);
    if ep != "-" {
        let sq = def
            .board
            .pos_id(ep)
            .ok_or_else(|| SetupError::Unknown(format!("no square `{ep}` for en passant")))?;
        let (file, rank) = ep.split_at(ep.find(|c: char| c.is_ascii_digit()).unwrap_or(ep.len()));
        let rank: i64 = rank
            .parse()
            .map_err(|_| SetupError::Malformed(format!("bad en passant square `{ep}`")))?;
        let dir = if side == PlayerId(0) { -1 } else { 1 };
        let to = def.board.pos_id(&format!("{file}{}", rank + dir));
        let from = def.board.pos_id(&format!("{file}{}", rank - dir));
        let _ = sq;
        if let (Some(f), Some(t)) = (from, to) {
            lf = f.0;
            lt = t.0;
        }
    }
    pos.set_turn(turn_of(rules, side)?, lf, lt);
    Ok(pos)
}

/// Maps `KQkq` onto the attribute that the king and rook types share (such as `never-moved?`).
fn castling_rights(rules: &Rules, pos: &mut Position, rights: &str) -> Result<(), SetupError> {
    let def = &rules.def;
    let (Some(king), Some(rook)) = (piece_by_letter(def, "K"), piece_by_letter(def, "R")) else {
        return Ok(());
    };
    let rook_attrs: Vec<AttrId> = def.pieces[rook.idx()]
        .attributes
        .iter()
        .map(|(a, _)| *a)
        .collect();
    let Some(attr) = def.pieces[king.idx()]
        .attributes
        .iter()
        .map(|(a, _)| *a)
        .find(|a| rook_attrs.contains(a))
    else {
        return Ok(());
    };
    let bit = attr.bit();
    let is = |c: Cell, p: PieceId| c.piece == p.0 + 1;
    for sq in 0..pos.cells.len() {
        let c = pos.cells[sq];
        if is(c, king) || is(c, rook) {
            pos.set(
                sq as u16,
                Cell {
                    attrs: c.attrs & !bit,
                    ..c
                },
            );
        }
    }
    for r in rights.chars().filter(|c| *c != '-') {
        let owner = if r.is_uppercase() { 0u8 } else { 1 };
        // `K` and `Q` (FEN, X-FEN): the outermost rook on that side; a file letter
        // (Shredder-FEN `HAha`, X-FEN for an inner rook): the rook on that file.
        let named_file = match r.to_ascii_uppercase() {
            'K' | 'Q' => None,
            c if c.is_ascii_uppercase() => Some(c.to_ascii_lowercase().to_string()),
            _ => {
                return Err(SetupError::Malformed(format!(
                    "unknown castling right `{r}`"
                )))
            }
        };
        let Some(ksq) =
            (0..pos.cells.len()).find(|&s| is(pos.cells[s], king) && pos.cells[s].owner == owner)
        else {
            continue;
        };
        let kname = &def.board.positions[ksq].name;
        let rank: String = kname.chars().filter(|c| c.is_ascii_digit()).collect();
        let kfile = kname
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string();
        let file_of = |s: usize| {
            def.board.positions[s]
                .name
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .to_string()
        };
        let on_rank = (0..pos.cells.len())
            .filter(|&s| is(pos.cells[s], rook) && pos.cells[s].owner == owner)
            .filter(|&s| def.board.positions[s].name.ends_with(&rank));
        let rook_sq = match &named_file {
            Some(f) => {
                let found = on_rank.clone().find(|&s| file_of(s) == *f);
                if found.is_none() {
                    return Err(SetupError::Invalid(format!(
                        "castling right `{r}`: no rook of that side on file {f} of the king's rank"
                    )));
                }
                found
            }
            None => {
                let kingside = r.eq_ignore_ascii_case(&'K');
                // The outermost rook on the king's side.
                let candidates = on_rank.filter(|&s| (file_of(s) > kfile) == kingside);
                if kingside {
                    candidates.max_by_key(|&s| file_of(s))
                } else {
                    candidates.min_by_key(|&s| file_of(s))
                }
            }
        };
        for sq in [Some(ksq), rook_sq].into_iter().flatten() {
            let c = pos.cells[sq];
            pos.set(
                sq as u16,
                Cell {
                    attrs: c.attrs | bit,
                    ..c
                },
            );
        }
    }
    Ok(())
}

fn parse_pdn(rules: &Rules, t: &str) -> Result<Position, SetupError> {
    let def = &rules.def;
    let t = t
        .trim_start_matches("[FEN")
        .trim_end_matches(']')
        .trim()
        .trim_matches('"');
    let n_pieces = def.pieces.len();
    let player_named = |c: char| -> Result<PlayerId, SetupError> {
        let want = if c == 'W' { "white" } else { "black" };
        def.players
            .iter()
            .position(|p| p.name.to_lowercase() == want)
            .map(|i| PlayerId(i as u8))
            .or_else(|| {
                Some(PlayerId(if c == 'W' { 0 } else { 1 })).filter(|p| p.idx() < def.players.len())
            })
            .ok_or_else(|| SetupError::Unknown(format!("no player for `{c}`")))
    };
    let king = piece_by_letter(def, "K");
    let man = def
        .pieces
        .iter()
        .position(|p| p.notation.as_deref() != Some("K") && !p.dummy)
        .map(|i| PieceId(i as u16))
        .ok_or(SetupError::Unsupported(
            "this game has no piece for men".into(),
        ))?;
    let mut pos = Position::empty(
        def.board.n_pos(),
        def.players.len() * n_pieces,
        rules.n_counter_slots(),
    );
    let mut parts = t.split(':');
    let side_text = parts.next().unwrap_or("");
    let side = match side_text.trim() {
        "W" => player_named('W')?,
        "B" => player_named('B')?,
        x => {
            return Err(SetupError::Malformed(format!(
                "expected `W` or `B` for the side to move, found `{x}`"
            )))
        }
    };
    let lookup = |name: &str| -> Result<u16, SetupError> {
        let name = name.trim();
        if let Ok(n) = name.parse::<u16>() {
            if let Some(i) = def.board.numbers.iter().position(|&k| k == n) {
                return Ok(i as u16);
            }
        }
        def.board
            .pos_id(name)
            .map(|p| p.0)
            .ok_or_else(|| SetupError::Unknown(format!("no square `{name}` on this board")))
    };
    for group in parts {
        let group = group.trim();
        let Some(color) = group.chars().next() else {
            continue;
        };
        if color != 'W' && color != 'B' {
            return Err(SetupError::Malformed(format!(
                "expected a `W` or `B` piece list, found `{group}`"
            )));
        }
        let owner = player_named(color)?;
        for item in group[1..]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (is_king, sq) = match item.strip_prefix('K') {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let piece = if is_king {
                king.ok_or(SetupError::Unsupported(
                    "this game has no king (no piece with notation `K`)".into(),
                ))?
            } else {
                man
            };
            let squares: Vec<u16> = match sq.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (
                        a.parse::<u16>()
                            .map_err(|e| SetupError::Malformed(e.to_string()))?,
                        b.parse::<u16>()
                            .map_err(|e| SetupError::Malformed(e.to_string()))?,
                    );
                    (a..=b)
                        .map(|n| lookup(&n.to_string()))
                        .collect::<Result<_, _>>()?
                }
                None => vec![lookup(sq)?],
            };
            for s in squares {
                pos.set(s, Cell::new(piece, owner, rules.attr_defaults[piece.idx()]));
            }
        }
    }
    rules.start_counters(&mut pos);
    pos.set_turn(turn_of(rules, side)?, NONE, NONE);
    Ok(pos)
}

/// The native text: `turn N; last FROM TO; PLAYER PIECE SQ+ATTR-ATTR ...; off PLAYER PIECE N`.
pub fn native(rules: &Rules, pos: &Position) -> String {
    let def = &rules.def;
    let name = |sq: u16| {
        if sq == NONE {
            "-".to_string()
        } else {
            def.board.positions[sq as usize].name.clone()
        }
    };
    let mut parts = vec![
        format!("turn {}", pos.turn),
        format!("last {} {}", name(pos.last_from), name(pos.last_to)),
    ];
    for (pl, player) in def.players.iter().enumerate() {
        for (pi, piece) in def.pieces.iter().enumerate() {
            let mut squares = Vec::new();
            for (sq, c) in pos.cells.iter().enumerate() {
                if c.piece as usize == pi + 1 && c.owner as usize == pl {
                    let mut s = name(sq as u16);
                    let diff = c.attrs ^ rules.attr_defaults[pi];
                    for (a, attr) in def.attributes.iter().enumerate() {
                        if diff >> a & 1 == 1 {
                            s += if c.attrs >> a & 1 == 1 { "+" } else { "-" };
                            s += attr;
                        }
                    }
                    if c.marks & crate::engine::DEAD != 0 {
                        s += "!";
                    }
                    if c.marks & crate::engine::HUFFABLE != 0 {
                        s += "*";
                    }
                    squares.push(s);
                }
            }
            if !squares.is_empty() {
                parts.push(format!(
                    "{} {} {}",
                    player.name,
                    piece.name,
                    squares.join(" ")
                ));
            }
            let n = pos.store[pl * def.pieces.len() + pi];
            if n > 0 {
                parts.push(format!("off {} {} {n}", player.name, piece.name));
            }
        }
    }
    for (c, counter) in def.counters.iter().enumerate() {
        let base = rules.counter_base[c] as usize;
        if counter.per_player {
            for (pl, player) in def.players.iter().enumerate() {
                parts.push(format!(
                    "counter {} {} {}",
                    counter.name,
                    player.name,
                    pos.counters[base + pl]
                ));
            }
        } else {
            parts.push(format!("counter {} {}", counter.name, pos.counters[base]));
        }
    }
    parts.join("; ")
}

fn parse_native(rules: &Rules, t: &str) -> Result<Position, SetupError> {
    let def = &rules.def;
    let n_pieces = def.pieces.len();
    let mut pos = Position::empty(
        def.board.n_pos(),
        def.players.len() * n_pieces,
        rules.n_counter_slots(),
    );
    let (mut turn, mut lf, mut lt) = (0u32, NONE, NONE);
    let sq = |name: &str| -> Result<u16, SetupError> {
        if name == "-" {
            return Ok(NONE);
        }
        def.board
            .pos_id(name)
            .map(|p| p.0)
            .ok_or_else(|| SetupError::Unknown(format!("no square `{name}` on this board")))
    };
    let player = |name: &str| {
        def.player_id(name)
            .ok_or_else(|| SetupError::Unknown(format!("no player `{name}`")))
    };
    let piece = |name: &str| {
        def.piece_id(name)
            .ok_or_else(|| SetupError::Unknown(format!("no piece `{name}`")))
    };
    for field in t.split(';').map(str::trim).filter(|f| !f.is_empty()) {
        let words: Vec<&str> = field.split_whitespace().collect();
        match words.as_slice() {
            ["turn", n] => {
                turn = n
                    .parse()
                    .map_err(|_| SetupError::Malformed(format!("bad turn `{n}`")))?
            }
            ["last", f, to] => {
                lf = sq(f)?;
                lt = sq(to)?;
            }
            ["counter", name, rest @ ..] if !rest.is_empty() && rest.len() <= 2 => {
                let c = def
                    .counters
                    .iter()
                    .position(|c| c.name == *name)
                    .ok_or_else(|| SetupError::Unknown(format!("no counter `{name}`")))?;
                let value: i32 = rest[rest.len() - 1].parse().map_err(|_| {
                    SetupError::Malformed(format!("bad counter value `{}`", rest[rest.len() - 1]))
                })?;
                let slot = match (def.counters[c].per_player, rest.len()) {
                    (true, 2) => rules.counter_slot(c as u16, player(rest[0])?),
                    (false, 1) => rules.counter_base[c],
                    _ => {
                        return Err(SetupError::Malformed(format!(
                            "`counter {name}` needs {}",
                            if def.counters[c].per_player {
                                "a player and a value"
                            } else {
                                "one value"
                            }
                        )))
                    }
                };
                let old = pos.counters[slot as usize];
                pos.add_counter(slot, value.wrapping_sub(old));
            }
            ["off", pl, pc, n] => {
                let n: i32 = n
                    .parse()
                    .ok()
                    .filter(|&n| (0..=MAX_OFF as i32).contains(&n))
                    .ok_or_else(|| {
                        SetupError::Malformed(format!("bad count `{n}` (0 to {MAX_OFF})"))
                    })?;
                pos.add_store((player(pl)?.idx() * n_pieces + piece(pc)?.idx()) as u32, n);
            }
            [pl, pc, squares @ ..] if !squares.is_empty() => {
                let (pl, pc) = (player(pl)?, piece(pc)?);
                for s in squares {
                    let mut marks = 0;
                    let s = s.trim_end_matches(|c| match c {
                        '!' => {
                            marks |= crate::engine::DEAD;
                            true
                        }
                        '*' => {
                            marks |= crate::engine::HUFFABLE;
                            true
                        }
                        _ => false,
                    });
                    let (at, changes) = square_and_attrs(def, s)?;
                    let mut attrs = rules.attr_defaults[pc.idx()];
                    for (a, on) in changes {
                        if on {
                            attrs |= 1 << a;
                        } else {
                            attrs &= !(1 << a);
                        }
                    }
                    let mut cell = Cell::new(pc, pl, attrs);
                    cell.marks = marks;
                    if at == NONE {
                        return Err(SetupError::Malformed("a piece needs a square".into()));
                    }
                    pos.set(at, cell);
                }
            }
            _ => return Err(SetupError::Malformed(format!("cannot read `{field}`"))),
        }
    }
    if turn as usize >= rules.turns.len() {
        return Err(SetupError::Invalid(format!(
            "turn {turn} is past the turn order ({} entries)",
            rules.turns.len()
        )));
    }
    pos.set_turn(turn, lf, lt);
    Ok(pos)
}

/// Splits `e1-never-moved?+promoted?` into a square and attribute changes. Names may contain
/// `-` themselves, so the longest known names are matched.
fn square_and_attrs(def: &GameDef, text: &str) -> Result<(u16, Vec<(usize, bool)>), SetupError> {
    let ends_ok = |rest: &str| rest.is_empty() || rest.starts_with(['+', '-']);
    let square = def
        .board
        .positions
        .iter()
        .enumerate()
        .filter(|(_, p)| text.starts_with(p.name.as_str()) && ends_ok(&text[p.name.len()..]))
        .max_by_key(|(_, p)| p.name.len())
        .ok_or_else(|| SetupError::Unknown(format!("no square `{text}` on this board")))?;
    let mut rest = &text[square.1.name.len()..];
    let mut changes = Vec::new();
    while let Some(sign) = rest.chars().next() {
        let body = &rest[1..];
        let (a, name) = def
            .attributes
            .iter()
            .enumerate()
            .filter(|(_, n)| body.starts_with(n.as_str()) && ends_ok(&body[n.len()..]))
            .max_by_key(|(_, n)| n.len())
            .ok_or_else(|| SetupError::Unknown(format!("no attribute at `{body}`")))?;
        changes.push((a, sign == '+'));
        rest = &body[name.len()..];
    }
    Ok((square.0 as u16, changes))
}
