"""Server-side bots against a real server process: thinking never stalls other requests."""

from __future__ import annotations

import time
from typing import Any

from tests.server.conftest import Server


def test_a_thinking_bot_never_blocks_the_event_loop(make_server: Any) -> None:
    """Two expert bots (about a second of search per move) play with no delay; meanwhile
    every request is still answered promptly, as the bots think in worker threads."""
    server: Server = make_server(bot_delay=0.0)
    server.start()
    game_id = server.create(game="san-gimignano", players=2, seed=2,
                            seats=[{"kind": "bot", "level": "expert"}] * 2)["id"]
    slowest = 0.0
    first = server.http.get(f"/api/games/{game_id}").json()["move_number"]
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        sent = time.perf_counter()
        response = server.http.get(f"/api/games/{game_id}")
        slowest = max(slowest, time.perf_counter() - sent)
        assert response.status_code == 200
        time.sleep(0.05)
    last = response.json()["move_number"]
    assert last > first, "the bots should have been moving (and thinking) meanwhile"
    assert slowest < 0.75, f"a request waited {slowest:.2f} s while a bot was thinking"
