"""The turn's shared feasibility (``group.Feasible``) gives the plain answer: for positions of
seeded games, every seat, every action (each card slot hired or not, the cathedral, each event,
each building, agriculture) under every delayed card's rules, and budgets from -1 to 14
deniers, ``Feasible.ok`` equals ``completable`` on a group from nothing, which tries the groups
one by one. One ``Feasible`` serves each position and seat, so what it keeps between questions
is checked too. Likewise the dice offered while a group toward a total is formed
(``addable``) are exactly those with which ``completable`` still finds a group.
"""

from __future__ import annotations

import random

import pytest

import palio
from palio.games.troyes.components import DELAYED_CARDS
from palio.games.troyes.rules.group import (
    NEED_ANY,
    NEED_SUM,
    Feasible,
    _kinds,
    addable,
    completable,
    kept_ctx,
    make_ctx,
)
from palio.games.troyes.state import (
    F_GROUP,
    F_TURN,
    G_CARD,
    G_CATHEDRAL,
    G_EVENT,
    G_FARM,
    G_PLACE,
    MOD_ASK,
    MOD_NONE,
)


def turn_positions(players: int, seed: int, every: int = 3):
    """Every ``every``-th position at the start of a turn in one seeded random game."""
    state = palio.new_game("troyes", players=players, seed=seed)
    rng = random.Random(seed)
    turns = 0
    while not state.is_over:
        if state.stack[-1][0] == F_TURN:
            turns += 1
            if turns % every == 0:
                yield state.copy()
        state.apply_unchecked(rng.choice(state.legal_actions()))


def actions(s):
    """(kind, target, hires) of every action, cards both hiring their tradesman and not."""
    for slot in range(9):
        yield G_CARD, slot, True
        yield G_CARD, slot, False
    yield G_CATHEDRAL, 0, False
    for card in s.queue:
        yield G_EVENT, card, False
    for building in range(3):
        yield G_PLACE, building, False
    yield G_FARM, 0, False


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 6), (4, 7), (4, 8)])
def test_shared_feasibility_gives_the_plain_answer(players, seed):
    asked = 0
    for s in turn_positions(players, seed):
        delayed = [card for card in range(len(s.comp.cards))
                   if s.comp.cards[card][0] in DELAYED_CARDS]
        for p in range(players):
            feasible = Feasible(s, p)
            for kind, target, hires in actions(s):
                for mod_card in (MOD_NONE, *delayed):
                    key = s.slot_card[target] if kind == G_CARD else target  # a card by id
                    ctx = kept_ctx(s.comp, kind, key, mod_card, hires)
                    if ctx is None:
                        continue
                    for budget in range(-1, 15):
                        expected = completable(s, p, ctx, (), budget)
                        assert feasible.ok(ctx, budget) == expected, \
                            (players, seed, s.move_number, p, kind, target, mod_card, budget)
                        asked += 1
    assert asked > 10_000  # the games reached enough positions to mean something


def group_positions(players: int, seed: int):
    """Positions of a seeded random game where a group of dice is being formed."""
    state = palio.new_game("troyes", players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        top = state.stack[-1]
        if top[0] == F_GROUP and top[4] != MOD_ASK:
            yield state.copy()
        state.apply_unchecked(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("players", "seed"), [(2, 9), (3, 10), (4, 11)])
def test_the_dice_offered_are_those_that_leave_the_group_completable(players, seed):
    asked = 0
    for s in group_positions(players, seed):
        _f, p, kind, target, mod, chosen = s.stack[-1]
        ctx = make_ctx(s, kind, target, mod, p)
        if ctx.need not in (NEED_SUM, NEED_ANY):
            continue  # a die for the cathedral or a building: room and placement decide
        for budget in range(-1, 15):
            expected = []
            for d in _kinds(s, ctx):
                if len(chosen) < ctx.max_size:
                    s.dice[d] -= 1  # the die joins the group: out of its district
                    if completable(s, p, ctx, (*chosen, d), budget):
                        expected.append(d)
                    s.dice[d] += 1
            assert addable(s, p, ctx, chosen, budget) == expected, (players, seed, s.move_number)
            asked += 1
    assert asked > 500
