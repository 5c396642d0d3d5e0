"""zrf.gym: Gymnasium's own environment checker, and play against the engine and a random mover."""

import warnings
from pathlib import Path

import gymnasium

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import zrf
import zrf.gym
from zrf.gym import ZrfEnv

ROOT = Path(__file__).resolve().parents[2]
TTT = ROOT / "games" / "tic-tac-toe.zrf"
DICE = ROOT / "tests" / "fixtures" / "dice-race.zrf"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"path": TTT, "opponent": "random"},
        {"path": TTT, "opponent": "engine", "depth": 2, "player": 1},
        {"path": "chess", "opponent": "random", "max_steps": 50},
        {"path": DICE, "opponent": "random", "player": 0},
    ],
    ids=["tic-tac-toe-random", "tic-tac-toe-engine", "chess", "dice-race"],
)
def test_check_env(kwargs):
    # Made through Gymnasium's registry, so that the checker also tries every render mode.
    env = gymnasium.make(zrf.gym.ENV_ID, render_mode="ansi", **kwargs).unwrapped
    assert isinstance(env, ZrfEnv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=False)
    assert [str(w.message) for w in caught] == []


def play(env, episodes, seed):
    """Episodes of a uniform random agent; its rewards."""
    rng = np.random.default_rng(seed)
    rewards = []
    for i in range(episodes):
        obs, _ = env.reset(seed=seed + i)
        done = False
        total = 0.0
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, _ = env.step(action)
            total += reward
            done = terminated or truncated
        rewards.append(total)
    return rewards


def test_the_engine_beats_a_random_agent_that_a_random_mover_does_not():
    # Tic-tac-toe, the agent second: against the engine searching the whole game it never
    # wins; against a random mover a random agent wins some games.
    engine = play(ZrfEnv(TTT, player=1, opponent="engine", depth=9), 12, seed=0)
    assert engine.count(1.0) == 0
    assert engine.count(-1.0) >= 8
    random = play(ZrfEnv(TTT, player=1, opponent="random"), 30, seed=0)
    assert random.count(1.0) >= 5


def test_illegal_action_ends_the_episode_with_a_loss():
    env = ZrfEnv(TTT)
    obs, _ = env.reset(seed=0)
    a = env.state.string_to_action("M@b2")
    env.step(a)
    obs, reward, terminated, truncated, info = env.step(a)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    # Nothing moves after the end.
    before = str(env.state)
    assert env.step(a)[1:4] == (0.0, True, False)
    assert str(env.state) == before


def test_max_game_length_ends_the_episode_in_a_draw():
    env = ZrfEnv("chess", max_game_length=6)
    obs, _ = env.reset(seed=0)
    done, steps = False, 0
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done, steps = terminated or truncated, steps + 1
    assert (steps, reward, terminated, truncated) == (3, 0.0, True, False)
    assert info == {"result": "draw (the maximum game length of 6 actions)"}


def test_ansi_render_is_the_repl_board():
    env = ZrfEnv(TTT, render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(env.state)


def test_bad_arguments():
    with pytest.raises(ValueError, match="player"):
        ZrfEnv(TTT, player=2)
    with pytest.raises(ValueError, match="opponent"):
        ZrfEnv(TTT, opponent="stockfish")
    with pytest.raises(zrf.ZrfError):
        ZrfEnv(ROOT / "no-such-file.zrf")


def test_observation_space_has_the_tensor_shape():
    env = ZrfEnv(TTT)
    obs, _ = env.reset(seed=0)
    assert env.observation_space["observation"].shape == (9, 3, 3)
    assert obs["observation"].shape == (9, 3, 3) and env.observation_space.contains(obs)
