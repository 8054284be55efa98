"""Random tournaments: the pairing run round after round on random results, for
``palio tournament pair`` and the property tests.

Results are random places (a tie at a table one time in ten). Optional withdrawals and late
entries happen between rounds at random. An arena runs in ticks: every table lasts one to
three ticks at random, its players wait again when it ends, and each tick pairs whoever waits;
each tick's new tables (if any) are one "round" of the output.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from palio.tournament.audit import SearchTooLong, better_round, round_repeats
from palio.tournament.model import BOT, Bye, Entrant, EntrantId, History, Round, TableResult
from palio.tournament.pairing import arena_tables, pair_round, score_groups
from palio.tournament.scoring import PRESETS, Scoring, points, standings


@dataclass
class Simulation:
    seats: int
    entrants: list[Entrant] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    results: list[TableResult | Bye] = field(default_factory=list)
    withdrawn: list[EntrantId] = field(default_factory=list)
    # per round: the entrants who could play it and the withdrawn before it
    active: list[list[EntrantId]] = field(default_factory=list)

    def history(self) -> History:
        return History.of(self.seats, self.results)

    def seat_spread(self) -> int:
        """The largest gap between two seat counts of any one entrant."""
        counts = self.history().seat_counts.values()
        return max((max(c) - min(c) for c in counts), default=0)

    def repeats(self) -> int:
        """Pairs of entrants who met more than once (each extra meeting counted)."""
        return sum(n - 1 for n in self.history().meetings.values() if n > 1)


def random_places(size: int, rng: random.Random) -> tuple[int, ...]:
    order = list(range(size))
    rng.shuffle(order)
    places = [0] * size
    for rank, seat in enumerate(order):
        places[seat] = rank + 1
    if size >= 2 and rng.random() < 0.1:  # the last two tie
        a, b = order[-2], order[-1]
        places[b] = places[a]
    return tuple(places)


def simulate(fmt: str, players: int, seats: int, rounds: int, seed: int, *,
             min_players: int = 2, bots: bool = False, rules: Scoring = PRESETS["bga"],
             withdrawals: int = 0, late: int = 0, engine: str = "auto",
             ratings: bool = False, planned: bool = True) -> Simulation:
    rng = random.Random(seed)
    sim = Simulation(seats)
    next_id = 1

    def enter() -> None:
        nonlocal next_id
        rating = float(rng.randint(1000, 2000)) if ratings else None
        sim.entrants.append(Entrant(next_id, rating))
        next_id += 1

    for _ in range(players):
        enter()
    if fmt == "arena":
        _arena(sim, rounds, rng, withdrawals, late, enter, rules)
        return sim
    late_rounds = [rng.randint(2, max(2, rounds)) for _ in range(late)]
    quit_rounds = [rng.randint(2, max(2, rounds)) for _ in range(withdrawals)]
    for number in range(1, rounds + 1):
        for _ in range(late_rounds.count(number)):
            enter()
        for _ in range(quit_rounds.count(number)):
            still = [e.id for e in sim.entrants if e.id not in sim.withdrawn]
            if len(still) > seats:
                sim.withdrawn.append(rng.choice(still))
        sim.active.append([e.id for e in sim.entrants if e.id not in sim.withdrawn])
        paired = pair_round(fmt, sim.entrants, sim.results, seats=seats, min_players=min_players,
                            bots=bots, withdrawn=sim.withdrawn, rules=rules,
                            seed=seed, engine=engine, rounds=rounds if planned else None)
        _play(sim, paired, number, rng)
    return sim


def _play(sim: Simulation, paired: Round, number: int, rng: random.Random) -> None:
    sim.rounds.append(paired)
    for table in paired.tables:
        sim.results.append(TableResult(number, table, random_places(len(table), rng)))
    for player in paired.sitting_out:
        sim.results.append(Bye(number, player))


def _arena(sim: Simulation, rounds: int, rng: random.Random, withdrawals: int, late: int,
           enter, rules: Scoring) -> None:  # noqa: ANN001 - the simulator's own closure
    waiting = [e.id for e in sim.entrants]
    rng.shuffle(waiting)
    playing: list[tuple[int, tuple[EntrantId | None, ...]]] = []  # (ends at tick, table)
    target = rounds * len(sim.entrants)  # about ``rounds`` games each
    seats_taken = 0
    tick = 0
    ticks_late = Counter(rng.randint(1, 3 * rounds) for _ in range(late))
    ticks_quit = Counter(rng.randint(1, 3 * rounds) for _ in range(withdrawals))
    while seats_taken < target and tick < 20 * rounds + 20:
        tick += 1
        for _ in range(ticks_late[tick]):
            enter()
            waiting.append(sim.entrants[-1].id)
        for _ in range(ticks_quit[tick]):
            if waiting:  # a waiting player leaves the arena
                sim.withdrawn.append(waiting.pop(rng.randrange(len(waiting))))
        for end, table in [t for t in playing if t[0] == tick]:
            playing.remove((end, table))
            sim.results.append(TableResult(tick, table, random_places(len(table), rng)))
            waiting.extend(p for p in table if p is not BOT)
        order = [s.entrant for s in standings(sim.entrants, sim.results, rules, sim.seats,
                                              tie_breaks=())]
        pool = list(waiting)
        paired, waiting = arena_tables(waiting, order, sim.results, seats=sim.seats,
                                       seed=rng.randrange(1 << 30))
        if paired.tables:  # a tick that seats nobody is no round
            sim.active.append(pool)
            sim.rounds.append(paired)
        for table in paired.tables:
            playing.append((tick + rng.randint(1, 3), table))
            seats_taken += len(table)


def avoidable_rounds(sim: Simulation, planned: int | None, rules: Scoring = PRESETS["bga"],
                     limit: int = 1_000_000, gave_up: list[int] | None = None
                     ) -> list[tuple[int, list[list[EntrantId]]]]:
    """The rounds of a simulated Swiss tournament whose repeats were avoidable, each with an
    alternative (``better_round``); ``planned``: the number of rounds, if it was fixed (a seat
    may then run ahead while the rounds left can even it out; at a round with short tables the
    seats are planned for the field: ``History.for_round``, the pairing's own rule). A round
    whose search runs past ``limit`` steps raises ``SearchTooLong``, or, given a ``gave_up``
    list, is added to it (its number) and the rounds after it are still checked."""
    found = []
    for number, paired in enumerate(sim.rounds, 1):
        before = [r for r in sim.results if r.round < number]
        history = History.of(sim.seats, before)
        seated = [p for t in paired.tables for p in t if p is not BOT]
        history.for_round(None if planned is None else max(0, planned - number),
                          [len(t) for t in paired.tables], seated)
        group = score_groups(seated, points(before, rules, sim.seats))
        try:
            better = better_round(paired.tables, history, group, limit)
        except SearchTooLong:
            if gave_up is None:
                raise
            gave_up.append(number)
            continue
        if better is not None:
            found.append((number, better))
    return found


def repeats_by_round(sim: Simulation) -> list[int]:
    """Each round's pairs who had met before it."""
    return [round_repeats(paired.tables,
                          History.of(sim.seats, [r for r in sim.results if r.round < number
                                                 and isinstance(r, TableResult)]))
            for number, paired in enumerate(sim.rounds, 1)]
