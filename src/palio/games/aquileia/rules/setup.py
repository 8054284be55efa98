"""ゲームの準備: coins, decks, the three face-up horse/weapon cards, the blue dice at Potentia,
the stadium card turned up, a random start player."""

from __future__ import annotations

from typing import Any

from palio.core.rng import derive
from palio.games.aquileia.components import HW, STADIUM
from palio.games.aquileia.rules.flow import start_round
from palio.games.aquileia.state import N_CAT, AquileiaState


def setup_state(cls: type[AquileiaState], players: int, seed: int,
                options: dict[str, Any]) -> AquileiaState:
    s = cls.__new__(cls)
    s._init_base(players, seed, options)
    comp = s.comp
    start = list(comp.start_coins)
    s.coins = start * players
    s.bank = [comp.supply[m] - start[m] * players for m in range(3)]
    s.vp = [0] * players
    s.vp_cat = [0] * (N_CAT * players)
    s.houses = [comp.houses] * players
    s.strength = [0] * players
    s.hand = [[] for _ in range(players)]
    s.seen = [0] * comp.n_cards
    s.deck = []
    for cls_cards in comp.class_cards:
        deck = list(cls_cards)
        derive(seed, "setup", len(s.deck)).shuffle(deck)
        s.deck.append(deck)
    s.discard = [[] for _ in comp.class_cards]
    s.display = [s.deck[HW].pop() for _ in range(comp.display_size)]
    s.stadium_up = s.deck[STADIUM].pop()
    s.theatre_up = -1
    s.port_coin = [0] * len(comp.port_metals)
    s.plot_owner = [-1] * len(comp.plots)
    s.bid = [0, 0, 0]
    s.auc_high, s.auc_out = -1, 0
    s.peek = -1
    s.blue_holder, s.blue_left, s.contest = -1, 0, 0
    s.rolls = s.shuffles = 0
    s.forced = ()
    s.round = 1
    s.step = 0
    s.start = derive(seed, "start").randrange(players)
    key = comp.type_key
    s.emit("setup", players=players, start=s.start,
           display=[key[comp.card_type[c]] for c in s.display],
           stadium_card=key[comp.card_type[s.stadium_up]])
    start_round(s)
    return s
