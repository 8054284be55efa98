"""Summaries and ratings: Wilson intervals on known numbers, win shares, Bradley-Terry."""

from __future__ import annotations

import math
import random

import pytest

from palio.sim.stats import (
    bradley_terry,
    pairwise,
    quantile,
    rate,
    summarize,
    wilson,
    win_matrix,
    win_shares,
)


@pytest.mark.parametrize(("wins", "n", "low", "high"), [
    # the values scipy.stats.binomtest(k, n).proportion_ci(method="wilson") gives
    (50, 100, 0.4038, 0.5962),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_matches_published_values(wins, n, low, high):
    got_low, got_high = wilson(wins, n)
    assert got_low == pytest.approx(low, abs=5e-4)
    assert got_high == pytest.approx(high, abs=5e-4)


def test_wilson_interval_without_games_is_everything():
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_tie_for_first_is_shared():
    assert win_shares([1, 1, 3]) == [0.5, 0.5, 0.0]
    assert win_shares([2, 1]) == [0.0, 1.0]


def result(bots, scores, ranks, decisions=10):
    return {"bots": bots, "scores": scores, "ranks": ranks, "decisions": decisions}


def test_summary_counts_seats_shares_scores_and_ranks():
    games = [
        result(["a", "b"], [10, 5], [1, 2], 20),
        result(["b", "a"], [7, 7], [1, 1], 30),
        result(["a", "b", "b"], [1, 2, 3], [3, 2, 1], 40),
    ]
    summary = summarize(games, order=["b", "a"])
    b, a = summary.bots
    assert (a.bot, a.games, a.wins, a.mean_score) == ("a", 3, 1.5, 6.0)
    assert (b.bot, b.games, b.wins, b.mean_score) == ("b", 4, 1.5, 17 / 4)
    assert a.mean_rank == pytest.approx(5 / 3) and b.mean_rank == pytest.approx(6 / 4)
    assert summary.games == 3 and summary.mean_decisions == 30


def test_a_ranking_splits_into_pairs_with_ties_as_halves():
    index = {"a": 0, "b": 1, "c": 2}
    pairs = pairwise(result(["c", "a", "b", "a"], [0] * 4, [2, 1, 2, 4]), index)
    # seat pairs with the same bot (a, a) say nothing and are left out
    assert sorted(pairs) == sorted([(2, 0, 0.0), (2, 1, 0.5), (2, 0, 1.0), (0, 1, 1.0),
                                    (1, 0, 1.0)])


def synthetic_games(strengths, games, seed):
    """Two-player results drawn from a Bradley-Terry model with the given strengths."""
    rng = random.Random(seed)
    names = [f"bot{i}" for i in range(len(strengths))]
    out = []
    for _ in range(games):
        a, b = rng.sample(range(len(strengths)), 2)
        a_wins = rng.random() < strengths[a] / (strengths[a] + strengths[b])
        out.append(result([names[a], names[b]], [0, 0], [1, 2] if a_wins else [2, 1]))
    return names, out


def test_bradley_terry_recovers_a_known_order_and_its_gaps():
    truth = [1.0, 2.0, 4.0, 8.0]  # each bot twice as strong as the one before: 120 Elo apart
    names, games = synthetic_games(truth, 6000, seed=5)
    ratings = {r.bot: r for r in rate(games, names, bootstrap=50, seed=1)}
    values = [ratings[name].rating for name in names]
    assert values == sorted(values)
    gap = 400 * math.log10(2)
    for lower, upper in zip(values, values[1:], strict=False):
        assert upper - lower == pytest.approx(gap, abs=25)
    for name, true in zip(names, truth, strict=True):
        expected = 400 * math.log10(true) - sum(400 * math.log10(t) for t in truth) / len(truth)
        assert ratings[name].low <= ratings[name].rating <= ratings[name].high
        assert ratings[name].low - 10 <= expected <= ratings[name].high + 10


def test_ratings_stay_finite_when_a_bot_wins_everything():
    wins = [[0, 10], [0, 0]]
    high, low = bradley_terry(wins)
    assert math.isfinite(high) and math.isfinite(low) and high > low
    assert high + low == pytest.approx(0.0)
    # 10.5 virtual-prior wins against 0.5: the fitted odds are exactly those counts
    assert high - low == pytest.approx(400 * math.log10(10.5 / 0.5))


def test_equal_bots_get_equal_ratings_and_the_fit_matches_the_closed_form():
    assert bradley_terry([[0, 5], [5, 0]]) == pytest.approx([0.0, 0.0], abs=1e-6)
    # two bots: the maximum-likelihood odds are the win counts' ratio
    a, b = bradley_terry([[0, 30], [10, 0]], prior=0.0)
    assert a - b == pytest.approx(400 * math.log10(3))


def test_the_bootstrap_is_repeatable_from_its_seed():
    names, games = synthetic_games([1.0, 3.0], 200, seed=2)
    first = rate(games, names, bootstrap=30, seed=9)
    assert first == rate(games, names, bootstrap=30, seed=9)
    assert first != rate(games, names, bootstrap=30, seed=10)


def test_win_matrix_and_quantile():
    assert win_matrix([[(0, 1, 1.0)], [(1, 0, 0.5)]], 2) == [[0.0, 1.5], [0.5, 0.0]]
    assert quantile([3, 1, 2, 4], 0.5) == 2.5
    assert quantile([5], 0.975) == 5
