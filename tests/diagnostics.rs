//! Snapshot tests of rendered diagnostics: one small broken rules file per kind of error or
//! warning in `tests/errors/`, each checked the way `zrf check` checks a file (every stage,
//! every variant) and rendered without colour.
//!
//! A fixture's first line is a `;` comment saying what it checks; one that says
//! `Checks (warning):` must load with warnings only, every other one must report an error.
//! Review a changed snapshot by reading it: file, line and column, the source line with a
//! caret, what was expected, and a suggested name where one fits.

use std::path::{Path, PathBuf};

use zrf::diagnostic::{has_errors, render, RenderOptions};
use zrf::expand::Loader;

/// The name fixtures are loaded under, so snapshots hold no absolute paths.
const PREFIX: &str = "tests/errors/";

/// Serves includes from the fixture folder, and nothing outside it.
struct FixtureLoader;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("errors")
}

impl Loader for FixtureLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        let rest = path.strip_prefix(PREFIX)?;
        if rest.is_empty() || rest.contains('/') || rest.contains('\\') || rest.starts_with('.') {
            return None;
        }
        std::fs::read(fixture_dir().join(rest)).ok()
    }
}

#[test]
fn rendered_diagnostics() {
    insta::glob!("errors/*.zrf", |path| {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let name = format!("{PREFIX}{file}");
        let bytes = std::fs::read(path).unwrap();
        assert!(
            bytes.starts_with(b";"),
            "{name}: a fixture starts with a `;` comment saying what it checks"
        );
        let first_line =
            String::from_utf8_lossy(bytes.split(|&b| b == b'\n').next().unwrap()).into_owned();

        let (map, diags) = zrf::check_source(&name, &bytes, &FixtureLoader);
        assert!(!diags.is_empty(), "{name}: no diagnostic at all");
        if first_line.contains("(warning)") {
            assert!(
                !has_errors(&diags),
                "{name}: a warning fixture reported an error: {diags:#?}"
            );
        } else {
            assert!(
                has_errors(&diags),
                "{name}: an error fixture reported no error: {diags:#?}"
            );
        }

        let text = render(&map, &diags, RenderOptions { color: false });
        assert!(
            !text.contains(env!("CARGO_MANIFEST_DIR")),
            "{name}: absolute path in the rendered text"
        );
        assert!(
            text.contains(&format!("--> {name}:")) || text.contains(&format!("--> {PREFIX}")),
            "{name}: the rendering names no file:\n{text}"
        );
        assert!(!text.contains('\x1b'), "{name}: colour codes in plain text");
        insta::assert_snapshot!(text);
    });
}
