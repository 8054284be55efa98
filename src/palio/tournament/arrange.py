"""Tables from an ordered list of players, improved by exchanging players between tables.

The cost of a table, compared in this order (lexicographically, summed over tables):

1. ``unmatched``: players who cannot get a seat they need (``seating``): seat balance first;
2. ``repeats``: pairs at the table who have met before;
3. ``meetings``: how many times in all those pairs have met;
4. ``spread``: the squared distance in score groups between every two players at the table.

Starting from the tables the caller deals, ``improve`` tries every exchange of two players at
different tables and keeps one that lowers the cost, until none does. Any two players may be
exchanged (as FIDE's systems float a player as far as it takes to avoid a rematch); score-group
distance is the last criterion. So when the pairing is done, no exchange, and in particular
none within a score group and its neighbour, removes a repeat without unbalancing a seat: the
property ``tests/tournament`` checks with its own count.

``arrangements`` lists rounds with no repeat and seats balanced by a bounded depth-first
search; ``extendable`` tells whether, after a round, more such rounds can follow (the pairing's
look-ahead when the number of rounds is fixed).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import permutations, product

from palio.tournament.model import BOT, EntrantId, History, members
from palio.tournament.seating import seat_order, unmatched

Cost = tuple[int, int, int, int]
SEATINGS = 64  # seat orders of one planned round tried by the look-ahead


def table_cost(players: list[EntrantId], size: int, history: History,
               group: Mapping[EntrantId, int]) -> Cost:
    masks = tuple(sorted(history.needs(p) for p in players))
    repeats = meetings = spread = 0
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            met = history.met(a, b)
            repeats += met > 0
            meetings += met
            spread += (group[a] - group[b]) ** 2
    return (unmatched(masks, size), repeats, meetings, spread)


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def improve(tables: list[list[EntrantId]], sizes: list[int], history: History,
            group: Mapping[EntrantId, int], max_passes: int = 50) -> list[list[EntrantId]]:
    """Exchange players between tables while that lowers the total cost (see the module)."""
    tables = [list(t) for t in tables]
    costs = [table_cost(t, s, history, group) for t, s in zip(tables, sizes, strict=True)]
    for _ in range(max_passes):
        changed = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                if _improve_pair(tables, costs, sizes, i, j, history, group):
                    changed = True
        if not changed:
            break
    return tables


def _improve_pair(tables: list[list[EntrantId]], costs: list[Cost], sizes: list[int], i: int,
                  j: int, history: History, group: Mapping[EntrantId, int]) -> bool:
    changed = False
    a_index = 0
    while a_index < len(tables[i]):
        for b_index in range(len(tables[j])):
            a, b = tables[i][a_index], tables[j][b_index]
            new_i = tables[i][:a_index] + [b] + tables[i][a_index + 1:]
            new_j = tables[j][:b_index] + [a] + tables[j][b_index + 1:]
            cost_i = table_cost(new_i, sizes[i], history, group)
            cost_j = table_cost(new_j, sizes[j], history, group)
            old, new = _add(costs[i], costs[j]), _add(cost_i, cost_j)
            if new < old:
                tables[i], tables[j], costs[i], costs[j] = new_i, new_j, cost_i, cost_j
                changed = True
                break
        a_index += 1
    return changed


def perfect(players: list[EntrantId], humans: list[int], sizes: list[int], history: History,
            group: Mapping[EntrantId, int], budget: int = 20_000
            ) -> list[list[EntrantId]] | None:
    """Tables with no repeat and every seat balanced, or ``None`` when there is none or the
    search gives up after ``budget`` steps (see ``arrangements``)."""
    return next(arrangements(players, humans, sizes, history, group, [budget]), None)


def arrangements(players: list[EntrantId], humans: list[int], sizes: list[int],
                 history: History, group: Mapping[EntrantId, int], budget: list[int]
                 ) -> Iterator[list[list[EntrantId]]]:
    """Every arrangement with no repeat and every seat balanced, while ``budget[0]`` steps
    last (it is spent in place).

    A depth-first search over bit masks: each table starts from the free player with the
    fewest possible partners left (ties: the highest placed), takes partners nearest in score
    group first, and a branch is dropped as soon as some free player has too few possible
    partners left to fill the smallest table."""
    n = len(players)
    budget[0] -= n  # (the set-up below costs about as much as n steps of the search)
    needs = [history.needs(p) for p in players]
    widest = max(sizes, default=0)
    index = {p: i for i, p in enumerate(players)}
    with_mask: dict[int, int] = {}  # players by the seats they need
    for i, mask in enumerate(needs):
        with_mask[mask] = with_mask.get(mask, 0) | 1 << i
    seatable = {a: sum(bits for b, bits in with_mask.items()
                       if not unmatched(tuple(sorted((a, b))), widest))
                for a in with_mask}
    free_of = []  # bit j set: players i and j have not met and can share a table's seats
    for i, a in enumerate(players):
        met = 1 << i
        for q in history.opponents.get(a, ()):
            if q in index:
                met |= 1 << index[q]
        free_of.append(seatable[needs[i]] & ~met)
    level = [group[p] for p in players]

    def fits(table: list[int], size: int) -> bool:
        return not unmatched(tuple(sorted(needs[i] for i in table)), size)

    def tables(free: int, t: int) -> Iterator[list[list[int]]]:
        if t == len(humans):
            yield []
            return
        least = min(humans[t:]) - 1
        head, head_options = -1, n + 1
        for i in members(free):
            options = (free_of[i] & free).bit_count()
            if options < least:
                return  # someone can no longer be seated without a repeat
            if options < head_options:
                head, head_options = i, options
        if not fits([head], sizes[t]):
            return
        rest = sorted(members(free_of[head] & free), key=lambda j: (abs(level[j] - level[head]), j))

        def grow(table: list[int], allowed: int, start: int) -> Iterator[list[list[int]]]:
            budget[0] -= 1
            if budget[0] < 0:
                return
            if len(table) == humans[t]:
                taken = sum(1 << i for i in table)
                for others in tables(free & ~taken, t + 1):
                    yield [table, *others]
                return
            for k in range(start, len(rest)):
                j = rest[k]
                if allowed >> j & 1 and fits([*table, j], sizes[t]):
                    yield from grow([*table, j], allowed & free_of[j], k + 1)
                if budget[0] < 0:
                    return

        yield from grow([head], free_of[head] & free, 0)

    for found in tables((1 << n) - 1, 0):
        yield [[players[i] for i in table] for table in found]


def seated(tables: list[list[EntrantId]], sizes: list[int], history: History
           ) -> list[tuple[EntrantId | None, ...]]:
    """The tables in seat order by ``seat_order``, ties broken by a draw seeded with the
    table's players: a round planned ahead is seated the same when it comes."""
    out = []
    for table, size in zip(tables, sizes, strict=True):
        players = sorted(table, key=repr)
        out.append(seat_order(players, size, history, random.Random(repr(players))))
    return out


def seatings(tables: list[list[EntrantId]], sizes: list[int], history: History,
             most: int = SEATINGS) -> Iterator[list[tuple[EntrantId | None, ...]]]:
    """Seat orders for the round ``tables``, each player at a seat they need: ``seated``'s
    first, then the others (at most ``most`` in all; bots in the seats left)."""
    first = seated(tables, sizes, history)
    yield first
    options = []
    for table, size in zip(tables, sizes, strict=True):
        needs = [history.needs(p) for p in table]
        orders = []
        for places in permutations(range(size), len(table)):
            if all(needs[i] >> s & 1 for i, s in enumerate(places)):
                order: list[EntrantId | None] = [BOT] * size
                for p, s in zip(table, places, strict=True):
                    order[s] = p
                orders.append(tuple(order))
        options.append(orders or [first[len(options)]])
    count = 1
    for choice in product(*options):
        if count >= most:
            return
        if list(choice) != first:
            count += 1
            yield list(choice)


def extendable(players: list[EntrantId], humans: list[int], sizes: list[int], history: History,
               seated_tables: Sequence[Sequence[EntrantId | None]], rounds: int,
               budget: list[int]) -> bool:
    """Whether, after the tables ``seated_tables`` (in seat order), ``rounds`` more rounds of the
    same players at the same table sizes can still be paired with no repeat and seats
    balanced (score groups aside, as the results to come are unknown; a round followed by
    another seated in any way ``seatings`` gives, the last by ``seated``); ``False`` too when
    ``budget[0]`` steps run out."""
    if rounds <= 0:
        return True
    if len(seated_tables) < max(humans, default=0):
        return False  # a table of the next round would need players from as many tables
    after = history.copy()
    for table in seated_tables:
        after.add(table)
    after.left = None if history.left is None else max(0, history.left - 1)
    flat = dict.fromkeys(players, 0)
    for later in arrangements(players, humans, sizes, after, flat, budget):
        if rounds == 1:
            return True
        for order in seatings(later, sizes, after):
            budget[0] -= 1
            if extendable(players, humans, sizes, after, order, rounds - 1, budget):
                return True
            if budget[0] < 0:
                return False
        if budget[0] < 0:
            return False
    return False


