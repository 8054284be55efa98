"""Aquileia (Zoch 2011, Cielo d'Oro): the complete rules engine for 3 to 5 players.

Rules source: ``shared/seeds/aquileia.ja.md``. Our own wording of the rules, with the readings
chosen where the rulebook is open: ``docs/rules/aquileia.md``. Component values and the
provisional ones: ``docs/components/aquileia.md`` and :func:`provisional_components`.
Observation tensor: ``encode.py`` and ``docs/observation-tensors.md``.

>>> from palio.games.aquileia import GAME
>>> state = GAME.setup(4, seed=3)
>>> state.round, len(state.display), state.legal_actions()[0]
(1, 3, Place(field='dolus'))
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from palio.core.errors import NotationError
from palio.core.game import Action, Game, GameInfo, State
from palio.games.aquileia import actions as _actions
from palio.games.aquileia.components import (
    DATA,
    DEFAULT,
    Components,
    export_components,
    load_components,
    provisional_components,
)
from palio.games.aquileia.rules.flow import steps
from palio.games.aquileia.rules.setup import setup_state
from palio.games.aquileia.state import AquileiaState
from palio.games.aquileia.words import AquileiaWords

_BASE_INFO = dict(
    id="aquileia", name="Aquileia", version="1", min_players=3, max_players=5, options=(),
    chance=True, hidden_information=True, score_range=(0, 2000), max_length=3000,
    rules="shared/seeds/aquileia.ja.md",
)


class AquileiaGame(Game):
    """Aquileia's metadata, set-up, notation and action space for one components set."""

    def __init__(self, components: Components = DEFAULT) -> None:
        self.components = components
        self.tables = _actions.ActionTables(components)
        # the default game's class is importable by name, so its states pickle
        name = "DefaultAquileiaState" if components is DEFAULT else "CustomAquileiaState"
        self.state_class = type(name, (AquileiaState,), {
            "game": self, "comp": components, "tables": self.tables, "steps": steps(components),
            "simple_field": components.field_simple, "__module__": __name__})
        self.info = GameInfo(**_BASE_INFO, action_space_size=len(self.tables.all))
        self.words = AquileiaWords(components)

    @classmethod
    def with_components(cls, path: str | Path) -> AquileiaGame:
        """A game using a corrected components file (see :func:`load_components`)."""
        return cls(load_components(path))

    def export_components(self) -> str:
        """This game's component data as JSON: a starting point for a corrected file."""
        return export_components(self.components.data)

    def provisional_components(self) -> list[str]:
        """The provisional values of this game's component data, one line each."""
        return provisional_components(self.components.data)

    def _setup(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return setup_state(self.state_class, players, seed, options)

    def parse_action(self, text: str) -> Action:
        action = _actions.parse_action(text)
        if action not in self._index_table():
            raise NotationError(f"{text!r} names a field, plot, card or count this game does not have")
        return action

    def all_actions(self) -> Sequence[Action]:
        return self.tables.all


GAME = AquileiaGame()
DefaultAquileiaState = GAME.state_class

__all__ = ["GAME", "AquileiaGame", "AquileiaState", "Components", "DATA", "load_components",
           "export_components", "provisional_components"]
