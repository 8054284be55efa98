"""Turning a request into game jobs: validation, seat rotation and arena seatings.

Everything is checked here, before any process starts: the game, the player count, the game
options and every bot spec. A bad value raises :class:`~palio.core.errors.OptionError` with a
message a person can act on.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import palio.games as registry
from palio import bots as bot_registry
from palio.core.errors import OptionError
from palio.sim.jobs import GameJob, bot_factory_spec, game_seed, sub_seed

SEATINGS = ("permutations", "rotations")
MAX_PERMUTATIONS = 6  # up to 3 seats every order is played; beyond, cyclic rotations


@dataclass(frozen=True)
class Setup:
    """A checked request: the game, its player count and options, the bot specs."""

    game: str
    players: int
    options: dict[str, Any]
    bots: tuple[str, ...]


def check(game: str, players: int | None, bots: Sequence[str],
          options: dict[str, Any] | None = None) -> Setup:
    """Validate a game, player count, options and bot specs; fill in the defaults."""
    engine = registry.get(game)
    count = engine.info.min_players if players is None else players
    checked = engine.validate_options(count, options)
    specs = tuple(spec.strip() for spec in bots)
    if not specs or not all(specs):
        raise OptionError("name at least one bot, e.g. --bots greedy,random")
    for spec in specs:
        bot_registry.get(bot_factory_spec(spec))  # a bad name or option fails here
    return Setup(game, count, checked, specs)


def check_count(name: str, value: int, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise OptionError(f"{name} must be a whole number of at least {minimum}, not {value!r}")


# -- simulate --------------------------------------------------------------------------------

def lineup(setup: Setup) -> tuple[str, ...]:
    """The bot of each seat before rotation: the bots in order, the last one repeated."""
    if len(setup.bots) > setup.players:
        raise OptionError(f"{len(setup.bots)} bots named for {setup.players} seats")
    missing = setup.players - len(setup.bots)
    return setup.bots + (setup.bots[-1],) * missing


def rotated(seats: Sequence[str], index: int) -> tuple[str, ...]:
    """Game ``index``'s seats: the lineup shifted ``index`` places, so every bot takes every seat."""
    n = len(seats)
    return tuple(seats[(seat - index) % n] for seat in range(n))


def simulation_jobs(setup: Setup, games: int, seed: int, rotate: bool = True,
                    records: bool = False) -> list[GameJob]:
    """``games`` jobs; game ``i`` is seeded from ``seed`` and ``i`` alone."""
    check_count("games", games, 1)
    base = lineup(setup)
    return [
        GameJob(index=i, game=setup.game, players=setup.players, seed=game_seed(seed, i),
                bots=rotated(base, i) if rotate else base, options=setup.options,
                record=records)
        for i in range(games)
    ]


# -- arena -----------------------------------------------------------------------------------

def default_seating(players: int) -> str:
    return "permutations" if math.factorial(players) <= MAX_PERMUTATIONS else "rotations"


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The groups of bots that meet, each sorted in the order the bots were given.

    Every ``players`` distinct bots when there are enough; otherwise every multiset of the bots
    that holds at least two different ones (a bot alone learns nothing about its strength).
    """
    if len(bots) >= players:
        return list(itertools.combinations(bots, players))
    groups = itertools.combinations_with_replacement(bots, players)
    return [group for group in groups if len(set(group)) > 1]


def arrangements(group: Sequence[str], seating: str) -> list[tuple[str, ...]]:
    """The seat orders of one group: every distinct permutation, or every distinct rotation."""
    if seating == "permutations":
        orders = itertools.permutations(group)
    else:
        orders = (tuple(group[i:]) + tuple(group[:i]) for i in range(len(group)))
    return list(dict.fromkeys(orders))  # distinct, in first-seen order


def arena_jobs(setup: Setup, games: int, seed: int, seating: str | None = None,
               records: bool = False) -> list[GameJob]:
    """``games`` games for every seat arrangement of every group of bots.

    Game ``k`` of every arrangement of the same group uses the same deal (seed from ``seed``,
    the group and ``k``), so each bot plays each deal from each seat: luck of the deal cancels.
    Jobs are ordered round by round, so a run stopped early is still balanced.
    """
    check_count("games", games, 1)
    if len(setup.bots) < 2:
        raise OptionError("an arena needs at least two bots")
    if len(set(setup.bots)) != len(setup.bots):
        raise OptionError("name each bot once in an arena (a bot cannot be rated against itself)")
    seating = seating or default_seating(setup.players)
    if seating not in SEATINGS:
        raise OptionError(f"unknown seating {seating!r}; choose one of {', '.join(SEATINGS)}")
    groups = [(g, arrangements(group, seating))
              for g, group in enumerate(lineups(setup.bots, setup.players))]
    jobs: list[GameJob] = []
    for k in range(games):
        for g, orders in groups:
            deal = sub_seed(seed, "arena-deal", g, k)
            for order in orders:
                jobs.append(GameJob(index=len(jobs), game=setup.game, players=setup.players,
                                    seed=deal, bots=order, options=setup.options,
                                    record=records))
    return jobs
