"""Batch simulation and tournaments for every registered game, on local processes or Ray.

>>> from palio import sim
>>> results = list(sim.simulate("san-gimignano", games=2, bots=["greedy", "random"], seed=1))
>>> sorted(r["index"] for r in results)
[0, 1]
>>> summary = sim.summarize(results, order=["greedy", "random"])
>>> [row.games for row in summary.bots]
[2, 2]

``simulate`` and ``arena`` check everything first (``OptionError`` for a bad game, option,
player count or bot), then yield one result per game as it finishes. Results depend only on
the seeds, never on the number of workers or the backend.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from palio.sim.backends import BACKENDS, check_backend, run_jobs
from palio.sim.jobs import TIMING_FIELDS, GameJob, play_job, sub_seed
from palio.sim.plan import SEATINGS, Setup, arena_jobs, check, check_count, simulation_jobs
from palio.sim.stats import BotSummary, Rating, Summary, rate, summarize, wilson


def simulate(game: str, players: int | None = None, games: int = 1,
             bots: Sequence[str] = ("random",), seed: int = 0, workers: int = 1,
             options: dict[str, Any] | None = None, backend: str = "process",
             address: str | None = None, rotate: bool = True, records: bool = False,
             stop: threading.Event | None = None) -> Iterator[dict[str, Any]]:
    """Play ``games`` games of ``game``; yield each result (a JSON-ready dict) as it finishes.

    Fewer bots than seats: the last one repeats. With ``rotate`` game ``i`` shifts the seats by
    ``i`` places, so every bot sits in every seat equally often over a multiple of the player
    count. Setting ``stop`` ends the run early (see :mod:`palio.sim.backends`).
    """
    jobs = plan_simulation(game, players, games, bots, seed, options, rotate, records)
    check_count("workers", workers, 1)
    return run_jobs(jobs, workers, backend, address, stop)


def plan_simulation(game: str, players: int | None, games: int, bots: Sequence[str],
                    seed: int, options: dict[str, Any] | None = None, rotate: bool = True,
                    records: bool = False) -> list[GameJob]:
    """The checked jobs of a simulation, without running them."""
    return simulation_jobs(check(game, players, bots, options), games, seed, rotate, records)


def arena(game: str, bots: Sequence[str], games: int = 1, players: int | None = None,
          seed: int = 0, workers: int = 1, options: dict[str, Any] | None = None,
          seating: str | None = None, backend: str = "process", address: str | None = None,
          stop: threading.Event | None = None) -> Iterator[dict[str, Any]]:
    """A round robin: ``games`` games per seat arrangement of every group of bots.

    See :func:`palio.sim.plan.arena_jobs` for the groups, the seatings and the shared deals.
    """
    jobs = plan_arena(game, bots, games, players, seed, options, seating)
    check_count("workers", workers, 1)
    return run_jobs(jobs, workers, backend, address, stop)


def plan_arena(game: str, bots: Sequence[str], games: int, players: int | None = None,
               seed: int = 0, options: dict[str, Any] | None = None,
               seating: str | None = None) -> list[GameJob]:
    """The checked jobs of an arena, without running them."""
    return arena_jobs(check(game, players, bots, options), games, seed, seating)


@dataclass
class Standing:
    """One bot's line in an arena table: its rating and what it did."""

    rating: Rating
    record: BotSummary

    def as_dict(self) -> dict[str, Any]:
        return {"bot": self.rating.bot, "rating": self.rating.rating,
                "rating_low": self.rating.low, "rating_high": self.rating.high,
                **{k: v for k, v in self.record.as_dict().items() if k != "bot"}}


def standings(results: Sequence[dict[str, Any]], bots: Sequence[str], seed: int = 0,
              bootstrap: int = 200) -> list[Standing]:
    """Ratings and records of ``bots``, best rating first."""
    ratings = rate(results, bots, bootstrap, sub_seed(seed, "arena-bootstrap"))
    records = {row.bot: row for row in summarize(results, order=bots).bots}
    table = [Standing(rating, records[rating.bot]) for rating in ratings]
    return sorted(table, key=lambda s: -s.rating.rating)


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    """A result without its timings: what two runs with the same seeds must agree on."""
    return {k: v for k, v in result.items() if k not in TIMING_FIELDS}


__all__ = [
    "BACKENDS", "SEATINGS", "BotSummary", "GameJob", "Rating", "Setup", "Standing", "Summary",
    "arena", "check_backend", "comparable", "plan_arena", "plan_simulation", "play_job", "rate",
    "simulate", "standings", "summarize", "wilson",
]
