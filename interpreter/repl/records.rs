//! PGN and PDN in a session: `save FILE.pgn`, `save FILE.pdn`, `load FILE.pgn [N]` and the
//! replay of such records by `zrf replay`. The formats themselves are in `records/`.

use super::{beside, Files, OpenError, Session};
use crate::play::Game;
use crate::records::native::{self, Record};
use crate::records::{pdn, pgn, Export, RecordError, Result2};

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
    pub fn parse(self, text: &str) -> Result<Vec<Record>, RecordError> {
        match self {
            Format::Native => native::Record::parse(text).map(|r| vec![r]),
            Format::Pgn => pgn::parse(text),
            Format::Pdn => pdn::parse(text),
        }
    }

    /// Reads game number `n` (from 1; the first when `None`) of a file in this format,
    /// keeping no other game in memory.
    pub fn game(self, text: &str, n: Option<usize>) -> Result<Record, RecordError> {
        let results = match self {
            Format::Native => return native::Record::parse(text).and_then(|r| pick(vec![r], n)),
            Format::Pgn => pgn::RESULTS,
            Format::Pdn => pdn::RESULTS,
        };
        let k = n.unwrap_or(1);
        match crate::records::movetext::parse_nth(text, results, k)? {
            (Some(rec), _) if k > 0 => Ok(rec),
            (_, count) => Err(no_game(k, count)),
        }
    }
}

/// The error for a game number a file does not hold.
fn no_game(k: usize, count: usize) -> RecordError {
    RecordError::NoGame { wanted: k, count }
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
pub fn pick(mut games: Vec<Record>, n: Option<usize>) -> Result<Record, RecordError> {
    let count = games.len();
    let k = n.unwrap_or(1);
    if count == 0 || k == 0 || k > count {
        return Err(no_game(k, count));
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
        // On disk as named, else beside the record; else a shipped game by its bare name.
        let path = match beside(record_path, game) {
            Some(near) if !readable(game) && readable(&near) => near,
            _ => game.to_string(),
        };
        // PGN's `Variant` may be the name lichess gives a game (`Capablanca`), which the
        // table turns into zrf's title; otherwise the tag is the title itself.
        let title = match (format, table) {
            (Format::Pgn, Some(t)) if raw.is_some() => Some(t.1.to_string()),
            _ => raw.map(String::from).or(table.map(|t| t.1.to_string())),
        };
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
        // The copy built into zrf, by its bare name ([`Shipped`] reads it).
        if shipped(file).is_some() {
            return Ok((file.to_string(), wanted));
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

/// The text of a game zrf ships, by its bare file name (`chess.zrf`).
pub fn shipped(name: &str) -> Option<&'static str> {
    crate::shipped::GAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, text)| text)
}

/// Files as `files` reads them, and where a bare file name (`chess.zrf`) is not there, the
/// game of that name built into zrf: a record that names a shipped game plays anywhere.
pub struct Shipped<'a>(pub &'a dyn Files);

impl Files for Shipped<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.0.read(path).or_else(|e| match shipped(path) {
            Some(text) => Ok(text.as_bytes().to_vec()),
            None => Err(e),
        })
    }

    fn write(&self, path: &str, contents: &str) -> Result<(), String> {
        self.0.write(path, contents)
    }

    fn read_if_exists(&self, path: &str) -> Result<Vec<u8>, crate::expand::ReadError> {
        self.0.read_if_exists(path)
    }

    fn absolute(&self, path: &str) -> Option<String> {
        self.0.absolute(path)
    }

    fn list(&self, dir: &str) -> Vec<String> {
        self.0.list(dir)
    }
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
        let rec = format
            .game(text, n)
            .map_err(|e| OpenError::Record(e.to_string(), None))?;
        if format == Format::Native && (rec.get("Game").is_some() || hint.path.is_none()) {
            return Ok((Session::from_record(text, record_path, files)?, rec));
        }
        let (path, title) = rules_of(format, &rec, record_path, hint, files)?;
        let setup = match format {
            Format::Native => rec.get("Setup"),
            _ => rec.get("FEN"),
        };
        let mut s = Session::open(&path, &Shipped(files), title.as_deref(), setup)?;
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

    /// The moves played as players read them: SAN with check marks in chess-like games, PDN
    /// in two-player draughts (numbered boards, or a game PDN knows by its `GameType`), else
    /// zrf's canonical text.
    pub fn move_list(&self) -> Vec<String> {
        if self.game.has_san {
            self.game.sans()
        } else if self.pdn_applies() {
            self.pdn_moves()
        } else {
            self.game.played()
        }
    }

    /// Whether the game is draughts as PDN writes it: two players, no SAN, and numbered
    /// squares or a `GameType` of PDN's table (Brazilian draughts names its squares).
    pub fn pdn_applies(&self) -> bool {
        let def = &self.game.rules.def;
        def.players.len() == 2
            && !self.game.has_san
            && (def.board.numbers.iter().any(|&n| n > 0)
                || pdn::game_type_of(self.title()).is_some())
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
