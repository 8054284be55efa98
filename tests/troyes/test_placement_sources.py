"""The sources a placement may take its citizen from (``board.placement_sources``, which judges
every source that leaves the row as it is once) are exactly those the plain rule
(``placement_ok``, one source at a time) accepts: for positions of seeded games, every seat,
every building and every die value.
"""

from __future__ import annotations

import random

import pytest

import palio
from palio.games.troyes.rules.board import placement_ok, placement_sources, sources


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
