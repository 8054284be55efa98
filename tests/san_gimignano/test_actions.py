"""The seven actions, the market, the hand limit, the end phase and the end of the game."""

import pickle

import pytest

from palio.core.errors import IllegalAction
from palio.games.san_gimignano.actions import PASS, Simple
from tests.san_gimignano.table import table, texts


def play(s, *moves):
    for move in moves:
        s.apply(move)
    return s


# -- 1. buying ------------------------------------------------------------------------------
def test_buy_takes_two_cards_one_decision_at_a_time():
    s = table(hands=([5, 6], []), market=[9, 9, 10, 7], deck=[5, 6, 8])
    play(s, "buy")
    assert s.to_move == 0 and texts(s) == {"draw", "take 7", "take 9", "take 10"}
    play(s, "draw")  # sees an 8 before choosing the second card
    assert sorted(s.hands[0]) == [5, 6, 8] and s.to_move == 0
    play(s, "take 9")
    assert sorted(s.hands[0]) == [5, 6, 8, 9] and s.to_move == 1 and s.market == [9, 10, 7]


def test_buy_is_forbidden_past_the_hand_limit():
    s = table(hands=([5, 5, 6, 6, 7, 7], []), market=[9, 9, 10, 7])
    assert "buy" not in texts(s)
    s.hands[0].pop()
    s._legal = None
    assert "buy" in texts(s)


def test_buy_with_one_deck_card_left_takes_one_card():
    s = table(hands=([5], []), market=[9, 8, 10, 7], deck=[6])
    play(s, "buy", "take 9")
    assert s.to_move == 1 and sorted(s.hands[0]) == [5, 9]


def test_market_refills_to_four_when_emptied():
    s = table(hands=([], []), market=[9, 8], deck=[5, 5, 6, 6, 7, 7])
    play(s, "buy", "take 9", "take 8")
    assert sorted(s.market) == [6, 6, 7, 7] and s.deck == [5, 5]


# -- 2. exchanging --------------------------------------------------------------------------
def test_exchange_puts_two_or_more_and_draws_as_many_not_of_the_same_kind():
    s = table(hands=([9, 9, 5], []), market=[9, 10, 8, 7], deck=[6, 6, 6])
    play(s, "exchange", "put 9")
    assert "done" not in texts(s)
    play(s, "put 9", "done")
    assert texts(s) == {"draw", "take 7", "take 8", "take 10"}  # no 9 from the market
    play(s, "take 10", "draw")
    assert sorted(s.hands[0]) == [5, 6, 10] and s.market.count(9) == 3


def test_exchange_impossible_without_enough_cards_to_draw_back():
    # deck empty is the end phase; here: one deck card, and the market holds only the kind put
    s = table(hands=([9, 9], []), market=[9, 9, 9, 9], deck=[6])
    assert "exchange" not in texts(s)


# -- 3. building ----------------------------------------------------------------------------
def test_build_same_number_and_multi_number_towers_of_three_or_more():
    s = table(hands=([9, 9, 9, 6, 7, 8], []), market=[5, 5, 5, 5])
    legal = texts(s)
    assert {"build 9,9,9", "build 6,7,8", "build 7,8,9", "build 6,7,8,9"} <= legal
    assert "build 8,9" not in legal and "build 6,8,9" not in legal


def test_malformed_and_illegal_builds_are_rejected_and_change_nothing():
    s = table(hands=([9, 9, 6, 7, 8], []), market=[5, 5, 5, 5])
    before = s.observe(0)
    for bad in ("build 6,8,9", "build 9,9", "build 9,9,9", "build 8,7,6", "fly", "build x"):
        with pytest.raises(IllegalAction):
            s.apply(bad)
        assert s.observe(0) == before and s.move_number == 0


# -- 4. extending ---------------------------------------------------------------------------
def test_extend_same_number_with_that_number_and_draw_as_many():
    s = table(hands=([8, 8, 9, 5], []), market=[6, 6, 6, 6], deck=[7, 7, 10, 10],
              towers=((0, (8, 8, 8), False),))
    assert texts(s) >= {"extend 1 8"} and "extend 1 9" not in texts(s)
    play(s, "extend 1 8", "extend 1 8", "done")
    assert s.towers[0].cards == (8,) * 5
    assert s.frames[-1][0] == "draw" and s.frames[-1][2] == 2  # no 8 donation on extending
    play(s, "draw", "take 6")
    assert sorted(s.hands[0]) == [5, 6, 9, 10] and s.to_move == 1


def test_extend_multi_number_only_with_the_next_smaller_number():
    s = table(hands=([6, 5, 9], []), market=[5, 5, 5, 5], towers=((0, (7, 8, 9), False),))
    legal = texts(s)
    assert "extend 1 6" in legal and "extend 1 5" not in legal and "extend 1 9" not in legal
    play(s, "extend 1 6")
    assert "extend 1 5" in texts(s)


# -- 5. completing --------------------------------------------------------------------------
def test_complete_one_or_more_towers_then_they_cannot_grow():
    s = table(hands=([9, 8], []), market=[5, 5, 5, 5],
              towers=((0, (9, 9, 9), False), (0, (8, 8, 8), False)))
    play(s, "complete 1", "complete 2", "done")
    assert all(t.completed for t in s.towers) and s.to_move == 1
    s.turn = 0
    s._legal = None
    assert not any(t.startswith(("extend", "complete")) for t in texts(s))


# -- 6. declaring the end -------------------------------------------------------------------
def test_declare_needs_four_completed_towers_and_starts_the_end_phase():
    towers = tuple((0, (v, v, v), True) for v in (5, 6, 7)) + ((0, (8, 8, 8), False),)
    s = table(hands=([9], []), market=[5, 5, 5, 5], towers=towers)
    assert "declare" not in texts(s)
    play(s, "complete 4", "done", "pass")
    assert "declare" in texts(s)
    play(s, "declare")
    assert s.end_phase and s.declared_by == 0


# -- end phase ------------------------------------------------------------------------------
def test_end_phase_closes_deck_and_market_and_silences_donations():
    s = table(hands=([9, 9, 9, 8, 8, 8, 8], [5, 6]), market=[10, 10], deck=[7, 7],
              towers=((0, (8, 8, 8), False),), end_phase=True)
    legal = texts(s)
    assert not any(t.startswith(("buy", "exchange", "complete", "declare")) for t in legal)
    play(s, "build 9,9,9")  # no trade
    assert s.hands[1] == [5, 6] and s.to_move == 1
    play(s, "pass", "extend 1 8", "done")  # no draws after extending
    assert s.to_move == 1 and sorted(s.hands[0]) == [8, 8, 8]


def test_the_deck_running_out_starts_the_end_phase():
    s = table(hands=([5], []), market=[9, 8, 10, 7], deck=[6])
    play(s, "buy", "draw")
    assert s.end_phase and not s.deck


def test_two_passes_in_a_row_end_the_game_at_any_time():
    s = table(hands=([5], [6]), market=[9, 8, 10, 7])
    play(s, "pass", "buy", "draw", "draw", "pass")
    assert not s.is_over
    play(s, "pass")
    assert s.is_over and s.to_move is None and s.legal_actions() == ()
    with pytest.raises(IllegalAction):
        s.apply("pass")


# -- tallest tower token --------------------------------------------------------------------
@pytest.mark.parametrize("how", ["unpickled", "constructed"])
def test_an_equal_pass_counts_like_the_canonical_one(how):
    """Actions compare by value: a pass unpickled or built anew is a pass."""
    second = {"unpickled": pickle.loads(pickle.dumps(PASS)), "constructed": Simple("pass")}[how]
    assert second == PASS and second is not PASS
    s = table(hands=([5], [6]), market=[9, 8, 10, 7])
    play(s, "pass")
    s.apply(second)
    assert s.is_over and s.passes == 2


def test_tallest_token_goes_to_the_first_strictly_taller_tower():
    s = table(hands=([5, 6, 7, 8, 9], [5, 6, 7, 8, 9, 9]), market=[10, 10, 10, 10])
    play(s, "build 5,6,7,8,9")
    assert s.token == 0
    play(s, "build 5,6,7,8,9")  # equally tall: the token stays with the first builder
    assert s.token == 0
    s.hands[0] = [10, 10, 10, 10, 10, 10]
    s._legal = None
    play(s, "build 10,10,10,10,10,10")  # 6 tall
    assert s.token == 0


def test_plain_runs_fast_path_agrees_with_the_general_search():
    """Without luxury stones, runs come from a fast path; it must list exactly what the general
    search (stones anywhere) lists with no stone, in the same order."""
    import random
    from collections import Counter

    from palio.games.san_gimignano import components as C
    from palio.games.san_gimignano import rules as R

    rng = random.Random(7)
    for _ in range(3000):
        counts = Counter(rng.choice(C.TOWER_VALUES) for _ in range(rng.randrange(0, 10)))
        cap = rng.choice([3, 4, 5, 6, 99])
        general = []
        for top in range(C.MULTI_LOW, C.MULTI_HIGH + 1):
            for bottom in range(top + C.MIN_TOWER - 1, min(C.MULTI_HIGH, top + cap - 1) + 1):
                general += R._runs(top, bottom, counts, 0)
        assert R._plain_runs(counts, cap) == general, (counts, cap)
