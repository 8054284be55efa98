"""Who may use each route, and who may not: one table, one row per route (ROUTES below).

Every route of the application (HTTP and WebSocket) has a row saying what each kind of
caller gets: the owner (Ada, signed in, from our own pages, or with her seat's token on
another client), another account (Bob, who holds another seat of the same table), a guest
with another seat's token, a spectator (nothing), a signed-out browser that kept its old
cookie, and Ada's cookie on a write from a foreign Origin or with no Origin at all. Each
refused call must get its 4xx and change nothing (every row of games, seats, actions,
accounts and sessions is compared before and after); each allowed write must change
something (so the comparison can fail). ``test_every_route_has_a_row`` fails when a route
exists that the table does not list: a new endpoint gets a row before it can merge.
In-process (a ManualClock; argon2 made cheap), on SQLite and on PostgreSQL.

Adding a route: add a ``Row`` to ROUTES, with the status each caller gets (``expect``), which
of them write (``writes``), and a body (``body``) if it takes one.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select
from starlette.routing import Mount, Route, WebSocketRoute

from palio.server.accounts import store as accounts
from palio.server.accounts.tables import AccountRow, SessionRow
from palio.server.app import create_app
from palio.server.base.clock import ManualClock
from palio.server.base.settings import Settings
from palio.server.chat.tables import ChatRow
from palio.server.mail import turns as mail
from palio.server.play.botplay import BotRunner
from palio.server.play.tables import ActionRow, GameRow, SeatRow
from palio.server.ratings.tables import RatingChangeRow, RatingRow
from palio.server.review import review as reviews_api
from palio.server.review.tables import ReviewRow
from palio.server.tournaments.tables import (
    ByeRow,
    EntrantRow,
    RoundRow,
    TableRow,
    TournamentRow,
)
from tests.server.clients import browser_of
from tests.server.conftest import database_url

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"
OWN = "http://testserver"
EVIL = "http://evil.example"
GAME = "tiletum"  # three seats, hidden information, and a first decision that can be undone
SEED = 11

# the callers every row speaks of
CALLERS = ("ada", "ada_token", "bob", "guest", "spectator", "stale", "foreign", "no_origin")
EVERYONE = dict.fromkeys(CALLERS, 200)


def refused(**statuses: int) -> dict[str, int]:
    """Ada and her token may; the others get these statuses."""
    return {"ada": 200, "ada_token": 200, **statuses}


# -- the scene every row is tried in ---------------------------------------------------------
@dataclass
class Scene:
    """A running three-seat table: Ada (an account) holds the seat to move, a guest the next,
    Bob (another account) the third; an open table nobody joined; Ada's old cookie from
    before she signed out and in again."""

    main: TestClient  # the client that runs the application (browsers share its loop)
    clock: ManualClock
    n: int
    game_id: str = ""
    open_id: str = ""
    finished_id: str = ""
    seat_a: int = 0
    seat_g: int = 1
    seat_b: int = 2
    cookie: dict[str, str] = field(default_factory=dict)  # caller -> session cookie
    token: dict[str, str] = field(default_factory=dict)  # "ada", "guest" -> seat token
    creator: str = ""  # the creator's token of the open table (seating.py)
    stop: str = ""  # the "stop these mails" token of a turn mail to Ada (mail.py)
    bearer: str = ""  # when set, every caller sends this token instead of its own (or none)
    tournament: int = 0  # a planned tournament Ada organised (tournaments/)

    @property
    def app(self) -> Any:
        return self.main.app

    @property
    def ada(self) -> str:
        return f"Ada{self.n}"

    @property
    def bob(self) -> str:
        return f"Bob{self.n}"

    def browser(self) -> TestClient:
        return browser_of(self.main, base_url=OWN)

    def headers(self, caller: str) -> dict[str, str]:
        """The headers ``caller`` sends (a cookie, a token, an Origin)."""
        own = {"Origin": OWN}
        headers = {
            "ada": {"Cookie": f"palio_session={self.cookie['ada']}", **own},
            "ada_token": {"Authorization": f"Bearer {self.token['ada']}", **own},
            "bob": {"Cookie": f"palio_session={self.cookie['bob']}", **own},
            "guest": {"Authorization": f"Bearer {self.token['guest']}", **own},
            "spectator": {},
            "stale": {"Cookie": f"palio_session={self.cookie['stale']}", **own},
            "foreign": {"Cookie": f"palio_session={self.cookie['ada']}", "Origin": EVIL},
            "no_origin": {"Cookie": f"palio_session={self.cookie['ada']}"},
        }[caller]
        if self.bearer:
            headers["Authorization"] = f"Bearer {self.bearer}"
        return headers

    def call(self, caller: str, method: str, path: str, body: Any = None) -> Any:
        return self.browser().request(method, path, json=body, headers=self.headers(caller))

    def view(self, caller: str, game_id: str | None = None) -> dict[str, Any]:
        reply = self.call(caller, "GET", f"/api/games/{game_id or self.game_id}/view")
        assert reply.status_code == 200, reply.text
        return reply.json()


def sign_up(scene: Scene, name: str) -> str:
    reply = scene.browser().post("/api/accounts", json={"name": name, "password": PASSWORD},
                                 headers={"Origin": OWN})
    assert reply.status_code == 201, reply.text
    return reply.cookies["palio_session"]


def build(main: TestClient, clock: ManualClock, n: int, table: dict[str, Any] | None = None) -> Scene:
    """``table``: more of the running table's options (practice, spectator_chat...)."""
    scene = Scene(main, clock, n)
    stale = sign_up(scene, scene.ada)
    out = scene.browser().delete("/api/session", headers={
        "Cookie": f"palio_session={stale}", "Origin": OWN})
    assert out.status_code == 204
    signed = scene.browser().post("/api/session", json={"name": scene.ada, "password": PASSWORD},
                                  headers={"Origin": OWN})
    assert signed.status_code == 200, signed.text
    scene.cookie = {"ada": signed.cookies["palio_session"], "bob": sign_up(scene, scene.bob),
                    "stale": stale}
    http = scene.browser()
    scene.game_id = http.post("/api/games", json={"game": GAME, "players": 3, "seed": SEED,
                                                  **(table or {})}).json()["id"]
    opened = http.post("/api/games", json={"game": "san-gimignano", "players": 2}).json()
    scene.open_id, scene.creator = opened["id"], opened["creator_token"]
    first = http.get(f"/api/games/{scene.game_id}/view").json()["to_move"]
    scene.seat_a, scene.seat_g, scene.seat_b = first, (first + 1) % 3, (first + 2) % 3
    join = f"/api/games/{scene.game_id}/seats/{{}}/join"
    ada = http.post(join.format(scene.seat_a), json={},
                    headers={"Cookie": f"palio_session={scene.cookie['ada']}", "Origin": OWN})
    guest = scene.browser().post(join.format(scene.seat_g), json={"name": "Gus"})
    bob = http.post(join.format(scene.seat_b), json={},
                    headers={"Cookie": f"palio_session={scene.cookie['bob']}", "Origin": OWN})
    for reply in (ada, guest, bob):
        assert reply.status_code == 200, reply.text
    scene.token = {"ada": ada.json()["token"], "guest": guest.json()["token"]}
    assert scene.view("ada")["status"] == "running"
    return scene


def first_notation(view: dict[str, Any]) -> str:
    def walk(node: Any) -> str | None:
        if isinstance(node, dict):
            if isinstance(node.get("notation"), str):
                return node["notation"]
            node = list(node.values())
        if isinstance(node, list):
            for value in node:
                found = walk(value)
                if found:
                    return found
        return None

    found = walk(view["legal"])
    assert found, view["legal"]
    return found


def finish_a_game(scene: Scene) -> None:
    """A finished two-guest game (moves through the service: access is not the point here)."""
    http = scene.browser()
    game_id = http.post("/api/games", json={"game": "san-gimignano", "players": 2, "seed": 3}
                        ).json()["id"]
    for seat in range(2):
        assert http.post(f"/api/games/{game_id}/seats/{seat}/join", json={}).status_code == 200
    service = scene.app.state.service
    for _ in range(2000):
        live = service.get(game_id)
        if live.state.is_over:
            break
        state = live.state
        action = str(state.legal_actions()[0])
        service.act(game_id, state.to_move, {"action": action,
                                             "move_number": live.move_number})
    assert service.get(game_id).state.is_over
    scene.finished_id = game_id


def review_asked(scene: Scene) -> None:
    """A finished game whose review was asked for (queued: the test's runner is stopped)."""
    finish_a_game(scene)
    asked = reviews_api.ReviewService(scene.app.state.service).request(scene.finished_id)
    assert asked["status"] == "queued", asked


def finish_ada_game(scene: Scene) -> None:
    """A finished two-seat game whose first seat Ada's account held (her own view of it)."""
    http = scene.browser()
    game_id = http.post("/api/games", json={"game": "san-gimignano", "players": 2, "seed": 3}
                        ).json()["id"]
    ada = http.post(f"/api/games/{game_id}/seats/0/join", json={},
                    headers={"Cookie": f"palio_session={scene.cookie['ada']}", "Origin": OWN})
    assert ada.status_code == 200, ada.text
    assert scene.browser().post(f"/api/games/{game_id}/seats/1/join", json={}).status_code == 200
    service = scene.app.state.service
    while not service.get(game_id).state.is_over:
        live = service.get(game_id)
        service.act(game_id, live.state.to_move, {"action": str(live.state.legal_actions()[0]),
                                                  "move_number": live.move_number})
    scene.finished_id = game_id


def check_own_view(scene: Scene, caller: str, reply: Any) -> None:
    """Ada's own view is her seat's, from set-up to the end."""
    if reply.status_code == 200:
        assert reply.json()["seat"] == 0 and len(reply.json()["frames"]) > 1


def turn_mail_to_ada(scene: Scene) -> None:
    """Ada gets turn mails; one is queued with its "stop these mails" link's token."""
    token, stop_hash = mail.new_stop_token()
    service = scene.app.state.service
    now = scene.clock.now()
    with service.sessions.begin() as session:
        ada = session.scalars(select(AccountRow).where(
            AccountRow.name == scene.ada)).one()
        ada.email, ada.mail_turns = f"ada{scene.n}@example.org", True
        assert mail.queue(session, key=f"turn:{scene.game_id}:{scene.seat_a}:0",
                          to_address=ada.email, subject="turn", body="turn", now=now,
                          send_after=now + timedelta(days=1), game_id=scene.game_id,
                          seat=scene.seat_a, move_number=0, account_id=ada.id,
                          stop_hash=stop_hash)
    scene.stop = token


def ada_moves_first(scene: Scene) -> None:
    """Ada makes the first decision of her turn: she may take it back (undo)."""
    view = scene.view("ada")
    reply = scene.call("ada", "POST", f"/api/games/{scene.game_id}/actions",
                       {"action": first_notation(view), "move_number": view["move_number"]})
    assert reply.status_code == 200 and reply.json()["can_undo"], reply.text


def settled(scene: Scene) -> None:
    """Wait (at most a minute) until no bot of any scene is thinking or moving: a bot answers
    a move in the background, and its move would show between two snapshots as a change no
    caller made."""
    bots = scene.app.state.server.bots

    async def busy() -> bool:  # read on the application's loop, where the tasks live
        return any(not task.done() for task in bots.tasks.values())

    deadline = time.monotonic() + 60
    while scene.main.portal.call(busy):
        assert time.monotonic() < deadline, "the bots never settled"
        time.sleep(0.02)


def snapshot(scene: Scene) -> dict[str, list[str]]:
    """Every row that says who holds what and where each game stands, once the bots are
    still."""
    settled(scene)
    tables = (GameRow, SeatRow, ActionRow, AccountRow, SessionRow, ChatRow, ReviewRow, RatingRow,
              RatingChangeRow, TournamentRow, EntrantRow, RoundRow, TableRow, ByeRow)
    with scene.app.state.service.sessions() as session:
        return {table.__tablename__: sorted(repr(tuple(row)) for row in
                                            session.execute(select(table.__table__)).all())
                for table in tables}


# -- the table -------------------------------------------------------------------------------
@dataclass
class Row:
    """One route: ``expect``, each caller's status; ``writes``, the callers whose call
    changes something (each tried on a scene of its own when ``fresh``); ``body(scene,
    caller)``; ``setup(scene)`` before the calls; ``check(scene, caller, reply)`` after."""

    method: str  # "WS" for a WebSocket
    path: str
    expect: dict[str, int]
    writes: tuple[str, ...] = ()
    body: Callable[[Scene, str], Any] | None = None
    setup: Callable[[Scene], None] | None = None
    check: Callable[[Scene, str, Any], None] | None = None
    fresh: bool = False
    params: Callable[[Scene], dict[str, Any]] | None = None
    note: str = ""
    table: dict[str, Any] | None = None  # more options of the running table (build)
    bearer: Callable[[Scene], str] | None = None  # a token every caller sends (Scene.bearer)

    @property
    def id(self) -> str:
        return f"{self.method} {self.path}{' ' + self.note if self.note else ''}"


def params_of(scene: Scene) -> dict[str, Any]:
    return {"game_id": scene.game_id, "seat": scene.seat_a, "name": scene.ada, "game": GAME,
            "lang": "ja", "path": "common.js", "tid": scene.tournament}


def tournament_body(scene: Scene, _caller: str = "") -> dict[str, Any]:
    starts = scene.clock.now() + timedelta(days=1)
    return {"name": "Club Swiss", "game": GAME, "players": 3, "rounds": 3, "bots": True,
            "starts_at": starts.isoformat()}


def a_tournament(scene: Scene) -> None:
    """A planned tournament Ada organised (written through the service: the route is tried
    by its own row)."""
    tournaments = scene.app.state.tournaments
    ada = scene.app.state.accounts.by_name(scene.ada)
    scene.tournament = tournaments.create(ada.id, tournament_body(scene))["id"]


def ada_entered(scene: Scene) -> None:
    a_tournament(scene)
    reply = scene.call("ada", "POST", f"/api/tournaments/{scene.tournament}/register", {})
    assert reply.status_code == 200, reply.text


def act_body(scene: Scene, _caller: str) -> dict[str, Any]:
    view = scene.view("ada")  # Ada's own legal move: only the caller decides the outcome
    return {"action": first_notation(view), "move_number": view["move_number"]}


def undo_body(scene: Scene, _caller: str) -> dict[str, Any]:
    return {"move_number": scene.view("ada")["move_number"]}


def seen_seat(scene: Scene, caller: str) -> int | None:
    """The seat whose view ``caller`` is given at the running table."""
    return {"ada": scene.seat_a, "ada_token": scene.seat_a, "bob": scene.seat_b,
            "guest": scene.seat_g, "foreign": scene.seat_a, "no_origin": scene.seat_a
            }.get(caller)


def check_view(scene: Scene, caller: str, reply: Any) -> None:
    """A view is exactly that caller's seat's view (a spectator's without a seat)."""
    seat = seen_seat(scene, caller)
    got = reply.json()
    assert got["seat"] == seat, (caller, got["seat"])
    live = scene.app.state.service.get(scene.game_id)
    with live.lock:
        own = live.view(seat, "en")
    assert got["observation"] == own["observation"] and got["text"] == own["text"]


def check_me(scene: Scene, caller: str, reply: Any) -> None:
    if reply.status_code == 200:
        assert reply.json()["name"] == scene.ada, (caller, reply.json())


def check_my_games(scene: Scene, caller: str, reply: Any) -> None:
    if reply.status_code == 200:  # Ada's games only: the running table, at her seat
        games = reply.json()["games"]
        assert [(g["id"], g["seat"]) for g in games] == [(scene.game_id, scene.seat_a)]


def check_turns(scene: Scene, caller: str, reply: Any) -> None:
    """Ada's cookie (from any page) finds her table waiting for her; nobody else has a turn."""
    games = reply.json()["games"]
    if caller in ("ada", "foreign", "no_origin"):
        assert [(g["id"], g["seat"]) for g in games] == [(scene.game_id, scene.seat_a)]
    else:
        assert games == [] and reply.json()["count"] == 0


def sign_in_body(scene: Scene, _caller: str) -> dict[str, Any]:
    return {"name": scene.ada, "password": PASSWORD}


def sign_up_body(scene: Scene, caller: str) -> dict[str, Any]:
    return {"name": f"N{scene.n}{caller}"[:32], "password": PASSWORD}


def open_seat(scene: Scene) -> dict[str, Any]:
    return {**params_of(scene), "game_id": scene.open_id, "seat": 0}


def finished(scene: Scene) -> dict[str, Any]:
    return {**params_of(scene), "game_id": scene.finished_id}


def stop_link(scene: Scene) -> dict[str, Any]:
    return {**params_of(scene), "token": scene.stop}


def chat_body(_scene: Scene, caller: str) -> dict[str, Any]:
    return {"text": f"hello from {caller}"}


def check_chat(scene: Scene, caller: str, reply: Any) -> None:
    """A reader gets the table's messages (the one its setup wrote)."""
    if reply.status_code == 200:
        assert [m["text"] for m in reply.json()["messages"]] == ["hello from the table"]


def check_unread(scene: Scene, caller: str, reply: Any) -> None:
    """A reader counts the message another wrote; its writer (the guest) has nothing unread."""
    if reply.status_code == 200:
        assert reply.json() == {"count": 0 if caller == "guest" else 1, "last": 1}


def chat_written(scene: Scene) -> None:
    reply = scene.call("guest", "POST", f"/api/games/{scene.game_id}/chat",
                       {"text": "hello from the table"})
    assert reply.status_code == 201, reply.text


def check_hint(scene: Scene, caller: str, reply: Any) -> None:
    """A hint is for the position Ada is to move in, and every view now says hints were used."""
    if reply.status_code == 200:
        view = scene.view("spectator")
        assert reply.json()["move_number"] == view["move_number"], reply.json()
        assert view["hints"]["used"] is True


PRACTICE = {"practice": True}
SPECTATOR_CHAT = {"spectator_chat": True}
# a write that needs no cookie: everyone may, except Ada's cookie from a foreign page (or none)
ANYONE_WRITES = ("ada", "ada_token", "bob", "guest", "spectator", "stale")


# reads anyone may make, whoever they are: the same answer for every caller, nothing changes
PUBLIC = [
    "/api/openapi.json", "/api/docs", "/docs/oauth2-redirect", "/api/catalog",
    "/api/languages", "/api/catalog/{game}/legend", "/api/bots", "/api/i18n", "/api/i18n/{lang}",
    "/", "/games/{game_id}", "/favicon.ico", "/static/{path}",
    "/api/games", "/api/games/{game_id}", "/api/players/{name}", "/players/{name}", "/profile",
    "/api/tournaments", "/tournaments",
]
# a signed-in account's write: Ada's and Bob's cookies from our pages; a seat's token is no
# account, and Ada's cookie from a foreign page (or none) is refused
ACCOUNT_WRITE = {"ada": 200, "ada_token": 401, "bob": 200, "guest": 401, "spectator": 401,
                 "stale": 401, "foreign": 403, "no_origin": 403}

ROUTES: list[Row] = [
    *[Row("GET", path, EVERYONE) for path in PUBLIC],
    Row("GET", "/rules/{game_id}", EVERYONE, params=lambda s: {**params_of(s), "game_id": GAME},
        note="(a game's rules)"),
    # a running game's replay and record: nobody, not even a seat (they hold every hand)
    Row("GET", "/games/{game_id}/replay", EVERYONE, note="(the page; its data is refused)"),
    Row("GET", "/api/games/{game_id}/record", dict.fromkeys(CALLERS, 409), note="(running)"),
    Row("GET", "/api/games/{game_id}/replay", dict.fromkeys(CALLERS, 409), note="(running)"),
    Row("GET", "/api/games/{game_id}/record", EVERYONE, setup=finish_a_game, params=finished,
        note="(finished)"),
    Row("GET", "/api/games/{game_id}/replay", EVERYONE, setup=finish_a_game, params=finished,
        note="(finished)"),
    # a view: everyone gets one, each exactly their own seat's
    Row("GET", "/api/games/{game_id}/view", EVERYONE, check=check_view),
    # games: a guest creates one as before; a cookie write needs our Origin
    Row("POST", "/api/games", {**dict.fromkeys(CALLERS, 201), "foreign": 403,
                               "no_origin": 403},
        writes=("ada", "ada_token", "bob", "guest", "spectator", "stale"),
        body=lambda s, c: {"game": "san-gimignano", "players": 2}),
    Row("POST", "/api/games/{game_id}/seats/{seat}/join",
        {**EVERYONE, "foreign": 403, "no_origin": 403},
        writes=("ada", "ada_token", "bob", "guest", "spectator", "stale"), fresh=True,
        body=lambda s, c: {}, params=open_seat, note="(a free seat)"),
    Row("POST", "/api/games/{game_id}/seats/{seat}/join",
        {**dict.fromkeys(CALLERS, 409), "foreign": 403, "no_origin": 403},
        body=lambda s, c: {}, note="(Ada's seat, taken)"),
    # a seat's decisions: its holder only
    Row("POST", "/api/games/{game_id}/actions",
        refused(bob=403, guest=403, spectator=401, stale=401, foreign=403, no_origin=403),
        writes=("ada", "ada_token"), fresh=True, body=act_body),
    Row("POST", "/api/games/{game_id}/undo",
        # another seat is told it has nothing to take back (409): it changes nothing either
        refused(bob=409, guest=409, spectator=401, stale=401, foreign=403, no_origin=403),
        writes=("ada", "ada_token"), fresh=True, body=undo_body, setup=ada_moves_first),
    Row("POST", "/api/games/{game_id}/seats/{seat}/leave",
        refused(bob=403, guest=403, spectator=401, stale=401, foreign=403, no_origin=403),
        writes=("ada", "ada_token"), fresh=True),
    # accounts
    Row("POST", "/api/accounts", {**dict.fromkeys(CALLERS, 201), "foreign": 403,
                                  "no_origin": 403},
        writes=("ada", "ada_token", "bob", "guest", "spectator", "stale"), body=sign_up_body),
    Row("POST", "/api/session", {**EVERYONE, "foreign": 403, "no_origin": 403},
        writes=("ada", "ada_token", "bob", "guest", "spectator", "stale"), body=sign_in_body),
    Row("DELETE", "/api/session", {**dict.fromkeys(CALLERS, 204), "foreign": 403,
                                   "no_origin": 403},
        writes=("ada", "bob")),
    Row("GET", "/api/me", {"ada": 200, "ada_token": 401, "bob": 200, "guest": 401,
                           "spectator": 401, "stale": 401, "foreign": 200, "no_origin": 200},
        check=lambda s, c, r: check_me(s, c, r) if c != "bob" else None),
    Row("PATCH", "/api/me", {"ada": 200, "ada_token": 401, "bob": 200, "guest": 401,
                             "spectator": 401, "stale": 401, "foreign": 403, "no_origin": 403},
        writes=("ada", "bob"), body=lambda s, c: {"email": f"{c}@example.org"}),
    Row("GET", "/api/me/games", {"ada": 200, "ada_token": 401, "bob": 200, "guest": 401,
                                 "spectator": 401, "stale": 401, "foreign": 200,
                                 "no_origin": 200},
        check=lambda s, c, r: check_my_games(s, c, r) if c != "bob" else None),
    # the header's "your turn" count: the signed-in account's seats, and the guest seats a
    # browser names (?seats=ID:SEAT; whose turn it is is public, as in the lobby)
    Row("GET", "/api/turns", EVERYONE, check=check_turns),
    # table chat (chat.py): the seats only, unless the table lets spectators chat
    Row("GET", "/api/games/{game_id}/chat",
        {**EVERYONE, "spectator": 403, "stale": 403}, setup=chat_written, check=check_chat),
    Row("GET", "/api/games/{game_id}/chat/unread",
        {**EVERYONE, "spectator": 403, "stale": 403}, setup=chat_written, check=check_unread),
    Row("POST", "/api/games/{game_id}/chat",
        {**dict.fromkeys(CALLERS, 201), "spectator": 403, "stale": 403, "foreign": 403,
         "no_origin": 403},
        writes=("ada", "ada_token", "bob", "guest"), body=chat_body),
    Row("GET", "/api/games/{game_id}/chat", EVERYONE, setup=chat_written, check=check_chat,
        table=SPECTATOR_CHAT, note="(spectator chat)"),
    Row("POST", "/api/games/{game_id}/chat",
        {**dict.fromkeys(CALLERS, 201), "foreign": 403, "no_origin": 403},
        writes=ANYONE_WRITES, body=chat_body, table=SPECTATOR_CHAT, note="(spectator chat)"),
    # ratings (ratings_api.py): public
    Row("GET", "/api/ratings/{game}", EVERYONE),
    Row("GET", "/api/seat-ratings", EVERYONE),
    Row("GET", "/ratings/{game}", EVERYONE),
    # an empty seat to a bot (seating.py): the creator's token only, not a seat's
    Row("POST", "/api/games/{game_id}/seats/{seat}/bot",
        {"ada": 401, "ada_token": 403, "bob": 401, "guest": 403, "spectator": 401,
         "stale": 401, "foreign": 403, "no_origin": 403},
        body=lambda s, c: {}, params=open_seat),
    Row("POST", "/api/games/{game_id}/seats/{seat}/bot",
        {**EVERYONE, "foreign": 403, "no_origin": 403}, writes=ANYONE_WRITES, fresh=True,
        body=lambda s, c: {}, params=open_seat, bearer=lambda s: s.creator,
        note="(each with the creator's token)"),
    # reviews (review.py): a finished game's, asked for and cancelled by anyone (the record is
    # public once the game is over); never a running game's
    Row("POST", "/api/games/{game_id}/review",
        {**dict.fromkeys(CALLERS, 409), "foreign": 403, "no_origin": 403}, note="(running)"),
    Row("GET", "/api/games/{game_id}/review", dict.fromkeys(CALLERS, 409), note="(running)"),
    Row("DELETE", "/api/games/{game_id}/review",
        {**dict.fromkeys(CALLERS, 409), "foreign": 403, "no_origin": 403}, note="(running)"),
    Row("POST", "/api/games/{game_id}/review",
        {**dict.fromkeys(CALLERS, 202), "foreign": 403, "no_origin": 403},
        writes=ANYONE_WRITES, fresh=True, setup=finish_a_game, params=finished,
        note="(finished)"),
    Row("GET", "/api/games/{game_id}/review", EVERYONE, setup=review_asked, params=finished,
        note="(finished)"),
    Row("DELETE", "/api/games/{game_id}/review", {**EVERYONE, "foreign": 403, "no_origin": 403},
        writes=ANYONE_WRITES, fresh=True, setup=review_asked, params=finished,
        note="(finished)"),
    # one's own view of a finished game (own cards): the seat's token or its account only;
    # never a running game's (a read, so no Origin check, as the table's other reads)
    Row("GET", "/api/games/{game_id}/review/seat",
        {**dict.fromkeys(CALLERS, 409)}, note="(running)"),
    Row("GET", "/api/games/{game_id}/review/seat",
        {"ada": 200, "ada_token": 403, "bob": 403, "guest": 403, "spectator": 403,
         "stale": 403, "foreign": 200, "no_origin": 200},
        setup=finish_ada_game, params=finished, check=check_own_view, note="(finished)"),
    # a hint: the seat to move, at a practice table only
    Row("POST", "/api/games/{game_id}/hint",
        refused(bob=403, guest=403, spectator=401, stale=401, foreign=403, no_origin=403),
        writes=("ada", "ada_token"), fresh=True, body=lambda s, c: {}, table=PRACTICE,
        check=check_hint, note="(practice)"),
    Row("POST", "/api/games/{game_id}/hint",
        {"ada": 403, "ada_token": 403, "bob": 403, "guest": 403, "spectator": 401,
         "stale": 401, "foreign": 403, "no_origin": 403},
        body=lambda s, c: {}, note="(not a practice table)"),
    # the "stop these mails" link (mail.py): whoever holds the mail's token; the page asks
    # first, so a mail client that opens links changes nothing
    Row("GET", "/mail/stop/{token}", EVERYONE, setup=turn_mail_to_ada, params=stop_link),
    Row("POST", "/mail/stop/{token}", {**EVERYONE, "foreign": 403, "no_origin": 403},
        writes=ANYONE_WRITES, fresh=True, setup=turn_mail_to_ada, params=stop_link),
    Row("POST", "/mail/stop/{token}", {**EVERYONE, "foreign": 403, "no_origin": 403},
        params=lambda s: {"token": "no-such-token"}, note="(a token no mail carried)"),
    # tournaments (tournaments/): anyone reads; a signed-in account creates, enters, withdraws
    Row("GET", "/api/tournaments/{tid}", EVERYONE, setup=a_tournament),
    Row("GET", "/tournaments/{tid}", EVERYONE, setup=a_tournament),
    Row("POST", "/api/tournaments", {**ACCOUNT_WRITE, "ada": 201, "bob": 201},
        writes=("ada", "bob"), body=tournament_body),
    Row("POST", "/api/tournaments/{tid}/register", ACCOUNT_WRITE, writes=("ada", "bob"),
        setup=a_tournament, body=lambda s, c: {}),
    Row("POST", "/api/tournaments/{tid}/withdraw", {**ACCOUNT_WRITE, "bob": 409},
        writes=("ada",), setup=ada_entered, body=lambda s, c: {}),
    # the push: each its own seat's views; Ada's cookie from a foreign page (or none) refused
    Row("WS", "/ws/games/{game_id}", {**EVERYONE, "foreign": 4403, "no_origin": 4403}),
    # an account's pages hear of its new tables: only with its own cookie, from our pages
    Row("WS", "/ws/me", {**dict.fromkeys(CALLERS, 4401), "ada": 200, "bob": 200,
                         "foreign": 4403, "no_origin": 4403}),
]


# -- the tests ---------------------------------------------------------------------------------
def route_keys(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(method, path) of every route, routers included however FastAPI nests them."""
    for route in routes:
        nested = getattr(route, "original_router", None)
        if nested is not None:  # an included router (FastAPI >= 0.120 keeps it whole)
            context = getattr(route, "include_context", None)
            yield from route_keys(nested.routes, prefix + getattr(context, "prefix", ""))
        elif isinstance(route, Mount):
            yield "GET", prefix + route.path + "/{path}"
        elif isinstance(route, WebSocketRoute) or type(route).__name__ == "APIWebSocketRoute":
            yield "WS", prefix + route.path
        elif isinstance(route, Route):
            for method in sorted(route.methods or ()):
                if method != "HEAD":
                    yield method, prefix + route.path
        else:
            raise AssertionError(f"a route of a kind this test does not know: {route!r}")


def test_every_route_has_a_row() -> None:
    """A route without a row (or a row without a route) fails here: add its row to ROUTES."""
    app = create_app("sqlite:///:memory:")
    routes = set(route_keys(app.routes))
    rows = {(row.method, row.path) for row in ROUTES}
    assert routes - rows == set(), "routes with no row in ROUTES (who may use them?)"
    assert rows - routes == set(), "rows in ROUTES for routes that do not exist"
    assert ("WS", "/ws/games/{game_id}") in routes and ("PATCH", "/api/me") in routes
    for row in ROUTES:
        assert set(row.expect) == set(CALLERS), f"{row.id}: say what every caller gets"
        assert set(row.writes) <= {c for c, s in row.expect.items() if s < 400}, row.id


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, ManualClock]]:
    clock = ManualClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))
    path: Path = tmp_path_factory.mktemp("access")
    settings = Settings(db=database_url(request.param, path), bot_delay=0.0,
                        games_per_minute=0, sign_ups_per_hour=0, deadline_sweep=3600)
    app = create_app(settings, clock=clock)
    with pytest.MonkeyPatch.context() as patch:
        # a cheap argon2 (hashing is not what this module tests; dozens of scenes sign up)
        patch.setattr(accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=1024,
                                                         parallelism=1))
        # reviews stay queued (a running review would change its row between two snapshots);
        # a hint searches little
        patch.setattr(reviews_api.ReviewRunner, "start", lambda self: None)
        patch.setattr(reviews_api, "HINT_BUDGET", 20)
        # hints searched in a thread: the bot processes end with the thread that started
        # them, and each call here runs in a thread of its own (a served app has one)
        searcher = ThreadPoolExecutor(1)
        patch.setattr(BotRunner, "_pool", lambda self: searcher)
        with TestClient(app, raise_server_exceptions=False) as main:
            yield main, clock
        searcher.shutdown()


SCENES = iter(range(1, 10**6))


def new_scene(site: tuple[Any, ManualClock], row: Row) -> Scene:
    scene = build(*site, next(SCENES), row.table)
    if row.setup is not None:
        row.setup(scene)
    if row.bearer is not None:
        scene.bearer = row.bearer(scene)
    return scene


def call_ws(scene: Scene, caller: str, path: str) -> int:
    """The seat a WebSocket is shown (as 200), or 4000 + the refusal's status."""
    with scene.browser().websocket_connect(path, headers=scene.headers(caller)) as ws:
        message = json.loads(ws.receive_text())
        if message["type"] == "hello":  # /ws/me: the account whose cookie it is, and no other
            assert message == {"type": "hello", "name": {"ada": scene.ada, "bob": scene.bob
                                                         }[caller]}, (caller, message)
            return 200
        if message["type"] == "error":
            closed = ws.receive()
            assert closed["type"] == "websocket.close", closed
            return int(closed["code"])
        assert message["view"]["seat"] == seen_seat(scene, caller), (caller, message["view"])
        shown = json.dumps(message)
        assert not any(secret in shown for secret in [*scene.token.values(),
                                                       *scene.cookie.values()])
        return 200


@pytest.mark.parametrize("row", ROUTES, ids=[row.id for row in ROUTES])
def test_who_may_use_it(site: tuple[Any, ManualClock], row: Row) -> None:
    scene = new_scene(site, row)
    order = [c for c in CALLERS if c not in row.writes] + list(row.writes)  # refusals first
    for index, caller in enumerate(order):
        if row.fresh and caller in row.writes and index > 0 and order[index - 1] in row.writes:
            scene = new_scene(site, row)  # the previous write changed what this one meets
        path = row.path.format(**(row.params or params_of)(scene))
        before = snapshot(scene)
        if row.method == "WS":
            status = call_ws(scene, caller, path)
        else:
            body = row.body(scene, caller) if row.body is not None else None
            reply = scene.call(caller, row.method, path, body)
            status = reply.status_code
            if status >= 400 and reply.headers.get("content-type") == "application/json":
                assert reply.json()["error"]["message"], reply.text  # a clear refusal
        assert status == row.expect[caller], (caller, status, row.id)
        after = snapshot(scene)
        if caller in row.writes:
            assert after != before, f"{caller}'s allowed write changed nothing"
        else:
            assert after == before, f"{caller}'s call changed something"
        if row.check is not None and row.method != "WS":
            row.check(scene, caller, reply)


# -- bad input -----------------------------------------------------------------------------------
NOT_JSON = object()  # the body is sent as these bytes, not as JSON
BAD_INPUT: list[tuple[str, str, Any]] = [
    ("POST", "/api/accounts", {"name": "Ada1", "password": PASSWORD}),  # taken (any case)
    ("POST", "/api/accounts", {"name": "ADA1", "password": PASSWORD}),
    ("POST", "/api/accounts", {"name": " Zed", "password": PASSWORD}),
    ("POST", "/api/accounts", {"name": "Z/ed", "password": PASSWORD}),
    ("POST", "/api/accounts", {"name": "Zed", "password": "short"}),
    ("POST", "/api/accounts", {"name": "Zed", "password": PASSWORD, "email": "no-at-sign"}),
    ("POST", "/api/accounts", {"name": "Zed", "password": PASSWORD, "lang": "xx"}),
    ("POST", "/api/accounts", {"name": "Zed", "password": PASSWORD, "admin": True}),
    ("POST", "/api/accounts", {"name": "Zed", "password": PASSWORD,
                               "claim": [{"game": "x", "seat": 0, "token": "t"}] * 51}),
    ("POST", "/api/accounts", {"name": "Zed\u0000", "password": PASSWORD}),
    ("POST", "/api/accounts", {"name": ["Zed"], "password": PASSWORD}),
    ("POST", "/api/accounts", b"not json"),
    ("POST", "/api/accounts", b"[" * 100_000),
    ("POST", "/api/session", {"name": "Ada1", "password": 12345678}),
    ("POST", "/api/session", {"name": "Ada1"}),
    ("POST", "/api/session", b"null"),
    ("PATCH", "/api/me", {"current_password": PASSWORD}),  # without a new password
    ("PATCH", "/api/me", {"password": "short", "current_password": PASSWORD}),
    ("PATCH", "/api/me", {"password": "long enough now", "current_password": "wrong one!"}),
    ("PATCH", "/api/me", {"email": "a@b"}),
    ("PATCH", "/api/me", {"mail_turns": "yes"}),
    ("PATCH", "/api/me", {"name": "Eve"}),  # a name is not a setting
    ("POST", "/api/games/{game_id}/seats/9/join", {}),
    ("POST", "/api/games/{game_id}/seats/-1/join", {}),
    ("POST", "/api/games/{game_id}/seats/{seat_g}/leave", {}),  # Ada's cookie, not her seat
    ("POST", "/api/games/{game_id}/seats/x/leave", {}),
    ("POST", "/api/games/{game_id}/seats/99999/leave", {}),
    ("POST", "/api/games/nosuchgame/seats/0/leave", {}),
    ("POST", "/api/games/{game_id}/actions", {"action": "nonsense", "move_number": 0}),
    ("POST", "/api/games/{game_id}/actions", {"action": "x", "move_number": -1}),
    ("POST", "/api/games/{game_id}/undo", {"move_number": 0}),  # nothing of hers to undo
    ("POST", "/api/games", {"game": "tiletum", "players": 3,
                            "timing": {"kind": "realtime", "base_s": 1}}),
    ("POST", "/api/games", {"game": "tiletum", "players": 3, "on_timeout": {"kind": "x"}}),
    ("POST", "/api/tournaments", {"name": "Cup", "game": "tiletum", "players": 9, "rounds": 3,
                                  "starts_at": "2030-01-01T10:00:00+00:00"}),
    ("POST", "/api/tournaments", {"name": "Cup", "game": "tiletum", "players": 3, "rounds": 3,
                                  "starts_at": "2020-01-01T10:00:00+00:00"}),  # in the past
    ("POST", "/api/tournaments", {"name": "Cup", "game": "tiletum", "players": 3, "rounds": 3,
                                  "starts_at": "2030-01-01T10:00:00"}),  # no time zone
    ("POST", "/api/tournaments", {"name": "Cup", "game": "tiletum", "players": 3, "rounds": 3,
                                  "starts_at": "2030-01-01T10:00:00+00:00",
                                  "options": {"no_such_option": True}}),
    ("POST", "/api/tournaments/abc/register", {}),
    ("POST", "/api/tournaments/999999/register", {}),
    ("POST", "/api/tournaments/999999/withdraw", {}),
]


@pytest.mark.parametrize(("method", "path", "body"), BAD_INPUT,
                         ids=[f"{m} {p} {str(b)[:40]}" for m, p, b in BAD_INPUT])
def test_bad_input_gets_a_clear_4xx_and_changes_nothing(site: tuple[Any, ManualClock],
                                                        method: str, path: str,
                                                        body: Any) -> None:
    """Sent signed in as Ada, from our own pages (a guest's or a spectator's bad input is
    tried by each concern's own tests)."""
    scene = build(*site, next(SCENES))
    if isinstance(body, dict):  # the scene's names are numbered: Ada1 is this scene's Ada
        text = json.dumps(body).replace("Ada1", scene.ada).replace("ADA1", scene.ada.upper())
        body = json.loads(text)
    path = path.format(game_id=scene.game_id, seat_g=scene.seat_g)
    before = snapshot(scene)
    headers = scene.headers("ada")
    if isinstance(body, bytes):
        reply = scene.browser().request(method, path, content=body, headers={
            **headers, "Content-Type": "application/json"})
    else:
        reply = scene.browser().request(method, path, json=body, headers=headers)
    assert 400 <= reply.status_code < 500, reply.text
    error = reply.json()["error"]
    assert error["code"] and error["message"]
    assert PASSWORD not in reply.text
    assert snapshot(scene) == before
