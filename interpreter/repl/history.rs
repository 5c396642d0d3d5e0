//! The game so far as text: moves numbered by rounds of the turn order, `history`, the result,
//! the native record, and `show` (the board with whose turn it is, the last move, the pieces in
//! hand and the counters).

use std::fmt::Write;

use super::diagram::{self, ansi};
use super::{relative_path, Files, Session};
use crate::notation;
use crate::records::native::{self as record, Record};

impl Session {
    /// The number of the round the next move belongs to.
    pub(super) fn number_of_next(&self) -> u32 {
        let g = &self.game;
        let mut n = self.first_number;
        for k in 1..g.turns.len() {
            if g.turns[k] <= g.turns[k - 1] {
                n += 1;
            }
        }
        if self.next_is_round_start() && !g.turns.is_empty() {
            n += 1;
        }
        n
    }

    /// Whether the next move starts a round (the turn index does not go up).
    pub(super) fn next_is_round_start(&self) -> bool {
        let g = &self.game;
        match g.turns.last() {
            Some(&t) => g.pos.turn <= t,
            None => !self.mid_round(g.pos.turn),
        }
    }

    /// Whether a turn index is not the first of its round.
    pub(super) fn mid_round(&self, turn: u32) -> bool {
        let once = self.game.rules.once as u32;
        turn > if turn < once { 0 } else { once }
    }

    /// The moves played, numbered by rounds of the turn order: `1. e2-e4 e7-e5`.
    fn numbered(&self, san: bool) -> Vec<String> {
        let g = &self.game;
        let mut lines: Vec<String> = Vec::new();
        let mut n = self.first_number;
        let moves = if san && g.has_san {
            g.sans()
        } else {
            g.played()
        };
        for (k, mv) in moves.iter().enumerate() {
            if k == 0 {
                let dots = if self.mid_round(g.turns[0]) {
                    "..."
                } else {
                    "."
                };
                lines.push(format!("{n}{dots} {mv}"));
            } else if g.turns[k] <= g.turns[k - 1] {
                n += 1;
                lines.push(format!("{n}. {mv}"));
            } else if let Some(l) = lines.last_mut() {
                l.push(' ');
                l.push_str(mv);
            }
        }
        lines
    }

    pub(super) fn history(&self) -> String {
        let lines = self.numbered(true);
        if lines.is_empty() {
            "No moves yet.".into()
        } else {
            lines.join("\n")
        }
    }

    /// The result once the game is over (`White wins (checkmated)`), else `None`.
    pub fn result(&mut self) -> Option<String> {
        let o = self.game.outcome()?;
        Some(o.describe(&self.game.rules.def))
    }

    /// The game record of the game so far, in the format `record_path` names, to be saved
    /// there: its `Game` header
    /// names the rules file relative to the record's folder when `files` can tell where both
    /// are ([`Files::absolute`]), else as the rules path was given.
    pub fn record_at(&mut self, record_path: &str, files: &dyn Files) -> Result<String, String> {
        let rules = files.absolute(&self.path);
        let record = files.absolute(record_path);
        let game = match (rules, record) {
            (Some(rules), Some(record)) => {
                let rules = std::path::Path::new(&rules);
                std::path::Path::new(&record)
                    .parent()
                    .and_then(|dir| relative_path(dir, rules))
                    .unwrap_or_else(|| rules.to_path_buf())
                    .to_string_lossy()
                    .into_owned()
            }
            _ => self.path.clone(),
        };
        let saved = std::mem::replace(&mut self.path, game);
        let text = self.record_as(record_path);
        self.path = saved;
        text
    }

    /// The game record of the game so far.
    pub fn record(&mut self) -> String {
        let result = self
            .result()
            .unwrap_or_else(|| record::UNFINISHED.to_string());
        let mut headers = vec![
            ("Game", self.path.clone()),
            ("Variant", self.title().to_string()),
        ];
        if let Some(s) = &self.setup {
            headers.push(("Setup", s.clone()));
        }
        if let Some(d) = &self.today {
            headers.push(("Date", d.clone()));
        }
        headers.push(("Result", result));
        Record::write(&headers, &self.numbered(false))
    }

    /// The board and the state of the game: whose turn, move number, last move, pieces in
    /// hand, counters, and the result once the game is over.
    pub fn show(&mut self) -> String {
        let mut out =
            diagram::diagram_turned(&self.game.rules, &self.game.pos, self.color, self.flipped);
        if let Some(cut) = self.game.take_cut() {
            let text = format!("warning: {} (said once per game)", cut.describe());
            let _ = writeln!(out, "{}", self.paint(ansi::BOLD, &text));
        }
        let outcome = self.game.outcome();
        let n = self.number_of_next();
        let g = &self.game;
        let def = &g.rules.def;
        match &outcome {
            Some(o) => {
                let text = format!("Game over: {}.", o.describe(def));
                let _ = writeln!(out, "{}", self.paint(ansi::BOLD, &text));
            }
            None if g.rules.turns.is_empty() => out += "Nobody moves in this game.\n",
            None => {
                let e = g.rules.entry(g.pos.turn);
                let mut who = format!("{} to move", def.players[e.mover.idx()].name);
                if e.owner != e.mover {
                    who += &format!(" {}'s pieces", def.players[e.owner.idx()].name);
                }
                if let Some(t) = e.move_type {
                    who += &format!(" ({} moves only)", def.move_types[t.idx()]);
                }
                let _ = writeln!(out, "{who}, move {n}.");
            }
        }
        match (g.last_played(), g.last_san()) {
            (Some(last), Some(san)) => {
                let _ = writeln!(out, "Last move: {san} ({last}).");
            }
            (Some(last), None) => {
                let _ = writeln!(out, "Last move: {last}.");
            }
            _ => {}
        }
        let n_pieces = def.pieces.len();
        let mut hands = Vec::new();
        for (pl, player) in def.players.iter().enumerate() {
            let items: Vec<String> = (0..n_pieces)
                .filter_map(|pi| {
                    let k = g.pos.store[pl * n_pieces + pi];
                    (k > 0).then(|| format!("{k} {}", def.pieces[pi].name))
                })
                .collect();
            if !items.is_empty() {
                hands.push(format!("{} {}", player.name, items.join(", ")));
            }
        }
        if !hands.is_empty() {
            let _ = writeln!(out, "In hand: {}.", hands.join("; "));
        }
        let mut counters = Vec::new();
        for (c, counter) in def.counters.iter().enumerate() {
            let base = g.rules.counter_base[c] as usize;
            if counter.per_player {
                let values: Vec<String> = def
                    .players
                    .iter()
                    .enumerate()
                    .map(|(pl, p)| format!("{} {}", p.name, g.pos.counters[base + pl]))
                    .collect();
                counters.push(format!("{} {}", counter.name, values.join(" ")));
            } else {
                counters.push(format!("{} {}", counter.name, g.pos.counters[base]));
            }
        }
        if !counters.is_empty() {
            let _ = writeln!(out, "Counters: {}.", counters.join(", "));
        }
        let huffable: Vec<String> = (0..g.pos.cells.len())
            .filter(|&sq| g.pos.cells[sq].marks & crate::engine::HUFFABLE != 0)
            .map(|sq| notation::square(def, sq as u16))
            .collect();
        if !huffable.is_empty() && outcome.is_none() {
            let _ = writeln!(
                out,
                "May be huffed before the next move: {} (write `h{}:` before the move).",
                huffable.join(", "),
                huffable[0]
            );
        }
        out
    }
}
