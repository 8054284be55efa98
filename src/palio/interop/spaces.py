"""Observation and action spaces shared by the PettingZoo and Gymnasium adapters (extra ``gym``).

Palio has no fixed tensor encoding of its observations yet, and each game's ``observe(seat)``
is a JSON document whose lists grow and shrink during play. Rather than invent a lossy
per-game tensor, an observation here is that JSON itself, made fixed-size:

* ``observation``: ``uint8`` array of ``max_bytes``, the UTF-8 bytes of
  ``json.dumps(state.observe(seat), sort_keys=True, separators=(",", ":"))`` followed by zeros
  (:func:`decode_observation` gives the dict back). It is exact and built only from what the
  seat may see, but it is not a learning-ready feature vector: a learner has to parse it or
  put its own encoder on top. A document longer than ``max_bytes`` is an error, never cut.
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

from palio.core.game import Game, State

# the longest observation seen in random games is about 2.6 kB (Tiletum, 4 players)
DEFAULT_MAX_BYTES = 8192


def observation_space(game: Game, max_bytes: int = DEFAULT_MAX_BYTES) -> spaces.Dict:
    size = game.info.action_space_size
    return spaces.Dict({
        "observation": spaces.Box(0, 255, shape=(max_bytes,), dtype=np.uint8),
        "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
    })


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


def observation(state: State, seat: int, max_bytes: int = DEFAULT_MAX_BYTES) -> dict[str, np.ndarray]:
    return {"observation": encode_observation(state, seat, max_bytes),
            "action_mask": action_mask(state, seat)}


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
