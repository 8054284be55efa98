"""Tiletum (Board&Dice 2022, Tascini & Luciani): the complete rules engine for 2-4 players.

Rules source: ``shared/seeds/tiletum.ja.md``. Our own wording of the rules: ``docs/rules/tiletum.md``;
the readings chosen where the rulebook is ambiguous: ``docs/coverage/tiletum.md``. Provisional component
values: ``docs/components/tiletum.md`` and :func:`provisional_components`.
Observation tensor (its shape depends on the player count): ``encode.py`` and
``docs/observation-tensors.md``.
"""

from __future__ import annotations

from typing import Any

from palio.core.game import ComponentsGame, GameInfo, OptionSpec, State
from palio.games.tiletum import actions as _actions
from palio.games.tiletum.components import (
    DATA,
    DEFAULT,
    Components,
    export_components,
    load_components,
    provisional_components,
)
from palio.games.tiletum.encode import Encoder
from palio.games.tiletum.legend import legend as _legend
from palio.games.tiletum.rules.common import houses_on_map, pillars_on_map
from palio.games.tiletum.rules.setup import setup_state
from palio.games.tiletum.state import TiletumState
from palio.games.tiletum.words import TiletumWords

_BASE_INFO = dict(
    id="tiletum", name="Tiletum", version="1", min_players=2, max_players=4,
    options=(OptionSpec("action_tiles", "shuffle the six action tiles around the wheel"),),
    chance=True, hidden_information=True, score_range=(0, 400), max_length=2000,
    rules="shared/seeds/tiletum.ja.md",
)


class TiletumGame(ComponentsGame):
    """Tiletum's metadata, set-up, notation and action space for one components set."""

    default_components = DEFAULT
    read_notation = staticmethod(_actions.parse_action)
    notation_names = "a place or slot"
    # with four seats, rollouts of 4 decisions beat the default 8 (docs/bots.md; not with two
    # or three, so those keep the default)
    search_defaults_by_players = {4: {"rollout_depth": 4}}

    def __init__(self, components: Components = DEFAULT) -> None:
        super().__init__(components)
        self.tables = _actions.ActionTables(components)
        self.state_class = self.make_state_class(TiletumState)
        self.info = GameInfo(**_BASE_INFO, action_space_size=len(self.tables.all))
        self.encoder = Encoder(components)
        self.words = TiletumWords(components)

    def _setup(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return setup_state(self.state_class, players, seed, options)

    def turn_key(self, state: State) -> tuple[int, int, int, int]:
        """Round, turn, position in the order and phase: a new turn changes one of them."""
        assert isinstance(state, TiletumState)
        return state.round, state.turn, state.pos, state.phase

    def legend(self) -> dict[str, Any]:
        return _legend(self.components)

    def worths(self, state: State) -> list[float]:
        """Per seat, VP plus a rough worth of what is held (greedy bots, search cut-offs)."""
        assert isinstance(state, TiletumState)

        def worth(p: int) -> float:
            if state.is_over:
                return float(state.vp[p])
            extra = houses_on_map(state, p) * pillars_on_map(state, p)
            return (state.vp[p] + 0.3 * sum(state.res[p]) + 0.8 * extra + 1.5 * len(state.store[p])
                    + 2 * len(state.done[p]) + 0.5 * state.king_pos[p])

        return [worth(p) for p in range(state.players)]


GAME = TiletumGame()
DefaultTiletumState = GAME.state_class

__all__ = ["GAME", "TiletumGame", "TiletumState", "Components", "DATA", "load_components",
           "export_components", "provisional_components"]
