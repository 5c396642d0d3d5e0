//! The shipped rules files and the standard library load with no error and no warning.

use std::path::Path;

use zrf::diagnostic::{render, RenderOptions};
use zrf::expand::{Loader, NoFiles};

struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

#[test]
fn every_game_loads_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("games/") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "zrf") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable");
        let name = format!(
            "games/{}",
            path.file_name().expect("name").to_string_lossy()
        );
        let (map, diags) = zrf::check_source(&name, &bytes, &FsLoader);
        assert!(
            diags.is_empty(),
            "{}",
            render(&map, &diags, RenderOptions::default())
        );
        n += 1;
    }
    assert!(n >= 2, "at least tic-tac-toe and checkers ship");
}

#[test]
fn checkers_resolves_to_the_english_board() {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/checkers.zrf"))
        .expect("checkers");
    let loaded = zrf::load("checkers.zrf", &bytes, &NoFiles);
    let (def, diags) = zrf::resolve::resolve(&loaded.games[0]);
    assert!(diags.is_empty());
    let def = def.expect("resolves");
    assert_eq!(def.board.n_pos(), 32, "the dark squares only");
    assert_eq!(def.setup.placements.len(), 24);
    let black = def.player_id("Black").expect("Black");
    let white = def.player_id("White").expect("White");
    let nw = zrf::def::DirId(
        def.board
            .directions
            .iter()
            .position(|d| d == "nw")
            .expect("nw") as u16,
    );
    let c3 = def.board.pos_id("c3").expect("c3");
    // White's nw goes up the board; Black's (by symmetry) comes down.
    assert_eq!(def.board.step(white, nw, c3), def.board.pos_id("b4"));
    assert_eq!(def.board.step(black, nw, c3), def.board.pos_id("d2"));
    let crown = zrf::def::ZoneId(0);
    assert!(def
        .board
        .in_zone(crown, white, def.board.pos_id("d8").expect("d8")));
    assert!(!def
        .board
        .in_zone(crown, black, def.board.pos_id("d8").expect("d8")));
    assert_eq!(def.move_priorities.len(), 2);
}

#[test]
fn stdlib_prelude_defines_its_macros() {
    let mut map = zrf::source::SourceMap::new();
    let f = map.add(
        "<stdlib>/prelude.zrf",
        zrf::stdlib::file("prelude.zrf").expect("embedded"),
    );
    let (macros, diags) = zrf::expand::macros(&mut map, f, &NoFiles);
    assert!(diags.is_empty());
    let names: Vec<&str> = macros.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "step",
            "step-or-capture",
            "slide",
            "slide-or-capture",
            "leap"
        ]
    );
}

/// The shipped checkers defines `man-step` with one parameter; `draughts.zrf` defines it with
/// two. Included after the game, the library must not change the game (before, its definition
/// won and men were no longer crowned): each call uses the last definition before it.
#[test]
fn a_library_included_after_a_game_does_not_change_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/checkers.zrf");
    let alone = std::fs::read_to_string(&path).expect("checkers");
    let with_lib = format!("{alone}\n(include \"draughts.zrf\")\n");
    let forms = |text: &str| {
        let loaded = zrf::load("checkers.zrf", text.as_bytes(), &NoFiles);
        let printed: Vec<String> = loaded.games[0]
            .forms
            .iter()
            .map(|f| f.to_string())
            .collect();
        (printed, loaded.diags)
    };
    let (a, diags) = forms(&alone);
    assert!(diags.is_empty(), "{diags:?}");
    let (b, diags) = forms(&with_lib);
    assert_eq!(
        a, b,
        "the game's forms are the same with the library included after it"
    );
    assert!(
        a.iter().any(|f| f.contains("(add King)")),
        "men are crowned: {a:?}"
    );
    // The redefinitions that differ are reported, each once.
    let redefined: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert!(
        redefined.contains(&"macro `man-step` is defined again, differently"),
        "{redefined:?}"
    );
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
}
