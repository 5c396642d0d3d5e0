//! The language's keywords by where they are written: the one table that the reader's and the
//! resolver's "expected one of" messages and suggestions read, and that editors complete from.

/// Where a keyword is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// The top level of a file.
    TopLevel,
    /// A form of `(game ...)` (and of `(variant ...)`, which may refine any of them).
    Game,
    /// A form of a game that only changes its presentation: accepted and ignored.
    Presentation,
    /// A form of `(variant ...)` alone.
    Variant,
    /// A form of `(board ...)`.
    Board,
    /// A form of `(grid ...)`.
    Grid,
    /// A form of `(zone ...)`.
    Zone,
    /// A form of `(piece ...)`.
    Piece,
    /// A word of `(turn-order ...)`.
    TurnOrder,
    /// A criterion of `(capture-precedence ...)`.
    CapturePrecedence,
    /// An instruction of a move or drop block written as a list, `(verify empty?)`.
    Instruction,
    /// An instruction of a move or drop block written as a bare word, `add`.
    BareInstruction,
    /// A condition of a move or drop block (each also with a `not-` prefix).
    Condition,
    /// A word of a block's structure: `(move-type NAME)`, `else` in `(if ...)`.
    Block,
    /// Logic in conditions and goals.
    Logic,
    /// A condition of `win-condition`, `loss-condition`, `draw-condition` or
    /// `count-condition`.
    Goal,
}

/// The forms of the top level.
pub const TOP_LEVEL: &[&str] = &["game", "variant", "define", "include", "version"];

/// Game-level forms that the game reads.
pub const GAME: &[&str] = &[
    "title",
    "description",
    "history",
    "strategy",
    "players",
    "turn-order",
    "move-priorities",
    "board",
    "board-setup",
    "piece",
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
    "option",
    "engine",
    "capture-precedence",
    "counter",
    "after-move",
];

/// Game-level forms that only affect presentation.
pub const PRESENTATION: &[&str] = &[
    "move-sound",
    "capture-sound",
    "drop-sound",
    "release-sound",
    "click-sound",
    "change-sound",
    "win-sound",
    "loss-sound",
    "draw-sound",
    "opening-sound",
    "music",
    "open",
    "solution",
    "translate",
    "notation",
    "version",
    "image",
    "help",
];

/// A variant's own forms.
pub const VARIANT: &[&str] = &["default"];

/// Forms of `(board ...)`.
pub const BOARD: &[&str] = &[
    "grid",
    "positions",
    "links",
    "unlink",
    "kill-positions",
    "dummy",
    "symmetry",
    "zone",
    "image",
    "numbering",
];

/// Forms of `(grid ...)`.
pub const GRID: &[&str] = &["start-rectangle", "dimensions", "directions"];

/// Forms of `(zone ...)`.
pub const ZONE: &[&str] = &["name", "players", "positions"];

/// Forms of `(piece ...)`.
pub const PIECE: &[&str] = &[
    "name",
    "help",
    "description",
    "notation",
    "image",
    "attribute",
    "moves",
    "drops",
    "dummy",
    "captured-as",
    "value",
];

/// Words of `(turn-order ...)`.
pub const TURN_ORDER: &[&str] = &["repeat"];

/// Criteria of `(capture-precedence ...)`.
pub const CAPTURE_PRECEDENCE: &[&str] = &[
    "most-captured",
    "most-value",
    "most-captured-of",
    "moved-by",
];

/// Instructions written as bare symbols.
pub const BARE_INSTRUCTIONS: &[&str] = &[
    "mark",
    "back",
    "from",
    "to",
    "cascade",
    "capture",
    "flip",
    "change-owner",
    "add",
    "add-copy",
    "add-partial",
    "add-copy-partial",
];

/// Instructions written as lists.
pub const INSTRUCTIONS: &[&str] = &[
    "verify",
    "if",
    "while",
    "opposite",
    "go",
    "capture",
    "flip",
    "change-owner",
    "change-type",
    "create",
    "set-attribute",
    "set-flag",
    "set-position-flag",
    "add",
    "add-copy",
    "add-partial",
    "add-copy-partial",
    "mark",
    "back",
    "from",
    "to",
    "cascade",
];

/// Conditions of move and drop blocks (all also take a `not-` prefix).
pub const CONDITIONS: &[&str] = &[
    "empty?",
    "friend?",
    "enemy?",
    "neutral?",
    "piece?",
    "on-board?",
    "in-zone?",
    "last-from?",
    "last-to?",
    "marked?",
    "position?",
    "flag?",
    "position-flag?",
    "attacked?",
    "defended?",
    "adjacent-to-enemy?",
    "goal-position?",
];

/// Words of a block's structure.
pub const BLOCK: &[&str] = &["move-type", "else"];

/// Logic in conditions and goals.
pub const LOGIC: &[&str] = &["and", "or", "not", "true", "false"];

/// Goal conditions.
pub const GOAL: &[&str] = &[
    "stalemated",
    "checkmated",
    "repetition",
    "only-pieces",
    "pieces-remaining",
    "total-piece-count",
    "captured",
    "absolute-config",
    "relative-config",
    "and",
    "or",
    "not",
];

/// Every keyword list with its context.
pub const TABLE: &[(Context, &[&str])] = &[
    (Context::TopLevel, TOP_LEVEL),
    (Context::Game, GAME),
    (Context::Presentation, PRESENTATION),
    (Context::Variant, VARIANT),
    (Context::Board, BOARD),
    (Context::Grid, GRID),
    (Context::Zone, ZONE),
    (Context::Piece, PIECE),
    (Context::TurnOrder, TURN_ORDER),
    (Context::CapturePrecedence, CAPTURE_PRECEDENCE),
    (Context::Instruction, INSTRUCTIONS),
    (Context::BareInstruction, BARE_INSTRUCTIONS),
    (Context::Condition, CONDITIONS),
    (Context::Block, BLOCK),
    (Context::Logic, LOGIC),
    (Context::Goal, GOAL),
];

/// The keywords of one context.
pub fn of(context: Context) -> &'static [&'static str] {
    (TABLE.iter())
        .find(|(c, _)| *c == context)
        .map_or(&[], |(_, words)| words)
}

/// The contexts of the forms written directly inside a form whose head is `head` (`""`: the
/// top level), outside move programs.
pub fn inside(head: &str) -> &'static [Context] {
    match head {
        "" => &[Context::TopLevel],
        "game" => &[Context::Game, Context::Presentation],
        "variant" => &[Context::Game, Context::Presentation, Context::Variant],
        "board" => &[Context::Board],
        "grid" => &[Context::Grid],
        "zone" => &[Context::Zone],
        "piece" => &[Context::Piece],
        "turn-order" => &[Context::TurnOrder],
        "capture-precedence" => &[Context::CapturePrecedence],
        _ => &[],
    }
}

/// The contexts of the words of a move or drop block.
pub const PROGRAM: &[Context] = &[
    Context::Instruction,
    Context::BareInstruction,
    Context::Condition,
    Context::Block,
    Context::Logic,
];

/// The keywords of some contexts, each once (at its first context), in the table's order;
/// with `negated`, each condition's `not-` form after the conditions.
pub fn words(contexts: &[Context], negated: bool) -> Vec<(String, Context)> {
    let mut out: Vec<(String, Context)> = Vec::new();
    for &c in contexts {
        let mut add = |w: String| {
            if !out.iter().any(|(v, _)| *v == w) {
                out.push((w, c));
            }
        };
        for w in of(c) {
            add(w.to_string());
        }
        if negated && c == Context::Condition {
            for w in of(c) {
                add(format!("not-{w}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_context_has_its_list_once() {
        for (i, (c, words)) in TABLE.iter().enumerate() {
            assert!(!words.is_empty(), "{c:?}");
            assert!(TABLE[i + 1..].iter().all(|(d, _)| d != c), "{c:?} twice");
        }
        let variant = words(inside("variant"), false);
        assert!(variant
            .iter()
            .any(|(w, c)| w == "default" && *c == Context::Variant));
        assert!(variant
            .iter()
            .any(|(w, c)| w == "board" && *c == Context::Game));
        let program = words(PROGRAM, true);
        // `capture` is both a bare and a list instruction: listed once, at its first context.
        assert_eq!(program.iter().filter(|(w, _)| w == "capture").count(), 1);
        assert!(program
            .iter()
            .any(|(w, c)| w == "not-empty?" && *c == Context::Condition));
    }
}
