"""San Gimignano tower game: what each seat may see, and guesses at what it may not.

Hidden: the order of both decks (but cards lying face up on top of the tower deck after a
collapse are public), the opponent's hand except the cards of it this seat knows about
(taken from the market, given or taken in a trade, drawn face up), and the seed that decides
future blind draws. A spectator knows only what was done in plain sight: cards of a trade stay
out of its ``known_hand``. The number of noble cards in each hand is public, since every draw, play and
return shows which deck it touches. A card returned face down (height ordinance) makes the
opponent forget one known card of each kind of its class, whichever it was (``rules.forget_one``).

A card seen going under a deck keeps its place there until drawn, so it stays known to those
who saw it: a 5 cancelling a 9 (both players and spectators), a card returned by the height
ordinance (its owner only). ``deck_bottom`` / ``noble_deck_bottom`` list, from the bottom card
up, what this seat knows of the cards put under (``None`` for one it did not see), and
:func:`determinize` leaves those it knows in place.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from palio.games.san_gimignano import components as C

if TYPE_CHECKING:
    from palio.games.san_gimignano.state import SanGimignanoState


def _cards(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [C.card_code(c) for c in sorted(cards)]


def _tower_view(tower: Any) -> dict[str, Any]:
    return {
        "cards": [f"L{-c}" if c < 0 else str(c) for c in tower.cards],
        "height": tower.height,
        "kind": "same" if tower.same else "multi",
        "completed": tower.completed,
        "end_phase": tower.in_end_phase,  # started in the end phase: no donation
    }


def tower_ref(s: SanGimignanoState, tower_id: int) -> dict[str, int]:
    """A tower as views name it: its owner and its number among the owner's towers (from 1,
    the order of ``players[seat]["towers"]`` and of the notation)."""
    tower = s.tower_by_id(tower_id)
    number = 1 + [t.id for t in s.towers_of(tower.owner)].index(tower_id)
    return {"seat": tower.owner, "number": number}


def _frame_view(s: SanGimignanoState, frame: tuple) -> dict[str, Any]:
    """The public part of a pending decision (never cards a seat has not shown): what it is
    about (the tower targeted, extended or just built, the noble card played) included."""
    kind, seat = frame[0], frame[1]
    view: dict[str, Any] = {"step": kind, "seat": seat}
    if kind == "draw":
        view["left"] = frame[2]
        view["excluded"] = _cards(list(frame[3]))
        view["market"] = frame[4]  # may take from the market
        view["nobles"] = frame[5]  # may draw from the noble deck
    elif kind == "put":
        view["put"] = _cards(list(frame[2]))
    elif kind == "give":
        view["left"] = frame[2]
    elif kind == "return":
        view["left"] = frame[2]
        view["optional"] = frame[3]
    elif kind in ("build", "salvage"):
        view["cards"] = [f"L{-c}" if c < 0 else str(c) for c in frame[2]]
    elif kind == "extend":
        view["tower"] = tower_ref(s, frame[2])
        view["placed"] = frame[3]
    elif kind == "effect":
        view["number"] = s.tower_by_id(frame[2]).top
        view["tower"] = tower_ref(s, frame[2])
    elif kind == "defend":
        view["number"] = frame[2]
        view["tower"] = tower_ref(s, frame[3])  # the 10's target, or the new 9-tower
    elif kind == "collapse":
        view["candidates"] = [tower_ref(s, tower_id) for tower_id in frame[2]]
    elif kind == "take":
        view["number"] = 9
        view["left"] = frame[2]
        view["give"] = frame[3]
    elif kind == "play":
        view["card"] = C.card_code(frame[2])
    elif kind == "window":
        view["chain"] = [C.card_code(card) for card, _ in frame[2]]
        context = frame[3]
        view["concerns"] = context[0]  # "play", "build" or "extend"
        if context[0] == "extend":
            view["tower"] = tower_ref(s, context[1])
        elif context[0] == "build":
            view["stone"] = context[1]  # index of the stone among the build's cards
    return view


def observe(s: SanGimignanoState, seat: int | None) -> dict[str, Any]:
    players = []
    for p in range(2):
        hand = s.hands[p]
        entry: dict[str, Any] = {
            "hand_size": len(hand),
            "nobles_in_hand": sum(1 for c in hand if c in C.NOBLE_COUNTS),
            # what this seat (or, for a spectator, everyone) knows of the hand
            "known_hand": _cards(s.revealed[p] if seat is not None else s.shown[p]),
            "towers": [_tower_view(t) for t in s.towers_of(p)],
            "front": _cards(s.front[p]),
            "nobles_used": s.nobles_used[p],
            "hand_limit": s.hand_limit(p),
        }
        if seat == p:
            entry["hand"] = _cards(hand)
        players.append(entry)
    view: dict[str, Any] = {
        "game": "san-gimignano",
        "seat": seat,
        "move": s.move_number,
        "turn": s.turn,
        "to_move": s.to_move,
        "over": s.over,
        "end_phase": s.end_phase,
        "declared_by": s.declared_by,
        "passes": s.passes,
        "deck_size": len(s.deck),
        "deck_face_up": [C.card_code(c) for c in reversed(s.deck[len(s.deck) - s.deck_known:])],
        "noble_deck_size": len(s.noble_deck),
        "deck_bottom": _bottom_view(s, False, seat),
        "noble_deck_bottom": _bottom_view(s, True, seat),
        "market": _cards(s.market),
        "token": s.token,
        "removed": _cards(s.removed),
        "players": players,
        "pending": [_frame_view(s, f) for f in s.frames],
        "nobles": s.nobles,
    }
    if s.over:
        view["scores"] = s.scores()
        view["ranking"] = s.ranking()
    return view


def _known_at_bottom(s: SanGimignanoState, noble: bool, seat: int | None) -> list[bool]:
    """Per card put under the deck and still there (index 0 the bottom), whether ``seat``
    (``None``: a spectator, who knows what both players saw) knows which card it is."""
    deck = s.noble_deck if noble else s.deck
    seen = s.bottom_seen[noble][:len(deck) - (0 if noble else s.deck_known)]
    want = 0b11 if seat is None else 1 << seat
    return [mask & want == want for mask in seen]


def _bottom_view(s: SanGimignanoState, noble: bool, seat: int | None) -> list[str | None]:
    deck = s.noble_deck if noble else s.deck
    known = _known_at_bottom(s, noble, seat)
    while known and not known[-1]:  # nothing to say above the last card this seat knows
        known.pop()
    return [C.card_code(deck[i]) if k else None for i, k in enumerate(known)]


def _redeal(cards: list[int], known: list[bool], pool: list[int]) -> list[int]:
    """``cards`` (a deck's hidden part, bottom first) with every place not ``known`` filled
    from ``pool`` in order; the known places keep their cards."""
    fill = iter(pool)
    return [card if i < len(known) and known[i] else next(fill) for i, card in enumerate(cards)]


def determinize(s: SanGimignanoState, seat: int, rng: random.Random) -> SanGimignanoState:
    """A full state that ``seat`` cannot tell apart from ``s``; unseen cards reshuffled."""
    out = s.copy()
    assert isinstance(out, type(s))
    other = 1 - seat
    unknown = Counter(out.hands[other]) - Counter(out.revealed[other])
    unknown_towers = [c for c in unknown.elements() if c not in C.NOBLE_COUNTS]
    unknown_nobles = [c for c in unknown.elements() if c in C.NOBLE_COUNTS]
    known_top = out.deck[len(out.deck) - out.deck_known:] if out.deck_known else []
    hidden_deck = out.deck[: len(out.deck) - out.deck_known]
    # cards seen going under a deck stay in place; the rest are redealt
    tower_fixed = _known_at_bottom(out, False, seat)
    noble_fixed = _known_at_bottom(out, True, seat)
    hidden_towers = [c for i, c in enumerate(hidden_deck)
                     if not (i < len(tower_fixed) and tower_fixed[i])]
    hidden_nobles = [c for i, c in enumerate(out.noble_deck)
                     if not (i < len(noble_fixed) and noble_fixed[i])]
    # sorted first, so the sample depends only on what ``seat`` sees (never on the real order)
    tower_pool = sorted(unknown_towers + hidden_towers)
    noble_pool = sorted(unknown_nobles + hidden_nobles)
    rng.shuffle(tower_pool)
    rng.shuffle(noble_pool)
    out.hands[other] = (
        sorted(out.revealed[other])
        + tower_pool[: len(unknown_towers)]
        + noble_pool[: len(unknown_nobles)]
    )
    out.deck = _redeal(hidden_deck, tower_fixed, tower_pool[len(unknown_towers):]) + known_top
    out.noble_deck = _redeal(out.noble_deck, noble_fixed, noble_pool[len(unknown_nobles):])
    out.seed = rng.getrandbits(63)
    out._legal = None
    return out
