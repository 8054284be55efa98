"""Bots, by short name or level: ``palio.bots.get("greedy", seed=1).choose(state, seat)``.

A name may carry options after a colon, ``get("mcts:iterations=200,c=1.0")``; keyword
options given to ``get`` override those. Levels (``easy`` .. ``expert``) name a bot and its
options in words a person understands; options given with a level override its own.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from palio.bots.base import Bot
from palio.bots.mcts import MctsBot
from palio.bots.mcts_baseline import BaselineMctsBot
from palio.bots.simple import GreedyBot, RandomBot
from palio.core.errors import OptionError

# name -> factory taking keyword options (seed and bot-specific ones). A factory named as
# "module:attribute" is imported when first asked for: the learned bot brings numpy and its
# network (about 0.15 CPU-s), which a terminal game against mcts or greedy never needs.
REGISTRY: dict[str, Callable[..., Bot] | str] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MctsBot,
    "learned": "palio.bots.learned:LearnedBot",
    # the learned bot's search with no network (uniform priors, the game's evaluation at
    # every leaf): what a network adds is measured against it
    "puct": "palio.bots.learned:PuctBot",
    # whichever of those two searches was measured stronger for the game and player count
    "search": "palio.bots.search:SearchBot",
    # the search as it was before issue 23, kept as a yardstick for measuring mcts
    "mcts-2026": BaselineMctsBot,
}

# (game id, players) -> the search without a network that plays there, where it is not mcts:
# puct beat mcts at equal CPU (0.1 s a move) on every seed in Troyes at two, three and four
# players (65.8 % of 60 games, 66.1 % and 67.2 % of 96 pairs; docs/bots.md, "The same search
# with no network"), and at the expert level's 2,000 iterations at two and three players, level
# at four (docs/bots.md, "puct as Troyes's expert level and judge"); in two-player Signorie
# (63.8 % of 80 games at 0.1 s, seeds 4-5; docs/bots.md, "Signorie with the game's evaluation at
# every leaf"); it lost every game of a first look in San Gimignano and Aquileia
SEARCH_BY_GAME: dict[tuple[str, int], str] = {
    ("signorie", 2): "puct",
    ("troyes", 2): "puct",
    ("troyes", 3): "puct",
    ("troyes", 4): "puct",
}


def strongest_search(game_id: str, players: int) -> str:
    """The name of the strongest bot without a network for a game and player count."""
    return SEARCH_BY_GAME.get((game_id, players), "mcts")


# level -> (bot name, options)
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("random", {}),
    "medium": ("greedy", {}),
    "hard": ("mcts", {}),
    # the trained network where a model ships for the game and player count and was measured
    # at least as strong as the strongest search without one (its card says so), else that
    # search (mcts, or puct where it is stronger: SEARCH_BY_GAME)
    "expert": ("learned", {"iterations": 2000, "fallback": "search:iterations=2000", "proven": 0.5}),
}


def names() -> list[str]:
    """Every bot name, then every level."""
    return list(REGISTRY) + list(LEVELS)


def _value(text: str) -> Any:
    """An option value written in a spec: a number, true/false/none, or else the text."""
    lowered = text.strip().lower()
    if lowered in ("none", "null"):
        return None
    if lowered in ("true", "false"):
        return lowered == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text.strip()


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=200,c=1"`` -> ``("mcts", {"iterations": 200, "c": 1})``."""
    name, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, text = part.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"bad bot option {part!r} in {spec!r}; write key=value")
        options[key.strip()] = _value(text)
    return name.strip(), options


def get(name: str, **options: Any) -> Bot:
    """A fresh bot by name, level or spec; :class:`OptionError` for anything unknown."""
    if not isinstance(name, str):
        raise OptionError(f"a bot is named by text, not {name!r}")
    name, spec_options = parse_spec(name)
    options = {**spec_options, **options}
    if name in LEVELS:
        bot_name, level_options = LEVELS[name]
        options = {**level_options, **options}
        name = bot_name
    factory = factory_of(name)
    if factory is None:
        raise OptionError(f"unknown bot {name!r}; known: {', '.join(names())}")
    accepted = [p for p in inspect.signature(factory).parameters if p not in ("self",)]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise OptionError(
            f"unknown option(s) {', '.join(unknown)} for bot {name}; it takes: {', '.join(accepted)}"
        )
    try:
        return factory(**options)
    except TypeError as exc:
        raise OptionError(f"bad options for bot {name}: {exc}") from None


def factory_of(name: str) -> Callable[..., Bot] | None:
    """The bot class (or factory) registered as ``name``, imported now if need be."""
    factory = REGISTRY.get(name)
    if isinstance(factory, str):
        module, _, attribute = factory.partition(":")
        factory = REGISTRY[name] = getattr(importlib.import_module(module), attribute)
    return factory


def __getattr__(name: str) -> Any:
    """``palio.bots.LearnedBot``, imported when first used (PEP 562)."""
    if name == "LearnedBot":
        return factory_of("learned")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["LEVELS", "SEARCH_BY_GAME", "BaselineMctsBot", "Bot", "GreedyBot", "LearnedBot",
           "MctsBot", "RandomBot", "get", "names", "parse_spec", "strongest_search"]
