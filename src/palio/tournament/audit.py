"""Issue 38's criterion for a repeat, checked exactly: was there an alternative?

A round's repeat meetings are *avoidable* when another arrangement of the same round, drawing
every table's players from the same score groups give or take one, has fewer of them and seats
everyone as well. Precisely, the alternatives are the rounds obtained by giving each place at a
table to a player of the same score group as the one who had it or of a neighbouring group
(any permutation of the seated players with that property, not only an exchange of two; who
sits out and the tables' sizes and bots stay as they were), whose tables leave no more players
without a seat they need (``seating``) and have fewer pairs who met before.

``better_round`` searches them all, in two exhaustive searches that take turns on one step
budget: a *direct* search, quick to find a better round where one is easy to find (a large field
with a careless round), and a *set-partition* search, quick to show there is none where the
repeats are forced (20 entrants at 5 seats, whose every round after the first repeats).

- Direct: depth first, table after table, each filled in score-group order, cut as soon as the
  repeats so far reach the round's (or would, counting those the players left must have:
  players who all met one another, dealt to the tables left, share some), as soon as more
  players than in the round lack a needed seat (counting those the players left must lack:
  for some set of seats, more players left who need only seats of it than the tables left
  have places of it; Hall's condition), or as soon as the players left cannot take the
  places left within one score group (sorted, the i-th player left must be within one of the
  i-th place left).
- Set partition: a round is one set of players (a *candidate*) per table, disjoint, each a set
  the table's places can take within one score group, lacking with the players left (Hall's
  condition, as above, on the other tables) no more needed seats than the round. First each
  table's cheapest candidate is found; a table cannot cost more than the round's repeats, less
  one, less the cheapest of every other table, and only the candidates within that are listed
  (by a search cut at that cost).
  Then a depth-first search picks one candidate per table, the table with the fewest candidates
  first, each table's cheapest first, cut as in the direct search and as soon as the repeats so
  far plus the cheapest candidate each table left can still take reach the round's, or some
  table has none left.

In both, tables alike (same size, same score groups) take their players in a fixed order, and a
set of players left that failed once fails again with no fewer repeats and lacking players (and
no earlier first choice). Nothing is cut that could hold a better round: ``None`` means there is
none (``tests/tournament/test_audit.py`` checks it against every round of small fields). The
random-tournament tests (through ``simulate.avoidable_rounds``) run it with 300,000 steps a
round, as the Swiss pairing does on a round left with a repeat, and
``benchmarks/pairing_quality.py`` with 100,000; past the limit there is no answer either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from palio.tournament.model import BOT, EntrantId, History, members
from palio.tournament.seating import unmatched

FIRST_TURN = 2_000  # steps of the first search's first turn (most easy finds take a few hundred)
PARTITION_FIRST = 3  # the set partition goes first when a table may cost at most this over its
# cheapest (short lists); the direct search first otherwise (a round far from the fewest repeats)
# a set of players listed or tried by the set-partition search is a quarter of a step: about
# the CPU of a quarter of one tried by the direct search (so that the limit means CPU in both)
LIGHT = 0.25
SCAN = 32  # candidates passed over in a list, for one of those (a cheap test each)
ALL_SEAT_SETS = 64  # Hall's condition over every set of seats up to six seats a table
Candidate = tuple[int, int, int]  # (repeats, players lacking a needed seat, players' bit mask)


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


class _Steps:
    """The step budget: ``left`` in all, ``turn`` for the search running now."""

    def __init__(self, limit: int) -> None:
        self.left: float = limit
        self.turn: float = limit

    def __call__(self, count: float = 1) -> None:
        self.left -= count
        self.turn -= count
        if self.turn < 0:
            raise SearchTooLong("this search's turn is over")


@dataclass
class _Round:
    """The round to better, players numbered in score-group order (bit masks of them)."""

    sizes: list[int]  # each table's seats, bots' included
    holders: list[list[int]]  # each table's places: the score groups of its humans, sorted
    level: list[int]  # each player's score group
    met: list[int]  # each player's earlier opponents among the players
    needs: list[int]  # each player's needed seats (``History.needs``)
    target: int  # the round's repeats: a better round has fewer
    lacking: int  # the round's players without a needed seat: a better round has no more
    steps: _Steps

    def __post_init__(self) -> None:
        self.cliques = _cliques(self.met)
        self.n = len(self.level)
        self.seat_sets = _seat_sets(self.needs, max(self.sizes))
        # per set of seats of ``seat_sets``: the players who need none outside it (``short``)
        every = (1 << max(self.sizes)) - 1  # a seat no table has is needed in vain
        self.within = [sum(1 << i for i, m in enumerate(self.needs) if m & every & ~s == 0)
                       for s in self.seat_sets]

    def slots(self, tables: Iterable[int]) -> list[int]:
        """Per set of seats of ``seat_sets``: its places at ``tables`` (for ``short``)."""
        sizes = [self.sizes[t] for t in tables]
        return [sum((s & ((1 << size) - 1)).bit_count() for size in sizes)
                for s in self.seat_sets]

    def short(self, used: int, slots: Sequence[int]) -> int:
        """The fewest players left who lack a needed seat however they are dealt to the tables
        whose places ``slots`` counts (Hall's deficiency: the players who need only seats of
        a set, less that set's places; no dealing matches more, as no table can)."""
        left = ~used
        return max(0, *((w & left).bit_count() - k
                        for w, k in zip(self.within, slots, strict=True)))

    def lack(self, players: Sequence[int], size: int) -> int:
        return unmatched(tuple(sorted(self.needs[i] for i in players)), size)

    def forced(self, used: int, tables: int) -> int:
        """The fewest repeats among the players left, dealt to ``tables`` tables."""
        return sum(_spread((c & ~used).bit_count(), tables) for c in self.cliques)

    def fits(self, used: int, places: Sequence[int]) -> bool:
        """Whether the players left can take ``places`` (sorted), each within one group."""
        rest = [self.level[i] for i in range(self.n) if not used >> i & 1]
        return len(rest) == len(places) and all(
            abs(a - b) <= 1 for a, b in zip(rest, places, strict=True))


def better_round(tables: Sequence[Sequence[EntrantId | None]], history: History,
                 group: Mapping[EntrantId, int], limit: int = 1_000_000
                 ) -> list[list[EntrantId]] | None:
    """Players for each of ``tables`` (seat order aside) drawn within one score group of those
    who sat there, with fewer repeats and no more players lacking a needed seat; ``None`` when
    there is no such alternative (the round's repeats, if any, were unavoidable under the
    criterion). ``history`` is the tournament before the round (its ``left`` as the pairing
    had it); raises ``SearchTooLong`` past ``limit`` steps (a step: a set of players tried at
    a table by the direct search, or four by the set partition, or ``4 * SCAN`` candidates
    passed over)."""
    target = round_repeats(tables, history)
    if target == 0:
        return None
    players = sorted((p for t in tables for p in t if p is not BOT),
                     key=lambda p: (group[p], repr(p)))
    steps = _Steps(limit)
    problem = _Round(
        sizes=[len(t) for t in tables],
        holders=[sorted(group[p] for p in t if p is not BOT) for t in tables],
        level=[group[p] for p in players],
        met=[sum(1 << j for j, b in enumerate(players) if j != i and history.met(a, b) > 0)
             for i, a in enumerate(players)],
        needs=[history.needs(p) for p in players],
        target=target,
        lacking=sum(_unmatched(t, len(t), history) for t in tables),
        steps=steps)
    # each table's cheapest set of players: no better round when they add up to the round's
    cheapest = []
    for t in range(len(tables)):
        found = _listing(problem, t, target - 1, True)
        if not found:
            return None  # no set of players fits the table with fewer repeats than the round
        cheapest.append(found[0][0])
    spare = target - 1 - sum(cheapest)
    if spare < 0:
        return None
    # the two searches take turns, each turn twice as long as the one before and each search
    # starting afresh; the set partition first when its lists are short (little to spare)
    searches = [_partition, _direct] if spare <= PARTITION_FIRST else [_direct, _partition]
    turn = FIRST_TURN
    while steps.left > 0:
        steps.turn = min(steps.left, turn)
        try:
            better = searches[0](problem, cheapest)
        except SearchTooLong:
            searches.reverse()
            turn *= 2
            continue
        if better is None:
            return None
        return [[players[i] for i in members(mask)] for mask in better]
    raise SearchTooLong(f"no answer within {limit} steps")


def _direct(r: _Round, cheapest: list[int]) -> list[int] | None:  # noqa: ARG001 - as _partition
    """The direct search (see the module): each table's players as a bit mask, or ``None``."""
    count, n = len(r.sizes), r.n
    chosen: list[list[int]] = []
    places_after = [sorted(g for h in r.holders[t:] for g in h) for t in range(count + 1)]
    slots_after = [r.slots(range(t, count)) for t in range(count + 1)]
    # tables alike (same size, same score groups) take their players in increasing order
    alike = [t > 0 and r.sizes[t] == r.sizes[t - 1] and r.holders[t] == r.holders[t - 1]
             for t in range(count)]
    failed: dict[tuple[int, int], list[tuple[int, int, int]]] = {}

    def table(t: int, used: int, repeats: int, lack: int) -> list[int] | None:
        if t == count:
            return [sum(1 << i for i in c) for c in chosen]
        if repeats + r.forced(used, count - t) >= r.target:
            return None  # the players left who met cannot all go to different tables
        if lack + r.short(used, slots_after[t]) > r.lacking:
            return None  # the players left need more of some seats than the tables left have
        first = chosen[-1][0] + 1 if alike[t] and chosen[-1] else 0
        seen = failed.setdefault((t, used), [])
        if any(k <= repeats and x <= lack and f <= first for k, x, f in seen):
            return None  # the same players left failed with no more repeats or lack
        found = fill(t, 0, [], used, repeats, lack, first)
        if found is None:
            seen.append((repeats, lack, first))
        return found

    def fill(t: int, slot: int, at: list[int], used: int, repeats: int, lack: int,
             first: int) -> list[int] | None:
        r.steps()
        places = r.holders[t]
        if slot == len(places):
            lack += r.lack(at, r.sizes[t])
            if lack > r.lacking or not r.fits(used, places_after[t + 1]):
                return None
            chosen.append(at)
            found = table(t + 1, used, repeats, lack)
            chosen.pop()
            return found
        for i in range(at[-1] + 1 if at else first, n):
            if used >> i & 1 or r.level[i] < places[slot] - 1:
                continue
            if r.level[i] > places[slot] + 1:
                break
            more = repeats + (r.met[i] & sum(1 << j for j in at)).bit_count()
            if more >= r.target:
                continue
            if not r.fits(used | 1 << i, sorted([*places[slot + 1:], *places_after[t + 1]])):
                continue
            if lack + r.lack([*at, i], r.sizes[t]) > r.lacking:
                continue
            found = fill(t, slot + 1, [*at, i], used | 1 << i, more, lack, first)
            if found is not None:
                return found
        return None

    return table(0, 0, 0, 0)


def _listing(r: _Round, t: int, cap: int, least: bool) -> list[Candidate]:
    """Table ``t``'s candidates of at most ``cap`` repeats, cheapest first (``least``: only
    a cheapest one, the cap lowered as cheaper ones are found)."""
    places, size, level, met = r.holders[t], r.sizes[t], r.level, r.met
    out: list[Candidate] = []
    best = [cap]
    others = r.slots([u for u in range(len(r.sizes)) if u != t])

    def extend(slot: int, start: int, mask: int, repeats: int) -> None:
        r.steps(LIGHT)
        if slot == len(places):
            lack = r.lack(members(mask), size)
            if lack + r.short(mask, others) <= r.lacking:
                if least:
                    best[0] = repeats - 1
                    out[:] = [(repeats, lack, mask)]
                else:
                    out.append((repeats, lack, mask))
            return
        g = places[slot]
        for i in range(start, r.n):
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


def _partition(r: _Round, cheapest: list[int]) -> list[int] | None:
    """The set-partition search (see the module), given each table's ``cheapest`` candidate's
    repeats: each table's players as a bit mask, or ``None``."""
    count = len(r.sizes)
    spare = r.target - 1 - sum(cheapest)
    lists = [_listing(r, t, cheapest[t] + spare, False) for t in range(count)]
    order = sorted(range(count), key=lambda t: (len(lists[t]), r.sizes[t], r.holders[t]))
    # tables alike (same size, same score groups, so the same candidates) in list order
    alike = [d > 0 and r.sizes[order[d]] == r.sizes[order[d - 1]]
             and r.holders[order[d]] == r.holders[order[d - 1]] for d in range(count)]
    places_left = [sorted(g for t in order[d:] for g in r.holders[t]) for d in range(count + 1)]
    slots_left = [r.slots(order[d:]) for d in range(count + 1)]
    chosen = [0] * count
    index = [0] * count
    failed: dict[int, list[tuple[int, int, int]]] = {}

    def search(d: int, used: int, repeats: int, lack: int) -> bool:
        if d == count:
            return True
        first = index[d - 1] + 1 if alike[d] else 0
        seen = failed.setdefault(used, [])
        if any(k <= repeats and x <= lack and f <= first for k, x, f in seen):
            return False  # the same players left failed with no more repeats or lack
        floor = []  # the cheapest candidate each table left can still take
        for t in order[d:]:
            for scanned, (k, _, mask) in enumerate(lists[t], 1):
                if not mask & used:
                    r.steps(LIGHT * (1 + scanned // SCAN))
                    floor.append(k)
                    break
            else:
                r.steps(LIGHT * (1 + len(lists[t]) // SCAN))
                seen.append((repeats, lack, first))
                return False  # a table left has no players to take
        if (repeats + max(sum(floor), r.forced(used, count - d)) >= r.target
                or lack + r.short(used, slots_left[d]) > r.lacking
                or not r.fits(used, places_left[d])):
            seen.append((repeats, lack, first))
            return False
        t = order[d]
        cap = r.target - 1 - repeats - (sum(floor) - floor[0])
        for k in range(first, len(lists[t])):
            cost, more, mask = lists[t][k]
            r.steps(LIGHT)
            if cost > cap:
                break
            if mask & used or lack + more > r.lacking:
                continue
            chosen[t], index[d] = mask, k
            if search(d + 1, used | mask, repeats + cost, lack + more):
                return True
        seen.append((repeats, lack, first))
        return False

    return chosen if search(0, 0, 0, 0) else None


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
            for x in members(clique):
                covered[x] |= clique & ~(1 << x)
            out.append(clique)
    return out


def _seat_sets(needs: Sequence[int], width: int) -> list[int]:
    """The sets of seats that ``short`` tests: every set of the ``width`` seats when there are
    at most ``ALL_SEAT_SETS`` of them, else the players' needed seats and all seats (a weaker
    bound, still a bound)."""
    if 1 << width <= ALL_SEAT_SETS:
        return list(range(1 << width))
    every = (1 << width) - 1
    return sorted({m & every for m in needs} | {every})


def _spread(m: int, tables: int) -> int:
    """The fewest pairs among ``m`` players dealt to ``tables`` tables."""
    q, r = divmod(m, tables)
    return r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2


def _unmatched(table: Sequence[EntrantId | None], size: int, history: History) -> int:
    humans = [p for p in table if p is not BOT]
    return unmatched(tuple(sorted(history.needs(p) for p in humans)), size)
