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
"""

from __future__ import annotations

from collections.abc import Mapping

from palio.tournament.model import EntrantId, History
from palio.tournament.seating import unmatched

Cost = tuple[int, int, int, int]


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
    """Tables with no repeat and every seat balanced, found by a depth-first search that
    seats the highest-placed free player first with the nearest in the standings; ``None``
    when there is none or the search gives up after ``budget`` steps."""
    steps = 0

    def fits(table: list[EntrantId], size: int) -> bool:
        return not unmatched(tuple(sorted(history.needs(p) for p in table)), size)

    def search(free: list[EntrantId], t: int) -> list[list[EntrantId]] | None:
        nonlocal steps
        if t == len(humans):
            return []
        head, rest = free[0], free[1:]
        rest = sorted(rest, key=lambda p: abs(group[p] - group[head]))

        def grow(table: list[EntrantId], start: int) -> list[list[EntrantId]] | None:
            nonlocal steps
            steps += 1
            if steps > budget:
                return None
            if len(table) == humans[t]:
                left = [p for p in free if p not in table]
                found = search(left, t + 1)
                return None if found is None else [table, *found]
            for i in range(start, len(rest)):
                p = rest[i]
                if any(history.met(p, q) for q in table):
                    continue
                if not fits([*table, p], sizes[t]):
                    continue
                found = grow([*table, p], i + 1)
                if found is not None:
                    return found
                if steps > budget:
                    return None
            return None

        return grow([head], 0)

    return search(list(players), 0)
