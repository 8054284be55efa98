"""Tiletum's observation tensor (``palio.games.tiletum.encode``)."""

import random

import pytest
from tests.encoding import check_blind_to_hidden, check_in_layout, random_positions

from palio.games.tiletum import GAME


def block(state, seat, name):
    return GAME.observation_tensor(state, seat)[GAME.observation_layout(state.players).span(name)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_fits_the_layout_for_every_player_count(players):
    shape = GAME.observation_tensor_shape(players)
    positions = 0
    for state in random_positions(GAME, players, 8, {"action_tiles": players == 3}, seed=players):
        for seat in (state.to_move, None):
            assert (len(check_in_layout(GAME, state, seat)),) == shape
        positions += 1
    assert positions > 1000


def test_the_shape_grows_with_the_player_count():
    sizes = [GAME.observation_tensor_shape(p)[0] for p in (2, 3, 4)]
    assert sizes[0] < sizes[1] < sizes[2]


def test_worlds_the_seat_cannot_tell_apart_give_the_same_tensor():
    rng = random.Random(3)
    reshuffled = 0
    for state in random_positions(GAME, 3, 1, seed=9):
        if state.move_number % 25 == 0:
            for seat in range(3):
                world = check_blind_to_hidden(GAME, state, seat, rng)
                reshuffled += world.char_deck != state.char_deck or world.corr != state.corr
    assert reshuffled > 10  # the worlds really differed in their hidden decks and tokens


def test_each_seat_sees_itself_as_player_zero():
    s = GAME.setup(3, seed=4)
    s.res = [[1, 2, 3, 4, 5], [6, 0, 0, 0, 0], [0, 0, 0, 0, 7]]
    assert block(s, 0, "p0.resources") == [1, 2, 3, 4, 5]
    assert block(s, 1, "p0.resources") == [6, 0, 0, 0, 0]
    assert block(s, 1, "p2.resources") == [1, 2, 3, 4, 5]  # seat 0 is two places after seat 1
    assert block(s, None, "spectator") == [1] and block(s, None, "p0.resources") == [1, 2, 3, 4, 5]
    assert block(s, 2, "to_move") == [0, 1, 0, 0]  # seat 0 moves: one place after seat 2


def test_tiles_and_spaces_fill_their_one_hots():
    s = GAME.setup(2, seed=5)
    c = GAME.components
    s.store[0] = [3, 3, 60]
    s.done[1] = [20, 55]  # a bonus contract (the third), then the second contract tile
    s.house_owner = [-1] * len(s.house_owner)
    s.house_owner[2] = 1
    s.king_pos = [7, 7]
    s.king_stamp = [9, 4]  # seat 1 is lower in the stack: ahead
    store = block(s, 0, "p0.storehouse")
    assert store[3] == 2 and store[60] == 1 and sum(store) == 3
    done = block(s, 0, "p1.contracts_done")
    kinds = len(done) // c.contract_spaces
    assert done[2] == 1 and done[kinds + 8 + 1] == 1 and sum(done) == 2
    houses = block(s, 0, "map.houses")
    assert houses[2 * 2:2 * 2 + 2] == [0, 1] and sum(houses) == 1
    assert block(s, 1, "map.houses")[4:6] == [1, 0]  # seen by seat 1, it is its own house
    assert block(s, 0, "p0.king_ahead") == [1] and block(s, 0, "p1.king_ahead") == [0]
    first = s.contract_disp[0] - c.n_bonus
    assert block(s, 0, "contracts")[first] == 1
    assert block(s, 0, "decks") == [len(s.bonus_deck), len(s.contract_deck), len(s.char_deck)]


def test_the_pending_frame_is_encoded_top_first():
    s = GAME.setup(2, seed=6)
    s.stack = [(1, 2, 5, 0, 1), (4, 2)]  # an architect action with 5 AP, then choose 2 resources
    pending = block(s, 0, "pending")
    assert block(s, 0, "pending_depth") == [2]
    assert pending[:16] == [0, 0, 0, 0, 1] + [0] * 7 + [2, 0, 0, 0]
    assert pending[16:32] == [0, 1] + [0] * 10 + [2, 5, 0, 1]
