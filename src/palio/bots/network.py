"""A small policy-value network in NumPy: what the ``learned`` bot plays with.

The network reads a seat's observation tensor (``Game.observation_tensor``, built from
``observe(seat)`` only) and gives two heads:

* policy: one logit per action of the game's fixed action space (``Game.all_actions()``);
  the search keeps only the legal ones (the legal-action mask) and softmaxes those;
* value: one logit per seat, relative to the viewer (entry ``k`` is seat ``(viewer + k) %
  players``); their softmax predicts each seat's share of the win (``State.returns()``).

It is a multilayer perceptron (ReLU hidden layers). Inputs are scaled by their layout bounds
first: a block with a finite upper bound is divided by it, an unbounded one (Tiletum's VP and
resources) goes through ``log1p``. Nothing here knows any game: the layout and the action space
come from the engine contract, so any game with an ``encode.py`` gets a network.

A model file is a compressed ``.npz`` without pickles: weight arrays in float16 (small enough to
ship in the package) and ``meta``, a JSON document (the game, player count, layout digest, layer
sizes and the model card written by training). Training (``palio.learn``, PyTorch) exports to
this format; playing needs NumPy only.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from palio.bots import parse_spec
from palio.core.errors import OptionError
from palio.core.game import Game, State

FORMAT = "palio-policy-value/1"
MODELS_PACKAGE = "palio.models"  # where the shipped models live: <game id>-<players>p.npz


def layout_digest(game: Game, players: int) -> str:
    """A short fingerprint of the game's observation layout for ``players`` seats: a model
    trained on another layout (blocks renamed, resized or rebounded) is refused."""
    layout = game.observation_layout(players)
    if layout is None:
        raise OptionError(f"{game.info.name} has no observation tensor encoding, so no network "
                          "can read it (a game needs an encode.py)")
    text = "\n".join(f"{b.name}:{b.size}:{b.low}:{b.high}" for b in layout.blocks)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def input_scaling(game: Game, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Per input: the divisor (the block's upper bound, 1 where unbounded) and whether the
    value goes through ``log1p`` instead (unbounded blocks)."""
    layout = game.observation_layout(players)
    if layout is None:
        raise OptionError(f"{game.info.name} has no observation tensor encoding")
    divisors: list[float] = []
    logged: list[bool] = []
    for block in layout.blocks:
        bounded = math.isfinite(block.high) and block.high > 0
        divisors += [block.high if bounded else 1.0] * block.size
        logged += [not math.isfinite(block.high)] * block.size
    return np.asarray(divisors, dtype=np.float32), np.asarray(logged, dtype=bool)


def spec_options(spec: str) -> dict[str, Any]:
    """The options a bot spec names, as the cards record specs (``learned:model=m.npz;mix=1.0``,
    options split by ``;``)."""
    return parse_spec(spec.replace(";", ","))[1]


def spec_mix(spec: str) -> float | None:
    """The ``mix`` a bot spec names, or ``None`` where it names none."""
    mix = spec_options(spec).get("mix")
    return None if mix is None else float(mix)


@dataclass
class Model:
    """Weights of one policy-value network, and what it was trained for.

    ``hidden``: list of (weights ``[inputs, units]``, biases ``[units]``), in float32 here;
    ``policy`` and ``value``: the heads, the same way. ``meta`` holds ``game``, ``players``,
    ``inputs``, ``actions``, ``digest`` and ``card`` (the model card: how it was trained).
    """

    meta: dict[str, Any]
    hidden: list[tuple[np.ndarray, np.ndarray]]
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    _scaling: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    _game: Game | None = field(default=None, repr=False)

    # -- what it is for ---------------------------------------------------------------------
    @property
    def game_id(self) -> str:
        return self.meta["game"]

    @property
    def players(self) -> int:
        return int(self.meta["players"])

    @property
    def card(self) -> dict[str, Any]:
        return self.meta.get("card", {})

    @property
    def mix(self) -> float:
        """The card's weight of the game's evaluation in leaf values: how the model plays."""
        return float(self.card.get("mix", 0.0))

    @property
    def prior_visits(self) -> int:
        """The card's visits a node needs before the network gives its priors (0: at once)."""
        return int(self.card.get("prior_visits", 0))

    def measured_against(self, opponent: str) -> float | None:
        """The lowest pairwise rate against ``opponent`` (finishing ahead of one of its seats;
        an equal bot scores 0.5) among the measurements the card counts
        (:meth:`measurements`), or ``None`` when it counts none."""
        rates = [entry["pairwise"] for entry in self.measurements(opponent)]
        return min(rates) if rates else None

    def measurements(self, opponent: str) -> list[dict[str, Any]]:
        """The card's measurements against ``opponent`` that count, each with its
        ``pairwise`` rate (``benchmarks/learned_vs_mcts.py --record`` writes them). An entry
        marked ``superseded`` (measured on rules the game no longer has, or at a ``mix`` the
        card has since left, the entry saying which) is kept in the card for the record and
        not counted; nor is one whose bot spec names another ``mix`` or ``prior_visits`` than
        the card's: it measured a bot this model does not play by default."""
        return [entry for entry in self.card.get("measured", [])
                if entry.get("opponent") == opponent and "pairwise" in entry
                and not entry.get("superseded") and self._plays_as(str(entry.get("a", "")))]

    def _plays_as(self, spec: str) -> bool:
        """Whether a measured bot spec played this model as its card says it plays: the
        ``mix`` it names, if any, is the card's, and the ``prior_visits`` it names (0 where
        it names none, as every entry made before the option) is the card's."""
        options = spec_options(spec)
        mix = options.get("mix")
        return ((mix is None or float(mix) == self.mix)
                and int(options.get("prior_visits", 0)) == self.prior_visits)

    def check_fits(self, game: Game, players: int) -> None:
        """A clear error unless this model was trained for ``game`` with ``players`` seats on
        the game's current observation layout and action space."""
        if self.game_id != game.info.id or self.players != players:
            raise OptionError(f"this model plays {self.game_id} with {self.players} players, "
                              f"not {game.info.id} with {players}")
        if self.meta["digest"] != layout_digest(game, players):
            raise OptionError(f"this model was trained on another observation layout of "
                              f"{game.info.name}; train a new one (palio train {game.info.id})")
        if self.meta["actions"] != len(game.all_actions()):
            raise OptionError(f"this model knows {self.meta['actions']} actions; "
                              f"{game.info.name} now has {len(game.all_actions())}")

    def bind(self, game: Game) -> None:
        """Check the model against ``game`` and prepare the input scaling (once)."""
        if self._game is game:
            return
        self.check_fits(game, self.players)
        self._scaling = input_scaling(game, self.players)
        self._game = game

    # -- inference --------------------------------------------------------------------------
    def entries(self, state: State, seat: int | None) -> tuple[np.ndarray, np.ndarray]:
        """The nonzero inputs of ``seat``'s observation: positions and scaled values (float32).

        What the search feeds :meth:`predict_entries`: built from the encoder's nonzero entries
        (``Game.observation_entries``), never the full vector, which is mostly zeros."""
        self.bind(state.game)
        encoded = state.game.observation_entries(state, seat)
        index = np.array(encoded.index, dtype=np.intp)
        raw = np.array(encoded.value, dtype=np.float32)
        divisors, logged = self._scaling
        return index, scale(raw, divisors[index], logged[index])

    def features(self, state: State, seat: int | None) -> np.ndarray:
        """The scaled observation tensor of ``seat`` (float32), as the network reads it."""
        index, values = self.entries(state, seat)
        x = np.zeros(int(self.meta["inputs"]), dtype=np.float32)
        x[index] = values
        return x

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy logits over the whole action space and value logits per relative seat."""
        nonzero = np.flatnonzero(x)
        return self.predict_entries(nonzero, x[nonzero])

    def predict_entries(self, index: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`predict` of the input that is ``values`` at ``index`` and zero elsewhere: the
        first layer reads only the rows of its weights those inputs meet."""
        weights, bias = self.hidden[0]
        h = values @ weights[index] + bias
        np.maximum(h, 0.0, out=h)
        for weights, bias in self.hidden[1:]:
            h = h @ weights + bias
            np.maximum(h, 0.0, out=h)
        return h @ self.policy[0] + self.policy[1], h @ self.value[0] + self.value[1]

    # -- files ------------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        arrays: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.hidden):
            arrays[f"hidden{i}_w"], arrays[f"hidden{i}_b"] = w, b
        arrays["policy_w"], arrays["policy_b"] = self.policy
        arrays["value_w"], arrays["value_b"] = self.value
        stored = {k: v.astype(np.float16) for k, v in arrays.items()}
        meta = {**self.meta, "format": FORMAT, "layers": len(self.hidden)}
        stored["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
        out = io.BytesIO()
        np.savez_compressed(out, **stored)
        return out.getvalue()

    def save(self, path: str | Path) -> None:
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "model") -> Model:
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as stored:
                meta = json.loads(bytes(stored["meta"]).decode())
                if meta.get("format") != FORMAT:
                    raise OptionError(f"{source} is not a Palio model ({FORMAT})")

                def pair(name: str) -> tuple[np.ndarray, np.ndarray]:
                    return (stored[f"{name}_w"].astype(np.float32),
                            stored[f"{name}_b"].astype(np.float32))

                hidden = [pair(f"hidden{i}") for i in range(int(meta["layers"]))]
                return cls(meta, hidden, pair("policy"), pair("value"))
        except OptionError:
            raise
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise OptionError(f"{source} is not a readable Palio model: {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> Model:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise OptionError(f"cannot read model {path}: {exc.strerror or exc}") from None
        return cls.from_bytes(data, str(path))


def scale(raw: np.ndarray, divisors: np.ndarray, logged: np.ndarray) -> np.ndarray:
    """Raw observation tensor(s) -> network inputs (see the module docstring)."""
    out = raw / divisors
    return np.where(logged, np.log1p(np.maximum(raw, 0.0)), out).astype(np.float32)


def new_model(game: Game, players: int, hidden: tuple[int, ...] = (128, 128), seed: int = 0,
              card: dict[str, Any] | None = None) -> Model:
    """A freshly initialised network for ``game`` (He-initialised hidden layers; zero heads,
    so it starts with uniform priors and equal value for every seat)."""
    digest = layout_digest(game, players)  # also a clear error for a game without encoding
    inputs = game.observation_layout(players).size
    actions = len(game.all_actions())
    rng = np.random.default_rng(seed)
    layers = []
    width = inputs
    for units in hidden:
        weights = rng.normal(0.0, math.sqrt(2.0 / width), (width, units)).astype(np.float32)
        layers.append((weights, np.zeros(units, dtype=np.float32)))
        width = units
    meta = {"game": game.info.id, "players": players, "inputs": inputs, "actions": actions,
            "digest": digest, "hidden": list(hidden), "card": card or {}}
    return Model(meta, layers,
                 (np.zeros((width, actions), np.float32), np.zeros(actions, np.float32)),
                 (np.zeros((width, players), np.float32), np.zeros(players, np.float32)))


def shipped_name(game_id: str, players: int) -> str:
    return f"{game_id}-{players}p.npz"


@functools.lru_cache(maxsize=16)
def shipped_model(game_id: str, players: int) -> Model | None:
    """The model the package ships for this game and player count, or ``None`` (loaded once
    per process: the web server makes a new bot for every move)."""
    entry = resources.files(MODELS_PACKAGE) / shipped_name(game_id, players)
    if not entry.is_file():
        return None
    return Model.from_bytes(entry.read_bytes(), f"shipped model {entry.name}")


def shipped() -> list[tuple[str, int]]:
    """(game id, players) of every model the package ships."""
    out = []
    for entry in resources.files(MODELS_PACKAGE).iterdir():
        stem, dot, ext = entry.name.rpartition(".")
        game_id, dash, count = stem.rpartition("-")
        if ext == "npz" and dash and count.endswith("p") and count[:-1].isdigit():
            out.append((game_id, int(count[:-1])))
    return sorted(out)
