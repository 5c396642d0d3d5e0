"""zrf.pettingzoo: PettingZoo's own API checks on rules files, and what the environment promises."""

import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import zrf
import zrf.pettingzoo

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
# The vendored Dagaz corpus has no game with a random player; this one has `?Dice`.
DICE = ROOT / "tests" / "fixtures" / "dice-race.zrf"

# PettingZoo warns that a dict observation "is not a NumPy array" and that its space "probably
# should be" a Box for every environment outside its own list of classic games, although dict
# observations with action masks are its own convention for them; nothing else may warn.
ALLOWED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


def checked(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(ALLOWED_WARNINGS)]
    assert unexpected == []


@pytest.mark.parametrize(
    "path",
    [
        GAMES / "chess.zrf",
        GAMES / "international-draughts.zrf",
        GAMES / "halfgi.zrf",
        DICE,
        # A corpus game whose board is not one grid: observations of shape [C, N].
        ROOT / "tests" / "corpus" / "dagaz" / "breakthrough" / "horn-chess.zrf",
    ],
    ids=["chess", "international-draughts", "halfgi", "dice-race", "horn-chess"],
)
def test_api_test(path):
    env = zrf.pettingzoo.env(path)
    checked(lambda: api_test(env, num_cycles=300))


@pytest.mark.parametrize("path", [GAMES / "tic-tac-toe.zrf", DICE], ids=["tic-tac-toe", "dice-race"])
def test_seed_test(path):
    checked(lambda: seed_test(lambda: zrf.pettingzoo.env(path), num_cycles=100))


def test_agents_are_named_after_players_and_random_players_move_by_themselves():
    env = zrf.pettingzoo.env(DICE)
    assert env.possible_agents == ["a_0", "b_1"]
    env.reset(seed=7)
    seen = set()
    for agent in env.agent_iter(400):
        obs, reward, term, trunc, info = env.last()
        seen.add(agent)
        if term or trunc:
            env.step(None)
            continue
        # The agent to move is the zrf player to move: the random player never is.
        assert env.state.current_player() in (0, 2)
        legal = env.state.legal_actions()
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        env.step(legal[0])
    assert seen == {"a_0", "b_1"}
    # Dice race ends: one side is stalemated (a draw) or the game is won.
    assert env.agents == []


def test_rewards_are_the_returns_and_the_board_renders_as_the_repl():
    env = zrf.pettingzoo.env(GAMES / "tic-tac-toe.zrf", render_mode="ansi")
    env.reset(seed=0)
    assert env.possible_agents == ["x_0", "o_1"]
    assert env.render() == str(env.state)
    # X plays the first column while O plays the second: X wins on its third move.
    for text in ["M@a1", "M@b1", "M@a2", "M@b2", "M@a3"]:
        env.step(env.state.string_to_action(text))
    assert env.state.is_terminal()
    assert env.rewards == {"x_0": 1.0, "o_1": -1.0}
    assert env.terminations == {"x_0": True, "o_1": True}
    assert env.render() == str(env.state)


def test_max_game_length_ends_the_game_in_a_draw():
    env = zrf.pettingzoo.env("chess", max_game_length=4)
    env.reset(seed=1)
    for agent in env.agent_iter(10):
        obs, reward, term, trunc, info = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.state.result() == "draw (the maximum game length of 4 actions)"
    assert len(env.state.history()) == 4 and env.agents == []


def test_max_steps_truncates():
    env = zrf.pettingzoo.env("chess", max_steps=3)
    env.reset(seed=1)
    for _ in range(3):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_bad_arguments_explain_themselves():
    with pytest.raises(zrf.ZrfError):
        zrf.pettingzoo.env("(game (title \"broken\")")
    with pytest.raises(ValueError, match="render_mode"):
        zrf.pettingzoo.env("chess", render_mode="human")
    env = zrf.pettingzoo.env("chess")
    env.reset()
    before = env.state.position()
    with pytest.raises(ValueError):
        env.step(10**9)
    assert env.state.position() == before


def test_observation_spaces_have_the_tensor_shape():
    env = zrf.pettingzoo.env("chess")
    env.reset(seed=0)
    space = env.observation_space("white_0")["observation"]
    assert space.shape == (19, 8, 8) and space.dtype == np.float32
    obs, *_ = env.last()
    assert obs["observation"].shape == (19, 8, 8) and space.contains(obs["observation"])
    dice = zrf.pettingzoo.env(DICE)
    assert dice.observation_space("b_1")["observation"].shape == (24, 1, 6)
