"""Issue 38's criterion checked exactly (``palio.tournament.audit``), and the pairing held to it."""

from __future__ import annotations

from itertools import combinations

import pytest

from palio.tournament import History, TableResult
from palio.tournament.audit import SearchTooLong, better_round, round_repeats
from palio.tournament.simulate import avoidable_rounds, simulate


def pairs_history(pairs, seats=2, left=10):
    history = History.of(seats, [TableResult(1, t, (1, 2)) for t in pairs])
    history.left = left  # rounds enough to even out any seat: only repeats matter
    return history


def exchanges_remove_a_repeat(tables, history, group):
    for i, j in combinations(range(len(tables)), 2):
        for a in tables[i]:
            for b in tables[j]:
                if abs(group[a] - group[b]) > 1:
                    continue
                new_i = [b if p == a else p for p in tables[i]]
                new_j = [a if p == b else p for p in tables[j]]
                if round_repeats([new_i, new_j], history) < round_repeats(
                        [tables[i], tables[j]], history):
                    return True
    return False


def test_an_alternative_that_no_exchange_of_two_reaches_is_found():
    # 0 and 1 met; every exchange of two players brings another pair who met together, but
    # moving three (0 to 4, 1 to 2, 3 to 5) meets nobody twice
    history = pairs_history([(0, 1), (0, 2), (0, 3), (1, 4), (1, 5)])
    tables = [(0, 1), (2, 3), (4, 5)]
    group = dict.fromkeys(range(6), 0)
    assert not exchanges_remove_a_repeat(tables, history, group)
    better = better_round(tables, history, group)
    assert better is not None
    assert sorted(p for t in better for p in t) == list(range(6))
    assert round_repeats(better, history) == 0 < round_repeats(tables, history)


def test_no_alternative_beyond_the_neighbouring_score_group():
    history = pairs_history([(0, 1), (0, 2), (0, 3), (1, 4), (1, 5)])
    tables = [(0, 1), (2, 3), (4, 5)]
    # 4 and 5 two score groups away: the only repeat-free rounds pair 0 with one of them
    group = {0: 0, 1: 0, 2: 0, 3: 0, 4: 2, 5: 2}
    assert better_round(tables, history, group) is None
    group[4] = group[5] = 1
    assert better_round(tables, history, group) is not None


def test_no_alternative_that_costs_a_needed_seat():
    played = [(0, 4), (2, 4), (2, 3), (1, 3), (2, 0), (3, 0)]
    tables = [(0, 1), (2, 3), (4, 5)]
    group = dict.fromkeys(range(6), 0)
    # with rounds left to even out any seat, 2 and 3 (who met) may part
    assert better_round(tables, pairs_history(played), group) is not None
    # with none left, each needs the seat taken least: every round without the repeat leaves
    # more players without a needed seat than this one
    fixed = pairs_history(played, left=None)
    assert round_repeats(tables, fixed) == 1
    assert better_round(tables, fixed, group) is None


def test_a_round_without_repeats_has_nothing_to_avoid_and_the_limit_is_kept():
    history = pairs_history([(0, 1)])
    group = dict.fromkeys(range(4), 0)
    assert better_round([(0, 2), (1, 3)], history, group) is None
    with pytest.raises(SearchTooLong):
        better_round([(0, 1), (2, 3)], history, group, limit=1)


@pytest.mark.parametrize(("players", "seats", "rounds", "least", "seeds"),
                         [(16, 4, 4, 2, 3), (20, 5, 4, 2, 1), (13, 3, 4, 3, 3), (10, 3, 5, 2, 2)])
def test_swiss_leaves_no_avoidable_repeat(players, seats, rounds, least, seeds):
    for seed in range(1, seeds + 1):
        sim = simulate("swiss", players, seats, rounds, seed, min_players=least)
        assert avoidable_rounds(sim, rounds) == [], (players, seats, rounds, seed)
        assert sim.seat_spread() <= 1 or least == 2 and players % seats


@pytest.mark.slow
def test_sixteen_at_four_seats_over_a_thousand_seeds():
    """The look-ahead at four seats: every repeat left unavoidable, every seat within one."""
    with_repeat = 0
    for seed in range(1000):
        sim = simulate("swiss", 16, 4, 4, 20_000 + seed)
        assert sim.seat_spread() <= 1, seed
        assert avoidable_rounds(sim, 4) == [], seed
        with_repeat += sim.repeats() > 0
    print(f"16 at 4 seats over 4 rounds: {with_repeat} of 1000 tournaments with a repeat")
