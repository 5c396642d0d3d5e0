//! `zrf serve` over HTTP: the binary is started on a free loopback port and asked through
//! its JSON API, as the page does.

mod web;

use serde_json::{json, Value};
use web::Served;

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn chess_over_http() {
    let s = Served::start("games/chess.zrf", &[]);
    let (code, st) = s.post("/api/games", &json!({}));
    assert_eq!(code, 200, "{st}");
    let id = st["id"].as_u64().unwrap();
    let game = format!("/api/games/{id}");
    // Board geometry: 64 squares from (start-rectangle 0 0 50 50), 50-pixel steps.
    assert_eq!(st["board"]["cells"].as_array().unwrap().len(), 64);
    assert_eq!(st["board"]["bounds"], json!([0, 0, 400, 400]));
    let e4 = st["board"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "e4")
        .unwrap();
    assert_eq!(e4["rect"], json!([200, 200, 250, 250]));
    assert_eq!(st["position"].as_array().unwrap().len(), 32);
    // The 20 opening moves; e2 reaches e3 and e4.
    let ms = moves(&st);
    assert_eq!(ms.len(), 20);
    let from_e2: Vec<&Value> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == e4["id"].as_u64().unwrap() + 16)
        .collect();
    assert_eq!(from_e2.len(), 2, "e2-e3 and e2-e4");
    assert_eq!(st["players"], json!(["White", "Black"]));
    assert_eq!(st["mover"], 0);

    // A move.
    let (code, st) = s.post(&game, &json!({"cmd": "move", "move": "e2-e4"}));
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["history"], json!(["e2-e4"]));
    assert_eq!(st["mover"], 1);
    assert_eq!(
        st["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(moves(&st).len(), 20);

    // Refusals change nothing.
    let version = st["version"].clone();
    for (body, want) in [
        (json!({"cmd": "move", "move": "e7-e4"}), 400),
        (json!({"cmd": "move"}), 400),
        (json!({"cmd": "fly"}), 400),
        (json!({"cmd": "variant", "variant": "no such game"}), 400),
        (json!({"cmd": "computer", "sides": [true]}), 400),
        (json!({"nothing": 1}), 400),
    ] {
        let (code, answer) = s.post(&game, &body);
        assert_eq!(code, want, "{body} -> {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    let (code, _) = s.raw("POST", &game, b"{not json");
    assert_eq!(code, 400);
    let big = vec![b' '; 1_100_000];
    let (code, _) = s.raw("POST", &game, &big);
    assert_eq!(code, 413);
    let (code, _) = s.get("/api/games/999999");
    assert_eq!(code, 404);
    let (code, st) = s.get(&game);
    assert_eq!(code, 200);
    assert_eq!(st["history"], json!(["e2-e4"]));
    assert_eq!(st["version"], version, "refused requests changed the game");

    // Undo and redo.
    let (_, st) = s.post(&game, &json!({"cmd": "undo"}));
    assert_eq!(st["history"], json!([]));
    assert_eq!(st["redo"], 1);
    let (code, _) = s.post(&game, &json!({"cmd": "undo"}));
    assert_eq!(code, 400, "nothing left to take back");
    let (_, st) = s.post(&game, &json!({"cmd": "redo"}));
    assert_eq!(st["history"], json!(["e2-e4"]));

    // Another tab plays its own game.
    let (_, other) = s.post("/api/games", &json!({}));
    assert_ne!(other["id"], st["id"]);
    assert_eq!(other["history"], json!([]));

    // The computer answers for Black; the page sees it thinking, then its move.
    let (_, st) = s.post(
        &game,
        &json!({"cmd": "engine", "setting": "alphabeta depth 2"}),
    );
    assert!(st["engine"].as_str().unwrap().contains("depth 2"), "{st}");
    let (code, st) = s.post(&game, &json!({"cmd": "computer", "sides": [false, true]}));
    assert_eq!(code, 200);
    assert_eq!(st["computer"], json!([false, true]));
    let st = s.wait(&game, |st| st["history"].as_array().unwrap().len() == 2);
    assert_eq!(st["mover"], 0);
    assert_eq!(st["thinking"], false);
    // Undo takes back the computer's move and the person's, back to White.
    let (_, st) = s.post(&game, &json!({"cmd": "undo"}));
    assert_eq!(st["history"], json!([]));
    assert_eq!(st["mover"], 0);

    // The page and its script are served.
    let (code, page) = s.text("/");
    assert_eq!(code, 200);
    assert!(page.contains("<svg id=\"board\""));
    let (code, _) = s.text("/page.js");
    assert_eq!(code, 200);
    let (code, _) = s.text("/nothing");
    assert_eq!(code, 404);
}

#[test]
fn variants_drops_and_status() {
    let s = Served::start("games/tic-tac-toe.zrf", &[]);
    let (_, st) = s.post("/api/games", &json!({}));
    let game = format!("/api/games/{}", st["id"]);
    // Nine drops, each with no from-square and one landing square.
    let ms = st["moves"].as_array().unwrap();
    assert_eq!(ms.len(), 9);
    assert!(ms.iter().all(|m| m["from"].is_null() && m["drop"].is_u64()));
    for m in ["a3", "a1", "b3", "b1", "c3"] {
        let (_, st) = s.get(&game);
        let text = moves(&st)
            .into_iter()
            .find(|t| t.ends_with(m))
            .expect("a drop there");
        let (code, st) = s.post(&game, &json!({"cmd": "move", "move": text}));
        assert_eq!(code, 200, "{m}: {st}");
    }
    let (_, st) = s.get(&game);
    assert!(st["result"].as_str().unwrap().contains("wins"), "{st}");
    assert_eq!(st["moves"], json!([]));
    let (code, _) = s.post(&game, &json!({"cmd": "move", "move": "X@c1"}));
    assert_eq!(code, 400, "no move after the end");
}

#[test]
fn a_changed_rules_file_is_reloaded_keeping_the_position_and_moves() {
    let dir = std::env::temp_dir().join(format!("zrf-serve-http-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("draughts.zrf");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/english-draughts.zrf"),
    )
    .unwrap();
    std::fs::write(&file, &text).unwrap();
    let s = Served::start(&file.to_string_lossy(), &[]);
    let (_, st) = s.post("/api/games", &json!({}));
    let game = format!("/api/games/{}", st["id"]);
    let (code, st) = s.post(&game, &json!({"cmd": "setup", "position": "W:W22:B18"}));
    assert_eq!(code, 200, "{st}");
    assert_eq!(moves(&st), ["22x15"]);
    let (_, st) = s.post(&game, &json!({"cmd": "move", "move": "22x15"}));
    assert_eq!(st["position"].as_array().unwrap().len(), 1);
    let title = st["title"].as_str().unwrap().to_string();
    let edited = text.replacen(
        &format!("(title \"{title}\")"),
        "(title \"Edited draughts\")",
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(&file, &edited).unwrap();
    // The watcher sees the change and the game reloads by itself.
    let st = s.wait(&game, |st| st["title"] == "Edited draughts");
    assert_eq!(st["history"], json!(["22x15"]), "{}", st["message"]);
    assert_eq!(st["position"].as_array().unwrap().len(), 1);
    assert!(st["broken"].is_null());
    // A broken file: diagnostics, and the game goes on.
    std::fs::write(&file, edited.replacen("(board", "(bored", 1)).unwrap();
    let st = s.wait(&game, |st| st["broken"].is_string());
    let broken = st["broken"].as_str().expect("diagnostics");
    assert!(broken.contains("draughts.zrf:"), "{broken}");
    assert_eq!(st["history"], json!(["22x15"]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A BMP of `w` by `h` pixels: pure green outside a centred square of `colour`.
fn bmp(w: u32, h: u32, colour: [u8; 3]) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        let inside = x >= w / 4 && x < w - w / 4 && y >= h / 4 && y < h - h / 4;
        image::Rgb(if inside { colour } else { [0, 255, 0] })
    });
    let mut out = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Bmp)
        .unwrap();
    out
}

#[test]
fn bitmaps_named_by_the_rules_file_are_served_as_png() {
    let dir = std::env::temp_dir().join(format!("zrf-serve-images-{}", std::process::id()));
    let pics = dir.join("Images").join("TTT");
    std::fs::create_dir_all(&pics).unwrap();
    // The board: 180 by 180, one colour (a board's green is not made transparent).
    let board = image::RgbImage::from_pixel(180, 180, image::Rgb([0, 255, 0]));
    let mut bytes = Vec::new();
    board
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Bmp,
        )
        .unwrap();
    std::fs::write(pics.join("board.bmp"), bytes).unwrap();
    // X's bitmap is named with other case and Windows separators; O's file is missing.
    std::fs::write(pics.join("x.bmp"), bmp(40, 20, [200, 10, 10])).unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/tic-tac-toe.zrf"),
    )
    .unwrap()
    .replacen(
        "(board\n",
        "(board\n    (image \"images\\TTT\\board.bmp\" \"images\\TTT\\other.bmp\")\n",
        1,
    )
    .replacen(
        "(notation \"M\")",
        "(notation \"M\") (image X \"images\\ttt\\X.BMP\" O \"images\\TTT\\O.bmp\")",
        1,
    );
    let file = dir.join("ttt.zrf");
    std::fs::write(&file, &text).unwrap();
    let s = Served::start(&file.to_string_lossy(), &[]);
    let (code, st) = s.post("/api/games", &json!({}));
    assert_eq!(code, 200, "{st}");
    let images = &st["images"];
    assert_eq!(images["board"]["width"], 180, "{images}");
    assert_eq!(images["board"]["height"], 180);
    let x = &images["pieces"][0][0];
    assert_eq!(
        (x["width"].as_u64(), x["height"].as_u64()),
        (Some(40), Some(20))
    );
    assert!(images["pieces"][0][1].is_null(), "O's bitmap is missing");

    let png = |url: &Value| {
        let (code, body) = s.request("GET", url.as_str().unwrap(), b"");
        assert_eq!(code, 200);
        image::load_from_memory_with_format(&body, image::ImageFormat::Png)
            .unwrap()
            .to_rgba8()
    };
    let x = png(&x["url"]);
    assert_eq!(x.dimensions(), (40, 20));
    assert_eq!(x.get_pixel(0, 0).0, [0, 0, 0, 0], "green is transparent");
    assert_eq!(x.get_pixel(20, 10).0, [200, 10, 10, 255]);
    let b = png(&images["board"]["url"]);
    assert_eq!(
        b.get_pixel(0, 0).0,
        [0, 255, 0, 255],
        "the board stays opaque"
    );

    // Only registered files are served.
    let (code, _) = s.get("/images/999.png");
    assert_eq!(code, 404);
    let (code, _) = s.get("/images/..%2Fttt.zrf");
    assert_eq!(code, 404);

    // A bitmap that is no picture: the default is drawn instead.
    std::fs::write(pics.join("x.bmp"), b"BM not really").unwrap();
    let (_, st) = s.post("/api/games", &json!({}));
    assert!(st["images"]["pieces"][0][0].is_null(), "{}", st["images"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_changed_include_is_seen_by_the_watcher() {
    // Only the watcher can see this: the rules file itself never changes.
    let dir = std::env::temp_dir().join(format!("zrf-serve-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/tic-tac-toe.zrf"),
    )
    .unwrap();
    std::fs::write(dir.join("body.zrf"), &text).unwrap();
    let file = dir.join("main.zrf");
    std::fs::write(&file, "(include \"body.zrf\")\n").unwrap();
    let s = Served::start(&file.to_string_lossy(), &[]);
    let (code, st) = s.post("/api/games", &json!({}));
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["title"], "Tic-Tac-Toe");
    let game = format!("/api/games/{}", st["id"]);
    let (_, st) = s.post(&game, &json!({"cmd": "move", "move": moves(&st)[4]}));
    let version = st["version"].as_u64().unwrap();
    let edited = text.replacen("(title \"Tic-Tac-Toe\")", "(title \"Noughts\")", 1);
    assert_ne!(edited, text);
    std::fs::write(dir.join("body.zrf"), &edited).unwrap();
    let st = s.wait(&game, |st| st["title"] == "Noughts");
    assert!(st["version"].as_u64().unwrap() > version);
    assert_eq!(
        st["history"].as_array().unwrap().len(),
        1,
        "the move is kept"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn random_players_move_by_themselves() {
    // A die-like random player between the two sides.
    const DICE: &str = include_str!("fixtures/dice-race.zrf");
    let dir = std::env::temp_dir().join(format!("zrf-serve-dice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dice.zrf");
    std::fs::write(&file, DICE).unwrap();
    let s = Served::start(&file.to_string_lossy(), &[]);
    let (_, st) = s.post("/api/games", &json!({}));
    let game = format!("/api/games/{}", st["id"]);
    assert_eq!(st["mover"], 0);
    assert_eq!(moves(&st).len(), 2, "a1-b1 and a1-c1");
    // A moves to b1; the random player drops its piece on one of the 4 empty squares at once.
    let (code, st) = s.post(&game, &json!({"cmd": "move", "move": "a1-b1"}));
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["history"].as_array().unwrap().len(), 2, "{st}");
    assert_eq!(st["mover"], 2, "B is to move: {st}");
    assert!(
        st["message"]
            .as_str()
            .unwrap()
            .contains("at random, one of 4"),
        "{st}"
    );
    let dropped = st["history"][1].as_str().unwrap();
    assert!(
        ["c1", "d1", "e1", "a1"]
            .iter()
            .any(|sq| dropped.ends_with(sq)),
        "{dropped}"
    );
    // Undo takes the random move back with the person's.
    let (_, st) = s.post(&game, &json!({"cmd": "undo"}));
    assert_eq!(st["history"], json!([]));
    assert_eq!(st["mover"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn records_are_saved_and_loaded_through_the_page() {
    let s = Served::start("games/chess.zrf", &[]);
    let (_, st) = s.post("/api/games", &json!({}));
    let game = format!("/api/games/{}", st["id"]);
    for m in ["e2-e4", "e7-e5", "g1-f3"] {
        let (code, st) = s.post(&game, &json!({"cmd": "move", "move": m}));
        assert_eq!(code, 200, "{st}");
    }
    // Save hands the record to the page once, named after the rules file.
    let (code, st) = s.post(&game, &json!({"cmd": "save", "format": "pgn"}));
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["saved"]["name"], "chess.pgn");
    let pgn = st["saved"]["text"].as_str().unwrap().to_string();
    assert!(pgn.contains("1. e4 e5 2. Nf3"), "{pgn}");
    // The rules by their bare name, wherever the server was started.
    assert!(pgn.contains("[Game \"chess.zrf\"]"), "{pgn}");
    let (_, st) = s.get(&game);
    assert!(st["saved"].is_null(), "handed over once");
    let (_, st) = s.post(&game, &json!({"cmd": "save", "format": "zsg"}));
    let zsg = st["saved"]["text"].as_str().unwrap().to_string();
    assert!(
        zsg.contains("RulesFile=chess.zrf") && zsg.contains("1. Pawn e2 - e4"),
        "{zsg}"
    );
    let (code, _) = s.post(&game, &json!({"cmd": "save", "format": "doc"}));
    assert_eq!(code, 400);
    // A new game, then each record loaded back gives the moves again.
    s.post(&game, &json!({"cmd": "new"}));
    for (name, text) in [("chess.pgn", &pgn), ("old.zsg", &zsg)] {
        s.post(&game, &json!({"cmd": "new"}));
        let (code, st) = s.post(&game, &json!({"cmd": "load", "name": name, "record": text}));
        assert_eq!(code, 200, "{name}: {st}");
        assert_eq!(st["history"], json!(["e2-e4", "e7-e5", "g1-f3"]), "{name}");
    }
    // A record that does not replay is refused and changes nothing.
    let bad = pgn.replace("Nf3", "Nf6");
    let (code, st) = s.post(
        &game,
        &json!({"cmd": "load", "name": "bad.pgn", "record": bad}),
    );
    assert_eq!(code, 400, "{st}");
    let (_, st) = s.get(&game);
    assert_eq!(st["history"], json!(["e2-e4", "e7-e5", "g1-f3"]));
}
