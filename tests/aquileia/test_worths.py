"""Aquileia's ``worths`` from its tables (``scoring.WorthTables``) against the plain sum, card
by card, that it replaced: the same floats to the last bit on positions of random games, which
cover every kind of card in a hand and every kind of plot built."""

from __future__ import annotations

import random

from palio.games.aquileia import GAME
from palio.games.aquileia.components import BANK, HW, SLAVE, STADIUM, THEATRE, VILLA, WORKSHOP
from palio.games.aquileia.scoring import laurel_points


def plain_worths(state):
    """The worths as they were computed before the tables: each seat's cards and plots
    looked up one by one, in the hand's and the board's order."""
    c = GAME.components
    if state.is_over:
        return [float(v) for v in state.vp]
    rounds_left = c.rounds - state.round + 1
    owned = [[] for _ in range(state.players)]
    for plot, owner in enumerate(state.plot_owner):
        if owner >= 0:
            owned[owner].append(plot)

    def worth(p):
        base = 3 * p
        coins = state.coins
        value = state.vp[p] + 1.5 * coins[base] + 1.0 * coins[base + 1] + 0.7 * coins[base + 2]
        end = laurel_points(state, p, owned[p])
        value += end["laurel_vp"] + end["villa_vp"]
        for card in state.hand[p]:
            t = c.card_type[card]
            if c.type_class[t] in (SLAVE, HW):
                value += 0.6 * c.type_symbols[t]
            elif c.type_class[t] == STADIUM and c.type_colours[t]:
                value += 1.0
        for plot in owned[p]:
            if c.plot_kind[plot] == WORKSHOP:
                value += 0.5 * rounds_left * c.plot_yield[plot]
            elif c.plot_kind[plot] == BANK:
                value += 0.5 * rounds_left * sum(c.plot_income[plot])
            elif c.plot_kind[plot] == VILLA:
                value += 1.0
        return value

    return [worth(p) for p in range(state.players)]


def test_worths_are_the_plain_sum_to_the_last_bit():
    c = GAME.components
    classes_held, kinds_built, compared = set(), set(), 0
    for players in (3, 4, 5):
        for seed in range(4):
            rng = random.Random(100 * players + seed)
            state = GAME.setup(players, seed)
            while True:
                got = GAME.worths(state)
                assert got == plain_worths(state)
                assert [v.hex() for v in got] == [v.hex() for v in plain_worths(state)]
                compared += 1
                for hand in state.hand:
                    classes_held |= {c.type_class[c.card_type[card]] for card in hand}
                kinds_built |= {c.plot_kind[p] for p, o in enumerate(state.plot_owner) if o >= 0}
                if state.is_over:
                    break
                state.apply_unchecked(rng.choice(state.legal_actions()))
    assert classes_held == {SLAVE, HW, STADIUM, THEATRE}
    assert kinds_built == {VILLA, WORKSHOP, BANK}
    assert compared > 2000


def test_worths_follow_a_theatre_card_to_its_best_colour():
    # a villa of one colour and a theatre card naming it: the villa's value counts once more
    c = GAME.components
    state = GAME.setup(3, 1)
    villa = next(p for p in range(len(c.plots)) if c.plot_kind[p] == VILLA)
    colour = c.plot_colour[villa]
    card = next(k for k in range(c.n_cards) if c.type_class[c.card_type[k]] == THEATRE
                and colour in c.type_colours[c.card_type[k]])
    for holder in state.hand:
        if card in holder:
            holder.remove(card)
    for pile in (*state.deck, *state.discard):
        if card in pile:
            pile.remove(card)
    before = GAME.worths(state)[0]
    state.plot_owner[villa] = 0
    with_villa = GAME.worths(state)[0]
    state.hand[0].append(card)
    assert with_villa == before + 1.0  # a villa alone: 1, no laurel card of its colour
    assert GAME.worths(state)[0] == with_villa + c.plot_vp[villa]
    assert GAME.worths(state) == plain_worths(state)
