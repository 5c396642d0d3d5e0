//! The bitmaps a rules file names (`(board (image ...))`, `(piece (image ...))`): found next
//! to the rules file, read through `fsio` (bounded, regular files only), converted from BMP to
//! PNG and kept until the file changes.
//!
//! Only files the rules name are served: the game thread registers each one and the page asks
//! for it by its number. Piece bitmaps get Zillions' transparency: pure green, (0, 255, 0), is
//! drawn as transparent (see docs/serve.md).

use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use image::{ImageFormat, ImageReader, Limits};

use crate::fsio;

/// The most distinct files registered (a new one past this is not shown).
const MAX_FILES: usize = 4096;
/// The largest side of a bitmap converted.
const MAX_SIDE: u32 = 4096;
/// The most converted bytes kept; past this the cache starts afresh.
const MAX_CACHED_BYTES: usize = 64 << 20;

/// A converted bitmap.
pub struct Png {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// What the page needs to draw one bitmap.
pub struct Shown {
    /// `/images/N.png?v=STAMP`: the stamp changes with the file, so a live reload shows the
    /// new picture.
    pub url: String,
    pub width: u32,
    pub height: u32,
}

type Stamp = Option<(SystemTime, u64)>;

#[derive(Default)]
struct Inner {
    /// Registered files: path and whether green is transparent (pieces).
    files: Vec<(PathBuf, bool)>,
    index: HashMap<(PathBuf, bool), usize>,
    /// Converted bitmaps by file number, with the file's stamp when converted.
    cache: HashMap<usize, (Stamp, Arc<Result<Png, String>>)>,
    cached_bytes: usize,
}

/// The registry and cache shared by the game threads and the HTTP side.
#[derive(Default)]
pub struct Images {
    inner: Mutex<Inner>,
}

fn stamp(path: &Path) -> Stamp {
    let m = std::fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// The file `name` (relative to `dir`, `/`-separated) names. Zillions ran on Windows, where
/// names ignore case, so a component that does not exist as written is looked for among the
/// folder's entries regardless of case.
pub fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    let rel = Path::new(name);
    let exact = dir.join(rel);
    if exact.is_file() {
        return Some(exact);
    }
    let mut at = dir.to_path_buf();
    for c in rel.components() {
        match c {
            Component::Normal(part) => {
                let want = part.to_string_lossy().to_lowercase();
                let direct = at.join(part);
                if direct.exists() {
                    at = direct;
                    continue;
                }
                let found = std::fs::read_dir(&at)
                    .ok()?
                    .filter_map(Result::ok)
                    .find(|e| e.file_name().to_string_lossy().to_lowercase() == want)?;
                at = found.path();
            }
            Component::ParentDir => at = at.join(".."),
            Component::CurDir => {}
            // An absolute name is taken as written.
            Component::RootDir | Component::Prefix(_) => at = PathBuf::from(c.as_os_str()),
        }
    }
    at.is_file().then_some(at)
}

/// Decodes a BMP (or any format the `image` build reads: BMP and PNG) and encodes it as PNG;
/// with `key_green`, pure green pixels become transparent.
pub fn convert(bytes: &[u8], key_green: bool) -> Result<Png, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    if reader.format().is_none() {
        reader.set_format(ImageFormat::Bmp);
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(256 << 20);
    reader.limits(limits);
    let mut rgba = reader.decode().map_err(|e| e.to_string())?.to_rgba8();
    if key_green {
        for p in rgba.pixels_mut() {
            if p.0[0] == 0 && p.0[1] == 255 && p.0[2] == 0 {
                p.0 = [0, 0, 0, 0];
            }
        }
    }
    let (width, height) = rgba.dimensions();
    let mut out = Vec::new();
    rgba.write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(Png {
        bytes: out,
        width,
        height,
    })
}

impl Images {
    /// The bitmap `name` (as `zrf::view` gives it) of the rules file `rules`, registered and
    /// converted; `None` when the file is missing or is no picture the converter reads.
    pub fn show(&self, rules: &Path, name: &str, key_green: bool) -> Option<Shown> {
        let dir = rules.parent().unwrap_or(Path::new("."));
        let path = find(dir, name)?;
        let n = self.register(path, key_green)?;
        let (png, st) = self.get(n)?;
        let png = png.as_ref().as_ref().ok()?;
        let v = st
            .map(|(t, len)| {
                let t = t
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0);
                format!("{t:x}-{len:x}")
            })
            .unwrap_or_default();
        Some(Shown {
            url: format!("/images/{n}.png?v={v}"),
            width: png.width,
            height: png.height,
        })
    }

    fn register(&self, path: PathBuf, key_green: bool) -> Option<usize> {
        let mut inner = self.inner.lock().ok()?;
        let key = (path, key_green);
        if let Some(&n) = inner.index.get(&key) {
            return Some(n);
        }
        if inner.files.len() >= MAX_FILES {
            return None;
        }
        let n = inner.files.len();
        inner.files.push(key.clone());
        inner.index.insert(key, n);
        Some(n)
    }

    /// File number `n` converted (from the cache while the file is unchanged), with its stamp.
    pub fn get(&self, n: usize) -> Option<(Arc<Result<Png, String>>, Stamp)> {
        let (path, key_green) = {
            let inner = self.inner.lock().ok()?;
            inner.files.get(n)?.clone()
        };
        let now = stamp(&path);
        {
            let inner = self.inner.lock().ok()?;
            if let Some((st, png)) = inner.cache.get(&n) {
                if *st == now {
                    return Some((png.clone(), now));
                }
            }
        }
        let png = fsio::read_file(&path)
            .map_err(|e| format!("{}: {e}", fsio::shown(&path)))
            .and_then(|bytes| convert(&bytes, key_green));
        let size = png.as_ref().map(|p| p.bytes.len()).unwrap_or(0);
        let png = Arc::new(png);
        let mut inner = self.inner.lock().ok()?;
        if inner.cached_bytes + size > MAX_CACHED_BYTES {
            inner.cache.clear();
            inner.cached_bytes = 0;
        }
        if let Some((_, old)) = inner.cache.insert(n, (now, png.clone())) {
            let old = old.as_ref().as_ref().map(|p| p.bytes.len()).unwrap_or(0);
            inner.cached_bytes = inner.cached_bytes.saturating_sub(old);
        }
        inner.cached_bytes += size;
        Some((png, now))
    }
}
