"""Whole games watched over WebSocket by every seat and a spectator: each push must be exactly
what that seat may see at that move number, recomputed from the finished game's record."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import pytest
from websockets.sync.client import connect

import palio
from palio.core import describe
from palio.core.game import State
from palio.core.i18n import Translator
from palio.server.play.service import Seat, seat_names
from tests.server.conftest import Server


def collect(url: str, out: list[dict[str, Any]], ready: threading.Event) -> None:
    with connect(url) as ws:
        ready.set()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            view = json.loads(ws.recv(timeout=60))["view"]
            out.append(view)
            if view["is_over"]:
                return


def states_by_move(record: dict[str, Any]) -> list[State]:
    game = palio.get_game(record["game"])
    state = game.setup(record["players"], record["seed"], record["options"])
    states = [state.copy()]
    for text in record["actions"]:
        state.apply(text)
        states.append(state.copy())
    return states


def play_randomly(server: Server, game_id: str, tokens: dict[int, str], seed: int) -> None:
    """Random decisions for the seats this test holds, through the REST API."""
    rng = random.Random(seed)
    clients = {seat: server.client(token) for seat, token in tokens.items()}
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = server.view(game_id)
            if state["is_over"]:
                return
            seat = state["to_move"]
            if seat not in clients:
                time.sleep(0.01)  # a bot's turn
                continue
            view = clients[seat].get(f"/api/games/{game_id}/view").json()
            if view["to_move"] != seat or not view["legal"]:
                continue
            move = rng.choice(view["legal"])["notation"]
            response = clients[seat].post(f"/api/games/{game_id}/actions",
                                          json={"action": move, "move_number": view["move_number"]})
            assert response.status_code in (200, 409), response.text
        raise AssertionError("the game did not finish")
    finally:
        for client in clients.values():
            client.close()


@pytest.mark.parametrize(("game", "players", "bots"), [
    ("san-gimignano", 2, 0), ("tiletum", 2, 0), ("tiletum", 3, 2), ("signorie", 2, 0),
    ("troyes", 2, 0), ("aquileia", 3, 1)])
def test_pushes_show_each_seat_only_its_own_view(server: Server, game: str, players: int,
                                                 bots: int) -> None:
    humans = players - bots
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "level": "random"}] * bots
    game_id = server.create(game=game, players=players, seed=21, seats=seats)["id"]
    tokens = {seat: server.join(game_id, seat, f"P{seat}") for seat in range(humans - 1)}
    watchers: list[int | None] = [None, *range(humans)]
    seen: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat in watchers}
    # every socket connects before the last seat is taken, so before any move
    last = humans - 1
    urls = {None: f"{server.ws_base}/ws/games/{game_id}"}
    for seat, token in tokens.items():
        urls[seat] = f"{urls[None]}?token={token}"
    threads = []
    for seat in [None, *tokens]:
        ready = threading.Event()
        thread = threading.Thread(target=collect, args=(urls[seat], seen[seat], ready), daemon=True)
        thread.start()
        assert ready.wait(10)
        threads.append(thread)
    tokens[last] = server.join(game_id, last, f"P{last}")
    ready = threading.Event()
    thread = threading.Thread(target=collect, args=(f"{urls[None]}?token={tokens[last]}",
                                                    seen[last], ready), daemon=True)
    thread.start()
    threads.append(thread)
    assert ready.wait(10)
    play_randomly(server, game_id, tokens, seed=players)
    for thread in threads:
        thread.join(30)
    with server.client() as client:
        record = client.get(f"/api/games/{game_id}/record").json()
    states = states_by_move(record)
    assert states[-1].is_over
    for seat in watchers:
        views = seen[seat]
        assert views and views[-1]["is_over"], f"seat {seat} missed the end"
        assert len(views) > 3
        for view in views:
            assert view["seat"] == seat
            state = states[view["move_number"]]
            assert view["observation"] == state.observe(seat)
            # the words a seat reads, in its language, with the seats' names as the server knows them
            tr = Translator(view["lang"])
            tr.names = seat_names([Seat(s["seat"], s["kind"], s["level"], s["name"], None)
                                   for s in view["seats"]], tr)
            assert view["text"] == state.game.render(state, seat, tr)
            assert [e["text"] for e in view["log"]] == [
                line["text"] for line in describe.log(state, seat, tr)]
            said = describe.prompt(state, seat, tr)
            assert view["prompt"] == said
            expected = [str(a) for a in state.legal_actions()] if state.to_move == seat else []
            if view["status"] != "running":
                expected = []
            assert [m["notation"] for m in view["legal"]] == expected
            if game == "san-gimignano":
                for other, player in enumerate(view["observation"]["players"]):
                    assert ("hand" in player) == (other == seat)
