"""Properties over thousands of random San Gimignano games, base and noble variant."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from palio.games.san_gimignano import GAME, SanGimignanoState
from palio.games.san_gimignano import components as C


def all_cards(s: SanGimignanoState) -> Counter:
    cards = s.deck + s.noble_deck + s.market + s.hands[0] + s.hands[1] + s.removed
    cards += s.front[0] + s.front[1] + s.pending_cards()
    for tower in s.towers:
        cards += [C.LUXURY if c < 0 else c for c in tower.cards]
    return Counter(cards)


def check_invariants(s: SanGimignanoState, before: SanGimignanoState, actor: int) -> None:
    cards = all_cards(s)
    assert {v: cards[v] for v in C.TOWER_VALUES} == C.TOWER_COUNTS  # 45 tower cards
    if s.nobles:
        assert {n: cards[n] for n in C.NOBLES} == C.NOBLE_COUNTS  # 10 nobles
    else:
        assert not any(cards[n] for n in C.NOBLES)
    for seat in range(2):
        # what the opponent knows of a hand is always in that hand
        assert not Counter(s.revealed[seat]) - Counter(s.hands[seat])
        # what everyone knows of it is part of what the opponent knows
        assert not Counter(s.shown[seat]) - Counter(s.revealed[seat])
        assert s.nobles_used[seat] >= 0
    # playing nobles: at most one more used than the opponent (whose pending card counts)
    if s.nobles_used[actor] > before.nobles_used[actor]:
        assert s.nobles_used[actor] <= before.nobles_used[1 - actor] + 1
    # a hand never grows past its limit by its owner's own choice
    # (only a 9 trade can hand a player cards back against their will)
    if len(s.hands[actor]) > len(before.hands[actor]) and s.log.to_list()[-1].kind != "give":
        assert len(s.hands[actor]) <= s.hand_limit(actor)
    for tower in s.towers:
        assert tower.height >= C.MIN_TOWER


def play_checked(seed: int, nobles: bool, pick) -> SanGimignanoState:
    s = GAME.setup(2, seed, {"nobles": nobles})
    while not s.is_over:
        legal = s.legal_actions()
        before = s.copy()
        actor = s.to_move
        s.apply(pick(legal))
        check_invariants(s, before, actor)
    return s


def test_thousands_of_random_games_conserve_cards_and_respect_limits():
    for nobles in (False, True):
        for seed in range(1200):
            rng = random.Random(seed)
            s = play_checked(seed, nobles, rng.choice)
            assert s.is_over and s.passes == 2


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**40), nobles=st.booleans(),
       picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=400))
def test_any_sequence_of_legal_choices_keeps_the_invariants(seed, nobles, picks):
    choices = iter(picks)
    s = GAME.setup(2, seed, {"nobles": nobles})
    for pick in choices:
        if s.is_over:
            break
        legal = s.legal_actions()
        before = s.copy()
        actor = s.to_move
        snapshot = (before.observe(0), before.observe(1), before.notation_history())
        s.apply(legal[pick % len(legal)])
        check_invariants(s, before, actor)
        # play on one of a copy and its original leaves the other untouched
        assert (before.observe(0), before.observe(1), before.notation_history()) == snapshot


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**40), steps=st.integers(0, 80), nobles=st.booleans())
def test_observation_is_blind_to_what_the_seat_cannot_see(seed, steps, nobles):
    s = GAME.setup(2, seed, {"nobles": nobles})
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    for seat in (0, 1):
        other = s.determinize(seat, random.Random(seed + 1))
        assert other.observe(seat) == s.observe(seat)
        # determinized worlds really differ in what is hidden (when anything is hidden)
        if len(s.deck) > 3 + s.deck_known:
            worlds = {tuple(s.determinize(seat, random.Random(k)).deck) for k in range(5)}
            assert len(worlds) > 1
        assert "hand" not in s.observe(seat)["players"][1 - seat]
    spectator = s.observe(None)
    assert all("hand" not in p for p in spectator["players"])


def test_events_show_a_drawn_card_only_to_the_drawer():
    s = GAME.setup(2, 11)
    s.apply("buy")
    s.apply("draw")
    drawn = s.hands[0][-1]
    mine = s.events_for(0)[-1]
    theirs = s.events_for(1)[-1]
    spectator = s.events_for(None)[-1]
    assert mine["card"] == drawn and "card" not in theirs and "card" not in spectator
