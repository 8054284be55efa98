"""Timed tables, leaving and expiry (palio.server.play.timing), in-process with a ManualClock: the
tests move the clock, they never sleep for time to pass."""

from __future__ import annotations

import random
import threading
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from palio.server.app import create_app
from palio.server.base.clock import ManualClock
from palio.server.base.settings import Settings
from palio.server.play import timing
from palio.server.play.service import ApiError, GameService
from palio.server.play.tables import GameRow
from tests.server.conftest import database_url, down_and_up

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SG = "san-gimignano"
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
REALTIME = {"kind": "realtime", "base_s": 60, "increment_s": 5}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def service(tmp_path: Path, clock: ManualClock) -> Iterator[GameService]:
    one = GameService(f"sqlite:///{tmp_path / 'palio.db'}", clock=clock)
    yield one
    one.close()


def table(service: GameService, *, seed: int = 3, names: tuple[str, ...] = ("Anna", "Ben"),
          **body: Any) -> tuple[str, list[str]]:
    """A two-player San Gimignano table with people in both seats; its id and their tokens."""
    live = service.create({"game": SG, "players": 2, "seed": seed,
                           "seats": [{"kind": "human"}] * 2, **body})
    tokens = [service.join(live.id, seat, {"name": name})[1] for seat, name in enumerate(names)]
    return live.id, tokens


def move(service: GameService, game_id: str, index: int = 0) -> int:
    """The seat to move plays its ``index``-th legal move; that seat."""
    live = service.get(game_id)
    seat = live.state.to_move
    action = live.state.legal_actions()[index]
    service.act(game_id, seat, {"action": str(action), "move_number": live.move_number},
                bot=live.seats[seat].kind == "bot")
    return seat


def play_out(service: GameService, game_id: str, seed: int = 1) -> None:
    """Every seat (a bot's too) plays random moves to the end."""
    rng = random.Random(seed)
    live = service.get(game_id)
    while not live.state.is_over:
        move(service, game_id, rng.randrange(len(live.state.legal_actions())))


def test_realtime_clock_runs_out_and_a_bot_takes_the_seat(service, clock) -> None:
    game_id, _ = table(service, timing=REALTIME, on_timeout={"kind": "bot", "level": "easy"})
    live = service.get(game_id)
    first = live.state.to_move
    assert live.table.deadline_at == START + timedelta(seconds=60)  # the clocks start at the join
    clock.advance(30)
    assert timing.sweep(service) == []
    mover = move(service, game_id)
    assert mover == first
    # charged 30 s, then the increment: 60 - 30 + 5
    assert live.table.remaining(first) == 35.0
    following = live.state.to_move
    if following == first:  # a second decision of the same turn: its own clock again
        assert live.table.deadline_at == clock.now() + timedelta(seconds=35)
    else:
        assert live.table.deadline_at == clock.now() + timedelta(seconds=60)
    view = live.view(None)
    assert view["table"]["clock"]["remaining"][first] == 35.0
    assert view["table"]["clock"]["started"] == clock.now().isoformat()

    to_move = live.state.to_move
    clock.advance(61)
    with pytest.raises(ApiError) as refused:  # too late: the server's clock is the truth
        move(service, game_id)
    assert refused.value.code == "out_of_time"
    assert timing.sweep(service) == [game_id]
    assert timing.sweep(service) == []  # once
    seat = live.seats[to_move]
    assert (seat.kind, seat.level, seat.name) == ("bot", "easy", ["Anna", "Ben"][to_move])
    assert [(f["seat"], f["reason"], f["rule"]) for f in live.table.forfeits] == [
        (to_move, "timeout", "bot")]
    name = ["Anna", "Ben"][to_move]
    lines = [line["text"] for line in live.view(None)["log"]]
    assert f"{name} ran out of time; Easy bot plays on in that seat." in lines
    ja = [line["text"] for line in live.view(None, "ja")["log"]]
    assert any(line.startswith(f"{name}の持ち時間が切れました") for line in ja)
    play_out(service, game_id)
    record = service.record(game_id)
    assert record["result"]["forfeits"][0]["seat"] == to_move
    # a bot played on: the game's own ranking stands
    assert record["result"]["ranking"] == live.state.ranking()
    replay = service.replay(game_id)
    assert any(f"{name} ran out of time" in line for frame in replay["frames"]
               for line in frame["log"])
    with service.engine.connect() as connection:
        row = connection.execute(select(GameRow).where(GameRow.id == game_id)).one()
    assert timing.forfeited_seats(row) == {to_move}
    assert row.deadline_at is None and row.status == "finished"


def test_a_player_who_leaves_under_the_last_rule_is_ranked_last(service, clock) -> None:
    game_id, tokens = table(service, on_timeout={"kind": "last"})
    live = service.get(game_id)
    for _ in range(5):
        move(service, game_id)
    timing.leave(service, game_id, 1, 1)
    assert (live.seats[1].kind, live.seats[1].level) == ("bot", "easy")  # the weakest plays on
    with pytest.raises(ApiError) as again:
        timing.leave(service, game_id, 1, 1)
    assert again.value.code == "already_left"
    play_out(service, game_id, seed=7)
    played = live.state.ranking()
    view = live.view(0)
    assert view["ranking"][-1] == 1 and view["ranking"] == [0, 1]
    assert view["score_table"]["ranks"] == [1, 2]
    assert service.record(game_id)["result"]["ranking"] == [0, 1]
    assert "Ben left the table and is ranked last" in " ".join(
        line["text"] for line in view["log"])
    assert played in ([0, 1], [1, 0])  # the game's own order is kept apart


def test_ranks_with_forfeits_keep_the_others_places() -> None:
    last = timing.Table(forfeits=({"seat": 0, "rule": "last"}, {"seat": 2, "rule": "last"}))
    # game: seat 0 won, seats 1 and 3 tied second, seat 2 last
    assert timing.ranking_with_forfeits([0, 1, 3, 2], last) == [1, 3, 2, 0]
    assert timing.ranks_with_forfeits([1, 2, 4, 2], [0, 1, 3, 2], last) == [4, 1, 3, 1]


def test_turn_based_limit_and_bank(service, clock) -> None:
    game_id, _ = table(service, timing={"kind": "turn", "per_move_s": 3600})
    live = service.get(game_id)
    assert live.table.timing["bank_s"] == 3600  # the default bank: one more period
    clock.advance(1800)
    first = move(service, game_id)
    assert live.table.remaining(first) == 3600  # inside the limit: the bank is untouched
    seat = live.state.to_move
    clock.advance(5000)  # 1400 s past the limit: paid from the bank
    move(service, game_id)
    assert live.table.remaining(seat) == 2200
    seat = live.state.to_move
    due = clock.now() + timedelta(seconds=3600 + live.table.remaining(seat))
    assert live.table.deadline_at == due
    clock.set(due - timedelta(seconds=1))
    assert timing.sweep(service) == []
    clock.set(due)
    assert timing.sweep(service) == [game_id]
    assert live.seats[seat].kind == "bot" and live.table.forfeits[0]["reason"] == "timeout"


def test_a_deadline_survives_a_restart(tmp_path: Path, clock) -> None:
    url = f"sqlite:///{tmp_path / 'palio.db'}"
    first = GameService(url, clock=clock)
    game_id, _ = table(first, timing=REALTIME)
    to_move = first.get(game_id).state.to_move
    first.close()
    clock.advance(3600)
    second = GameService(url, clock=clock)  # a new process: nothing in memory
    assert timing.sweep(second) == [game_id]
    assert second.get(game_id).seats[to_move].kind == "bot"
    second.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_processes_act_on_each_deadline_once(tmp_path: Path, clock, backend: str) -> None:
    url = database_url(backend, tmp_path)
    one = GameService(url, clock=clock)
    other = GameService(url, clock=clock)  # a second process on the same database
    games = [table(one, seed=n, timing=REALTIME)[0] for n in range(12)]
    for game_id in games[:6]:  # the other has some games cached (and so stale later)
        other.get(game_id)
    move(one, games[0])
    clock.advance(3600)
    fired: list[list[str]] = [[], []]
    start = threading.Barrier(2)

    def sweep(index: int, service: GameService) -> None:
        start.wait()
        fired[index] = timing.sweep(service)

    threads = [threading.Thread(target=sweep, args=(i, s)) for i, s in enumerate((one, other))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(fired[0] + fired[1]) == sorted(games)  # each game acted on exactly once
    with one.sessions() as session:
        rows = {row.id: row for row in session.scalars(select(GameRow))}
    for game_id in games:
        assert len(rows[game_id].forfeits) == 1
        assert rows[game_id].deadline_at is None
    assert timing.sweep(one) == [] and timing.sweep(other) == []
    one.close()
    other.close()


def test_an_open_table_expires_and_leaves_the_lobby(service, clock) -> None:
    waiting = service.create({"game": SG, "players": 2})
    running, _ = table(service)
    assert {g["id"] for g in service.list_games()[0]} == {waiting.id, running}
    clock.advance(72 * 3600 - 1)
    assert timing.sweep(service) == []
    clock.advance(1)
    assert timing.sweep(service) == [waiting.id]
    assert service.get(waiting.id).status == "expired"
    with pytest.raises(ApiError) as refused:
        service.join(waiting.id, 0, {})
    assert refused.value.code == "expired"
    assert [g["id"] for g in service.list_games()[0]] == [running]  # live tables only
    assert [g["id"] for g in service.list_games({"status": "recent"})[0]] == [waiting.id]
    assert [g["status"] for g in service.list_games({"status": "expired"})[0]] == ["expired"]
    listed = {g["id"]: g for g in service.list_games({"status": "all"})[0]}
    assert listed[waiting.id] == service.get(waiting.id).summary()
    assert listed[running] == service.get(running).summary()


def test_an_idle_untimed_table_is_handled_like_a_timeout(service, clock) -> None:
    game_id, _ = table(service, on_timeout={"kind": "last"})
    move(service, game_id)
    live = service.get(game_id)
    to_move = live.state.to_move
    clock.advance(30 * 86400 - 1)
    assert timing.sweep(service) == []
    clock.advance(2)
    assert timing.sweep(service) == [game_id]
    assert live.table.forfeits[0]["seat"] == to_move and live.seats[to_move].kind == "bot"


def test_a_bot_to_move_has_no_deadline(service, clock) -> None:
    live = service.create({"game": SG, "players": 2, "timing": REALTIME,
                           "seats": [{"kind": "bot"}, {"kind": "human"}]})
    service.join(live.id, 1, {})
    while live.state.to_move == 0:
        assert live.table.deadline_at is None
        clock.advance(500)  # the bot's thinking counts for nobody
        move(service, live.id)
    assert live.table.remaining(1) == 60 and live.table.deadline_at == clock.now() + timedelta(
        seconds=60)


BAD_BODIES = [
    ({"timing": {"kind": "realtime", "base_s": -5}}, 400),
    ({"timing": {"kind": "realtime", "base_s": 600, "increment_s": -1}}, 400),
    ({"timing": {"kind": "realtime", "base_s": 10**12}}, 400),
    ({"timing": {"kind": "turn", "per_move_s": 86400, "bank_s": 10**9}}, 400),
    ({"timing": {"kind": "turn", "per_move_s": 1.5}}, 400),
    ({"timing": {"kind": "sundial"}}, 400),
    ({"timing": {"kind": "turn"}}, 400),
    ({"timing": "realtime"}, 400),
    ({"timing": {"kind": "none", "base_s": 5}}, 400),
    ({"rated": "yes"}, 400),
    ({"on_timeout": {"kind": "resign"}}, 400),
    ({"on_timeout": {"kind": "bot", "level": "grandmaster"}}, 422),
    ({"rated": True, "practice": True}, 422),
    ({"practice": True, "timing": {"kind": "realtime", "base_s": 600}}, 422),
]


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[tuple[Any, TestClient]]:
    settings = Settings(db=f"sqlite:///{tmp_path / 'palio.db'}", bot_delay=0.0,
                        games_per_minute=0, deadline_sweep=3600)
    app = create_app(settings, clock=clock)
    with TestClient(app) as http:
        yield app, http


@pytest.mark.parametrize(("extra", "status"), BAD_BODIES)
def test_bad_timing_bodies_are_refused_and_change_nothing(client, extra, status) -> None:
    app, http = client
    response = http.post("/api/games", json={"game": SG, "players": 2, **extra})
    assert response.status_code == status, response.text
    assert response.json()["error"]["message"]
    with app.state.service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(GameRow)) == 0


def test_who_may_leave(client, clock) -> None:
    app, http = client
    created = http.post("/api/games", json={"game": SG, "players": 2, "timing": REALTIME,
                                            "rated": True}).json()
    assert created["timing"] == REALTIME and created["rated"] and not created["practice"]
    game_id = created["id"]
    tokens = [http.post(f"/api/games/{game_id}/seats/{s}/join", json={}).json()["token"]
              for s in range(2)]
    leave = f"/api/games/{game_id}/seats/0/leave"

    def bearer(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    assert http.post(leave).status_code == 401  # a spectator
    assert http.post(leave, headers=bearer(tokens[1])).status_code == 403  # another seat
    assert http.post(leave, headers=bearer("not-a-token")).status_code == 403
    assert http.post(f"/api/games/{game_id}/seats/5/leave",
                     headers=bearer(tokens[0])).status_code == 404
    assert app.state.service.get(game_id).table.forfeits == ()  # nothing changed
    view = http.get(f"/api/games/{game_id}/view", headers=bearer(tokens[0])).json()
    assert view["now"] == clock.now().isoformat() and view["table"]["clock"]["remaining"] == [
        60.0, 60.0]
    left = http.post(leave, headers=bearer(tokens[0]))
    assert left.status_code == 200, left.text
    assert left.json()["seats"][0]["kind"] == "bot"
    assert left.json()["table"]["forfeits"][0]["reason"] == "left"
    assert http.post(leave, headers=bearer(tokens[0])).json()["error"]["code"] == "already_left"
    # a finished game: nobody leaves it
    done = http.post("/api/games", json={"game": SG, "players": 2}).json()["id"]
    held = [http.post(f"/api/games/{done}/seats/{s}/join", json={}).json()["token"]
            for s in range(2)]
    service = app.state.service
    play_out(service, done)
    refused = http.post(f"/api/games/{done}/seats/0/leave", headers=bearer(held[0]))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_running"


def test_the_lobby_lists_live_tables_by_default(client, clock) -> None:
    _, http = client
    made = []
    for _ in range(2):
        made.append(http.post("/api/games", json={"game": SG, "players": 2}).json()["id"])
        clock.advance(1)  # newest first: one creation time each
    clock.advance(73 * 3600)
    fresh = http.post("/api/games", json={"game": SG, "players": 2}).json()["id"]
    service = client[0].state.service
    assert sorted(timing.sweep(service)) == sorted(made)
    assert [g["id"] for g in http.get("/api/games").json()] == [fresh]
    assert [g["id"] for g in http.get("/api/games?status=recent").json()] == made[::-1]
    assert {g["status"] for g in http.get("/api/games?status=recent").json()} == {"expired"}
    assert len(http.get("/api/games?status=all").json()) == 3
    joined = http.post(f"/api/games/{made[0]}/seats/0/join", json={})
    assert joined.status_code == 409 and joined.json()["error"]["code"] == "expired"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_0004_goes_down_and_up(tmp_path: Path, clock, backend: str) -> None:
    url = database_url(backend, tmp_path)
    service = GameService(url, clock=clock)
    game_id, _ = table(service, timing=REALTIME)
    service.close()
    down_and_up(url, "0003", "games", {"deadline_at", "clocks"})  # the revision before timing
    again = GameService(url, clock=clock)
    live = again.get(game_id)  # the game is still there, now untimed
    assert live.table.kind == "none" and live.table.deadline_at is None
    assert len(again.get(game_id).seats) == 2
    again.close()


def test_the_settings_come_from_the_environment_and_are_checked() -> None:
    settings = Settings.from_env({"PALIO_OPEN_EXPIRY_HOURS": "2", "PALIO_IDLE_DAYS": "0.5",
                                  "PALIO_DEADLINE_SWEEP": "0.25"})
    assert (settings.open_expiry_hours, settings.idle_days, settings.deadline_sweep) == (
        2.0, 0.5, 0.25)
    assert Settings.from_env(settings.to_env()) == settings  # what --workers N hands on
    for name in ("PALIO_OPEN_EXPIRY_HOURS", "PALIO_IDLE_DAYS", "PALIO_DEADLINE_SWEEP"):
        with pytest.raises(ValueError):
            Settings.from_env({name: "0"})


def test_the_limits_set_each_new_deadline(tmp_path: Path, clock) -> None:
    service = GameService(f"sqlite:///{tmp_path / 'palio.db'}", clock=clock,
                          limits=timing.Limits(open_expiry_hours=2, idle_days=1))
    waiting = service.create({"game": SG, "players": 2})
    assert waiting.table.deadline_at == START + timedelta(hours=2)
    game_id, _ = table(service)
    assert service.get(game_id).table.deadline_at == START + timedelta(days=1)
    service.close()
