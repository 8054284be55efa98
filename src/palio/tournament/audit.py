"""Issue 38's criterion for a repeat, checked exactly: was there an alternative?

A round's repeat meetings are *avoidable* when another arrangement of the same round, drawing
every table's players from the same score groups give or take one, has fewer of them and seats
everyone as well. Precisely, the alternatives are the rounds obtained by giving each place at a
table to a player of the same score group as the one who had it or of a neighbouring group
(any permutation of the seated players with that property, not only an exchange of two; who
sits out and the tables' sizes and bots stay as they were), whose tables leave no more players
without a seat they need (``seating``) and have fewer pairs who met before.

``better_round`` decides it as a set partition: a round is one set of players (a *candidate*)
per table, disjoint, each a set the table's places can take within one score group (sorted,
the i-th player within one of the i-th place), together leaving no more players without a
needed seat and holding fewer repeats than the round made. First the cheapest candidate of each
table is found; a table then cannot cost more than the round's repeats, less one, less the
cheapest of every other table, and only the candidates within that are listed (by a search
cut at that cost). Then a depth-first search picks one candidate per table, the table with
the fewest candidates first and each table's cheapest first, cut as soon as the repeats so
far plus the cheapest candidate left to each table (disjoint from the players taken) reach the
round's, as soon as some table has no candidate left, as soon as the players left cannot take
the places left within one score group, or as soon as more players than in the round would
lack a needed seat; tables alike (same size, same score groups) take their candidates in list
order, and a set of players left that failed once fails again with no fewer repeats and
lacking players. Nothing is cut that could hold a better round: when it answers ``None`` there
is none (the tests check it against an enumeration of every round on small fields). The tests
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


SCAN = 32  # candidates passed over in a list, for one step (a cheap test each)
Candidate = tuple[int, int, int]  # (repeats, players lacking a needed seat, players as a bit mask)


def better_round(tables: Sequence[Sequence[EntrantId | None]], history: History,
                 group: Mapping[EntrantId, int], limit: int = 1_000_000
                 ) -> list[list[EntrantId]] | None:
    """Players for each of ``tables`` (seat order aside) drawn within one score group of those
    who sat there, with fewer repeats and no more players lacking a needed seat; ``None`` when
    there is no such alternative (the round's repeats, if any, were unavoidable under the
    criterion). ``history`` is the tournament before the round (its ``left`` as the pairing
    had it); raises ``SearchTooLong`` past ``limit`` steps (a step: a set of players tried for
    a table, in the listing or in the search, or ``SCAN`` passed over)."""
    target = round_repeats(tables, history)
    if target == 0:
        return None
    sizes = [len(t) for t in tables]
    holders = [sorted(group[p] for p in t if p is not BOT) for t in tables]
    players = sorted((p for t in tables for p in t if p is not BOT),
                     key=lambda p: (group[p], repr(p)))
    lacking = sum(_unmatched(t, s, history) for t, s in zip(tables, sizes, strict=True))
    n = len(players)
    level = [group[p] for p in players]
    met = [sum(1 << j for j, b in enumerate(players) if j != i and history.met(a, b) > 0)
           for i, a in enumerate(players)]
    needs = [history.needs(p) for p in players]
    steps = [limit]

    def step(count: int = 1) -> None:
        steps[0] -= count
        if steps[0] < 0:
            raise SearchTooLong(f"no answer within {limit} steps")

    def listing(t: int, cap: int, least: bool) -> list[Candidate]:
        """Table ``t``'s candidates of at most ``cap`` repeats, cheapest first (``least``:
        only the cheapest, the cap lowered as cheaper ones are found)."""
        places, size = holders[t], sizes[t]
        out: list[Candidate] = []
        best = [cap]

        def extend(slot: int, start: int, mask: int, repeats: int) -> None:
            step()
            if slot == len(places):
                lack = unmatched(tuple(sorted(needs[i] for i in _members(mask))), size)
                if lack <= lacking:
                    if least:
                        best[0] = repeats - 1
                        out[:] = [(repeats, lack, mask)]
                    else:
                        out.append((repeats, lack, mask))
                return
            g = places[slot]
            for i in range(start, n):
                if level[i] > g + 1:
                    break
                if level[i] < g - 1:
                    continue
                more = repeats + (met[i] & mask).bit_count()
                if more <= best[0]:
                    extend(slot + 1, i + 1, mask | 1 << i, more)

        extend(0, 0, 0, 0)
        out.sort()
        return out

    count = len(tables)
    cheapest = []
    for t in range(count):
        found = listing(t, target - 1, True)
        if not found:
            return None  # no set of players fits the table with fewer repeats than the round
        cheapest.append(found[0][0])
    spare = target - 1 - sum(cheapest)
    if spare < 0:
        return None
    lists = [listing(t, cheapest[t] + spare, False) for t in range(count)]
    order = sorted(range(count), key=lambda t: (len(lists[t]), sizes[t], holders[t]))
    # tables alike (same size, same score groups, so the same candidates) in list order
    alike = [d > 0 and sizes[order[d]] == sizes[order[d - 1]]
             and holders[order[d]] == holders[order[d - 1]] for d in range(count)]
    places_left = [sorted(g for t in order[d:] for g in holders[t]) for d in range(count + 1)]
    cliques = _cliques(met)
    chosen = [0] * count
    index = [0] * count
    # a set of players left that failed: with what repeats, lack and first candidate allowed
    failed: dict[int, list[tuple[int, int, int]]] = {}

    def fits(used: int, d: int) -> bool:
        rest = [level[i] for i in range(n) if not used >> i & 1]
        return all(abs(a - b) <= 1 for a, b in zip(rest, places_left[d], strict=True))

    def search(d: int, used: int, repeats: int, lack: int) -> bool:
        if d == count:
            return True
        start = index[d - 1] + 1 if alike[d] else 0
        seen = failed.setdefault(used, [])
        if any(r <= repeats and k <= lack and s <= start for r, k, s in seen):
            return False  # the same players left failed with no more repeats or lack
        # the cheapest candidate each table left can still take
        floor = []
        for t in order[d:]:
            for scanned, (r, _, mask) in enumerate(lists[t], 1):
                if not mask & used:
                    step(1 + scanned // SCAN)
                    floor.append(r)
                    break
            else:
                step(1 + len(lists[t]) // SCAN)
                seen.append((repeats, lack, start))
                return False  # a table left has no players to take
        left = count - d
        spread = sum(_spread((c & ~used).bit_count(), left) for c in cliques)
        if repeats + max(sum(floor), spread) >= target or not fits(used, d):
            seen.append((repeats, lack, start))
            return False
        t = order[d]
        cap = target - 1 - repeats - (sum(floor) - floor[0])
        for k in range(start, len(lists[t])):
            r, lk, mask = lists[t][k]
            step()
            if r > cap:
                break
            if mask & used or lack + lk > lacking:
                continue
            chosen[t], index[d] = mask, k
            if search(d + 1, used | mask, repeats + r, lack + lk):
                return True
        seen.append((repeats, lack, start))
        return False

    if not search(0, 0, 0, 0):
        return None
    return [[players[i] for i in _members(chosen[t])] for t in range(count)]


def _cliques(met: list[int]) -> list[int]:
    """Cliques of the graph of who met whom (bit masks) that share no pair: a greedy cover.
    However the players are dealt, each clique's players left share some tables: ``_spread``."""
    n = len(met)
    covered = [0] * n  # the pairs covered, as a mask per player
    out = []
    for a in range(n):
        for b in range(a + 1, n):
            if not met[a] >> b & 1 or covered[a] >> b & 1:
                continue
            clique = 1 << a | 1 << b
            for c in range(b + 1, n):
                if clique & ~met[c] & ~(1 << c) == 0 and not covered[c] & clique:
                    clique |= 1 << c
            for x in _members(clique):
                covered[x] |= clique & ~(1 << x)
            out.append(clique)
    return out


def _spread(m: int, tables: int) -> int:
    """The fewest pairs among ``m`` players dealt to ``tables`` tables."""
    q, r = divmod(m, tables)
    return r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2


def _members(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _unmatched(table: Sequence[EntrantId | None], size: int, history: History) -> int:
    humans = [p for p in table if p is not BOT]
    return unmatched(tuple(sorted(history.needs(p) for p in humans)), size)
