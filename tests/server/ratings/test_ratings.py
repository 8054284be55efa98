"""Ratings (palio.server.ratings.ratings): openskill's Plackett-Luce ratings per account and game, the
rules of which tables and seats count, forfeits rated last, the leaderboard and its page. On
SQLite and (with ``PALIO_TEST_POSTGRES_URL``) PostgreSQL."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import func, select

from palio.server.app import create_app
from palio.server.base.clock import ManualClock
from palio.server.base.settings import Settings
from palio.server.play.service import GameService
from palio.server.ratings import ratings
from palio.server.ratings.tables import RatingChangeRow, RatingRow
from tests.server.clients import browser_of
from tests.server.conftest import database_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SG = "san-gimignano"
MOMENT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request.param, tmp_path)


@pytest.fixture
def service(db_url: str) -> Iterator[GameService]:
    one = GameService(db_url, clock=ManualClock(MOMENT))
    yield one
    one.close()


def new_game(service: GameService) -> str:
    """A games row to rate (the rows ratings read are given by each test: ``table``)."""
    body = {"game": SG, "players": 2, "seats": [{"kind": "human"}] * 2}
    return service.create(body).id


def table(game_id: str, **flags: Any) -> Any:
    """A games row as ratings read it (``rated`` and friends come from other concerns)."""
    return SimpleNamespace(id=game_id, game=SG, **{"rated": True, "forfeits": None, **flags})


def seats(*accounts: int | None, kinds: list[str] | None = None) -> list[Any]:
    kinds = kinds or ["human"] * len(accounts)
    return [SimpleNamespace(seat=i, kind=kind, account_id=a)
            for i, (a, kind) in enumerate(zip(accounts, kinds, strict=True))]


def rate(service: GameService, row: Any, seat_rows: list[Any], ranks: list[int]) -> Any:
    with service.sessions.begin() as session:
        return ratings.rate_game(session, row, seat_rows, ranks, MOMENT)


def stored(service: GameService) -> dict[int, tuple[float, float, int]]:
    with service.sessions() as session:
        return {r.account_id: (r.mu, r.sigma, r.games) for r in session.scalars(
            select(RatingRow).where(RatingRow.game == SG))}


def test_the_winner_gains_and_the_loser_loses(service: GameService) -> None:
    game_id = new_game(service)
    changes = rate(service, table(game_id), seats(11, 22), [2, 1])  # seat 1 won
    assert set(changes) == {11, 22}
    (before_11, after_11), (before_22, after_22) = changes[11], changes[22]
    assert before_11 == before_22 == ratings.displayed(25.0, 25 / 3)
    assert after_22 > before_22 and after_11 < before_11
    held = stored(service)
    assert held[22][0] > 25 > held[11][0] and held[11][2] == held[22][2] == 1
    with service.sessions() as session:
        recorded = ratings.changes_of(session, game_id)
        assert recorded == {11: {"before": before_11, "after": after_11},
                            22: {"before": before_22, "after": after_22}}
        mine = ratings.ratings_of(session, 22)
        assert mine == {SG: {"rating": after_22, "games": 1, "sigma": round(held[22][1], 3),
                             "provisional": True}}  # one game: sigma is still high
        assert ratings.changes_for(session, 22) == {game_id: {"before": before_22, "after": after_22}}
    # a second game between them starts from the stored ratings
    second = new_game(service)
    again = rate(service, table(second), seats(11, 22), [2, 1])
    assert again[22][0] == after_22 and again[22][1] > after_22
    assert stored(service)[22][2] == 2


def test_a_forfeit_is_rated_last_whatever_the_scores(service: GameService) -> None:
    game_id = new_game(service)
    row = table(game_id, forfeits=[{"seat": 0, "reason": "timeout", "move": 12}])
    # seat 0 led, then ran out of time; a bot played the seat on (timing.py makes it a bot's)
    changes = rate(service, row, seats(1, 2, 3, kinds=["bot", "human", "human"]), [1, 2, 3])
    after = {a: c[1] for a, c in changes.items()}
    assert after[1] < after[3] < after[2]  # the forfeiter below even the last who played on
    assert stored(service)[1][0] < 25


@pytest.mark.parametrize("row_flags, seat_rows", [
    ({"rated": False}, seats(1, 2)),
    ({"practice": True}, seats(1, 2)),
    ({"hints_used": True}, seats(1, 2)),
    ({}, seats(1, None)),  # a guest
    ({}, seats(1, 2, kinds=["human", "bot"])),  # a bot
    ({}, seats(1, 1)),  # one account at both seats
])
def test_unrated_tables_and_seats_change_nothing(service: GameService, row_flags: dict[str, Any],
                                                 seat_rows: list[Any]) -> None:
    game_id = new_game(service)
    assert rate(service, table(game_id, **row_flags), seat_rows, [1, 2]) == {}
    assert stored(service) == {}
    with service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(RatingChangeRow)) == 0


def test_only_accounts_are_rated_among_guests(service: GameService) -> None:
    game_id = new_game(service)
    changes = rate(service, table(game_id), seats(5, None, 6), [3, 1, 2])
    assert set(changes) == {5, 6}
    assert changes[6][1] > changes[5][1]  # 6 finished above 5; the guest between is not rated


def test_a_game_is_rated_once(service: GameService) -> None:
    game_id = new_game(service)
    assert rate(service, table(game_id), seats(1, 2), [1, 2])
    assert rate(service, table(game_id), seats(1, 2), [1, 2]) == {}
    assert {a: g for a, (_, _, g) in stored(service).items()} == {1: 1, 2: 1}


def play_out(service: GameService, game_id: str, tokens: list[str]) -> None:
    rng = random.Random(1)
    live = service.get(game_id)
    while not live.state.is_over:
        seat = live.state.to_move
        action = rng.choice(list(live.state.legal_by_text()))
        service.act(game_id, seat, {"action": action, "move_number": live.move_number})
    assert len(tokens) == 2


def test_a_finished_table_without_rated_changes_nothing(service: GameService) -> None:
    game_id = new_game(service)
    tokens = [service.join(game_id, seat, {"name": n})[1] for seat, n in ((0, "A"), (1, "B"))]
    play_out(service, game_id, tokens)
    assert service.get(game_id).status == "finished"
    assert stored(service) == {}


# -- the API and the page -------------------------------------------------------------------------
@pytest.fixture
def client(db_url: str) -> Iterator[Any]:
    settings = Settings(db=db_url, bot_delay=0.0, games_per_minute=0, bot_processes=1)
    app = create_app(settings, clock=ManualClock(MOMENT))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def accounts_named(service: GameService, *names: str) -> list[int]:
    from palio.server.accounts.store import AccountStore

    store = AccountStore(service.sessions, service.clock)
    return [store.create(name, "correct horse battery").id for name in names]


def test_the_leaderboard_lists_the_best_first(client: Any) -> None:
    service = client.app.state.service
    ada, bo, cy = accounts_named(service, "Ada", "Bo", "Cy")
    first, second = new_game(service), new_game(service)
    rate(service, table(first), seats(ada, bo), [1, 2])
    rate(service, table(second), seats(ada, cy), [1, 2])
    reply = client.get(f"/api/ratings/{SG}")
    assert reply.status_code == 200
    board = reply.json()
    assert board["game"] == SG
    players = board["players"]
    assert players[0]["name"] == "Ada" and players[0]["games"] == 2  # won twice: first
    assert [p["rating"] for p in players] == sorted((p["rating"] for p in players), reverse=True)
    assert [p["rank"] for p in players] == [1, 2, 3]
    assert client.get("/api/ratings/tiletum").json()["players"] == []
    # a disabled account leaves the board (its rating is kept)
    from palio.server.accounts.store import AccountStore

    assert AccountStore(service.sessions, service.clock).set_disabled("Ada")
    names = [p["name"] for p in client.get(f"/api/ratings/{SG}").json()["players"]]
    assert "Ada" not in names and len(names) == 2


def test_a_bad_game_is_a_404(client: Any) -> None:
    for game in ("no-such-game", "x" * 300, "%00"):
        reply = client.get(f"/api/ratings/{game}")
        assert reply.status_code == 404, game
        assert reply.json()["error"]["code"] == "no_such_game"
    assert client.get("/ratings/no-such-game").status_code == 404


def test_the_leaderboard_page_in_both_languages(client: Any) -> None:
    service = client.app.state.service
    rate(service, table(new_game(service)), seats(*accounts_named(service, "Ada", "Bo")), [1, 2])
    english = client.get(f"/ratings/{SG}?lang=en")
    assert english.status_code == 200 and 'id="leaderboard"' in english.text
    assert "Rating" in english.text
    japanese = client.get(f"/ratings/{SG}?lang=ja")
    assert "レーティング" in japanese.text


def test_seat_ratings_refuse_bad_queries(client: Any) -> None:
    game_id = new_game(client.app.state.service)
    assert client.get(f"/api/seat-ratings?games={game_id}").json() == {}  # not a rated table
    assert client.get("/api/seat-ratings?games=a;b").status_code == 400
    ids = ",".join(["abc"] * 101)
    assert client.get(f"/api/seat-ratings?games={ids}").status_code == 400


# -- bots on the same scale ---------------------------------------------------------------------
def test_arena_results_rate_the_stronger_bot_higher() -> None:
    results = [{"index": i, "bots": ["strong", "weak"] if i % 2 else ["weak", "strong"],
                "ranks": [1, 2] if i % 2 else [2, 1]} for i in range(8)]
    results.append({"index": 8, "bots": ["weak", "weak"], "ranks": [1, 2]})  # says nothing
    levels = ratings.rate_results(results)
    assert list(levels) == ["strong", "weak"]
    assert levels["strong"]["rating"] > ratings.displayed(25, 25 / 3) > levels["weak"]["rating"]
    assert levels["strong"]["games"] == levels["weak"]["games"] == 8


def test_palio_arena_writes_bot_ratings(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from palio.cli import app

    path = tmp_path / "bots.json"
    command = ["arena", SG, "--bots", "easy,medium", "-n", "1", "--bootstrap", "0",
               "--ratings", str(path)]
    reply = CliRunner().invoke(app, command)
    assert reply.exit_code == 0, reply.output
    import json

    written = json.loads(path.read_text())
    entry = written["games"][SG]
    assert set(entry["levels"]) == {"easy", "medium"} and entry["games"] == 2
    assert all(level["games"] == 2 for level in entry["levels"].values())
    assert "--ratings" in entry["command"] and entry["seed"] == 0


def test_the_published_bot_ratings_are_read() -> None:
    published = ratings.bot_ratings()
    assert SG in published["games"], "src/palio/server/bot_ratings.json lacks San Gimignano"
    levels = ratings.bots_for(SG)
    assert levels and [e["rating"] for e in levels] == sorted(
        (e["rating"] for e in levels), reverse=True)


# -- with real accounts, end to end -------------------------------------------------------------
ORIGIN = {"Origin": "http://testserver"}
PASSWORD = "correct horse battery"


class Site:
    def __init__(self, main: TestClient) -> None:
        self.main, self.app = main, main.app

    def browser(self, name: str) -> Any:
        client = browser_of(self.main)
        reply = client.post("/api/accounts", json={"name": name, "password": PASSWORD},
                            headers=ORIGIN)
        assert reply.status_code == 201, reply.text
        return client


@pytest.fixture
def site(db_url: str) -> Iterator[Site]:
    # the bot runner waits an hour before each move: a test plays a bot's seat itself
    settings = Settings(db=db_url, bot_delay=3600.0, games_per_minute=0, bot_processes=1)
    app = create_app(settings, clock=ManualClock(MOMENT))
    with TestClient(app, raise_server_exceptions=False) as main:
        yield Site(main)


def first_notation(legal: Any) -> str | None:
    if isinstance(legal, dict):
        if isinstance(legal.get("notation"), str):
            return legal["notation"]
        legal = list(legal.values())
    if isinstance(legal, list):
        for item in legal:
            found = first_notation(item)
            if found:
                return found
    return None


def seat_table(site: Site, players: list[Any], **extra: Any) -> str:
    reply = players[0].post("/api/games", json={"game": SG, "players": 2, "seed": 11, **extra},
                            headers=ORIGIN)
    assert reply.status_code == 201, reply.text
    game_id = reply.json()["id"]
    for seat, player in enumerate(players):
        joined = player.post(f"/api/games/{game_id}/seats/{seat}/join", json={}, headers=ORIGIN)
        assert joined.status_code == 200, joined.text
    return game_id


def play_to_the_end(site: Site, game_id: str, players: list[Any]) -> dict[str, Any]:
    """Each account plays its first legal choice when it is its turn; a seat a bot took over
    is played here as the bot runner would (``act(..., bot=True)``), with a random legal move."""
    service = site.app.state.service
    rng = random.Random(3)
    for _ in range(2000):
        views = [p.get(f"/api/games/{game_id}/view").json() for p in players]
        if views[0]["status"] == "finished":
            return views[0]
        live = service.get(game_id)
        seat = live.state.to_move
        if live.seats[seat].kind == "bot":
            action = rng.choice(list(live.state.legal_by_text()))
            service.act(game_id, seat, {"action": action, "move_number": live.move_number},
                        bot=True)
            continue
        view = views[seat]
        reply = players[seat].post(f"/api/games/{game_id}/actions", headers=ORIGIN, json={
            "action": first_notation(view["legal"]), "move_number": view["move_number"]})
        assert reply.status_code == 200, reply.text
    raise AssertionError("the game did not finish")


def test_two_accounts_finish_a_rated_game_and_the_winner_gains(site: Site) -> None:
    ada, bo = site.browser("Ada"), site.browser("Bo")
    game_id = seat_table(site, [ada, bo], rated=True)
    final = play_to_the_end(site, game_id, [ada, bo])
    winner = final["ranking"][0]
    names = ["Ada", "Bo"]
    board = ada.get(f"/api/ratings/{SG}").json()["players"]
    by_name = {p["name"]: p for p in board}
    assert set(by_name) == {"Ada", "Bo"}
    assert by_name[names[winner]]["rating"] > ratings.displayed(25, 25 / 3)
    assert by_name[names[1 - winner]]["rating"] < ratings.displayed(25, 25 / 3)
    assert board[0]["name"] == names[winner] and all(p["games"] == 1 for p in board)
    seats = ada.get(f"/api/seat-ratings?games={game_id}").json()[game_id]
    assert seats[str(winner)]["change"][1] > seats[str(winner)]["change"][0]
    assert seats[str(1 - winner)]["change"][1] < seats[str(1 - winner)]["change"][0]
    page = ada.get(f"/players/{names[winner]}")
    assert page.status_code == 200 and str(by_name[names[winner]]["rating"]) in page.text


def test_an_unrated_table_between_accounts_changes_nothing(site: Site) -> None:
    ada, bo = site.browser("Ada"), site.browser("Bo")
    game_id = seat_table(site, [ada, bo])  # rated defaults to false
    play_to_the_end(site, game_id, [ada, bo])
    assert ada.get(f"/api/ratings/{SG}").json()["players"] == []
    assert ada.get(f"/api/seat-ratings?games={game_id}").json() == {}


def test_a_player_who_leaves_is_rated_last(site: Site) -> None:
    ada, bo = site.browser("Ada"), site.browser("Bo")
    game_id = seat_table(site, [ada, bo], rated=True,
                         on_timeout={"kind": "last"})
    left = ada.post(f"/api/games/{game_id}/seats/0/leave", headers=ORIGIN)
    assert left.status_code == 200, left.text
    play_to_the_end(site, game_id, [ada, bo])  # the weakest bot plays Ada's seat; Bo plays on
    by_name = {p["name"]: p for p in bo.get(f"/api/ratings/{SG}").json()["players"]}
    assert by_name["Ada"]["rating"] < ratings.displayed(25, 25 / 3) < by_name["Bo"]["rating"]


def test_the_leaderboard_page_escapes_names(site: Site) -> None:
    evil = '<img src=x onerror="alert(1)">'
    ada, bo = site.browser(evil), site.browser("Bo")
    game_id = seat_table(site, [ada, bo], rated=True)
    play_to_the_end(site, game_id, [ada, bo])
    assert {p["name"] for p in bo.get(f"/api/ratings/{SG}").json()["players"]} == {evil, "Bo"}
    page = bo.get(f"/ratings/{SG}")
    assert page.status_code == 200
    assert "<img src=x" not in page.text
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page.text



def test_a_rating_is_provisional_until_its_sigma_falls_to_the_threshold() -> None:
    assert ratings.is_provisional(25 / 3) and ratings.is_provisional(ratings.PROVISIONAL_SIGMA + 0.01)
    assert not ratings.is_provisional(ratings.PROVISIONAL_SIGMA)
    assert not ratings.is_provisional(5.0)
