//! Checking every file of a folder: `zrf check --folder DIR` and `zrf replay --check DIR`.

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

/// Checks every file under `dir` that `keep` accepts with `line` (given the file and its
/// bytes), printing one line each in name order, then the totals (`what`: `files` or
/// `records`); exit 1 if any failed, 2 if the folder cannot be read.
pub(crate) fn check_folder(
    dir: &Path,
    keep: fn(&str) -> bool,
    what: &str,
    line: &dyn Fn(&Path, Vec<u8>) -> zrf::corpus::Line,
) -> std::process::ExitCode {
    let files = match files_under(dir, keep) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot read the folder {}: {e}", dir.display());
            return std::process::ExitCode::from(2);
        }
    };
    let mut failed = 0;
    for file in &files {
        let l = match crate::fsio::read_file(file) {
            Ok(bytes) => line(file, bytes),
            Err(e) => zrf::corpus::Line::unreadable(&file.display().to_string(), &e.to_string()),
        };
        failed += usize::from(!l.ok);
        say!("{}", l.text);
    }
    say!("{}", zrf::corpus::totals(what, files.len(), failed));
    std::process::ExitCode::from(u8::from(failed > 0))
}
