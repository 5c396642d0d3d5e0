"""zrf.cluster on a local Ray cluster of 2 CPUs: perft equal to the published counts, with a
worker killed mid-run and with a results file resumed; a selfplay table equal to
`zrf selfplay`'s; corpus checks equal to `zrf check --folder DIR` and `zrf replay --check DIR`;
the engine protocols through `python -m zrf.uci`; a protocol match over the cluster."""

import json
import os
import subprocess
import sys

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("tqdm")

import zrf  # noqa: E402
import zrf.cluster as zc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHESS = os.path.join(ROOT, "games", "chess.zrf")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.fixture(scope="module", autouse=True)
def local_cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_chess_perft_4_is_the_published_count():
    lines, total = zc.perft(CHESS, 4, cpus=2, progress=False)
    assert lines == ["1 20", "2 400", "3 8902", "4 197281"]
    assert total == 20 + 400 + 8902 + 197281


def test_split_rule_gives_enough_tasks():
    game = zrf.load(CHESS)
    # 8 tasks per CPU: 2 CPUs want 16 tasks, which the 20 first moves give; 100 CPUs want 800,
    # which 400 pairs are too few for, so the 8,902 sequences of 3 plies are the tasks.
    k, texts, frontier, counts = zc.split_depth(game, 7, None, 2)
    assert (k, len(texts), len(frontier), counts) == (1, 20, 20, [20])
    k, _, frontier, counts = zc.split_depth(game, 7, None, 100)
    assert (k, len(frontier), counts) == (3, 8902, [20, 400, 8902])


def test_divide_and_setup_match_the_single_process_counts():
    lines, _ = zc.perft(CHESS, 3, setup=KIWIPETE, divide=True, only=True, cpus=2,
                        progress=False)
    assert lines[0] == "3 97862"
    state = zrf.load(CHESS).new_initial_state()
    state.set_position(KIWIPETE)
    assert lines[1:] == [f"{m} {n}" for m, n in state.divide(3)]
    assert len(lines) == 1 + 48


def test_a_worker_killed_mid_perft_loses_and_doubles_nothing(tmp_path, monkeypatch):
    marker = tmp_path / "killed"
    # The worker that runs task 37 exits at once, the first time; Ray retries the task.
    monkeypatch.setenv("ZRF_CLUSTER_FAULT", f"37:{marker}")
    results = tmp_path / "perft.jsonl"
    lines, _ = zc.perft(CHESS, 4, only=True, cpus=2, split=2, results=str(results),
                        progress=False)
    assert marker.exists(), "the fault hook did not fire"
    assert lines == ["4 197281"]
    recs = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["task"] for r in recs) == list(range(400))


def test_a_rerun_resumes_from_the_results_file(tmp_path):
    results = tmp_path / "perft.jsonl"
    lines, _ = zc.perft(CHESS, 4, only=True, cpus=2, split=2, results=str(results),
                        progress=False)
    assert lines == ["4 197281"]
    recs = results.read_text().splitlines()
    assert len(recs) == 400
    # Keep the first 150 tasks, one of them altered by 1000 leaves, and a line cut short by
    # a crash: a rerun must take those 150 from the file (the alteration shows) and count
    # only the other 250.
    kept = [json.loads(r) for r in recs[:150]]
    kept[0]["result"] = [kept[0]["result"][0] + 1000]
    results.write_text("".join(json.dumps(r) + "\n" for r in kept) + recs[150][:20])
    lines, _ = zc.perft(CHESS, 4, only=True, cpus=2, split=2, results=str(results),
                        progress=False)
    assert lines == [f"4 {197281 + 1000}"]
    assert len(zc.load_results(str(results), kept[0]["run"])) == 400
    # Other arguments are another run: the file's lines do not count for it.
    lines, _ = zc.perft(CHESS, 3, only=True, cpus=2, split=2, results=str(results),
                        progress=False)
    assert lines == ["3 8902"]


# `zrf selfplay games/chess.zrf --games 20 --engine random --vs random` (seed 1).
SELFPLAY_TABLE = """Chess
A = random
B = random
A plays        games  wins draws losses   score avg plies
White             10     1     9      0   55.0%     315.8
Black             10     1     8      1   50.0%     328.7
all               20     2    17      1   52.5%     322.2
5 game(s) reached the ply limit and count as draws."""


# `zrf selfplay games/chess.zrf --games 4 --engine "depth 1" --vs random --max-plies 60`.
ENGINE_TABLE = """Chess
A = alphabeta depth 1 opponent random
B = random
A plays        games  wins draws losses   score avg plies
White              2     2     0      0  100.0%      22.0
Black              2     2     0      0  100.0%      39.0
all                4     4     0      0  100.0%      30.5"""


def test_selfplay_table_equals_the_binary(tmp_path):
    table = zc.selfplay(CHESS, games=20, engine="random", vs="random", cpus=2,
                        progress=False, results=str(tmp_path / "games.jsonl"))
    assert table == SELFPLAY_TABLE
    # Engine games go one per task, each played by whichever worker is free, and the table
    # is still the binary's: game i is seeded from the seed and i alone.
    assert zc.selfplay(CHESS, games=4, engine="depth 1", vs="random", max_plies=60,
                       progress=False) == ENGINE_TABLE


def test_random_games_are_cut_into_one_task_per_cpu_until_tasks_are_long():
    # 200 random chess games (0.3 s in one process) on 2 CPUs: one task of 100 each, since a
    # task costs Ray a few milliseconds; 2,000: tasks of 256 games; 20,000: 8 tasks per CPU.
    per = zc.random_games_per_task
    assert [per(n, 2) for n in (0, 1, 3, 20, 200, 2000, 20000)] == [1, 1, 2, 10, 100, 256, 1250]
    assert [per(200, c) for c in (1, 3, 64, 1000)] == [200, 67, 4, 1]


def test_selfplay_table_is_the_same_however_the_games_are_cut(tmp_path):
    # 1, 2, 3 and 7 tasks of consecutive games (cpus 1, 2, 3 and 7): game i is played from the
    # seed and i alone, whichever task plays it.
    for cpus in (1, 2, 3, 7):
        assert zc.selfplay(CHESS, games=20, engine="random", vs="random", cpus=cpus,
                           progress=False) == SELFPLAY_TABLE


def test_a_worker_killed_mid_selfplay_loses_and_doubles_no_game(tmp_path, monkeypatch):
    marker = tmp_path / "killed"
    # 20 games on 2 CPUs are tasks 0 (games 0-9) and 10 (games 10-19); the worker that plays
    # the second exits at once, the first time, and Ray plays its games again.
    monkeypatch.setenv("ZRF_CLUSTER_FAULT", f"10:{marker}")
    results = tmp_path / "games.jsonl"
    table = zc.selfplay(CHESS, games=20, engine="random", vs="random", cpus=2,
                        progress=False, results=str(results))
    assert marker.exists(), "the fault hook did not fire"
    assert table == SELFPLAY_TABLE
    recs = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["task"] for r in recs) == [0, 10]
    assert [len(r["result"]) for r in sorted(recs, key=lambda r: r["task"])] == [10, 10]
    # A rerun takes both tasks from the file: with the first task's games in place of the
    # second's, the table is that of the first ten games twice.
    first = next(r for r in recs if r["task"] == 0)
    results.write_text(json.dumps(first) + "\n"
                       + json.dumps({**first, "task": 10}) + "\n")
    again = zc.selfplay(CHESS, games=20, engine="random", vs="random", cpus=2,
                        progress=False, results=str(results))
    from zrf import _zrf

    twice = [tuple(r) for r in first["result"] * 2]
    assert again == _zrf.selfplay_table(zrf.load(CHESS), "random", "random", twice)
    assert again != SELFPLAY_TABLE


def test_workers_find_the_rules_they_loaded_by_the_same_key():
    # A worker keys a loaded game by the rules' path, variant and text digest, the same in
    # every process (Python's hash of a string differs between processes).
    @ray.remote
    def key_on_worker(path):
        from zrf.cluster import jobs
        return jobs.Rules(path).cache_key

    from zrf.cluster import jobs

    assert ray.get(key_on_worker.remote(CHESS)) == jobs.Rules(CHESS).cache_key
    shared = jobs.shared(jobs.Rules(CHESS))

    @ray.remote
    def perft_2(ref):
        return [jobs._game(ref).perft(2), ref.cache_key in zc.worker_cache()]

    assert ray.get(perft_2.remote(shared)) == [400, True]


def test_selfplay_refuses_a_bad_setting():
    with pytest.raises(zrf.ZrfError, match="unknown engine setting"):
        zc.selfplay(CHESS, games=2, engine="depth 2 sideways", vs="random", progress=False)


# `zrf check tests/corpus/dagaz/custodian`.
CUSTODIAN = """ok   D/agon.zrf: Agon
ok   D/bizingo.zrf: Bizingo
ok   D/co-ganh.zrf: Co Ganh
ok   D/fidchell.zrf: Fidchell, 4 games and variants, 1 warning(s)
ok   D/hasami-shogi.zrf: Hasami Shogi, 2 games and variants, 1 warning(s)
ok   D/latrunculi.zrf: Ludus Latrunculi
ok   D/makyek.zrf: Makyek, 2 games and variants, 2 warning(s)
ok   D/ming-mang.zrf: Ming-Mang (9x9), 2 games and variants, 1 warning(s)
ok   D/reversi-3d.zrf: Reversi 3D
ok   D/reversi.zrf: Reversi, 2 games and variants
ok   D/seega.zrf: Seega
ok   D/tafl.zrf: Tablut, 8 games and variants, 5 warning(s)
ok   D/ultima.zrf: Ultima, 5 games and variants
ok   D/watermelon.zrf: Watermelon Chess
14 files: 14 ok, 0 failed"""


def test_corpus_check_prints_what_zrf_check_dir_prints(monkeypatch):
    monkeypatch.chdir(ROOT)
    d = "tests/corpus/dagaz/custodian"
    lines, failed = zc.check(d, "rules", progress=False)
    assert "\n".join(lines) == CUSTODIAN.replace("D/", d + "/")
    assert failed == 0


def test_corpus_check_reports_a_broken_file(tmp_path):
    (tmp_path / "a.zrf").write_text('(game (title "A") (players X Y) (turn-order X Y)\n'
                                    ' (board (grid (dimensions "a_c" "1_3")\n'
                                    ' (directions (n 0 -1))))\n'
                                    ' (piece (name P) (moves ((step nw) add))))\n')
    (tmp_path / "notes.txt").write_text("not a rules file")
    lines, failed = zc.check(str(tmp_path), "rules", progress=False)
    assert failed == 1
    assert lines[0].startswith(f"FAIL {tmp_path}/a.zrf: ")
    assert lines[1] == "1 files: 0 ok, 1 failed"


def test_replay_check_prints_what_zrf_replay_check_prints(monkeypatch):
    monkeypatch.chdir(ROOT)
    lines, failed = zc.check("tests/records", "record", progress=False)
    assert lines[-1] == "11 records: 10 ok, 1 failed"
    assert failed == 1
    assert "ok   tests/records/zsg/chess.zsg: " in "\n".join(lines)
    assert sum(line.startswith("FAIL tests/records/diverging/") for line in lines) == 1


def test_the_command_line_prints_as_zrf_perft(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "zrf.cluster", "--address", "local", "--cpus", "2", "--quiet",
         "perft", CHESS, "3"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["1 20", "2 400", "3 8902"]
    assert "nodes/s" in out.stderr


def test_python_m_zrf_uci_speaks_uci():
    p = subprocess.run([sys.executable, "-m", "zrf.uci"],
                       input="uci\nisready\nposition startpos moves e2e4\ngo depth 2\nquit\n",
                       capture_output=True, text=True, timeout=120)
    lines = p.stdout.splitlines()
    assert "uciok" in lines and "readyok" in lines
    best = [line for line in lines if line.startswith("bestmove ")]
    assert len(best) == 1
    chess = pytest.importorskip("chess")
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(best[0].split()[1]) in board.legal_moves


def test_a_protocol_match_over_the_cluster(monkeypatch, capsys):
    pytest.importorskip("chess")
    import runpy

    zrf_uci = f"{sys.executable} -m zrf.uci"
    monkeypatch.setattr(sys, "argv", [
        "match.py", "chess", "--a", zrf_uci, "--b", zrf_uci, "--depth", "1", "--games", "2",
        "--max-plies", "30", "--cluster", "local"])
    try:
        runpy.run_path(os.path.join(ROOT, "scripts", "match.py"), run_name="__main__")
    except SystemExit as e:
        assert e.code in (None, 0)
    out = capsys.readouterr().out
    assert "game 1: A white" in out and "game 2: A black" in out
    summary = [line for line in out.splitlines() if line.startswith("chess: ")]
    assert len(summary) == 1 and "Elo" in summary[0]


def _zrf_binary():
    for build in ("release", "debug"):
        path = os.path.join(ROOT, "target", build, "zrf")
        if os.path.isfile(path):
            return path
    pytest.skip("no zrf binary under target/ (built by `cargo test`)")


def _script(monkeypatch, capsys, name, *args):
    """What scripts/NAME prints with these arguments, run in this process (whose Ray the
    script's `--cluster local` finds running)."""
    import runpy

    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", [name, *args])
    try:
        runpy.run_path(os.path.join(ROOT, "scripts", name), run_name="__main__")
    except SystemExit as e:
        assert e.code in (None, 0)
    return capsys.readouterr().out


def _match(monkeypatch, capsys, *args):
    return _script(monkeypatch, capsys, "match.py", *args, "--cluster", "local")


# A stand-in for node running scripts/dagaz_perft.js in a Dagaz checkout: it prints what the
# harness prints for a page, read from PAGE.json beside it. CI has neither node nor Dagaz
# (fetched by scripts/dagaz-diff.sh); the comparison itself, the zrf side, the task structure,
# the output and resuming are what this checks.
FAKE_HARNESS = """import json, sys
page = json.load(open(sys.argv[1][:-4] + ".json"))
sys.stdout.write(page["out"])
sys.stderr.write(page["err"])
"""


def _fake_dagaz(tmp_path):
    """A Dagaz-like tree of three pages of tic-tac-toe: one that agrees with zrf, one whose
    second count differs, and one whose start position is none of the rules file's."""
    d = tmp_path / "dagaz" / "games" / "demo"
    d.mkdir(parents=True)
    with open(os.path.join(ROOT, "games", "tic-tac-toe.zrf"), encoding="utf-8") as f:
        (d / "tic-tac-toe.zrf").write_text(f.read())
    start = "turn 0; last - -; off X man 5; off O man 4"
    err = "pieces: man positions: 9 players: X O\nsetup: %s\nunknown-options: \noptions: \n"
    pages = {"a-good": ("1 9\n2 72\n", start), "b-bad": ("1 9\n2 70\n", start),
             "c-other": ("1 8\n2 56\n", "turn 0; last - -; X man a1; off X man 4; off O man 4")}
    for name, (out, setup) in pages.items():
        (d / f"{name}.htm").write_text(f'<script src="tic-tac-toe-{name}.js"></script>')
        (d / f"tic-tac-toe-{name}.js").write_text("Dagaz.Model.BuildDesign = function () {};")
        (d / f"{name}.json").write_text(json.dumps({"out": out, "err": err % setup}))
    harness = tmp_path / "harness.py"
    harness.write_text(FAKE_HARNESS)
    return [sys.executable, os.path.join(ROOT, "scripts", "dagaz_diff.py"),
            "--dagaz", str(tmp_path / "dagaz"), "--zrf", _zrf_binary(), "--depth", "2",
            "--modes", "pure,full", "--node", sys.executable, "--harness", str(harness)]


DAGAZ_LINES = [
    "pure games/demo/b-bad.htm: Dagaz [9, 70], zrf [9, 72] (variant 1)",
    "full games/demo/b-bad.htm: Dagaz [9, 70], zrf [9, 72] (variant 1)",
    "pure games/demo/c-other.htm: Dagaz [8, 56], zrf [8, 56] (variant 1, Dagaz start)",
]


def test_dagaz_comparison_over_the_cluster_prints_what_one_machine_prints(tmp_path, monkeypatch,
                                                                          capsys):
    cmd = _fake_dagaz(tmp_path)
    one = subprocess.run(cmd + ["--out", str(tmp_path / "one")], capture_output=True,
                         text=True, timeout=120)
    assert one.returncode == 0, one.stderr
    lines = one.stdout.splitlines()
    # c-other agrees with zrf from Dagaz's start position: no line of its own.
    assert lines == DAGAZ_LINES[:2] + [
        "pure: pairs 3, not compared 0, compared at 1 3, agree at 1 3, compared at 2 3, agree at 2 2",
        "full: pairs 3, not compared 0, compared at 1 3, agree at 1 3, compared at 2 3, agree at 2 2"]
    results = str(tmp_path / "pages.jsonl")
    got = subprocess.run(
        [sys.executable, "-m", "zrf.cluster", "--address", ray.get_runtime_context().gcs_address,
         "--quiet", "--results", results, "dagaz", *cmd[2:], "--out", str(tmp_path / "many")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
        env={**os.environ, "ZRF_DAGAZ_SCRIPT": cmd[1]})
    assert got.returncode == 0, got.stderr
    assert got.stdout == one.stdout
    assert (tmp_path / "many" / "results.jsonl").read_text() == \
        (tmp_path / "one" / "results.jsonl").read_text()
    assert len(open(results).read().splitlines()) == 3
    # A rerun takes the three pages from the results file: b-bad, which Dagaz now counts as
    # zrf does, is not compared again.
    bad = tmp_path / "dagaz" / "games" / "demo" / "b-bad.json"
    bad.write_text(bad.read_text().replace("2 70", "2 72"))
    again = _script(monkeypatch, capsys, "dagaz_diff.py", *cmd[2:], "--out",
                    str(tmp_path / "again"), "--cluster", "local", "--results", results, "--quiet")
    assert again == one.stdout


def test_dagaz_pages_a_worker_cannot_run_are_reported_one_by_one(tmp_path, monkeypatch, capsys):
    cmd = _fake_dagaz(tmp_path)
    lines = _script(monkeypatch, capsys, "dagaz_diff.py", *cmd[2:], "--out", str(tmp_path / "out"),
                    "--node", "no-such-node", "--only", "a-good", "b-bad", "--modes", "full",
                    "--cluster", "local", "--quiet").splitlines()
    why = "not run: the JavaScript runtime `no-such-node` is not on this machine (install node.js)"
    assert [line.rsplit(" (", 1)[0] for line in lines[:2]] == [
        f"full games/demo/a-good.htm: {why}", f"full games/demo/b-bad.htm: {why}"]
    assert lines[2] == ("full: pairs 2, not compared 0, compared at 1 0, agree at 1 0, "
                        "compared at 2 0, agree at 2 0, not run 2")


def test_perft_after_moves_equals_the_binary_and_python_chess(tmp_path):
    # After 1. e4 e6 2. e5 d5 White may take en passant: the counts of python-chess from
    # there (and of `zrf perft games/chess.zrf 3 --moves "e2e4 e7e6 e4e5 d7d5"`).
    moves = "e2e4 e7e6 e4e5 d7d5"
    lines, total = zc.perft(CHESS, 3, moves=moves, cpus=2, split=2, progress=False,
                            results=str(tmp_path / "p.jsonl"))
    assert lines == ["1 30", "2 956", "3 28683"]
    assert total == 30 + 956 + 28683
    lines, _ = zc.perft(CHESS, 2, moves=moves, divide=True, only=True, cpus=2, progress=False)
    state = zrf.load(CHESS).new_initial_state()
    for m in moves.split():
        state.play(m)
    assert lines == ["2 956"] + [f"{m} {n}" for m, n in state.divide(2)]
    assert "e5xd6 30" in lines  # the capture en passant, and Black's 30 answers (python-chess)
    with pytest.raises(zrf.ZrfError, match="move 2 `e7e4`"):
        zc.perft(CHESS, 2, moves="e2e4 e7e4", cpus=2, progress=False)


def test_a_cluster_match_writes_its_pgn_in_order_and_resumes(tmp_path, monkeypatch, capsys):
    chess = pytest.importorskip("chess")
    import chess.pgn

    zrf_uci = f"{sys.executable} -m zrf.uci"
    pgn, results = tmp_path / "m.pgn", tmp_path / "m.jsonl"
    other = '[Event "earlier"]\n[Round "1"]\n[Result "*"]\n\n1. e4 *\n\n'
    pgn.write_text(other)
    args = ["chess", "--a", zrf_uci, "--b", zrf_uci, "--depth", "1", "--games", "2",
            "--max-plies", "16", "--pgn", str(pgn), "--results", str(results)]
    out = _match(monkeypatch, capsys, *args)
    assert "game 1: A white" in out and "game 2: A black" in out

    def games():
        with open(pgn) as f:
            while (g := chess.pgn.read_game(f)) is not None:
                yield g

    first = list(games())
    assert [g.headers["Event"] for g in first] == ["earlier"] + ["scripts/match.py chess"] * 2
    assert [g.headers["Round"] for g in first[1:]] == ["1", "2"]
    assert [g.headers["White"] for g in first[1:]] == [zrf_uci, zrf_uci]
    for g in first[1:]:
        assert not g.errors
        board = g.end().board()  # every move legal from the start
        assert board.ply() == 16 and g.headers["Result"] == "1/2-1/2"
    # As if the match had been cut after game 2 finished: the results file holds game 2 and
    # the PGN file game 2 and half of game 1. The rerun plays game 1 only; at the end both
    # games are there once each, in order, after the earlier game.
    text = pgn.read_text()
    cut = text.index('[Event "scripts/match.py chess"]')
    game1, game2 = text[cut:].split('[Event "scripts/match.py chess"]')[1:]
    recs = results.read_text().splitlines()
    results.write_text("".join(r + "\n" for r in recs if json.loads(r)["task"] == 1))
    pgn.write_text(other + '[Event "scripts/match.py chess"]' + game2 +
                   '[Event "scripts/match.py chess"]' + game1[:40])
    out = _match(monkeypatch, capsys, *args)
    assert "game 1: A white" in out and "game 2: A black" in out
    assert len(results.read_text().splitlines()) == 2
    assert pgn.read_text() == text


def test_a_cluster_draughts_match_writes_pdn_that_pydraughts_reads(tmp_path, monkeypatch, capsys):
    pytest.importorskip("draughts")
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    zrf_hub = f"{sys.executable} -m zrf.hub"
    pdn = tmp_path / "m.pdn"
    out = _match(monkeypatch, capsys, "draughts", "--a", zrf_hub, "--b", zrf_hub, "--depth", "1",
                 "--games", "2", "--max-plies", "12", "--pdn", str(pdn))
    assert "game 1: A white" in out and "game 2: A black" in out
    games = PDNReader(filename=str(pdn)).games
    assert [g.tags["Round"] for g in games] == ["1", "2"]
    assert [g.game_ending for g in games] == ["1-1", "1-1"]  # stopped at 12 plies
    for g in games:
        assert len(g.moves) == 12
        board = Board(variant="standard")
        for m in g.moves:
            move = Move(board, pdn_move=m)
            assert move.board_move in [x.board_move for x in board.legal_moves()]
            board.push(move)


def test_strength_tables_through_the_cluster_equal_the_binary(tmp_path):
    zrf_bin = _zrf_binary()
    env = {**os.environ, "FILES": "games/tic-tac-toe.zrf", "MATCHES": "depth", "ZRF": zrf_bin,
           "PYTHON": sys.executable, "RESULTS": str(tmp_path / "games.jsonl")}
    script = os.path.join(ROOT, "scripts", "strength.sh")

    def rows(out, cluster=""):
        p = subprocess.run(["bash", script, "4"], capture_output=True, text=True, timeout=300,
                           env={**env, "OUT": str(tmp_path / out), "CLUSTER": cluster})
        assert p.returncode == 0, p.stderr
        # Every column but the seconds.
        return [line.rsplit("|", 2)[0] for line in p.stdout.splitlines() if line.startswith("| tic")]

    one = rows("one")
    assert len(one) == 3  # the three variants of tic-tac-toe, depth 4 against depth 2
    assert rows("many", ray.get_runtime_context().gcs_address) == one
    assert len(open(env["RESULTS"]).read().splitlines()) == 3 * 4


def test_rules_are_put_once_per_ray_session_and_tasks_made_once(monkeypatch):
    # A run's fixed cost: the rules go into Ray's object store once per Ray session (the next
    # run on them takes the same reference), and a job's function becomes a Ray task once.
    from zrf.cluster import jobs, runner

    first = jobs.shared(jobs.Rules(CHESS))
    assert zc.perft(CHESS, 3, only=True, cpus=2, progress=False) == (["3 8902"], 8902)
    assert jobs.shared(jobs.Rules(CHESS)) is first
    assert jobs.shared(jobs.Rules(CHESS, "Chess")) is not first
    assert runner._remote(jobs._perft_task, 1) is runner._remote(jobs._perft_task, 1)
    assert runner._remote(jobs._perft_task, 1) is not runner._remote(jobs._perft_task, 2)

    def local(x):
        return x

    # A function made inside another is not kept (a new one each run would pile up).
    assert runner._remote(local, 1) is not runner._remote(local, 1)
    # Ray started again (by `connect`, whose local workers run at this process's priority,
    # not Ray's nice 15): the old store is gone, so the rules are put again, and the tasks (on
    # new workers, which must fetch the rules) still count right.
    ray.shutdown()
    monkeypatch.delenv("RAY_worker_niceness", raising=False)
    assert zc.connect("local", 2) == 2
    assert sorted(zc.run_tasks(os.nice, [(i, (0,)) for i in range(2)], progress=False).values()) \
        == [os.nice(0)] * 2
    again = jobs.shared(jobs.Rules(CHESS))
    assert again is not first
    assert zc.perft(CHESS, 3, only=True, cpus=2, progress=False) == (["3 8902"], 8902)
    assert zc.selfplay(CHESS, games=20, engine="random", vs="random", cpus=2,
                       progress=False) == SELFPLAY_TABLE
