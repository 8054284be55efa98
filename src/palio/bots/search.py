"""The ``search`` bot: the strongest search without a network for the game and player count.

Which search that is was measured, not assumed: ``mcts`` in most games; ``puct`` (the learned
bot's search with uniform priors and the game's evaluation at every leaf) where it beat ``mcts``
at equal CPU on every seed (:data:`palio.bots.SEARCH_BY_GAME`, docs/bots.md). The ``expert``
level falls back to it where no network is proven, and the review judges with it then.
"""

from __future__ import annotations

from typing import Any

from palio import bots
from palio.bots.base import Bot
from palio.core.game import Action, State


class SearchBot(Bot):
    """Plays as :func:`palio.bots.strongest_search` names for the game and player count being
    played, with this bot's budget: ``iterations``, ``time_budget``, ``cpu_time`` (each search's
    default where not given) and ``seed``. ``last_stats`` is the playing search's."""

    name = "search"

    def __init__(self, iterations: int | None = None, time_budget: float | None = None,
                 cpu_time: bool = False, seed: int | None = None) -> None:
        super().__init__(seed)
        options: dict[str, Any] = {"iterations": iterations, "time_budget": time_budget,
                                   "cpu_time": cpu_time, "seed": seed}
        self.options = {k: v for k, v in options.items() if v is not None}
        # checked now, not at the first move: the same options must suit either search
        for name in sorted(set(bots.SEARCH_BY_GAME.values()) | {"mcts"}):
            bots.get(name, **self.options)
        self._searches: dict[tuple[str, int], Bot] = {}
        self.last_stats: dict[str, float] = {"iterations": 0, "seconds": 0.0}

    def search_for(self, state: State) -> Bot:
        """The bot that plays this game and player count (made once, then kept)."""
        key = (state.game.info.id, state.players)
        found = self._searches.get(key)
        if found is None:
            found = self._searches[key] = bots.get(bots.strongest_search(*key), **self.options)
        return found

    def choose(self, state: State, seat: int) -> Action:
        self.check_turn(state, seat)
        search = self.search_for(state)
        action = search.choose(state, seat)
        self.last_stats = dict(getattr(search, "last_stats", {}) or self.last_stats)
        return action
