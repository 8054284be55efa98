"""San Gimignano tower game: the state of one game.

Cards are ints (tower cards 5-10, nobles 101-106, see ``components``). Decks and hands are
plain lists; towers are immutable :class:`Tower` tuples replaced on change, so a copy only
copies a few short lists.

Multi-step decisions (draws one card at a time, exchange puts, extensions, effects, responses
out of turn) are *frames* on a stack: small tuples whose first item names the step and whose
second item is the seat that decides it. ``to_move`` is the top frame's seat, or the turn
player when the stack is empty.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from palio.core.game import Action, State
from palio.games.san_gimignano import components as C


class Tower(NamedTuple):
    id: int  # unique per game, stable while other towers come and go
    owner: int
    cards: tuple[int, ...]  # top to bottom; a luxury stone standing for v is -v
    completed: bool = False
    # started in the end phase: no donation, so a same-number tower of 7s earns no grace
    in_end_phase: bool = False

    @property
    def height(self) -> int:
        return len(self.cards)

    @property
    def same(self) -> bool:
        """A same-number tower (or a one-card stub, which never exists in play)."""
        return abs(self.cards[0]) == abs(self.cards[-1])

    @property
    def top(self) -> int:
        return abs(self.cards[0])

    @property
    def luxury(self) -> int:
        return sum(1 for c in self.cards if c < 0)


class SanGimignanoState(State):
    """Fields (seats are 0 and 1; seat 1 deals, seat 0 plays first):

    deck, noble_deck   face-down decks, top card last
    deck_known         how many cards on top of ``deck`` lie face up (after a collapse)
    bottom_seen        per deck (tower, noble), who saw the cards put under it: a bit per seat
                       for each of the bottom cards (index 0 the bottom card); only the first
                       ``len(deck)`` entries count (``rules.put_under``)
    market             face-up cards anyone may take
    hands              per seat, the cards in hand
    revealed           per seat, the cards of that hand the opponent knows (market takes,
                       trades); always a sub-multiset of the hand
    shown              per seat, the cards of that hand everyone knows (market takes, face-up
                       draws, cards taken back from the table; not trades); always a
                       sub-multiset of ``revealed``
    towers             every tower on the table, in the order built
    front              per seat, noble cards played that stay in front of their owner
    removed            noble cards out of the game
    nobles_used        per seat, noble cards used (jousted cards do not count)
    token              seat holding the tallest-tower token, or None
    turn               the turn player
    passes             consecutive passes so far (two end the game)
    end_phase          deck empty or end declared: the end-phase restrictions apply
    declared_by        the seat that declared the end, if any
    frames             the stack of pending multi-step decisions (see module doc)
    next_tower_id      id for the next tower built
    over               the game has ended
    """

    deck: list[int]
    noble_deck: list[int]
    deck_known: int
    bottom_seen: tuple[list[int], list[int]]
    market: list[int]
    hands: list[list[int]]
    revealed: list[list[int]]
    shown: list[list[int]]
    towers: list[Tower]
    front: list[list[int]]
    removed: list[int]
    nobles_used: list[int]
    token: int | None
    turn: int
    passes: int
    end_phase: bool
    declared_by: int | None
    frames: list[tuple]
    next_tower_id: int
    over: bool

    # -- contract -------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self.over:
            return None
        return self.frames[-1][1] if self.frames else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def nobles(self) -> bool:
        return bool(self.options.get("nobles"))

    def _legal_actions(self) -> list[Action]:
        return rules.legal_actions(self)

    def _apply(self, action: Action) -> None:
        rules.apply_action(self, action)

    def _copy_fields(self, other: State) -> None:
        assert isinstance(other, SanGimignanoState)
        other.deck = self.deck.copy()
        other.noble_deck = self.noble_deck.copy()
        other.deck_known = self.deck_known
        other.bottom_seen = (self.bottom_seen[0].copy(), self.bottom_seen[1].copy())
        other.market = self.market.copy()
        other.hands = [h.copy() for h in self.hands]
        other.revealed = [r.copy() for r in self.revealed]
        other.shown = [r.copy() for r in self.shown]
        other.towers = self.towers.copy()
        other.front = [f.copy() for f in self.front]
        other.removed = self.removed.copy()
        other.nobles_used = self.nobles_used.copy()
        other.token = self.token
        other.turn = self.turn
        other.passes = self.passes
        other.end_phase = self.end_phase
        other.declared_by = self.declared_by
        other.frames = self.frames.copy()
        other.next_tower_id = self.next_tower_id
        other.over = self.over

    def scores(self) -> list[float]:
        return [float(b["total"]) for b in scoring.score_breakdown(self)]

    def tiebreak_keys(self) -> list[tuple[float, ...]]:
        # a tie goes to the holder of the tallest-tower token
        return [(1.0 if self.token == seat else 0.0,) for seat in range(2)]

    # -- helpers used by rules, views and tests -------------------------------------------
    def hand_limit(self, seat: int) -> int:
        return C.HAND_LIMIT_WALLS if C.CITY_WALLS in self.front[seat] else C.HAND_LIMIT

    def towers_of(self, seat: int) -> list[Tower]:
        return [t for t in self.towers if t.owner == seat]

    def tower_by_id(self, tower_id: int) -> Tower:
        for tower in self.towers:
            if tower.id == tower_id:
                return tower
        raise KeyError(tower_id)

    def replace_tower(self, tower: Tower) -> None:
        for i, old in enumerate(self.towers):
            if old.id == tower.id:
                self.towers[i] = tower
                return
        raise KeyError(tower.id)

    def tallest(self, seat: int) -> int:
        return max((t.height for t in self.towers if t.owner == seat), default=0)

    def pending_cards(self) -> list[int]:
        """Cards played but not yet placed: a build or noble waiting for responses."""
        cards: list[int] = []
        for frame in self.frames:
            if frame[0] in ("build", "salvage"):
                cancelled = frame[4] if frame[0] == "build" else ()
                cards += [
                    C.LUXURY if c < 0 else c for i, c in enumerate(frame[2]) if i not in cancelled
                ]
            elif frame[0] == "play":
                cards.append(frame[2])  # a noble played, or a luxury stone played as a 5
            elif frame[0] == "window":  # jousting cards answering the first card
                cards += [card for card, _ in frame[2][1:]]
        return cards

    # -- hidden information -----------------------------------------------------------------
    def observe(self, seat: int | None) -> dict[str, Any]:
        return observe.observe(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> SanGimignanoState:
        return observe.determinize(self, seat, rng)


# imported last: these modules use Tower and SanGimignanoState defined above
from palio.games.san_gimignano import observe, rules, scoring  # noqa: E402
