//! `zrf serve` in a real headless Chromium, driven through chromedriver (WebDriver): moves
//! by clicks, the computer's reply, undo, a draughts capture, live reload and a broken file.
//! Screenshots land in target/screenshots/.
//!
//! Without chromedriver the test prints a note and passes, except under CI (`CI` set), where
//! it must run (`.ci/run` installs the Debian packages `chromium` and `chromium-driver`).

mod web;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use web::{Browser, Served};

fn browser() -> Option<Browser> {
    match Browser::start() {
        Some(b) => Some(b),
        None if std::env::var_os("CI").is_some() => {
            panic!("chromedriver is needed under CI: apt-get install chromium chromium-driver")
        }
        None => {
            eprintln!("note: chromedriver is not installed; the browser test is skipped");
            None
        }
    }
}

fn shots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots")
}

const BOARD_READY: &str =
    "return typeof S !== 'undefined' && S !== null && document.querySelectorAll('.cell').length === S.board.cells.length && shownVersion === S.version";

fn set(b: &Browser, select: &str, value: &str) {
    b.exec(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('change')); return true",
        json!([select, value]),
    );
}

#[test]
fn play_in_a_browser() {
    let Some(b) = browser() else { return };
    let dir = std::env::temp_dir().join(format!("zrf-serve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chess.zrf");
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf"))
            .unwrap();
    std::fs::write(&file, &text).unwrap();
    let s = Served::start(&file.to_string_lossy(), &[]);
    b.goto(&s.url());
    b.wait("the chess board", BOARD_READY);
    assert_eq!(
        b.exec(
            "return document.querySelectorAll('.piece').length",
            json!([])
        ),
        32
    );

    // The computer plays Black, at depth 2 to be quick.
    set(&b, "engine", "alphabeta depth 2");
    b.wait("the engine setting", "return S.engine.includes('depth 2')");
    set(&b, "computer", "1");
    b.wait("the computer side", "return S.computer[1] === true");

    // e2-e4 by two clicks; the computer answers.
    b.click("[data-sq=e2]");
    b.wait(
        "two destinations",
        "return document.querySelectorAll('[data-target]').length === 2",
    );
    b.click("[data-sq=e4]");
    b.wait(
        "the computer's reply",
        "const h = document.getElementById('history').textContent.trim(); return !S.thinking && h.startsWith('1. e4 ') && h.split(/\\s+/).length === 3",
    );
    // The move list is in SAN; the last move (the computer's reply) is highlighted: its two
    // squares, those the state names.
    assert_eq!(
        b.exec(
            "const h = document.getElementById('history').textContent.trim(); const marked = [...document.querySelectorAll('.last')].map(e => e.dataset.mark).sort().join(' '); const want = S.last.map(id => S.board.cells.find(c => c.id === id).name).sort().join(' '); return /^1\\. e4 [A-Za-z][a-z0-9x+#=]*$/.test(h) && S.last.length === 2 && marked === want && S.notation[1] === h.split(/\\s+/)[2]",
            json!([])
        ),
        true
    );
    // Flip turns the board half round: e1 above e8, then back.
    let e1_above_e8 = "const y = n => +document.querySelector('rect[data-sq=' + n + ']').getAttribute('y'); return y('e1') < y('e8')";
    assert_eq!(b.exec(e1_above_e8, json!([])), false);
    b.click("#flip");
    b.wait(
        "the flipped board",
        "return document.getElementById('board').dataset.flipped === '1'",
    );
    assert_eq!(b.exec(e1_above_e8, json!([])), true);
    b.screenshot(&shots().join("chess-flipped.png"));
    b.click("#flip");
    b.wait(
        "the board turned back",
        "return document.getElementById('board').dataset.flipped === '0'",
    );
    assert_eq!(
        b.exec(
            "return S.position.some(([at, p, o]) => S.board.cells.find(c => c.id === at).name === 'e4' && o === 0)",
            json!([])
        ),
        true
    );
    b.screenshot(&shots().join("chess.png"));

    // Undo goes back to White's first move.
    b.click("#undo");
    b.wait(
        "the take-back",
        "return document.getElementById('history').textContent === '' && S.mover === 0",
    );
    // An engine setting typed while the computer thinks applies from its next search.
    set(&b, "engine", "alphabeta time 2s");
    b.wait("the slow setting", "return S.engine.includes('time 2')");
    b.click("[data-sq=d2]");
    b.click("[data-sq=d4]");
    b.wait("the computer thinking", "return S.thinking");
    set(&b, "engine", "alphabeta depth 1");
    b.wait(
        "the setting held",
        "return document.getElementById('message').textContent.includes('applies from the next search')",
    );
    b.wait(
        "the setting applied after the search",
        "return !S.thinking && S.engine.includes('depth 1') && S.history.length === 2",
    );
    b.click("#undo");
    b.wait("the take-back", "return S.history.length === 0");
    set(&b, "computer", "none");
    b.wait("no computer", "return S.computer.every(c => !c)");

    // The author edits the file: the page follows.
    let edited = text.replacen("(title \"Chess\")", "(title \"Chess edited\")", 1);
    assert_ne!(edited, text, "chess.zrf has a title to edit");
    std::fs::write(&file, &edited).unwrap();
    b.wait(
        "the reloaded title",
        "return document.getElementById('title').textContent === 'Chess edited'",
    );

    // A broken file: the diagnostic is shown and the last good game goes on.
    let broken = edited.replacen("(board", "(bored", 1);
    std::fs::write(&file, &broken).unwrap();
    b.wait(
        "the diagnostic",
        "return document.getElementById('broken').classList.contains('on')",
    );
    let diag = b.exec(
        "return document.getElementById('broken').textContent",
        json!([]),
    );
    let diag = diag.as_str().unwrap();
    assert!(diag.contains("error"), "{diag}");
    assert!(
        diag.contains("chess.zrf:"),
        "the diagnostic names the file: {diag}"
    );
    b.click("[data-sq=d2]");
    b.click("[data-sq=d4]");
    b.wait(
        "a move with the last good rules",
        "return document.getElementById('history').textContent.trim() === '1. d4'",
    );
    b.screenshot(&shots().join("chess-broken-file.png"));
    // Mate: the king in check is marked, and the result says what happened.
    b.exec(
        "return cmd({cmd: 'setup', position: 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3'}).then(() => true)",
        json!([]),
    );
    b.wait(
        "the king in check",
        "return document.querySelectorAll('[data-check=e1]').length === 1 && document.getElementById('result').textContent === 'Black wins (checkmated)'",
    );
    b.screenshot(&shots().join("chess-mate.png"));
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);

    // A draughts capture by clicks.
    let s = Served::start("games/english-draughts.zrf", &[]);
    b.goto(&s.url());
    b.wait("the draughts board", BOARD_READY);
    b.exec(
        "return cmd({cmd: 'setup', position: 'W:W22:B18'}).then(() => true)",
        json!([]),
    );
    b.wait("the set-up position", "return S.position.length === 2");
    b.click("[data-label='22']");
    b.wait(
        "the capture's landing square",
        "return document.querySelectorAll('[data-target]').length === 1",
    );
    b.click("[data-label='15']");
    b.wait(
        "the capture",
        "return document.getElementById('history').textContent.includes('22x15') && S.position.length === 1",
    );

    // A capture chain, one landing square at a time: 22x15 then a choice of x6 or x8.
    b.exec(
        "return cmd({cmd: 'setup', position: 'W:W22,31:B18,11,10,19'}).then(() => true)",
        json!([]),
    );
    b.wait(
        "the chain position",
        "return S.position.length === 6 && S.moves.length === 2",
    );
    b.click("[data-label='22']");
    b.wait(
        "the first landing square",
        "return [...document.querySelectorAll('[data-target]')].map(e => e.dataset.target).length === 1",
    );
    b.click("[data-label='15']");
    b.wait(
        "the two ways on",
        "return document.querySelectorAll('[data-target]').length === 2 && document.querySelectorAll('.ghost').length === 1",
    );
    assert_eq!(
        b.exec(
            "return document.getElementById('history').textContent",
            json!([])
        ),
        "",
        "nothing is played before the chain is complete"
    );
    b.screenshot(&shots().join("draughts-chain-step.png"));
    b.click("[data-label='8']");
    b.wait(
        "the whole chain",
        "return document.getElementById('history').textContent.includes('22x8') && S.history[0] === '22x15x8' && S.position.length === 4",
    );
    drop(s);

    // The rules file's own bitmaps, generated here: a board and a piece per player.
    let dir = std::env::temp_dir().join(format!("zrf-serve-bitmaps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write_bmp = |name: &str, img: image::RgbImage| {
        img.save_with_format(dir.join(name), image::ImageFormat::Bmp)
            .unwrap();
    };
    write_bmp(
        "board.bmp",
        image::RgbImage::from_fn(180, 180, |x, y| {
            image::Rgb(if (x / 60 + y / 60) % 2 == 0 {
                [60, 110, 60]
            } else {
                [220, 200, 140]
            })
        }),
    );
    for (name, colour) in [("x.bmp", [180u8, 30, 30]), ("o.bmp", [30, 30, 180])] {
        write_bmp(
            name,
            image::RgbImage::from_fn(48, 48, |x, y| {
                let (dx, dy) = (x as i32 - 24, y as i32 - 24);
                image::Rgb(if dx * dx + dy * dy < 400 {
                    colour
                } else {
                    [0, 255, 0]
                })
            }),
        );
    }
    let ttt = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/tic-tac-toe.zrf"),
    )
    .unwrap()
    .replacen("(board\n", "(board\n    (image \"board.bmp\")\n", 1)
    .replacen(
        "(notation \"M\")",
        "(notation \"M\") (image X \"x.bmp\" O \"o.bmp\")",
        1,
    );
    let file = dir.join("ttt.zrf");
    std::fs::write(&file, ttt).unwrap();
    let s = Served::start(&file.to_string_lossy(), &[]);
    b.goto(&s.url());
    b.wait("the bitmap board", BOARD_READY);
    b.wait(
        "the board's bitmap",
        "const i = document.getElementById('boardimage'); return i !== null && i.getBBox().width === 180",
    );
    b.click("[data-sq=b2]");
    b.wait(
        "X's bitmap",
        "return document.querySelectorAll('#board [data-image]').length === 1",
    );
    b.click("[data-sq=a3]");
    b.wait(
        "O's bitmap",
        "return document.querySelectorAll('#board [data-image]').length === 2",
    );
    b.screenshot(&shots().join("bitmaps.png"));
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);

    // Screenshots of other boards.
    for (file, name) in [
        (
            "games/international-draughts.zrf",
            "international-draughts.png",
        ),
        (
            "tests/corpus/dagaz/custodian/agon.zrf",
            "agon-hexagonal.png",
        ),
        ("tests/corpus/dagaz/xiangqi/xiang-hex.zrf", "xiang-hex.png"),
        ("tests/corpus/dagaz/morris/morris.zrf", "morris.png"),
    ] {
        let s = Served::start(file, &[]);
        b.goto(&s.url());
        b.wait(file, BOARD_READY);
        b.screenshot(&shots().join(name));
    }

    // Halfgi with pieces in hand: play until a capture fills a hand.
    let s = Served::start("games/halfgi.zrf", &[]);
    b.goto(&s.url());
    b.wait("the Halfgi board", BOARD_READY);
    let id = b.exec("return id", json!([]));
    let game = format!("/api/games/{id}");
    for ply in 0..80 {
        let (_, st) = s.get(&game);
        let held: u64 = st["hand"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|h| h.as_array().unwrap().iter().map(|n| n.as_u64().unwrap()))
            .sum();
        if held >= 2 {
            break;
        }
        let moves = st["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "Halfgi ended before a capture");
        let pick: &Value = moves
            .iter()
            .find(|m| !m["captures"].as_array().unwrap().is_empty())
            .unwrap_or(&moves[(ply * 7) % moves.len()]);
        let (code, _) = s.post(&game, &json!({"cmd": "move", "move": pick["text"]}));
        assert_eq!(code, 200);
    }
    b.wait(
        "the pieces in hand",
        "return document.querySelectorAll('#handlist svg').length > 0",
    );
    b.screenshot(&shots().join("halfgi-hand.png"));
    drop(s);

    // A start position with no legal move (the corpus' Hex 10x10) says why nothing plays.
    let s = Served::start("tests/corpus/dagaz/arrange/hex.zrf", &[]);
    b.goto(&s.url());
    b.wait("the Hex board", BOARD_READY);
    b.wait(
        "the warning",
        "return document.getElementById('stuck').textContent.startsWith('Nothing can be played: Red has no legal move')",
    );

    // Brazilian draughts shows a PDN FEN; a win by capturing every piece says so.
    let s = Served::start(
        "games/international-draughts.zrf",
        &["--variant", "Brazilian"],
    );
    b.goto(&s.url());
    b.wait("the Brazilian board", BOARD_READY);
    b.wait(
        "the PDN FEN",
        "return document.getElementById('position').value.startsWith('W:W')",
    );
    b.exec(
        "return cmd({cmd: 'setup', position: 'W:Wc3:Bd4'}).then(() => true)",
        json!([]),
    );
    b.wait("the set-up position", "return S.position.length === 2");
    b.click("[data-sq=c3]");
    b.click("[data-sq=e5]");
    b.wait(
        "the result",
        "return document.getElementById('result').textContent === 'White wins (Black has no pieces left)' && document.getElementById('history').textContent.trim() === '1. c3xe5'",
    );
}
