"""Reviews and hints through the API, in-process (the review and hint searches run in real
spawned processes, on a real SQLite database)."""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

import palio
from palio import bots
from palio.core.record import GameRecord
from palio.review import review
from palio.server.app import create_app
from palio.server.base.clock import ManualClock
from palio.server.base.db import fresh_postgres_database
from palio.server.play.service import GameService
from palio.server.play.tables import GameRow
from palio.server.review import review as reviews_api
from palio.server.review.tables import ReviewRow

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


POSTGRES_URL = os.environ.get("PALIO_TEST_POSTGRES_URL")


def database(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'palio.db'}"
    if not POSTGRES_URL:
        pytest.skip("PALIO_TEST_POSTGRES_URL is not set")
    return fresh_postgres_database(POSTGRES_URL)


@pytest.fixture(params=["sqlite", "postgres"])
def app_client(request: pytest.FixtureRequest, tmp_path: Path,
               monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(reviews_api, "REVIEW_ITERATIONS", 15)
    monkeypatch.setattr(reviews_api, "HINT_BUDGET", 40)
    app = create_app(database(request.param, tmp_path), bot_delay=0.0)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield app, client


def new_table(client: Any, seed: int = 4, **table: Any) -> tuple[str, list[str]]:
    game_id = client.post("/api/games", json={"game": "san-gimignano", "players": 2,
                                              "seed": seed, **table}).json()["id"]
    tokens = [client.post(f"/api/games/{game_id}/seats/{s}/join", json={"name": n}).json()["token"]
              for s, n in ((0, "Ada"), (1, "Bea"))]
    return game_id, tokens


def play(app: Any, game_id: str, moves: int | None = None) -> None:
    """Greedy moves for whoever is to move (through the service's act, as a person's)."""
    service = app.state.service
    bot = bots.get("greedy", seed=1)
    played = 0
    while moves is None or played < moves:
        live = service.get(game_id)
        state = live.state
        if state.is_over:
            return
        action = bot.choose(state, state.to_move)
        service.act(game_id, state.to_move, {"action": str(action),
                                             "move_number": state.move_number})
        played += 1


def wait_for(client: Any, game_id: str, status: str, lang: str = "en",
             timeout: float = 180) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        reply = client.get(f"/api/games/{game_id}/review?lang={lang}")
        assert reply.status_code == 200, reply.text
        if reply.json()["status"] == status:
            return reply.json()
        assert time.monotonic() < deadline, reply.json()
        time.sleep(0.3)


def test_a_new_review_takes_the_games_own_budget_unless_the_server_sets_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    troyes = palio.new_game("troyes", players=2, seed=1)
    monkeypatch.setattr(reviews_api, "REVIEW_ITERATIONS", None)
    assert reviews_api.review_iterations(troyes) == 1200
    assert reviews_api.review_iterations(palio.new_game("troyes", players=3, seed=1)) == 400
    monkeypatch.setattr(reviews_api, "REVIEW_ITERATIONS", 15)  # PALIO_REVIEW_ITERATIONS
    assert reviews_api.review_iterations(troyes) == 15


def test_review_of_a_finished_game_is_computed_once_and_said_in_words(app_client: Any) -> None:
    app, client = app_client
    game_id, _ = new_table(client)
    play(app, game_id, moves=3)
    # a running game: no review (it would show hidden cards)
    assert client.post(f"/api/games/{game_id}/review").status_code == 409
    assert client.get(f"/api/games/{game_id}/review").status_code == 409
    play(app, game_id)
    assert client.get(f"/api/games/{game_id}/review").status_code == 404
    before = client.get(f"/api/games/{game_id}/record").json()
    asked = client.post(f"/api/games/{game_id}/review")
    assert asked.status_code == 202 and asked.json()["status"] in ("queued", "running")
    done = wait_for(client, game_id, "done", lang="ja")
    review = done["review"]
    assert review["lang"] == "ja" and review["engine"]["iterations"] == 15
    assert [d["move"] for d in review["decisions"]] == list(range(len(before["actions"])))
    assert all(d["loss"] >= 0 and d["played"]["label"] for d in review["decisions"])
    assert [p["seat"] for p in review["players"]] == [0, 1]
    # the game report per player (report.py), in the reader's language
    assert [p["seat"] for p in review["report"]] == [0, 1]
    assert all(len(p["phases"]) == 3 for p in review["report"])
    assert all("手目" in m["text"] for p in review["report"] for m in p["moments"])
    assert done["progress"] == done["total"] == len(before["actions"])
    # stored once: asking again answers the same review at once
    again = client.post(f"/api/games/{game_id}/review")
    assert again.status_code == 200 and again.json()["status"] == "done"
    assert wait_for(client, game_id, "done", lang="ja")["review"] == review
    english = wait_for(client, game_id, "done", lang="en")["review"]
    assert english["decisions"][0]["played"]["label"] != review["decisions"][0]["played"]["label"]
    # nothing in the game changed
    assert client.get(f"/api/games/{game_id}/record").json() == before
    assert client.delete(f"/api/games/{game_id}/review").status_code == 409


def test_a_review_can_be_cancelled_and_the_queue_is_bounded(app_client: Any,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    app, client = app_client
    monkeypatch.setattr(reviews_api, "REVIEW_ITERATIONS", 3000)  # long enough to cancel
    game_id, _ = new_table(client, seed=5)
    play(app, game_id)
    assert client.post(f"/api/games/{game_id}/review").status_code == 202
    cancelled = client.delete(f"/api/games/{game_id}/review")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    time.sleep(1)
    assert client.get(f"/api/games/{game_id}/review").json()["status"] == "cancelled"
    monkeypatch.setattr(reviews_api, "MAX_QUEUE", 0)
    full = client.post(f"/api/games/{game_id}/review")
    assert full.status_code == 503 and full.json()["error"]["code"] == "review_queue_full"


def test_hints_only_for_the_seat_to_move_at_practice_tables(app_client: Any) -> None:
    app, client = app_client
    path = "/api/games/{}/hint"

    def ask(game_id: str, token: str | None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return client.post(path.format(game_id), json={}, headers=headers)

    # an ordinary table and a rated one give no hints
    for table in ({}, {"rated": True}):
        game_id, tokens = new_table(client, seed=6, **table)
        play(app, game_id, moves=2)
        mover = app.state.service.get(game_id).state.to_move
        refused = ask(game_id, tokens[mover])
        assert refused.status_code == 403, table
        assert refused.json()["error"]["code"] == "hints_not_allowed"
        view = client.get(f"/api/games/{game_id}/view",
                          headers={"Authorization": f"Bearer {tokens[mover]}"}).json()
        assert view["hints"] == {"allowed": False, "used": False}
    # a practice table
    game_id, tokens = new_table(client, seed=6, practice=True)
    play(app, game_id, moves=2)
    mover = app.state.service.get(game_id).state.to_move
    assert ask(game_id, None).status_code == 401  # a spectator
    other = ask(game_id, tokens[1 - mover])
    assert other.status_code == 403 and other.json()["error"]["code"] == "not_your_turn"
    view = client.get(f"/api/games/{game_id}/view",
                      headers={"Authorization": f"Bearer {tokens[1 - mover]}"}).json()
    assert view["hints"] == {"allowed": True, "used": False}
    given = ask(game_id, tokens[mover])
    assert given.status_code == 200, given.text
    choices = given.json()["choices"]
    assert 1 <= len(choices) <= 3 and all(c["label"] and c["reason"] for c in choices)
    legal = {c["notation"] for c in client.get(
        f"/api/games/{game_id}/view", headers={"Authorization": f"Bearer {tokens[mover]}"}
    ).json()["legal"]}
    assert {c["notation"] for c in choices} <= legal
    # every seat's log says hints were used
    view = client.get(f"/api/games/{game_id}/view",
                      headers={"Authorization": f"Bearer {tokens[1 - mover]}"}).json()
    assert view["hints"]["used"] is True
    assert any("Hints were used" in line["text"] for line in view["log"])
    with app.state.service.sessions() as session:
        assert session.get(GameRow, game_id).hints_used is True
    play(app, game_id)
    assert ask(game_id, tokens[0]).status_code == 409  # the game is over


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_one_process_claims_a_review_and_a_stalled_one_is_taken_over(kind: str,
                                                                    tmp_path: Path) -> None:
    clock = ManualClock()
    service = GameService(database(kind, tmp_path), clock=clock)
    try:
        game = service.create({"game": "san-gimignano", "players": 2, "seed": 3,
                               "seats": [{"kind": "bot", "level": "greedy"}] * 2})
        bot = bots.get("greedy", seed=1)
        while not game.state.is_over:
            state = game.state
            service.act(game.id, state.to_move, {"action": str(bot.choose(state, state.to_move)),
                                                 "move_number": state.move_number}, bot=True)
        reviews = reviews_api.ReviewService(service)
        assert reviews.request(game.id)["status"] == "queued"
        assert reviews.request(game.id)["status"] == "queued"  # once
        first = reviews.claim_next("process-a")
        assert first is not None and first[0] == game.id
        assert reviews.claim_next("process-b") is None  # already claimed
        with service.sessions() as session:
            assert session.get(ReviewRow, game.id).claimed_by == "process-a"
        clock.advance(reviews_api.STALE_SECONDS + 1)  # process-a stopped writing
        taken = reviews.claim_next("process-b")
        assert taken is not None and taken[0] == game.id
        with service.sessions() as session:
            assert session.get(ReviewRow, game.id).claimed_by == "process-b"
    finally:
        service.close()


def test_a_review_judged_in_two_processes_gives_the_verdicts_of_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``PALIO_REVIEW_WORKERS`` = 2: the review process judges the decisions in two processes
    of its own; the verdicts are those of one process with the review's seed."""
    monkeypatch.setattr(reviews_api, "REVIEW_ITERATIONS", 15)
    monkeypatch.setattr(reviews_api, "REVIEW_WORKERS", 2)
    app = create_app(database("sqlite", tmp_path), bot_delay=0.0)
    with TestClient(app, raise_server_exceptions=False) as client:
        game_id, _ = new_table(client, seed=6)
        play(app, game_id)
        # the moves, as the review process takes them (its stated result is not replayed)
        record = GameRecord(**{**client.get(f"/api/games/{game_id}/record").json(),
                               "result": None})
        assert client.post(f"/api/games/{game_id}/review").status_code == 202
        done = wait_for(client, game_id, "done")["review"]
    alone = review(record, budget=reviews_api.budget(15), seed=done["seed"])
    assert len(done["decisions"]) == len(record.actions)
    verdict = ("move", "seat", "loss", "class", "accuracy", "values")
    assert [{k: d[k] for k in verdict} for d in done["decisions"]] \
        == [{k: d[k] for k in verdict} for d in alone["decisions"]]
    assert [d["best"]["notation"] for d in done["decisions"]] \
        == [d["best"]["notation"] for d in alone["decisions"]]
