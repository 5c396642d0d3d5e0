//! One browser tab's game, on a thread of its own: the session, the sides the computer and
//! the random players play, reloading when the rules file changes, the page's commands, and
//! the state (JSON) the page draws.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use serde_json::{json, Value};
use zrf::diagnostic::{render, RenderOptions};
use zrf::repl::{Files, OpenError, Session};

use super::api::Job;
use super::command::Command;
use super::images::{self, Images};
use super::records::{moves_in, RecordFiles};
use super::watch::Watch;
use crate::fsio;

/// The most random players' turns played in a row (a game of dice players only stops here).
const RANDOM_PLY_LIMIT: usize = 1000;
/// The most moves a game keeps: past this no move is played (the page says why), so that a
/// game's memory stays bounded whatever is sent to it.
pub const MAX_PLIES: usize = 5000;

/// What the HTTP side and a game thread share.
#[derive(Clone, Default)]
pub struct GameLink {
    /// The last state the game published (JSON), served while the game thread is busy.
    pub state: Arc<Mutex<Value>>,
    /// Set while the computer thinks.
    pub busy: Arc<AtomicBool>,
    /// Stops the search under way.
    pub stop: Arc<AtomicBool>,
    /// Set when the server drops the game: its thread stops searching and ends.
    pub dropped: Arc<AtomicBool>,
}

impl GameLink {
    fn publish(&self, v: Value) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = v;
    }
}

struct FsFiles;

impl Files for FsFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        fsio::read_file(Path::new(path)).map_err(|e| e.to_string())
    }

    fn write(&self, _path: &str, _contents: &str) -> Result<(), String> {
        Err("the web board writes no files".into())
    }
}

/// Reads includes, noting each file asked for (found or not), so that they can be watched.
#[derive(Default)]
struct FsLoader {
    asked: std::cell::RefCell<Vec<PathBuf>>,
}

impl zrf::expand::Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        self.asked.borrow_mut().push(PathBuf::from(path));
        fsio::read_file(Path::new(path)).ok()
    }
}

pub(super) fn open_session(file: &Path, variant: Option<&str>) -> Result<Session, OpenError> {
    open_at(file, variant, None)
}

fn open_at(file: &Path, variant: Option<&str>, setup: Option<&str>) -> Result<Session, OpenError> {
    Session::open(&file.to_string_lossy(), &FsFiles, variant, setup)
}

/// The file's modification time and length: a change of either means an edit (the length
/// catches edits within a coarse clock tick).
fn modified(file: &Path) -> Option<(SystemTime, u64)> {
    let m = std::fs::metadata(file).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// One game: the session, the sides the computer plays, the rules file's last change.
struct Game {
    id: u64,
    file: PathBuf,
    images: Arc<Images>,
    watch: Option<Arc<Watch>>,
    /// The watcher's generation the rules were last loaded at.
    seen: u64,
    session: Session,
    variants: Vec<String>,
    variant: usize,
    computer: Vec<bool>,
    version: u64,
    mtime: Option<(SystemTime, u64)>,
    /// The rendered diagnostics of the rules file, when its latest text does not load.
    broken: Option<String>,
    message: String,
    /// The position set with `setup`, which a reload starts from again.
    start: Option<String>,
    /// A record asked for with `save` (file name and text), handed to the page once.
    saved: Option<(String, String)>,
}

/// The titles of the file's games and variants, and the files it reads (itself and its
/// includes, found or not).
pub(super) fn rules_files(file: &Path) -> (Vec<String>, Vec<PathBuf>) {
    let bytes = fsio::read_file(file).unwrap_or_default();
    let loader = FsLoader::default();
    let loaded = zrf::load(&file.to_string_lossy(), &bytes, &loader);
    let titles = loaded.games.iter().map(|g| g.title.clone()).collect();
    let mut files = loader.asked.into_inner();
    files.insert(0, file.to_path_buf());
    (titles, files)
}

fn variant_titles(file: &Path) -> Vec<String> {
    rules_files(file).0
}

pub(super) fn game_thread(
    id: u64,
    file: PathBuf,
    (pictures, watch): (Arc<Images>, Option<Arc<Watch>>),
    variant: Option<String>,
    jobs: Receiver<Job>,
    first: Sender<Result<Value, String>>,
    link: GameLink,
) {
    let mtime = modified(&file);
    let session = match open_session(&file, variant.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            let _ = first.send(Err(e.to_string()));
            return;
        }
    };
    let variants = variant_titles(&file);
    let title = session.title().to_string();
    let idx = variants.iter().position(|t| *t == title).unwrap_or(0);
    let n = session.game().rules.def.players.len();
    let mut g = Game {
        id,
        file,
        images: pictures,
        seen: watch
            .as_ref()
            .map_or(0, |w| w.generation.load(Ordering::SeqCst)),
        watch,
        session,
        variants,
        variant: idx,
        computer: vec![false; n],
        version: 1,
        mtime,
        broken: None,
        message: String::new(),
        start: None,
        saved: None,
    };
    g.session.computer.stop = link.stop.clone();
    // A search started just as the game was dropped (which cleared the stop flag) is stopped
    // at its next report.
    let (dropped, stop) = (link.dropped.clone(), link.stop.clone());
    g.session.computer.progress = Some(Box::new(move |_: &str| {
        if dropped.load(Ordering::SeqCst) {
            stop.store(true, Ordering::SeqCst);
        }
    }));
    g.random_turns();
    let v = g.state(false);
    link.publish(v.clone());
    if first.send(Ok(v)).is_err() {
        return;
    }
    let dropped = || link.dropped.load(Ordering::SeqCst);
    while let Ok((cmd, reply)) = jobs.recv() {
        if dropped() {
            let _ = reply.send(Err("this game was closed; start a new one".into()));
            break;
        }
        g.reload_if_changed();
        let answer = g.command(cmd);
        // After a redo, the recorded random moves are the ones to replay.
        if g.session.game().redo_len() == 0 {
            g.random_turns();
        }
        let think = answer.is_ok() && g.computer_to_move() && !dropped();
        if think {
            link.busy.store(true, Ordering::SeqCst);
        }
        let v = g.state(think);
        link.publish(v.clone());
        let _ = reply.send(answer.map(|_| v));
        if think {
            let out = g.session.eval_line("ai");
            g.message = out.text.lines().next().unwrap_or("").to_string();
            g.version += 1;
            g.random_turns();
            link.publish(g.state(false));
            link.busy.store(false, Ordering::SeqCst);
        }
    }
}

impl Game {
    /// Plays on with a new session, keeping the computer's setting, its stop flag and its
    /// progress callback.
    fn install(&mut self, mut s: Session) {
        let old = &mut self.session.computer;
        s.computer.config = old.config.clone();
        s.computer.stop = old.stop.clone();
        s.computer.progress = old.progress.take();
        self.session = s;
    }

    /// Plays the random players' turns (`?Dice`) as the REPL does, so the page never waits on
    /// one; what they played becomes the message.
    fn random_turns(&mut self) {
        let mut said = Vec::new();
        for _ in 0..RANDOM_PLY_LIMIT {
            if self.session.game().plies() >= MAX_PLIES {
                break;
            }
            match self.session.random_turn() {
                None => break,
                Some(Ok(t)) => said.push(t),
                Some(Err(e)) => {
                    said.push(format!("The random player could not move: {e}"));
                    break;
                }
            }
        }
        if !said.is_empty() {
            if !self.message.is_empty() {
                said.insert(0, std::mem::take(&mut self.message));
            }
            self.message = said.join(" ");
            self.version += 1;
        }
    }

    /// Whether a person plays some side (one that is neither random nor the computer's).
    fn person_plays(&self) -> bool {
        let def = &self.session.game().rules.def;
        def.players
            .iter()
            .enumerate()
            .any(|(k, p)| !p.random && !self.computer.get(k).copied().unwrap_or(false))
    }

    /// Whether a random player (`?Dice`) is to move.
    fn random_to_move(&mut self) -> bool {
        let game = self.session.game_mut();
        let mover = game.rules.entry(game.pos.turn).mover.idx();
        game.rules.def.players[mover].random
    }

    fn computer_to_move(&mut self) -> bool {
        let game = self.session.game_mut();
        if game.outcome().is_some() || game.plies() >= MAX_PLIES {
            return false;
        }
        let mover = game.rules.entry(game.pos.turn).mover.idx();
        self.computer.get(mover).copied().unwrap_or(false)
    }

    /// Reloads the rules when the file changed, replaying the moves that are still legal.
    fn reload_if_changed(&mut self) {
        if let Some(w) = &self.watch {
            let now = w.generation.load(Ordering::SeqCst);
            if now == self.seen {
                return;
            }
            self.seen = now;
        } else {
            let now = modified(&self.file);
            if now == self.mtime {
                return;
            }
            self.mtime = now;
        }
        self.version += 1;
        let number = (self.variant + 1).to_string();
        match open_at(&self.file, Some(&number), self.start.as_deref()) {
            Ok(mut s) => {
                let played = self.session.game().played();
                let mut kept = 0;
                for m in &played {
                    if s.game_mut().play(m).is_err() {
                        break;
                    }
                    kept += 1;
                }
                let n = s.game().rules.def.players.len();
                self.computer.resize(n, false);
                self.install(s);
                let (titles, files) = rules_files(&self.file);
                self.variants = titles;
                if let Some(w) = &self.watch {
                    // The new text may include other files.
                    w.add(&files);
                }
                self.broken = None;
                self.message = if kept == played.len() {
                    format!("Rules reloaded; {kept} moves replayed.")
                } else {
                    format!(
                        "Rules reloaded; {kept} of {} moves are still legal and were replayed.",
                        played.len()
                    )
                };
            }
            Err(OpenError::Rules { map, diags }) => {
                self.broken = Some(render(&map, &diags, RenderOptions { color: false }));
                self.message =
                    "The rules file has errors; playing on with the last good rules.".into();
            }
            Err(e) => {
                self.broken = Some(e.to_string());
                self.message =
                    "The rules file cannot be loaded; playing on with the last good rules.".into();
            }
        }
    }

    fn command(&mut self, cmd: Command) -> Result<(), String> {
        let before = self.version;
        match cmd {
            Command::State => return Ok(()),
            Command::Stop => {}
            Command::Move { text: m } => {
                if self.session.game().plies() >= MAX_PLIES {
                    return Err(format!(
                        "the web board keeps games of at most {MAX_PLIES} moves; start a new game"
                    ));
                }
                let played = self
                    .session
                    .game_mut()
                    .play(&m)
                    .map_err(|e| format!("{m}: {e}"))?;
                self.message = format!("Played {played}.");
            }
            Command::Undo => {
                if !self.session.game_mut().undo() {
                    return Err("there is no move to take back".into());
                }
                // Back to a side the person plays, if there is one (random players' turns are
                // taken back too, or they would be played again at once).
                while (self.computer_to_move() || self.random_to_move())
                    && self.person_plays()
                    && self.session.game_mut().undo()
                {}
                self.message = "Move taken back.".into();
            }
            Command::Redo => {
                let m = self
                    .session
                    .game_mut()
                    .redo()
                    .ok_or("there is no move to redo")?;
                self.message = format!("Replayed {m}.");
            }
            Command::New => {
                self.line("new")?;
                self.start = None;
            }
            Command::Setup { position: t } => {
                if t.contains('\n') {
                    return Err("a position is one line".into());
                }
                self.line(&format!("setup {t}"))?;
                self.start = Some(t.trim().to_string());
                self.message = "Position set.".into();
            }
            Command::Engine { setting: t } => {
                if t.contains('\n') {
                    return Err("a setting is one line".into());
                }
                self.line(&format!("engine {t}"))?;
            }
            Command::Computer { sides } => {
                let n = self.computer.len();
                if sides.len() != n {
                    return Err(format!("`sides` needs {n} booleans, one per player"));
                }
                self.computer = sides;
            }
            Command::Variant { variant: v } => {
                let s = open_session(&self.file, Some(&v)).map_err(|e| e.to_string())?;
                let title = s.title().to_string();
                self.variant = self.variants.iter().position(|t| *t == title).unwrap_or(0);
                self.install(s);
                let n = self.session.game().rules.def.players.len();
                self.computer = vec![false; n];
                self.start = None;
                self.message = format!("Playing {title}.");
            }
            Command::Save { format } => {
                // A record in the format asked for, named after the rules file and placed
                // beside it, so that the rules path it holds finds the rules again on `load`.
                let ext = format.extension();
                let stem = self
                    .file
                    .file_stem()
                    .map_or("game".into(), |s| s.to_string_lossy().into_owned());
                let name = format!("{stem}.{ext}");
                let path = self.file.with_file_name(&name);
                // The rules by their bare name, as the record is read back beside them.
                let rules = self
                    .file
                    .file_name()
                    .map_or(String::new(), |s| s.to_string_lossy().into_owned());
                let record = self
                    .session
                    .record_naming(&path.to_string_lossy(), &rules)?;
                self.message = format!("Saved as {name}.");
                self.saved = Some((name, record));
            }
            Command::Load { name, record } => {
                // Only the file name counts: the record is read as if it lay beside the
                // rules file.
                let bare = Path::new(&name)
                    .file_name()
                    .map_or("record.game".into(), |s| s.to_string_lossy().into_owned());
                let path = self.file.with_file_name(&bare);
                let path_text = path.to_string_lossy().into_owned();
                if moves_in(&path_text, &record).is_some_and(|n| n > MAX_PLIES) {
                    return Err(format!(
                        "{bare}: the web board loads games of at most {MAX_PLIES} moves"
                    ));
                }
                // The record may name only the rules files this server offers.
                let dir = self
                    .file
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_default();
                let files = RecordFiles::new(dir, rules_files(&self.file).1);
                let out = self
                    .session
                    .load_record(&path.to_string_lossy(), &record, &files);
                if out.error {
                    return Err(out.text.trim().to_string());
                }
                let n = self.session.game().rules.def.players.len();
                self.computer = vec![false; n];
                self.start = None;
                let title = self.session.title();
                self.variant = self.variants.iter().position(|t| t == title).unwrap_or(0);
                // The first line says what was loaded (the record by the name it was given,
                // not the path it was read as); the rest is the text diagram.
                let first = out.text.lines().next().unwrap_or_default();
                self.message = first.replace(&*path.to_string_lossy(), &bare);
            }
        }
        if self.version == before {
            self.version += 1;
        }
        Ok(())
    }

    /// Runs a REPL line; its text becomes the message, a refusal the error.
    fn line(&mut self, line: &str) -> Result<(), String> {
        let out = self.session.eval_line(line);
        let first = out.text.lines().next().unwrap_or("").to_string();
        if out.error {
            return Err(out.text.trim().to_string());
        }
        self.message = first;
        Ok(())
    }

    fn state(&mut self, thinking: bool) -> Value {
        let fen = self.session.eval_line("fen");
        let fen = (!fen.error).then(|| fen.text.trim().to_string());
        let result = self.session.result();
        let notation = self.session.move_list();
        let engine = self.session.eval_line("engine").text.trim().to_string();
        let game = self.session.game_mut();
        game.legal();
        let def = &game.rules.def;
        let board = zrf::view::board(def);
        let moves = if game.outcome().is_some() {
            Vec::new()
        } else {
            let list = game.legal().clone();
            zrf::view::moves(&game.rules.def, &list)
        };
        let stuck = zrf::summary::stuck(game);
        // The last move's squares, and the royal pieces of the side to move when in check.
        let none = zrf::def::NONE;
        let last: Vec<u16> = [game.pos.last_from, game.pos.last_to]
            .into_iter()
            .filter(|&sq| sq != none && game.plies() > 0)
            .collect();
        let check: Vec<usize> = match game.rules.turns.is_empty() {
            false if game.rules.royal.iter().any(|&r| r) => {
                let side = game.rules.entry(game.pos.turn).owner;
                if game.rules.royal_attacked(&game.pos, side) {
                    (game.pos.cells.iter().enumerate())
                        .filter(|(_, c)| {
                            !c.is_empty()
                                && c.owner == side.0
                                && game.rules.royal.get(c.piece as usize - 1) == Some(&true)
                        })
                        .map(|(sq, _)| sq)
                        .collect()
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        };
        let def = &game.rules.def;
        let mover = game.rules.entry(game.pos.turn).mover.idx();
        let cells: Vec<Value> = board
            .cells
            .iter()
            .map(|c| {
                json!({ "id": c.id, "name": c.name, "label": c.label, "rect": c.rect,
                        "grid": c.grid, "dark": c.dark })
            })
            .collect();
        let zones: Vec<Value> = board
            .zones
            .iter()
            .map(|(name, per)| json!({ "name": name, "positions": per }))
            .collect();
        let pieces: Vec<Value> = def
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                json!({ "name": p.name, "letter": zrf::notation::piece_letter(def, i as u16),
                        "help": p.help })
            })
            .collect();
        let on: Vec<Value> = zrf::view::pieces(&game.pos)
            .iter()
            .map(|p| json!([p.at, p.piece, p.owner]))
            .collect();
        let moves: Vec<Value> = moves
            .iter()
            .map(|m| {
                json!({ "text": m.text, "from": m.from, "to": m.to, "path": m.path,
                        "captures": m.captures, "drop": m.drop, "pass": m.pass })
            })
            .collect();
        let players: Vec<&str> = def.players.iter().map(|p| p.name.as_str()).collect();
        let native = zrf::setup::native(&game.rules, &game.pos);
        let hand = zrf::view::hand(def, &game.pos);
        let shown = |s: Option<images::Shown>| match s {
            Some(s) => json!({ "url": s.url, "width": s.width, "height": s.height }),
            None => Value::Null,
        };
        // The board's bitmap matches the rectangles only when they come from the file.
        let board_image = zrf::view::board_image(def)
            .filter(|_| board.from_file)
            .and_then(|name| self.images.show(&self.file, &name, false));
        let piece_images: Vec<Vec<Value>> = zrf::view::piece_images(def)
            .into_iter()
            .map(|per| {
                per.into_iter()
                    .map(|name| shown(name.and_then(|n| self.images.show(&self.file, &n, true))))
                    .collect()
            })
            .collect();
        json!({
            "id": self.id,
            "version": self.version,
            "file": self.file.to_string_lossy(),
            "title": def.title,
            "variants": self.variants,
            "variant": self.variant,
            "players": players,
            "mover": mover,
            "pieces": pieces,
            "board": { "cells": cells, "bounds": board.bounds, "from_file": board.from_file,
                       "zones": zones, "links": board.links },
            "position": on,
            "hand": hand,
            "images": { "board": shown(board_image), "pieces": piece_images },
            "moves": moves,
            "history": game.played(),
            "notation": notation,
            "last": last,
            "check": check,
            "stuck": stuck,
            "redo": game.redo_len(),
            "result": result,
            "fen": fen,
            "native": native,
            "computer": self.computer,
            "engine": engine,
            "thinking": thinking,
            "broken": self.broken,
            "message": self.message,
            "saved": self.saved.take().map(|(name, text)| json!({ "name": name, "text": text })),
        })
    }
}
