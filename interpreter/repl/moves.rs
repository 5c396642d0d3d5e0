//! Moves typed and listed: a line of moves played all or nothing, a lone square or the start
//! of a move read as the move it names, a bad move explained, `moves`, `undo`/`redo` and
//! `perft`/`divide`.

use std::fmt::Write;

use super::{command_names, wrap, Output, Session};
use crate::notation::{self, MoveError};

/// Move text without separators, in lower case (as `notation` compares typed moves).
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | 'x' | 'X' | '=' | ':' | ' ' | '@'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The parts of a move's text that look like squares: letters then digits (`e2`, `11`), after
/// splitting at separators, so `e2e4` gives `e2` and `e4`.
fn square_tokens(input: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in input.split(['-', ':', '@', '=', ' ']) {
        let b = part.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            let digits = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i > digits {
                out.push(&part[start..i]);
            } else if i == start {
                i += 1;
            }
        }
    }
    out
}

impl Session {
    /// One move, or several separated by spaces; all or nothing.
    pub(super) fn moves_line(&mut self, line: &str) -> Output {
        let words: Vec<&str> = line.split_whitespace().collect();
        let redo = self.game.redo_stack();
        let mut played = 0;
        for w in &words {
            match self.play_one(w) {
                Ok(_) => played += 1,
                Err(e) => {
                    // A word that is no move and looks like a mistyped command.
                    if played == 0 && words.len() == 1 && !self.looks_like_move(w) {
                        return self.unknown_command(w);
                    }
                    let mut msg = self.explain(w, e);
                    if played > 0 {
                        let all = self.game.played();
                        let before = all[all.len() - played..].join(" ");
                        msg += &format!(" (after {before}); nothing on the line was played");
                    }
                    for _ in 0..played {
                        self.game.undo();
                    }
                    self.game.set_redo_stack(redo);
                    return self.error(msg);
                }
            }
        }
        let replies = self.auto_replies();
        Output::text(format!("{replies}{}", self.show()))
    }

    /// Plays a move; a lone square names the one legal move that ends there (a drop in
    /// tic-tac-toe, say).
    pub(super) fn play_one(&mut self, w: &str) -> Result<String, MoveError> {
        let e = match self.game.play(w) {
            Ok(m) => return Ok(m),
            Err(e) => e,
        };
        // In algebraic notation a lone square is a pawn's move, which SAN has read already.
        if self.game.outcome().is_some()
            || matches!(e, MoveError::Ambiguous(_))
            || self.game.has_san
        {
            return Err(e);
        }
        let list = self.game.legal().clone();
        let def = &self.game.rules.def;
        let texts = notation::move_texts(def, &list);
        let Some(sq) = (0..def.board.n_pos() as u16)
            .find(|&q| notation::square(def, q).eq_ignore_ascii_case(w))
        else {
            // The start of several moves (`a7a8` for the promotions) is ambiguous.
            let want = squash(w);
            let starting: Vec<String> = texts
                .iter()
                .filter(|t| want.len() >= 2 && squash(t).starts_with(&want))
                .cloned()
                .collect();
            return Err(if starting.len() > 1 {
                MoveError::Ambiguous(starting)
            } else {
                e
            });
        };
        let ending: Vec<String> = list
            .moves
            .iter()
            .zip(texts)
            .filter(|(m, _)| !m.pass && list.path(m).last() == Some(&sq))
            .map(|(_, t)| t)
            .collect();
        match ending.len() {
            1 => self.game.play(&ending[0]),
            0 => Err(e),
            _ => Err(MoveError::Ambiguous(ending)),
        }
    }

    fn looks_like_move(&self, w: &str) -> bool {
        w.eq_ignore_ascii_case("pass")
            || w.chars()
                .any(|c| c.is_ascii_digit() || c == '@' || c == '-')
    }

    fn unknown_command(&self, w: &str) -> Output {
        let names: Vec<&str> = command_names().chain(["exit"]).collect();
        let hint = crate::diagnostic::nearest(w, names.iter().copied())
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_default();
        self.error(format!(
            "`{w}` is neither a command nor a move{hint} (`help` lists the commands)"
        ))
    }

    /// A bad move's error, with what the square named first holds and can do.
    pub(super) fn explain(&mut self, input: &str, e: MoveError) -> String {
        let msg = match &e {
            MoveError::Ambiguous(c) => {
                return format!("`{input}` is ambiguous: it could be {}", c.join(", "))
            }
            MoveError::Illegal(m) => m.clone(),
        };
        if self.game.outcome().is_some() {
            return format!("{msg} (`undo` takes moves back, `new` starts again)");
        }
        if self.game.has_san && crate::san::looks_like_san(input) {
            return msg;
        }
        let def = &self.game.rules.def;
        let square_of = |text: &str| {
            (0..def.board.n_pos() as u16)
                .find(|&sq| notation::square(def, sq).eq_ignore_ascii_case(text))
        };
        let mut squares = Vec::new();
        for token in square_tokens(input) {
            match square_of(token) {
                Some(sq) => squares.push(sq),
                None => match token.strip_prefix(['x', 'X']).and_then(square_of) {
                    Some(sq) => squares.push(sq),
                    None => return format!("there is no square `{token}` on this board"),
                },
            }
        }
        let Some(&from) = squares.first() else {
            return msg;
        };
        if squares.len() == 1 && notation::square(def, from).eq_ignore_ascii_case(input.trim()) {
            return format!(
                "{msg}: no legal move ends on {}",
                notation::square(def, from)
            );
        }
        if input.contains('@') {
            return msg;
        }
        let list = self.game.legal().clone();
        let def = &self.game.rules.def;
        let cell = self.game.pos.cells[from as usize];
        let name = notation::square(def, from);
        let mover = self.game.rules.entry(self.game.pos.turn).owner;
        let extra = if cell.is_empty() {
            format!("there is no piece on {name}")
        } else {
            let piece = &def.pieces[cell.piece as usize - 1].name;
            if cell.owner != mover.0 {
                format!(
                    "the {piece} on {name} is {}'s",
                    def.players[cell.owner as usize].name
                )
            } else {
                let texts = notation::move_texts(def, &list);
                let from_here: Vec<String> = list
                    .moves
                    .iter()
                    .zip(&texts)
                    .filter(|(m, _)| !m.pass && m.drop == 0 && list.path(m)[0] == from)
                    .map(|(_, t)| t.clone())
                    .collect();
                let captures: Vec<&String> = list
                    .moves
                    .iter()
                    .zip(&texts)
                    .filter(|(m, _)| m.n_captures() > 0)
                    .map(|(_, t)| t)
                    .collect();
                if from_here.is_empty() && !captures.is_empty() && captures.len() == list.len() {
                    let c: Vec<&str> = captures.iter().map(|s| s.as_str()).collect();
                    format!(
                        "the {piece} on {name} has no legal move; a capture is compulsory: {}",
                        c.join(" ")
                    )
                } else if from_here.is_empty() {
                    format!("the {piece} on {name} has no legal move")
                } else {
                    format!("the {piece} on {name} can play {}", from_here.join(" "))
                }
            }
        };
        format!("{msg}: {extra}")
    }

    pub(super) fn moves(&mut self, arg: &str) -> Output {
        let san = match arg.to_lowercase().as_str() {
            "" => false,
            "san" if self.game.has_san => true,
            "san" => return self.error(crate::san::NOT_APPLICABLE),
            _ => return self.error(format!("`moves` takes nothing or `san`, not `{arg}`")),
        };
        if let Some(o) = self.game.outcome() {
            return Output::text(format!(
                "The game is over: {}.",
                o.describe(&self.game.rules.def)
            ));
        }
        let list = self.game.legal().clone();
        let texts = match self.game.legal_sans() {
            Some(t) if san => t,
            _ => notation::move_texts(&self.game.rules.def, &list),
        };
        let def = &self.game.rules.def;
        // Groups in order of first appearance: piece types, then drops, then pass.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for (m, t) in list.moves.iter().zip(texts) {
            let head = if m.pass {
                "pass".to_string()
            } else if m.drop != 0 {
                "drops".to_string()
            } else if m.piece == 0 {
                "other".to_string()
            } else {
                def.pieces[m.piece as usize - 1].name.clone()
            };
            match groups.iter_mut().find(|(h, _)| *h == head) {
                Some((_, v)) => v.push(t),
                None => groups.push((head, vec![t])),
            }
        }
        let key = |h: &str| match h {
            "drops" => def.pieces.len() + 1,
            "pass" => def.pieces.len() + 2,
            _ => def
                .pieces
                .iter()
                .position(|p| p.name == h)
                .unwrap_or(def.pieces.len()),
        };
        groups.sort_by_key(|(h, _)| key(h));
        let n = list.len();
        let mut out = format!("{n} legal move{}:\n", if n == 1 { "" } else { "s" });
        for (head, moves) in groups {
            if head == "pass" {
                out += "pass\n";
                continue;
            }
            out += &wrap(&format!("{head}:"), &moves, 78);
            out.push('\n');
        }
        Output::text(out)
    }

    fn count(&self, arg: &str, available: usize) -> Result<usize, String> {
        match arg {
            "" => Ok(1),
            "all" => Ok(available),
            n => n
                .parse::<usize>()
                .map_err(|_| format!("expected a number or `all`, found `{n}`")),
        }
    }

    pub(super) fn undo(&mut self, arg: &str) -> Output {
        let n = match self.count(arg, self.game.plies()) {
            Ok(n) => n,
            Err(e) => return self.error(e),
        };
        if self.game.plies() == 0 {
            return self.error("there is no move to take back");
        }
        let mut done = 0;
        while done < n && self.game.undo() {
            done += 1;
        }
        let what = if done == 1 {
            format!(
                "Took back {}.",
                self.game.redo_texts().last().map_or("", |s| s)
            )
        } else {
            format!("Took back {done} moves.")
        };
        Output::text(format!("{what}\n{}", self.show()))
    }

    pub(super) fn redo(&mut self, arg: &str) -> Output {
        let n = match self.count(arg, self.game.redo_len()) {
            Ok(n) => n,
            Err(e) => return self.error(e),
        };
        if self.game.redo_len() == 0 {
            return self.error("there is no move to redo");
        }
        let mut done = 0;
        while done < n && self.game.redo().is_some() {
            done += 1;
        }
        let what = if done == 1 {
            format!(
                "Played {} again.",
                self.game.last_played().unwrap_or_default()
            )
        } else {
            format!("Played {done} moves again.")
        };
        Output::text(format!("{what}\n{}", self.show()))
    }

    pub(super) fn perft(&mut self, which: &str, arg: &str) -> Output {
        let depth: u32 = match arg.parse() {
            Ok(d) => d,
            Err(_) => return self.error(format!("`{which}` needs a depth: {which} N")),
        };
        let g = &mut self.game;
        if which == "perft" {
            let n = g.rules.perft(&mut g.pos, depth);
            return Output::text(format!("perft {depth}: {n}"));
        }
        if depth == 0 {
            return Output::text("total 1");
        }
        let list = g.legal().clone();
        let texts = notation::move_texts(&g.rules.def, &list);
        let mut log = crate::engine::UndoLog::new();
        let mut out = String::new();
        let mut total = 0;
        for (i, t) in texts.iter().enumerate() {
            let m = list.moves[i];
            g.rules.make(&mut g.pos, &list, &m, &mut log);
            let n = g.rules.perft(&mut g.pos, depth - 1);
            crate::engine::revert(&mut g.pos, &mut log);
            total += n;
            let _ = writeln!(out, "{t} {n}");
        }
        let _ = write!(out, "total {total}");
        Output::text(out)
    }
}
