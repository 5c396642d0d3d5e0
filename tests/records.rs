//! Game records in every format that applies: zrf's own, PGN (games with SAN) and PDN
//! (draughts). Saved, loaded and replayed games reach the same position in every shipped game
//! and variant; games written by Fairy-Stockfish (SAN) and pydraughts (PDN) replay to the
//! positions those programs reached.

mod common;

use common::{TempDir, TestFiles};
use zrf::repl::records::RulesHint;
use zrf::repl::Session;

fn native(s: &Session) -> String {
    zrf::setup::native(&s.game().rules, &s.game().pos)
}

const NO_HINT: RulesHint = RulesHint {
    path: None,
    titles: None,
    variant: None,
};

/// Every game and variant: 40 random plies, then each applicable format saved, loaded into a
/// session of another game and replayed as `zrf replay` does; all give the same position.
#[test]
fn every_shipped_game_round_trips_through_every_format_that_applies() {
    let dir = TempDir::new("records");
    let files = TestFiles(&dir.0);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let mut games: Vec<String> = std::fs::read_dir("games")
        .expect("the games folder")
        .map(|e| e.expect("an entry").path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".zrf"))
        .collect();
    games.sort();
    let (mut pgn, mut pdn) = (0, 0);
    for game in &games {
        let probe = Session::open(game, &files, None, None).expect("opens");
        for v in 1..=probe.variant_count() {
            let mut s = Session::open(game, &files, Some(&v.to_string()), None).unwrap();
            s.today = Some("2025-01-31".into());
            for _ in 0..40 {
                let moves = s.game_mut().legal_texts();
                if moves.is_empty() || s.result().is_some() {
                    break;
                }
                let mv = moves[next(moves.len())].clone();
                assert!(!s.eval_line(&mv).error, "{game} v{v}: {mv}");
            }
            let end = native(&s);
            let played = s.game().played();
            let two = s.game().rules.def.players.len() == 2;
            let mut formats = vec!["game"];
            if s.game().has_san {
                formats.push("pgn");
                pgn += 1;
            } else if two {
                formats.push("pdn");
                pdn += 1;
            }
            for ext in formats {
                let name = format!("r.{ext}");
                let o = s.run_line(&format!("save {name}"), &files);
                assert!(!o.error, "{game} v{v} {ext}: {}", o.text);
                let text = std::fs::read_to_string(dir.0.join(&name)).unwrap();
                // `load` into a session of another game.
                let mut other = Session::open("games/tic-tac-toe.zrf", &files, None, None).unwrap();
                let o = other.run_line(&format!("load {name}"), &files);
                assert!(!o.error, "{game} v{v} {ext}: {}\n{text}", o.text);
                assert_eq!(native(&other), end, "{game} v{v} {ext}:\n{text}");
                assert_eq!(other.game().played(), played, "{game} v{v} {ext}");
                assert_eq!(other.title(), s.title(), "{game} v{v} {ext}");
                // `zrf replay`, and the result it compares.
                let (mut back, rec) =
                    Session::from_records(&text, &name, None, &NO_HINT, &files).unwrap();
                assert_eq!(native(&back), end, "{game} v{v} {ext}");
                let format = zrf::repl::records::Format::of(&name);
                assert_eq!(
                    rec.get("Result").map(String::from),
                    Some(back.result_token(format))
                );
            }
        }
    }
    assert!(pgn >= 6 && pdn >= 12, "PGN for {pgn} games, PDN for {pdn}");
}

/// A game from a setup keeps it: PGN writes `[SetUp "1"]` and `[FEN]`, PDN its `[FEN]`, from
/// whatever form the setup was given in.
#[test]
fn setups_round_trip_as_fen_tags() {
    let dir = TempDir::new("setups");
    let files = TestFiles(&dir.0);
    for (game, setup, moves, ext, tag) in [
        (
            "games/chess.zrf",
            "r3k2r/8/8/8/4p3/8/5P2/R3K2R w KQkq - 0 30",
            "f4 exf3 O-O-O",
            "pgn",
            "[FEN \"r3k2r/8/8/8/4p3/8/5P2/R3K2R w KQkq - 0 30\"]",
        ),
        (
            "games/international-draughts.zrf",
            "W:W38,45:B32,22,5",
            "38x27x18 5-10",
            "pdn",
            "[FEN \"W:W38,45:B5,22,32\"]",
        ),
    ] {
        let mut s = Session::open(game, &files, None, Some(setup)).unwrap();
        assert!(!s.eval_line(moves).error);
        let end = native(&s);
        // From the native text of the same position, too.
        let mut t = Session::open(game, &files, None, None).unwrap();
        let start = Session::open(game, &files, None, Some(setup)).unwrap();
        t.eval_line(&format!("setup {}", native(&start)));
        assert!(!t.eval_line(moves).error);
        for (k, s) in [&mut s, &mut t].into_iter().enumerate() {
            let name = format!("s{k}.{ext}");
            assert!(!s.run_line(&format!("save {name}"), &files).error);
            let text = std::fs::read_to_string(dir.0.join(&name)).unwrap();
            if k == 0 || ext == "pdn" {
                assert!(text.contains(tag), "{text}");
            }
            let (back, _) = Session::from_records(&text, &name, None, &NO_HINT, &files).unwrap();
            assert_eq!(native(&back), end, "{text}");
        }
    }
}

#[test]
fn pgn_and_pdn_files_written_look_as_other_programs_expect() {
    let dir = TempDir::new("written");
    let files = TestFiles(&dir.0);
    let mut s = Session::open("games/chess.zrf", &files, None, None).unwrap();
    s.today = Some("2025-01-31".into());
    s.eval_line("e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
    s.run_line("save m.pgn", &files);
    let text = std::fs::read_to_string(dir.0.join("m.pgn")).unwrap();
    assert_eq!(
        text,
        "[Event \"zrf game\"]\n[Site \"?\"]\n[Date \"2025.01.31\"]\n[Round \"-\"]\n\
         [White \"White\"]\n[Black \"Black\"]\n[Result \"1-0\"]\n[Game \"games/chess.zrf\"]\n\n\
         1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
    );
    let mut s = Session::open(
        "games/international-draughts.zrf",
        &files,
        None,
        Some("W:W38,45:B32,22,5"),
    )
    .unwrap();
    s.today = Some("2025-01-31".into());
    s.eval_line("38x27x18 5-10");
    s.run_line("save m.pdn", &files);
    let text = std::fs::read_to_string(dir.0.join("m.pdn")).unwrap();
    assert_eq!(
        text,
        "[Event \"zrf game\"]\n[Date \"2025.01.31\"]\n[White \"White\"]\n[Black \"Black\"]\n\
         [Result \"*\"]\n[GameType \"20\"]\n[FEN \"W:W38,45:B5,22,32\"]\n\
         [Game \"games/international-draughts.zrf\"]\n[Variant \"International Draughts\"]\n\n\
         1. 38x18 5-10 *\n"
    );
}

/// Games played by Fairy-Stockfish (pyffish 0.0.90, random legal moves, its `get_san_moves`
/// and `get_fen`), as PGN with comments, NAGs and variations as other programs write them:
/// zrf reaches the same position.
#[test]
fn fairy_stockfish_games_in_san_replay_to_its_positions() {
    let dir = TempDir::new("fsf");
    let files = TestFiles(&dir.0);
    let chess = "c4 h5 Nh3 Na6 d4 Rh6 Qc2 Rd6 Nd2 f6 Rb1 Kf7 Qd1 Ke6 Qb3 c5 e4 Kf7 Ng1 Qa5 Qc2 b5 Ne2 Nb4 Nf4 Re6 a3 Qc7 Nb3 Rb8 Ke2 a6 Kd2 g5 Nxe6 Kxe6 Ke1 Bg7 Be3 d5 Na5 Nc6 b4 g4 Qb3 Qd6 e5 g3 Kd2 Bd7 Be2 f5 exd6 exd6 Bg5 Bf6 f3 Nd8 Kc1 Bg7 Nb7 Bc6 Rg1 Bh6 Qe3+ Kf7 Rh1 Ne7 Rd1 Rxb7 Rf1 Kg7 hxg3 cxd4 Qe4 Rb6 Kb2 Ng6 Be7 Bf4";
    let zh = "h4 d5 e4 Nf6 a4 g5 g4 Nh5 e5 Bg7 Ra3 Be6 Rg3 Bxe5 Rg2 b5 Ke2 P@d4 Rgh2 Bf6 a5 Ng7 c4 Qd7 Qa4 Nc6 hxg5 h5 f4 Bxg5 P@d3 f6 Qb4 P@c3 Rf2 Nxa5 Qxb5 P@a2 Nf3 a1=B Nxc3 Qxb5 P@c6 Q@f5 P@g6 dxc3 dxc3 Qxg6 Rh4 Bxg4 Rg2 N@f7 P@d4 Nb3 Rg1 Qa6 Bd2 O-O-O Rg2 P@h6";
    let numbered = |moves: &str| {
        let mut out = String::new();
        for (k, m) in moves.split_whitespace().enumerate() {
            if k % 2 == 0 {
                out += &format!("{}. ", k / 2 + 1);
            }
            out += m;
            out += if k == 3 {
                " {a comment} $1 (3... Qa5 (3... Qb6) 4. Nc3) "
            } else {
                " "
            };
        }
        out
    };
    let text = format!(
        "[Event \"one\"]\n[Variant \"Standard\"]\n\n{} *\n\n[Event \"two\"]\n[Variant \"Crazyhouse\"]\n; lichess writes it so\n\n{} *\n",
        numbered(chess),
        numbered(zh)
    );
    std::fs::write(dir.0.join("fsf.pgn"), &text).unwrap();
    for (n, fen) in [
        (
            1,
            "3n4/4B1k1/prbp2n1/1p1p1p1p/1PPpQb2/P4PP1/1K2B1P1/1R3R2 w - - 6 41",
        ),
        (
            2,
            "2kr3r/p1p1pnn1/q1P2pqp/3p2bp/2PP1PbR/1nPP1N2/1P1BK1R1/b~4B2[p] w - - 0 31",
        ),
    ] {
        let (mut s, _) = Session::from_records(&text, "fsf.pgn", Some(n), &NO_HINT, &files)
            .unwrap_or_else(|e| panic!("game {n}: {e}"));
        let got = s.eval_line("fen").text;
        // Board, pocket and side to move; zrf writes the clocks it keeps.
        let want: Vec<&str> = fen.split_whitespace().take(2).collect();
        let have: Vec<&str> = got.split_whitespace().take(2).collect();
        assert_eq!(have, want, "game {n}");
    }
    // The same through `load FILE N` in a session.
    let mut s = Session::open("games/checkers.zrf", &files, None, None).unwrap();
    let o = s.run_line("load fsf.pgn 2", &files);
    assert!(!o.error, "{}", o.text);
    assert_eq!(s.title(), "Crazyhouse");
    let o = s.run_line("load fsf.pgn 3", &files);
    assert!(
        o.text
            .contains("there is no game 3: the file holds 2 games"),
        "{}",
        o.text
    );
}

/// Games played by pydraughts (random legal moves, written by its PDNWriter), without zrf's
/// `[Game]` tag: the game comes from `[GameType]`, and zrf reaches pydraughts' final position.
#[test]
fn pydraughts_games_replay_by_their_game_type() {
    let dir = TempDir::new("pydraughts");
    let files = TestFiles(&dir.0);
    let cases = [
        (
            "[GameType \"20,W,10,10,N2,0\"]\n[FEN \"W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,10,11,12,13,14,15,16,17,18,19,2,20,3,4,5,6,7,8,9\"]\n\n\
             1. 33-29 17-22 2. 34-30 11-17 3. 29-24 20x29 4. 32-28 22x33 5. 39x28 6-11 6. 28-23 19x28 7. 38-33 28x39 8. 43x23 18x29 9. 48-43 15-20 10. 30-24 20-25 11. 24x33 13-18 12. 44-39 18-23 13. 43-38 1-6 14. 49-43 23-28 15. 33x22 17x28 16. 37-32 28x48 17. 41-37 10-15 18. 38-32 12-18 19. 32-27 14-20 20. 27-22 18x27 21. 31x22 48x18 22. 50-44 25-30 23. 35x24 20x29 24. 39-33 29x49 25. 46-41 5-10 26. 44-39 49x35 27. 41-37 35-30 28. 47-41 30x26 29. 41-37 26x48 30. 45-40 18x45 *\n",
            "W:W36:B10,11,15,16,2,3,4,6,7,8,9,K45,K48",
        ),
        (
            "[GameType \"25,W,8,8,A0,0\"]\n[FEN \"W:Wa1,c3,e3,g3,c1,e1,g1,b2,d2,f2,h2,a3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\"]\n\n\
             1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. a3-b4 c5xa3 4. g3-f4 f6-e5 5. f4-g5 h6xf4 6. e3xg5 c7-b6 7. f2-g3 b6-a5 8. g5-h6 e7-f6 9. g3-f4 e5xg3 10. h2xf4 a5-b4 11. f4-g5 f6xh4 12. g1-h2 h4-g3 13. h2xf4 d6-c5 14. f4-e5 d8-e7 15. e5-d6 c5-d4 16. b2-c3 d4xb2 17. a1xa5 e7xc5 18. e1-f2 b8-a7 19. f2-g3 g7-f6 20. d2-c3 h8-g7 21. a5-b6 c5-d4 22. c3xe5 f6xd4 23. b6-c7 d4-e3 24. c1-d2 e3xc1 25. c7-b8 a3-b2 26. b8-f4 c1xg5 27. h6xf4 g7-h6 28. g3-h4 h6-g5 29. h4xf6 a7-b6 30. f6-g7 f8xh6 *\n",
            "W:Wf4:Bb6,h6,b2",
        ),
    ];
    for (k, (text, fen)) in cases.iter().enumerate() {
        let name = format!("py{k}.pdn");
        let (mut s, _) = Session::from_records(text, &name, None, &NO_HINT, &files)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = Session::open(s.path(), &files, Some(s.title()), Some(fen)).unwrap();
        // Compare the board only (the turn is the same: White after 30 rounds; the draw
        // rules' counters depend on the moves, not the position).
        let board = |s: &Session| {
            let t = native(s);
            t.split(';')
                .filter(|p| !p.contains("last") && !p.contains("counter"))
                .collect::<Vec<_>>()
                .join(";")
        };
        assert_eq!(board(&s), board(&want), "{name}");
        assert!(s.eval_line("history").text.starts_with("1. "));
    }
}

#[test]
fn records_that_name_no_known_game_say_so() {
    let dir = TempDir::new("unknown");
    let files = TestFiles(&dir.0);
    let e = Session::from_records("1. 32-28 *", "x.pdn", None, &NO_HINT, &files)
        .err()
        .expect("no game named")
        .to_string();
    assert!(e.contains("names no game"), "{e}");
    let e = Session::from_records(
        "[Variant \"Atomic\"]\n1. e4 *",
        "x.pgn",
        None,
        &NO_HINT,
        &files,
    )
    .err()
    .expect("unknown variant")
    .to_string();
    assert!(e.contains("`Atomic` is not one zrf ships"), "{e}");
    // With the rules given, a record without tags plays them.
    let hint = RulesHint {
        path: Some("games/russian-draughts.zrf"),
        titles: None,
        variant: None,
    };
    let (s, _) = Session::from_records("1. c3-d4 f6-e5 2. d4xf6 *", "x.pdn", None, &hint, &files)
        .expect("plays the rules given");
    assert_eq!(s.game().plies(), 3);
    let e = Session::from_records("1. e4 {unclosed", "x.pgn", None, &hint, &files)
        .err()
        .expect("a broken comment")
        .to_string();
    assert!(e.contains("not closed"), "{e}");
}

/// A PDN FEN as (side to move, white squares, black squares), kings marked, squares sorted.
fn fen_sets(fen: &str) -> (String, Vec<String>, Vec<String>) {
    let fen = fen.trim().trim_end_matches('.');
    let mut parts = fen.split(':');
    let turn = parts.next().unwrap_or("").to_string();
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for part in parts {
        let (side, squares) = part.split_at(1.min(part.len()));
        let list = if side == "W" { &mut white } else { &mut black };
        list.extend(
            squares
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        );
    }
    white.sort();
    black.sort();
    (turn, white, black)
}

/// zrf's PDN of random games, read by pydraughts' `PDNReader` (tests/pydraughts_read.py) and
/// replayed on pydraughts' boards: every move legal for pydraughts, and the same final
/// position. `.ci/run` installs pydraughts; without it the test fails under CI and is skipped
/// elsewhere with a note.
#[test]
fn pydraughts_reads_the_pdn_zrf_writes() {
    if !common::python_has("draughts", "pydraughts") {
        return;
    }
    let dir = TempDir::new("pdn-pydraughts");
    let files = TestFiles(&dir.0);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    // English draughts from the start only: from a setup with Black to move, pydraughts
    // reads the first move twice (docs/game-records.md).
    for (game, setup, plies) in [
        ("games/international-draughts.zrf", None, 80),
        ("games/english-draughts.zrf", None, 80),
        ("games/english-draughts.zrf", None, 1000),
        ("games/international-draughts.zrf", None, 1000),
        (
            "games/international-draughts.zrf",
            Some("W:WK46,31,32,33,36,37,38:BK5,16,17,18,19,20"),
            60,
        ),
    ] {
        let mut s = Session::open(game, &files, None, setup).expect("opens");
        s.today = Some("2025-01-31".into());
        for _ in 0..plies {
            let moves = s.game_mut().legal_texts();
            if moves.is_empty() || s.result().is_some() {
                break;
            }
            let mv = moves[next(moves.len())].clone();
            assert!(!s.eval_line(&mv).error, "{game}: {mv}");
        }
        let pdn = s.record_as("game.pdn").expect("writes PDN");
        let path = dir.0.join("game.pdn");
        std::fs::write(&path, &pdn).expect("write");
        let out = std::process::Command::new("python3")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/pydraughts_read.py"
            ))
            .arg(&path)
            .output()
            .expect("python3 runs");
        let read = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{read}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let fields: Vec<&str> = read.split_whitespace().collect();
        assert!(!read.starts_with("error"), "{game}: {read}\n{pdn}");
        assert_eq!(fields.len(), 4, "{read}");
        assert_eq!(
            fields[1].parse::<usize>().ok(),
            Some(s.game().plies()),
            "{game}: pydraughts read another number of moves\n{pdn}"
        );
        let result = s.result_token(zrf::repl::records::Format::Pdn);
        assert_eq!(fields[2], result, "{game}");
        let ours = s.eval_line("fen").text;
        assert_eq!(
            fen_sets(fields[3]),
            fen_sets(&ours),
            "{game}: pydraughts reached {} and zrf {ours}\n{pdn}",
            fields[3]
        );
        eprintln!("{game}: {} plies, result {result}", s.game().plies());
    }
}

/// zrf's PGN of random games of chess and Crazyhouse (with a setup too), read by python-chess
/// (`chess.pgn`, tests/python_chess_san.py; its `Variant` tag chooses the board) and replayed:
/// every move legal for python-chess and the same final position. `.ci/run` installs
/// python-chess; without it the test fails under CI and is skipped elsewhere with a note.
#[test]
fn python_chess_reads_the_pgn_zrf_writes() {
    if !common::python_has("chess", "python-chess") {
        return;
    }
    let dir = TempDir::new("pgn-python-chess");
    let files = TestFiles(&dir.0);
    let mut rng = common::Rng(0x5851_f42d_4c95_7f2d);
    for (variant, setup, plies) in [
        ("Chess", None, 120),
        ("Chess", None, 400),
        ("Chess", Some("4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 30"), 60),
        ("Crazyhouse", None, 120),
    ] {
        let mut s = Session::open("games/chess.zrf", &files, Some(variant), setup).expect("opens");
        s.today = Some("2025-01-31".into());
        for _ in 0..plies {
            let moves = s.game_mut().legal_texts();
            if moves.is_empty() || s.result().is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())].clone();
            assert!(!s.eval_line(&mv).error, "{variant}: {mv}");
        }
        let pgn = s.record_as("game.pgn").expect("writes PGN");
        let path = dir.0.join("game.pgn");
        std::fs::write(&path, &pgn).expect("write");
        let out = std::process::Command::new("python3")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/python_chess_san.py"
            ))
            .arg("replay")
            .arg(&path)
            .output()
            .expect("python3 runs");
        let read = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && !read.starts_with("error"),
            "{variant}: {read}{}\n{pgn}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (count, rest) = read.trim().split_once(' ').expect("three fields");
        let (result, fen) = rest.split_once(' ').expect("three fields");
        assert_eq!(
            count.parse::<usize>().ok(),
            Some(s.game().plies()),
            "{variant}: python-chess read another number of moves\n{pgn}"
        );
        assert_eq!(result, s.result_token(zrf::repl::records::Format::Pgn));
        let ours = s.eval_line("fen").text;
        // Board (python-chess marks promoted Crazyhouse pieces with `~`), side and castling.
        let fields = |f: &str| -> Vec<String> {
            f.split_whitespace()
                .take(3)
                .map(|x| x.replace('~', ""))
                .collect()
        };
        assert_eq!(fields(fen), fields(&ours), "{variant}\n{pgn}");
        eprintln!("{variant}: {} plies, {result}", s.game().plies());
    }
}

/// A FEN's fullmove number up to 4294967295 counts on without wrapping, in the board shown,
/// the FEN and the PGN written; a larger one is refused.
#[test]
fn the_largest_fullmove_number_counts_on_without_wrapping() {
    let dir = TempDir::new("fullmove");
    let files = TestFiles(&dir.0);
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967295";
    let mut s = Session::open("games/chess.zrf", &files, None, Some(fen)).expect("opens");
    for mv in ["d4", "d5", "Nf3"] {
        assert!(!s.eval_line(mv).error, "{mv}");
    }
    assert!(
        s.show().contains("Black to move, move 4294967296."),
        "{}",
        s.show()
    );
    assert!(s
        .eval_line("fen")
        .text
        .trim_end()
        .ends_with(" b KQkq - 1 4294967296"));
    let pgn = s.record_as("x.pgn").expect("PGN");
    assert!(pgn.contains("4294967295. d4 d5 4294967296. Nf3 *"), "{pgn}");
    let e = Session::open(
        "games/chess.zrf",
        &files,
        None,
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967296"),
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(e.contains("bad fullmove number `4294967296`"), "{e}");
}
