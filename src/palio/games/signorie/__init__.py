"""Signorie (What's Your Game? 2015, Chiarvesio & Zizzi): the complete rules engine for 2-4 players.

Rules source: ``shared/seeds/signorie.ja.md`` (the Japanese rulebook). The rules for
players: ``docs/rules/signorie.md`` (and ``signorie.ja.md``). Component data and its provisional
values: ``components.py`` and ``docs/components/signorie.md``. Every reading chosen where the text
is open, with its reasons, and a rule-by-rule map to code and tests: ``docs/coverage/signorie.md``.
Observation tensor: ``encode.py`` and ``docs/observation-tensors.md``.

>>> from palio.games.signorie import GAME
>>> s = GAME.setup(4, seed=1)
>>> sorted(s.florins)
[6, 7, 7, 8]
"""

from __future__ import annotations

from typing import Any

from palio.core.game import ComponentsGame, GameInfo, State
from palio.games.signorie import actions as _actions
from palio.games.signorie.components import (
    DATA,
    DEFAULT,
    Components,
    export_components,
    load_components,
    provisional_components,
)
from palio.games.signorie.encode import Encoder
from palio.games.signorie.rules.round import setup_state
from palio.games.signorie.scoring import legend, worths
from palio.games.signorie.state import SignorieState
from palio.games.signorie.words import SignorieWords

_BASE_INFO = dict(
    id="signorie", name="Signorie", version="1", min_players=2, max_players=4,
    options=(),  # the rulebook describes no variant
    chance=True, hidden_information=True, score_range=(0, 500), max_length=3000,
    rules="shared/seeds/signorie.ja.md",
)


class SignorieGame(ComponentsGame):
    """Signorie's metadata, set-up, notation and action space for one components set."""

    default_components = DEFAULT
    read_notation = staticmethod(_actions.parse_action)
    notation_names = "a city, slot or amount"
    # the search values a leaf at once with evaluate: random Signorie play misleads more than
    # the evaluation does (issue 23: 82-93% against rollouts of 8 decisions, docs/bots.md)
    search_defaults = {"rollout_depth": 0}

    def __init__(self, components: Components = DEFAULT) -> None:
        super().__init__(components)
        self.words = SignorieWords(components)
        self.tables = _actions.ActionTables(components)
        self.state_class = self.make_state_class(SignorieState)
        self.info = GameInfo(**_BASE_INFO, action_space_size=len(self.tables.all))
        self.encoder = Encoder(components)

    def _setup(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return setup_state(self.state_class, players, seed, options)

    def turn_key(self, state: State) -> tuple[int, int]:
        """Round and turn counter: a new Phase 2 turn or a new seat's Phase 3 reward changes it."""
        assert isinstance(state, SignorieState)
        return state.round, state.turn_no

    def legend(self) -> dict[str, Any]:
        return legend(self.components)

    def worths(self, state: State) -> list[float]:
        """Per seat, VP now plus a rough worth of what is held (greedy bots, search cut-offs)."""
        assert isinstance(state, SignorieState)
        return worths(state)


GAME = SignorieGame()
DefaultSignorieState = GAME.state_class

__all__ = ["GAME", "SignorieGame", "SignorieState", "Components", "DATA", "load_components",
           "export_components", "provisional_components"]
