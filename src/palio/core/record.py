"""Game records: the seed and the decisions in notation, so a game replays exactly.

A record is plain JSON::

    {"game": "san-gimignano", "version": "1", "players": 2, "seed": 7,
     "options": {}, "actions": ["buy", "draw", ...], "result": {"scores": [..], "ranking": [..]}}
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from palio.core.errors import IllegalAction, PalioError, RecordError
from palio.core.game import Game, State


@dataclass
class GameRecord:
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    version: str = "1"
    result: dict[str, Any] | None = None
    seats: list[str] | None = None  # who sat where (bot names or people), informational

    @classmethod
    def of(cls, state: State, seats: list[str] | None = None) -> GameRecord:
        result = None
        if state.is_over:
            result = {"scores": state.scores(), "ranking": state.ranking()}
        return cls(
            game=state.game.info.id,
            version=state.game.info.version,
            players=state.players,
            seed=state.seed,
            options=dict(state.options),
            actions=state.notation_history(),
            result=result,
            seats=seats,
        )

    def to_json(self) -> str:
        data = {k: v for k, v in asdict(self).items() if v is not None}
        return json.dumps(data, indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not a JSON game record: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError("a game record is a JSON object")
        missing = [k for k in ("game", "players", "seed", "actions") if k not in data]
        if missing:
            raise RecordError(f"game record lacks {', '.join(missing)}")
        known = set(cls.__dataclass_fields__)
        extra = sorted(set(data) - known)
        if extra:
            raise RecordError(f"unknown field(s) in game record: {', '.join(extra)}")
        if not isinstance(data["actions"], list) or not all(isinstance(a, str) for a in data["actions"]):
            raise RecordError("'actions' must be a list of notation strings")
        return cls(**data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    def replay(self, game: Game, verify: bool = True) -> State:
        """Play the record again; check the result it states, if any."""
        if game.info.id != self.game:
            raise RecordError(f"record is for {self.game}, not {game.info.id}")
        try:
            options = game.options_of_version(self.version, self.options)
            state = game.setup(self.players, self.seed, options)
        except PalioError as exc:
            raise RecordError(f"record set-up fails: {exc}") from None
        for number, text in enumerate(self.actions, 1):
            try:
                state.apply(text)
            except IllegalAction as exc:
                raise RecordError(f"move {number} ({text!r}) does not replay: {exc}") from None
        if verify and self.result is not None:
            if not state.is_over:
                raise RecordError("record states a result but the replayed game is not over")
            got = {"scores": state.scores(), "ranking": state.ranking()}
            if [float(s) for s in got["scores"]] != [float(s) for s in self.result.get("scores", [])] or (
                got["ranking"] != self.result.get("ranking")
            ):
                raise RecordError(f"replay gives {got}, record says {self.result}")
        return state
