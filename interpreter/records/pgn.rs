//! PGN (Portable Game Notation), as chess programs, lichess and Fairy-Stockfish's tools write
//! it: the seven-tag roster, `[Variant]`, `[FEN]` with `[SetUp "1"]`, then moves in SAN
//! (see `san.rs`). Described in `docs/game-records.md`.

use super::movetext;
use super::native::Record;
use super::{fold, Export, Result2};

/// The result tokens of PGN.
pub const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "*"];

/// Variant names as Fairy-Stockfish and lichess write them, with the shipped rules file and
/// the title of its game or variant they mean.
pub const VARIANTS: &[(&str, &str, &str)] = &[
    ("Standard", "chess.zrf", "Chess"),
    ("Chess", "chess.zrf", "Chess"),
    ("From Position", "chess.zrf", "Chess"),
    ("Crazyhouse", "chess.zrf", "Crazyhouse"),
    ("Loop", "chess.zrf", "Loop"),
    ("Chessgi", "chess.zrf", "Chessgi"),
    ("Halfgi", "halfgi.zrf", "Halfgi"),
    ("Half Chess", "halfgi.zrf", "Half Chess"),
    ("Capablanca", "capablanca.zrf", "Capablanca Chess"),
];

/// The shipped rules file and title a `[Variant]` names (any case; spaces and hyphens
/// ignored), `None` for a name the table does not know.
pub fn variant(name: &str) -> Option<(&'static str, &'static str)> {
    let want = fold(name);
    VARIANTS
        .iter()
        .find(|(n, _, _)| fold(n) == want)
        .map(|&(_, file, title)| (file, title))
}

/// Reads every game of a PGN file.
pub fn parse(text: &str) -> Result<Vec<Record>, super::RecordError> {
    movetext::parse(text, RESULTS)
}

/// The result token of a game.
pub fn result_token(r: Option<Result2>) -> &'static str {
    match r {
        Some(Result2::First) => "1-0",
        Some(Result2::Second) => "0-1",
        Some(Result2::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// Writes one game: the seven-tag roster (unknown values as `?`), `Variant` unless the game
/// is orthodox chess (by the name lichess uses where the table has one), `SetUp` and `FEN`
/// after a setup, zrf's own `Game` tag naming the rules file, then the moves in SAN.
pub fn write(g: &Export) -> String {
    let date = g
        .date
        .as_deref()
        .map_or("????.??.??".to_string(), |d| d.replace('-', "."));
    let result = result_token(g.result);
    let name = |i: usize| g.players.get(i).cloned().unwrap_or_else(|| "?".into());
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", "zrf game".into()),
        ("Site", "?".into()),
        ("Date", date),
        ("Round", "-".into()),
        ("White", name(0)),
        ("Black", name(1)),
        ("Result", result.into()),
    ];
    let lichess = VARIANTS
        .iter()
        .find(|(_, _, title)| fold(title) == fold(&g.title))
        .map(|(n, _, _)| *n);
    if fold(&g.title) != fold("Chess") {
        tags.push(("Variant", lichess.unwrap_or(&g.title).to_string()));
    }
    if let Some(s) = &g.setup {
        tags.push(("SetUp", "1".into()));
        tags.push(("FEN", s.clone()));
    }
    tags.push(("Game", g.rules_path.clone()));
    movetext::write_record(&tags, &g.moves, g.first_number, g.second_first, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_map_to_shipped_games() {
        assert_eq!(variant("crazyhouse"), Some(("chess.zrf", "Crazyhouse")));
        assert_eq!(variant("From Position"), Some(("chess.zrf", "Chess")));
        assert_eq!(variant("halfchess"), Some(("halfgi.zrf", "Half Chess")));
        assert_eq!(variant("Atomic"), None);
    }

    #[test]
    fn writes_the_seven_tag_roster_first() {
        let g = Export {
            rules_path: "games/chess.zrf".into(),
            title: "Crazyhouse".into(),
            date: Some("2025-01-31".into()),
            players: vec!["White".into(), "Black".into()],
            result: Some(Result2::Second),
            moves: vec!["e4".into(), "e5".into()],
            first_number: 1,
            ..Export::default()
        };
        let text = write(&g);
        let tags: Vec<&str> = text.lines().take(8).collect();
        assert_eq!(
            tags,
            [
                "[Event \"zrf game\"]",
                "[Site \"?\"]",
                "[Date \"2025.01.31\"]",
                "[Round \"-\"]",
                "[White \"White\"]",
                "[Black \"Black\"]",
                "[Result \"0-1\"]",
                "[Variant \"Crazyhouse\"]",
            ]
        );
        assert!(text.ends_with("\n\n1. e4 e5 0-1\n"), "{text}");
        let back = parse(&text).unwrap();
        assert_eq!(back[0].moves, ["e4", "e5"]);
    }
}
