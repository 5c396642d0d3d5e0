//! The binary's file access: one function that reads a file, one that writes one atomically.
//! Every command, the include loader, the play session's `Files` and the line history go
//! through these two (the README's "Files and limits" tells users what they do).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The most bytes zrf reads from one file: far above any real rules file or game record, low
/// enough that reading one cannot exhaust memory.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// Text for a path in a message: control characters are written as escapes (`\u{1b}`), so a
/// file name cannot drive the terminal.
pub fn shown(path: &Path) -> String {
    zrf::repl::printable(&path.to_string_lossy()).into_owned()
}

/// What a path is, for "is not a regular file" messages.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

fn refuse(meta: &std::fs::Metadata) -> io::Error {
    let what = kind(meta);
    let msg = if what.starts_with("not") {
        "it is not a regular file".to_string()
    } else {
        format!("it is {what}, not a regular file")
    };
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

fn too_large(len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "it is {} MiB or more; zrf reads files of at most {} MiB",
            len >> 20,
            MAX_FILE_BYTES >> 20
        ),
    )
}

/// Opens a file for reading without blocking on a named pipe (one may replace the regular file
/// between the check and the open).
fn open(path: &Path) -> io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    o.open(path)
}

/// Reads a whole regular file of at most [`MAX_FILE_BYTES`]. Directories, named pipes and
/// devices are refused before they are opened, so nothing blocks or reads without end. The
/// error's kind is `NotFound` when there is no such file; its text says why (no path).
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(refuse(&meta));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let file = open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(refuse(&meta));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow while it is read: never take more than the limit.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The longest line read from standard input (`zrf play` on a pipe, `zrf moves --stdin`).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line ending.
    Text(String),
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line longer than [`MAX_LINE_BYTES`] (what was over the limit was not kept).
    TooLong,
}

/// Reads the next line (ended by `\n` or `\r\n`, or by the end of input), keeping at most
/// [`MAX_LINE_BYTES`] of it in memory. `None` at the end of input.
pub fn read_line(input: &mut impl io::BufRead) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if line.len() + chunk.len() > MAX_LINE_BYTES {
            too_long = true;
        } else if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(match String::from_utf8(line) {
        Ok(t) => Line::Text(t),
        Err(_) => Line::NotUtf8,
    }))
}

/// `path` as an absolute path with links resolved: the file's own when it exists, else its
/// folder's joined to its name. `None` when neither can be resolved.
pub fn absolute(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = std::fs::canonicalize(path) {
        return Some(p);
    }
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(dir).ok()?.join(name))
}

/// The file a write to `path` should replace: `path` itself, or what it links to.
fn target(path: &Path) -> io::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(p) => Ok(p),
            // A dangling link: write where it points.
            Err(_) => {
                let to = std::fs::read_link(path)?;
                Ok(path.parent().unwrap_or(Path::new("")).join(to))
            }
        },
        _ => Ok(path.to_path_buf()),
    }
}

/// How an atomic write treats a file already at the path.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Replace it.
    Replace,
    /// Fail with `AlreadyExists`, leaving it alone.
    Keep,
}

/// Writes `bytes` to `path` so that the file is either the old one or the whole new one, never
/// a part: a temporary file in the same folder is written, synced to disk, then renamed over
/// `path`. On error the temporary file is removed and any old file is left as it was. A
/// symbolic link is followed (the file it names is replaced); a directory, named pipe or device
/// at `path` is refused. A replaced file keeps its permissions.
pub fn write_atomic(path: &Path, bytes: &[u8], existing: Existing) -> io::Result<()> {
    let path = target(path)?;
    let old = match std::fs::metadata(&path) {
        Ok(m) if !m.is_file() => return Err(refuse(&m)),
        Ok(_) if existing == Existing::Keep => {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "it exists already",
            ))
        }
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // As a newly created file would be (tempfile's default is owner-only); the umask
        // still applies.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(&dir)?;
    if let Some(m) = &old {
        tmp.as_file().set_permissions(m.permissions())?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    match existing {
        Existing::Replace => tmp.persist(&path).map_err(|e| e.error)?,
        Existing::Keep => tmp.persist_noclobber(&path).map_err(|e| e.error)?,
    };
    // Make the rename itself durable; not every system can sync a folder, so errors are
    // ignored.
    #[cfg(unix)]
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("zrf-fsio-{tag}"))
            .tempdir()
            .expect("a temp dir")
    }

    #[test]
    fn lines_are_read_one_by_one_and_bounded() {
        let mut input: &[u8] = b"e2e4\r\n\xff\xfe\n(unclosed\nquit";
        let mut lines = Vec::new();
        while let Some(l) = read_line(&mut input).unwrap() {
            lines.push(l);
        }
        assert_eq!(
            lines,
            [
                Line::Text("e2e4".into()),
                Line::NotUtf8,
                Line::Text("(unclosed".into()),
                Line::Text("quit".into())
            ]
        );
        let mut long = vec![b'x'; MAX_LINE_BYTES + 10];
        long.extend_from_slice(b"\nnext\n");
        let mut input = io::BufReader::with_capacity(4096, &long[..]);
        assert_eq!(read_line(&mut input).unwrap(), Some(Line::TooLong));
        assert_eq!(
            read_line(&mut input).unwrap(),
            Some(Line::Text("next".into()))
        );
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    #[test]
    fn reads_a_regular_file() {
        let dir = temp("read");
        let p = dir.path().join("a.zrf");
        std::fs::write(&p, "(game)").unwrap();
        assert_eq!(read_file(&p).unwrap(), b"(game)");
    }

    #[test]
    fn refuses_directories_devices_and_pipes() {
        let dir = temp("kinds");
        let e = read_file(dir.path()).unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file");
        #[cfg(unix)]
        {
            let e = read_file(Path::new("/dev/zero")).unwrap_err();
            assert_eq!(e.to_string(), "it is a device, not a regular file");
            let fifo = dir.path().join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let e = read_file(&fifo).unwrap_err();
                assert_eq!(e.to_string(), "it is a named pipe, not a regular file");
            }
        }
        let e = read_file(&dir.path().join("missing")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn refuses_a_file_over_the_limit() {
        let dir = temp("big");
        let p = dir.path().join("big.zrf");
        let f = File::create(&p).unwrap();
        f.set_len(MAX_FILE_BYTES + 1).unwrap();
        let e = read_file(&p).unwrap_err();
        assert_eq!(
            e.to_string(),
            "it is 8 MiB or more; zrf reads files of at most 8 MiB"
        );
        f.set_len(MAX_FILE_BYTES).unwrap();
        assert_eq!(read_file(&p).unwrap().len() as u64, MAX_FILE_BYTES);
    }

    #[test]
    fn atomic_write_replaces_keeps_or_refuses() {
        let dir = temp("write");
        let p = dir.path().join("x.game");
        write_atomic(&p, b"one", Existing::Replace).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"two", Existing::Replace).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let e = write_atomic(&p, b"three", Existing::Keep).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        // A directory in the way is refused, and no temporary file is left behind.
        let e = write_atomic(dir.path(), b"x", Existing::Replace).unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x.game"]);
    }

    #[cfg(unix)]
    #[test]
    fn atomic_write_keeps_permissions_and_follows_links() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp("perm");
        let p = dir.path().join("x.game");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.game");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        write_atomic(&link, b"new", Existing::Replace).unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn a_failed_write_leaves_the_old_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp("ro");
        let p = dir.path().join("x.game");
        std::fs::write(&p, "old record").unwrap();
        // A folder where no new file can be made: the temporary file cannot be created.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
        let r = write_atomic(&p, b"new", Existing::Replace);
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        // Root may write anyway; then the write succeeded whole.
        match r {
            Err(_) => assert_eq!(std::fs::read(&p).unwrap(), b"old record"),
            Ok(()) => assert_eq!(std::fs::read(&p).unwrap(), b"new"),
        }
    }
}
