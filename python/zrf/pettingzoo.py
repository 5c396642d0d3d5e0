"""Any rules file as a PettingZoo AEC environment.

``env(path, variant=None, render_mode=None, max_steps=None, max_game_length=None)`` makes a
``pettingzoo.AECEnv``:

- agents: the rules file's players in order, random players (``?Dice``) left out, named
  ``NAME_INDEX`` after the player (``white_0``, ``black_1``; the name lower-cased, letters only);
- actions: ``Discrete(Game.action_space_size())``, zrf's action encoding (a capture chain or a
  move in parts is one action per step, the same agent moving again);
- observations: ``{"observation": State.observation_tensor(player), "action_mask": int8
  mask}``, the mask all zeros for an agent not to move;
- rewards: ``State.returns()`` when the game ends (1 win, -1 loss, 0 draw), 0 before;
- random players move by themselves, drawn from the environment's generator (seeded by
  ``reset(seed=...)``) with the probabilities of ``State.chance_outcomes()``;
- ``max_steps``: after that many actions the game is truncated (None: no limit);
- ``max_game_length``: as ``zrf.load``'s, the actions after which the game ends in a draw
  (terminated, every reward 0; 1000 by default);
- ``render_mode="ansi"``: ``render()`` returns the board as the REPL prints it.
"""

from __future__ import annotations

import re

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import zrf
from zrf._env import observation_box, play_chance

__all__ = ["env", "ZrfAECEnv", "agent_names", "observation_box"]

def agent_names(names):
    """PettingZoo agent names for players: ``NAME_INDEX``, the name lower-cased, letters only."""
    out = []
    for i, name in enumerate(names):
        slug = re.sub(r"[^a-z]", "", str(name).lower()) or "player"
        out.append(f"{slug}_{i}")
    return out


class ZrfAECEnv(AECEnv):
    """A rules file as a PettingZoo AEC environment (see the module's documentation)."""

    metadata = {"render_modes": ["ansi"], "name": "zrf_v0", "is_parallelizable": False}

    def __init__(self, path, variant=None, render_mode=None, max_steps=None, max_game_length=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        if max_steps is not None and int(max_steps) < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        self.render_mode = render_mode
        self.max_steps = None if max_steps is None else int(max_steps)
        self.zgame = zrf.load(path, variant, max_game_length=max_game_length)
        randoms = set(self.zgame.random_players())
        names = self.zgame.players()
        self._zplayers = [p for p in range(self.zgame.num_players()) if p not in randoms]
        self.possible_agents = agent_names([names[p] for p in self._zplayers])
        self._agent_of = dict(zip(self._zplayers, self.possible_agents))
        self._zplayer_of = dict(zip(self.possible_agents, self._zplayers))
        self._n_actions = int(self.zgame.action_space_size())
        obs_box = observation_box(self.zgame)
        mask_box = spaces.Box(low=0, high=1, shape=(self._n_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_box, "action_mask": mask_box}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._n_actions) for a in self.possible_agents}
        self.state = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None or self.state is None:
            self._rng = np.random.default_rng(seed)
        self.state = self.zgame.new_initial_state()
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        play_chance(self.state, self._rng)
        self._settle()

    def observe(self, agent):
        z = self._zplayer_of[agent]
        mask = np.zeros(self._n_actions, dtype=np.int8)
        if agent == self.agent_selection and self.state.current_player() == z:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.state.observation_tensor(z), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is no action")
        self.state.apply_action(int(action))
        self._steps += 1
        play_chance(self.state, self._rng)
        self._cumulative_rewards[agent] = 0.0
        self._settle()
        self._accumulate_rewards()

    def _settle(self):
        """Rewards, ends and the agent to move, from the state."""
        for a in self.agents:
            self.rewards[a] = 0.0
        if self.state.is_terminal():
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._zplayer_of[a]])
                self.terminations[a] = True
            result = self.state.result()
            for a in self.agents:
                self.infos[a] = {"result": result}
            self.agent_selection = self.agents[0]
            return
        if self.max_steps is not None and self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self._agent_of[self.state.current_player()]

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        return str(self.state)

    def close(self):
        pass


def env(path, variant=None, render_mode=None, max_steps=None, max_game_length=None):
    """A rules file (a path or a shipped game's name) as a PettingZoo AEC environment."""
    return ZrfAECEnv(
        path, variant=variant, render_mode=render_mode, max_steps=max_steps, max_game_length=max_game_length
    )
