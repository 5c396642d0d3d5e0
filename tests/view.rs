//! The board view (`zrf::view`) that `zrf serve` draws: positions sit where the rules file
//! puts them, and every game of the corpus can be drawn.

use std::path::Path;

use zrf::expand::Loader;

struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

fn def_of(path: &Path) -> Option<zrf::def::GameDef> {
    let bytes = std::fs::read(path).ok()?;
    let loaded = zrf::load(&path.to_string_lossy(), &bytes, &FsLoader);
    let idx = zrf::summary::default_index(&loaded.games);
    zrf::resolve_game(loaded.games.get(idx)?).0
}

fn game(name: &str) -> zrf::def::GameDef {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    def_of(&path).unwrap_or_else(|| panic!("{name} resolves"))
}

fn rect_of(view: &zrf::view::BoardView, name: &str) -> [i32; 4] {
    view.cells
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("{name} is drawn"))
        .rect
}

#[test]
fn chess_squares_follow_start_rectangle_and_dimensions() {
    // chess.zrf: (start-rectangle 0 0 50 50), files step (50 0), ranks "8/.../1" step (0 50).
    let v = zrf::view::board(&game("games/chess.zrf"));
    assert!(v.from_file);
    assert_eq!(v.cells.len(), 64);
    assert_eq!(rect_of(&v, "a8"), [0, 0, 50, 50]);
    assert_eq!(rect_of(&v, "e4"), [200, 200, 250, 250]);
    assert_eq!(rect_of(&v, "h1"), [350, 350, 400, 400]);
    assert_eq!(v.bounds, [0, 0, 400, 400]);
    let a1 = v.cells.iter().find(|c| c.name == "a1").unwrap();
    let h1 = v.cells.iter().find(|c| c.name == "h1").unwrap();
    assert!(a1.dark && !h1.dark, "a1 is dark, h1 light");
}

#[test]
fn international_draughts_keeps_only_dark_squares() {
    let v = zrf::view::board(&game("games/international-draughts.zrf"));
    assert_eq!(v.cells.len(), 50);
    assert!(v.cells.iter().all(|c| c.dark));
    // Square 46 is a1: (start-rectangle 0 0 40 40), 40 pixels a step, rank 1 is the tenth row.
    let a1 = v.cells.iter().find(|c| c.name == "a1").unwrap();
    assert_eq!(a1.label, "46");
    assert_eq!(a1.rect, [0, 360, 40, 400]);
}

#[test]
fn explicit_positions_keep_their_rectangles() {
    // agon.zrf, a hexagonal board given by `(positions (a16 10 156 70 216) (a14 10 217 70 277) ...)`.
    let v = zrf::view::board(&game("tests/corpus/dagaz/custodian/agon.zrf"));
    assert!(v.from_file);
    assert_eq!(rect_of(&v, "a16"), [10, 156, 70, 216]);
    assert_eq!(rect_of(&v, "a14"), [10, 217, 70, 277]);
    assert!(v.cells.iter().all(|c| !c.grid));
}

/// Every game of the corpus that loads gets a drawing: each shown position has a proper
/// rectangle inside the board's bounds, and no two positions share the same rectangle.
#[test]
fn every_corpus_board_can_be_drawn() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let list = include_str!("corpus/loads.txt");
    let mut drawn = 0;
    let mut laid_out = Vec::new();
    let mut stacked = Vec::new();
    for line in list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let path = root.join("dagaz").join(line.trim());
        let Some(def) = def_of(&path) else {
            panic!("{line} does not resolve");
        };
        let v = zrf::view::board(&def);
        let shown = def.board.positions.iter().filter(|p| !p.dummy).count();
        assert_eq!(v.cells.len(), shown, "{line}: every position is drawn");
        let [bx1, by1, bx2, by2] = v.bounds;
        assert!(bx1 < bx2 && by1 < by2, "{line}: bounds {:?}", v.bounds);
        for c in &v.cells {
            let [x1, y1, x2, y2] = c.rect;
            assert!(x1 <= x2 && y1 <= y2, "{line}: {} has {:?}", c.name, c.rect);
            assert!(
                x1 >= bx1 && y1 >= by1 && x2 <= bx2 && y2 <= by2,
                "{line}: {} at {:?} is outside {:?}",
                c.name,
                c.rect,
                v.bounds
            );
        }
        if !v.from_file {
            laid_out.push(line);
        }
        let mut rects: Vec<[i32; 4]> = v.cells.iter().map(|c| c.rect).collect();
        rects.sort();
        rects.dedup();
        if rects.len() < v.cells.len() {
            stacked.push(line);
        }
        drawn += 1;
    }
    eprintln!("{drawn} boards drawn; laid out by zrf (no rectangles in the file): {laid_out:?}");
    eprintln!("boards where positions share a rectangle: {stacked:?}");
    // Raumschach's five levels share their rectangles in the file; they are drawn side by side.
    assert!(
        !stacked.contains(&"checkmate/raumschach.zrf"),
        "{stacked:?}"
    );
    // Rubik's cube faces: grids without rectangles, put side by side.
    assert!(!stacked.contains(&"rubik/rubik-3x3x3.zrf"), "{stacked:?}");
    assert!(drawn >= 390, "{drawn} boards drawn");
}

#[test]
fn boards_that_are_not_chequered_are_drawn_as_joined_points() {
    // Morris: a 7x7 grid with most positions killed; its points are joined by their links.
    let v = zrf::view::board(&game("tests/corpus/dagaz/morris/morris.zrf"));
    assert_eq!(v.cells.len(), 24);
    assert!(v.cells.iter().all(|c| !c.grid));
    let id = |name: &str| v.cells.iter().find(|c| c.name == name).unwrap().id;
    assert!(
        v.links
            .contains(&(id("a7").min(id("d7")), id("a7").max(id("d7")))),
        "a7-d7 is a line"
    );
    // `x` walks every point for the rules (b2 to c5, e3 to f6) and has no opposite: no line.
    let pair = |a: &str, b: &str| (id(a).min(id(b)), id(a).max(id(b)));
    assert!(!v.links.contains(&pair("b2", "c5")), "b2-c5 is no line");
    assert!(!v.links.contains(&pair("e3", "f6")), "e3-f6 is no line");
    // Morris's 32 lines between neighbours: 8 on each square, 8 joining them.
    assert_eq!(v.links.len(), 32, "{:?}", v.links);
    // Chess stays chequered and draws no lines.
    let chess = zrf::view::board(&game("games/chess.zrf"));
    assert!(chess.cells.iter().all(|c| c.grid));
}

#[test]
fn bitmap_names_are_kept_per_board_and_per_player() {
    let text = r#"(game (title "T") (players X O)
  (board (image "images\TTT\board.bmp" "alt.bmp")
    (grid (start-rectangle 0 0 60 60) (dimensions ("a/b" (60 0)) ("2/1" (0 60)))
      (directions (n 0 -1))))
  (piece (name man) (image X "images\TTT\x.bmp" "x2.bmp" Q "q.bmp" O "o.bmp")
    (drops ((verify empty?) add)))
  (piece (name other) (drops ((verify empty?) add))))"#;
    let loaded = zrf::load("t.zrf", text.as_bytes(), &zrf::expand::NoFiles);
    let (def, diags) = zrf::resolve_game(&loaded.games[0]);
    let def = def.expect("resolves");
    // `Q` is no player: a warning, and its file is dropped.
    assert!(
        diags.iter().all(|d| !d.is_error()) && diags.len() == 1,
        "{diags:?}"
    );
    assert_eq!(def.board.images, ["images\\TTT\\board.bmp", "alt.bmp"]);
    assert_eq!(
        zrf::view::board_image(&def).as_deref(),
        Some("images/TTT/board.bmp")
    );
    assert_eq!(
        zrf::view::piece_images(&def),
        vec![
            vec![
                Some("images/TTT/x.bmp".to_string()),
                Some("o.bmp".to_string())
            ],
            vec![None, None],
        ]
    );
}
