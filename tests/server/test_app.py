"""The application in-process: what a real server process cannot show from outside (a game
lock held for a while, an unexpected exception)."""

from __future__ import annotations

import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from palio.server.app import create_app

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def app_client(tmp_path: Path) -> Any:
    app = create_app(f"sqlite:///{tmp_path / 'palio.db'}", bot_delay=0.0)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield app, client


def test_a_held_game_lock_never_blocks_the_event_loop(app_client: Any) -> None:
    """A commit or a slow view holds a game's lock in a worker thread; requests that wait for
    it must wait off the event loop, so every other request is still served."""
    app, client = app_client
    game_id = client.post("/api/games", json={"game": "san-gimignano", "players": 2}).json()["id"]
    live = app.state.service.get(game_id)
    answers: dict[str, int] = {}

    def get(name: str, path: str) -> None:
        answers[name] = client.get(path).status_code

    waiting = threading.Thread(target=get, args=("summary", f"/api/games/{game_id}"))
    other = threading.Thread(target=get, args=("bots", "/api/bots"))
    with live.lock:
        waiting.start()
        time.sleep(0.3)  # the summary request now waits for the lock
        other.start()
        other.join(5)
        assert answers.get("bots") == 200, "the event loop was blocked by a game lock"
        assert "summary" not in answers
    waiting.join(10)
    assert answers["summary"] == 200


def test_an_unexpected_error_is_json_and_names_nothing(app_client: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    app, client = app_client

    def broken(_status: str | None) -> None:
        raise RuntimeError("seat 1 holds 9 9 5")

    monkeypatch.setattr(app.state.service, "list_games", broken)
    response = client.get("/api/games")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal_error"
    assert "9 9 5" not in response.text


def test_a_client_that_leaves_mid_body_is_one_log_line(app_client: Any, caplog: Any) -> None:
    """A client that disconnects before its body has arrived (Starlette's ClientDisconnect):
    one line in the log, no traceback, nothing changed (issue 35)."""
    import logging

    app, client = app_client
    caplog.set_level(logging.INFO)
    parts = [{"type": "http.request", "body": b'{"game": "san-gimi', "more_body": True},
             {"type": "http.disconnect"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return parts.pop(0) if parts else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/games",
             "raw_path": b"/api/games", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         (b"content-length", b"200")],
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}
    client.portal.call(app, scope, receive, send)
    lines = [r for r in caplog.records if "disconnected" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None, caplog.text
    assert "POST /api/games" in lines[0].getMessage()
    assert "Traceback" not in caplog.text and "ClientDisconnect" not in caplog.text
    assert client.get("/api/games").json() == []  # nothing was created


def _leaf_routes(routes: list[Any]) -> list[Any]:
    """The routes in the order a request is matched against them, an included router's
    routes in its place."""
    out = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        out.extend(_leaf_routes(inner.routes) if inner is not None else [route])
    return out


def _may_both_match(a: str, b: str) -> bool:
    """Whether one request path can match both path patterns (``{name}``: one segment;
    ``{name:path}``: the rest of the path)."""
    left, right = a.strip("/").split("/"), b.strip("/").split("/")
    for x, y in zip(left, right, strict=False):
        if x.endswith(":path}") or y.endswith(":path}"):
            return True
        if not (x.startswith("{") or y.startswith("{") or x == y):
            return False
    return len(left) == len(right)


def test_the_tables_routes_come_first_and_shadow_no_other(tmp_path: Path) -> None:
    """The tables' routes (a move's POST among them) are matched first, before every included
    router's (palio.server.app.create_app): that changes no answer only while no route of
    those routers can match a path of theirs, whatever the method (a route that matches the
    path but not the method still decides a 405)."""
    app = create_app(f"sqlite:///{tmp_path / 'palio.db'}", bot_delay=0.0)
    leaves = _leaf_routes(app.router.routes)
    play = [r for r in leaves if getattr(r, "endpoint", None) is not None
            and r.endpoint.__module__ == "palio.server.play.routes"]
    included = [r for route in app.router.routes if hasattr(route, "original_router")
                for r in _leaf_routes(route.original_router.routes)]
    assert play and included
    actions = next(r for r in play if r.path == "/api/games/{game_id}/actions")
    assert leaves.index(actions) < min(leaves.index(r) for r in included)
    assert max(leaves.index(r) for r in play) < min(leaves.index(r) for r in included)
    overlapping = [(p.path, r.path) for p in play for r in included
                   if _may_both_match(p.path, r.path)]
    assert overlapping == []
    # the check itself tells overlapping patterns apart
    assert _may_both_match("/api/games/{game_id}/view", "/api/games/{x}/{y}")
    assert _may_both_match("/static/{path:path}", "/static/a/b")
    assert not _may_both_match("/api/games/{game_id}", "/api/ratings/{game}")
    assert not _may_both_match("/api/games/{game_id}", "/api/games/{game_id}/view")
