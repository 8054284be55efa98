"""WebSocket push: a view at once on connect, and a fresh one after every change."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from tests.server.conftest import Server
from tests.server.test_api import post, two_humans


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
