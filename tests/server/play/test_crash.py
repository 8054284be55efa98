"""kill -9 the server in the middle of games, restart it on the same database: every game
goes on from its last acknowledged move and finishes."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

import palio
from palio.core.record import GameRecord
from tests.server.conftest import Server, database_url


def watch(url: str, views: list[dict[str, Any]], stop: threading.Event) -> None:
    """Spectator pushes until the connection dies (the kill)."""
    try:
        with connect(url) as ws:
            while not stop.is_set():
                try:
                    views.append(json.loads(ws.recv(timeout=0.2))["view"])
                except TimeoutError:
                    continue
    except Exception:
        return


def play(server: Server, game_id: str, token: str, acked: dict[int, str], stop: threading.Event,
         rng: random.Random) -> None:
    """Random moves for seat 0 until stopped or the server dies; records each acknowledgement."""
    try:
        with server.client(token) as client:
            while not stop.is_set():
                view = client.get(f"/api/games/{game_id}/view").json()
                if view["is_over"]:
                    return
                if view["to_move"] != 0 or not view["legal"]:
                    time.sleep(0.005)
                    continue
                move = rng.choice(view["legal"])["notation"]
                response = client.post(f"/api/games/{game_id}/actions",
                                       json={"action": move, "move_number": view["move_number"]})
                if response.status_code == 200:
                    acked[view["move_number"] + 1] = move
                else:
                    assert response.status_code == 409, response.text
    except httpx.HTTPError:
        return  # the server was killed under us: what was in flight is not acknowledged


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_kill_and_restart_loses_no_acknowledged_move(make_server: Any, backend: str,
                                                     tmp_path: Any) -> None:
    server: Server = make_server(database_url(backend, tmp_path), bot_delay=0.05)
    server.start()
    bots = server.create(game="tiletum", players=2, seed=8,
                         seats=[{"kind": "bot", "level": "random"}] * 2)["id"]
    mixed = server.create(game="tiletum", players=2, seed=9,
                          seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])["id"]
    token = server.join(mixed, 0, "Ada")
    pushed: list[dict[str, Any]] = []
    acked: dict[int, str] = {}
    stop = threading.Event()
    rng = random.Random(3)
    watcher = threading.Thread(target=watch, args=(f"{server.ws_base}/ws/games/{bots}", pushed, stop))
    player = threading.Thread(target=play, args=(server, mixed, token, acked, stop, rng))
    watcher.start()
    player.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (len(acked) < 8 or not pushed or pushed[-1]["move_number"] < 20):
        time.sleep(0.02)
    server.kill()  # while the bots and the player are busy
    stop.set()
    watcher.join(10)
    player.join(10)
    assert acked and pushed and not pushed[-1]["is_over"], "the kill should land mid-game"

    server.start()  # the same database
    assert server.view(mixed)["move_number"] >= max(acked)
    stop = threading.Event()
    finisher = threading.Thread(target=play, args=(server, mixed, token, {}, stop, rng))
    finisher.start()
    server.wait_over(bots, timeout=60)
    server.wait_over(mixed, timeout=60)
    stop.set()
    finisher.join(10)

    game = palio.get_game("tiletum")
    records = {}
    for game_id in (bots, mixed):
        with server.client() as client:
            records[game_id] = client.get(f"/api/games/{game_id}/record").json()
        GameRecord(**records[game_id]).replay(game)  # replays to the stated result
    for n, notation in acked.items():
        assert records[mixed]["actions"][n - 1] == notation, f"acknowledged move {n} lost"
    record = records[bots]
    state = game.setup(record["players"], record["seed"], record["options"])
    states = [state.copy()]
    for text in record["actions"]:
        state.apply(text)
        states.append(state.copy())
    for view in pushed:  # every position pushed before the kill is in the persisted game
        assert view["observation"] == states[view["move_number"]].observe(None)
