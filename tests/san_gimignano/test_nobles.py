"""The noble-card variant: all ten cards, jousting out of turn and the usage limit."""

from collections import Counter

import pytest

from palio.core.errors import IllegalAction
from palio.games.san_gimignano import components as C
from tests.san_gimignano.table import table, texts

L, P, J, W, F = C.LUXURY, C.PILGRIMAGE, C.JOUSTING, C.CITY_WALLS, C.SANTA_FINA
ORD = C.ORDINANCE


def play(s, *moves):
    for move in moves:
        s.apply(move)
    return s


def test_nobles_are_drawn_with_buy_and_exchange_but_not_dealt():
    from palio.games.san_gimignano import GAME

    s = GAME.setup(2, seed=5, options={"nobles": True})
    assert all(c not in C.NOBLE_COUNTS for hand in s.hands for c in hand)
    assert len(s.noble_deck) == 10
    play(s, "buy")
    assert "noble" in texts(s)
    play(s, "noble", "noble")
    assert sum(c in C.NOBLE_COUNTS for c in s.hands[0]) == 2 and len(s.noble_deck) == 8


def test_luxury_stone_is_any_number_and_may_sit_above_5_or_below_10():
    s = table(nobles=True, hands=([L, 5, 6, 9, 10], []), market=[7, 7, 7, 7])
    legal = texts(s)
    assert {"build L4,5,6", "build 9,10,L11", "build 5,6,L7", "build 10,L10,L10"} - legal == {
        "build 10,L10,L10"  # only one luxury stone in hand
    }
    play(s, "build L4,5,6", "allow")
    assert s.towers[0].cards == (-4, 5, 6) and s.nobles_used == [1, 0]


def test_luxury_stone_in_a_same_number_tower_carries_its_donation():
    s = table(nobles=True, hands=([L, 9, 9], [6, 7, 8]), market=[5, 5, 5, 5])
    play(s, "build 9,9,L9", "allow")  # no jousting
    assert s.frames[-1][0] == "effect"  # the 9's donation, to use or decline
    play(s, "use")
    assert s.frames[-1][0] == "defend"  # the 9 trade fires


def test_jousting_cancels_a_luxury_stone_and_the_builder_salvages_or_takes_back():
    s = table(nobles=True, hands=([L, 9, 9, 9], [J, 5]), market=[6, 6, 6, 6])
    play(s, "build 9,9,9,L9")
    assert s.to_move == 1 and texts(s) == {"allow", "joust"}
    play(s, "joust")
    assert s.to_move == 0 and texts(s) == {"allow"}  # no jousting card to answer with
    play(s, "allow")
    assert texts(s) == {"salvage", "takeback"}
    play(s, "salvage")
    assert s.towers[0].cards == (9, 9, 9) and L in s.removed and J in s.front[1]
    assert s.nobles_used == [0, 1]  # a jousted card does not count as used
    s2 = table(nobles=True, hands=([L, 9, 9], [J]), market=[6, 6, 6, 6])
    play(s2, "build 9,9,L9", "joust", "allow")  # two 9s are no tower: they go back
    assert sorted(s2.hands[0]) == [9, 9] and not s2.towers and s2.to_move == 1


def test_jousting_a_luxury_stone_in_an_extension_lets_the_extender_take_back_the_other_cards():
    # rulebook, luxury stone: if jousted, build or extend with the other cards, or take them back
    s = table(nobles=True, hands=([9, L, 9], [J]), market=[6, 6, 6, 6], towers=((0, (9, 9, 9), False),))
    play(s, "extend 1 9", "extend 1 L", "joust", "allow")
    assert s.towers[0].cards == (9, 9, 9, 9) and texts(s) == {"extend 1 9", "done", "takeback"}
    play(s, "takeback")
    assert s.towers[0].cards == (9, 9, 9) and sorted(s.hands[0]) == [9, 9]
    assert s.to_move == 1 and not s.frames and s.nobles_used == [0, 1]
    s2 = table(nobles=True, hands=([9, L, 9], [J]), market=[6, 6, 6, 6], towers=((0, (9, 9, 9), False),))
    play(s2, "extend 1 9", "extend 1 L", "joust", "allow", "extend 1 9", "done")
    assert s2.towers[0].cards == (9, 9, 9, 9, 9) and s2.frames[-1][:3] == ("draw", 0, 2)


def test_extension_draws_leave_noble_cards_in_the_market():
    # nobles enter a hand by buying or exchanging; the draws of an extension take tower cards
    s = table(nobles=True, hands=([9], [6]), market=[W, 7, 9, 10], deck=[5, 5, 5, 5],
              towers=((0, (9, 9, 9), False),))
    play(s, "extend 1 9", "done")
    assert texts(s) == {"draw", "take 7", "take 9", "take 10"}
    play(s, "take 9")
    assert s.hands[0] == [9] and W in s.market


def test_pilgrimage_draws_up_to_the_hand_limit_from_the_deck_tops():
    s = table(nobles=True, hands=([P, 5, 6], []), market=[7, 7, 7, 7], noble_deck=[W, F])
    play(s, "play P", "allow")
    assert texts(s) == {"draw", "noble"}  # not the market
    for _ in range(5):
        play(s, "draw")
    assert len(s.hands[0]) == 7 and s.to_move == 1 and P in s.front[0]


def test_city_walls_raise_the_hand_limit_to_nine():
    s = table(nobles=True, hands=([W, 5, 5, 6, 6, 7, 7], []), market=[8, 8, 8, 8])
    play(s, "play W", "allow", "pass")
    assert s.hand_limit(0) == 9 and "buy" in texts(s)


def test_usage_limit_one_more_than_the_opponent_and_jousting_when_one_ahead():
    s = table(nobles=True, hands=([W, F], [J, 5]), market=[8, 8, 8, 8])
    play(s, "play W", "allow", "pass")
    assert "play F" not in texts(s)  # one ahead already
    s.nobles_used = [1, 0]
    s.turn = 1
    s._legal = None
    s.hands[1].append(F)
    play(s, "play F")  # seat 1 plays a noble: now 1-1, seat 0 may answer
    assert s.to_move == 0
    s2 = table(nobles=True, hands=([W, J], [F]), market=[8, 8, 8, 8])
    play(s2, "play W", "allow", "play F")
    # seat 0 has used one more; with F played the counts are equal: jousting allowed
    assert texts(s2) == {"allow", "joust"}
    play(s2, "joust", "allow")
    assert s2.nobles_used == [2, 0] and F in s2.removed


def test_usage_limit_two_ahead_after_a_joust_still_lets_a_stone_holder_build_without_stones():
    # jousting when one ahead leaves you two ahead: no more nobles, but towers of plain cards
    s = table(nobles=True, hands=([W, J, L, 9, 9, 9, 5, 6, 7], [F]), market=[8, 8, 8, 8])
    play(s, "play W", "allow", "play F", "joust", "allow")
    assert s.nobles_used == [2, 0] and s.to_move == 0
    legal = texts(s)
    assert {"build 9,9,9", "build 5,6,7"} <= legal
    assert not any("L" in a for a in legal if a.startswith(("build", "extend")))


def test_ordinance_returns_two_cards_and_caps_the_opponent():
    s = table(nobles=True, hands=([ORD, 5, 6, 9], [8, 8, 8, 8, 8]),
              towers=((0, (7, 7, 7), False),), market=[10, 10, 10, 10], deck=[7, 7])
    play(s, "play O", "allow")
    assert texts(s) == {"return 5", "return 6", "return 9"}
    play(s, "return 5", "return 9")
    assert s.deck[:2] == [9, 5] and ORD in s.front[0]
    legal = texts(s)
    assert "build 8,8,8" in legal and "build 8,8,8,8" not in legal


def test_ordinance_returns_stay_secret_even_for_cards_the_opponent_knew():
    # the returned cards go face down: the opponent's view must not depend on which they were
    views = []
    for card in ("9", "5"):
        s = table(nobles=True, hands=([ORD, 5, 6], [8]), market=[9, 10, 10, 10],
                  towers=((0, (7, 7, 7), False),))
        play(s, "buy", "take 9", "take 10", "pass", "play O", "allow", f"return {card}")
        views.append(s.observe(1))
        assert not Counter(s.revealed[0]) - Counter(s.hands[0])
    assert views[0] == views[1]
    assert views[0]["players"][0]["known_hand"] == []  # the 9 or the 10 may have gone


def test_ordinance_returns_stay_known_to_their_owner_under_the_deck():
    """Issue 35: the owner saw which cards went under; the owner's view keeps them and its
    determinized worlds leave them in place. The opponent's view says nothing of them."""
    import random

    s = table(nobles=True, hands=([ORD, 5, 6, 9], [8, 8]), market=[10, 10, 10, 10],
              towers=((0, (7, 7, 7), False),), deck=[7, 8, 6])
    play(s, "play O", "allow", "return 5", "return 9")
    assert s.observe(0)["deck_bottom"] == ["9", "5"]
    assert s.observe(1)["deck_bottom"] == [] and s.observe(None)["deck_bottom"] == []
    for k in range(20):
        world = s.determinize(0, random.Random(k))
        assert world.deck[:2] == [9, 5] and world.observe(0) == s.observe(0)
    # the opponent's worlds redeal them: it never saw which they were
    assert {tuple(s.determinize(1, random.Random(k)).deck[:2]) for k in range(40)} != {(9, 5)}


def test_an_ordinance_owner_without_a_tower_blocks_every_build():
    """The cap is the owner's tallest tower, 0 with none (docs/rules: About this edition)."""
    s = table(nobles=True, hands=([ORD, 5, 6], [8, 8, 8, 7, 7]), market=[10, 10, 10, 10])
    play(s, "play O", "allow", "return 5", "return 6")
    assert s.to_move == 1 and not any(m.startswith(("build", "extend")) for m in texts(s))


def test_ordinance_void_when_the_opponent_is_already_taller_returns_zero_or_two():
    s = table(nobles=True, hands=([ORD, 5, 6], []), towers=((1, (7, 7, 7), False),),
              market=[10, 10, 10, 10])
    play(s, "play O", "allow")
    assert texts(s) == {"return 5", "return 6", "done"} and ORD in s.removed
    play(s, "return 5")
    assert "done" not in texts(s)  # not just one


def test_ordinance_saved_by_a_counter_joust_with_one_card_left_returns_none():
    """Reading (docs/coverage/san-gimignano.md): the ordinance returns two cards or none, never
    one (its own text for the void case); an owner left with one card after jousting back
    returns none, and the ordinance stands. Before, no action was legal here."""
    s = table(nobles=True, hands=([ORD, J, 9], [J, 8]), towers=((0, (7, 7, 7), False),),
              market=[10, 10, 10, 10])
    play(s, "play O", "joust", "joust", "allow")
    assert ORD in s.front[0] and s.hands[0] == [9] and not s.frames
    assert s.to_move == 1 and s.legal_actions()
    assert s.events[-1].kind == "ordinance_no_return" and s.events[-1].public == {"held": 1}
    # with two cards left the return is owed as usual
    s2 = table(nobles=True, hands=([ORD, J, 9, 6], [J, 8]), towers=((0, (7, 7, 7), False),),
               market=[10, 10, 10, 10])
    play(s2, "play O", "joust", "joust", "allow")
    assert texts(s2) == {"return 6", "return 9"}


def test_nobles_are_not_in_the_base_game():
    s = table(hands=([5], []), market=[8, 8, 8, 8])
    with pytest.raises(IllegalAction):
        s.apply("play W")
    assert s.noble_deck == []
