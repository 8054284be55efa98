"""WebSocket push: a view at once on connect, and a fresh one after every change."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.responses import JSONResponse
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from palio.server.play.push import Hub, messages_of, texts_for, with_now
from palio.server.play.service import GameService
from tests.server.conftest import Server
from tests.server.play.test_api import post, two_humans


def next_view(ws: Any, timeout: float = 10) -> dict[str, Any]:
    message = json.loads(ws.recv(timeout=timeout))
    assert message["type"] == "view"
    return message["view"]


def view_at(ws: Any, move_number: int, timeout: float = 10) -> dict[str, Any]:
    """Read pushes until one shows ``move_number`` (pushes always show the latest position)."""
    while True:
        view = next_view(ws, timeout)
        if view["move_number"] >= move_number:
            assert view["move_number"] == move_number
            return view


def test_push_on_connect_and_after_moves(server: Server) -> None:
    game_id, ada, bo = two_humans(server)
    base = f"{server.ws_base}/ws/games/{game_id}"
    with connect(f"{base}?token={ada}") as ws_ada, connect(f"{base}?token={bo}") as ws_bo, \
            connect(base) as ws_spectator:
        first = next_view(ws_ada)
        assert first["seat"] == 0 and first["move_number"] == 0 and first["legal"]
        assert next_view(ws_bo)["seat"] == 1
        assert next_view(ws_spectator)["seat"] is None
        ws_ada.send("hello")  # ignored
        response = post(server, f"/api/games/{game_id}/actions", ada,
                        json={"action": "buy", "move_number": 0})
        assert response.status_code == 200
        pushed = view_at(ws_ada, 1)
        assert pushed["observation"] == response.json()["observation"]
        bo_view = view_at(ws_bo, 1)
        assert bo_view["seat"] == 1 and bo_view["legal"] == []
        assert "hand" not in bo_view["observation"]["players"][0]
        spectator = view_at(ws_spectator, 1)
        assert all("hand" not in p for p in spectator["observation"]["players"])
        # undo is a change too
        assert post(server, f"/api/games/{game_id}/undo", ada, json={"move_number": 1}).status_code == 200
        assert next_view(ws_spectator)["move_number"] == 0
    # a reconnecting client gets the current view at once
    with connect(f"{base}?token={bo}") as again:
        assert next_view(again)["move_number"] == 0


def test_push_on_join(server: Server) -> None:
    created = server.create(game="san-gimignano", players=2, seats=[{"kind": "human"},
                                                                    {"kind": "human"}])
    with connect(f"{server.ws_base}/ws/games/{created['id']}") as ws:
        assert next_view(ws)["status"] == "open"
        server.join(created["id"], 0)
        assert next_view(ws)["seats"][0]["taken"] is True


def test_bad_socket_token_and_game(server: Server) -> None:
    game_id, _, _ = two_humans(server)
    with connect(f"{server.ws_base}/ws/games/{game_id}?token=wrong") as ws:
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] == "error" and message["error"]["code"] == "bad_token"
    with connect(f"{server.ws_base}/ws/games/nope") as ws:
        assert json.loads(ws.recv(timeout=10))["error"]["code"] == "no_such_game"


def test_token_in_the_first_message(server: Server) -> None:
    """A browser cannot set a WebSocket's Authorization header and URLs are logged, so the
    token may come as the first message; the seat's view follows at once."""
    game_id, ada, _ = two_humans(server)
    with connect(f"{server.ws_base}/ws/games/{game_id}") as ws:
        assert next_view(ws)["seat"] is None  # a spectator until the token comes
        ws.send(json.dumps({"type": "auth", "token": ada}))
        mine = next_view(ws)
        assert mine["seat"] == 0 and mine["legal"]
        post(server, f"/api/games/{game_id}/actions", ada, json={"action": "buy", "move_number": 0})
        assert view_at(ws, 1)["seat"] == 0
    # the header works as well (clients that can set one)
    with connect(f"{server.ws_base}/ws/games/{game_id}",
                 additional_headers={"Authorization": f"Bearer {ada}"}) as ws:
        assert next_view(ws)["seat"] == 0


def test_a_bad_token_message_is_refused_and_closes(server: Server) -> None:
    game_id, _, _ = two_humans(server)
    for message in ({"type": "auth", "token": "wrong"}, {"type": "auth", "token": 5}):
        with connect(f"{server.ws_base}/ws/games/{game_id}") as ws:
            next_view(ws)
            ws.send(json.dumps(message))
            refused = json.loads(ws.recv(timeout=10))
            assert refused["type"] == "error" and refused["error"]["code"] in (
                "bad_token", "bad_message")
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code in (4403, 4400)


def test_anything_a_client_sends_is_ignored_or_answered(server: Server) -> None:
    """Binary frames, text that is not JSON, JSON of any other shape, a second auth: the
    connection lives on and keeps getting pushes."""
    game_id, ada, bo = two_humans(server)
    with connect(f"{server.ws_base}/ws/games/{game_id}?token={bo}") as ws:
        assert next_view(ws)["seat"] == 1
        for junk in (b"\x00\xff binary", "not json", "[1, 2]", '{"type": "ping"}', "{}",
                     json.dumps({"type": "auth", "token": ada}), "x" * 10_000):
            ws.send(junk)
        post(server, f"/api/games/{game_id}/actions", ada, json={"action": "buy", "move_number": 0})
        assert view_at(ws, 1)["seat"] == 1  # still Bo's view: the second auth was ignored


def test_disconnects_and_junk_log_no_tracebacks(make_server: Any) -> None:
    """A client that vanishes (no close frame), one that closes while pushes are under way,
    binary frames: none of it is a server error."""
    server: Server = make_server(None, 0.0, log_level="info")
    server.start()
    game_id, ada, bo = two_humans(server)
    url = f"{server.ws_base}/ws/games/{game_id}"
    for _ in range(3):
        with connect(f"{url}?token={bo}") as ws:
            ws.send(b"\x01\x02")
            ws.socket.close()  # gone without a close frame
        with connect(url) as polite:
            next_view(polite)
    for number in range(4):
        with connect(url):  # closes while the move's push is under way
            mover = ada if server.view(game_id)["to_move"] == 0 else bo
            move = server.view(game_id, mover)["legal"][0]["notation"]
            assert post(server, f"/api/games/{game_id}/actions", mover,
                        json={"action": move, "move_number": number}).status_code == 200
    with connect(url) as ws:
        assert next_view(ws)["move_number"] == 4
    server.stop()
    text = server.log_path.read_text()
    assert "Traceback" not in text and "Exception in ASGI" not in text, text[-3000:]
    assert "WebSocket" in text  # the log was written at info level


def test_tokens_never_reach_the_log(make_server: Any) -> None:
    """Tokens work as passwords: with the access log on, a token sent in a query (old links),
    a header or a first message appears nowhere in the server's log."""
    server: Server = make_server(None, 0.0, log_level="debug")
    server.start()
    game_id, ada, bo = two_humans(server)
    server.http.get(f"/api/games/{game_id}/view?token={ada}")
    server.http.get(f"/api/games/{game_id}/view?lang=en&token={bo}&x=1")
    server.http.get(f"/games/{game_id}?token={ada}")
    with connect(f"{server.ws_base}/ws/games/{game_id}?token={ada}") as ws:
        next_view(ws)
    with connect(f"{server.ws_base}/ws/games/{game_id}") as ws:
        next_view(ws)
        ws.send(json.dumps({"type": "auth", "token": bo}))
        next_view(ws)
    post(server, f"/api/games/{game_id}/actions", ada, json={"action": "buy", "move_number": 0})
    server.stop()
    text = server.log_path.read_text()
    assert "token=[redacted]" in text and "GET /api/games" in text
    for token in (ada, bo):
        assert token not in text and token[:12] not in text


def test_a_view_is_serialised_once_for_its_answer_and_its_push(tmp_path: Any) -> None:
    """The REST answer and the push message of a view are made from one JSON text
    (``LiveGame.view_text``): the answer's bytes are exactly what JSONResponse wrote of
    ``{**view, "now": now}``, the push message is ``{"type": "view", "view": that}``, and
    each (seat, language) gets its own text, rebuilt at every revision."""
    service = GameService(f"sqlite:///{tmp_path / 'p.db'}")
    live = service.create({"game": "san-gimignano", "players": 2, "seed": 3,
                           "seats": [{"kind": "human"}] * 2})
    for seat in range(2):
        service.join(live.id, seat, {"name": None if seat else "Ada é"})
    now = "2026-11-28T12:00:00+00:00"
    for _ in range(3):
        readers = {(seat, lang) for seat in (0, 1, None) for lang in ("en", "ja")}
        texts = texts_for(live, readers)
        messages = messages_of(texts, now)
        assert len(set(texts.values())) == len(readers)  # no two readers share a text
        for reader in readers:
            view = live.view(*reader)
            assert "now" not in view and view["seat"] == reader[0]
            answer = with_now(texts[reader], now)
            assert answer.encode() == JSONResponse({**view, "now": now}).body
            assert json.loads(messages[reader]) == {"type": "view", "view": {**view, "now": now}}
        assert live.cached_texts(readers) == (live.revision, texts)
        seat = live.state.to_move
        service.act(live.id, seat, {"action": str(live.state.legal_actions()[0]),
                                    "move_number": live.move_number})
        assert live.cached_texts(readers) is None  # a new revision: nothing built yet
    service.close()


class Watcher:
    """A connection's stand-in for the hub: what it was offered."""

    def __init__(self, reader: tuple[int | None, str]) -> None:
        self.reader = reader
        self.offered: list[int] = []

    def offer(self, revision: int, message: str) -> None:
        self.offered.append(revision)


def test_a_change_made_here_is_pushed_once_whatever_its_notification_does(
        tmp_path: Any) -> None:
    """A move made in this process (``Hub.making_change``) is pushed by its own route from
    the views it built; its own notification (PostgreSQL's NOTIFY, here called by hand as
    ``Server.notified`` does), arriving before or after, adds no push that reads the game
    again (``Hub.build``, a worker thread and a read of the row). A notification of a
    revision this process's copy lacks still reads the game; one that came during a change
    that failed is still pushed once the change is over."""
    service = GameService(f"sqlite:///{tmp_path / 'h.db'}")
    live = service.create({"game": "san-gimignano", "players": 2, "seed": 5,
                           "seats": [{"kind": "human"}] * 2})
    for seat in range(2):
        service.join(live.id, seat, {"name": f"P{seat}"})
    hub = Hub(service)
    watcher = Watcher((None, "en"))
    hub.viewers[live.id] = {watcher}  # type: ignore[arg-type]
    reads: list[int] = []
    build = hub.build

    def counted_build(game_id: str, readers: set[Any]) -> Any:
        reads.append(service.live[game_id].revision)
        return build(game_id, readers)

    hub.build = counted_build  # type: ignore[method-assign]

    def move() -> None:
        service.act(live.id, live.state.to_move, {"action": str(live.state.legal_actions()[0]),
                                                  "move_number": live.move_number})
        texts_for(live, hub.readers(live.id))  # the route builds its watchers' views

    async def settle() -> None:
        task = hub.pushers.get(live.id)  # the game's push, if one was started
        if task is not None:
            await task

    async def play() -> None:
        for notified_first in (True, False):
            with hub.making_change(live.id):
                move()
                if notified_first:  # the notification before the route's own push
                    hub.changed(live.id, elsewhere=True, revision=live.revision)
                    assert live.id not in hub.pushers or hub.pushers[live.id].done()
                hub.changed(live.id)
            if not notified_first:  # ... or after it
                hub.changed(live.id, elsewhere=True, revision=live.revision)
            await settle()
            assert watcher.offered[-1] == live.revision
        assert reads == []
        # another process's revision, which this copy lacks: read (service.get catches up)
        hub.changed(live.id, elsewhere=True, revision=live.revision + 1)
        await settle()
        assert reads == [live.revision]
        # a notification during a change here that then failed: pushed when it is over
        offered = len(watcher.offered)
        with pytest.raises(RuntimeError), hub.making_change(live.id):
            hub.changed(live.id, elsewhere=True, revision=live.revision + 1)
            await settle()
            assert len(watcher.offered) == offered  # waits for the change
            raise RuntimeError("the change failed")
        await settle()
        assert len(watcher.offered) == offered + 1 and len(reads) == 2

    asyncio.run(play())
    service.close()
