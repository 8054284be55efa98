"""The pairing guarantees of docs/tournaments.md, checked on a simulated tournament with counts
of its own (only ``History.needs``, the seat rule, is shared with the pairing)."""

from __future__ import annotations

from itertools import combinations

from palio.tournament import BOT, PRESETS, Bye, History, TableResult, points, score_groups
from palio.tournament.seating import unmatched
from palio.tournament.simulate import Simulation
from palio.tournament.sizes import table_plan


def met_before(results, number):
    pairs = set()
    for r in results:
        if isinstance(r, TableResult) and r.round < number:
            humans = [p for p in r.seats if p is not BOT]
            pairs.update(frozenset(x) for x in combinations(humans, 2))
    return pairs


def repeat_pairs(table, met):
    humans = [p for p in table if p is not BOT]
    return sum(frozenset(x) in met for x in combinations(humans, 2))


def plan_round(history, planned, number, paired):
    """The seat rule of round ``number`` as the pairing had it (docs/tournaments.md): with the
    rounds fixed, the rounds left may even out a seat; at a round with short tables the seats
    of its players are planned together (``History.for_round``)."""
    players = [p for t in paired.tables for p in t if p is not BOT]
    history.for_round(None if planned is None else max(0, planned - number),
                      [len(t) for t in paired.tables], players)


def check_round_shape(sim: Simulation, seats: int, min_players: int, bots: bool) -> None:
    """Everyone still in is seated once (or sits out only when the table plan must), nobody
    withdrawn is seated, bots only where allowed, tables of a size the game allows."""
    for number, (paired, active) in enumerate(zip(sim.rounds, sim.active, strict=True), 1):
        seated = [p for t in paired.tables for p in t if p is not BOT]
        assert len(seated) == len(set(seated)), (number, paired)
        assert set(seated) | set(paired.sitting_out) == set(active), (number, paired, active)
        assert not set(seated) & set(paired.sitting_out)
        for table in paired.tables:
            assert len(table) <= seats
            assert len(table) >= max(2, min_players) or bots
            assert bots or BOT not in table
        plan = table_plan(len(active), seats, min_players, bots)
        assert len(paired.sitting_out) == plan.sitting_out, (number, paired)


def check_no_avoidable_repeat(sim: Simulation, seats: int, planned: int | None) -> None:
    """No exchange of two players between tables, within a score group and its neighbour,
    would remove a repeat meeting without leaving someone a seat they should not take."""
    for number, paired in enumerate(sim.rounds, 1):
        before = [r for r in sim.results if r.round < number]
        history = History.of(seats, before)
        plan_round(history, planned, number, paired)
        pts = points(before, PRESETS["bga"], seats)
        players = [p for t in paired.tables for p in t if p is not BOT]
        group = score_groups(players, pts)
        met = met_before(sim.results, number)
        tables = [list(t) for t in paired.tables]

        def cost(table, size, history=history, met=met):
            humans = [p for p in table if p is not BOT]
            masks = tuple(sorted(history.needs(p) for p in humans))
            return unmatched(masks, size), repeat_pairs(humans, met)

        for i, j in combinations(range(len(tables)), 2):
            ti, tj = tables[i], tables[j]
            old_i, old_j = cost(ti, len(ti)), cost(tj, len(tj))
            for a in (p for p in ti if p is not BOT):
                for b in (p for p in tj if p is not BOT):
                    if abs(group[a] - group[b]) > 1:
                        continue
                    ni = [b if p == a else p for p in ti]
                    nj = [a if p == b else p for p in tj]
                    new_i, new_j = cost(ni, len(ti)), cost(nj, len(tj))
                    seats_ok = new_i[0] + new_j[0] <= old_i[0] + old_j[0]
                    fewer = new_i[1] + new_j[1] < old_i[1] + old_j[1]
                    assert not (seats_ok and fewer), (number, ti, tj, a, b)


def seat_spread(sim: Simulation) -> int:
    """The widest gap between two seat counts of an entrant who played to the end (one who
    withdrew may leave with a seat short: the rounds that would even it out are not played;
    so may one who sat out a round while a seat of theirs was two ahead)."""
    counts: dict = {}
    stuck = set(sim.withdrawn)
    for number in range(1, len(sim.rounds) + 1):
        for r in sim.results:
            if r.round != number:
                continue
            if isinstance(r, Bye):
                c = counts.get(r.entrant, [0])
                if max(c) - min(c) > 1:
                    stuck.add(r.entrant)
                continue
            for s, p in enumerate(r.seats):
                if p is not BOT:
                    counts.setdefault(p, [0] * sim.seats)[s] += 1
    return max((max(c) - min(c) for p, c in counts.items() if p not in stuck), default=0)


def every_round_matched(sim: Simulation, seats: int, planned: int | None) -> bool:
    """Whether every table of every round could give each player a seat they needed
    (the pairing's first aim; when some round could not, a seat may run two ahead)."""
    for number, paired in enumerate(sim.rounds, 1):
        history = History.of(seats, [r for r in sim.results if r.round < number])
        plan_round(history, planned, number, paired)
        for table in paired.tables:
            humans = [p for p in table if p is not BOT]
            if unmatched(tuple(sorted(history.needs(p) for p in humans)), len(table)):
                return False
    return True


def planned_from_the_start(sim: Simulation, rounds: int) -> bool:
    """Whether the seats of every round were planned for the whole field from round 1: the
    rounds fixed, short tables (``seats`` and fewer mixed), ``seatplan`` finding a plan at
    round 1 for the rounds fixed, and the field never changing (nobody withdrew, entered late
    or sat out)."""
    if sim.withdrawn or not sim.rounds or any(r.sitting_out for r in sim.rounds):
        return False
    first = sim.rounds[0]
    field = {p for t in first.tables for p in t if p is not BOT}
    if field != {e.id for e in sim.entrants}:
        return False  # someone entered late
    history = History.of(sim.seats, [])
    history.for_round(rounds - 1, [len(t) for t in first.tables], field)
    return history.planned()
