"""The REST contract of docs/server.md against a real server process."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.server.conftest import Server

SG = "san-gimignano"


def two_humans(server: Server, game: str = SG, seed: int = 5) -> tuple[str, str, str]:
    created = server.create(game=game, players=2, seed=seed,
                            seats=[{"kind": "human"}, {"kind": "human"}])
    return created["id"], server.join(created["id"], 0, "Ada"), server.join(created["id"], 1, "Bo")


def post(server: Server, path: str, token: str | None = None, **kwargs: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return server.http.post(path, headers=headers, **kwargs)


def assert_error(response: Any, status: int, code: str | None = None) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code


def test_catalog_and_bots(server: Server) -> None:
    with server.client() as client:
        catalog = client.get("/api/catalog").json()
        levels = client.get("/api/bots").json()["levels"]
    ids = [entry["id"] for entry in catalog]
    assert SG in ids and "tiletum" in ids
    for entry in catalog:
        assert entry["min_players"] <= entry["max_players"]
        for option in entry["options"]:
            assert option["kind"] in ("bool", "int", "choice")
            assert option["default"] in option["choices"]
    assert levels[:4] == ["easy", "medium", "hard", "expert"]


def test_create_join_and_status(server: Server) -> None:
    created = server.create(game=SG, players=2, seats=[{"kind": "human"},
                                                       {"kind": "bot", "level": "random"}])
    game_id = created["id"]
    assert created["status"] == "open" and created["game"] == SG and created["players"] == 2
    assert [s["taken"] for s in created["seats"]] == [False, True]
    with server.client() as client:
        assert game_id in [g["id"] for g in client.get("/api/games?status=open").json()]
        assert game_id not in [g["id"] for g in client.get("/api/games?status=running").json()]
    assert_error(post(server, f"/api/games/{game_id}/seats/1/join", json={"name": "X"}), 409,
                 "seat_taken")
    joined = post(server, f"/api/games/{game_id}/seats/0/join", json={"name": "Ada"}).json()
    # the link carries the token in the fragment, which a browser never sends to a server
    assert joined["seat"] == 0 and joined["url"] == f"/games/{game_id}#token={joined['token']}"
    assert_error(post(server, f"/api/games/{game_id}/seats/0/join", json={"name": "Eve"}), 409,
                 "seat_taken")
    assert_error(post(server, f"/api/games/{game_id}/seats/7/join", json={}), 404)
    assert_error(post(server, "/api/games/nope/seats/0/join", json={}), 404, "no_such_game")
    summary = server.view(game_id)
    assert summary["status"] == "running"
    assert summary["seats"][0]["name"] == "Ada"


def newest(server: Server) -> str | None:
    games = server.http.get("/api/games?limit=1").json()
    return games[0]["id"] if games else None


@pytest.mark.parametrize(("body", "status"), [
    ({"game": "chess", "players": 2}, 422),
    ({"game": SG, "players": 5}, 422),
    ({"game": SG, "players": 2, "options": {"nope": True}}, 422),
    ({"game": SG, "players": 2, "options": {"nobles": 3}}, 422),
    ({"game": SG, "players": 2, "options": {"nobles": 1}}, 422),  # 1 is not true
    ({"game": SG, "players": 2, "options": {"nobles": "true"}}, 422),
    ({"game": SG, "players": 2, "options": []}, 400),  # not an object, so not "no options"
    ({"game": SG, "players": 2, "options": 0}, 400),
    ({"game": SG, "players": 2, "options": [1]}, 400),
    ({"game": SG, "players": 2, "options": {"nobles": [True]}}, 400),
    ({"game": SG, "players": "two"}, 400),
    ({"game": SG, "players": True}, 400),
    ({"game": SG, "players": 2.0}, 400),
    ({"game": SG, "players": 2, "colour": "red"}, 400),  # unknown fields are refused
    ({"game": SG, "players": 2, "seats": [{"kind": "human"}]}, 400),
    ({"game": SG, "players": 2, "seats": [{"kind": "alien"}, {"kind": "human"}]}, 400),
    ({"game": SG, "players": 2, "seats": [{"kind": "human", "level": "x"}, {"kind": "human"}]}, 400),
    ({"game": SG, "players": 2, "seats": [{"kind": "bot", "level": "godlike"}, {"kind": "human"}]}, 422),
    ({"game": SG, "players": 2, "seats": [{"kind": "bot", "level": "mcts:depth=9"}, {"kind": "human"}]}, 422),
    ({"game": SG, "players": 2, "seats": [{"kind": "bot", "level": "mcts:time_budget=3600"},
                                          {"kind": "human"}]}, 422),  # beyond --bot-seconds
    ({"game": SG, "players": 2, "seed": -1}, 400),
    ({"game": SG, "players": 2, "seed": 2**63}, 400),
    ({"game": SG, "players": 2, "seed": "7"}, 400),
    ([1, 2], 400),
])
def test_bad_create_bodies(server: Server, body: Any, status: int) -> None:
    before = newest(server)
    response = server.http.post("/api/games", json=body)
    assert_error(response, status, "bad_body" if status == 400 else "bad_options")
    assert len(response.json()["error"]["message"]) < 300
    assert newest(server) == before


def test_optional_fields_may_be_null_and_bot_specs_work(server: Server) -> None:
    """One rule: an optional field left out or null takes its default; a bot may be named by
    level, name or spec with options, as docs/server.md says."""
    created = server.create(game=SG, players=None, options=None, seed=None, seats=[
        {"kind": "bot", "level": "mcts:iterations=50"}, {"kind": "bot", "level": None,
                                                       "name": None}])
    assert created["players"] == 2 and created["options"] == {"nobles": False}
    assert [s["level"] for s in created["seats"]] == ["mcts:iterations=50", "medium"]
    assert created["seats"][0]["name"] is None  # unnamed: named by its bot in each reader's words
    server.wait_over(created["id"])
    typed = server.create(game=SG, options={"nobles": True})
    assert typed["options"] == {"nobles": True}


def test_malformed_json(server: Server) -> None:
    game_id, ada, _ = two_humans(server)
    assert_error(post(server, "/api/games", content=b"{not json"), 400, "bad_json")
    assert_error(post(server, f"/api/games/{game_id}/actions", ada, content=b"\xff\xfe"), 400)
    deep = b"[" * 30_000 + b"]" * 30_000  # valid JSON, nested past the parser's recursion limit
    assert_error(post(server, f"/api/games/{game_id}/actions", ada, content=deep), 400, "bad_json")
    big = {"action": "buy", "move_number": 0, "padding": "x" * 100_000}
    assert_error(post(server, f"/api/games/{game_id}/actions", ada, json=big), 413,
                 "body_too_large")
    for body in ({"action": 3, "move_number": 0}, {"action": "buy"}, {"action": "buy", "move_number": "0"},
                 ["buy", 0], {"action": "buy", "move_number": 0, "note": "x"},
                 {"action": "buy", "move_number": -1}, {"action": "", "move_number": 0},
                 {"action": "buy", "move_number": True}, {"action": "buy", "move_number": 0.0}):
        assert_error(post(server, f"/api/games/{game_id}/actions", ada, json=body), 400, "bad_body")
    # a 4,001-digit move number is refused without being repeated back
    huge = b'{"action": "buy", "move_number": ' + b"7" * 4001 + b"}"
    refused = post(server, f"/api/games/{game_id}/actions", ada, content=huge)
    assert_error(refused, 400, "bad_body")
    assert "7777" not in refused.text and len(refused.text) < 300
    assert server.view(game_id, ada)["move_number"] == 0


def test_views_hide_hands(server: Server) -> None:
    game_id, ada, bo = two_humans(server)
    spectator = server.view(game_id)
    assert spectator["seat"] is None and spectator["legal"] == [] and spectator["can_undo"] is False
    assert all("hand" not in p for p in spectator["observation"]["players"])
    mine = server.view(game_id, ada)
    assert mine["seat"] == 0 and mine["to_move"] == 0 and mine["legal"]
    assert "hand" in mine["observation"]["players"][0]
    assert "hand" not in mine["observation"]["players"][1]
    theirs = server.view(game_id, bo)
    assert theirs["legal"] == [] and "hand" not in theirs["observation"]["players"][0]
    assert {"id", "game", "players", "status", "seat", "move_number", "revision", "to_move",
            "is_over", "observation", "legal", "log", "scores", "ranking", "seats", "can_undo",
            "text", "prompt", "lang", "recent"} <= set(mine)
    assert all(set(entry) == {"index", "notation", "label", "explain", "group"}
               for entry in mine["legal"])


def test_act_stale_illegal_and_tokens(server: Server) -> None:
    game_id, ada, bo = two_humans(server)
    path = f"/api/games/{game_id}/actions"
    assert_error(post(server, path, None, json={"action": "pass", "move_number": 0}), 401)
    assert_error(post(server, path, "wrong", json={"action": "pass", "move_number": 0}), 403,
                 "bad_token")
    assert_error(post(server, path, bo, json={"action": "pass", "move_number": 0}), 403,
                 "not_your_turn")
    illegal = post(server, path, ada, json={"action": "extend 9 9", "move_number": 0})
    assert_error(illegal, 422, "illegal_action")
    # the message lists only Ada's own moves, never Bo's hand
    bo_hand = server.view(game_id, bo)["observation"]["players"][1]["hand"]
    ada_legal = [m["notation"] for m in server.view(game_id, ada)["legal"]]
    assert "extend 9 9" in illegal.json()["error"]["message"]
    assert all(m in illegal.json()["error"]["message"] for m in ada_legal[:5])
    assert str(bo_hand) not in illegal.json()["error"]["message"]
    assert_error(post(server, path, ada, json={"action": "nonsense words", "move_number": 0}), 422)
    assert server.view(game_id)["move_number"] == 0

    first = post(server, path, ada, json={"action": "buy", "move_number": 0})
    assert first.status_code == 200, first.text
    assert first.json()["move_number"] == 1 and first.json()["seat"] == 0
    # the same click again: stale, nothing applied
    assert_error(post(server, path, ada, json={"action": "buy", "move_number": 0}), 409, "stale_move")
    # a number the game has not reached is not "stale": the client is ahead, not behind
    future = post(server, path, ada, json={"action": "draw", "move_number": 5})
    assert_error(future, 409, "future_move")
    assert "not been reached" in future.json()["error"]["message"]
    assert server.view(game_id)["move_number"] == 1
    assert_error(post(server, f"/api/games/{game_id}/view", "x", json={}), 405)
    with server.client("wrong") as client:
        assert_error(client.get(f"/api/games/{game_id}/view"), 403)
    with server.client() as client:
        assert client.get(f"/api/games/{game_id}/view?token={ada}").json()["seat"] == 0


def test_duplicate_submissions_apply_once(server: Server) -> None:
    game_id, ada, _ = two_humans(server)
    statuses: list[int] = []

    def submit() -> None:
        response = post(server, f"/api/games/{game_id}/actions", ada,
                        json={"action": "buy", "move_number": 0})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=submit) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 5
    assert server.view(game_id)["move_number"] == 1


def test_undo_rule(server: Server) -> None:
    game_id, ada, bo = two_humans(server, seed=11)
    act = f"/api/games/{game_id}/actions"
    undo = f"/api/games/{game_id}/undo"
    assert_error(post(server, undo, ada, json={"move_number": 0}), 409, "undo_not_allowed")
    # "buy" reveals nothing: Ada may take it back
    assert post(server, act, ada, json={"action": "buy", "move_number": 0}).status_code == 200
    assert server.view(game_id, ada)["can_undo"] is True
    assert server.view(game_id, bo)["can_undo"] is False
    assert_error(post(server, undo, bo, json={"move_number": 1}), 409, "undo_not_allowed")
    assert_error(post(server, undo, ada, json={"move_number": 0}), 409, "stale_move")
    assert_error(post(server, undo, None, json={"move_number": 1}), 401)
    back = post(server, undo, ada, json={"move_number": 1})
    assert back.status_code == 200, back.text
    assert back.json()["move_number"] == 0 and back.json()["can_undo"] is False
    assert "buy" in [m["notation"] for m in back.json()["legal"]]
    # "buy" then "draw": the draw shows Ada a card from the deck, so it stays
    assert post(server, act, ada, json={"action": "buy", "move_number": 0}).status_code == 200
    legal = [m["notation"] for m in server.view(game_id, ada)["legal"]]
    assert "draw" in legal
    assert post(server, act, ada, json={"action": "draw", "move_number": 1}).status_code == 200
    after = server.view(game_id, ada)
    assert after["can_undo"] is False
    assert_error(post(server, undo, ada, json={"move_number": 2}), 409, "undo_not_allowed")
    assert server.view(game_id)["move_number"] == 2


def test_record_and_replay_only_when_finished(server: Server) -> None:
    game_id, _, _ = two_humans(server)
    with server.client() as client:
        assert_error(client.get(f"/api/games/{game_id}/record"), 409, "game_not_finished")
        assert_error(client.get(f"/api/games/{game_id}/replay"), 409, "game_not_finished")
    bots = server.create(game=SG, players=2, seed=3, seats=[{"kind": "bot", "level": "random"},
                                                          {"kind": "bot", "level": "greedy"}])
    assert bots["status"] == "running"
    server.wait_over(bots["id"])
    with server.client() as client:
        record = client.get(f"/api/games/{bots['id']}/record").json()
        replay = client.get(f"/api/games/{bots['id']}/replay").json()
    assert record["game"] == SG and record["seed"] == 3 and record["result"]["ranking"]
    frames = replay["frames"]
    assert replay["record"] == record and len(frames) == len(record["actions"]) + 1
    assert frames[0]["n"] == 0 and frames[0]["notation"] is None
    assert [f["notation"] for f in frames[1:]] == record["actions"]
    assert all("hand" not in p for f in frames for p in f["observation"]["players"])

    import palio
    from palio.core.record import GameRecord

    state = GameRecord(**record).replay(palio.get_game(SG))
    assert state.is_over and frames[-1]["observation"] == state.observe(None)


def test_pages_and_errors(server: Server) -> None:
    with server.client() as client:
        lobby = client.get("/")
        assert lobby.status_code == 200 and "<html" in lobby.text.lower()
        assert client.get("/static/index.html").status_code == 200
        assert_error(client.get("/static/games/no-such-game.js"), 404)
        assert_error(client.get("/api/games/missing"), 404, "no_such_game")
        assert_error(client.get("/api/games/missing/view"), 404)
        assert_error(client.get("/api/games?status=weird"), 400)


def test_legend_names_what_observations_index(server: Server) -> None:
    legend = server.http.get("/api/catalog/tiletum/legend").json()
    assert "Tiletum" in legend["spots"][: legend["towns"]]
    assert all(0 <= a < len(legend["spots"]) and 0 <= b < len(legend["spots"]) for a, b in legend["links"])
    assert legend["tiles"] and all(isinstance(name, str) for name in legend["tiles"])
    assert legend["glossary"]["spot:Koeln"]["name"] == "Köln"
    japanese = server.http.get("/api/catalog/tiletum/legend?lang=ja").json()
    assert japanese["lang"] == "ja" and japanese["glossary"]["spot:Koeln"]["name"] == "ケルン"
    sg = server.http.get(f"/api/catalog/{SG}/legend").json()
    # no printed tables: the components in words and the key to the board's signs
    assert set(sg) == {"glossary", "key", "lang"}
    assert sg["glossary"]["card:7"] == {
        "name": "Tower card 7",
        "text": "7 copies. Used in towers of one number or in runs; a new same-number tower of "
                "7s gives its donation, Grace."}
    assert_error(server.http.get("/api/catalog/no-such-game/legend"), 404, "no_such_game")


def test_bad_paths_names_and_bodies_change_nothing(server: Server) -> None:
    game_id, ada, _ = two_humans(server)
    open_game = server.create(game=SG, players=2, seats=[{"kind": "human"}, {"kind": "human"}])["id"]
    with server.client() as client:
        # a NUL byte in an id is no game (PostgreSQL would refuse the query outright)
        assert_error(client.get("/api/games/ab%00cd"), 404, "no_such_game")
        assert_error(client.get("/api/games/ab%00cd/view"), 404, "no_such_game")
    join = f"/api/games/{open_game}/seats"
    assert_error(post(server, f"{join}/{'9' * 5000}/join", json={}), 404, "no_such_seat")
    assert_error(post(server, f"{join}/-1/join", json={}), 404, "no_such_seat")
    for name in ("Ada\x00", "Bo\n", "x" * 65, 5, ["Ada"]):
        assert_error(post(server, f"{join}/0/join", json={"name": name}), 400, "bad_body")
    assert_error(post(server, f"{join}/0/join", content=b"[1"), 400, "bad_json")
    assert_error(server.http.post("/api/games", json={
        "game": SG, "players": 2, "seats": [{"kind": "bot", "name": "R\x00"}, {"kind": "human"}]}),
        400, "bad_body")
    assert [s["taken"] for s in server.view(open_game)["seats"]] == [False, False]
    undo = f"/api/games/{game_id}/undo"
    for body in ({}, {"move_number": "0"}, {"move_number": 0.5}, {"move_number": True}, [0]):
        assert_error(post(server, undo, ada, json=body), 400, "bad_body")
    assert_error(post(server, undo, ada, content=b"{"), 400, "bad_json")
    assert_error(post(server, "/api/games/nope/undo", ada, json={"move_number": 0}), 404)
    assert_error(post(server, f"/api/games/{game_id}/undo", "wrong", json={"move_number": 0}), 403)
    assert server.view(game_id)["move_number"] == 0


@pytest.mark.parametrize("game", [SG, "tiletum"])
def test_notation_is_exact_in_every_game(server: Server, game: str) -> None:
    """One rule for every game, applied by the server: an action is the canonical notation of
    a legal move, exactly as the view lists it. Upper case or extra spaces are refused the
    same way in every game, with the exact form suggested."""
    game_id, ada, _ = two_humans(server, game=game)
    legal = [m["notation"] for m in server.view(game_id, ada)["legal"]]
    path = f"/api/games/{game_id}/actions"
    for variant in (legal[0].upper(), f" {legal[0]}", legal[0].replace(" ", "  ") + " "):
        if variant == legal[0]:
            continue
        refused = post(server, path, ada, json={"action": variant, "move_number": 0})
        assert_error(refused, 422, "illegal_action")
        assert f"did you mean {legal[0]!r}" in refused.json()["error"]["message"]
    assert server.view(game_id)["move_number"] == 0
    assert post(server, path, ada, json={"action": legal[0], "move_number": 0}).status_code == 200


def test_lobby_pages_newest_first_with_filters(make_server: Any) -> None:
    server: Server = make_server()
    server.start()
    made = [server.create(game=SG if i % 3 else "tiletum", players=2)["id"] for i in range(7)]
    server.join(made[6], 0)
    server.join(made[6], 1)  # the newest game is running, the rest open
    seen: list[str] = []
    url = "/api/games?limit=3"
    while url:
        response = server.http.get(url)
        assert response.status_code == 200
        page = response.json()
        assert len(page) <= 3
        seen += [g["id"] for g in page]
        link = response.headers.get("link")
        url = link[link.index("<") + 1: link.index(">")] if link else ""
    assert seen == made[::-1]  # newest first, each game once
    tiletum = [g["id"] for g in server.http.get("/api/games?game=tiletum").json()]
    assert tiletum == [made[i] for i in (6, 3, 0)]
    running = server.http.get("/api/games?status=running").json()
    assert [g["id"] for g in running] == [made[6]] and running[0]["move_number"] == 0
    assert running[0] == server.http.get(f"/api/games/{made[6]}").json()
    older = server.http.get(f"/api/games?status=open&limit=2&before={made[5]}").json()
    assert [g["id"] for g in older] == [made[4], made[3]]
    # the reader's language, which the browser sends with every request, changes no list
    assert server.http.get("/api/games?game=tiletum&lang=ja").json() == server.http.get(
        "/api/games?game=tiletum").json()
    for query in ("status=weird", "limit=0", "limit=201", "limit=x", "before=nope",
                  "before=a%00b", "colour=red"):
        assert_error(server.http.get(f"/api/games?{query}"), 400, "bad_query")


def test_games_per_minute_per_client(make_server: Any) -> None:
    server: Server = make_server(None, 0.0, env={"PALIO_GAMES_PER_MINUTE": "3"})
    server.start()
    for _ in range(3):
        server.create(game=SG, players=2)
    before = newest(server)
    refused = server.http.post("/api/games", json={"game": SG, "players": 2})
    assert_error(refused, 429, "too_many_games")
    assert newest(server) == before
    # refused bodies count for nothing, and other routes are not limited
    assert server.http.get(f"/api/games/{before}").status_code == 200


def test_turns_counts_the_guest_seats_a_browser_names(server: Server) -> None:
    """GET /api/turns?seats=ID:SEAT,...: the named seats whose move it is, longest waiting
    first; a seat not to move, a finished table and a bad list are told apart."""
    first, a0, a1 = two_humans(server, seed=5)
    second, b0, b1 = two_humans(server, seed=6)
    movers = {game_id: server.view(game_id)["to_move"] for game_id in (first, second)}
    mine = f"{first}:{movers[first]},{second}:{1 - movers[second]}"
    reply = server.http.get(f"/api/turns?seats={mine}")
    assert reply.status_code == 200 and reply.headers["cache-control"].startswith("private")
    assert reply.json()["count"] == 1
    assert [(g["id"], g["seat"]) for g in reply.json()["games"]] == [(first, movers[first])]
    both = server.http.get(f"/api/turns?seats={first}:{movers[first]},{second}:{movers[second]}")
    assert [g["id"] for g in both.json()["games"]] == [first, second]  # the older wait first
    assert server.http.get("/api/turns").json() == {"count": 0, "games": []}
    for bad in ("nogame", f"{first}:x", ",".join(f"{first}:0" for _ in range(51)), "../x:1"):
        assert_error(server.http.get("/api/turns", params={"seats": bad}), 400, "bad_query")


def test_a_finished_replay_shows_the_readers_own_seat_and_a_running_one_nothing(server: Server) -> None:
    """A seat's token (or the account that held the seat) gets every frame as that seat saw
    it, its own hand included; a spectator or another table's token a spectator's frames; a
    running game's replay is refused to everyone, its seats included."""
    game_id, t0, t1 = two_humans(server, seed=9)
    assert_error(server.http.get(f"/api/games/{game_id}/replay",
                                 headers={"Authorization": f"Bearer {t0}"}), 409)
    for _ in range(3000):
        view = server.view(game_id)
        if view["status"] == "finished":
            break
        token = (t0, t1)[view["to_move"]]
        choice = next(a["notation"] for a in server.view(game_id, token)["legal"])
        assert post(server, f"/api/games/{game_id}/actions", token,
                    json={"action": choice, "move_number": view["move_number"]}).status_code == 200
    other_id, other_token, _ = two_humans(server, seed=10)
    public = server.http.get(f"/api/games/{game_id}/replay").json()
    stranger = server.http.get(f"/api/games/{game_id}/replay",
                               headers={"Authorization": f"Bearer {other_token}"}).json()
    assert public["seat"] is None and stranger["frames"] == public["frames"]
    for seat, token in enumerate((t0, t1)):
        mine = server.http.get(f"/api/games/{game_id}/replay",
                               headers={"Authorization": f"Bearer {token}"}).json()
        assert mine["seat"] == seat and len(mine["frames"]) == len(public["frames"])
        for frame, seen in zip(mine["frames"], public["frames"], strict=True):
            players = frame["observation"]["players"]
            assert isinstance(players[seat]["hand"], list)  # the seat's own cards
            assert "hand" not in players[1 - seat]  # never the other seat's
            assert all("hand" not in p for p in seen["observation"]["players"])
        assert any(f["observation"]["players"][seat]["hand"] for f in mine["frames"])
