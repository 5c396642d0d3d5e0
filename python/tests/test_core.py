"""Core API of the zrf package: real perft counts, move lists, results, errors."""

import random

import pytest

import zrf


@pytest.fixture(scope="module")
def chess():
    return zrf.load("chess")


@pytest.fixture(scope="module")
def checkers():
    return zrf.load("checkers")


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_chess_perft_from_the_start(chess):
    assert [chess.perft(d) for d in (1, 2, 3)] == [20, 400, 8902]
    s = chess.new_initial_state()
    assert s.perft(3, bulk=True) == 8902


def test_kiwipete_perft(chess):
    s = chess.new_initial_state()
    s.set_position(KIWIPETE)
    assert [s.perft(d) for d in (1, 2, 3)] == [48, 2039, 97862]


def test_checkers_perft(checkers):
    assert [checkers.perft(d) for d in (1, 2, 3)] == [7, 49, 302]


def test_start_moves_and_actions(chess):
    s = chess.new_initial_state()
    assert s.current_player() == 0
    moves = s.legal_moves()
    assert len(moves) == 20
    assert moves[:4] == ["a2-a3", "a2-a4", "b2-b3", "b2-b4"]
    actions = s.legal_actions()
    assert actions == sorted(actions) and len(actions) == 20
    assert sorted(s.action_to_string(a) for a in actions) == sorted(moves)
    assert s.string_to_action("e2e4") == s.string_to_action("e4") == s.string_to_action("e2-e4")


def test_play_undo_clone(chess):
    s = chess.new_initial_state()
    assert s.play("e4") == "e2-e4"
    assert s.play("e7e5") == "e7-e5"
    c = s.clone()
    c.play("Nf3")
    assert s.move_history() == ["e2-e4", "e7-e5"]
    assert c.move_history() == ["e2-e4", "e7-e5", "g1-f3"]
    assert len(c.history()) == 3
    assert c.undo() is True
    assert c.move_history() == s.move_history()
    assert c.position() == s.position()


def test_fools_mate_returns(chess):
    s = chess.new_initial_state()
    for m in ["f3", "e5", "g4", "Qh4"]:
        s.play(m)
    assert s.is_terminal()
    assert s.current_player() == zrf.TERMINAL
    assert s.returns() == [-1.0, 1.0]
    assert "Black wins" in s.result()
    assert s.legal_actions() == []


def test_pgn_of_a_game(chess):
    s = chess.new_initial_state()
    for m in ["e4", "e5", "Nf3"]:
        s.play(m)
    pgn = s.to_pgn()
    assert "1. e4 e5 2. Nf3 *" in pgn


def test_random_game_reaches_an_end(checkers):
    rng = random.Random(7)
    s = checkers.new_initial_state()
    n = 0
    while not s.is_terminal() and n < 2000:
        s.apply_action(rng.choice(s.legal_actions()))
        n += 1
    assert s.is_terminal()
    assert sorted(s.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_records_round_trip(tmp_path, chess, checkers):
    s = chess.new_initial_state()
    for m in ["e4", "e5", "Nf3", "Nc6"]:
        s.play(m)
    p = tmp_path / "two.pgn"
    p.write_text(s.to_pgn() + "\n" + s.to_pgn())
    games = list(zrf.records.read(p))
    assert len(games) == 2
    assert games[1].move_history() == ["e2-e4", "e7-e5", "g1-f3", "b8-c6"]
    assert games[1].history() == s.history()
    t = checkers.new_initial_state()
    for m in ["11-15", "22-18", "15x22"]:
        t.play(m)
    assert "1. 11-15 22-18 2. 15x22 *" in t.to_pdn()
    q = tmp_path / "one.pdn"
    q.write_text(t.to_pdn())
    (back,) = zrf.records.read(q, rules=checkers)
    assert back.move_history() == ["11-15", "22-18", "15x22"]
    assert "RulesFile=checkers.zrf" in t.to_zsg()


def test_best_move_and_playouts(chess):
    s = chess.new_initial_state()
    s.set_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    text, action, score, line = s.best_move(depth=3)
    assert text == "a1-a8" and line[0] == "a1-a8"
    assert s.action_to_string(action) == "a1-a8"
    assert "win" in score
    lengths, returns = zrf.playouts(zrf.load("tic-tac-toe"), 20, seed=3)
    assert lengths.shape == (20,) and ((5 <= lengths) & (lengths <= 9)).all()
    assert all(sorted(r) in ([-1.0, 1.0], [0.0, 0.0]) for r in returns.tolist())
    again = zrf.playouts(zrf.load("tic-tac-toe"), 20, seed=3)
    assert (again[0] == lengths).all() and (again[1] == returns).all()
