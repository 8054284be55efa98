"""``palio.bots.mcts.search_root``: the root statistics reviews and hints read."""

from __future__ import annotations

import random

import pytest

import palio
from palio.bots.mcts import search_root
from palio.core.errors import IllegalAction


def test_root_statistics_cover_every_legal_action_with_a_win_share():
    state = palio.new_game("san-gimignano", players=2, seed=3)
    seat = state.to_move
    stats = search_root(state, seat, iterations=120, seed=5)
    assert [action for action, _, _ in stats] == list(state.legal_actions())
    assert sum(visits for _, visits, _ in stats) == 120
    assert all(0.0 <= value <= 1.0 for _, _, value in stats)
    assert all(visits > 0 for _, visits, _ in stats[:3])


def test_root_statistics_are_reproducible_with_a_seed_and_never_read_hidden_cards():
    state = palio.new_game("signorie", players=2, seed=4)
    rng = random.Random(1)
    for _ in range(12):
        state.apply_unchecked(rng.choice(state.legal_actions()))
    seat = state.to_move
    twin = state.determinize(seat, random.Random(9))
    assert twin.observe(seat) == state.observe(seat)
    first = search_root(state, seat, iterations=60, seed=2)
    assert search_root(state, seat, iterations=60, seed=2) == first
    assert search_root(twin, seat, iterations=60, seed=2) == first


def test_a_seat_not_to_move_is_refused():
    state = palio.new_game("san-gimignano", players=2, seed=3)
    with pytest.raises(IllegalAction):
        search_root(state, 1 - state.to_move, iterations=10, seed=1)
