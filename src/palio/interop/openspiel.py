"""Every registered Palio game as an OpenSpiel Python game (optional extra ``openspiel``).

Importing this module registers each game under ``palio_<id>`` (``-`` becomes ``_``), so
``pyspiel.load_game("palio_san_gimignano", {"players": 2, "seed": 7})`` works as for any
OpenSpiel game. What is declared, and why:

* dynamics sequential; one decision at a time, by ``state.to_move`` (which may be a seat
  answering out of turn: OpenSpiel's ``current_player`` is that seat);
* information imperfect when the game has hidden information, else perfect;
* rewards terminal; utility **constant-sum**: ``returns()`` is Palio's ``state.returns()``,
  1 for a sole winner, equal shares for tied winners, 0 for the others, so the utilities lie
  in [0, 1] and always add up to 1 (0 for everyone before the end);
* actions: Palio's fixed action space (``num_distinct_actions = action_space_size``) through
  ``game.action_index`` / ``game.action_from_index``; ``max_game_length`` from the game info;
* parameters: ``players`` (default the least), ``seed`` (default -1: a fresh seed for every
  initial state; a value >= 0 gives the same deal every time) and each game option whose
  default is a bool, int, float or string, under its own name;
* observations: ``observation_string(p)`` is ``state.observe(p)`` as compact JSON (keys
  sorted); ``information_state_string(p)`` is that plus every event as seat ``p`` saw it
  (``state.events_for(p)``), which gives perfect recall. Both are built only from what seat
  ``p`` may see;
* observation tensor: for a game with a numeric encoding (``game.observation_layout``), the
  game declares ``provides_observation_tensor`` and ``observation_tensor(p)`` is Palio's
  ``game.observation_tensor(state, p)`` (float32, ``observation_tensor_shape()`` the
  layout's shape for this player count; the observer's ``dict`` holds one view per named
  block). There is no information-state tensor: perfect recall does not fit a fixed size.

Chance. Palio keeps its randomness inside the state (a seed, fixed at set-up, from which
shuffles and dice are derived), so this game has **no chance nodes** and applying an action to
a state is a deterministic function of that state: every game is declared ``DETERMINISTIC``.
The randomness is in the initial state (with ``seed=-1`` each ``new_initial_state`` deals
anew), much as a game whose deal is drawn before the first decision. (``SAMPLED_STOCHASTIC``,
declared before, would make OpenSpiel ask the game object for an RNG state when serializing,
which a Python game cannot provide.) The consequence: ``clone()`` copies the seed too, so an
OpenSpiel algorithm that searches clones of a state (MCTSBot, for instance) searches the
**true** state: it sees the other seats' hidden cards and every future draw.

Fair search: ``resample_from_infostate(player, probability_sampler)`` returns a state that
``player`` cannot tell apart from this one (same information state string, same legal
actions, same history), built by Palio's ``determinize``: hidden cards, deck orders and the
seed are resampled from a seed drawn with ``probability_sampler``. OpenSpiel's information-set
MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) searches such worlds only, never the
true hidden state. OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot use it: OpenSpiel's bridge for
Python games does not forward ``ResampleFromInfostate`` to Python, so that bot stops the
process on any Python game (OpenSpiel's own ``python_kuhn_poker`` included).

Serialization: ``state.serialize()`` / ``pyspiel.serialize_game_and_state`` carry the wrapped
Palio state itself, pickled (not a replay from the seed, so resampled worlds serialize as
they are); ``pyspiel.random_sim_test(game, num_sims, serialize=True, ...)`` passes.
"""

from __future__ import annotations

import json
import random
from typing import Any

try:
    import pyspiel
except ImportError as exc:  # the optional extra is missing: say how to get it
    raise ImportError("the OpenSpiel adapter needs open_spiel: pip install 'palio[openspiel]'") from exc

import numpy as np

import palio.games as registry
from palio.core.encoding import Layout
from palio.core.game import Game
from palio.core.game import State as PalioState

PREFIX = "palio_"


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a Palio game: ``san-gimignano`` -> ``palio_san_gimignano``."""
    return PREFIX + game_id.replace("-", "_")


def _parameters(game: Game) -> dict[str, Any]:
    """OpenSpiel's parameter defaults: players, seed, and the options it can carry."""
    params: dict[str, Any] = {"players": game.info.min_players, "seed": -1}
    for spec in game.info.options:
        if isinstance(spec.default, bool | int | float | str):
            params[spec.name] = spec.default
    return params


def game_type(game: Game) -> pyspiel.GameType:
    info = game.info
    Type = pyspiel.GameType
    return Type(
        short_name=short_name(info.id),
        long_name=f"Palio {info.name}",
        dynamics=Type.Dynamics.SEQUENTIAL,
        # randomness lives in the state (its seed): transitions are deterministic (module doc)
        chance_mode=Type.ChanceMode.DETERMINISTIC,
        information=Type.Information.IMPERFECT_INFORMATION if info.hidden_information
        else Type.Information.PERFECT_INFORMATION,
        utility=Type.Utility.CONSTANT_SUM,
        reward_model=Type.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=game.observation_layout(info.min_players) is not None,
        parameter_specification=_parameters(game),
    )


class PalioOpenSpielGame(pyspiel.Game):
    """One Palio game with fixed parameters; subclassed per game by :func:`register`."""

    palio_game: Game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        defaults = _parameters(self.palio_game)
        unknown = sorted(set(given) - set(defaults))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; known: {', '.join(defaults)}")
        merged = {**defaults, **given}
        self.players = int(merged["players"])
        self.seed = int(merged["seed"])
        self.options = {k: v for k, v in merged.items() if k not in ("players", "seed")}
        # checked here so that bad parameters fail at load time with Palio's message
        self.palio_game.validate_options(self.players, self.options)
        info = self.palio_game.info
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.action_space_size,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=info.max_length,
        )
        super().__init__(game_type(self.palio_game), game_info, merged)

    def new_initial_state(self) -> PalioOpenSpielState:
        return PalioOpenSpielState(self)  # set up when first read (see _Box)

    def setup_palio(self) -> PalioState:
        """A new Palio opening position with this game's parameters."""
        seed = None if self.seed < 0 else self.seed
        return self.palio_game.setup(self.players, seed, self.options)

    def state_from_palio(self, state: PalioState) -> PalioOpenSpielState:
        """Wrap an existing Palio state of this game (it is used, not copied)."""
        return PalioOpenSpielState(self, state)

    def make_py_observer(self, iig_obs_type=None, params=None) -> PalioObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        layout = None if perfect_recall else self.palio_game.observation_layout(self.players)
        return PalioObserver(perfect_recall, layout)


class _Box:
    """Holds the wrapped Palio state. OpenSpiel clones a Python state by making a fresh initial
    state, copying its C++ part (the action history) over and deep-copying its ``__dict__``; so
    the set-up waits until the state is first read, and the deep copy is Palio's ``copy()``.
    OpenSpiel serializes a Python state by pickling its ``__dict__``: the box pickles the Palio
    state alone (never the OpenSpiel game, whose own pickling is not available here)."""

    __slots__ = ("_state", "_game")

    def __init__(self, state: PalioState | None, game: PalioOpenSpielGame) -> None:
        self._state = state
        self._game = game

    @property
    def state(self) -> PalioState:
        if self._state is None:
            self._state = self._game.setup_palio()
        return self._state

    def __deepcopy__(self, memo: dict) -> _Box:
        return _Box(None if self._state is None else self._state.copy(), self._game)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_box, (self.state,))


def _unpickle_box(state: PalioState) -> _Box:
    box = _Box.__new__(_Box)
    box._state = state
    box._game = None  # only needed to set up a state lazily, and this one exists
    return box


class PalioOpenSpielState(pyspiel.State):
    """An OpenSpiel view of one Palio state; ``palio`` is the wrapped state."""

    def __init__(self, game: PalioOpenSpielGame, state: PalioState | None = None) -> None:
        super().__init__(game)
        self._box = _Box(state, game)

    @property
    def palio(self) -> PalioState:
        return self._box.state

    @property
    def _palio_game(self) -> Game:
        return self.palio.game

    def current_player(self) -> int:
        if self.palio.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.palio.to_move

    def _legal_actions(self, player: int) -> list[int]:
        if self.palio.is_over or player != self.palio.to_move:
            return []
        index = self._palio_game.action_index
        return sorted(index(action) for action in self.palio.legal_actions())

    def _apply_action(self, action: int) -> None:
        # the checked path: an index that is not legal now raises IllegalAction, changing nothing
        self.palio.apply(self._palio_game.action_from_index(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._palio_game.action_from_index(action))

    def is_terminal(self) -> bool:
        return self.palio.is_over

    def returns(self) -> list[float]:
        if not self.palio.is_over:
            return [0.0] * self.palio.players
        return list(self.palio.returns())

    def rewards(self) -> list[float]:
        # terminal rewards: everything arrives with the last decision
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> PalioOpenSpielState:
        """A state ``player_id`` cannot tell apart from this one, with everything hidden from
        it (other hands, deck orders, future draws) resampled by Palio's ``determinize``.

        ``probability_sampler()`` (a float in [0, 1), OpenSpiel's convention) seeds the sample,
        so a sampler that repeats its values repeats the world.
        """
        seed = int(probability_sampler() * 2**53)
        world = self.palio.determinize(player_id, random.Random(seed))
        out = self.clone()  # the same history on OpenSpiel's side
        out._box = _Box(world, self._box._game)
        return out

    def __str__(self) -> str:
        return self._palio_game.render(self.palio, None)  # the spectator's view: hides secrets


class PalioObserver:
    """OpenSpiel's PyObserver interface, from ``observe`` only: strings, and a tensor where
    the game has an encoding (``layout``) and perfect recall is not asked for."""

    def __init__(self, perfect_recall: bool, layout: Layout | None = None) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, Any] = {}
        if layout is not None:
            self.tensor = np.zeros(layout.size, np.float32)
            for block in layout.blocks:  # views into the flat tensor, as OpenSpiel's games do
                self.dict[block.name] = self.tensor[layout.span(block.name)]

    def set_from(self, state: PalioOpenSpielState, player: int) -> None:
        if self.tensor is not None:
            palio = state.palio
            self.tensor[:] = palio.game.observation_tensor(palio, player)

    def string_from(self, state: PalioOpenSpielState, player: int) -> str:
        return observation_json(state.palio, player, self.perfect_recall)


def observation_json(state: PalioState, seat: int, with_events: bool = False) -> str:
    """What ``seat`` sees, as compact JSON with sorted keys; with its event log if asked."""
    seen: Any = state.observe(seat)
    if with_events:
        seen = {"observation": seen, "events": state.events_for(seat)}
    return json.dumps(seen, sort_keys=True, separators=(",", ":"))


def register(game_id: str) -> str:
    """Register one Palio game with OpenSpiel (once) and return its OpenSpiel name."""
    name = short_name(game_id)
    if name in {t.short_name for t in pyspiel.registered_games()}:
        return name
    palio_game = registry.get(game_id)
    cls = type(f"Palio_{name}", (PalioOpenSpielGame,), {"palio_game": palio_game})
    pyspiel.register_game(game_type(palio_game), cls)
    return name


def load(game_id: str, **params: Any) -> PalioOpenSpielGame:
    """The OpenSpiel game of a Palio game id: ``load("san-gimignano", players=2, seed=3)``."""
    return pyspiel.load_game(register(game_id), params)


for _game_id in registry.available():
    register(_game_id)
