"""Issue 38's criterion for a repeat, checked exactly: was there an alternative?

A round's repeat meetings are *avoidable* when another arrangement of the same round, drawing
every table's players from the same score groups give or take one, has fewer of them and seats
everyone as well. Precisely, the alternatives are the rounds obtained by giving each place at a
table to a player of the same score group as the one who had it or of a neighbouring group
(any permutation of the seated players with that property, not only an exchange of two; who
sits out and the tables' sizes and bots stay as they were), whose tables leave no more players
without a seat they need (``seating``) and have fewer pairs who met before.

``better_round`` searches them all, depth first: table after table, each filled in score-group
order, cut as soon as the repeats so far reach the round's (or would, counting those the players
left must have: players who all met one another, dealt to the tables left, share some), as soon as more players than in the
round lack a needed seat, or as soon as the players left cannot take the places left within one
score group (sorted, the i-th player left must be within one of the i-th place left); tables
alike take their players in increasing order, and a set of players left that failed once fails
again with no fewer repeats and lacking players. The tests
(through ``simulate.avoidable_rounds``) and ``benchmarks/pairing_quality.py`` run it without
a practical limit; the Swiss pairing runs it with a small one on a round left with a repeat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from palio.tournament.model import BOT, EntrantId, History
from palio.tournament.seating import unmatched


class SearchTooLong(RuntimeError):
    """The exhaustive search ran past its step limit: no answer either way."""


def round_repeats(tables: Sequence[Sequence[EntrantId | None]], history: History) -> int:
    """Pairs at the same table of this round who met before it."""
    count = 0
    for table in tables:
        humans = [p for p in table if p is not BOT]
        for i, a in enumerate(humans):
            count += sum(history.met(a, b) > 0 for b in humans[i + 1:])
    return count


def better_round(tables: Sequence[Sequence[EntrantId | None]], history: History,
                 group: Mapping[EntrantId, int], limit: int = 1_000_000
                 ) -> list[list[EntrantId]] | None:
    """Players for each of ``tables`` (seat order aside) drawn within one score group of those
    who sat there, with fewer repeats and no more players lacking a needed seat; ``None`` when
    there is no such alternative (the round's repeats, if any, were unavoidable under the
    criterion). ``history`` is the tournament before the round (its ``left`` as the pairing
    had it); raises ``SearchTooLong`` past ``limit`` steps."""
    sizes = [len(t) for t in tables]
    holders = [sorted(group[p] for p in t if p is not BOT) for t in tables]
    players = sorted((p for t in tables for p in t if p is not BOT),
                     key=lambda p: (group[p], repr(p)))
    target = round_repeats(tables, history)
    if target == 0:
        return None
    lacking = sum(_unmatched(t, s, history) for t, s in zip(tables, sizes, strict=True))
    n = len(players)
    level = [group[p] for p in players]
    met = [[history.met(a, b) > 0 for b in players] for a in players]
    steps = [limit]
    chosen: list[list[int]] = []

    def fits_left(used: int, t: int, extra: Sequence[int] = ()) -> bool:
        rest = [level[i] for i in range(n) if not used >> i & 1]
        places = sorted([*extra, *(g for h in holders[t:] for g in h)])
        return len(rest) == len(places) and all(
            abs(a - b) <= 1 for a, b in zip(rest, places, strict=True))

    failed: dict[tuple[int, int], list[tuple[int, int]]] = {}
    # tables alike (same size, same score groups) take their players in increasing order
    alike = [t > 0 and sizes[t] == sizes[t - 1] and holders[t] == holders[t - 1]
             for t in range(len(tables))]

    cliques = _cliques(met)

    def table(t: int, used: int, repeats: int, lack: int) -> list[list[int]] | None:
        if t == len(tables):
            return [list(c) for c in chosen]
        left = len(tables) - t
        if repeats + sum(_spread((c & ~used).bit_count(), left) for c in cliques) >= target:
            return None  # the players left who met cannot all go to different tables
        seen = failed.setdefault((t, used), [])
        if any(r <= repeats and k <= lack for r, k in seen):
            return None  # the same players left failed with no more repeats or lack
        found = fill(t, 0, [], used, repeats, lack)
        if found is None:
            seen.append((repeats, lack))
        return found

    def fill(t: int, slot: int, at: list[int], used: int, repeats: int,
             lack: int) -> list[list[int]] | None:
        steps[0] -= 1
        if steps[0] < 0:
            raise SearchTooLong(f"no answer within {limit} steps")
        places = holders[t]
        if slot == len(places):
            lack += _unmatched([players[i] for i in at], sizes[t], history)
            if lack > lacking or not fits_left(used, t + 1):
                return None
            chosen.append(at)
            found = table(t + 1, used, repeats, lack)
            chosen.pop()
            return found
        start = at[-1] + 1 if at else (chosen[-1][0] + 1 if alike[t] else 0)
        for i in range(start, n):
            if used >> i & 1 or abs(level[i] - places[slot]) > 1:
                continue
            if level[i] > places[slot] + 1:
                break
            more = repeats + sum(met[i][j] for j in at)
            if more >= target:
                continue
            if not fits_left(used | 1 << i, t + 1, places[slot + 1:]):
                continue
            if lack + _unmatched([players[j] for j in (*at, i)], sizes[t], history) > lacking:
                continue
            found = fill(t, slot + 1, [*at, i], used | 1 << i, more, lack)
            if found is not None:
                return found
        return None

    found = table(0, 0, 0, 0)
    if found is None:
        return None
    return [[players[i] for i in t] for t in found]


def _cliques(met: list[list[bool]]) -> list[int]:
    """Cliques of the graph of who met whom (bit masks) that share no edge: a greedy cover."""
    n = len(met)
    covered = [[False] * n for _ in range(n)]
    out = []
    for a in range(n):
        for b in range(a + 1, n):
            if not met[a][b] or covered[a][b]:
                continue
            clique = [a, b]
            for c in range(b + 1, n):
                if all(met[c][x] and not covered[c][x] for x in clique):
                    clique.append(c)
            for x in clique:
                for y in clique:
                    covered[x][y] = True
            out.append(sum(1 << x for x in clique))
    return out


def _spread(m: int, tables: int) -> int:
    """The fewest pairs among ``m`` players dealt to ``tables`` tables."""
    q, r = divmod(m, tables)
    return r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2


def _unmatched(table: Sequence[EntrantId | None], size: int, history: History) -> int:
    humans = [p for p in table if p is not BOT]
    return unmatched(tuple(sorted(history.needs(p) for p in humans)), size)
