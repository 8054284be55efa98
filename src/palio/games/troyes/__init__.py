"""Troyes (Pearl Games 2010; Dujardin, Georges, Orban): the complete rules engine for 2-4 players.

Rules sources: ``shared/seeds/troyes.ja.md`` (the Japanese rule summary) and the full rules facts
of ``shared/reference/troyes.md``. The rules for players: ``docs/rules/troyes.md``; every
reading chosen where the text is open, with its reasons, and rule by rule to code and tests:
``docs/coverage/troyes.md``. Provisional component values: ``docs/components/troyes.md`` and
:func:`provisional_components`. Observation tensor: ``encode.py`` and
``docs/observation-tensors.md``.
"""

from __future__ import annotations

from typing import Any

from palio.core.game import ComponentsGame, GameInfo, OptionSpec, State
from palio.games.troyes import actions as _actions
from palio.games.troyes.components import (
    DATA,
    DEFAULT,
    Components,
    export_components,
    load_components,
    provisional_components,
)
from palio.games.troyes.encode import Encoder
from palio.games.troyes.rules.apply import apply_action
from palio.games.troyes.rules.legal import legal_actions
from palio.games.troyes.rules.setup import setup_state
from palio.games.troyes.scoring import estimates
from palio.games.troyes.state import TroyesState
from palio.games.troyes.words import TroyesWords, legend

_BASE_INFO = dict(
    id="troyes", name="Troyes", version="1", min_players=2, max_players=4,
    options=(OptionSpec("bonus_cards", "add the bonus cards of the 2016 rulebook: Baker, Prior, "
                        "Banquet and the Resistance event"),),
    chance=True, hidden_information=True, score_range=(0, 400), max_length=3000,
    rules="shared/seeds/troyes.ja.md",
)


class TroyesGame(ComponentsGame):
    """Troyes' metadata, set-up, notation and action space for one components set."""

    default_components = DEFAULT
    read_notation = staticmethod(_actions.parse_action)
    notation_names = "a space, slot or place"
    # short random rollouts: long random Troyes play wastes dice and workers, so it costs
    # time and misleads, and MAST's averages of an action (a card slot, a die value) mean
    # little across positions; none at all was worse with three or four players (issue 23,
    # docs/bots.md)
    search_defaults = {"rollout_depth": 3, "mast": 0.0}
    # a long two-player search (mcts.LONG_ITERATIONS) values its leaves at once: with four
    # times the budget, no rollout gained more than three random decisions did (issue 23)
    search_defaults_long = {2: {"rollout_depth": 0}}

    def __init__(self, components: Components = DEFAULT) -> None:
        super().__init__(components)
        self.words = TroyesWords(components)
        self.tables = _actions.ActionTables(components)
        self.state_class = self.make_state_class(
            TroyesState, _legal_actions=legal_actions, _apply=apply_action)
        self.info = GameInfo(**_BASE_INFO, action_space_size=len(self.tables.all))
        self.encoder = Encoder(components)

    def _setup(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return setup_state(self.state_class, players, seed, options)

    def turn_key(self, state: State) -> tuple[int, ...]:
        """Changes with every placement of the draft, every action turn, every black die
        faced and every die rolled: undo never crosses any of them."""
        assert isinstance(state, TroyesState)
        return (state.round, state.phase, len(state.stack) if state.phase == 0 else 0,
                state.turns, state.fighter, len(state.black), state.rolls)

    def legend(self) -> dict[str, Any]:
        return legend(self.components)

    def worths(self, state: State) -> list[float]:
        """Per seat, its estimated final score (greedy bots and search cut-offs): the
        end-of-game scoring as it stands, plus a rough worth of what is held."""
        assert isinstance(state, TroyesState)
        if state.is_over:
            return [float(x) for x in state.scores()]
        return estimates(state)


GAME = TroyesGame()
DefaultTroyesState = GAME.state_class

__all__ = ["GAME", "TroyesGame", "TroyesState", "Components", "DATA", "load_components",
           "export_components", "provisional_components"]
