"""Table chat (palio.server.chat.chat): who may write and read, bad input, the rate limit on the
server's clock, plain text only, and the push over the game's WebSocket. In-process, on SQLite
and (with ``PALIO_TEST_POSTGRES_URL``) PostgreSQL."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from palio.server.app import create_app
from palio.server.base.clock import ManualClock
from palio.server.base.settings import Settings
from palio.server.chat.chat import MAX_LENGTH, PER_MINUTE
from tests.server.clients import browser_of
from tests.server.conftest import database_url

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SG = "san-gimignano"
XSS = '<img src=x onerror="document.body.dataset.pwned=1">'


class Table:
    def __init__(self, client: Any, clock: ManualClock) -> None:
        self.client = client
        self.clock = clock

    def create(self, **extra: Any) -> tuple[str, str, str]:
        reply = self.client.post("/api/games", json={
            "game": SG, "players": 2, "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "human"}], **extra})
        assert reply.status_code == 201, reply.text
        game_id = reply.json()["id"]
        tokens = [self.client.post(f"/api/games/{game_id}/seats/{seat}/join",
                                   json={"name": name}).json()["token"]
                  for seat, name in ((0, "Ada"), (1, "Bo"))]
        return game_id, tokens[0], tokens[1]

    def say(self, game_id: str, token: str | None, body: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.post(f"/api/games/{game_id}/chat", json=body, headers=headers)

    def read(self, game_id: str, token: str | None = None, after: Any = 0) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.get(f"/api/games/{game_id}/chat?after={after}", headers=headers)


@pytest.fixture(params=["sqlite", "postgres"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Table]:
    clock = ManualClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    settings = Settings(db=database_url(request.param, tmp_path), bot_delay=0.0,
                        games_per_minute=0, bot_processes=1)
    with TestClient(create_app(settings, clock=clock), raise_server_exceptions=False) as client:
        yield Table(client, clock)


def texts(reply: Any) -> list[str]:
    assert reply.status_code == 200, reply.text
    return [m["text"] for m in reply.json()["messages"]]


def test_seats_write_and_read_each_others_messages(table: Table) -> None:
    game_id, ada, bo = table.create()
    sent = table.say(game_id, ada, {"text": "good luck"})
    assert sent.status_code == 201, sent.text
    message = sent.json()
    assert message["n"] == 1 and message["seat"] == 0 and message["name"] == "Ada"
    assert table.say(game_id, bo, {"text": "you too"}).status_code == 201
    assert texts(table.read(game_id, bo)) == ["good luck", "you too"]
    assert texts(table.read(game_id, ada, after=1)) == ["you too"]
    assert [m["seat"] for m in table.read(game_id, ada).json()["messages"]] == [0, 1]


def test_spectators_neither_write_nor_read_without_the_flag(table: Table) -> None:
    game_id, ada, _ = table.create()
    assert table.say(game_id, ada, {"text": "between us"}).status_code == 201
    refused = table.say(game_id, None, {"text": "hello players"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "chat_closed"
    assert table.read(game_id).status_code == 403
    assert table.client.get(f"/api/games/{game_id}/chat").status_code == 403
    assert texts(table.read(game_id, ada)) == ["between us"]
    assert table.client.get(f"/api/games/{game_id}").json()["spectator_chat"] is False


def test_spectators_write_and_read_where_the_table_allows(table: Table) -> None:
    game_id, ada, _ = table.create(spectator_chat=True)
    assert table.client.get(f"/api/games/{game_id}").json()["spectator_chat"] is True
    written = table.say(game_id, None, {"text": "nice move"})
    assert written.status_code == 201, written.text
    message = written.json()
    assert message["seat"] is None and message["name"] is None
    assert message["author"].startswith("guest:")
    assert texts(table.read(game_id)) == ["nice move"]
    assert texts(table.read(game_id, ada)) == ["nice move"]


def test_a_wrong_token_or_game_is_refused(table: Table) -> None:
    game_id, _, _ = table.create(spectator_chat=True)
    assert table.say(game_id, "not-a-token", {"text": "hi"}).status_code == 403
    assert table.say("nosuchgame", None, {"text": "hi"}).status_code == 404
    assert table.read("nosuchgame").status_code == 404
    assert texts(table.read(game_id)) == []


@pytest.mark.parametrize("body", [
    {}, {"text": ""}, {"text": "   "}, {"text": 5}, {"text": ["hi"]}, {"text": "hi", "extra": 1},
    {"text": "x" * (MAX_LENGTH + 1)}, {"text": "line\nbreak"}, {"text": "bell\x07"},
    {"text": "nul\x00"}, {"text": "mirror\u202eevil"}, [], "hi",
    # made only of characters that show nothing (issue 35): zero-width space, joiners, the
    # word joiner and byte-order mark, the Hangul filler, the braille blank, a lone accent
    {"text": "\u200b\u200b"}, {"text": " \u200d\u200c "}, {"text": "\u2060\ufeff"},
    {"text": "\u3164"}, {"text": "\u2800\u2800"}, {"text": "\u0301"}, {"text": "\u3000"},
])
def test_bad_input_is_refused_and_changes_nothing(table: Table, body: Any) -> None:
    game_id, ada, _ = table.create()
    reply = table.say(game_id, ada, body)
    assert reply.status_code in (400, 422), reply.text
    error = reply.json()["error"]
    assert error["code"] and error["message"]
    assert texts(table.read(game_id, ada)) == []


def test_bad_after_is_a_400(table: Table) -> None:
    game_id, ada, _ = table.create()
    for after in ("-1", "x", "1e3", "9" * 20):
        assert table.read(game_id, ada, after=after).status_code == 400


def test_the_longest_message_is_accepted(table: Table) -> None:
    game_id, ada, _ = table.create()
    assert table.say(game_id, ada, {"text": "é" * MAX_LENGTH}).status_code == 201


def test_the_rate_limit_follows_the_servers_clock(table: Table) -> None:
    game_id, ada, bo = table.create()
    for i in range(PER_MINUTE):
        assert table.say(game_id, ada, {"text": f"m{i}"}).status_code == 201
    refused = table.say(game_id, ada, {"text": "one more"})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_messages"
    assert table.say(game_id, bo, {"text": "my own limit"}).status_code == 201  # per author
    table.clock.advance(30)
    assert table.say(game_id, ada, {"text": "still"}).status_code == 429
    table.clock.advance(31)
    assert table.say(game_id, ada, {"text": "a minute later"}).status_code == 201
    got = texts(table.read(game_id, ada))
    assert "one more" not in got and "still" not in got and got[-1] == "a minute later"
    assert len(got) == PER_MINUTE + 2


def test_html_stays_text(table: Table) -> None:
    game_id, ada, _ = table.create()
    sent = table.say(game_id, ada, {"text": XSS})
    assert sent.status_code == 201
    assert texts(table.read(game_id, ada)) == [XSS]  # stored and sent as it was written
    assert "text/html" not in table.read(game_id, ada).headers["content-type"]


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message


def test_messages_are_pushed_to_those_who_may_read(table: Table) -> None:
    game_id, ada, bo = table.create()
    path = f"/ws/games/{game_id}"
    with table.client.websocket_connect(path) as ws_bo, \
            table.client.websocket_connect(path) as ws_spectator:
        ws_bo.send_json({"type": "auth", "token": bo})
        assert next_of(ws_bo, "view")["view"]["seat"] is None
        assert next_of(ws_bo, "view")["view"]["seat"] == 1
        next_of(ws_spectator, "view")
        assert table.say(game_id, ada, {"text": XSS}).status_code == 201
        pushed = next_of(ws_bo, "chat")["message"]
        assert pushed["text"] == XSS and pushed["n"] == 1 and pushed["seat"] == 0
        # a move still comes as a view; the spectator's socket carries no chat at all
        assert table.say(game_id, bo, {"text": "second"}).status_code == 201
        assert next_of(ws_bo, "chat")["message"]["n"] == 2
        ws_spectator.close()


def test_spectators_get_pushes_where_the_table_allows(table: Table) -> None:
    game_id, ada, _ = table.create(spectator_chat=True)
    with table.client.websocket_connect(f"/ws/games/{game_id}") as ws:
        next_of(ws, "view")
        assert table.say(game_id, ada, {"text": "welcome"}).status_code == 201
        assert next_of(ws, "chat")["message"]["text"] == "welcome"


def test_a_spectator_socket_gets_no_chat_without_the_flag(table: Table) -> None:
    """The spectator's socket must see the move's view but never the chat message sent
    before it (pushes of one connection are sent in the order they were queued)."""
    game_id, ada, bo = table.create()
    path = f"/ws/games/{game_id}"
    with table.client.websocket_connect(path) as ws, \
            table.client.websocket_connect(path) as ws_bo:
        ws_bo.send_json({"type": "auth", "token": bo})
        assert next_of(ws, "view")["view"]["move_number"] == 0
        next_of(ws_bo, "view")
        assert table.say(game_id, ada, {"text": "secret plan"}).status_code == 201
        # Bo has it: the push of this message is done, to every connection it was for
        assert next_of(ws_bo, "chat")["message"]["text"] == "secret plan"
        view = table.client.get(f"/api/games/{game_id}/view",
                                headers={"Authorization": f"Bearer {ada}"}).json()
        action = view["legal"][0]["notation"] if isinstance(view["legal"][0], dict) else None
        assert action is not None
        moved = table.client.post(f"/api/games/{game_id}/actions",
                                  json={"action": action, "move_number": 0},
                                  headers={"Authorization": f"Bearer {ada}"})
        assert moved.status_code == 200, moved.text
        while True:
            message = ws.receive_json()
            assert message["type"] != "chat"
            if message["view"]["move_number"] == 1:
                break


def test_a_message_written_through_one_process_reaches_a_reader_on_another(
        make_server: Any, tmp_path: Path) -> None:
    """Two ``palio serve`` processes on one PostgreSQL database: Bo watches through B, Ada
    writes through A; B pushes it (NOTIFY "<id> chat")."""
    import json

    from websockets.sync.client import connect

    url = database_url("postgres", tmp_path)
    a, b = make_server(url, 0.0), make_server(url, 0.0)
    a.start()
    b.start()
    created = a.create(game=SG, players=2, seed=3, seats=[{"kind": "human"}] * 2)
    game_id = created["id"]
    ada, bo = a.join(game_id, 0, "Ada"), a.join(game_id, 1, "Bo")
    with connect(f"{b.ws_base}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "auth", "token": bo}))
        while json.loads(ws.recv(timeout=15))["view"]["seat"] != 1:
            pass
        reply = a.http.post(f"/api/games/{game_id}/chat", json={"text": "across"},
                            headers={"Authorization": f"Bearer {ada}"})
        assert reply.status_code == 201, reply.text
        while True:
            message = json.loads(ws.recv(timeout=15))
            if message["type"] == "chat":
                assert message["message"]["text"] == "across"
                break


# -- with accounts -------------------------------------------------------------------------------
ORIGIN = {"Origin": "http://testserver"}


def signed_in(table: Table, name: str) -> Any:
    client = browser_of(table.client)
    reply = client.post("/api/accounts", json={"name": name, "password": "correct horse battery"},
                        headers=ORIGIN)
    assert reply.status_code == 201, reply.text
    return client


def test_a_signed_in_seat_writes_with_its_cookie_and_a_foreign_origin_is_refused(
        table: Table) -> None:
    ada = signed_in(table, "Ada")
    reply = ada.post("/api/games", json={"game": SG, "players": 2}, headers=ORIGIN)
    game_id = reply.json()["id"]
    assert ada.post(f"/api/games/{game_id}/seats/0/join", json={}, headers=ORIGIN).status_code == 200
    sent = ada.post(f"/api/games/{game_id}/chat", json={"text": "hello"}, headers=ORIGIN)
    assert sent.status_code == 201, sent.text
    assert sent.json()["seat"] == 0 and sent.json()["name"] == "Ada"
    forged = ada.post(f"/api/games/{game_id}/chat", json={"text": "forged"},
                      headers={"Origin": "https://evil.example"})
    assert forged.status_code == 403
    assert [m["text"] for m in ada.get(f"/api/games/{game_id}/chat").json()["messages"]] == [
        "hello"]


def test_a_signed_in_spectator_writes_as_its_account(table: Table) -> None:
    game_id, ada, _ = table.create(spectator_chat=True)
    cy = signed_in(table, "Cy")
    sent = cy.post(f"/api/games/{game_id}/chat", json={"text": "watching"}, headers=ORIGIN)
    assert sent.status_code == 201, sent.text
    message = sent.json()
    assert message["author"].startswith("account:") and message["name"] == "Cy"
    assert message["seat"] is None
    assert texts(table.read(game_id, ada)) == ["watching"]


def test_concurrent_writers_keep_the_limit_and_the_numbers(table: Table) -> None:
    """Twenty writes at once by one author: exactly the limit is stored, numbered 1, 2, 3..."""
    from concurrent.futures import ThreadPoolExecutor

    from palio.server.base.errors import ApiError
    from palio.server.chat import chat

    game_id, ada, _ = table.create()
    service = table.client.app.state.service
    live = service.get(game_id)

    def write(i: int) -> int:
        try:
            chat.post(service, live, 0, "seat:0", "Ada", {"text": f"m{i}"})
            return 201
        except ApiError as exc:
            return exc.status

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(write, range(20)))
    assert statuses.count(201) == PER_MINUTE and statuses.count(429) == 20 - PER_MINUTE
    numbers = [m["n"] for m in table.read(game_id, ada).json()["messages"]]
    assert numbers == list(range(1, PER_MINUTE + 1))
