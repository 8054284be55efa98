"""Bots, by short name: ``palio.bots.get("greedy", seed=1).choose(state, seat)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from palio.bots.base import Bot
from palio.bots.simple import GreedyBot, RandomBot
from palio.core.errors import OptionError

# name -> factory taking keyword options (seed and bot-specific ones)
REGISTRY: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def names() -> list[str]:
    return list(REGISTRY)


def get(name: str, **options: Any) -> Bot:
    factory = REGISTRY.get(name)
    if factory is None:
        raise OptionError(f"unknown bot {name!r}; known: {', '.join(REGISTRY)}")
    try:
        return factory(**options)
    except TypeError as exc:
        raise OptionError(f"bad options for bot {name}: {exc}") from None


__all__ = ["Bot", "GreedyBot", "RandomBot", "get", "names"]
