"""Aquileia's observation tensor (``palio.games.aquileia.encode``)."""

import random

import pytest

from palio.games.aquileia import GAME
from palio.games.aquileia.scenario import position
from tests.encoding import check_blind_to_hidden, check_in_layout, random_positions


def block(state, seat, name):
    return GAME.observation_tensor(state, seat)[GAME.observation_layout(state.players).span(name)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_position_fits_the_layout_for_every_player_count(players):
    shape = GAME.observation_tensor_shape(players)
    positions = 0
    for state in random_positions(GAME, players, 4, seed=players):
        for seat in (state.to_move, None):
            assert (len(check_in_layout(GAME, state, seat)),) == shape
        positions += 1
    assert positions > 500


def test_the_shape_grows_with_the_player_count():
    sizes = [GAME.observation_tensor_shape(p)[0] for p in (3, 4, 5)]
    assert sizes == [490, 591, 692]


def test_worlds_the_seat_cannot_tell_apart_give_the_same_tensor():
    rng = random.Random(3)
    reshuffled = 0
    for state in random_positions(GAME, 4, 2, seed=9):
        if state.move_number % 15 == 0 and not state.is_over:
            for seat in range(4):
                world = check_blind_to_hidden(GAME, state, seat, rng)
                reshuffled += world.hand != state.hand
    assert reshuffled > 10


def test_each_seat_sees_itself_as_player_zero_and_only_its_own_hidden_cards():
    s = position(3, coins={0: "g1 s2 b3", 1: "g4", 2: "s5"}, hands={1: "slave_2 weapon_1"},
                 tiebreaker={1: 1, 2: 2}, to_move=0)
    assert block(s, 0, "p0.coins") == [1, 2, 3]
    assert block(s, 1, "p0.coins") == [4, 0, 0]
    assert block(s, 1, "p2.coins") == [1, 2, 3]  # seat 0 is two places after seat 1
    assert sum(block(s, 1, "p0.cards")) == 2 and block(s, 1, "p0.hidden") == [0, 0, 0]
    assert sum(block(s, 0, "p1.cards")) == 0 and block(s, 0, "p1.hidden") == [1, 1, 0]
    assert block(s, None, "spectator") == [1] and block(s, None, "p0.coins") == [1, 2, 3]
    assert block(s, 2, "to_move") == [0, 1, 0, 0]  # seat 0 moves: one place after seat 2
