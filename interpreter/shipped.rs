//! The games zrf ships (`games/*.zrf`), embedded so that the engine protocols (and other
//! front ends) can offer them by name without a file on disk.

/// Every shipped rules file by its file name, chess first.
pub const GAMES: &[(&str, &str)] = &[
    ("chess.zrf", include_str!("../games/chess.zrf")),
    ("halfgi.zrf", include_str!("../games/halfgi.zrf")),
    ("capablanca.zrf", include_str!("../games/capablanca.zrf")),
    ("checkers.zrf", include_str!("../games/checkers.zrf")),
    (
        "english-draughts.zrf",
        include_str!("../games/english-draughts.zrf"),
    ),
    (
        "english-long-checkers.zrf",
        include_str!("../games/english-long-checkers.zrf"),
    ),
    (
        "international-draughts.zrf",
        include_str!("../games/international-draughts.zrf"),
    ),
    (
        "frisian-draughts.zrf",
        include_str!("../games/frisian-draughts.zrf"),
    ),
    (
        "frisian-draughts-2.zrf",
        include_str!("../games/frisian-draughts-2.zrf"),
    ),
    (
        "russian-draughts.zrf",
        include_str!("../games/russian-draughts.zrf"),
    ),
    (
        "polish-draughts.zrf",
        include_str!("../games/polish-draughts.zrf"),
    ),
    (
        "haft-draughts.zrf",
        include_str!("../games/haft-draughts.zrf"),
    ),
    ("tic-tac-toe.zrf", include_str!("../games/tic-tac-toe.zrf")),
];
