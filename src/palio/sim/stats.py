"""Figures from finished games: per-bot summaries, Wilson intervals, Bradley-Terry ratings.

Everything here reads the per-game results that :func:`palio.sim.jobs.play_job` returns (or
the JSON lines ``palio simulate`` writes), so a summary can be recomputed from a saved file.
A tie for first place counts as a share of a win: two seats tied first get half a win each.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
ELO_SCALE = 400 / math.log(10)  # natural-log strength -> Elo points (10:1 odds per 400)


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (``wins`` may be fractional)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    spread = z * z / n
    centre = (p + spread / 2) / (1 + spread)
    half = z * math.sqrt(p * (1 - p) / n + spread / (4 * n)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


def win_shares(ranks: Sequence[int]) -> list[float]:
    """Per seat its share of the win: 1/k for each of k seats tied first, else 0."""
    winners = sum(1 for r in ranks if r == 1)
    return [1.0 / winners if r == 1 else 0.0 for r in ranks]


@dataclass
class BotSummary:
    """What one bot spec did over a set of games (a game where it held two seats counts twice)."""

    bot: str
    games: int = 0  # seats played
    wins: float = 0.0  # win shares
    score_total: float = 0.0
    rank_total: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        return self.rank_total / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"bot": self.bot, "games": self.games, "wins": self.wins,
                "win_rate": self.win_rate, "win_low": low, "win_high": high,
                "mean_score": self.mean_score, "mean_rank": self.mean_rank}


@dataclass
class Summary:
    """Per-bot rows (in the order the bots were given) and the mean game length."""

    bots: list[BotSummary]
    games: int
    mean_decisions: float


def summarize(results: Iterable[dict[str, Any]], order: Sequence[str] = ()) -> Summary:
    """Add up per-game results by bot spec; bots named in ``order`` come first, in that order."""
    rows: dict[str, BotSummary] = {bot: BotSummary(bot) for bot in order}
    games = 0
    decisions = 0
    for result in results:
        games += 1
        decisions += result["decisions"]
        shares = win_shares(result["ranks"])
        for seat, bot in enumerate(result["bots"]):
            row = rows.setdefault(bot, BotSummary(bot))
            row.games += 1
            row.wins += shares[seat]
            row.score_total += result["scores"][seat]
            row.rank_total += result["ranks"][seat]
    return Summary(list(rows.values()), games, decisions / games if games else 0.0)


# -- Bradley-Terry ---------------------------------------------------------------------------

Pairwise = list[tuple[int, int, float]]  # (bot a, bot b, a's score: 1 win, 0.5 tie, 0 loss)


def pairwise(result: dict[str, Any], index: dict[str, int]) -> Pairwise:
    """A game's final ranking split into one result per pair of seats held by different bots."""
    seats = result["bots"]
    ranks = result["ranks"]
    out: Pairwise = []
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            a, b = index[seats[i]], index[seats[j]]
            if a == b:
                continue  # a bot against itself says nothing about its strength
            score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            out.append((a, b, score))
    return out


def win_matrix(games: Iterable[Pairwise], size: int) -> list[list[float]]:
    """``wins[a][b]``: how often bot ``a`` finished ahead of bot ``b`` (ties as halves)."""
    wins = [[0.0] * size for _ in range(size)]
    for game in games:
        for a, b, score in game:
            wins[a][b] += score
            wins[b][a] += 1.0 - score
    return wins


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = 0.5, tolerance: float = 1e-9,
                  max_iterations: int = 10_000) -> list[float]:
    """Bradley-Terry ratings on an Elo-like scale (mean 0), fit by the MM algorithm.

    ``prior`` adds that many virtual wins each way between every two bots (one drawn game by
    default): it keeps ratings finite when a bot wins or loses every game, and pulls little
    once there are real games.
    """
    size = len(wins)
    if size < 2:
        return [0.0] * size
    won = [[wins[a][b] + (prior if a != b else 0.0) for b in range(size)] for a in range(size)]
    met = [[won[a][b] + won[b][a] for b in range(size)] for a in range(size)]
    totals = [sum(row) for row in won]
    strength = [1.0] * size
    for _ in range(max_iterations):
        updated = [
            totals[a] / sum(met[a][b] / (strength[a] + strength[b])
                            for b in range(size) if b != a and met[a][b])
            for a in range(size)
        ]
        # the model fixes strengths only up to a common factor: keep their geometric mean at 1
        centre = math.exp(sum(math.log(s) for s in updated) / size)
        updated = [s / centre for s in updated]
        change = max(abs(math.log(u / s)) for u, s in zip(updated, strength, strict=True))
        strength = updated
        if change < tolerance:
            break
    return [ELO_SCALE * math.log(s) for s in strength]


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by linear interpolation between order statistics."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass
class Rating:
    bot: str
    rating: float
    low: float
    high: float


def rate(results: Sequence[dict[str, Any]], bots: Sequence[str], bootstrap: int = 200,
         seed: int = 0, prior: float = 0.5) -> list[Rating]:
    """Bradley-Terry ratings of ``bots`` with 95% percentile intervals from a game bootstrap.

    The bootstrap draws as many games as were played, with replacement, refits, and takes the
    2.5% and 97.5% quantiles of each bot's rating; ``seed`` makes it repeatable.
    """
    index = {bot: i for i, bot in enumerate(bots)}
    games = [pairwise(result, index) for result in results]
    ratings = bradley_terry(win_matrix(games, len(bots)), prior)
    if not games or bootstrap <= 0:
        return [Rating(bot, ratings[i], math.nan, math.nan) for i, bot in enumerate(bots)]
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in bots]
    for _ in range(bootstrap):
        drawn = (games[rng.randrange(len(games))] for _ in range(len(games)))
        for i, value in enumerate(bradley_terry(win_matrix(drawn, len(bots)), prior)):
            samples[i].append(value)
    return [Rating(bot, ratings[i], quantile(samples[i], 0.025), quantile(samples[i], 0.975))
            for i, bot in enumerate(bots)]
