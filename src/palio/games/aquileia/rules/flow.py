"""The round: placement, then the action phase district by district, then the next round.

アクションフェイズ: the districts resolve in their printed order, I Mercatus, II Arena, III
Stadium, IV Theatrum, V Forum, VI Portus, and within each the fields in their printed order;
a field without a henchman is skipped. :func:`steps` lists these steps for one components set;
:func:`advance` runs them until a decision is pending or the round is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from palio.games.aquileia.components import HW, STADIUM, THEATRE, Components
from palio.games.aquileia.rules import contests, forum, market, port, theatre
from palio.games.aquileia.rules.common import draw
from palio.games.aquileia.state import ACTION, F_PLACE, OVER, PLACEMENT

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState

Step = tuple[Callable[["AquileiaState", int], None], int, str]


def steps(c: Components) -> tuple[Step, ...]:
    """The action phase of one round, in order: (function, argument, name) per step; the name
    is what observations show of the step being resolved."""
    out: list[Step] = [(market.dolus, 0, "dolus"), (market.pecunia, 0, "pecunia")]
    out += [(market.arma, slot, "arma") for slot in range(c.display_size)]
    out += [(market.servi, row, "servi") for row in range(len(c.servi))]
    out += [(market.potentia, 0, "potentia")]
    out += [(contests.arena_start, 0, "arena"), (contests.arena_blue, 0, "arena"),
            (contests.arena_prize, 0, "arena")]
    out += [(contests.race_start, 0, "stadium"), (contests.race_blue, 0, "stadium"),
            (contests.race_prize, 0, "stadium")]
    out += [(theatre.theatre, 0, "theatrum")]
    out += [(forum.forum, i, "forum") for i in range(len(c.forum_fields))]
    out += [(port.latro, 0, "latro")]
    out += [(port.port, k, "portus") for k in range(len(c.port_metals))]
    out += [(end_round, 0, "end")]
    return tuple(out)


def advance(s: AquileiaState) -> None:
    """Run action-phase steps until a decision is pending, a new round waits for placement,
    or the game is over."""
    table = s.steps
    while not s.stack and s.phase == ACTION:
        fn, arg, _name = table[s.step]
        s.step += 1
        fn(s, arg)


def start_round(s: AquileiaState) -> None:
    """Every piece back to its owner; the start player places first (ラウンドの進め方)."""
    n = s.players
    s.phase = PLACEMENT
    s.henchmen = [s.comp.henchmen] * n
    s.tb = [-1] * n
    s.tb_next = 0
    s.passed = 0
    s.field_owner = [-1] * s.comp.n_fields
    s.stack = [(F_PLACE, s.start)]
    s.emit("round", s.start, round=s.round)


def end_round(s: AquileiaState, _arg: int = 0) -> None:
    """次のラウンドの準備: unused stadium and theatre cards are discarded and a new stadium card
    is turned up; the tiebreaker at the front takes the start player tile; after the sixth
    round, the final scoring."""
    comp = s.comp
    unused = []
    if s.stadium_up != -1:  # nobody raced: the face-up card and the top card go
        unused.append(s.stadium_up)
        s.stadium_up = -1
        top = draw(s, STADIUM)
        if top != -1:
            unused.append(top)
    if s.field_owner[comp.f_theatrum] == -1:  # nobody in the theatre: its top card goes
        top = draw(s, THEATRE)
        if top != -1:
            unused.append(top)
    for card in unused:
        s.discard[comp.type_class[comp.card_type[card]]].append(card)
    if unused:
        s.emit("unused", cards=[comp.type_key[comp.card_type[c]] for c in unused])
    s.stadium_up = draw(s, STADIUM)
    if s.stadium_up != -1:
        s.emit("stadium_card", card=comp.type_key[comp.card_type[s.stadium_up]])
    refill_display(s)
    s.start = s.tb.index(0)
    s.blue_holder, s.blue_left, s.contest = -1, 0, 0
    s.strength = [0] * s.players
    if s.round >= comp.rounds:
        from palio.games.aquileia.scoring import final_scoring

        final_scoring(s)
        s.phase = OVER
        s.stack = []
        return
    s.round += 1
    start_round(s)


def refill_display(s: AquileiaState) -> None:
    """Empty horse/weapon slots take the deck's top card, face up."""
    comp = s.comp
    for slot, card in enumerate(s.display):
        if card == -1:
            card = draw(s, HW)
            if card != -1:
                s.display[slot] = card
                s.emit("display", slot=slot + 1, card=comp.type_key[comp.card_type[card]])


def step_name(s: AquileiaState) -> str | None:
    """The action-phase step being resolved (``dolus`` ... ``portus``), or ``None``."""
    if s.phase != ACTION:
        return None
    return s.steps[max(0, s.step - 1)][2]
