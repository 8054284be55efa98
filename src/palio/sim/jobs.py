"""One simulated game as a picklable job, and the function that plays it anywhere.

A :class:`GameJob` holds everything a worker needs (game id, options, the bot spec of each
seat, the game seed), so the same job gives the same result in this process, a worker process
or a Ray task. Every seed is derived from the run's seed: the game seed from the run seed and
the game's index, each bot's seed from the game seed and its seat.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

import palio.games as registry
from palio import bots
from palio.core.record import GameRecord
from palio.core.rng import derive


def sub_seed(seed: int, *stream: object) -> int:
    """A 63-bit seed derived from ``seed`` and a stream key; the same inputs give the same seed."""
    return derive(seed, *stream).getrandbits(63)


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``run_seed``."""
    return sub_seed(run_seed, "sim-game", index)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game seeded with ``seed``."""
    return sub_seed(seed, "sim-bot", seat)


def bot_factory_spec(spec: str) -> str:
    """A command-line bot spec as ``palio.bots.get`` takes it (``;`` separates options there)."""
    return spec.strip().replace(";", ",")


@dataclass(frozen=True)
class GameJob:
    """One game to play: which game, who sits where, and its seed."""

    index: int
    game: str
    players: int
    seed: int
    bots: tuple[str, ...]  # bot spec by seat, as the user wrote it
    options: dict[str, Any] = field(default_factory=dict)
    record: bool = False  # include the game record in the result


def play_job(job: GameJob) -> dict[str, Any]:
    """Play one game to the end and return its JSON-ready result."""
    started = time.perf_counter()
    state = registry.get(job.game).setup(job.players, job.seed, job.options)
    agents = [
        bots.get(bot_factory_spec(spec), seed=bot_seed(job.seed, seat))
        for seat, spec in enumerate(job.bots)
    ]
    searched = [0] * job.players  # decisions each seat's bot searched, and its iterations
    iterations = [0] * job.players
    while not state.is_over:
        seat = state.to_move
        # the bot sees the state only through its own choose(); apply checks legality
        state.apply(agents[seat].choose(state, seat))
        stats = getattr(agents[seat], "last_stats", None)
        if stats and stats.get("iterations"):
            searched[seat] += 1
            iterations[seat] += int(stats["iterations"])
    result: dict[str, Any] = {
        "index": job.index,
        "seed": job.seed,
        "game": job.game,
        "players": job.players,
        "bots": list(job.bots),
        "scores": state.scores(),
        "ranks": state.ranks(),
        "decisions": state.move_number,
        "seconds": round(time.perf_counter() - started, 4),
        # per seat, the mean search iterations of a searching bot's decisions (None for a bot
        # that does not search): under a time budget it tells how much search the time bought
        "iterations_per_move": [round(i / n, 1) if n else None
                                for i, n in zip(iterations, searched, strict=True)],
    }
    if job.record:
        record = GameRecord.of(state, seats=list(job.bots))
        result["record"] = {k: v for k, v in asdict(record).items() if v is not None}
    return result


# the fields that depend on the machine, not on the seeds (left out when comparing runs)
TIMING_FIELDS = ("seconds", "iterations_per_move")
