"""What the PettingZoo and Gymnasium environments share (each needs only its own framework)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

import zrf

__all__ = ["observation_box", "play_chance"]

# Bounds of every observation value: planes are 0 or 1, pieces in hand and counters are
# integers (zrf's counters are 32-bit).
_OBS_LOW = -(2.0**31)
_OBS_HIGH = 2.0**31


def observation_box(zgame):
    """The Box of ``State.observation_tensor`` for a game."""
    shape = tuple(int(d) for d in zgame.observation_tensor_shape())
    return spaces.Box(low=_OBS_LOW, high=_OBS_HIGH, shape=shape, dtype=np.float32)


def play_chance(state, rng):
    """Plays random players' turns (``?Dice``) until a player or the end is to move."""
    while state.current_player() == zrf.CHANCE:
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        p = np.array([q for _, q in outcomes], dtype=np.float64)
        state.apply_action(int(rng.choice(actions, p=p / p.sum())))
