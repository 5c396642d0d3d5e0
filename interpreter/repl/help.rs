//! The commands' help (`help`, `help COMMAND`, the table of commands) and the rules' own
//! texts (`rules`: description, history, strategy, pieces), reflowed from ZoG's help text.

use std::fmt::Write;

use super::diagram::{self, ansi};
use super::{wrap, Output, Session};

/// A command: name, arguments, one-line summary, longer help.
struct Command {
    name: &'static str,
    args: &'static str,
    summary: &'static str,
    detail: &'static str,
}

const COMMANDS: &[Command] = &[
    Command {
        name: "moves",
        args: "[san]",
        summary: "list the legal moves, grouped by the piece that moves (`moves san`: in SAN)",
        detail: "Drops form their own group. Any of the moves may be typed as it is shown, or in\n\
                 the other forms zrf reads: e2e4, e7e8q, 29-9 for a whole capture chain, and in\n\
                 games whose pieces have letters, algebraic notation: Nf3, exd5, O-O, e8=Q, N@f3.",
    },
    Command {
        name: "undo",
        args: "[N|all]",
        summary: "take back the last move (or N moves, or all of them)",
        detail: "Moves taken back can be played again with `redo`, until another move is played.",
    },
    Command {
        name: "redo",
        args: "[N|all]",
        summary: "play again a move taken back (or N, or all)",
        detail: "",
    },
    Command {
        name: "new",
        args: "",
        summary: "start a new game from the rules' starting position",
        detail: "Forgets the moves and any position given with `setup`.",
    },
    Command {
        name: "board",
        args: "",
        summary: "show the board, whose turn it is and the state of the game",
        detail: "",
    },
    Command {
        name: "flip",
        args: "",
        summary: "turn the board round (and back): the other side at the bottom",
        detail: "",
    },
    Command {
        name: "setup",
        args: "POSITION",
        summary: "start from a position: FEN, PDN FEN or zrf's native text",
        detail: "Examples: `setup 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1`, `setup W:W31,32:B1,K7`,\n\
                 or the text that `position` prints. The moves so far are forgotten.",
    },
    Command {
        name: "position",
        args: "",
        summary: "print the position in zrf's native text (it reads back with `setup`)",
        detail: "",
    },
    Command {
        name: "fen",
        args: "",
        summary: "print the position as FEN (as PDN FEN on numbered draughts boards)",
        detail: "FEN needs a two-dimensional grid, two players and one-letter piece notations.\n\
                 Castling rights come from the attribute that kings and rooks share, en passant\n\
                 from a pawn's double step, the halfmove clock from a `halfmove-clock` counter.",
    },
    Command {
        name: "history",
        args: "",
        summary: "list the moves played, numbered",
        detail: "",
    },
    Command {
        name: "save",
        args: "FILE",
        summary: "save the game as a record: FILE.game, FILE.pgn, FILE.pdn or FILE.zsg",
        detail: "The format follows the file name: zrf's own record (any name but these), PGN\n\
                 with moves in SAN (chess-like games), PDN (draughts), or a Zillions of Games\n\
                 saved game (.zsg). See docs/game-records.md.",
    },
    Command {
        name: "load",
        args: "FILE [N]",
        summary: "load a record (.game, .pgn, .pdn, .zsg) and replay it; N: game N of a file",
        detail: "The record may name another rules file or variant; they are loaded too. A PGN or\n\
                 PDN record that names no rules file is played with these rules when they have\n\
                 its variant, else with the shipped game its [Variant] or [GameType] names.\n\
                 Zillions of Games saved games (.zsg) are read too. If a move of the record is\n\
                 not legal, nothing changes.",
    },
    Command {
        name: "perft",
        args: "N",
        summary: "count the move sequences of length N from here",
        detail: "",
    },
    Command {
        name: "divide",
        args: "N",
        summary: "perft N split by the first move",
        detail: "",
    },
    Command {
        name: "variant",
        args: "NAME|NUMBER",
        summary: "switch to another game or variant of the file (a new game)",
        detail: "",
    },
    Command {
        name: "variants",
        args: "",
        summary: "list the games and variants of the file",
        detail: "",
    },
    Command {
        name: "rules",
        args: "",
        summary: "describe the game: description, history, strategy and pieces",
        detail: "",
    },
    Command {
        name: "help",
        args: "[COMMAND]",
        summary: "list the commands, or explain one",
        detail: "",
    },
    Command {
        name: "ai",
        args: "[SETTING]",
        summary: "let the computer make the move for the side to play",
        detail: "It searches with the session's setting (see `engine`; one second of alpha-beta\n\
                 at first), or with SETTING for this move only, e.g. `ai depth 6`.",
    },
    Command {
        name: "go",
        args: "LIMITS",
        summary: "let the computer move, searching within these limits: go depth 6, go time 2s",
        detail: "Limits: `depth N`, `time T` (2s, 0.5s, 200ms), `nodes N`, in any combination;\n\
                 `mcts` or `alphabeta` picks the engine. They hold for this move only.",
    },
    Command {
        name: "analyse",
        args: "[LIMITS]",
        summary: "search without moving: the best line and its score, depth by depth",
        detail: "A progress line shows the search as it goes. Scores are from the point of view of\n\
                 the side to move: +1.00 is about a pawn (or a man) ahead; `win in 3` counts plies.\n\
                 `lines 3` shows the three best moves, each with its line and score, best first.\n\
                 Without limits, on a terminal, it searches until Ctrl-C (elsewhere it uses the\n\
                 `engine` setting); Ctrl-C stops the search and keeps what it found.",
    },
    Command {
        name: "engine",
        args: "[SETTING]",
        summary: "show or change the computer's setting: engine mcts time 2s, engine depth 5",
        detail: "The setting is used by `ai` and by the replies of `play-as`.\n\
                 `opponent random` plays for the best expected result against random replies\n\
                 where the rest of the game can be searched; `opponent best` (the default)\n\
                 assumes the best replies.",
    },
    Command {
        name: "play-as",
        args: "SIDE",
        summary: "let the computer play a side (or both, or none) and reply by itself",
        detail: "SIDE is a player, `both` or `none`. With a side, the computer answers each of\n\
                 your moves; with `both` it plays the game out (Ctrl-C stops it).",
    },
    Command {
        name: "quit",
        args: "",
        summary: "leave (also `exit`, or Ctrl-D)",
        detail: "",
    },
];

/// The names of the commands, for completion.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|c| c.name)
}

/// ZoG help text: a backslash ends a line; other line breaks and runs of spaces are one space.
fn reflow(text: &str) -> String {
    text.split('\\')
        .map(|part| part.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// Each line of a text wrapped at 78 columns.
fn paragraphs(text: &str) -> String {
    text.lines()
        .map(|l| {
            let indent = l.len() - l.trim_start().len();
            let words: Vec<String> = l.split_whitespace().map(String::from).collect();
            let head = " ".repeat(indent);
            let mut w = wrap(&head, &words, 78);
            if indent > 0 {
                w = w.replace("\n  ", &format!("\n{head}    "));
            } else {
                w = w.replace("\n  ", "\n");
            }
            w
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Session {
    pub(super) fn rules_text(&self) -> String {
        let def = &self.game.rules.def;
        let mut out = self.paint(ansi::BOLD, &def.title);
        out.push('\n');
        for (head, text) in [
            ("", &def.description),
            ("History: ", &def.history),
            ("Strategy: ", &def.strategy),
        ] {
            if !text.trim().is_empty() {
                let _ = writeln!(out, "\n{}", paragraphs(&format!("{head}{}", reflow(text))));
            }
        }
        let players: Vec<&str> = def.players.iter().map(|p| p.name.as_str()).collect();
        let _ = writeln!(out, "\nPlayers: {}", players.join(", "));
        out += "Pieces:";
        let letters = diagram::piece_letters(def);
        for (i, p) in def.pieces.iter().enumerate() {
            if p.dummy {
                continue;
            }
            let letter = &letters[i];
            let help = reflow(&p.help);
            let mut line = format!("  {letter} {}", p.name);
            if !help.is_empty() {
                line += ": ";
                line += help.trim_start_matches(&format!("{}: ", p.name));
            }
            let _ = write!(out, "\n{}", paragraphs(&line));
        }
        out
    }

    pub(super) fn help(&self, topic: &str) -> Output {
        if !topic.is_empty() {
            let t = topic.to_lowercase();
            let t = if t == "exit" { "quit".into() } else { t };
            return match COMMANDS.iter().find(|c| c.name == t) {
                Some(c) => {
                    let mut out = format!("{} {}\n  {}", c.name, c.args, c.summary);
                    if !c.detail.is_empty() {
                        out += "\n";
                        out += &c
                            .detail
                            .lines()
                            .map(|l| format!("  {l}\n"))
                            .collect::<String>();
                    }
                    Output::text(out.replace(&format!("{} \n", c.name), &format!("{}\n", c.name)))
                }
                None => {
                    let names: Vec<&str> = command_names().collect();
                    let hint = crate::diagnostic::nearest(&t, names.iter().copied())
                        .map(|n| format!("; did you mean `{n}`?"))
                        .unwrap_or_default();
                    self.error(format!("there is no command `{topic}`{hint}"))
                }
            };
        }
        let mut out = String::from(
            "Type a move to play it: e2-e4, e2e4, e7e8q, P@e4, 11-15, 11x18x25, pass.\n\
             Several moves on one line are played in turn. Commands:\n",
        );
        for c in COMMANDS {
            let usage = format!("{} {}", c.name, c.args);
            let _ = writeln!(out, "  {:<20} {}", usage.trim_end(), c.summary);
        }
        out += "`help COMMAND` tells more.";
        Output::text(out)
    }
}
