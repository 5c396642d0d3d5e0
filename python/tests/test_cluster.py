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


def test_selfplay_table_equals_the_binary(tmp_path):
    table = zc.selfplay(CHESS, games=20, engine="random", vs="random", cpus=2,
                        progress=False, results=str(tmp_path / "games.jsonl"))
    assert table == SELFPLAY_TABLE
    # Engine games go one per task (here a depth-1 engine against the random mover).
    lines = zc.selfplay(CHESS, games=4, engine="depth 1", vs="random", max_plies=60,
                        progress=False).splitlines()
    assert lines[1:3] == ["A = alphabeta depth 1 opponent random", "B = random"]
    assert [line.split()[:2] for line in lines if line.startswith("all ")] == [["all", "4"]]


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
