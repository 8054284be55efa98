"""Signorie's observation tensor (``palio.games.signorie.encode``)."""

import random

import pytest

from palio.games.signorie import GAME
from palio.games.signorie.scenario import position, put_row
from tests.encoding import check_blind_to_hidden, check_in_layout, random_positions


def block(state, seat, name):
    return GAME.observation_tensor(state, seat)[GAME.observation_layout(state.players).span(name)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_fits_the_layout_for_every_player_count(players):
    shape = GAME.observation_tensor_shape(players)
    positions = 0
    for state in random_positions(GAME, players, 4, seed=players):
        for seat in (state.to_move, None):
            assert (len(check_in_layout(GAME, state, seat)),) == shape
        positions += 1
    assert positions > 300


def test_the_shape_grows_with_the_player_count():
    sizes = [GAME.observation_tensor_shape(p)[0] for p in (2, 3, 4)]
    assert sizes == [892, 1162, 1434]


def test_worlds_the_seat_cannot_tell_apart_give_the_same_tensor():
    rng = random.Random(3)
    differed = 0
    for state in random_positions(GAME, 3, 1, seed=9):
        if state.move_number % 20 == 0:
            for seat in range(3):
                world = check_blind_to_hidden(GAME, state, seat, rng)
                differed += world.alliance != state.alliance
    assert differed > 5


def test_each_seat_sees_itself_as_player_zero():
    s = position(3, to_move=0, florins={0: 11, 1: 22, 2: 33})
    assert block(s, 0, "p0.florins") == [11]
    assert block(s, 1, "p0.florins") == [22]
    assert block(s, 1, "p2.florins") == [11]
    assert block(s, None, "spectator") == [1] and block(s, None, "p0.florins") == [11]
    assert block(s, 2, "to_move") == [0, 1, 0, 0]  # seat 0 moves: one place after seat 2


def test_tiles_rows_and_city_slots_are_encoded():
    s = position(2, to_move=0)
    put_row(s, 1, "mar", [(3, 4)], down=2)
    rows = block(s, 0, "p1.rows")
    assert rows[3 * 8 + 3] == 1 and rows[3 * 8 + 6] == 4 and rows[3 * 8 + 7] == 2
    city = s.cities[0]
    slots = block(s, 0, f"c{city}.slots")
    assert slots[0] == 1  # the first slot's value
    s.city_slot[city * s.comp.max_city_slots] = 1 * 4 + 3  # seat 1's military diplomat
    slots = block(s, 0, f"c{city}.slots")
    width = 1 + 4 * 2
    assert slots[1 + 4 + 3] == 1 and sum(slots[1:width]) == 1
