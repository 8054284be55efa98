"""Observation and action spaces shared by the PettingZoo and Gymnasium adapters (extra ``gym``).

Each game's ``observe(seat)`` is a JSON document whose lists grow and shrink during play. An
observation here is a dict of two arrays; its ``observation`` entry takes one of two forms,
chosen by the environment's ``observation`` argument:

* ``"tensor"``: ``float32`` array of the game's ``observation_tensor_shape(players)``, its
  ``observation_tensor(state, seat)``: a learning-ready vector built from ``observe(seat)``
  only, its blocks and bounds documented per game (``game.observation_layout(players)``;
  the Box's ``low``/``high`` are those bounds). Only for games that have an encoding.
* ``"json"`` (the default): ``uint8`` array of ``max_bytes``, the UTF-8 bytes of
  ``json.dumps(state.observe(seat), sort_keys=True, separators=(",", ":"))`` followed by zeros
  (:func:`decode_observation` gives the dict back). It is exact and built only from what the
  seat may see, but it is not a learning-ready feature vector: a learner has to parse it or
  put its own encoder on top (or use ``"tensor"``). A document longer than ``max_bytes`` is an error, never cut.
  (A gymnasium ``Text`` space was the other candidate; PettingZoo's ``api_test`` requires
  every observation to have a NumPy dtype, which a ``str`` has not.)
* ``action_mask``: ``int8`` array of the game's ``action_space_size``, 1 where the index
  (``game.action_index``) is legal for this seat now, all 0 when the seat is not to move.
"""

from __future__ import annotations

import json
import operator
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # the optional extra is missing: say how to get it
    raise ImportError("the Gymnasium/PettingZoo adapters need gymnasium: pip install 'palio[gym]'") from exc

from palio.core.errors import OptionError
from palio.core.game import Game, State

# the longest observation seen in random games is about 2.6 kB (Tiletum, 4 players)
DEFAULT_MAX_BYTES = 8192
OBSERVATION_KINDS = ("json", "tensor")


def check_observation_kind(game: Game, players: int, observation: str) -> None:
    """A clear error for an unknown kind, or ``"tensor"`` for a game without an encoding."""
    if observation not in OBSERVATION_KINDS:
        raise OptionError(f"observation must be one of {OBSERVATION_KINDS}, not {observation!r}")
    if observation == "tensor" and game.observation_layout(players) is None:
        raise OptionError(f"{game.info.name} has no observation tensor; use observation='json'")


def observation_space(game: Game, max_bytes: int = DEFAULT_MAX_BYTES, observation: str = "json",
                      players: int | None = None) -> spaces.Dict:
    size = game.info.action_space_size
    if observation == "tensor":
        check_observation_kind(game, _players(game, players), observation)
        low, high = game.observation_layout(_players(game, players)).bounds()
        first = spaces.Box(np.array(low, np.float32), np.array(high, np.float32), dtype=np.float32)
    else:
        first = spaces.Box(0, 255, shape=(max_bytes,), dtype=np.uint8)
    return spaces.Dict({
        "observation": first,
        "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
    })


def _players(game: Game, players: int | None) -> int:
    return game.info.min_players if players is None else players


def encode_tensor(state: State, seat: int) -> np.ndarray:
    """The seat's observation tensor as a ``float32`` array."""
    return np.array(state.game.observation_tensor(state, seat), dtype=np.float32)


def action_space(game: Game) -> spaces.Discrete:
    return spaces.Discrete(game.info.action_space_size)


def encode_observation(state: State, seat: int, max_bytes: int = DEFAULT_MAX_BYTES) -> np.ndarray:
    """The seat's ``observe`` JSON as zero-padded bytes."""
    data = json.dumps(state.observe(seat), sort_keys=True, separators=(",", ":")).encode()
    if len(data) > max_bytes:
        raise ValueError(
            f"the observation of seat {seat} takes {len(data)} bytes, more than max_bytes="
            f"{max_bytes}; make the environment with a larger max_bytes"
        )
    out = np.zeros(max_bytes, dtype=np.uint8)
    out[: len(data)] = np.frombuffer(data, dtype=np.uint8)
    return out


def decode_observation(array: np.ndarray) -> dict[str, Any]:
    """The observe() dict back from :func:`encode_observation`'s bytes."""
    data = bytes(np.asarray(array, dtype=np.uint8)).rstrip(b"\0")
    return json.loads(data.decode())


def action_mask(state: State, seat: int) -> np.ndarray:
    game = state.game
    mask = np.zeros(game.info.action_space_size, dtype=np.int8)
    if not state.is_over and state.to_move == seat:
        for action in state.legal_actions():
            mask[game.action_index(action)] = 1
    return mask


def observation(state: State, seat: int, max_bytes: int = DEFAULT_MAX_BYTES,
                observation: str = "json") -> dict[str, np.ndarray]:
    first = (encode_tensor(state, seat) if observation == "tensor"
             else encode_observation(state, seat, max_bytes))
    return {"observation": first, "action_mask": action_mask(state, seat)}


def legal_action(state: State, index: Any) -> Any:
    """The Palio action of a legal index for the seat to move; a clear ValueError otherwise."""
    game = state.game
    try:
        number = operator.index(index)  # ints and NumPy integers, not floats
    except (TypeError, ValueError):
        raise ValueError(f"an action is an index 0..{game.info.action_space_size - 1}, "
                         f"not {index!r}") from None
    action = game.action_from_index(number)  # IllegalAction (a ValueError) when out of range
    if action not in state.legal_actions():
        raise ValueError(f"action {number} ({action}) is not legal now for seat {state.to_move}")
    return action
