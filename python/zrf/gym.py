"""Any rules file as a single-agent Gymnasium environment: the agent plays one side, zrf's
engine or a random mover plays the others.

``ZrfEnv(path, variant=None, player=0, opponent="random", depth=None, nodes=None,
time=None, render_mode=None, max_steps=None, max_game_length=None)``:

- actions: ``Discrete(Game.action_space_size())``, zrf's action encoding; an illegal action
  ends the episode at once with reward -1 and ``info["illegal_action"] = True`` (the
  ``action_mask`` of the observation tells which actions are legal);
- observations: ``{"observation": State.observation_tensor(player), "action_mask": int8 mask}``;
- ``player``: the index of the agent's side among the players without random ones;
- ``opponent``: ``"random"`` (uniform among legal actions, from the environment's generator,
  seeded by ``reset(seed=...)``) or ``"engine"`` (``State.best_move`` with the limits
  ``depth``, ``nodes``, ``time``; zrf's defaults when none is given), or a callable taking
  the zrf state and returning an action;
- reward: the agent's ``State.returns()`` entry when the game ends, 0 before;
- random players (``?Dice``) move by themselves as in ``zrf.pettingzoo``;
- ``max_steps``: after that many of the agent's actions the episode is truncated;
- ``max_game_length``: as ``zrf.load``'s, the actions (every side's) after which the game ends
  in a draw (terminated, reward 0; 1000 by default);
- a step after the end changes nothing and returns reward 0 and ``terminated=True``.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

import zrf
from zrf._env import observation_box, play_chance

__all__ = ["ZrfEnv", "ENV_ID"]

# ``gymnasium.make("zrf/Zrf-v0", path=..., ...)`` makes a ``ZrfEnv`` too.
ENV_ID = "zrf/Zrf-v0"


class ZrfEnv(gymnasium.Env):
    """One side of a rules file against zrf's engine or a random mover."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        path,
        variant=None,
        player=0,
        opponent="random",
        depth=None,
        nodes=None,
        time=None,
        render_mode=None,
        max_steps=None,
        max_game_length=None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        if not (callable(opponent) or opponent in ("random", "engine")):
            raise ValueError(f"opponent must be 'random', 'engine' or a callable, not {opponent!r}")
        if max_steps is not None and int(max_steps) < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        self.zgame = zrf.load(path, variant, max_game_length=max_game_length)
        randoms = set(self.zgame.random_players())
        sides = [p for p in range(self.zgame.num_players()) if p not in randoms]
        if not isinstance(player, (int, np.integer)) or not 0 <= player < len(sides):
            raise ValueError(f"player must be 0 to {len(sides) - 1}, not {player!r}")
        self.render_mode = render_mode
        self.opponent = opponent
        self.limits = {"depth": depth, "nodes": nodes, "time": time}
        self.max_steps = None if max_steps is None else int(max_steps)
        self._me = sides[int(player)]
        self._n_actions = int(self.zgame.action_space_size())
        self.action_space = spaces.Discrete(self._n_actions)
        self.observation_space = spaces.Dict(
            {
                "observation": observation_box(self.zgame),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._n_actions,), dtype=np.int8),
            }
        )
        self.state = None

    def _observation(self):
        mask = np.zeros(self._n_actions, dtype=np.int8)
        if self.state.current_player() == self._me:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.state.observation_tensor(self._me), "action_mask": mask}

    def _opponents(self):
        """Plays the other sides and random players until the agent or the end is to move."""
        while not self.state.is_terminal() and self.state.current_player() != self._me:
            if self.state.current_player() == zrf.CHANCE:
                play_chance(self.state, self.np_random)
            elif callable(self.opponent):
                self.state.apply_action(int(self.opponent(self.state)))
            elif self.opponent == "engine":
                best = self.state.best_move(**self.limits)
                if best is None:
                    break
                self.state.apply_action(int(best[1]))
            else:
                self.state.apply_action(int(self.np_random.choice(self.state.legal_actions())))

    def _info(self):
        return {"result": self.state.result()} if self.state.is_terminal() else {}

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.state = self.zgame.new_initial_state()
        self._steps = 0
        self._done = False
        self._opponents()
        return self._observation(), self._info()

    def step(self, action):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self._done or self.state.is_terminal():
            # Past the end (or a game that ended before the agent's first move) nothing moves.
            return self._observation(), 0.0, True, False, self._info()
        a = int(action)
        if not 0 <= a < self._n_actions or a not in self.state.legal_actions():
            self._done = True
            info = {"illegal_action": True}
            return self._observation(), -1.0, True, False, info
        self.state.apply_action(a)
        self._steps += 1
        self._opponents()
        terminated = self.state.is_terminal()
        reward = float(self.state.returns()[self._me]) if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._done = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        return str(self.state)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=ZrfEnv)
