"""San Gimignano tower game: what each seat may see, and guesses at what it may not.

Hidden: the order of both decks (but cards lying face up on top of the tower deck after a
collapse are public), the opponent's hand except the cards of it this seat knows about
(taken from the market, given or taken in a trade, drawn face up), and the seed that decides
future blind draws. A spectator knows only what was done in plain sight: cards of a trade stay
out of its ``known_hand``. The number of noble cards in each hand is public, since every draw, play and
return shows which deck it touches. A card returned face down (height ordinance) makes the
opponent forget one known card of each kind of its class, whichever it was (``rules.forget_one``).
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
    # sorted first, so the sample depends only on what ``seat`` sees (never on the real order)
    tower_pool = sorted(unknown_towers + hidden_deck)
    noble_pool = sorted(unknown_nobles + out.noble_deck)
    rng.shuffle(tower_pool)
    rng.shuffle(noble_pool)
    out.hands[other] = (
        sorted(out.revealed[other])
        + tower_pool[: len(unknown_towers)]
        + noble_pool[: len(unknown_nobles)]
    )
    out.deck = tower_pool[len(unknown_towers):] + known_top
    out.noble_deck = noble_pool[len(unknown_nobles):]
    out.seed = rng.getrandbits(63)
    out._legal = None
    return out
