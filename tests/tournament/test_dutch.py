"""Two-player Swiss by FIDE Dutch (py4swiss): the colour (seat) rules pinned by hand-made
cases and checked over random tournaments."""

from __future__ import annotations

import random

import pytest

from palio.tournament import Entrant, TableResult, pair_round
from palio.tournament.simulate import simulate
from tests.tournament.properties import check_round_shape

pytest.importorskip("py4swiss")


def test_round_one_top_half_meets_bottom_half_colours_alternating_by_board():
    got = pair_round("swiss", [Entrant(i) for i in range(1, 7)], [], seats=2).tables
    # board 1: seed 1 white; board 2: seed 2 black; board 3: seed 3 white
    assert got == ((1, 4), (5, 2), (3, 6))


def test_round_two_each_gets_the_other_colour():
    entrants = [Entrant(i) for i in range(1, 5)]
    results = [TableResult(1, (1, 3), (1, 2)), TableResult(1, (4, 2), (2, 1))]
    got = set(pair_round("swiss", entrants, results, seats=2).tables)
    assert got == {(2, 1), (3, 4)}  # winners meet, black gets white


def test_odd_count_gives_the_lowest_a_bye_or_a_bot():
    entrants = [Entrant(i) for i in range(1, 6)]
    plain = pair_round("swiss", entrants, [], seats=2)
    assert plain.sitting_out == (5,)
    with_bot = pair_round("swiss", entrants, [], seats=2, bots=True)
    assert (5, None) in with_bot.tables


def test_a_withdrawn_player_is_not_paired():
    entrants = [Entrant(i) for i in range(1, 5)]
    results = [TableResult(1, (1, 3), (1, 2)), TableResult(1, (4, 2), (2, 1))]
    got = pair_round("swiss", entrants, results, seats=2, withdrawn=[1])
    assert 1 not in {p for t in got.tables for p in t}


@pytest.mark.parametrize("seed", range(15))
def test_no_rematch_no_colour_three_in_a_row_no_gap_over_two(seed):
    rng = random.Random(seed)
    players = rng.randint(6, 16)
    rounds = rng.randint(3, min(7, players // 2))
    sim = simulate("swiss", players, 2, rounds, seed)
    assert sim.repeats() == 0
    colours: dict = {}
    for paired in sim.rounds:
        for white, black in paired.tables:
            colours.setdefault(white, []).append("w")
            colours.setdefault(black, []).append("b")
    for history in colours.values():
        assert abs(history.count("w") - history.count("b")) <= 2
        assert "www" not in "".join(history) and "bbb" not in "".join(history)


@pytest.mark.parametrize("seed", range(10))
def test_late_entries_and_withdrawals_keep_everyone_seated_once(seed):
    rng = random.Random(100 + seed)
    players, bots = rng.randint(6, 14), rng.random() < 0.5
    sim = simulate("swiss", players, 2, rng.randint(3, players // 2), seed, bots=bots,
                   withdrawals=rng.randint(0, 2), late=rng.randint(0, 2))
    check_round_shape(sim, 2, 2, bots)
