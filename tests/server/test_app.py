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
