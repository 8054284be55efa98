"""A round paired at its predecessor's deadline (issue 38), with the ManualClock moved past it,
on SQLite and (with ``PALIO_TEST_POSTGRES_URL``) PostgreSQL: the entrants still at an
unfinished table sit the round out (recorded as still playing, no points, shown on the page),
nobody is ever at two unfinished tables of the tournament, and the late table's result counts
for its own round once it finishes (marked late). Swiss and round robin at three seats, and
the two-seat round robin (Berger tables: a still-playing entrant's opponent sits out);
migration 0015 (the column that records it) goes down and up."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from palio.server.base.clock import ManualClock
from palio.server.play.service import GameService
from palio.server.tournaments.service import Tournaments
from palio.tournament import PRESETS
from tests.server.conftest import database_url, down_and_up
from tests.server.tournaments.conftest import MOMENT
from tests.server.tournaments.test_arena import page, seated_now, tables_of
from tests.server.tournaments.test_service import accounts, new, play_out

DAY = 86400


def nobody_twice(service: GameService, tid: int) -> None:
    seated = seated_now(service, tid)
    assert len(seated) == len(set(seated)), Counter(seated).most_common(1)


def expected_points(detail: dict[str, Any]) -> dict[str, float]:
    """Each name's points from the finished tables and the byes the detail lists (a round
    sat out while still playing scores nothing)."""
    rules = PRESETS[detail["scoring"]]
    got: dict[str, float] = defaultdict(float)
    for r in detail["rounds"]:
        for x in r["tables"]:
            if x["places"] is not None:
                for name, p in zip(x["seats"], rules.table_points(x["places"]), strict=True):
                    if name is not None:
                        got[name] += p
        for name in r["byes"]:
            got[name] += rules.bye_points(detail["players"])
    return got


def check_standings(detail: dict[str, Any]) -> None:
    got = expected_points(detail)
    playing: Counter = Counter(n for r in detail["rounds"] for x in r["tables"]
                               if x["places"] is None for n in x["seats"] if n is not None)
    played: Counter = Counter(n for r in detail["rounds"] for x in r["tables"]
                              if x["places"] is not None for n in x["seats"] if n is not None)
    for row in detail["standings"]:
        assert row["points"] == pytest.approx(got[row["name"]]), row
        assert row["playing"] == playing[row["name"]] and row["played"] == played[row["name"]]


@pytest.mark.parametrize("fmt", ["swiss", "roundrobin"])
def test_those_still_playing_at_the_deadline_sit_the_round_out(
        service: GameService, tournaments: Tournaments, fmt: str) -> None:
    people = accounts(service, 12)
    names = dict(people)
    tid = new(tournaments, people[0][0], format=fmt, rounds=3, bots=False, round_days=1)
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(DAY)
    *fast, slow = tournaments.sweep()  # twelve at four tables of three
    assert len(fast) == 3
    rng = random.Random(38)
    for game_id in fast:
        play_out(service, game_id, rng)
    assert tournaments.sweep() == []  # the slow table is before its deadline: the round waits
    service.clock.advance(DAY)  # its deadline: the next round all the same, without them
    second = tournaments.sweep()
    assert len(second) == 3  # the nine free, at three tables, with no rematch
    nobody_twice(service, tid)
    tables = {t.game_id: t for t in tables_of(service, tid)}
    slow_players = {names[a] for a in tables[slow].seats}
    assert sorted(names[a] for g in second for a in tables[g].seats) == sorted(
        set(names.values()) - slow_players)
    detail = tournaments.detail(tid)
    met = [frozenset(pair) for r in detail["rounds"] for x in r["tables"]
           for pair in combinations(x["seats"], 2)]
    assert len(met) == len(set(met))
    round2 = detail["rounds"][1]
    assert set(round2["still_playing"]) == slow_players and round2["byes"] == []
    check_standings(detail)
    assert all(row["playing"] == 1 for row in detail["standings"])
    assert tournaments.sweep() == []  # round 2 is before its deadline
    name = sorted(slow_players)[0]
    assert (f"{name} sits out this round: still playing a table of an earlier round"
            in page(tournaments, tid, "en"))
    assert f"{name}さんは前のラウンドの卓をまだ対局中" in page(tournaments, tid, "ja")
    # the slow table finishes late: its result counts for round 1, marked late
    play_out(service, slow, rng)
    detail = tournaments.detail(tid)
    late = next(x for x in detail["rounds"][0]["tables"] if x["game_id"] == slow)
    assert late["places"] is not None and late["late"]
    assert not any(x["late"] for x in detail["rounds"][0]["tables"] if x["game_id"] in fast)
    check_standings(detail)
    assert {row["name"]: row["played"] for row in detail["standings"]} == {
        n: 1 for n in names.values()}
    assert "finished after its round&#x27;s deadline" in page(tournaments, tid, "en")
    assert "ラウンドの期限後に終局" in page(tournaments, tid, "ja")
    assert tournaments.sweep() == []  # round 2's tables are still being played
    for game_id in second:
        play_out(service, game_id, rng)
    third = tournaments.sweep()  # everyone free again: all twelve paired
    assert len(third) == 4
    nobody_twice(service, tid)
    detail = tournaments.detail(tid)
    assert detail["rounds"][2]["still_playing"] == [] and detail["rounds"][2]["byes"] == []
    for game_id in third:
        play_out(service, game_id, rng)
    assert tournaments.sweep() == []
    detail = tournaments.detail(tid)
    assert detail["status"] == "finished"
    check_standings(detail)
    # three rounds, of which the slow table's players sat one out while still playing
    assert {row["name"]: row["played"] for row in detail["standings"]} == {
        n: 2 if n in slow_players else 3 for n in names.values()}


def test_a_two_seat_round_robin_keeps_its_berger_tables(service: GameService,
                                                         tournaments: Tournaments) -> None:
    """Six entrants, two seats: the pair still playing at the deadline sits round 2 out and
    their scheduled opponents sit out with a bye, as a withdrawn entrant's would; the still-
    playing pair are not taken for late entrants (which would end the tournament)."""
    people = accounts(service, 6)
    names = dict(people)
    tid = new(tournaments, people[0][0], format="roundrobin", players=2, rounds=5,
              game="san-gimignano", bots=False, round_days=1)
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(DAY)
    first = tournaments.sweep()
    assert len(first) == 3
    rng = random.Random(7)
    for game_id in first[1:]:
        play_out(service, game_id, rng)
    service.clock.advance(DAY)
    second = tournaments.sweep()
    nobody_twice(service, tid)
    tables = {t.game_id: t for t in tables_of(service, tid)}
    slow = {names[a] for a in tables[first[0]].seats}
    detail = tournaments.detail(tid)
    assert detail["status"] == "running" and len(detail["rounds"]) == 2
    round2 = detail["rounds"][1]
    assert set(round2["still_playing"]) == slow
    seated = [n for x in round2["tables"] for n in x["seats"]]
    assert len(round2["byes"]) == 2 and len(second) == 1 and len(seated) == 2
    # everyone once: at a table, sitting out with a bye, or still playing
    assert sorted(seated + round2["byes"] + round2["still_playing"]) == sorted(names.values())
    check_standings(detail)
    play_out(service, first[0], rng)  # late: counts for round 1
    play_out(service, second[0], rng)
    third = tournaments.sweep()
    assert len(third) == 3  # Berger round 3: everyone, no repeat of round 1 or 2
    detail = tournaments.detail(tid)
    met = [frozenset(x["seats"]) for r in detail["rounds"] for x in r["tables"]]
    assert len(met) == len(set(met))
    check_standings(detail)


def test_the_round_waits_when_those_free_cannot_fill_a_table(
        service: GameService, tournaments: Tournaments) -> None:
    """Three at two-seat tables, no bots: one table and a bye; at the deadline only the one
    who sat out is free, so no round is paired (a second bye would be no better) until the
    table finishes."""
    people = accounts(service, 3)
    tid = new(tournaments, people[0][0], players=2, game="san-gimignano", bots=False,
              round_days=1)
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(DAY)
    (game_id,) = tournaments.sweep()
    service.clock.advance(3 * DAY)
    assert tournaments.sweep() == []
    detail = tournaments.detail(tid)
    assert detail["status"] == "running" and len(detail["rounds"]) == 1
    play_out(service, game_id, random.Random(5))
    assert len(tournaments.sweep()) == 1  # now the round: all three free again
    nobody_twice(service, tid)
    check_standings(tournaments.detail(tid))


def test_the_round_waits_rather_than_force_a_rematch(service: GameService,
                                                     tournaments: Tournaments) -> None:
    """Four at two-seat tables (FIDE Dutch): one table late at the deadline leaves free only
    the two who just met; rather than pair them again the round waits, and once the late table
    finishes all four are paired with no rematch."""
    people = accounts(service, 4)
    tid = new(tournaments, people[0][0], players=2, game="san-gimignano", bots=False,
              round_days=1, rounds=3)
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(DAY)
    fast, slow = tournaments.sweep()
    rng = random.Random(11)
    play_out(service, fast, rng)
    service.clock.advance(2 * DAY)
    assert tournaments.sweep() == []
    assert len(tournaments.detail(tid)["rounds"]) == 1
    play_out(service, slow, rng)
    assert len(tournaments.sweep()) == 2
    detail = tournaments.detail(tid)
    met = [frozenset(x["seats"]) for r in detail["rounds"] for x in r["tables"]]
    assert len(met) == len(set(met)) == 4 and detail["rounds"][1]["still_playing"] == []
    check_standings(detail)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_0015_goes_down_and_up(tmp_path: Path, backend: str) -> None:
    url = database_url(backend, tmp_path)
    service = GameService(url, clock=ManualClock(MOMENT))
    people = accounts(service, 3)
    tournaments = Tournaments(service)
    tid = new(tournaments, people[0][0], players=2, game="san-gimignano", bots=False)
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(DAY)
    tournaments.sweep()  # one table and a bye (a row from before the column: a bye)
    service.close()
    down_and_up(url, "0014", "tournament_byes", {"playing"})
    again = GameService(url, clock=ManualClock(MOMENT))
    (first,) = Tournaments(again).detail(tid)["rounds"]
    assert len(first["byes"]) == 1 and first["still_playing"] == []
    again.close()
