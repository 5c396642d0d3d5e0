//! A plain-text summary of a resolved game, as `zrf check` prints it.

use std::fmt::Write;

use crate::def::*;
use crate::expand::GameSource;

/// Lists games and variants with their 1-based numbers, marking the default.
pub fn variant_list(games: &[GameSource]) -> String {
    let default = default_index(games);
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        let mark = if i == default { " (default)" } else { "" };
        let kind = if g.is_variant { "variant" } else { "game" };
        let _ = writeln!(out, "{:>3}. {}{mark}  [{kind}]", i + 1, g.title);
    }
    out
}

/// The game or variant opened when none is asked for: the one marked `(default)`, else the
/// first game (a variant may come before the game it refines), else the first entry.
pub fn default_index(games: &[GameSource]) -> usize {
    games
        .iter()
        .position(|g| g.is_default)
        .or_else(|| games.iter().position(|g| !g.is_variant))
        .unwrap_or(0)
}

/// Why no variant was selected. `Display` gives the command line's message, which points
/// to `--list-variants` ([`VariantError::pointing_to`] names another way to list them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// The file defines no game at all.
    NoGame,
    /// A number past the file's games.
    NoNumber {
        /// The number asked for (from 1).
        number: usize,
        /// The number of games and variants.
        count: usize,
    },
    /// No title matches; the nearest, if any is near.
    NoTitle {
        /// The title asked for.
        name: String,
        /// The nearest title.
        nearest: Option<String>,
    },
}

impl VariantError {
    /// The message, pointing to `list` as the way to list the variants (to none with `None`).
    pub fn pointing_to(&self, list: Option<&str>) -> String {
        let see = list.map_or(String::new(), |l| format!(" (see {l})"));
        match self {
            VariantError::NoGame => "the file defines no game".into(),
            VariantError::NoNumber { number, count } => {
                format!("there is no variant number {number}; the file has {count}{see}")
            }
            VariantError::NoTitle { name, nearest } => {
                let hint =
                    (nearest.as_ref()).map_or(String::new(), |t| format!("; did you mean `{t}`?"));
                format!("no variant is called `{name}`{hint}{see}")
            }
        }
    }
}

impl std::fmt::Display for VariantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.pointing_to(Some("--list-variants")))
    }
}

impl std::error::Error for VariantError {}

/// Finds a variant by title (case-insensitive) or 1-based number.
pub fn select_variant(games: &[GameSource], name: Option<&str>) -> Result<usize, VariantError> {
    let Some(name) = name else {
        return if games.is_empty() {
            Err(VariantError::NoGame)
        } else {
            Ok(default_index(games))
        };
    };
    if let Ok(n) = name.trim().parse::<usize>() {
        if n >= 1 && n <= games.len() {
            return Ok(n - 1);
        }
        return Err(VariantError::NoNumber {
            number: n,
            count: games.len(),
        });
    }
    let lower = name.trim().to_lowercase();
    if let Some(i) = games.iter().position(|g| g.title.to_lowercase() == lower) {
        return Ok(i);
    }
    let titles: Vec<&str> = games.iter().map(|g| g.title.as_str()).collect();
    Err(VariantError::NoTitle {
        name: name.to_string(),
        nearest: crate::diagnostic::nearest(name, titles.iter().copied()).map(str::to_string),
    })
}

/// Finds the variant a saved game names, as leniently as a record from another version of
/// the rules file needs: by [`select_variant`], then by the title's letters and digits alone,
/// then by the nearest title (`Knight Court` for `Knight's Court`); `None` when nothing is
/// near.
pub fn select_record_variant(games: &[GameSource], name: &str) -> Option<usize> {
    if let Ok(i) = select_variant(games, Some(name)) {
        return Some(i);
    }
    let bare = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let want = bare(name);
    if let Some(i) = games.iter().position(|g| bare(&g.title) == want) {
        return Some(i);
    }
    let near = crate::diagnostic::nearest(name, games.iter().map(|g| g.title.as_str()))?;
    games.iter().position(|g| g.title == near)
}

/// Whether generating moves runs into a limit (docs/semantics.md, "Limits") at the start or
/// one move later (after each of the first 64 moves): the sign of a rules file whose move
/// programs run away, such as a `(while true add)`. `zrf check` reports it as a warning.
/// Why nothing can be played in the start position, when the side to move has no legal
/// move there and no goal ends the game (so a player sees a turn and nothing to do).
pub fn stuck_at_start(rules: &crate::engine::Rules) -> Option<String> {
    let g = &mut crate::play::Game::new(rules.clone(), rules.initial());
    stuck(g)
}

/// Why nothing can be played in the game's position: the side to move has no legal move and
/// no goal ends the game there.
pub fn stuck(g: &mut crate::play::Game) -> Option<String> {
    if g.rules.turns.is_empty() || !g.legal().is_empty() || g.outcome().is_some() {
        return None;
    }
    let side = &g.rules.def.players[g.rules.entry(g.pos.turn).owner.idx()].name;
    Some(format!(
        "{side} has no legal move in this position and no goal ends the game there, so \
         nothing can be played (a goal such as `(draw-condition ({side}) stalemated)` would end it)"
    ))
}

/// The replies are the blocks' single steps, unfiltered: a runaway shows there, and royal
/// safety without attack tables would cost seconds on a big game.
pub fn runaway(rules: &crate::engine::Rules) -> Option<crate::engine::Cut> {
    let mut pos = rules.initial();
    let mut moves = crate::engine::MoveList::new();
    rules.legal_moves(&mut pos, &mut moves);
    if moves.cut.is_some() {
        return moves.cut;
    }
    let mut replies = crate::engine::MoveList::new();
    let mut scratch = crate::engine::Scratch::default();
    let mut log = crate::engine::UndoLog::new();
    for m in moves.moves.iter().take(64) {
        rules.make(&mut pos, &moves, m, &mut log);
        let entry = rules.entry(pos.turn);
        replies.clear();
        rules.gen_steps(
            &pos,
            entry.owner,
            entry.move_type,
            crate::def::NONE,
            &mut scratch,
            &mut replies,
        );
        crate::engine::revert(&mut pos, &mut log);
        if replies.cut.is_some() {
            return replies.cut;
        }
    }
    None
}

/// Describes a resolved game: players, board, pieces, options, goals.
pub fn describe(def: &GameDef) -> String {
    describe_rules(&crate::engine::Rules::new(def.clone()))
}

/// [`describe`] for rules already built.
pub fn describe_rules(rules: &crate::engine::Rules) -> String {
    let def = &rules.def;
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "title: {}", def.title);
    let players: Vec<String> = def
        .players
        .iter()
        .map(|p| {
            if p.random {
                format!("?{}", p.name)
            } else {
                p.name.clone()
            }
        })
        .collect();
    let _ = writeln!(w, "players: {}", players.join(", "));
    let entry = |e: &TurnEntry| {
        let mut s = def.players[e.mover.idx()].name.clone();
        if e.owner != e.mover {
            s += &format!(" moving {}", def.players[e.owner.idx()].name);
        }
        if let Some(t) = e.move_type {
            s += &format!(" ({})", def.move_types[t.idx()]);
        }
        s
    };
    let once: Vec<String> = def.turn_order.once.iter().map(entry).collect();
    let cycle: Vec<String> = def.turn_order.cycle.iter().map(entry).collect();
    if once.is_empty() {
        let _ = writeln!(w, "turn order: {}", cycle.join(", "));
    } else {
        let _ = writeln!(
            w,
            "turn order: {}, then repeat {}",
            once.join(", "),
            cycle.join(", ")
        );
    }
    let b = &def.board;
    let dummies = b.positions.iter().filter(|p| p.dummy).count();
    let _ = write!(w, "board: {} positions", b.n_pos());
    if dummies > 0 {
        let _ = write!(w, " ({dummies} dummy)");
    }
    let _ = writeln!(w, ", {} grid(s)", b.grids.len());
    let dirs: Vec<String> = b
        .directions
        .iter()
        .enumerate()
        .map(|(i, d)| match b.opposite[i] {
            Some(o) => format!("{d}/{}", b.directions[o.idx()]),
            None => d.clone(),
        })
        .collect();
    let _ = writeln!(w, "directions (with opposites): {}", dirs.join(" "));
    for z in &b.zones {
        let per: Vec<String> = z
            .positions
            .iter()
            .enumerate()
            .filter(|(_, ps)| !ps.is_empty())
            .map(|(p, ps)| format!("{} {}", def.players[p].name, ps.len()))
            .collect();
        let _ = writeln!(w, "zone {}: {}", z.name, per.join(", "));
    }
    let _ = writeln!(w, "pieces:");
    for p in &def.pieces {
        let mut types: Vec<String> = Vec::new();
        for blk in &p.moves {
            let t = blk
                .move_type
                .map_or("untyped".to_string(), |t| def.move_types[t.idx()].clone());
            if !types.contains(&t) {
                types.push(t);
            }
        }
        let drops = if p.drops.is_empty() {
            String::new()
        } else {
            format!(", {} drop block(s)", p.drops.len())
        };
        let letter = p
            .notation
            .as_ref()
            .map(|n| format!(" [{n}]"))
            .unwrap_or_default();
        let dummy = if p.dummy { " (dummy)" } else { "" };
        let _ = writeln!(
            w,
            "  {}{letter}{dummy}: {} move block(s) of type {}{drops}",
            p.name,
            p.moves.len(),
            if types.is_empty() {
                "-".into()
            } else {
                types.join(", ")
            }
        );
    }
    if rules.attacks.capped {
        let _ = writeln!(
            w,
            "warning: the attack tables of this game would take over {} MB; `attacked?` and \
             royal safety run the move programs instead (slower, same answers)",
            crate::engine::attack::MAX_BYTES >> 20
        );
    }
    let ev = crate::ai::eval::Evaluator::new(rules);
    let values = &ev.values;
    if !values.is_empty() {
        let _ = writeln!(w, "piece values (computer player):");
        if ev.coarse {
            let _ = writeln!(
                w,
                "  warning: the game is too large for square tables (players x types x squares \
                 over {}, their moves over {}, or deriving them over {} program steps); values \
                 are estimated on a sample of squares",
                crate::ai::eval::FINE_CELLS,
                crate::ai::eval::FINE_EDGES,
                crate::ai::eval::FINE_WORK
            );
        }
        let width = values
            .iter()
            .map(|v| v.name.chars().count())
            .max()
            .unwrap_or(0);
        for v in values {
            let how = if v.given { "given" } else { "derived" };
            let _ = writeln!(
                w,
                "  {}  value {:.2} ({how})",
                pad_end(&v.name, width),
                v.value
            );
        }
    }
    let on_board = def.setup.placements.len();
    let off: u32 = def.setup.off.iter().map(|o| o.count).sum();
    let _ = writeln!(
        w,
        "setup: {on_board} piece(s) on the board, {off} off the board"
    );
    if !def.move_priorities.is_empty() {
        let names: Vec<&str> = def
            .move_priorities
            .iter()
            .map(|t| def.move_types[t.idx()].as_str())
            .collect();
        let _ = writeln!(w, "move priorities: {}", names.join(" > "));
    }
    if !def.options.all.is_empty() {
        let opts: Vec<String> = def
            .options
            .all
            .iter()
            .map(|(n, v)| format!("\"{n}\"={v}"))
            .collect();
        let _ = writeln!(w, "options: {}", opts.join(", "));
    }
    if let Some(scheme) = rules.royal_safety_scheme() {
        let _ = writeln!(w, "royal safety: {scheme}");
    }
    let _ = writeln!(w, "goals:");
    for g in &def.goals {
        let players: Vec<&str> = g
            .players
            .iter()
            .map(|p| def.players[p.idx()].name.as_str())
            .collect();
        let kind = match g.kind {
            GoalKind::Win => "win",
            GoalKind::Loss => "loss",
            GoalKind::Draw => "draw",
            GoalKind::Count => "count",
        };
        let _ = writeln!(
            w,
            "  {kind} for {}: {}",
            players.join(", "),
            goal_text(def, &g.cond)
        );
    }
    out
}

fn goal_text(def: &GameDef, c: &GoalCond) -> String {
    let names = |ps: &[PieceId]| -> String {
        ps.iter()
            .map(|p| def.pieces[p.idx()].name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let opt_names = |ps: &[PieceId]| {
        if ps.is_empty() {
            String::new()
        } else {
            format!(" {}", names(ps))
        }
    };
    match c {
        GoalCond::Const(b) => b.to_string(),
        GoalCond::Compare(..) => "a counter comparison".into(),
        GoalCond::Not(x) => format!("not {}", goal_text(def, x)),
        GoalCond::And(xs) => xs
            .iter()
            .map(|x| goal_text(def, x))
            .collect::<Vec<_>>()
            .join(" and "),
        GoalCond::Or(xs) => xs
            .iter()
            .map(|x| goal_text(def, x))
            .collect::<Vec<_>>()
            .join(" or "),
        GoalCond::Stalemated => "stalemated".into(),
        GoalCond::Checkmated(ps) => format!("checkmated {}", names(ps)),
        GoalCond::Repetition => "repetition".into(),
        GoalCond::OnlyPieces(sets) => format!(
            "only-pieces {}",
            sets.iter()
                .map(|s| format!("({})", names(s)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        GoalCond::PiecesRemaining(n, ps) => format!("pieces-remaining {n}{}", opt_names(ps)),
        GoalCond::TotalPieceCount(n, ps) => format!("total-piece-count {n}{}", opt_names(ps)),
        GoalCond::Captured(ps) => format!("captured {}", names(ps)),
        GoalCond::AbsoluteConfig {
            spec,
            positions,
            zones,
        } => format!(
            "absolute-config {}{} on {} position(s), {} zone(s)",
            if spec.negated { "not " } else { "" },
            names(&spec.pieces),
            positions.len(),
            zones.len()
        ),
        GoalCond::RelativeConfig { pieces, dirs } => format!(
            "relative-config of {} pieces along {} steps",
            pieces.len(),
            dirs.len()
        ),
    }
}

/// `text` followed by spaces up to `width` characters. Unlike `{:<width$}`, which panics when
/// the width does not fit in 16 bits, any width is safe.
pub(crate) fn pad_end(text: &str, width: usize) -> String {
    let n = text.chars().count();
    let mut out = String::with_capacity(text.len() + width.saturating_sub(n));
    out.push_str(text);
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(n)));
    out
}

/// Spaces up to `width` characters, then `text` (`{:>width$}` without its width limit).
pub(crate) fn pad_start(text: &str, width: usize) -> String {
    let n = text.chars().count();
    let mut out: String = std::iter::repeat_n(' ', width.saturating_sub(n)).collect();
    out.push_str(text);
    out
}
