"""Any rules file as an OpenSpiel game.

``load_game(path, variant=None)`` returns a ``pyspiel.Game`` whose states delegate to zrf's
``State``, registered with OpenSpiel under the short name ``"zrf"`` (parameters ``path`` and
``variant``), so OpenSpiel's algorithms, bots, serialisation and ``pyspiel.load_game("zrf",
{"path": ...})`` work on it unchanged.

Players are the rules file's players in order, random players (``?Dice``) left out: a random
player's turn is an OpenSpiel chance node whose outcomes are its legal actions, equally likely
per move. Actions are zrf's action encoding (``Game.action_space_size()`` distinct actions);
observations are ``State.observation_tensor(player)``, served through OpenSpiel's observer API
(``make_py_observer``), and the observation string is the board as the REPL prints it.
"""

from __future__ import annotations

import os

import numpy as np
import pyspiel

import zrf

__all__ = ["load_game", "ZrfGame", "ZrfState", "SHORT_NAME"]

SHORT_NAME = "zrf"
# ``max_game_length`` 0 stands for zrf's default (``Game.max_game_length()`` of ``zrf.load``
# without one).
_PARAMETERS = {"path": "", "variant": "", "max_game_length": 0}


def _game_type(long_name, num_players, chance, zero_sum):
    """The GameType of a zrf game (the registry's own uses the widest values)."""
    GT = pyspiel.GameType
    return GT(
        short_name=SHORT_NAME,
        long_name=long_name,
        dynamics=GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC if chance else GT.ChanceMode.DETERMINISTIC,
        information=GT.Information.PERFECT_INFORMATION,
        utility=GT.Utility.ZERO_SUM if zero_sum else GT.Utility.GENERAL_SUM,
        reward_model=GT.RewardModel.TERMINAL,
        max_num_players=num_players[1],
        min_num_players=num_players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS,
    )


def _variant_arg(text):
    """A variant parameter as ``zrf.load`` takes it: None, a number, or a title."""
    if text is None or text == "":
        return None
    if isinstance(text, int):
        return text
    return int(text) if str(text).isdigit() else str(text)


def random_players(zgame):
    """The indices of a zrf game's random players (``?Dice``): ``Game.random_players()``."""
    return list(zgame.random_players())


class ZrfGame(pyspiel.Game):
    """A rules file as a ``pyspiel.Game``; made by ``load_game`` or ``pyspiel.load_game("zrf", ...)``."""

    def __init__(self, params=None):
        params = dict(params or {})
        unknown = set(params) - set(_PARAMETERS)
        if unknown:
            raise ValueError(f"unknown zrf game parameters: {sorted(unknown)}")
        path = str(params.get("path", ""))
        if not path:
            raise ValueError("the zrf game needs a `path` parameter (a rules file or a shipped game's name)")
        variant = str(params.get("variant", ""))
        length = params.get("max_game_length", 0)
        if isinstance(length, bool) or not isinstance(length, int) or length < 0:
            raise ValueError(f"max_game_length must be an int from 1 (0 for the default), not {length!r}")
        self.zgame = zrf.load(path, _variant_arg(variant), max_game_length=length or None)
        randoms = set(random_players(self.zgame))
        # OpenSpiel's player ids (0..n-1) are zrf's players without the random ones.
        self.zplayers = [p for p in range(self.zgame.num_players()) if p not in randoms]
        self.spiel_of = {z: i for i, z in enumerate(self.zplayers)}
        n = len(self.zplayers)
        zero_sum = n == 2
        game_type = _game_type(f"zrf: {self.zgame.title}", (n, n), bool(randoms), zero_sum)
        size = int(self.zgame.action_space_size())
        info = pyspiel.GameInfo(
            num_distinct_actions=size,
            max_chance_outcomes=size if randoms else 0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=int(self.zgame.max_game_length()),
        )
        # The parameters name the length in force, so that the game's string rebuilds it.
        length = int(self.zgame.max_game_length())
        super().__init__(game_type, info, {"path": path, "variant": variant, "max_game_length": length})

    def new_initial_state(self, state=None):
        if state is not None:
            raise ValueError("zrf games start only from their initial state here")
        return ZrfState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _BoardObserver(self, params)
        # Perfect information: the public history is everything a player can know.
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Box:
    """Holds a zrf state inside a ``ZrfState``: OpenSpiel clones a Python state by deep-copying
    its attributes and serialises it by pickling them, and this makes both go through zrf."""

    __slots__ = ("state", "params")

    def __init__(self, state, params):
        self.state = state
        self.params = params

    def __deepcopy__(self, memo):
        return _Box(self.state.clone(), self.params)

    def __reduce__(self):
        return (_unbox, (self.params, list(self.state.history())))


def _unbox(params, history):
    zgame = zrf.load(params["path"], _variant_arg(params["variant"]), max_game_length=params["max_game_length"] or None)
    state = zgame.new_initial_state()
    for a in history:
        state.apply_action(int(a))
    return _Box(state, params)


class ZrfState(pyspiel.State):
    """A ``pyspiel.State`` over a zrf ``State`` (``self.zstate``)."""

    def __init__(self, game):
        super().__init__(game)
        params = {k: game.get_parameters()[k] for k in _PARAMETERS}
        self._box = _Box(game.zgame.new_initial_state(), params)
        self._zplayers = game.zplayers
        self._spiel_of = game.spiel_of

    @property
    def zstate(self):
        """The zrf state this state stands for."""
        return self._box.state

    def current_player(self):
        p = self._box.state.current_player()
        if p < 0:
            return p  # zrf.TERMINAL and zrf.CHANCE are OpenSpiel's ids
        return self._spiel_of[p]

    def _legal_actions(self, player):
        return self._box.state.legal_actions()

    def chance_outcomes(self):
        return [(int(a), float(p)) for a, p in self._box.state.chance_outcomes()]

    def _apply_action(self, action):
        self._box.state.apply_action(int(action))

    def _action_to_string(self, player, action):
        try:
            return self._box.state.action_to_string(int(action))
        except ValueError:
            # Asked about an action that is not legal here (e.g. from an older position).
            return f"action {int(action)}"

    def is_terminal(self):
        return self._box.state.is_terminal()

    def returns(self):
        r = self._box.state.returns()
        return [float(r[z]) for z in self._zplayers]

    def __str__(self):
        return str(self._box.state)


class _BoardObserver:
    """OpenSpiel's PyObserver over zrf's observation tensor and board text."""

    def __init__(self, game, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        shape = tuple(int(d) for d in game.zgame.observation_tensor_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}
        self._zplayers = game.zplayers

    def set_from(self, state, player):
        z = self._zplayers[player] if 0 <= player < len(self._zplayers) else None
        self.tensor[:] = state.zstate.observation_tensor(z).ravel()

    def string_from(self, state, player):
        del player
        return str(state.zstate)


def load_game(path, variant=None, max_game_length=None):
    """A rules file (a path, an ``os.PathLike`` or a shipped game's name such as ``"chess"``)
    as a ``pyspiel.Game``; ``variant`` is a title or a number from 1; ``max_game_length`` the
    actions after which a game ends in a draw (zrf's default, 1000, when None). A rules file
    with errors raises ``zrf.ZrfError`` with every diagnostic."""
    params = {
        "path": os.fspath(path),
        "variant": "" if variant is None else str(variant),
        "max_game_length": 0 if max_game_length is None else max_game_length,
    }
    return ZrfGame(params)


pyspiel.register_game(_game_type("zrf: a Zillions-of-Games rules file", (1, 64), True, False), ZrfGame)
