"""The sources a placement may take its citizen from (``board.placement_sources``, which judges
every source that leaves the row as it is once) are exactly those the plain rule
(``placement_ok``, one source at a time) accepts: for positions of seeded games, every seat,
every building and every die value.
"""

from __future__ import annotations

import random

import pytest

import palio
from palio.games.troyes.rules.board import (
    citizen_off_board,
    placement_ok,
    placement_possible,
    placement_sources,
    sources,
)


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (3, 22), (4, 23)])
def test_placement_sources_are_those_the_plain_rule_accepts(players, seed):
    state = palio.new_game("troyes", players=players, seed=seed)
    rng = random.Random(seed)
    asked = 0
    while not state.is_over:
        for p in range(players):
            found = sources(state, p)
            for building in range(3):
                for value in range(1, 7):
                    expected = [(kind, where) for kind, where in found
                                if placement_ok(state, p, building, value, kind, where)]
                    assert placement_sources(state, p, building, value, found) == expected, \
                        (players, seed, state.move_number, p, building, value)
                    asked += 1
        state.apply_unchecked(rng.choice(state.legal_actions()))
    assert asked > 5_000  # enough positions, seats and sources to mean something


@pytest.mark.parametrize(("players", "seed"), [(2, 24), (3, 25), (4, 26)])
def test_placement_possible_is_some_source_the_plain_rule_accepts(players, seed):
    """``placement_possible`` (which judges only p's citizens in the row and on the building
    one by one) is true exactly when some source passes ``placement_ok``."""
    state = palio.new_game("troyes", players=players, seed=seed)
    rng = random.Random(seed)
    asked = possible = 0
    while not state.is_over:
        for p in range(players):
            found = sources(state, p)
            off_board = citizen_off_board(state, p)
            for building in range(3):
                for value in range(0, 8):
                    expected = 1 <= value <= 6 and any(
                        placement_ok(state, p, building, value, kind, where) for kind, where in found)
                    assert placement_possible(state, p, building, value, off_board) == expected, \
                        (players, seed, state.move_number, p, building, value)
                    asked += 1
                    possible += expected
        state.apply_unchecked(rng.choice(state.legal_actions()))
    assert asked > 5_000 and 0 < possible < asked  # both answers met often enough
