"""Pairing quality over seeded random tournaments (random results, withdrawals, late entries):
a moderate number by default, 10,000 per format with ``pytest -m slow``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations

import pytest

from palio.tournament import (
    Entrant,
    History,
    TableResult,
    TournamentError,
    berger_pairs,
    pair_round,
)
from palio.tournament.arrange import extendable, perfect
from palio.tournament.simulate import avoidable_rounds, simulate
from palio.tournament.sizes import table_plan
from tests.tournament.properties import (
    check_no_avoidable_repeat,
    check_round_shape,
    every_round_matched,
    planned_from_the_start,
    seat_spread,
)

SLOW_TOURNAMENTS = 10_000
PLANNED_TOURNAMENTS = 300  # per format, each with a seat plan from round 1 (slow)
AUDIT_STEPS = 300_000  # the exact check's limit a round (as the pairing's own try)
# tournaments of the slow test where the exact check may give up on some round (past
# ``AUDIT_STEPS``: no answer either way, the property unproven there), listed in its output:
# at most 0.1 %, 10 of 10,000
GIVE_UP_SHARE = 0.001


def random_setup(rng: random.Random, fmt: str):
    seats = {"berger": 2, "roundrobin": rng.randint(3, 5)}.get(fmt) or rng.randint(2, 5)
    min_players = rng.choice([2, seats]) if seats > 2 else 2
    return dict(
        players=rng.randint(seats, 4 * seats + 3),
        seats=seats,
        rounds=rng.randint(2, 6),
        min_players=min_players,
        bots=rng.random() < 0.4,
        withdrawals=0 if fmt == "berger" else rng.randint(0, 2),
        late=0 if fmt == "berger" else rng.randint(0, 2),
    )


@dataclass
class Outcome:
    """One random tournament checked: for Swiss and round robin, whether all its tables were
    full and whether every seat count ended within one; for Swiss, the rounds on which the
    exact check gave up (past ``AUDIT_STEPS``)."""

    full: bool = False
    balanced: bool = False
    gave_up: list[int] = field(default_factory=list)


def run_format(fmt: str, seed: int) -> Outcome:
    """Check one random tournament (every guarantee that fails fails the test)."""
    rng = random.Random(seed)
    setup = random_setup(rng, fmt)
    seats, bots = setup["seats"], setup["bots"]
    pairing = "roundrobin" if fmt == "berger" else fmt
    engine = "groups" if fmt == "swiss" else "auto"
    sim = simulate(pairing, setup["players"], seats, setup["rounds"], seed,
                   min_players=setup["min_players"], bots=bots,
                   withdrawals=setup["withdrawals"], late=setup["late"], engine=engine)
    context = (fmt, seed, setup)
    outcome = Outcome()
    if fmt != "arena":
        check_round_shape(sim, seats, setup["min_players"], bots)
    if fmt == "swiss":  # issue 38's criterion, checked exactly (a search too long: no answer)
        assert avoidable_rounds(sim, setup["rounds"], limit=AUDIT_STEPS,
                                gave_up=outcome.gave_up) == [], context
    if fmt in ("swiss", "roundrobin"):
        check_no_avoidable_repeat(sim, seats, setup["rounds"])
        # every table full and every round matched: seats within one of each other
        full = all(len(t) == seats for r in sim.rounds for t in r.tables)
        if full and every_round_matched(sim, seats, setup["rounds"]):
            assert seat_spread(sim) <= 1, context
        # short tables with a seat plan from round 1 and the same field throughout: the plan
        # brings every seat within one (``seatplan``)
        if planned_from_the_start(sim, setup["rounds"]):
            assert seat_spread(sim) <= 1, context
        outcome.full, outcome.balanced = full, seat_spread(sim) <= 1
    if fmt == "berger":  # within one cycle of the Berger tables nobody meets twice
        cycle = setup["players"] - 1 + setup["players"] % 2
        assert setup["rounds"] > cycle or sim.repeats() == 0, context
    if fmt == "arena":  # full tables of waiting players, nobody at two tables, nobody gone
        for paired, waiting in zip(sim.rounds, sim.active, strict=True):
            seated = [p for t in paired.tables for p in t]
            assert all(len(t) == seats for t in paired.tables), context
            # ``waiting`` is after that tick's withdrawals: nobody gone is seated
            assert len(seated) == len(set(seated)) and set(seated) <= set(waiting), context
    return outcome


@pytest.mark.parametrize("fmt", ["swiss", "roundrobin", "arena", "berger"])
@pytest.mark.parametrize("seed", range(12))
def test_random_tournaments_keep_the_guarantees(fmt, seed):
    assert run_format(fmt, seed).gave_up == []  # these small fields: always an answer


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["swiss", "roundrobin", "arena", "berger"])
def test_ten_thousand_random_tournaments_per_format(fmt):
    balanced = full = 0
    gave_up: list[tuple[int, int]] = []  # (seed, round) where the exact check had no answer
    for seed in range(1_000_000, 1_000_000 + SLOW_TOURNAMENTS):
        got = run_format(fmt, seed)
        gave_up += [(seed, number) for number in got.gave_up]
        if got.full:
            full += 1
            balanced += got.balanced
    if fmt in ("swiss", "roundrobin"):
        line = f"{fmt}: seats within one in {balanced} of {full} tournaments at full tables"
    else:
        line = f"{fmt}: {SLOW_TOURNAMENTS} tournaments"
    if fmt == "swiss":
        line += f"; exact check gave up on {len(gave_up)} rounds: {gave_up}"
    print(line)
    unanswered = len({seed for seed, _ in gave_up})
    assert unanswered <= GIVE_UP_SHARE * SLOW_TOURNAMENTS, gave_up


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["swiss", "roundrobin"])
def test_planned_short_tables_end_with_every_seat_within_one(fmt):
    """Random fields at tables of 3-5 seats mixed with shorter ones, where ``seatplan`` finds a
    plan at round 1 and nobody withdraws, enters late or sits out: every entrant's seat counts
    end within one of each other."""
    rng = random.Random(f"planned {fmt}")
    checked = tried = 0
    while checked < PLANNED_TOURNAMENTS:
        tried += 1
        assert tried < 50 * PLANNED_TOURNAMENTS, (checked, tried)
        seats = rng.randint(3, 5)
        players = rng.randint(seats + 1, 4 * seats + 3)
        rounds = rng.randint(2, 6)
        plan = table_plan(players, seats)
        if plan.sitting_out or all(h == seats for h in plan.humans):
            continue  # full tables, or someone sits out: no plan for the field
        history = History.of(seats, [])
        history.for_round(rounds - 1, plan.humans, range(1, players + 1))
        if not history.planned():
            continue  # no plan: some entrant must end two apart whatever the pairing
        seed = rng.randrange(1 << 30)
        sim = simulate(fmt, players, seats, rounds, seed)
        assert planned_from_the_start(sim, rounds), (fmt, players, seats, rounds, seed)
        assert seat_spread(sim) <= 1, (fmt, players, seats, rounds, seed)
        checked += 1
    print(f"{fmt}: {checked} planned tournaments at short tables within one ({tried} drawn)")


def test_table_sizes_mix_k_and_k_minus_one_before_anyone_sits_out():
    assert table_plan(10, 3).humans == (3, 3, 2, 2)
    assert table_plan(7, 5, min_players=3).humans == (4, 3)  # 5 and 4 cannot make 7
    assert table_plan(7, 5, min_players=3, bots=True).bots == (1, 2)
    assert table_plan(3, 2).sitting_out == 1
    assert table_plan(3, 2, bots=True).bots == (0, 1)
    for n in range(0, 40):
        for k in range(2, 6):
            for least in range(2, k + 1):
                plan = table_plan(n, k, least)
                assert sum(plan.humans) + plan.sitting_out == n
                assert all(least <= h <= k for h in plan.humans)
                if n >= least and n not in (least * 0,):
                    # nobody sits out when some split into tables of least..k exists
                    fits = any(t * least <= n <= t * k for t in range(1, n + 1))
                    assert (plan.sitting_out == 0) == fits, (n, k, least)


def test_berger_tables_match_fide_for_six_and_meet_everyone_once():
    assert berger_pairs(6, 1) == [(1, 6), (2, 5), (3, 4)]
    assert sorted(berger_pairs(6, 2)) == [(1, 2), (5, 3), (6, 4)]
    assert sorted(berger_pairs(6, 5)) == [(3, 6), (4, 2), (5, 1)]
    assert berger_pairs(6, 6) == [(6, 1), (5, 2), (4, 3)]  # the second cycle swaps colours
    for n in range(2, 15):
        rounds = n - 1 if n % 2 == 0 else n
        met, white = set(), [0] * (n + 2)
        for r in range(1, rounds + 1):
            for w, b in berger_pairs(n, r):
                pair = frozenset((w, b))
                assert pair not in met
                met.add(pair)
                white[w] += 1
        players = n if n % 2 == 0 else n + 1
        assert len(met) == players * (players - 1) // 2
        assert all(abs(2 * white[p] - (players - 1)) <= 1 for p in range(1, players + 1))


def test_bad_input_is_refused():
    entrants = [Entrant(i) for i in range(4)]
    with pytest.raises(TournamentError):
        pair_round("knockout", entrants, [], seats=2)
    with pytest.raises(TournamentError):
        pair_round("swiss", [*entrants, Entrant(0)], [], seats=2)
    with pytest.raises(TournamentError):
        pair_round("swiss", entrants, [], seats=3, withdrawn=[9])
    with pytest.raises(TournamentError):
        pair_round("swiss", entrants, [], seats=3, min_players=4)
    with pytest.raises(TournamentError):
        pair_round("swiss", entrants, [], seats=6)
    played = [TableResult(1, (0, 1), (1, 2)), TableResult(1, (2, 3), (1, 2))]
    with pytest.raises(TournamentError):
        pair_round("roundrobin", [*entrants, Entrant(4)], played, seats=2)


# (players, seats, rounds) where planning ahead keeps every round free of repeats
REPEAT_FREE = [(12, 3, 4), (10, 2, 5), (9, 3, 4), (15, 3, 5)]


@pytest.mark.parametrize(("players", "seats", "rounds"), REPEAT_FREE)
def test_planned_swiss_meets_nobody_twice(players, seats, rounds):
    for seed in range(40):
        sim = simulate("swiss", players, seats, rounds, seed)
        assert sim.repeats() == 0, (players, seats, rounds, seed)
        assert sim.seat_spread() <= 1, (players, seats, rounds, seed)


def test_round_robin_of_nine_at_three_seats_meets_nobody_twice_in_four_rounds():
    # the affine plane of order 3 has four repeat-free rounds; before planning ahead,
    # seeds 100-129 gave 8 repeats
    for seed in range(100, 140):
        sim = simulate("roundrobin", 9, 3, 4, seed)
        assert sim.repeats() == 0 and sim.seat_spread() <= 1, seed


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seats", "rounds"), REPEAT_FREE)
def test_planned_swiss_meets_nobody_twice_over_a_thousand_seeds(players, seats, rounds):
    bad = [seed for seed in range(1000) if simulate("swiss", players, seats, rounds,
                                                    10_000 + seed).repeats()]
    assert not bad, bad


def triples(players):
    """Every split of ``players`` into tables of three, as sets of pairs."""
    if not players:
        yield frozenset()
        return
    head, rest = players[0], players[1:]
    for b, c in combinations(rest, 2):
        pairs = {frozenset((head, b)), frozenset((head, c)), frozenset((b, c))}
        for others in triples([p for p in rest if p not in (b, c)]):
            yield frozenset(pairs) | others


def test_look_ahead_agrees_with_brute_force_on_twelve_at_three_seats():
    players = list(range(12))
    first = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11)]
    second = [(0, 3, 6), (1, 4, 9), (2, 7, 10), (5, 8, 11)]
    history = History.of(3, [TableResult(r, t, (1, 2, 3))
                             for r, tables in ((1, first), (2, second)) for t in tables])
    history.left = 10  # rounds enough to even out any seat: only repeats matter here
    met = {frozenset(x) for t in first + second for x in combinations(t, 2)}
    free = [s for s in triples(players) if not s & met]  # repeat-free third rounds
    dead = alive = 0
    for third in free[:: max(1, len(free) // 60)]:
        tables = [sorted({p for pair in third for p in pair if q in pair})
                  for q in players]
        tables = [list(t) for t in dict.fromkeys(map(tuple, tables))]
        fourth = any(not other & third for other in free)
        ok = extendable(players, [3] * 4, [3] * 4, history, tables, 1, [100_000])
        assert ok == fourth
        dead += not fourth
        alive += fourth
    assert dead and alive  # both cases were met
    found = perfect(players, [3] * 4, [3] * 4, history, dict.fromkeys(players, 0))
    assert found is not None
    assert not any(frozenset(x) in met for t in found for x in combinations(t, 2))
