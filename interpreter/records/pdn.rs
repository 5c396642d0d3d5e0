//! PDN (Portable Draughts Notation), as lidraughts, pydraughts and Kingsrow-style programs
//! write it: PGN's tags and movetext with draughts moves (`32-28`, `19x30`, `28x19x10`), a
//! `[GameType]` tag naming the rules, a `[FEN]` tag in PDN FEN and the result tokens `2-0`,
//! `1-1`, `0-2` (or `1-0`, `1/2-1/2`, `0-1` in English checkers). Described in
//! `docs/game-records.md`.

use super::movetext;
use super::native::Record;
use super::{fold, Export, Result2};

/// Every result token PDN files use (`0-0`: both lose, read as the end of the game).
pub const RESULTS: &[&str] = &["2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0-0", "*"];

/// `[GameType]` numbers of the PDN standard with the shipped rules file and the title of its
/// game or variant they mean, and the colour that moves first (`W` or `B`).
pub const GAME_TYPES: &[(u32, &str, &str, char)] = &[
    (
        20,
        "international-draughts.zrf",
        "International Draughts",
        'W',
    ),
    (21, "english-draughts.zrf", "English Draughts (1902)", 'B'),
    (25, "russian-draughts.zrf", "Russian Draughts", 'W'),
    (26, "international-draughts.zrf", "Brazilian", 'W'),
    (40, "frisian-draughts.zrf", "Frisian Draughts", 'W'),
];

/// The game type number of a `[GameType]` value (`20`, `20,W,10,10,N2,0`).
pub fn game_type_number(value: &str) -> Option<u32> {
    value.split(',').next()?.trim().parse().ok()
}

/// The shipped rules file and title a `[GameType]` value names.
pub fn game_type(value: &str) -> Option<(&'static str, &'static str)> {
    let n = game_type_number(value)?;
    GAME_TYPES
        .iter()
        .find(|g| g.0 == n)
        .map(|&(_, file, title, _)| (file, title))
}

/// The game type of a title of a game or variant, if the table has it.
pub fn game_type_of(title: &str) -> Option<(u32, char)> {
    GAME_TYPES
        .iter()
        .find(|g| fold(g.2) == fold(title))
        .map(|g| (g.0, g.3))
}

/// Reads every game of a PDN file.
pub fn parse(text: &str) -> Result<Vec<Record>, super::RecordError> {
    movetext::parse(text, RESULTS)
}

/// The result token: PGN's for English checkers (21), else `2-0`, `1-1`, `0-2`; the first
/// number is the score of the player who moves first in the rules.
pub fn result_token(game_type: Option<u32>, r: Option<Result2>) -> &'static str {
    let pgn_like = matches!(game_type, Some(21 | 23));
    match (r, pgn_like) {
        (None, _) => "*",
        (Some(Result2::First), true) => "1-0",
        (Some(Result2::Second), true) => "0-1",
        (Some(Result2::Draw), true) => "1/2-1/2",
        (Some(Result2::First), false) => "2-0",
        (Some(Result2::Second), false) => "0-2",
        (Some(Result2::Draw), false) => "1-1",
    }
}

/// Writes one game: `Event`, `Date`, `White`, `Black`, `Result`, `GameType` when the table
/// knows the game, `FEN` after a setup, zrf's own `Game` tag, then the moves.
pub fn write(g: &Export) -> String {
    let ty = game_type_of(&g.title);
    let result = result_token(ty.map(|t| t.0), g.result);
    let name = |i: usize| g.players.get(i).cloned().unwrap_or_else(|| "?".into());
    // The tags name the colours; the first player is Black when the game type says so.
    let (white, black) = match ty {
        Some((_, 'B')) => (name(1), name(0)),
        _ => (name(0), name(1)),
    };
    let date = g
        .date
        .as_deref()
        .map_or("????.??.??".to_string(), |d| d.replace('-', "."));
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", "zrf game".into()),
        ("Date", date),
        ("White", white),
        ("Black", black),
        ("Result", result.into()),
    ];
    if let Some((n, _)) = ty {
        tags.push(("GameType", n.to_string()));
    }
    if let Some(s) = &g.setup {
        tags.push(("FEN", s.clone()));
    }
    tags.push(("Game", g.rules_path.clone()));
    tags.push(("Variant", g.title.clone()));
    movetext::write_record(&tags, &g.moves, g.first_number, g.second_first, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_types_with_and_without_details() {
        assert_eq!(game_type("20,W,10,10,N2,0"), game_type("20"));
        assert_eq!(game_type("25").map(|g| g.1), Some("Russian Draughts"));
        assert_eq!(game_type("99"), None);
        assert_eq!(game_type("x"), None);
    }

    #[test]
    fn reads_multi_captures_results_and_several_games() {
        let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n\
                    [GameType \"20\"]\n[FEN \"W:W28:B19,10\"]\n1. 28x19x10 *\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(games[0].get("Result"), Some("2-0"));
        assert_eq!(games[1].get("FEN"), Some("W:W28:B19,10"));
        assert_eq!(games[1].moves, ["28x19x10"]);
    }

    #[test]
    fn english_results_are_written_as_in_pgn() {
        assert_eq!(result_token(Some(21), Some(Result2::First)), "1-0");
        assert_eq!(result_token(Some(20), Some(Result2::Draw)), "1-1");
        assert_eq!(result_token(None, None), "*");
    }
}
