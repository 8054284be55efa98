"""Donation effects 5-10 of same-number towers, and the tallest-tower token moving."""

from palio.games.san_gimignano import components as C
from tests.san_gimignano.table import table, texts


def play(s, *moves):
    for move in moves:
        s.apply(move)
    return s


def test_8_draws_as_many_cards_as_the_tower_is_tall():
    s = table(hands=([8, 8, 8, 8], [5]), market=[6, 7, 9, 10], deck=[5, 5, 5, 5, 5])
    play(s, "build 8,8,8,8", "use")
    assert s.to_move == 0 and s.frames[-1][:3] == ("draw", 0, 4)
    play(s, "take 6", "take 7", "take 9", "take 10")
    assert sorted(s.hands[0]) == [6, 7, 9, 10]
    assert s.market == [5, 5, 5, 5]  # emptied by the draws, refilled after the action


def test_9_takes_blind_and_gives_back_height_minus_one():
    s = table(hands=([9, 9, 9, 5], [6, 7, 8, 10]), market=[5, 5, 5, 5])
    play(s, "build 9,9,9", "use")
    assert s.to_move == 1 and texts(s) == {"allow"}  # asked even without a 5 to play
    play(s, "allow")
    assert len(s.hands[0]) == 4 and len(s.hands[1]) == 1  # took 3 blind
    assert s.to_move == 0 and s.frames[-1][:3] == ("give", 0, 2)
    taken = [c for c in s.hands[0] if c != 5]
    play(s, f"give {taken[0]}", f"give {taken[1]}")
    assert len(s.hands[0]) == 2 and len(s.hands[1]) == 3 and s.to_move == 1


def test_9_against_a_short_hand_still_gives_back_height_minus_one():
    s = table(hands=([9, 9, 9, 9, 5, 6, 7], [10]), market=[5, 5, 5, 5])
    play(s, "build 9,9,9,9", "use", "allow")  # the opponent holds only one card
    assert len(s.hands[1]) == 0 and s.frames[-1][:3] == ("give", 0, 3)
    play(s, "give 5", "give 6", "give 7")
    assert sorted(s.hands[1]) == [5, 6, 7]


def test_5_cancels_a_9_and_goes_face_down_under_the_deck():
    s = table(hands=([9, 9, 9], [5, 8, 10]), market=[6, 6, 6, 6], deck=[7, 7])
    play(s, "build 9,9,9", "use")
    assert texts(s) == {"allow", "cancel"}
    play(s, "cancel")
    assert sorted(s.hands[1]) == [8, 10] and s.deck[0] == 5
    assert len(s.towers) == 1 and s.to_move == 1  # the build itself stands


def test_a_5_seen_going_under_the_deck_stays_known_there():
    """Issue 35: both players (and spectators) saw the 5 go under the deck; the view keeps it
    and a determinized world leaves it at the bottom, until someone draws it."""
    import random

    s = table(hands=([9, 9, 9], [5, 8, 10]), market=[6, 6, 6, 6], deck=[7, 8, 6])
    play(s, "build 9,9,9", "use", "cancel")
    for seat in (0, 1, None):
        assert s.observe(seat)["deck_bottom"] == ["5"], seat
    for seat in (0, 1):
        for k in range(20):
            world = s.determinize(seat, random.Random(k))
            assert world.deck[0] == 5 and len(world.deck) == len(s.deck)
            assert world.observe(seat) == s.observe(seat)
    # drawn blind at last, it is known to be in the drawer's hand
    s = table(hands=([9, 9, 9], [5, 8, 10]), market=[6, 6, 6, 6], deck=[])
    play(s, "build 9,9,9", "use", "cancel", "buy", "draw")
    assert s.deck == [] and 5 in s.hands[1]
    assert "5" in s.observe(0)["players"][1]["known_hand"]
    assert "5" in s.observe(None)["players"][1]["known_hand"]


def test_10_collapses_the_tallest_tower_not_above_it_onto_the_deck_face_up():
    s = table(
        hands=([10, 10, 10], [8]),
        market=[6, 6, 6, 6],
        deck=[7, 7],
        towers=((1, (5, 6, 7, 8), False), (1, (9, 9, 9), False), (0, (5, 6, 7, 8, 9), False)),
    )
    play(s, "build 10,10,10", "use", "allow")  # the tallest tower of height <= 3 is seat 1's 9s
    assert [t.cards for t in s.towers_of(1)] == [(5, 6, 7, 8)]
    assert s.deck == [7, 7, 9, 9, 9] and s.deck_known == 3
    assert s.observe(1)["deck_face_up"] == ["9", "9", "9"]


def test_10_lets_the_builder_choose_among_equally_tall_towers_and_spares_6s_and_completed():
    s = table(
        hands=([10, 10, 10, 10], [5]),
        market=[6, 6, 6, 6],
        towers=(
            (1, (6, 6, 6, 6), False),  # contract: never collapsed
            (1, (9, 9, 9, 9), True),  # completed: never collapsed
            (1, (5, 6, 7, 8), False),
            (0, (5, 6, 7, 8), False),
        ),
    )
    play(s, "build 10,10,10,10", "use")
    assert texts(s) == {"collapse own 1", "collapse opp 3"}
    play(s, "collapse opp 3")
    assert s.to_move == 1 and texts(s) == {"allow", "cancel"}
    play(s, "cancel")
    assert len(s.towers) == 5 and s.to_move == 1


def test_10_may_collapse_the_builders_own_tower_and_the_builder_is_asked():
    s = table(hands=([10, 10, 10, 8], [5]), market=[6, 6, 6, 6], towers=((0, (7, 8, 9), False),))
    play(s, "build 10,10,10", "use")
    assert s.to_move == 0 and texts(s) == {"allow"}  # asked even without a 5 to play
    play(s, "allow")
    assert len(s.towers) == 1 and s.deck[-3:] == [9, 8, 7] and s.to_move == 1


def test_5_cancels_a_10_aimed_at_the_builders_own_tower():
    # rulebook, 5: the effect of a 9 or 10 that reaches you, whoever built it
    s = table(hands=([10, 10, 10, 5], [5]), market=[6, 6, 6, 6], towers=((0, (7, 8, 9), False),))
    play(s, "build 10,10,10", "use")
    assert s.to_move == 0 and texts(s) == {"allow", "cancel"}
    play(s, "cancel")
    assert [t.cards for t in s.towers] == [(7, 8, 9), (10, 10, 10)]
    assert s.hands[0] == [] and s.deck[0] == 5 and s.to_move == 1


def test_8_draws_leave_noble_cards_in_the_market():
    # nobles enter a hand by buying or exchanging; the draws of an 8 take tower cards
    s = table(nobles=True, hands=([8, 8, 8], [6]), market=[C.PILGRIMAGE, 7, 9, 10], deck=[5, 5, 5, 5])
    play(s, "build 8,8,8", "use")
    assert texts(s) == {"draw", "take 7", "take 9", "take 10"}
    play(s, "take 7", "take 9", "take 10")
    assert s.market == [C.PILGRIMAGE] and s.to_move == 1


def test_effects_fire_only_when_a_same_number_tower_is_started():
    s = table(hands=([8, 9, 10, 9], [5, 5]), market=[6, 6, 6, 6], deck=[7, 7, 7],
              towers=((0, (9, 9, 9), False),))
    play(s, "build 8,9,10")  # multi-number: no effect
    assert s.to_move == 1
    play(s, "pass", "extend 1 9", "done")  # extending a 9 tower: a draw, no trade
    assert s.frames[-1][0] == "draw"


def test_the_token_moves_to_a_strictly_taller_tower():
    s = table(hands=([5, 6, 7, 9], [6, 6, 6, 6, 5]), market=[10, 10, 10, 10])
    play(s, "build 5,6,7")
    assert s.token == 0
    play(s, "build 6,6,6,6")
    assert s.token == 1
