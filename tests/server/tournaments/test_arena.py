"""An arena run by the server (palio.server.tournaments.service, ``Tournaments._arena``) with
the ManualClock, on SQLite and (with ``PALIO_TEST_POSTGRES_URL``) PostgreSQL: seven entrants
at three-seat tables, seated from the waiting pool at the start, again as each table finishes
(the finish hook) and by the sweep; nobody at two tables; a restart in the middle; nothing
seated after the end; the last table finishes it. Bad bodies are refused."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.requests import Request

from palio.server.base.errors import ApiError
from palio.server.play.service import GameService
from palio.server.tournaments.routes import detail_page, history_html
from palio.server.tournaments.service import Tournaments
from palio.server.tournaments.tables import RoundRow, TableRow, TournamentRow
from tests.server.tournaments.conftest import MOMENT
from tests.server.tournaments.test_service import accounts, play_out

HOURS = 48


def new_arena(tournaments: Tournaments, organiser: int, **extra: Any) -> int:
    body = {"name": "Spring Arena", "game": "tiletum", "players": 3, "format": "arena",
            "arena_hours": HOURS, "starts_at": (MOMENT + timedelta(days=1)).isoformat(),
            **extra}
    return tournaments.create(organiser, body)["id"]


def tables_of(service: GameService, tid: int) -> list[TableRow]:
    with service.sessions() as session:
        return list(session.scalars(select(TableRow).join(
            RoundRow, RoundRow.id == TableRow.round_id).where(RoundRow.tournament_id == tid)
            .order_by(RoundRow.number, TableRow.game_id)))


def seated_now(service: GameService, tid: int) -> list[int]:
    """Every account at an unfinished table of the arena, once per table it sits at."""
    return [a for t in tables_of(service, tid) if t.places is None for a in t.seats]


def check_pool(service: GameService, tournaments: Tournaments, tid: int,
               entered: dict[str, int]) -> set[str]:
    """Nobody at two unfinished tables; the waiting are exactly the entrants not withdrawn and
    not seated (as the rows say). The names waiting."""
    seated = seated_now(service, tid)
    assert len(seated) == len(set(seated)), Counter(seated).most_common(1)
    detail = tournaments.detail(tid)
    gone = {s["name"] for s in detail["standings"] if s["withdrawn"]}
    waiting = set(detail["waiting"])
    by_id = {a: n for n, a in entered.items()}
    assert waiting == {n for n in entered if n not in gone} - {by_id[a] for a in seated}
    return waiting


def page(tournaments: Tournaments, tid: int, lang: str) -> str:
    app = SimpleNamespace(state=SimpleNamespace(tournaments=tournaments))
    request = Request({"type": "http", "method": "GET", "path": f"/tournaments/{tid}",
                       "query_string": f"lang={lang}".encode(), "headers": [], "app": app})
    return detail_page(request, str(tid), None, False).body.decode()


def test_an_arena_of_seven_at_three_seats(service: GameService,
                                          tournaments: Tournaments) -> None:
    people = accounts(service, 9)
    entered = {name: a for a, name in people[:7]}
    tid = new_arena(tournaments, people[0][0])
    detail = tournaments.detail(tid)
    assert detail["rounds_planned"] is None and detail["format"] == "arena"
    assert detail["ends_at"] == (MOMENT + timedelta(days=1, hours=HOURS)).isoformat()
    for account, name in people[:7]:
        tournaments.register(tid, account, name)
    assert tournaments.sweep() == []  # not yet its time
    service.clock.advance(86400)
    first = tournaments.sweep()
    assert len(first) == 2  # seven waiting: two tables of three, one waits
    assert tournaments.sweep() == []  # one waiting is not a table's worth
    (waited,) = check_pool(service, tournaments, tid, entered)
    assert tournaments.detail(tid)["status"] == "running"
    for lang, says in (("en", "arena, ends at 2026-03-04 12:00 UTC"), ("ja", "アリーナ")):
        shown = page(tournaments, tid, lang)
        assert says in shown and 'id="playing"' in shown and "Player" in shown

    # a late entrant waits with the one left over; a waiting entrant who withdraws is gone
    service.clock.advance(60)
    late, late_name = people[7]
    tournaments.register(tid, late, late_name)
    entered[late_name] = late
    assert check_pool(service, tournaments, tid, entered) == {waited, late_name}
    assert tournaments.sweep() == []  # two waiting: still no table
    quitter, quitter_name = people[8]
    tournaments.register(tid, quitter, quitter_name)
    entered[quitter_name] = quitter
    tournaments.withdraw(tid, quitter)
    assert quitter_name not in check_pool(service, tournaments, tid, entered)
    since = {waited: MOMENT + timedelta(days=1), late_name: service.clock.now()}
    assert tournaments.detail(tid)["waiting"] == [waited, late_name]  # the longest first

    # each finished table's players wait again and are seated at once (the finish hook)
    rng = random.Random(38)
    for turn in range(4):
        if turn == 2:  # a restart: a new process finds the pool in the rows
            url = service.engine.url.render_as_string(hide_password=False)
            service = GameService(url, clock=service.clock)
            tournaments = Tournaments(service)
            service.finish_hooks.append(tournaments.game_finished)
        service.clock.advance(600)  # each table ends at its own moment
        before = tables_of(service, tid)
        pool = check_pool(service, tournaments, tid, entered)
        done = next(t for t in before if t.places is None)
        play_out(service, done.game_id, rng)
        after = tables_of(service, tid)
        made = [t for t in after if t.game_id not in {b.game_id for b in before}]
        assert len(made) == 1, (turn, len(made))  # 2 or 3 waited, 3 more came back: one table
        waiting_then = {entered[n] for n in pool} | set(done.seats)
        assert set(made[0].seats) <= waiting_then  # seated from the pool
        # the longest-waiting is seated first (then the rank window, the recent opponents)
        oldest = min(since[n] for n in pool)  # (those from one table wait since its end)
        assert {entered[n] for n in pool if since[n] == oldest} & set(made[0].seats)
        for name in check_pool(service, tournaments, tid, entered) - pool:
            since[name] = service.clock.now()
        # the order they wait in: since when, then the account (the next seated first)
        assert tournaments.detail(tid)["waiting"] == sorted(
            tournaments.detail(tid)["waiting"], key=lambda n: (since[n], entered[n]))
        assert quitter not in seated_now(service, tid)
    assert len(tables_of(service, tid)) == 6

    # the end: nobody is seated after it; tables being played finish and count
    service.clock.advance(HOURS * 3600)
    assert tournaments.sweep() == []
    with pytest.raises(ApiError) as over:
        tournaments.register(tid, quitter, quitter_name)
    assert over.value.code == "tournament_over"
    playing = [t for t in tables_of(service, tid) if t.places is None]
    assert len(playing) == 2 and tournaments.detail(tid)["status"] == "running"
    play_out(service, playing[0].game_id, rng)
    assert len(tables_of(service, tid)) == 6  # nobody seated from the pool after the end
    assert tournaments.detail(tid)["status"] == "running"
    play_out(service, playing[1].game_id, rng)  # the last table: the arena is over
    detail = tournaments.detail(tid)
    assert detail["status"] == "finished" and detail["waiting"] == []
    assert tournaments.sweep() == [] and len(tables_of(service, tid)) == 6
    table = detail["standings"]
    assert sum(s["played"] for s in table) == 6 * 3  # every table counted
    assert [s["points"] for s in table if not s["withdrawn"]] == sorted(
        (s["points"] for s in table if not s["withdrawn"]), reverse=True)
    assert 0 < sum(s["points"] for s in table) == pytest.approx(6 * (1 + 0.5))  # bga
    (entry,) = tournaments.history(people[0][0])
    assert entry["status"] == "finished" and entry["rank"] is not None
    assert f'{entry["rank"]} of 9' in history_html("en", [entry])
    service.close()  # the restart's (the fixture closes its own)


def test_bots_fill_a_table_only_if_allowed_and_only_when_nobody_plays(
        service: GameService, tournaments: Tournaments) -> None:
    four = accounts(service, 4)
    people = four[:2]
    with_bots = new_arena(tournaments, people[0][0], bots=True)
    without = new_arena(tournaments, people[0][0])
    busy = new_arena(tournaments, people[0][0], bots=True)
    for tid in (with_bots, without):
        for account, name in people:
            tournaments.register(tid, account, name)
    for account, name in four:
        tournaments.register(busy, account, name)
    service.clock.advance(86400)
    assert len(tournaments.sweep()) == 2  # one table each of with_bots and busy
    # busy: four at three seats, one waits while a table is played: no bots for them
    assert len(tables_of(service, busy)) == 1 and len(tournaments.detail(busy)["waiting"]) == 1
    assert tournaments.sweep() == []
    # two waiting, nobody playing: bots fill the third seat
    (table,) = tables_of(service, with_bots)
    game = table.game_id
    assert table.seats.count(None) == 1
    assert sorted(a for a in table.seats if a is not None) == sorted(a for a, _ in people)
    assert tables_of(service, without) == []
    assert sorted(tournaments.detail(without)["waiting"]) == ["Player0", "Player1"]
    service.clock.advance(HOURS * 3600)
    assert tournaments.sweep() == []
    assert tournaments.detail(without)["status"] == "cancelled"  # nobody ever played
    assert tournaments.detail(with_bots)["status"] == "running"  # its table goes on
    play_out(service, game, random.Random(5))
    assert tournaments.detail(with_bots)["status"] == "finished"


def test_no_rematch_at_once_while_other_tables_are_played(
        service: GameService, tournaments: Tournaments) -> None:
    """Four at two seats: the first pair to finish waits while the other table is played
    (seating them together again at once is held back), then both pairs are seated against
    someone new; two entrants alone are seated again at once (nobody else could come)."""
    people = accounts(service, 6)
    four = new_arena(tournaments, people[0][0], game="san-gimignano", players=2)
    two = new_arena(tournaments, people[0][0], game="san-gimignano", players=2)
    for account, name in people[:4]:
        tournaments.register(four, account, name)
    for account, name in people[4:]:
        tournaments.register(two, account, name)
    service.clock.advance(86400)
    assert len(tournaments.sweep()) == 3
    first = tables_of(service, four)
    play_out(service, first[0].game_id, random.Random(1))
    assert len(tables_of(service, four)) == 2 and tournaments.sweep() == []
    assert sorted(tournaments.detail(four)["waiting"]) == sorted(
        name for account, name in people if account in first[0].seats)
    play_out(service, first[1].game_id, random.Random(2))
    second = [t for t in tables_of(service, four) if t.places is None]
    assert len(second) == 2
    assert not {frozenset(t.seats) for t in second} & {frozenset(t.seats) for t in first}
    (alone,) = tables_of(service, two)
    play_out(service, alone.game_id, random.Random(3))
    again = [t for t in tables_of(service, two) if t.places is None]
    assert len(again) == 1 and set(again[0].seats) == set(alone.seats)


def test_an_arena_batch_is_written_once(service: GameService,
                                        tournaments: Tournaments) -> None:
    """Two advances (as two processes' sweeps would, one after the other under the row lock):
    one batch of tables; the second finds nobody waiting."""
    people = accounts(service, 6)
    tid = new_arena(tournaments, people[0][0])
    for account, name in people:
        tournaments.register(tid, account, name)
    service.clock.advance(86400)
    assert len(tournaments.advance(tid)) == 2
    assert tournaments.advance(tid) == []
    with service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(RoundRow)) == 1
        assert session.scalar(select(func.count()).select_from(TableRow)) == 2


def test_bad_arena_bodies_are_refused_and_write_nothing(
        service: GameService, tournaments: Tournaments) -> None:
    (ada, _), = accounts(service, 1)
    for bad in ({"arena_hours": None},  # an arena needs its length
                {"rounds": 3},  # an arena has no rounds
                {"arena_hours": 0}, {"arena_hours": 24 * 30 + 1}, {"arena_hours": "48"},
                {"format": "swiss"},  # Swiss plays rounds: arena_hours is refused
                {"format": "roundrobin", "rounds": 3},
                {"format": "swiss", "arena_hours": None}):  # and still needs its rounds
        with pytest.raises(ApiError) as refused:
            new_arena(tournaments, ada, **bad)
        assert refused.value.status in (400, 422), bad
        assert "arena_hours" in refused.value.message or "rounds" in refused.value.message
    with service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(TournamentRow)) == 0
