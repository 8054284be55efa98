"""What a seat may know (``observe``) and states consistent with it (``determinize``).

Hidden in Aquileia: the order of every deck, the cards in other players' hands that this seat
has not seen, the stadium card the race winner is looking at (to everyone but the winner), and
future dice. Open: coins, VP, every piece on the board, the face-up cards, the discards, and
every card a hand took in the open (a horse/weapon card bought from the display, a theatre
card, the face-up stadium card). ``state.seen`` records who knows each card in a hand: a card
drawn face down is known to its holder only; the stadium card the winner hands to the second
is known to both. Hand sizes are public: every draw shows which deck it touches. Once the game
is over, every hand is shown (the final scoring reveals them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from palio.games.aquileia.components import CLASSES, METALS, STADIUM
from palio.games.aquileia.rules.flow import step_name
from palio.games.aquileia.state import F_LAUREL, FRAME_NAMES, OVER, PHASES

if TYPE_CHECKING:
    from palio.games.aquileia.state import AquileiaState


def _coins(values: list[int] | tuple[int, ...]) -> dict[str, int]:
    return {METALS[m]: values[m] for m in range(3)}


def _key(s: AquileiaState, card: int) -> str | None:
    return None if card == -1 else s.comp.type_key[s.comp.card_type[card]]


def _knows(s: AquileiaState, seat: int | None, card: int) -> bool:
    """Does ``seat`` (``None``: a spectator) know this card in a hand?"""
    seen = s.seen[card]
    if seat is None:
        return seen == (1 << s.players) - 1
    return bool(seen >> seat & 1)


def _player(s: AquileiaState, p: int, seat: int | None) -> dict[str, Any]:
    comp = s.comp
    show_all = s.phase == OVER or seat == p
    known: list[str] = []
    hidden = [0, 0, 0, 0]
    for card in s.hand[p]:
        t = comp.card_type[card]
        if show_all or _knows(s, seat, card):
            known.append(comp.type_key[t])
        else:
            hidden[comp.type_class[t]] += 1
    known.sort()
    return {
        "coins": _coins(s.coins[3 * p:3 * p + 3]), "vp": s.vp[p],
        "henchmen": s.henchmen[p], "passed": bool(s.passed >> p & 1),
        "tiebreaker": s.tb[p], "houses": s.houses[p],
        "hand_size": len(s.hand[p]), "cards": known,
        "hidden": {CLASSES[k]: hidden[k] for k in range(3)},
    }


def _pending(s: AquileiaState) -> dict[str, Any] | None:
    if not s.stack:
        return None
    top = s.stack[-1]
    view: dict[str, Any] = {"kind": FRAME_NAMES[top[0]], "seat": top[1]}
    names = {"arma": ("slot",), "servi": ("row",), "cards": ("contest",), "prize": ("second",),
             "laurel": ("second",), "build": ("field", "left")}.get(view["kind"], ())
    for name, value in zip(names, top[2:], strict=False):
        view[name] = value
    return view


def observe(s: AquileiaState, seat: int | None) -> dict[str, Any]:
    comp = s.comp
    tb = [-1] * comp.tiebreaker_spaces
    for p, space in enumerate(s.tb):
        if space != -1:
            tb[space] = p
    view: dict[str, Any] = {
        "game": "aquileia", "seat": seat, "round": s.round, "rounds": comp.rounds,
        "phase": PHASES[s.phase], "to_move": s.to_move, "start": s.start,
        "step": step_name(s), "pending": _pending(s),
        "fields": s.field_owner[:], "port_coins": s.port_coin[:], "tiebreaker": tb,
        "plots": s.plot_owner[:], "bank": _coins(s.bank),
        "display": [_key(s, c) for c in s.display],
        "stadium_card": _key(s, s.stadium_up), "theatre_card": _key(s, s.theatre_up),
        "decks": {CLASSES[k]: len(s.deck[k]) for k in range(4)},
        "discards": {CLASSES[k]: sorted(_key(s, c) for c in s.discard[k]) for k in range(4)},
        "blue": {"holder": s.blue_holder, "left": s.blue_left},
        "contest": {"kind": (None, "arena", "stadium")[s.contest], "strength": s.strength[:]},
        "auction": None,
        "players": [_player(s, p, seat) for p in range(s.players)],
    }
    if s.theatre_up != -1:
        view["auction"] = {"bid": _coins(s.bid), "high": s.auc_high,
                           "out": [p for p in range(s.players) if s.auc_out >> p & 1]}
    if s.peek != -1 and seat is not None and s.stack and s.stack[-1][0] == F_LAUREL \
            and s.stack[-1][1] == seat:
        view["peek"] = _key(s, s.peek)
    return view


def determinize(s: AquileiaState, seat: int, rng: random.Random) -> AquileiaState:
    """A copy in which every card ``seat`` has not seen is redealt among the places it could be
    (its deck, the unseen cards of the other hands of its class, the winner's peek), and the
    seed is new, so neither hidden cards nor future dice can be read from it. Once the game is
    over every hand is shown, so only the decks' order is hidden and redealt."""
    other = s.copy()
    assert isinstance(other, type(s))
    comp = other.comp
    seen = other.seen
    peek_hidden = other.peek != -1 and not (other.stack and other.stack[-1][0] == F_LAUREL
                                             and other.stack[-1][1] == seat)
    hands_shown = other.phase == OVER
    for cls in range(4):
        slots: list[tuple[int, int]] = []
        pool = list(other.deck[cls])
        for p in range(other.players):
            if p == seat or hands_shown:
                continue
            for i, card in enumerate(other.hand[p]):
                if comp.type_class[comp.card_type[card]] == cls and not seen[card] >> seat & 1:
                    slots.append((p, i))
                    pool.append(card)
        if cls == STADIUM and peek_hidden:
            pool.append(other.peek)
        if len(pool) < 2:
            continue
        masks = [seen[other.hand[p][i]] for p, i in slots]
        for card in pool:
            seen[card] = 0
        # sorted first, so the sample depends only on what the seat knows, never on the order
        pool.sort()
        rng.shuffle(pool)
        for (p, i), mask in zip(slots, masks, strict=True):
            card = pool.pop()
            other.hand[p][i] = card
            seen[card] = mask
        if cls == STADIUM and peek_hidden:
            other.peek = pool.pop()
        other.deck[cls] = pool
    other.forced = ()
    other.seed = rng.getrandbits(63)
    other._legal = None
    return other
