"""San Gimignano's observation tensor (``palio.games.san_gimignano.encode``)."""

import random

from palio.games.san_gimignano import GAME
from palio.games.san_gimignano import components as C
from tests.encoding import check_blind_to_hidden, check_in_layout, random_positions
from tests.san_gimignano.table import table

LAYOUT = GAME.observation_layout(2)


def block(tensor, name):
    return tensor[LAYOUT.span(name)]


def test_every_position_fits_the_layout_for_every_seat_and_spectator():
    positions = 0
    for nobles in (False, True):
        for state in random_positions(GAME, 2, 15, {"nobles": nobles}, seed=int(nobles)):
            for seat in (0, 1, None):
                check_in_layout(GAME, state, seat)
            positions += 1
    assert positions > 1000
    assert GAME.observation_tensor_shape(2) == (LAYOUT.size,)


def test_worlds_the_seat_cannot_tell_apart_give_the_same_tensor():
    rng = random.Random(5)
    differed = 0
    for state in random_positions(GAME, 2, 6, {"nobles": True}, seed=2):
        if state.move_number % 5 == 0:
            for seat in (0, 1):
                world = check_blind_to_hidden(GAME, state, seat, rng)
                differed += world.observe(1 - seat) != state.observe(1 - seat)
    assert differed > 20  # the hidden part really changed in many of the sampled worlds


def test_the_opponents_hidden_cards_change_only_the_opponents_tensor():
    a = table(hands=([5, 6], [7, 8]))
    b = table(hands=([5, 6], [9, 10]))
    assert GAME.observation_tensor(a, 0) == GAME.observation_tensor(b, 0)
    assert GAME.observation_tensor(a, 1) != GAME.observation_tensor(b, 1)


def test_a_known_hand_and_market_fill_their_count_blocks():
    s = table(hands=([5, 5, 7, C.LUXURY], [10]), market=[6, 9, 9, C.JOUSTING], nobles=True)
    s.revealed[1] = [10]  # seat 0 saw that 10 taken from the market
    mine = GAME.observation_tensor(s, 0)
    assert block(mine, "me.hand") == [2, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    assert block(mine, "market") == [0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]
    assert block(mine, "opp.known_hand") == [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert block(mine, "me.hand_size") == [4] and block(mine, "opp.hand_size") == [1]
    assert block(mine, "me.nobles_in_hand") == [1]
    theirs = GAME.observation_tensor(s, 1)  # seen from seat 1, seat 1 is "me"
    assert block(theirs, "me.hand") == [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert block(theirs, "opp.hand_size") == [4]
    spectator = GAME.observation_tensor(s, None)
    assert block(spectator, "me.hand") == [0] * 12
    assert block(spectator, "flags") == [1, 1, 0, 0]


def test_towers_fill_slots_in_building_order():
    s = table(towers=((0, (7, 7, 7), False), (1, (-4, 5, 6), True), (0, (9, 9, 9, 9), True)),
              token=0, turn=1)
    t = GAME.observation_tensor(s, 0)
    slots = block(t, "me.tower_slots")
    assert slots[:14] == [1, 1, 7, 7, 3, 0, 0, 1, 1, 9, 9, 4, 1, 0]
    assert not any(slots[14:])
    assert block(t, "opp.tower_slots")[:7] == [1, 0, 4, 6, 3, 1, 1]
    assert block(t, "me.towers") == [2] and block(t, "me.completed") == [1]
    assert block(t, "token") == [1, 0, 0] and block(t, "turn") == [0, 1]
    assert block(GAME.observation_tensor(s, 1), "token") == [0, 1, 0]


def test_the_pending_draw_shows_its_step_and_cards_left():
    s = GAME.setup(2, seed=3)
    s.apply("buy")
    t = GAME.observation_tensor(s, 0)
    frame = block(t, "pending")[:30]
    assert block(t, "pending_depth") == [1]
    assert frame[0] == 1 and frame[1] == 1 and sum(frame[1:14]) == 1  # present, step "draw"
    assert frame[14:16] == [1, 2]  # mine, two cards left to draw
    assert block(GAME.observation_tensor(s, 1), "pending")[14] == 0  # not seat 1's decision
