"""A new tournament table reaches its players' open pages with no reload (issue 38): each
signed-in page holds ``/ws/me`` (the header's account corner opens it), and the tables'
push tells it of every table that seats the account, however it was made — a Swiss round
paired by the sweep, an arena's next table made by the finish hook in a move's transaction.
The served application, its clock moved (no sleeping); on SQLite (the commit's hook) and
(with ``PALIO_TEST_POSTGRES_URL``) PostgreSQL (the NOTIFY every process hears)."""

from __future__ import annotations

import random
import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from palio.server.accounts.store import AccountStore
from palio.server.app import create_app
from palio.server.base.clock import ManualClock
from palio.server.base.settings import Settings
from palio.server.play.service import GameService
from tests.server.clients import browser_of
from tests.server.conftest import database_url

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

OWN = "http://testserver"
ORIGIN = {"Origin": OWN}
PASSWORD = "correct horse battery"
START = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    clock = ManualClock(START)
    settings = Settings(db=database_url(request.param, tmp_path), bot_delay=0.0,
                        games_per_minute=0, deadline_sweep=3600)
    with TestClient(create_app(settings, clock=clock), raise_server_exceptions=False) as main:
        yield main, clock


def players(main: TestClient, names: list[str]) -> dict[str, TestClient]:
    browsers = {}
    for name in names:
        browser = browser_of(main, base_url=OWN)
        reply = browser.post("/api/accounts", json={"name": name, "password": PASSWORD},
                             headers=ORIGIN)
        assert reply.status_code == 201, reply.text
        browsers[name] = browser
    return browsers


def tournament(browsers: dict[str, TestClient], **body: Any) -> int:
    organiser = next(iter(browsers.values()))
    reply = organiser.post("/api/tournaments", headers=ORIGIN, json={
        "name": "Pushed", "game": "san-gimignano", "players": 2, "bots": False,
        "starts_at": (START + timedelta(hours=1)).isoformat(), **body})
    assert reply.status_code == 201, reply.text
    tid = reply.json()["id"]
    for browser in browsers.values():
        assert browser.post(f"/api/tournaments/{tid}/register", json={},
                            headers=ORIGIN).status_code == 200
    return tid


def seated_message(ws: Any) -> dict[str, Any]:
    message = ws.receive_json()
    assert message["type"] == "seated", message
    return message


def play_out(main: TestClient, browsers: dict[str, TestClient], game_id: str,
             rng: random.Random) -> None:
    """Each seat's own browser moves (random legal moves) until the game ends."""
    service = main.app.state.service
    for _ in range(5000):
        live = service.get(game_id)
        if live.state.is_over:
            return
        seat = live.state.to_move
        browser = browsers[live.seats[seat].name]
        reply = browser.post(f"/api/games/{game_id}/actions", headers=ORIGIN, json={
            "action": str(rng.choice(live.state.legal_actions())),
            "move_number": live.move_number})
        assert reply.status_code == 200, reply.text
    raise AssertionError("the game did not end")


def test_a_swiss_round_reaches_each_players_open_page(site: Any) -> None:
    main, clock = site
    browsers = players(main, ["Ada", "Bob", "Cy"])
    tid = tournament(browsers, rounds=2)
    with browsers["Ada"].websocket_connect("/ws/me", headers=ORIGIN) as ada, \
            browsers["Bob"].websocket_connect("/ws/me", headers=ORIGIN) as bob, \
            browsers["Cy"].websocket_connect("/ws/me", headers=ORIGIN) as cy:
        pages = {"Ada": ada, "Bob": bob, "Cy": cy}
        for name, ws in pages.items():
            assert ws.receive_json() == {"type": "hello", "name": name}
        clock.advance(3600)
        (game_id,) = main.app.state.tournaments.sweep()  # what the deadline sweep runs
        seats = {s.name: s.seat for s in main.app.state.service.get(game_id).seats}
        for name in seats:  # the two seated hear of it, each with their seat
            assert seated_message(pages[name]) == {"type": "seated", "game": game_id,
                                                   "seat": seats[name]}
        # the one who sits out hears nothing of it: the next message is round 2's table
        play_out(main, browsers, game_id, random.Random(1))
        (second,) = main.app.state.tournaments.sweep()
        seated = {s.name for s in main.app.state.service.get(second).seats}
        (left_out,) = set(pages) - set(seats)
        assert left_out in seated  # had the bye: plays round 2
        for name in seated:
            message = seated_message(pages[name])
            assert message["game"] == second
        detail = browsers["Ada"].get(f"/api/tournaments/{tid}").json()
        assert [len(r["tables"]) for r in detail["rounds"]] == [1, 1]


def test_an_arena_table_made_by_the_finish_hook_reaches_its_players(site: Any) -> None:
    main, clock = site
    browsers = players(main, ["Ada", "Bob"])
    tournament(browsers, format="arena", arena_hours=24)
    with browsers["Ada"].websocket_connect("/ws/me", headers=ORIGIN) as ada, \
            browsers["Bob"].websocket_connect("/ws/me", headers=ORIGIN) as bob:
        assert ada.receive_json()["type"] == bob.receive_json()["type"] == "hello"
        clock.advance(3600)
        (first,) = main.app.state.tournaments.sweep()
        assert seated_message(ada)["game"] == seated_message(bob)["game"] == first
        # the last move finishes the table; its transaction seats both again (the finish
        # hook), with no sweep: the pages hear of the new table all the same
        play_out(main, browsers, first, random.Random(2))
        again_ada, again_bob = seated_message(ada), seated_message(bob)
        assert again_ada["game"] == again_bob["game"] != first
        live = main.app.state.service.get(again_ada["game"])
        assert {s.name: s.seat for s in live.seats} == {"Ada": again_ada["seat"],
                                                         "Bob": again_bob["seat"]}
        assert live.status == "running"


def test_a_page_without_an_account_is_refused(site: Any) -> None:
    main, _ = site
    guest = browser_of(main, base_url=OWN)
    with guest.websocket_connect("/ws/me", headers=ORIGIN) as ws:
        assert ws.receive_json()["error"]["code"] == "not_signed_in"
        assert ws.receive()["code"] == 4401


def test_a_table_is_told_once_its_transaction_commits_and_never_if_undone(
        tmp_path: Path) -> None:
    """The tables' service tells its ``seated_hooks`` after the commit only (SQLite; on
    PostgreSQL the transaction's NOTIFY, which the database drops with a rolled-back
    savepoint or transaction, does it): not before, not for a savepoint rolled back (an
    arena's seating failing in the finish hook), not for a transaction rolled back."""
    service = GameService(database_url("sqlite", tmp_path), clock=ManualClock(START))
    ada = AccountStore(service.sessions, service.clock).create("Ada", PASSWORD).id
    told: list[tuple[str, list[int | None]]] = []
    service.seated_hooks.append(lambda game_id, accounts: told.append((game_id, accounts)))
    body = {"game": "san-gimignano", "players": 2}
    with service.sessions.begin() as session:
        made = service.create_seated(session, body, [(ada, "Ada"), None])
        assert told == []  # not before the commit
    assert told == [(made, [ada, None])]
    told.clear()
    with service.sessions.begin() as session:
        with pytest.raises(RuntimeError), session.begin_nested():
            service.create_seated(session, body, [(ada, "Ada"), None])
            raise RuntimeError("the seating failed")
        kept = service.create_seated(session, body, [None, (ada, "Ada")])
    assert told == [(kept, [None, ada])]
    told.clear()
    with pytest.raises(RuntimeError), service.sessions.begin() as session:
        service.create_seated(session, body, [(ada, "Ada"), None])
        raise RuntimeError("the round failed")
    with service.sessions.begin() as session:  # nothing of the one undone carries over
        later = service.create_seated(session, body, [(ada, "Ada"), None])
    assert told == [(later, [ada, None])]
    service.close()


def test_signing_out_closes_the_accounts_socket(site: Any) -> None:
    main, _ = site
    ada = players(main, ["Ada"])["Ada"]
    with ada.websocket_connect("/ws/me", headers=ORIGIN) as ws:
        assert ws.receive_json()["type"] == "hello"
        assert ada.delete("/api/session", headers=ORIGIN).status_code == 204
        assert ws.receive_json()["error"]["code"] == "signed_out"
        assert ws.receive()["code"] == 4401
