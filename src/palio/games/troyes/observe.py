"""What a seat may know (``observe``) and states consistent with it (``determinize``).

Hidden in Troyes: each player's character cards (a seat sees its own; all are shown once the
game is over), the activity cards still face down (which of the round's candidates lies in
the slot), the order and make-up of the event decks (which red cards were set aside in the box
is unseen too), and future dice. Money, influence, VP, citizens, cubes and dice are open.

Reading (docs/coverage/troyes.md, "Hidden information"): the rulebook keeps VP tokens face down,
but every VP is gained or lost in plain view, so Palio shows them (a perfect memory knows them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from palio.core.encoding import set_bits
from palio.games.troyes.state import FRAME_NAMES, GROUP_KINDS, PHASES

if TYPE_CHECKING:
    from palio.games.troyes.state import TroyesState


def _frame(s: TroyesState, frame: tuple) -> dict[str, Any]:
    kind = frame[0]
    out: dict[str, Any] = {"kind": FRAME_NAMES[kind], "seat": frame[1]}
    if kind == 1:  # combat
        out.update(faces=list(frame[2]), extras=list(frame[3]))
    elif kind == 2:  # flip
        out.update(flipped=list(frame[3]))
    elif kind == 4:  # source
        out.update(purpose=("tradesman", "place")[frame[2]], a=frame[3], b=frame[4])
    elif kind == 5:  # group
        out.update(action=GROUP_KINDS[frame[2]], target=frame[3], mod=frame[4], dice=list(frame[5]))
    elif kind == 6:  # uses
        out.update(slot=frame[2], left=frame[3], used=frame[4])
    elif kind == 7:  # mill
        out.update(left=frame[2])
    elif kind == 8:  # target
        out.update(cubes=frame[2], archer=frame[3])
    return out


def observe(s: TroyesState, seat: int | None) -> dict[str, Any]:
    c = s.comp
    over = s.phase == 3
    width = c.max_trade_spaces
    players = []
    for p in range(s.players):
        shown = over or p == seat
        players.append({
            "money": s.money[p], "influence": s.influence[p], "vp": s.vp[p], "purse": s.purse[p],
            "passed": bool(s.passed[p]), "supply": s.supply[p], "reserve": s.reserve[p],
            "events_won": list(s.won[p]), "characters": list(s.chars[p]) if shown else None,
            "character_count": len(s.chars[p]),
        })
    return {
        "game": "troyes", "seat": seat, "players": players, "round": s.round, "rounds": s.rounds,
        "phase": PHASES[s.phase], "start": s.start, "turn": s.turn, "to_move": s.to_move,
        "pending": [_frame(s, f) for f in s.stack[-3:]],
        "spaces": s.spaces[:], "lying": [set_bits(m, 5) for m in s.lying],
        "neutral_reserve": s.neutral_reserve,
        "cards": [s.slot_card[k] if k % 3 < s.revealed else None for k in range(9)],
        "tradesmen": [s.trade[k * width:(k + 1) * width] for k in range(9)],
        "illustration": [set_bits(s.extra[k], 4) for k in range(9)],
        "cubes": [s.cubes[k * 4:k * 4 + s.players] for k in range(9)],
        "cathedral": s.cathedral[:],
        "events": [{"card": card, "cubes": list(s.ev_cubes[i])} for i, card in enumerate(s.queue)],
        "decks": {"red": len(s.red_deck), "white": len(s.white_deck), "yellow": len(s.yellow_deck)},
        "dice": [list(s.dice[d * 18:(d + 1) * 18]) for d in range(5)],
        "black": s.black[:], "fighter": s.fighter if s.phase == 1 else None,
        "bonus_cards": s.bonus,
    }


def determinize(s: TroyesState, seat: int, rng: random.Random) -> TroyesState:
    """A copy with the unseen characters redealt, face-down activity cards redrawn, the event
    decks reshuffled (the unseen red cards split again between deck and box) and a new seed.
    Each pool is sorted before its shuffle, so the sample depends only on what is public."""
    other = s.copy()
    assert isinstance(other, type(s))
    c = s.comp
    if other.phase != 3:
        unseen = sorted([ch for p in range(s.players) if p != seat for ch in s.chars[p]] + s.chars_pool)
        rng.shuffle(unseen)
        for p in range(s.players):
            if p != seat:
                k = len(s.chars[p])
                other.chars[p] = tuple(sorted(unseen[:k]))
                unseen = unseen[k:]
        other.chars_pool = sorted(unseen)
    for k in range(9):
        if k % 3 >= s.revealed:
            other.slot_card[k] = rng.choice(c.card_pool(k // 3, k % 3 + 1, s.bonus))
    reds = sorted(s.red_deck + s.red_box)
    rng.shuffle(reds)
    n = len(s.red_deck)
    other.red_deck = reds[:n]
    other.red_box = sorted(reds[n:])
    for deck in (other.white_deck, other.yellow_deck):
        deck.sort()
        rng.shuffle(deck)
    other.seed = rng.getrandbits(63)
    other._legal = None
    return other
