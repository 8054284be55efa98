"""Two real server processes on one PostgreSQL database: a review asked of one is computed
once (one process claims it) and read from either."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import create_engine, text

import palio
from palio import bots
from palio.server.base.db import fresh_postgres_database, normalize_url
from tests.server.conftest import POSTGRES_URL

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="PALIO_TEST_POSTGRES_URL is not set")


def test_a_review_is_computed_once_by_one_of_two_processes(make_server: Any) -> None:
    db = fresh_postgres_database(POSTGRES_URL)
    env = {"PALIO_REVIEW_ITERATIONS": "20"}
    first = make_server(db, 0.0, env=env)
    second = make_server(db, 0.0, env=env)
    first.start()
    second.start()
    created = first.create(game="san-gimignano", players=2, seed=8,
                           seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [first.join(game_id, 0, "Ada"), first.join(game_id, 1, "Bo")]
    bot = bots.get("greedy", seed=1)
    state = palio.new_game("san-gimignano", players=2, seed=8)
    while not state.is_over:
        seat = state.to_move
        action = bot.choose(state, seat)
        reply = first.http.post(f"/api/games/{game_id}/actions",
                                headers={"Authorization": f"Bearer {tokens[seat]}"},
                                json={"action": str(action), "move_number": state.move_number})
        assert reply.status_code == 200, reply.text
        state.apply(action)
    assert second.http.post(f"/api/games/{game_id}/review").status_code == 202
    assert first.http.post(f"/api/games/{game_id}/review").json()["status"] in ("queued",
                                                                                 "running")
    deadline = time.monotonic() + 180
    while True:
        reply = first.http.get(f"/api/games/{game_id}/review").json()
        if reply["status"] == "done":
            break
        assert reply["status"] in ("queued", "running") and time.monotonic() < deadline, reply
        time.sleep(0.5)
    review = reply["review"]
    assert len(review["decisions"]) == len(state.history.to_list())
    assert second.http.get(f"/api/games/{game_id}/review").json()["review"] == review
    # the row names the one process that computed it
    engine = create_engine(normalize_url(db))
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT status, claimed_by FROM reviews")).all()
    engine.dispose()
    assert len(rows) == 1 and rows[0][0] == "done" and rows[0][1]
