//! The subcommands of the `zrf` binary, a file per family; `main.rs` reads the command line
//! and calls them. Binary side: these print and read files (through `fsio`).

pub mod play;
pub mod protocol;
pub mod rules;
pub mod selfplay;

use std::path::{Path, PathBuf};

/// The files under a folder (recursively, in name order, 64 levels at most) whose path
/// `keep` accepts: the corpus of `zrf check DIR` and `zrf replay --check DIR`.
pub(crate) fn files_under(dir: &Path, keep: fn(&str) -> bool) -> std::io::Result<Vec<PathBuf>> {
    fn walk(
        dir: &Path,
        keep: fn(&str) -> bool,
        out: &mut Vec<PathBuf>,
        depth: usize,
    ) -> std::io::Result<()> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() && depth < 64 {
                walk(&p, keep, out, depth + 1)?;
            } else if keep(&p.to_string_lossy()) {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, keep, &mut out, 0)?;
    Ok(out)
}
