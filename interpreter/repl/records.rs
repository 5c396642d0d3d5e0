//! PGN and PDN in a session: `save FILE.pgn`, `save FILE.pdn`, `load FILE.pgn [N]` and the
//! replay of such records by `zrf replay`. The formats themselves are in `records/`.

use super::{beside, Files, OpenError, Session};
use crate::play::Game;
use crate::records::native::{self, Record};
use crate::records::{pdn, pgn, Export, Result2};

/// A record format, by the file name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// zrf's `.game` records (any other extension too).
    Native,
    /// `.pgn`.
    Pgn,
    /// `.pdn`.
    Pdn,
}

impl Format {
    /// The format a file name asks for.
    pub fn of(path: &str) -> Format {
        let ext = std::path::Path::new(path)
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase());
        match ext.as_deref() {
            Some("pgn") => Format::Pgn,
            Some("pdn") => Format::Pdn,
            _ => Format::Native,
        }
    }

    /// Reads every game of a file in this format.
    pub fn parse(self, text: &str) -> Result<Vec<Record>, String> {
        match self {
            Format::Native => native::Record::parse(text).map(|r| vec![r]),
            Format::Pgn => pgn::parse(text),
            Format::Pdn => pdn::parse(text),
        }
    }
}

/// `FILE N` → (`FILE`, `Some(N)`): the number of a game in a file of several.
pub fn split_game_number(arg: &str) -> (&str, Option<usize>) {
    match arg.rsplit_once(char::is_whitespace) {
        Some((path, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            (path.trim_end(), n.parse().ok())
        }
        _ => (arg, None),
    }
}

/// Picks game number `n` (from 1; the first when `None`) of the games read from a file.
pub fn pick(mut games: Vec<Record>, n: Option<usize>) -> Result<Record, String> {
    let count = games.len();
    let k = n.unwrap_or(1);
    if count == 0 {
        return Err("the file holds no game".into());
    }
    if k == 0 || k > count {
        return Err(format!(
            "there is no game {k}: the file holds {count} game{}",
            if count == 1 { "" } else { "s" }
        ));
    }
    Ok(games.swap_remove(k - 1))
}

/// Where to find the rules of a record: what the record says, and what the caller knows.
pub struct RulesHint<'a> {
    /// A rules file to use when the record names none (the session's, or `--rules`).
    pub path: Option<&'a str>,
    /// The titles that file has, when known (to tell whether it plays the record's variant).
    pub titles: Option<Vec<String>>,
    /// The variant to play when the record names none (the session's).
    pub variant: Option<String>,
}

/// The rules file and variant title a PGN or PDN record asks for.
fn rules_of(
    format: Format,
    rec: &Record,
    record_path: &str,
    hint: &RulesHint,
    files: &dyn Files,
) -> Result<(String, Option<String>), OpenError> {
    // The variant: zrf's own title, else the name the format's table knows.
    let (table, raw) = match format {
        // PGN without `[Variant]` is orthodox chess.
        Format::Pgn => (
            pgn::variant(rec.get("Variant").unwrap_or("Standard")),
            rec.get("Variant"),
        ),
        Format::Pdn => (
            rec.get("GameType").and_then(pdn::game_type),
            rec.get("Variant"),
        ),
        Format::Native => (None, rec.get("Variant")),
    };
    let readable = |p: &str| files.read(p).is_ok();
    if let Some(game) = rec.get("Game") {
        let path = match beside(record_path, game) {
            Some(near) if !readable(game) && readable(&near) => near,
            _ => game.to_string(),
        };
        let title = raw.map(String::from).or(table.map(|t| t.1.to_string()));
        return Ok((path, title));
    }
    let wanted: Option<String> = match (raw, table) {
        (Some(r), _) if hint.titles.as_ref().is_some_and(|ts| has(ts, r)) => Some(r.into()),
        (_, Some((_, title))) => Some(title.into()),
        (Some(r), None) => Some(r.into()),
        (None, None) => None,
    };
    if let Some(path) = hint.path {
        let fits = match (&wanted, &hint.titles) {
            (None, _) | (_, None) => true,
            (Some(w), Some(ts)) => has(ts, w),
        };
        if fits {
            // Rules given without their titles (`--rules`) and a PGN that names no variant:
            // the file's default game.
            let implicit = format == Format::Pgn && raw.is_none() && hint.titles.is_none();
            let title = if implicit {
                None
            } else {
                wanted.or_else(|| hint.variant.clone())
            };
            return Ok((path.to_string(), title));
        }
    }
    if let Some((file, _)) = table {
        let mut tries = vec![format!("games/{file}"), file.to_string()];
        tries.extend(beside(record_path, file));
        if let Some(p) = hint.path {
            tries.extend(beside(p, file));
        }
        if let Some(found) = tries.into_iter().find(|p| readable(p)) {
            return Ok((found, wanted));
        }
        return Err(OpenError::Record(
            format!("the record is for {file}, which is not in games/ here: name the rules file"),
            None,
        ));
    }
    Err(OpenError::Record(
        match wanted {
            Some(w) => {
                format!("the record's variant `{w}` is not one zrf ships: name the rules file")
            }
            None => {
                "the record names no game ([Game], [Variant] or [GameType]): name the rules file"
                    .into()
            }
        },
        None,
    ))
}

/// The error for a file named as a Zillions saved game (`.zsg`, any case) that is not one:
/// Zillions also writes match logs (`Player 1 variant = ...`, `Game 1 of 1`), which name no
/// rules file and cannot be replayed.
pub(super) fn not_a_saved_game(text: &str, path: &str) -> Option<OpenError> {
    let named = std::path::Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zsg"));
    if !named || crate::records::zsg::is_zsg(text) {
        return None;
    }
    let first: String = text
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .chars()
        .take(60)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    Some(OpenError::Record(
        format!(
            "not a Zillions saved game: it starts `{first}`, not `{}`",
            crate::records::zsg::MAGIC
        ),
        None,
    ))
}

fn has(titles: &[String], name: &str) -> bool {
    titles.iter().any(|t| t.eq_ignore_ascii_case(name))
}

impl Session {
    /// Opens the game of record number `n` (from 1) of a file in any format and replays its
    /// moves; returns the session and the record read.
    pub fn from_records(
        text: &str,
        record_path: &str,
        n: Option<usize>,
        hint: &RulesHint,
        files: &dyn Files,
    ) -> Result<(Session, Record), OpenError> {
        if crate::records::zsg::is_zsg(text) {
            // A Zillions saved game: one game, its rules named by `RulesFile` (or `--rules`).
            let s = Session::from_zsg(text, record_path, files, hint.path)?;
            return Ok((s, Record::default()));
        }
        if let Some(e) = not_a_saved_game(text, record_path) {
            return Err(e);
        }
        let format = Format::of(record_path);
        let games = format.parse(text).map_err(|e| OpenError::Record(e, None))?;
        let rec = pick(games, n).map_err(|e| OpenError::Record(e, None))?;
        if format == Format::Native && (rec.get("Game").is_some() || hint.path.is_none()) {
            return Ok((Session::from_record(text, record_path, files)?, rec));
        }
        let (path, title) = rules_of(format, &rec, record_path, hint, files)?;
        let setup = match format {
            Format::Native => rec.get("Setup"),
            _ => rec.get("FEN"),
        };
        let mut s = Session::open(&path, files, title.as_deref(), setup)?;
        s.replay(&rec.moves)?;
        Ok((s, rec))
    }

    /// The start of the game: the setup given, else the rules' position.
    fn start(&self) -> Game {
        let rules = self.game.rules.clone();
        let pos = self
            .setup
            .as_deref()
            .and_then(|t| crate::setup::parse(&rules, t).ok())
            .unwrap_or_else(|| rules.initial());
        Game::new(rules, pos)
    }

    /// The moves as PDN writes them: `from-to` or `fromxto` where that names the move alone,
    /// else every landing square.
    fn pdn_moves(&self) -> Vec<String> {
        let mut g = self.start();
        let mut out = Vec::new();
        for mv in &self.game.played() {
            let list = g.legal().clone();
            let def = &g.rules.def;
            let mut text = mv.clone();
            if let Ok(i) = crate::notation::parse_move(def, &list, mv) {
                let m = &list.moves[i];
                let path = list.path(m);
                if m.drop == 0 && !m.pass && m.huff == 0 && path.len() > 2 {
                    let sep = if m.n_captures() > 0 { "x" } else { "-" };
                    let short = format!(
                        "{}{sep}{}",
                        crate::notation::square(def, path[0]),
                        crate::notation::square(def, path[path.len() - 1])
                    );
                    if crate::notation::parse_move(def, &list, &short) == Ok(i) {
                        text = short;
                    }
                }
            }
            out.push(text);
            if g.play(mv).is_err() {
                break;
            }
        }
        out
    }

    /// The result for PGN and PDN: two players only.
    fn result2(&mut self) -> Option<Result2> {
        let o = self.game.outcome()?;
        if self.game.rules.def.players.len() != 2 {
            return None;
        }
        let first = crate::def::PlayerId(0);
        Some(if o.is_draw() {
            Result2::Draw
        } else if o.winners.contains(&first) || (o.winners.is_empty() && !o.losers.contains(&first))
        {
            Result2::First
        } else {
            Result2::Second
        })
    }

    /// The result token a record in this format would hold now.
    pub fn result_token(&mut self, format: Format) -> String {
        let r = self.result2();
        match format {
            Format::Pgn => pgn::result_token(r).into(),
            Format::Pdn => {
                pdn::result_token(pdn::game_type_of(self.title()).map(|t| t.0), r).into()
            }
            Format::Native => self
                .result()
                .unwrap_or_else(|| native::UNFINISHED.to_string()),
        }
    }

    /// The game as a record in the format the file name asks for.
    pub fn record_as(&mut self, path: &str) -> Result<String, String> {
        if path.to_ascii_lowercase().ends_with(".zsg") {
            return self.zsg_record(path);
        }
        let format = Format::of(path);
        if format == Format::Native {
            return Ok(self.record());
        }
        if self.game.rules.def.players.len() != 2 {
            return Err(format!(
                "{} is for two players; this game has {} (save as .game)",
                if format == Format::Pgn { "PGN" } else { "PDN" },
                self.game.rules.def.players.len()
            ));
        }
        if format == Format::Pgn && !self.game.has_san {
            return Err(format!(
                "PGN writes moves in algebraic notation, and {}; save as .pdn or .game",
                crate::san::NOT_APPLICABLE
            ));
        }
        if format == Format::Pdn && self.game.has_san {
            return Err("PDN is for draughts; save a game with algebraic notation as .pgn".into());
        }
        // A setup is written as FEN (PDN FEN in PDN), whatever form it was given in.
        let setup = match &self.setup {
            Some(_) => {
                let start = self.start();
                Some(match format {
                    Format::Pdn => crate::repl::fen::pdn(&start.rules, &start.pos)?,
                    _ => crate::repl::fen::fen(&start.rules, &start.pos, self.first_number)?,
                })
            }
            None => None,
        };
        let g = &self.game;
        let second_first = match g.turns.first() {
            Some(&t) => self.mid_round(t),
            None => self.mid_round(g.pos.turn),
        };
        let e = Export {
            rules_path: self.path.clone(),
            title: self.title().to_string(),
            setup,
            date: self.today.clone(),
            players: g.rules.def.players.iter().map(|p| p.name.clone()).collect(),
            result: self.result2(),
            moves: match format {
                Format::Pgn => self.game.sans(),
                _ => self.pdn_moves(),
            },
            first_number: self.first_number,
            second_first,
        };
        Ok(match format {
            Format::Pgn => pgn::write(&e),
            _ => pdn::write(&e),
        })
    }

    /// The rules hint for records loaded into this session.
    pub fn hint(&self) -> RulesHint<'_> {
        RulesHint {
            path: Some(&self.path),
            titles: Some(self.loaded.games.iter().map(|g| g.title.clone()).collect()),
            variant: Some(self.title().to_string()),
        }
    }
}
