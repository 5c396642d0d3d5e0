//! Live reload: the rules file and the files it includes are watched (the `notify` crate:
//! inotify on Linux), and a change bumps a generation number and wakes every game, which then
//! reloads its rules. Folders are watched rather than files, so that editors that save by
//! writing a new file and renaming it over the old one are seen too.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};

/// How long to wait for an editor's burst of events to end before reloading once.
const SETTLE: Duration = Duration::from_millis(60);

/// The watcher and the files it looks at.
pub struct Watch {
    watcher: Mutex<RecommendedWatcher>,
    /// Watched files, as absolute paths.
    files: Arc<Mutex<HashSet<PathBuf>>>,
    dirs: Mutex<HashSet<PathBuf>>,
    /// Bumped on every change of a watched file.
    pub generation: Arc<AtomicU64>,
}

fn absolute(p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    // Canonical where possible, so that event paths (absolute, links resolved) compare equal.
    match (p.parent(), p.file_name()) {
        (Some(dir), Some(name)) => dir.canonicalize().map(|d| d.join(name)).unwrap_or(p),
        _ => p,
    }
}

impl Watch {
    /// Starts watching; `changed` runs (on the watcher's thread) after each burst of changes.
    /// `None` when the system offers no watcher (the caller then checks modification times).
    pub fn start(changed: impl Fn() + Send + 'static) -> Option<Watch> {
        let (tx, rx) = channel::<notify::Result<notify::Event>>();
        let watcher = notify::recommended_watcher(tx).ok()?;
        let files: Arc<Mutex<HashSet<PathBuf>>> = Arc::default();
        let generation = Arc::new(AtomicU64::new(0));
        let (f, g) = (files.clone(), generation.clone());
        let ours = move |ev: &notify::Result<notify::Event>| -> bool {
            let Ok(ev) = ev else { return false };
            if ev.kind.is_access() {
                return false;
            }
            let files = f.lock().expect("watched files");
            ev.paths.iter().any(|p| files.contains(&absolute(p)))
        };
        std::thread::Builder::new()
            .name("zrf-watch".into())
            .spawn(move || {
                while let Ok(ev) = rx.recv() {
                    if !ours(&ev) {
                        continue;
                    }
                    // Let the burst end: an editor may truncate, write and rename.
                    loop {
                        match rx.recv_timeout(SETTLE) {
                            Ok(_) => continue,
                            Err(RecvTimeoutError::Timeout) => break,
                            Err(RecvTimeoutError::Disconnected) => return,
                        }
                    }
                    g.fetch_add(1, Ordering::SeqCst);
                    changed();
                }
            })
            .ok()?;
        Some(Watch {
            watcher: Mutex::new(watcher),
            files,
            dirs: Mutex::new(HashSet::new()),
            generation,
        })
    }

    /// Adds files to watch (the rules file, its includes); folders already watched are kept.
    pub fn add(&self, paths: &[PathBuf]) {
        let mut files = self.files.lock().expect("watched files");
        let mut dirs = self.dirs.lock().expect("watched folders");
        let mut watcher = self.watcher.lock().expect("watcher");
        for p in paths {
            let p = absolute(p);
            let Some(dir) = p.parent().map(Path::to_path_buf) else {
                continue;
            };
            if !dirs.contains(&dir) && watcher.watch(&dir, RecursiveMode::NonRecursive).is_ok() {
                dirs.insert(dir);
            }
            files.insert(p);
        }
    }
}
