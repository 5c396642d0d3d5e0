//! The commands a page posts to its game (`POST /api/games/ID`), as a JSON object whose
//! `cmd` names the command and whose other fields are its arguments.

use serde::Deserialize;
use serde_json::Value;

/// One command to a game.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "cmd", rename_all = "lowercase")]
pub enum Command {
    /// The current state, changing nothing.
    State,
    /// Stop the computer's search.
    Stop,
    /// Play a move given as text.
    Move {
        /// The move's text.
        #[serde(rename = "move")]
        text: String,
    },
    /// Take back a move (and the computer's and random players' replies).
    Undo,
    /// Replay a move taken back.
    Redo,
    /// A new game from the start.
    New,
    /// A new game from a position (FEN, PDN FEN or zrf's text).
    Setup {
        /// The position, one line.
        position: String,
    },
    /// The computer player's setting (`alphabeta depth 4`, `mcts time 1s`).
    Engine {
        /// The setting, one line.
        setting: String,
    },
    /// Which sides the computer plays, one boolean per player.
    Computer {
        /// One per player.
        sides: Vec<bool>,
    },
    /// Play another variant of the rules file, from its start.
    Variant {
        /// The variant's title or number.
        variant: String,
    },
    /// Write the game as a record, kept for the page to download.
    Save {
        /// The record's format.
        format: RecordFormat,
    },
    /// Replay a record the page uploaded.
    Load {
        /// The record's file name (its extension says the format).
        name: String,
        /// The record's text.
        record: String,
    },
}

/// A record format the page can save in.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    /// zrf's own `.game`.
    Game,
    /// PGN.
    Pgn,
    /// PDN.
    Pdn,
    /// A Zillions saved game.
    Zsg,
}

impl RecordFormat {
    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Game => "game",
            RecordFormat::Pgn => "pgn",
            RecordFormat::Pdn => "pdn",
            RecordFormat::Zsg => "zsg",
        }
    }
}

impl Command {
    /// Reads a command from a request's JSON body; a bad one is refused with serde's reason
    /// (an unknown command, a missing or mistyped field).
    pub fn from_body(body: Value) -> Result<Command, String> {
        serde_json::from_value(body).map_err(|e| format!("bad command: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn commands_are_read_by_their_tag() {
        let read = |v: Value| Command::from_body(v);
        assert_eq!(read(json!({"cmd": "undo"})), Ok(Command::Undo));
        assert_eq!(
            read(json!({"cmd": "move", "move": "e2-e4"})),
            Ok(Command::Move {
                text: "e2-e4".into()
            })
        );
        assert_eq!(
            read(json!({"cmd": "save", "format": "pgn"})),
            Ok(Command::Save {
                format: RecordFormat::Pgn
            })
        );
        assert_eq!(
            read(json!({"cmd": "computer", "sides": [true, false]})),
            Ok(Command::Computer {
                sides: vec![true, false]
            })
        );
        for bad in [
            json!({"cmd": "fly"}),
            json!({"cmd": "move"}),
            json!({"cmd": "move", "move": 3}),
            json!({"cmd": "save", "format": "doc"}),
            json!({"cmd": "computer", "sides": [1]}),
            json!({"nothing": 1}),
        ] {
            let e = read(bad.clone()).expect_err("refused");
            assert!(e.starts_with("bad command: "), "{bad} -> {e}");
        }
        let e = read(json!({"cmd": "fly"})).expect_err("refused");
        assert!(e.contains("unknown variant `fly`"), "{e}");
    }
}
