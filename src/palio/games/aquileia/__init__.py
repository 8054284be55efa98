"""Aquileia (Zoch 2011, Cielo d'Oro): the complete rules engine for 3 to 5 players.

Rules source: ``shared/seeds/aquileia.ja.md``. The rules for players:
``docs/rules/aquileia.md``; the readings chosen where the rulebook is open, with their reasons:
``docs/coverage/aquileia.md``. Component values and the provisional ones:
``docs/components/aquileia.md`` and :func:`provisional_components`. Observation tensor:
``encode.py`` and ``docs/observation-tensors.md``.

>>> from palio.games.aquileia import GAME
>>> state = GAME.setup(4, seed=3)
>>> state.round, len(state.display), state.legal_actions()[0]
(1, 3, Place(field='dolus'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from palio.core.game import ComponentsGame, GameInfo, OptionSpec, State
from palio.games.aquileia import actions as _actions
from palio.games.aquileia.components import (
    CLASSES,
    DATA,
    DEFAULT,
    DISTRICTS,
    FIELD_KINDS,
    METALS,
    PLOT_KINDS,
    Components,
    export_components,
    load_components,
    provisional_components,
)
from palio.games.aquileia.encode import Encoder
from palio.games.aquileia.rules.flow import steps
from palio.games.aquileia.rules.setup import setup_state
from palio.games.aquileia.scoring import WorthTables
from palio.games.aquileia.state import AquileiaState
from palio.games.aquileia.words import AquileiaWords

_BASE_INFO = dict(
    # version 2 (issue 35): henchmen may follow one's tiebreaker, as the rulebook says; version
    # 1 games were played as the option tiebreaker_ends plays now (options_of_version)
    id="aquileia", name="Aquileia", version="2", min_players=3, max_players=5,
    options=(OptionSpec("tiebreaker_ends", "the tiebreaker is your last piece of the round: no "
                        "henchman after it (the publisher's English rules; the Japanese rulebook "
                        "lets you go on placing henchmen)"),),
    chance=True, hidden_information=True, score_range=(0, 2000), max_length=3000,
    rules="shared/seeds/aquileia.ja.md",
)


class AquileiaGame(ComponentsGame):
    """Aquileia's metadata, set-up, notation and action space for one components set."""

    default_components = DEFAULT
    read_notation = staticmethod(_actions.parse_action)
    notation_names = "a field, plot, card or count"
    # longer MAST rollouts: with three to five seats, 8 decisions reach little of anyone's
    # next turn (issue 23: 62-75% against mcts-2026 with 16, 52-57% with 8; docs/bots.md)
    search_defaults = {"rollout_depth": 16}
    # and longer still with five: 75.2% of 240 pairs with 24, 59.4% with 16 (seeds 31-33)
    search_defaults_by_players = {5: {"rollout_depth": 24}}

    def __init__(self, components: Components = DEFAULT) -> None:
        super().__init__(components)
        self.tables = _actions.ActionTables(components)
        self.state_class = self.make_state_class(
            AquileiaState, steps=steps(components), simple_field=components.field_simple)
        self.info = GameInfo(**_BASE_INFO, action_space_size=len(self.tables.all))
        self.words = AquileiaWords(components)
        self.encoder = Encoder(components)
        self.worth_tables = WorthTables(components)

    def _setup(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return setup_state(self.state_class, players, seed, options)

    def options_of_version(self, version: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """Version 1 ended one's henchmen with the tiebreaker: its games replay with the
        option ``tiebreaker_ends`` (unless they name it)."""
        out = dict(options)
        if version == "1":
            out.setdefault("tiebreaker_ends", True)
        return out

    def turn_key(self, state: State) -> tuple[int, ...]:
        """Round, phase, step and the pending decision's kind and seat: the next seat's
        placement, bid or choice begins a new turn."""
        assert isinstance(state, AquileiaState)
        top = state.stack[-1] if state.stack else (-1, -1)
        return state.round, state.phase, state.step, len(state.stack), top[0], top[1]

    def legend(self) -> dict[str, Any]:
        """The printed tables a client needs to draw an observation (see ``Game.legend``)."""
        c = self.components

        def coins(values: Sequence[int]) -> dict[str, int]:
            return {METALS[m]: values[m] for m in range(3) if values[m]}

        return {
            "districts": list(DISTRICTS),
            "metals": list(METALS),
            "colours": list(c.colours),
            "classes": list(CLASSES),
            "rounds": c.rounds,
            "henchmen": c.henchmen,
            "houses": c.houses,
            "tiebreaker_spaces": c.tiebreaker_spaces,
            "fields": [{"name": c.field_name[f], "district": DISTRICTS[c.field_district[f]],
                        "kind": FIELD_KINDS[c.field_kind[f]], "param": c.field_param[f],
                        "value": c.field_value[f]} for f in range(c.n_fields)],
            "cards": {c.type_key[t]: {"class": CLASSES[c.type_class[t]], "kind": c.type_kind[t],
                                      "symbols": c.type_symbols[t],
                                      "metal": METALS[c.type_metal[t]] if c.type_metal[t] != -1 else None,
                                      "colours": [c.colours[x] for x in c.type_colours[t]],
                                      "vp": c.type_vp[t], "count": c.type_count[t]}
                      for t in range(c.n_types)},
            "plots": [{"kind": PLOT_KINDS[c.plot_kind[p]],
                       "colour": c.colours[c.plot_colour[p]] if c.plot_colour[p] != -1 else None,
                       "vp": c.plot_vp[p], "cost": coins(c.plot_cost[p]), "slaves": c.plot_slaves[p],
                       "yield_vp": c.plot_yield[p], "income": coins(c.plot_income[p])}
                      for p in range(len(c.plots))],
            "exchanges": [{"give": coins(give), "get": coins(get)} for give, get in c.exchanges],
            "servi": [{"metal": METALS[metal], "max": most} for metal, most in c.servi],
            "forum_fields": [{"builds": b, "score": score} for b, score in c.forum_fields],
            "arma_price": coins(c.arma_price),
            "pecunia_vp": c.pecunia_vp,
            "arena_coins": list(c.arena_coins),
            "stadium_coins": list(c.stadium_coins),
            "vp_per_strength": c.vp_per_strength,
            "blue_dice": c.blue_dice,
            "display_size": c.display_size,
        }

    def worths(self, state: State) -> list[float]:
        """Per seat, VP plus a rough worth of what is held: what the cards and villas would score if the
        game ended now, coins, strength cards, and the income of workshops and banks still to
        come (greedy bots, search cut-offs). Computed from tables of each card's and plot's
        part (:class:`~palio.games.aquileia.scoring.WorthTables`), the same values to the last
        bit as adding them up card by card (tests/aquileia/test_worths.py)."""
        assert isinstance(state, AquileiaState)
        return self.worth_tables.worths(state)


GAME = AquileiaGame()
DefaultAquileiaState = GAME.state_class

__all__ = ["GAME", "AquileiaGame", "AquileiaState", "Components", "DATA", "load_components",
           "export_components", "provisional_components"]
