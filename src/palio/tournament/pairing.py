"""One round of a Swiss or round-robin tournament, and arena tables from a waiting pool.

``pair_round`` is what a caller (the server's tournament module, ``palio tournament pair``)
uses: it reads the entrants, every finished table and bye so far, who withdrew and the table
size, and returns the next round's tables in seat order (``None`` for a bot).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from itertools import combinations

from palio.tournament import dutch
from palio.tournament.arrange import (
    arrangements,
    extendable,
    improve,
    perfect,
    seatings,
    table_cost,
)
from palio.tournament.audit import SearchTooLong, better_round
from palio.tournament.model import (
    BOT,
    FORMATS,
    Bye,
    Entrant,
    EntrantId,
    History,
    Round,
    TableResult,
    check_entrants,
    refuse,
)
from palio.tournament.scoring import PRESETS, Scoring, points
from palio.tournament.seating import seat_order, table_unmatched
from palio.tournament.sizes import table_plan

RESTARTS = 6  # best of this many shuffled starts while a repeat or an unbalanced seat remains
LOOK_AHEAD = 3  # planned rounds to come that a Swiss round keeps pairable with no repeat
AHEAD_BUDGET = 150_000  # search steps per round for that look-ahead (all candidates together)
AHEAD_CANDIDATES = 40  # arrangements of the round tried against it
# the same at a round with short tables, where the seats are planned for the whole field
# (``seatplan``): there repeats are mostly forced (10 at 3 seats meet 15 opponents in 5 rounds
# of tables 3, 3, 2, 2, a field of 9), and the full budget would be spent finding none
SHORT_AHEAD_BUDGET = 10_000
ALTERNATIVE_STEPS = 300_000  # search steps for a round with fewer repeats (``audit``), each try,
# as many as the tests' exact check has (with fewer it left seed 1,006,579 an avoidable round)


def pair_round(fmt: str, entrants: Sequence[Entrant], results: Sequence[TableResult | Bye], *,
               seats: int, min_players: int = 2, bots: bool = False,
               withdrawn: Collection[EntrantId] = (), rules: Scoring = PRESETS["bga"],
               seed: int = 0, engine: str = "auto", rounds: int | None = None,
               playing: Collection[EntrantId] = (), round_number: int | None = None) -> Round:
    """The next round. ``fmt``: ``swiss`` or ``roundrobin`` (an arena pairs from a waiting
    pool instead: ``arena_tables``). ``engine`` (Swiss at two seats only): ``auto`` or ``dutch``
    (FIDE Dutch through py4swiss), ``groups`` (Palio's own score-group pairing). ``rounds``: the
    planned number of rounds, if fixed: seat balance is then kept over the whole tournament
    rather than after every round, which leaves more room to avoid repeats.

    ``playing``: entrants still at an unfinished table of an earlier round (a round paired at
    its predecessor's deadline). They are not paired this round and not in its
    ``sitting_out`` (no bye: the caller records them as still playing); in a two-seat round
    robin their scheduled opponents sit out as a withdrawn entrant's do, and they are not
    taken for late entrants. ``round_number``: the round being paired (default: one after
    the latest result, which is wrong when a round's tables are all unfinished)."""
    if fmt not in FORMATS or fmt == "arena":
        raise refuse("unknown_format", f"{fmt!r} is paired round by round only for swiss and "
                     "roundrobin", name=fmt)
    if engine not in ("auto", "dutch", "groups"):
        raise refuse("unknown_engine", f"unknown engine {engine!r}", name=engine)
    check_entrants(entrants, withdrawn)
    check_entrants(entrants, playing, "playing")
    table_plan(0, seats, min_players)  # refuses a table size the game cannot seat
    if round_number is None:
        round_number = 1 + max((r.round for r in results), default=0)
    rng = random.Random(f"{seed}:{round_number}")
    absent = set(withdrawn) | set(playing)  # not paired this round
    if fmt == "roundrobin":
        if seats == 2:
            return berger_round(entrants, results, round_number, absent, bots, playing)
        return _round_robin(entrants, results, seats, min_players, bots, absent, rng,
                            _left(rounds, round_number))
    if seats == 2 and engine in ("auto", "dutch"):
        paired = dutch.dutch_round(entrants, results, absent, bots, round_number - 1)
        if paired is not None:
            return paired
    return _swiss(entrants, results, seats, min_players, bots, absent, rules, rng,
                  _left(rounds, round_number))


def _left(rounds: int | None, round_number: int) -> int | None:
    return None if rounds is None else max(0, rounds - round_number)


def _order(entrants: Sequence[Entrant], pts: dict[EntrantId, float]) -> list[EntrantId]:
    index = {e.id: i for i, e in enumerate(entrants)}
    return [e.id for e in sorted(entrants, key=lambda e: (
        -pts.get(e.id, 0.0), -(e.rating or 0.0), index[e.id]))]


def _sitting_out(order: list[EntrantId], count: int, history: History) -> list[EntrantId]:
    """Who sits out: the fewest byes so far, then those whose seats are even (one whose seat
    ran ahead needs the rounds left to even it out), then the lowest in the standings."""
    if count == 0:
        return []
    position = {p: i for i, p in enumerate(order)}

    def uneven(p: EntrantId) -> bool:
        counts = history.counts(p)
        return max(counts) - min(counts) > 1

    return sorted(order, key=lambda p: (history.byes[p], uneven(p), -position[p]))[:count]


def _deal(players: list[EntrantId], humans: Sequence[int]) -> list[list[EntrantId]]:
    tables, start = [], 0
    for size in humans:
        tables.append(players[start:start + size])
        start += size
    return tables


def _fold(players: list[EntrantId], humans: Sequence[int]) -> list[list[EntrantId]]:
    """First round: table t takes players t, t + T, t + 2T... of the seeding (strong with
    weaker, as the Dutch system's top half against bottom half)."""
    tables: list[list[EntrantId]] = [[] for _ in humans]
    t = 0
    for p in players:
        while len(tables[t % len(tables)]) >= humans[t % len(tables)]:
            t += 1
        tables[t % len(tables)].append(p)
        t += 1
    return tables


def _deal_groups(players: list[EntrantId], humans: Sequence[int],
                 group: dict[EntrantId, int]) -> list[list[EntrantId]]:
    """Tables in standings order; where several tables in a row hold one score group only,
    that group is folded across them (its top half meets its bottom half, as in the Dutch
    system) rather than dealt in order."""
    tables = _deal(players, humans)
    out: list[list[EntrantId]] = []
    i = 0
    while i < len(tables):
        j = i
        level = {group[p] for p in tables[i]}
        while j + 1 < len(tables) and len(level) == 1 and {group[p] for p in tables[j + 1]} == level:
            j += 1
        run = [p for t in tables[i:j + 1] for p in t]
        out.extend(_fold(run, [len(t) for t in tables[i:j + 1]]) if j > i else [tables[i]])
        i = j + 1
    return out


def _seated(tables: list[list[EntrantId]], sizes: Sequence[int], history: History,
            rng: random.Random, out: Sequence[EntrantId]) -> Round:
    return Round(tuple(seat_order(t, s, history, rng) for t, s in zip(tables, sizes, strict=True)),
                 tuple(out))


def _swiss(entrants: Sequence[Entrant], results: Sequence[TableResult | Bye], seats: int,
           min_players: int, bots: bool, withdrawn: Collection[EntrantId], rules: Scoring,
           rng: random.Random, left: int | None) -> Round:
    history = History.of(seats, results)
    pts = points(results, rules, seats)
    gone = set(withdrawn)
    active = [e for e in entrants if e.id not in gone]
    order = _order(active, pts)
    plan = table_plan(len(order), seats, min_players, bots)
    out = _sitting_out(order, plan.sitting_out, history)
    players = [p for p in order if p not in out]
    group = score_groups(players, pts)
    sizes = [h + b for h, b in zip(plan.humans, plan.bots, strict=True)]
    history.for_round(left, sizes, players)
    first = not any(history.played[p] for p in players)
    start = _fold(players, plan.humans) if first else _deal_groups(players, plan.humans, group)
    tables = improve(start, sizes, history, group)
    cost = _total(tables, sizes, history, group)
    # (none at a first round, where every arrangement is any other with the players renamed;
    # when some sit out, the rounds to come are planned for those who play this one)
    if left and not first:
        ahead = _ahead(players, list(plan.humans), sizes, history, group, tables, left)
        if ahead is not None:
            return Round(tuple(ahead), tuple(out))
    if cost[:2] != (0, 0):
        found = perfect(players, list(plan.humans), sizes, history, group)
        if found is not None:
            tables, cost = found, _total(found, sizes, history, group)
    for _ in range(RESTARTS):
        if cost[:2] == (0, 0):
            break
        # again from the standings with players shuffled inside their score groups
        shuffled = sorted(players, key=lambda p: (group[p], rng.random()))
        again = improve(_deal(shuffled, plan.humans), sizes, history, group)
        if _total(again, sizes, history, group) < cost:
            tables, cost = again, _total(again, sizes, history, group)
    tables = _fewer_repeats(tables, sizes, history, group)
    return _seated(tables, sizes, history, rng, out)


def _fewer_repeats(tables: list[list[EntrantId]], sizes: Sequence[int], history: History,
                   group: dict[EntrantId, int]) -> list[list[EntrantId]]:
    """While a repeat is left, the issue's test of it: another round with each place taken
    within one score group of its player, fewer repeats and seats as well kept (a search of
    every such round, not only of exchanges; given up after ``ALTERNATIVE_STEPS``)."""
    for _ in range(len(tables) * max(sizes, default=0)):
        padded = [[*t, *[BOT] * (s - len(t))] for t, s in zip(tables, sizes, strict=True)]
        try:
            better = better_round(padded, history, group, ALTERNATIVE_STEPS)
        except SearchTooLong:
            return tables
        if better is None:
            return tables
        tables = improve(better, list(sizes), history, group)
    return tables


def _ahead(players: list[EntrantId], humans: list[int], sizes: list[int], history: History,
           group: dict[EntrantId, int], tables: list[list[EntrantId]], left: int | None
           ) -> list[tuple[EntrantId | None, ...]] | None:
    """With ``left`` planned rounds to come: this round's tables in seat order, with no repeat
    and seats balanced, after which those rounds (up to ``LOOK_AHEAD``) can still be paired
    the same way (``tables`` when they are such, else the first such arrangement found), or
    ``None`` when the search finds none within its budget (the caller then pairs this round
    alone). Without it a Swiss pairing may reach its last round with every arrangement
    repeating someone's opponent (12 entrants at 3 seats, 4 rounds: about one tournament in
    two)."""
    depth = min(left or 0, LOOK_AHEAD)
    if depth == 0:
        return None
    budget = [AHEAD_BUDGET if history.supply is None else SHORT_AHEAD_BUDGET]

    def keeps(found: list[list[EntrantId]]) -> list[tuple[EntrantId | None, ...]] | None:
        for order in seatings(found, sizes, history):
            if extendable(players, humans, sizes, history, order, depth, budget):
                return order
            if budget[0] < 0:
                return None
        return None

    if _total(tables, sizes, history, group)[:2] == (0, 0):
        order = keeps(tables)
        if order is not None:
            return order
    for tried, found in enumerate(arrangements(players, humans, sizes, history, group,
                                               budget)):
        if tried >= AHEAD_CANDIDATES or budget[0] < 0:
            return None
        better = improve(found, sizes, history, group)
        if _total(better, sizes, history, group) < _total(found, sizes, history, group):
            order = keeps(better)
            if order is not None:
                return order
        order = keeps(found)
        if order is not None:
            return order
    return None


def _total(tables: list[list[EntrantId]], sizes: Sequence[int], history: History,
           group: dict[EntrantId, int]) -> tuple[int, ...]:
    costs = [table_cost(t, s, history, group) for t, s in zip(tables, sizes, strict=True)]
    return tuple(map(sum, zip(*costs, strict=True))) if costs else (0, 0, 0, 0)


def score_groups(players: Sequence[EntrantId], pts: dict[EntrantId, float]
                 ) -> dict[EntrantId, int]:
    """Each player's score group: 0 for the highest points, 1 for the next, and so on."""
    levels = sorted({round(pts.get(p, 0.0), 9) for p in players}, reverse=True)
    index = {v: i for i, v in enumerate(levels)}
    return {p: index[round(pts.get(p, 0.0), 9)] for p in players}


def _round_robin(entrants: Sequence[Entrant], results: Sequence[TableResult | Bye], seats: int,
                 min_players: int, bots: bool, withdrawn: Collection[EntrantId],
                 rng: random.Random, left: int | None) -> Round:
    """Tables of 3-5 seats: the arrangement with the fewest pairs who have already met (and
    balanced seats), best of a few shuffled starts; every pair meets before any meets twice
    wherever the exchanges find it."""
    history = History.of(seats, results)
    gone = set(withdrawn)
    active = [e.id for e in entrants if e.id not in gone]
    plan = table_plan(len(active), seats, min_players, bots)
    out = _sitting_out(active[::-1], plan.sitting_out, history)
    players = [p for p in active if p not in out]
    group = dict.fromkeys(players, 0)
    sizes = [h + b for h, b in zip(plan.humans, plan.bots, strict=True)]
    history.for_round(left, sizes, players)
    best, best_cost = None, None
    for _ in range(RESTARTS):
        rng.shuffle(players)
        tables = improve(_deal(players, plan.humans), sizes, history, group)
        cost = _total(tables, sizes, history, group)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost[:2] == (0, 0):
            break
    if left and not out and best is not None:  # keep the rounds to come repeat-free
        ahead = _ahead(players, list(plan.humans), sizes, history, group, best, left)
        if ahead is not None:
            return Round(tuple(ahead), tuple(out))
    if best_cost is not None and best_cost[:2] != (0, 0):
        found = perfect(players, list(plan.humans), sizes, history, group)
        if found is not None:
            best = found
    return _seated(best or [], sizes, history, rng, out)


def berger_pairs(n: int, round_number: int) -> list[tuple[int, int]]:
    """FIDE's Berger table for ``n`` players (an odd count gets a dummy ``n + 1``, whose
    opponent sits out): the 1-based (white, black) numbers of round ``round_number``; rounds
    past the first cycle repeat it with colours swapped (a double round robin)."""
    if n % 2:
        n += 1
    m = n - 1
    r = (round_number - 1) % m + 1
    target = (r + 1) % m
    pairs: list[tuple[int, int]] = []
    for i in range(1, n):
        for j in range(i + 1, n):
            if (i + j) % m == target:
                pairs.append((i, j) if (j - i) % 2 else (j, i))
        if (2 * i) % m == target:
            pairs.append((n, i) if r % 2 == 0 else (i, n))
    if (round_number - 1) // m % 2:  # a second cycle swaps the colours of the first
        pairs = [(b, a) for a, b in pairs]
    return pairs


def berger_round(entrants: Sequence[Entrant], results: Sequence[TableResult | Bye],
                 round_number: int, withdrawn: Collection[EntrantId], bots: bool,
                 playing: Collection[EntrantId] = ()) -> Round:
    """All-play-all at two seats by the Berger tables over the entrants in their given order.
    A withdrawn entrant's opponent sits out (or meets a bot where allowed); so does the
    opponent of one still ``playing`` an earlier round (who is in ``withdrawn`` too, for this
    round). The order is fixed when round 1 is paired, so a late entry is refused."""
    seen = {p for r in results for p in (r.seats if isinstance(r, TableResult) else (r.entrant,))}
    seen |= set(playing)  # seated at a table not finished yet: not a late entrant
    late = [e.id for e in entrants if round_number > 1 and e.id not in seen]
    if late:
        raise refuse("late_round_robin", "a two-seat round robin follows the Berger tables "
                     "fixed at round 1 and takes no late entry", entrant=str(late[0]))
    ids = [e.id for e in entrants]
    gone = set(withdrawn)
    tables: list[tuple[EntrantId | None, ...]] = []
    out: list[EntrantId] = []
    for white, black in berger_pairs(len(ids), round_number):
        pair = [ids[x - 1] if x <= len(ids) and ids[x - 1] not in gone else BOT
                for x in (white, black)]
        present = [p for p in pair if p is not BOT]
        if len(present) == 2 or (present and bots):
            tables.append(tuple(pair))
        else:
            out.extend(present)
    return Round(tuple(tables), tuple(out))


def arena_tables(waiting: Sequence[EntrantId], ranking: Sequence[EntrantId],
                 results: Sequence[TableResult | Bye], *, seats: int, window: int = 4,
                 recent: int = 2, seed: int = 0) -> tuple[Round, list[EntrantId]]:
    """Arena pairing: tables for the entrants waiting (longest-waiting first), each with
    waiting players within ``window`` places of them in ``ranking`` where there are enough
    (else, or where only a table beyond the window avoids a recent opponent, the nearest
    waiting), avoiding anyone met in their last ``recent`` tables, then
    balancing seats, then nearest in rank. Returns the tables and who still waits (fewer than
    ``seats`` left)."""
    if len(set(waiting)) != len(waiting):
        raise refuse("duplicate_entrant", "an entrant waits twice")
    position = {p: i for i, p in enumerate(ranking)}
    missing = [p for p in waiting if p not in position]
    if missing:
        raise refuse("unknown_entrant", f"waiting entrant {missing[0]!r} is not ranked",
                     entrant=str(missing[0]))
    history = History.of(seats, results)
    rng = random.Random(seed)
    pool = list(waiting)
    tables = []
    while len(pool) >= seats:
        anchor = pool.pop(0)
        near = sorted(pool, key=lambda p: abs(position[p] - position[anchor]))
        inside = [p for p in near if abs(position[p] - position[anchor]) <= window]
        best, best_key = None, None
        # within the window first; beyond it only where that avoids a recent opponent
        for candidates in (inside[:8] if len(inside) >= seats - 1 else [], near[:8]):
            if best_key is not None and best_key[0] == 0:
                break
            for others in combinations(candidates, seats - 1):
                table = [anchor, *others]
                key = (recent_meetings(table, history, recent),
                       table_unmatched(table, seats, history),
                       sum(abs(position[p] - position[anchor]) for p in others))
                if best_key is None or key < best_key:
                    best, best_key = table, key
        assert best is not None
        for p in best[1:]:
            pool.remove(p)
        tables.append(seat_order(best, seats, history, rng))
    return Round(tuple(tables)), pool


def same_table_again(table: Sequence[EntrantId], history: History) -> bool:
    """Whether everyone at ``table`` sat together at their last table (the same opponents
    again, straight away)."""
    last = {p: history.opponents[p][-(history.seats - 1):] for p in table}
    return all(b in last[a] for i, a in enumerate(table) for b in table[i + 1:])


def recent_meetings(table: Sequence[EntrantId], history: History, recent: int) -> int:
    """Pairs at ``table`` where one met the other in their last ``recent`` tables."""
    count = 0
    for i, a in enumerate(table):
        for b in table[i + 1:]:
            last_a = history.opponents[a][-recent * (history.seats - 1):] if recent else []
            last_b = history.opponents[b][-recent * (history.seats - 1):] if recent else []
            count += b in last_a or a in last_b
    return count
