"""Build San Gimignano positions from a compact description, for scenario tests."""

from __future__ import annotations

from collections import Counter

from palio.games.san_gimignano import GAME, SanGimignanoState, Tower
from palio.games.san_gimignano import components as C


def table(
    hands: tuple[list[int], list[int]] = ([], []),
    market: list[int] | None = None,
    deck: list[int] | None = None,
    towers: tuple[tuple[int, tuple[int, ...], bool], ...] = (),
    nobles: bool = False,
    noble_deck: list[int] | None = None,
    front: tuple[list[int], list[int]] = ([], []),
    turn: int = 0,
    token: int | None = None,
    end_phase: bool = False,
) -> SanGimignanoState:
    """A position; ``deck`` defaults to every tower card not placed elsewhere (top last)."""
    s = GAME.setup(2, seed=0, options={"nobles": nobles})
    assert isinstance(s, SanGimignanoState)
    s.hands = [list(hands[0]), list(hands[1])]
    s.market = list(market or [])
    s.towers = [Tower(i, owner, tuple(cards), done) for i, (owner, cards, done) in enumerate(towers)]
    s.next_tower_id = len(s.towers)
    if deck is None:
        used = Counter(s.hands[0] + s.hands[1] + s.market)
        for t in s.towers:
            used.update(c for c in t.cards if c > 0)
        full = Counter({v: n for v, n in C.TOWER_COUNTS.items()})
        deck = sorted((full - used).elements())
    s.deck = list(deck)
    if noble_deck is not None:
        s.noble_deck = list(noble_deck)
    s.front = [list(front[0]), list(front[1])]
    s.turn = turn
    s.token = token
    s.end_phase = end_phase
    s._legal = None
    return s


def texts(state: SanGimignanoState) -> set[str]:
    return {str(a) for a in state.legal_actions()}
