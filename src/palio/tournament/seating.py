"""Seat order at a table: every entrant's count in each seat stays within one of the others.

A player "needs" the seats they have taken least often (``History.needs``, a bit mask). A table
is balanced when its players can be matched to distinct needed seats; the pairing prefers
tables that are, and ``seat_order`` then picks such a matching.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import permutations

from palio.tournament.model import BOT, EntrantId, History


@lru_cache(maxsize=200_000)
def unmatched(masks: tuple[int, ...], size: int) -> int:
    """How many players of a table of ``size`` seats cannot get a seat they need
    (``masks`` sorted; a bipartite matching by augmenting paths)."""
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for s in range(size):
            if masks[i] >> s & 1 and s not in seen:
                seen.add(s)
                if s not in owner or place(owner[s], seen):
                    owner[s] = i
                    return True
        return False

    return sum(not place(i, set()) for i in range(len(masks)))


def table_unmatched(players: list[EntrantId], size: int, history: History) -> int:
    return unmatched(tuple(sorted(history.needs(p) for p in players)), size)


def seat_order(players: list[EntrantId], size: int, history: History,
               rng: random.Random) -> tuple[EntrantId | None, ...]:
    """The players (and ``size - len(players)`` bots) in seat order: needed seats first, then
    the seat each has taken least, ties broken at random."""
    bots = [BOT] * (size - len(players))
    best_key, best = None, None
    candidates = list(permutations(players + bots))
    rng.shuffle(candidates)
    for order in candidates:
        missed = 0
        load = 0
        for s, p in enumerate(order):
            if p is BOT:
                continue
            counts = history.counts(p)
            missed += not history.needs(p) >> s & 1
            load += counts[s] if s < len(counts) else 0
        key = (missed, load)
        if best_key is None or key < best_key:
            best_key, best = key, order
    return tuple(best) if best is not None else ()
