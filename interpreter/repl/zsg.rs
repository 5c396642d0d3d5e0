//! Zillions saved games (`.zsg`) in the play session: opening one (finding its rules file,
//! applying its edits, replaying its turns) and writing the game as one. The format and the
//! matching are in `records::zsg` and `records::zsg_play`.

use super::{Files, OpenError, Session};
use crate::records::{zsg, zsg_play};

impl Session {
    /// Opens the game a Zillions saved game names (`rules`, else its `RulesFile` looked up
    /// beside the record) and replays it; a divergence gives the record's line number.
    pub fn from_zsg(
        text: &str,
        record_path: &str,
        files: &dyn Files,
        rules: Option<&str>,
    ) -> Result<Session, OpenError> {
        let bad = |e: String, line| OpenError::Record(format!("{record_path}: {e}"), line);
        let rec = zsg::Record::parse(text).map_err(|e| bad(e.to_string(), Some(e.line)))?;
        let path = match rules {
            Some(p) => p.to_string(),
            None => zsg_rules_file(&rec, record_path, files).map_err(|e| bad(e, None))?,
        };
        let mut s = match Session::open(&path, files, rec.variant.as_deref(), None) {
            // A record saved with another version of the rules file may name the variant a
            // little differently: take the nearest title (`docs/game-records.md`).
            Err(OpenError::Variant(why)) => {
                let bytes = files.read(&path).map_err(|e| bad(e, None))?;
                let loaded = crate::load(&path, &bytes, &super::Includes(files));
                let name = rec.variant.as_deref().unwrap_or_default();
                let Some(i) = crate::summary::select_record_variant(&loaded.games, name) else {
                    return Err(OpenError::Variant(why));
                };
                Session::open(&path, files, Some(&(i + 1).to_string()), None)?
            }
            other => other?,
        };
        let start = zsg_play::start_position(&s.game.rules, &rec)
            .map_err(|e| bad(e.to_string(), Some(e.line)))?;
        if !rec.edits.is_empty() {
            s.setup = Some(crate::setup::native(&s.game.rules, &start));
            s.game.reset(start);
        }
        let steps = zsg_play::steps(&rec, &s.game.rules.def)
            .map_err(|e| bad(e.to_string(), Some(e.line)))?;
        zsg_play::replay(&mut s.game, &steps).map_err(|d| bad(d.to_string(), Some(d.line)))?;
        Ok(s)
    }

    /// The game so far as a Zillions saved game to be written at `path`.
    pub(super) fn zsg_record(&mut self, path: &str) -> Result<String, String> {
        let rules = &self.game.rules;
        let start = match &self.setup {
            Some(t) => crate::setup::parse(rules, t).map_err(|e| e.to_string())?,
            None => rules.initial(),
        };
        let edits = zsg_play::edits_for(rules, &start)?;
        let moves = zsg_play::describe_game(rules, &start, &self.game.played())?;
        let numbered: Vec<(u64, zsg::MoveDesc)> = self
            .move_numbers()
            .into_iter()
            .zip(moves)
            .flat_map(|(n, (_, steps))| steps.into_iter().map(move |s| (n, s)))
            .collect();
        let players = "H".repeat(rules.def.players.len());
        let rules_file = rules_file_for(&self.path, path);
        Ok(zsg::write(
            &players,
            &rules_file,
            self.title(),
            &edits,
            &numbered,
        ))
    }

    /// The round number of each move played.
    fn move_numbers(&self) -> Vec<u64> {
        let g = &self.game;
        let mut n = self.first_number;
        (0..g.plies())
            .map(|k| {
                if k > 0 && g.turns[k] <= g.turns[k - 1] {
                    n += 1;
                }
                n
            })
            .collect()
    }
}

/// The rules file a ZSG record names: its file name beside the record, the path as written
/// (unless a Windows path) from the record's folder and from the current one, then the file
/// name in another case beside the record.
fn zsg_rules_file(
    rec: &zsg::Record,
    record_path: &str,
    files: &dyn Files,
) -> Result<String, String> {
    let name = rec.rules_file_name();
    let dir = std::path::Path::new(record_path)
        .parent()
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    let near = |n: &str| {
        if dir.is_empty() {
            n.to_string()
        } else {
            std::path::Path::new(&dir)
                .join(n)
                .to_string_lossy()
                .into_owned()
        }
    };
    let written = rec.rules_file.trim();
    let windows = written.contains('\\') || written.as_bytes().get(1) == Some(&b':');
    let mut tries = vec![near(name)];
    if !windows {
        tries.push(near(written));
        tries.push(written.to_string());
    }
    if let Some(other) = files
        .list(&dir)
        .into_iter()
        .find(|f| f.eq_ignore_ascii_case(name))
    {
        tries.push(near(&other));
    }
    tries
        .into_iter()
        .find(|p| files.read(p).is_ok())
        .ok_or_else(|| {
            format!(
                "cannot find the rules file `{written}` (looked for {} beside the record); \
                 name it with --rules",
                near(name)
            )
        })
}

/// How a ZSG record saved at `record` names the rules file `rules`: its bare name when both
/// are in the same folder (as Zillions writes it), else the path as zrf was given it.
fn rules_file_for(rules: &str, record: &str) -> String {
    let (r, s) = (std::path::Path::new(rules), std::path::Path::new(record));
    let dir = |p: &std::path::Path| p.parent().map(|d| d.to_path_buf()).unwrap_or_default();
    match r.file_name() {
        Some(name) if dir(r) == dir(s) => name.to_string_lossy().into_owned(),
        _ => rules.to_string(),
    }
}
