"""The registry of games. ``palio.games()`` lists them; ``get(id)`` returns one.

Games are imported lazily, so listing them or playing one never imports the others. This
package module is made callable (``palio.games()``) because the issue's public API names it so
while the game packages must live under ``palio/games/``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

from palio.core.errors import OptionError
from palio.core.game import Game, State

# id -> module holding GAME; the order is the order shown to users
REGISTRY: dict[str, str] = {
    "san-gimignano": "palio.games.san_gimignano",
    "tiletum": "palio.games.tiletum",
    "aquileia": "palio.games.aquileia",
    "signorie": "palio.games.signorie",
    "troyes": "palio.games.troyes",
}


def available() -> list[str]:
    """Ids of the games whose package is present."""
    out = []
    for game_id, module in REGISTRY.items():
        if importlib.util.find_spec(module) is not None:
            out.append(game_id)
    return out


def get(game_id: str) -> Game:
    module = REGISTRY.get(game_id)
    if module is None or importlib.util.find_spec(module) is None:
        raise OptionError(f"unknown game {game_id!r}; known: {', '.join(available())}")
    return importlib.import_module(module).GAME


def new_game(game_id: str, players: int | None = None, seed: int | None = None,
             options: dict[str, Any] | None = None) -> State:
    game = get(game_id)
    return game.setup(game.info.min_players if players is None else players, seed, options)


class _CallableRegistry(types.ModuleType):
    def __call__(self) -> dict[str, Game]:
        return {game_id: get(game_id) for game_id in available()}


sys.modules[__name__].__class__ = _CallableRegistry
