//! Zillions saved games (`.zsg`): records written for this suite under `tests/records/`
//! replayed against shipped and corpus rules, positions checked after the replay, the
//! divergence report, `zrf replay --check`, and records saved from the play session and
//! replayed.

use std::path::Path;
use std::process::Command;

mod common;

use common::{TempDir, TestFiles as Fs};
use zrf::repl::Session;

/// Paths relative to the crate root, or inside a temporary folder.
/// Replays a record file and returns the session.
fn replay(path: &str) -> Session {
    let text = std::fs::read_to_string(path).expect("the record");
    match Session::from_record(&text, path, &Fs(Path::new("."))) {
        Ok(s) => s,
        Err(e) => panic!("{path}: {e}"),
    }
}

/// The native position text after a replay.
fn position(s: &mut Session) -> String {
    s.eval_line("position").text.trim_end().to_string()
}

fn zrf(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(args)
        .output()
        .expect("run zrf");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn chess_en_passant_castling_both_ways_and_promotion() {
    // Castling is written rook first on White's side, king first on Black's; en passant as a
    // move to the empty square with `x f5`; the promotion as `= Queen`; CR LF line ends; four
    // player letters for two players.
    let mut s = replay("tests/records/zsg/chess.zsg");
    assert_eq!(s.game().plies(), 15);
    assert_eq!(
        s.game().played()[4..],
        [
            "e5xf6", "b8-c6", "g1-f3", "c8-d7", "f1-c4", "e7-e6", "e1-g1", "d8-e7", "f6xg7",
            "e8-c8", "g7xh8=Q"
        ]
    );
    assert_eq!(
        position(&mut s),
        "turn 1; last g7 h8; White Pawn a2 b2 c2 d2 f2 g2 h2; White Knight f3 b1; \
         White Bishop c4 c1; White Rook a1 f1-never-moved?; White Queen h8 d1; \
         White King g1-never-moved?; Black Pawn a7 b7 c7 h7 e6 d5; Black Knight g8 c6; \
         Black Bishop f8 d7; Black Rook d8-never-moved?; Black Queen e7; \
         Black King c8-never-moved?; counter halfmove-clock 0"
    );
}

#[test]
fn crazyhouse_drops_as_placements_and_from_off_the_board() {
    let mut s = replay("tests/records/zsg/crazyhouse.zsg");
    assert_eq!(s.title(), "Crazyhouse");
    assert_eq!(s.game().played()[6..], ["P@d4", "P@e4", "c3xe4"]);
    assert_eq!(
        position(&mut s),
        "turn 1; last c3 e4; White Pawn d4 a2 b2 c2 d2 f2 g2 h2; off White Pawn 1; \
         White Knight e4 g1; White Bishop c1 f1; White Rook a1 h1; White Queen d1; \
         White King e1; Black Pawn a7 b7 c7 e7 f7 g7 h7; Black Knight b8 g8; \
         Black Bishop c8 f8; Black Rook a8 h8; Black Queen a5; Black King e8; \
         counter halfmove-clock 0"
    );
}

#[test]
fn a_placement_may_name_its_player() {
    let text = std::fs::read_to_string("tests/records/zsg/crazyhouse.zsg").unwrap();
    let files = Fs(Path::new("."));
    let path = "tests/records/zsg/named.zsg";
    let named = text.replace("4. Pawn d4", "4. White Pawn d4");
    let s = Session::from_record(&named, path, &files).unwrap();
    assert_eq!(s.game().played()[6], "P@d4");
    let wrong = text.replace("4. Pawn d4", "4. Black Pawn d4");
    let e = Session::from_record(&wrong, path, &files)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.starts_with(&format!(
            "{path}: line 10: no legal move matches it: `4. Black Pawn d4`\n\
             nearest legal moves:\n  \
             Pawn d4 (P@d4; 0 of 1 agree)\n  \
             Pawn d2 - d4 (d2-d4; 0 of 2 agree)\n"
        )),
        "{e}"
    );
}

#[test]
fn checkers_edits_and_a_partial_capture_chain() {
    // The edits leave a black man on c5 that jumps d4 and d2 in two partial steps, crowning
    // on c1; the promotion written after the capture.
    let mut s = replay("tests/records/zsg/checkers-partial.zsg");
    assert_eq!(s.game().played(), ["14x23x30", "6-2"]);
    assert_eq!(
        position(&mut s),
        "turn 0; last c7 d8; Black Man b8; Black King c1; White Man f4; White King d8; counter forty 0"
    );
}

#[test]
fn international_draughts_maximal_capture_in_partial_steps() {
    // Edits set up a two-piece capture; the man must take both (maximal captures), and Black
    // then crowns with a capture, `x h2` before `= King`.
    let mut s = replay("tests/records/zsg/international-draughts.zsg");
    assert_eq!(s.game().played(), ["32x21x12", "39x50"]);
    assert_eq!(
        position(&mut s),
        "turn 0; last g3 i1; White Man d8; Black Man a9; Black King i1; counter kings-only 0; \
         counter ending16 0; counter ending16-held 0; counter ending5 0; counter ending5-held 0"
    );
    // Stopping after the first step is not a whole turn in zrf (nor in Zillions).
    let text = std::fs::read_to_string("tests/records/zsg/international-draughts.zsg")
        .unwrap()
        .replace("1. Man b6 - d8 x c7\n", "");
    let e = Session::from_record(&text, "tests/records/zsg/x.zsg", &Fs(Path::new(".")))
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        "tests/records/zsg/x.zsg: line 41: no legal move matches it: \
         `1. partial 2 Man d4 - b6 x c5`\n\
         nearest legal moves:\n  \
         partial 1 Man d4 - b6 x c5 / Man b6 - d8 x c7 (32x21x12; 2 of 5 agree)"
    );
}

#[test]
fn a_pass_in_a_corpus_game() {
    let mut s = replay("tests/records/zsg/mana-pass.zsg");
    assert_eq!(s.game().played(), ["pass", "a7-c3", "b0-b6"]);
    assert_eq!(
        position(&mut s),
        "turn 1; last b0 b6; White Ronin b6 a0 c0 d0 e0; White Damyo f0; \
         Black Ronin b7 c7 d7 e7 c3; Black Damyo f7"
    );
}

#[test]
fn windows_rules_paths_fall_back_to_the_file_beside_the_record() {
    let dir = TempDir::new("zsg-windows");
    std::fs::copy("games/chess.zrf", dir.0.join("chess.zrf")).unwrap();
    for rules in [
        ".\\chess.zrf",
        "C:\\Program Files\\Zillions\\Rules\\CHESS.ZRF",
    ] {
        let text = format!(
            "Zillions Save Game File Version 0.02 HC\nRulesFile={rules}\nVariantName=Chess\n\
             1. Pawn e2 - e4\n1. Pawn c7 - c5\n"
        );
        let path = dir.write("game.zsg", &text);
        let path = path.to_str().unwrap();
        let mut s = Session::from_record(&text, path, &Fs(Path::new("."))).unwrap();
        assert_eq!(s.game().played(), ["e2-e4", "c7-c5"], "{rules}");
        assert!(position(&mut s).contains("Black Pawn a7 b7 d7"), "{rules}");
    }
    // No such file anywhere: the error says so and how to name it.
    let text = "Zillions Save Game File Version 0.02 HC\nRulesFile=C:\\Zillions\\Nope.zrf\n";
    let path = dir.write("nope.zsg", text);
    let e = Session::from_record(text, path.to_str().unwrap(), &Fs(Path::new(".")))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("cannot find the rules file `C:\\Zillions\\Nope.zrf`"),
        "{e}"
    );
    assert!(e.contains("--rules"), "{e}");
}

#[test]
fn replay_prints_the_position_and_rules_override() {
    let (code, out, err) = zrf(&["replay", "tests/records/zsg/mana-pass.zsg"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Last move: b0-b6."), "{out}");
    assert!(out.ends_with("result: * (the game is not over)\n"), "{out}");
    // --rules replaces the RulesFile line.
    let dir = TempDir::new("zsg-rules");
    let rec = dir.write(
        "g.zsg",
        "Zillions Save Game File Version 0.02 HH\nRulesFile=missing.zrf\n1. Pawn e2 - e4\n",
    );
    let (code, out, err) = zrf(&[
        "replay",
        rec.to_str().unwrap(),
        "--rules",
        "games/chess.zrf",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Last move: e4 (e2-e4)."), "{out}");
}

#[test]
fn a_zsg_file_that_is_no_saved_game_says_so() {
    // Zillions also writes match logs, and people save them as `.zsg`: they name no rules
    // file. The error says what the file starts with instead of asking for a `Game` header.
    let dir = TempDir::new("zsg-log");
    let rec = dir.write(
        "log.zsg",
        "Player 1 variant = \"G-[random]\"\nPlayer 2 variant = \"G-[random]\"\nGame 1 of 1\n\n\
         1. Man a1 - a2\n",
    );
    let (code, out, err) = zrf(&["replay", rec.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: not a Zillions saved game: it starts `Player 1 variant = \"G-[random]\"`, \
         not `Zillions Save Game File Version`\n"
    );
    // `--check` says the same of it.
    let (code, out, _) = zrf(&["replay", "--check", dir.0.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(
        out.ends_with(
            "log.zsg: not a Zillions saved game: it starts `Player 1 variant = \"G-[random]\"`, \
             not `Zillions Save Game File Version`\n1 records: 0 ok, 1 failed\n"
        ),
        "{out}"
    );
}

#[test]
fn a_diverging_record_names_its_line_and_the_nearest_moves() {
    let (code, out, err) = zrf(&["replay", "tests/records/diverging/chess-castle.zsg"]);
    assert_eq!(code, Some(1));
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: tests/records/diverging/chess-castle.zsg: line 10: no legal move matches it: \
         `4. King e1 - g1`\n\
         nearest legal moves:\n  \
         King e1 - g1 Rook h1 - f1 (e1-g1; 2 of 4 agree)\n  \
         King e1 - e2 (e1-e2; 1 of 3 agree)\n  \
         King e1 - f1 (e1-f1; 1 of 3 agree)\n  \
         Knight f3 - g1 (f3-g1; 0 of 3 agree)\n  \
         Rook h1 - g1 (h1-g1; 0 of 3 agree)\n"
    );
}

#[test]
fn effects_as_zillions_writes_them() {
    // A man marked by an attribute (`@ SQUARE INDEX VALUE`), a captured man carried to the
    // square X (written as a move from where it was taken) and turned (`flip X`).
    let path = "tests/records/zsg/hand.zsg";
    let mut s = replay(path);
    assert_eq!(s.game().played(), ["b1-b2", "b3-b2"]);
    assert_eq!(
        position(&mut s),
        "turn 0; last b3 b2; North Man a1 c1; South Man a3 c3 b2+moved? X+moved?"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let open = |text: &str| Session::from_record(text, path, &Fs(Path::new(".")));
    // `= PLAYER` after the carried piece names its new owner: the same turn.
    let owner = text.replace("flip X", "= South");
    assert_eq!(open(&owner).unwrap().game().played()[1], "b3-b2");
    // Without the change of sides, or with the attribute left clear, no move matches.
    for wrong in [
        text.replace(" flip X", ""),
        text.replace("flip X @ b2 0 1", "flip X @ b2 0 0"),
    ] {
        let e = open(&wrong).err().unwrap().to_string();
        assert!(e.contains("line 5: no legal move matches it"), "{e}");
    }
}

#[test]
fn a_piece_replaced_by_create_is_recycled() {
    // The Marker a drop puts down is replaced by the Stone its block creates; with
    // "recycle captures" it goes back to its owner's hand, so North drops it again on its
    // second turn (Zillions' MarGo records drop their one marker every turn this way).
    let path = "tests/records/zsg/marker.zsg";
    let mut s = replay(path);
    assert_eq!(s.game().played(), ["Marker@a1", "Marker@c3", "Marker@b2"]);
    assert_eq!(
        position(&mut s),
        "turn 1; last - b2; off North Marker 1; North Stone b2 a1; off South Marker 1; \
         South Stone c3"
    );
    // Without recycling the Marker is spent: North has nothing to drop on its second turn.
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("VariantName=Marker", "VariantName=Marker (kept)");
    let e = Session::from_record(&text, path, &Fs(Path::new(".")))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("line 6: there are no legal moves here"), "{e}");
}

/// A record for `tests/records/zsg-rules/marks.zrf` (variant `variant`) with these move lines.
fn marks(variant: &str, moves: &str) -> Result<Session, String> {
    let text = format!(
        "Zillions Save Game File Version 0.02 HH\r\nRulesFile=../zsg-rules/marks.zrf\r\n\
         VariantName={variant}\r\n{moves}"
    );
    Session::from_record(&text, "tests/records/zsg/marks.zsg", &Fs(Path::new(".")))
        .map_err(|e| e.to_string())
}

#[test]
fn attributes_are_numbered_from_the_last_declared() {
    // Zillions numbers a piece's attributes from the last one it declares: `@ b2 0 1` sets
    // `moved?` (declared second) on the mover, `@ c2 1 1` sets `seen?` on the enemy beside
    // it; a piece that moves keeps its marks, and one sent to H keeps them too.
    let moves = "1. Man b1 - b2 @ b2 0 1 @ c2 1 1\r\n\
                 1. Man c2 - c1 @ c1 0 1\r\n\
                 2. Man b2 x b3 Man b3 - H flip H @ b3 0 1\r\n";
    let mut s = marks("Marks", moves).unwrap();
    assert_eq!(s.game().played(), ["b1-b2", "c2-c1", "b2-b3"]);
    assert_eq!(
        position(&mut s),
        "turn 1; last b2 b3; North Man b3+moved? e1 H; North King a1; \
         South Man e2 c1+seen?+moved?; South King a2"
    );
    // Counted from the first declared, the same lines name the other attribute.
    for wrong in [
        moves.replace("@ c2 1 1", "@ c2 0 1"),
        moves.replace("@ b2 0 1 @ c2", "@ b2 1 1 @ c2"),
    ] {
        let e = marks("Marks", &wrong).err().unwrap();
        assert!(e.contains("line 4: no legal move matches it"), "{e}");
    }
}

#[test]
fn maximal_captures_count_a_jumped_piece_that_changes_type() {
    // "maximal captures": the king that jumps a king and turns it into a man takes as many
    // pieces as the man that jumps and captures a man, so both are legal (Zillions' Northern
    // Kings records take such jumps while a capture is on offer); a plain step is not.
    let mut s = marks("Marks, maximal captures", "").unwrap();
    let moves = s.eval_line("moves").text;
    assert!(
        moves.contains("a1-a3") && moves.contains("e1xe3"),
        "{moves}"
    );
    assert!(!moves.contains("b1-b2"), "{moves}");
    let mut s = marks("Marks, maximal captures", "1. King a1 - a3 = Man on a2\r\n").unwrap();
    assert_eq!(
        position(&mut s),
        "turn 1; last a1 a3; North Man b1 e1; North King a3; South Man b3 a2 c2 e2"
    );
}

#[test]
fn a_capture_carried_to_a_reserve_in_a_corpus_game() {
    // Knight's Court: a captured piece moves to a reserve square (x1...y3), from where it
    // is dropped later by its owner (`Rook x3 - a2`).
    let mut s = replay("tests/records/zsg/knights-court.zsg");
    assert_eq!(s.game().plies(), 3);
    assert!(
        position(&mut s).contains("Black Bishop x3"),
        "{}",
        position(&mut s)
    );
    // A record saved with another version of the rules names the variant a little
    // differently (`Knight Court`): the nearest title is taken.
    let text = std::fs::read_to_string("tests/records/zsg/knights-court.zsg")
        .unwrap()
        .replace("Knight's Court", "Knight Court");
    let s = Session::from_record(&text, "tests/records/zsg/kc.zsg", &Fs(Path::new("."))).unwrap();
    assert_eq!(s.game().plies(), 3);
}

#[test]
fn partial_steps_in_the_older_zrf_form_still_read() {
    // zrf once marked the later steps `partial K` instead of the earlier ones.
    let text = std::fs::read_to_string("tests/records/zsg/checkers-partial.zsg")
        .unwrap()
        .replace(
            "1. partial 2 Man c5 - e3 x d4\n1. Man e3 - c1 x d2 = King",
            "1. Man c5 - e3 x d4\n1. partial 2 Man e3 - c1 x d2 = King",
        );
    let s = Session::from_record(&text, "tests/records/zsg/old.zsg", &Fs(Path::new("."))).unwrap();
    assert_eq!(s.game().played(), ["14x23x30", "6-2"]);
}

#[test]
fn check_replays_every_record_under_a_folder() {
    let (code, out, _) = zrf(&["replay", "--check", "tests/records/zsg"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "ok   tests/records/zsg/checkers-partial.zsg: 2 moves, *\n\
         ok   tests/records/zsg/chess.zsg: 15 moves, *\n\
         ok   tests/records/zsg/crazyhouse.zsg: 9 moves, *\n\
         ok   tests/records/zsg/hand.zsg: 2 moves, *\n\
         ok   tests/records/zsg/international-draughts.zsg: 2 moves, *\n\
         ok   tests/records/zsg/knights-court.zsg: 3 moves, *\n\
         ok   tests/records/zsg/lion.zsg: 4 moves, *\n\
         ok   tests/records/zsg/mana-pass.zsg: 3 moves, *\n\
         ok   tests/records/zsg/marker.zsg: 3 moves, *\n\
         9 records: 9 ok, 0 failed\n"
    );
    // Native records too; one failure makes the exit code 1.
    let (code, out, _) = zrf(&["replay", "--check", "tests/records"]);
    assert_eq!(code, Some(1));
    assert!(
        out.starts_with(
            "FAIL tests/records/diverging/chess-castle.zsg: line 10: no legal move matches it: \
             `4. King e1 - g1`\n\
             ok   tests/records/native/scholars-mate.game: 7 moves, White wins (checkmated)\n"
        ),
        "{out}"
    );
    assert!(out.ends_with("11 records: 10 ok, 1 failed\n"), "{out}");
}

#[test]
fn bad_records_name_the_line() {
    let dir = TempDir::new("zsg-bad");
    let head = format!(
        "Zillions Save Game File Version 0.02 HH\nRulesFile={}/games/chess.zrf\n",
        env!("CARGO_MANIFEST_DIR")
    );
    for (tail, want) in [
        ("(x z9)\n", "line 3: the rules have no square `z9`"),
        (
            "(White Queeen d4)\n",
            "line 3: the rules have no piece `Queeen`; did you mean `Queen`?",
        ),
        ("1. Pawn e2 - e4 x\n", "line 3: `x` is followed by a square"),
        (
            "1. partial 2 Pawn e2 - e4\n1. Pawn e4 - e5\n",
            "line 4: no legal move matches it: `1. Pawn e4 - e5`",
        ),
        (
            "1. Pawn e2 - e4\n1. = Queen on e4\n",
            "line 4: no legal move matches it",
        ),
        (
            "1. Pawn e2 - e4 @ e4\n",
            "line 3: `@` is followed by a square",
        ),
        (
            "1. Pawn e2 - e4\n1. Pawn e7 - e5\n2. Pawn e4 - e5\n",
            "line 5: no legal move matches",
        ),
        (
            &format!("1. {}\n", "x ".repeat(3000)),
            "line 3: the line is longer than",
        ),
    ] {
        let path = dir.write("bad.zsg", &format!("{head}{tail}"));
        let text = std::fs::read_to_string(&path).unwrap();
        let rel = format!("{}", path.display());
        let e = Session::from_record(&text, &rel, &Fs(Path::new(".")))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains(want), "{tail}: {e}");
    }
}

/// Plays lines in a session, saves to `name` in a temporary folder, loads it back in a new
/// session and returns both positions and the record.
fn round_trip(
    game: &str,
    variant: Option<&str>,
    setup: Option<&str>,
    lines: &[&str],
) -> (String, String, String) {
    let dir = TempDir::new("zsg-save");
    let files = Fs(&dir.0);
    let mut s = Session::open(game, &files, variant, setup).unwrap();
    for l in lines {
        let out = s.run_line(l, &files);
        assert!(!out.error, "{l}: {}", out.text);
    }
    let out = s.run_line("save game.zsg", &files);
    assert!(!out.error, "{}", out.text);
    let record = std::fs::read_to_string(dir.0.join("game.zsg")).unwrap();
    let mut t = Session::open(game, &files, None, None).unwrap();
    let out = t.run_line("load game.zsg", &files);
    assert!(!out.error, "{}", out.text);
    assert_eq!(t.game().played(), s.game().played());
    (position(&mut s), position(&mut t), record)
}

#[test]
fn saved_records_replay_to_the_same_position() {
    let (a, b, rec) = round_trip(
        "games/chess.zrf",
        None,
        None,
        &["e2-e4 d7-d5 e4-e5 f7-f5 e5xf6 g8-h6 f6xg7 e8-f7 g7xh8=N"],
    );
    assert_eq!(a, b);
    assert_eq!(
        rec,
        "Zillions Save Game File Version 0.02 HH\r\nRulesFile=games/chess.zrf\r\n\
         VariantName=Chess\r\n1. Pawn e2 - e4\r\n1. Pawn d7 - d5\r\n2. Pawn e4 - e5\r\n\
         2. Pawn f7 - f5\r\n3. Pawn e5 - f6 x f5\r\n3. Knight g8 - h6\r\n4. Pawn f6 x g7\r\n\
         4. King e8 - f7\r\n5. Pawn g7 x h8 = Knight\r\n"
    );
    // Drops and a chain of partial captures from a set-up position (written as edits).
    let (a, b, rec) = round_trip(
        "games/chess.zrf",
        Some("Crazyhouse"),
        None,
        &["e2-e4 d7-d5 e4xd5 d8xd5 b1-c3 d5-a5 P@d4"],
    );
    assert_eq!(a, b);
    assert!(rec.ends_with("4. Pawn d4\r\n"), "{rec}");
    let (a, b, rec) = round_trip(
        "games/checkers.zrf",
        None,
        Some("B:W18,26,19,6:B14,1"),
        &["14x23x30", "6-2"],
    );
    assert_eq!(a, b);
    assert!(
        rec.contains("(White Man c7)\r\n")
            && rec.ends_with(
                "1. partial 1 Man c5 - e3 x d4\r\n1. Man e3 - c1 = King x d2\r\n\
                 1. Man c7 - d8 = King\r\n"
            ),
        "{rec}"
    );
}

#[test]
fn a_start_the_format_cannot_hold_is_refused() {
    let dir = TempDir::new("zsg-refuse");
    let files = Fs(&dir.0);
    let mut s = Session::open("games/checkers.zrf", &files, None, Some("W:W18:B14")).unwrap();
    let out = s.run_line("save game.zsg", &files);
    assert!(out.error);
    assert!(out.text.contains("another side to move"), "{}", out.text);
    assert!(!dir.0.join("game.zsg").exists());
}

/// Plays seeded random moves, saves as ZSG, loads the record in a fresh session: the same
/// moves and position come back. Returns the number of moves played.
fn random_round_trip(game: &str, variant: Option<&str>, plies: usize, seed: u64) -> usize {
    let dir = TempDir::new("zsg-random");
    let files = Fs(&dir.0);
    let mut s = Session::open(game, &files, variant, None).unwrap();
    let mut x = seed;
    for _ in 0..plies {
        if s.game_mut().outcome().is_some() {
            break;
        }
        let texts = s.game_mut().legal_texts();
        if texts.is_empty() {
            break;
        }
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = &texts[(x >> 33) as usize % texts.len()];
        s.game_mut().play(pick).unwrap();
    }
    let out = s.run_line("save game.zsg", &files);
    assert!(!out.error, "{game}: {}", out.text);
    let mut t = Session::open(game, &files, None, None).unwrap();
    let out = t.run_line("load game.zsg", &files);
    assert!(!out.error, "{game} {variant:?} seed {seed}: {}", out.text);
    assert_eq!(t.game().played(), s.game().played(), "{game}");
    assert_eq!(position(&mut t), position(&mut s), "{game}");
    s.game().plies()
}

#[test]
fn random_games_survive_a_save_and_a_replay() {
    for (game, variant) in [
        ("games/chess.zrf", None),
        ("games/chess.zrf", Some("Crazyhouse")),
        ("games/chess.zrf", Some("Chessgi")),
        ("games/halfgi.zrf", None),
        ("games/checkers.zrf", None),
        ("games/international-draughts.zrf", None),
        ("games/frisian-draughts.zrf", None),
        ("tests/corpus/dagaz/custodian/reversi.zrf", None),
        ("tests/corpus/dagaz/elimination/mana.zrf", None),
    ] {
        for seed in 1..=3 {
            random_round_trip(game, variant, 120, seed);
        }
    }
}

#[test]
fn a_long_record_replays_in_linear_time() {
    // 600 plies of Crazyhouse (drops keep material on the board, so games run long).
    let t = std::time::Instant::now();
    let n = random_round_trip("games/chess.zrf", Some("Crazyhouse"), 600, 7);
    assert!(n >= 200, "only {n} moves");
    eprintln!("{n} moves saved and replayed in {:?}", t.elapsed());
    assert!(
        t.elapsed().as_secs() < 60,
        "{:?} for {n} moves",
        t.elapsed()
    );
}

#[test]
fn the_binary_saves_atomically_and_replays_what_it_saved() {
    use std::io::Write;
    let dir = TempDir::new("zsg-binary");
    let rec = dir.0.join("g.zsg");
    let mut child = Command::new(env!("CARGO_BIN_EXE_zrf"))
        .args(["play", "games/chess.zrf"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!("e2-e4 e7-e5 g1-f3\nsave {}\n", rec.display());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    let names: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["g.zsg"], "no temporary file is left behind");
    let (code, out, err) = zrf(&["replay", rec.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Last move: Nf3 (g1-f3)."), "{out}");
}

#[test]
fn mangled_records_give_errors_not_panics() {
    let good = std::fs::read("tests/records/zsg/checkers-partial.zsg").unwrap();
    let files = Fs(Path::new("."));
    let mut x: u64 = 99;
    let mut errors = 0;
    for _ in 0..150 {
        let mut b = good.clone();
        for _ in 0..3 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            // Mangle only the moves and edits, so that the rules are found.
            let i = 100 + (x >> 33) as usize % (b.len() - 100);
            match (x >> 20) % 3 {
                0 => {
                    b.remove(i);
                }
                1 => b.insert(i, b" x=-2\n"[(x >> 8) as usize % 6]),
                _ => b[i] = b"abcdefgh12345678"[(x >> 40) as usize % 16],
            }
        }
        let text = String::from_utf8_lossy(&b);
        if Session::from_record(&text, "tests/records/zsg/m.zsg", &files).is_err() {
            errors += 1;
        }
    }
    assert!(
        errors > 100,
        "only {errors} of 150 mangled records were refused"
    );
}
