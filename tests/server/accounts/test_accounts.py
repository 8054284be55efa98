"""Accounts (palio.server.accounts.store): sign-up, sign-in and out, sessions, the CSRF rule, the
sign-in limit, seats held by accounts, profiles; and who may read or write what.

In-process (FastAPI's TestClient, a ManualClock the tests move) on SQLite and on PostgreSQL
(``PALIO_TEST_POSTGRES_URL``), plus real ``palio serve`` processes where a log or a proxy
header matters.
"""

from __future__ import annotations

import json
import logging
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from palio.server.app import create_app
from palio.server.base.clock import ManualClock
from palio.server.base.db import make_engine, upgrade
from palio.server.base.settings import Settings
from tests.server.clients import browser_of
from tests.server.conftest import database_url

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ORIGIN = {"Origin": "http://testserver"}
PASSWORD = "correct horse battery"
GAME = {"game": "san-gimignano", "players": 2}


class Site:
    """One application in-process, its clock, and a client per browser."""

    def __init__(self, app: Any, clock: ManualClock, first: TestClient) -> None:
        self.app, self.clock, self.first = app, clock, first

    def browser(self, base_url: str = "http://testserver") -> TestClient:
        """Another browser (its own cookie jar) on the same running application."""
        return browser_of(self.first, base_url=base_url)

    def sign_up(self, client: TestClient, name: str, **extra: Any) -> httpx.Response:
        response = client.post("/api/accounts", json={"name": name, "password": PASSWORD,
                                                      **extra}, headers=ORIGIN)
        assert response.status_code == 201, response.text
        return response

    def game(self, client: TestClient | None = None) -> str:
        response = (client or self.first).post("/api/games", json=GAME, headers=ORIGIN)
        assert response.status_code == 201, response.text
        return response.json()["id"]


@pytest.fixture(params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    clock = ManualClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))
    settings = Settings(db=database_url(request.param, tmp_path), bot_delay=0.0,
                        games_per_minute=0)
    app = create_app(settings, clock=clock)
    with TestClient(app, raise_server_exceptions=False) as first:
        yield Site(app, clock, first)


def session_cookie(client: TestClient) -> str | None:
    return client.cookies.get("palio_session", domain="testserver.local")


def plant(client: TestClient, value: str) -> None:
    """Put a session cookie in the client's jar, where the server's own would go."""
    client.cookies.set("palio_session", value, domain="testserver.local", path="/")


def first_notation(view: dict[str, Any]) -> str:
    """The notation of the first legal choice, however the view groups them."""
    def walk(node: Any) -> str | None:
        if isinstance(node, dict):
            if isinstance(node.get("notation"), str):
                return node["notation"]
            for value in node.values():
                found = walk(value)
                if found:
                    return found
        if isinstance(node, list):
            for value in node:
                found = walk(value)
                if found:
                    return found
        return None

    found = walk(view["legal"])
    assert found, view["legal"]
    return found


def act(client: TestClient, game_id: str, headers: dict[str, str] | None = None,
        origin: bool = True) -> httpx.Response:
    view = client.get(f"/api/games/{game_id}/view", headers=headers or {}).json()
    body = {"action": first_notation(view), "move_number": view["move_number"]}
    return client.post(f"/api/games/{game_id}/actions", json=body,
                       headers={**(ORIGIN if origin else {}), **(headers or {})})


# -- sign up, in, out ------------------------------------------------------------------------
def test_sign_up_signs_in_and_me_tells_who(site: Site) -> None:
    client = site.first
    assert client.get("/api/me").status_code == 401
    reply = site.sign_up(client, "Ada", email="ada@example.org", lang="ja")
    assert reply.json()["name"] == "Ada"
    answer = client.get("/api/me")
    assert "no-store" in answer.headers["cache-control"]  # one person's: no cache keeps it
    me = answer.json()
    assert me == {"name": "Ada", "email": "ada@example.org", "lang": "ja", "mail_turns": True}
    assert client.delete("/api/session", headers=ORIGIN).status_code == 204
    assert session_cookie(client) is None
    assert client.get("/api/me").status_code == 401
    signed = client.post("/api/session", json={"name": "ada", "password": PASSWORD},
                         headers=ORIGIN)  # names are compared regardless of case
    assert signed.status_code == 200, signed.text
    assert client.get("/api/me").json()["name"] == "Ada"


def test_the_cookie_is_httponly_lax_and_secure_over_https(site: Site) -> None:
    plain = site.sign_up(site.first, "Ada").headers["set-cookie"].lower()
    assert "httponly" in plain and "samesite=lax" in plain and "path=/" in plain
    assert "secure" not in plain
    https = site.browser("https://testserver")
    reply = https.post("/api/accounts", json={"name": "Bea", "password": PASSWORD},
                       headers={"Origin": "https://testserver"})
    assert reply.status_code == 201, reply.text
    cookie = reply.headers["set-cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie


def test_each_sign_in_gets_a_new_session_and_the_old_one_ends(site: Site) -> None:
    """No session fixation: a token planted before sign-in never becomes a signed-in one."""
    client = site.first
    site.sign_up(client, "Ada")
    first = session_cookie(client)
    plant(client, "planted-by-someone")
    client.post("/api/session", json={"name": "Ada", "password": PASSWORD}, headers=ORIGIN)
    second = session_cookie(client)
    assert second not in (first, "planted-by-someone")
    other = site.browser()
    plant(other, "planted-by-someone")
    assert other.get("/api/me").status_code == 401
    plant(other, first)
    assert other.get("/api/me").status_code == 200  # another browser's session stays
    client.post("/api/session", json={"name": "Ada", "password": PASSWORD}, headers=ORIGIN)
    plant(other, second)
    assert other.get("/api/me").status_code == 401  # replaced by this browser's new one


def test_sessions_expire_by_the_server_clock(site: Site) -> None:
    site.sign_up(site.first, "Ada")
    site.clock.advance(29 * 86400)
    assert site.first.get("/api/me").status_code == 200  # used: it lasts 30 days from now
    site.clock.advance(29 * 86400)
    assert site.first.get("/api/me").status_code == 200
    site.clock.advance(31 * 86400)
    assert site.first.get("/api/me").status_code == 401


def test_sign_up_refuses_bad_input_and_changes_nothing(site: Site) -> None:
    client = site.first
    site.sign_up(client, "Ada")
    fresh = site.browser()
    for body, code in [
        ({"name": "ADA", "password": PASSWORD}, "name_taken"),
        ({"name": "Ｃal", "password": "short"}, "bad_body"),
        ({"name": "", "password": PASSWORD}, "bad_body"),
        ({"name": " Eve", "password": PASSWORD}, "bad_body"),
        ({"name": "a/b", "password": PASSWORD}, "bad_body"),
        ({"name": "Eve", "password": PASSWORD, "email": "not an address"}, "bad_body"),
        ({"name": "Eve", "password": PASSWORD, "lang": "xx"}, "bad_body"),
        ({"name": "Eve", "password": PASSWORD, "admin": True}, "bad_body"),
        ({"name": "Eve", "password": PASSWORD, "claim": [{"game": "x"}]}, "bad_body"),
    ]:
        reply = fresh.post("/api/accounts", json=body, headers=ORIGIN)
        assert reply.status_code in (400, 409), reply.text
        assert reply.json()["error"]["code"] == code
        assert PASSWORD not in reply.text and "short" not in reply.text
        assert session_cookie(fresh) is None
    assert fresh.post("/api/session", json={"name": "Eve", "password": PASSWORD},
                      headers=ORIGIN).status_code == 401  # no Eve was made


@pytest.mark.parametrize("address", [
    "a@x.org,victim@y.net", "a@b@c.org", '"a,victim@y.net"@x.org', '"ada"@x.org',
    "Ada <ada@x.org>", "ada@x.org victim@y.net", "ada@x.org;victim@y.net", "ada@[127.0.0.1]"])
def test_an_email_must_be_exactly_one_address(site: Site, address: str) -> None:
    """A list, a second "@" or a quoted local part would mail a second address: refused at
    sign-up and in the settings, and nothing changes (email-validator, issue 35)."""
    client = site.first
    reply = client.post("/api/accounts", json={"name": "Eve", "password": PASSWORD,
                                               "email": address}, headers=ORIGIN)
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_body"
    assert session_cookie(client) is None
    site.sign_up(client, "Ada", email="ada@example.org")
    changed = client.patch("/api/me", json={"email": address}, headers=ORIGIN)
    assert changed.status_code == 400
    assert client.get("/api/me").json()["email"] == "ada@example.org"


# -- no enumeration, the sign-in limit --------------------------------------------------------
def test_unknown_name_and_wrong_password_answer_alike(site: Site) -> None:
    site.sign_up(site.first, "Ada")
    fresh = site.browser()
    wrong = fresh.post("/api/session", json={"name": "Ada", "password": "wrong password"},
                       headers=ORIGIN)
    unknown = fresh.post("/api/session", json={"name": "Nobody", "password": "wrong password"},
                         headers=ORIGIN)
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers
    assert "wrong password" not in wrong.text


def test_an_unknown_name_costs_a_password_check(site: Site, monkeypatch: Any) -> None:
    """Comparable time: both refusals run argon2's verify once (against a dummy hash for an
    unknown name), so timing cannot tell them apart."""
    from palio.server.accounts import store as accounts

    site.sign_up(site.first, "Ada")
    calls: list[str] = []
    real = accounts.password_matches

    def counting(stored: str, password: str) -> bool:
        calls.append(stored)
        return real(stored, password)

    monkeypatch.setattr(accounts, "password_matches", counting)
    fresh = site.browser()
    fresh.post("/api/session", json={"name": "Ada", "password": "wrong one"}, headers=ORIGIN)
    fresh.post("/api/session", json={"name": "Nobody", "password": "wrong one"}, headers=ORIGIN)
    assert len(calls) == 2 and calls[1] == accounts.dummy_hash() != calls[0]


def test_sign_in_is_limited_per_name_and_the_clock_frees_it(site: Site) -> None:
    site.sign_up(site.first, "Ada")
    fresh = site.browser()

    def attempt(password: str, name: str = "Ada") -> httpx.Response:
        return fresh.post("/api/session", json={"name": name, "password": password},
                          headers=ORIGIN)

    for _ in range(5):
        assert attempt("wrong password").status_code == 401
        site.clock.advance(60)
    limited = attempt(PASSWORD)  # even the right password waits now
    assert limited.status_code == 429
    assert limited.json()["error"]["code"] == "too_many_attempts"
    # the first failure (5 minutes ago) leaves the 15-minute window in 10 minutes
    assert int(limited.headers["Retry-After"]) == 600
    site.clock.advance(599)
    assert attempt(PASSWORD).status_code == 429
    site.clock.advance(2)
    assert attempt(PASSWORD).status_code == 200


def test_sign_in_is_limited_per_address_across_names(site: Site) -> None:
    site.sign_up(site.first, "Ada")
    fresh = site.browser()
    for n in range(5):
        reply = fresh.post("/api/session", json={"name": f"guess{n}", "password": "x" * 9},
                           headers=ORIGIN)
        assert reply.status_code == 401
    reply = fresh.post("/api/session", json={"name": "Ada", "password": PASSWORD},
                       headers=ORIGIN)
    assert reply.status_code == 429 and int(reply.headers["Retry-After"]) == 900


# -- CSRF -------------------------------------------------------------------------------------
def test_cookie_writes_need_our_own_origin_and_guest_writes_do_not(site: Site) -> None:
    client = site.first
    site.sign_up(client, "Ada")
    game_id = site.game()
    for headers in ({}, {"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": "https://testserver"}):
        for method, path, body in [
            ("POST", f"/api/games/{game_id}/seats/0/join", {}),
            ("POST", "/api/games", GAME),
            ("PATCH", "/api/me", {"email": "evil@example.org"}),
            ("DELETE", "/api/session", None),
        ]:
            reply = client.request(method, path, json=body, headers=headers)
            assert reply.status_code == 403, (headers, path, reply.text)
            assert reply.json()["error"]["code"] == "bad_origin"
    assert client.get("/api/me").json()["email"] is None  # nothing changed
    assert not any(s["taken"] for s in client.get(f"/api/games/{game_id}").json()["seats"])
    # reads need no Origin; a guest (no cookie) writes as before, with or without one
    guest = site.browser()
    joined = guest.post(f"/api/games/{game_id}/seats/1/join", json={"name": "Gil"})
    assert joined.status_code == 200
    assert guest.post(f"/api/games/{game_id}/seats/0/join", json={},
                      headers={"Origin": "http://evil.example"}).status_code == 200
    assert site.game(guest)


def test_sign_in_from_a_foreign_origin_is_refused(site: Site) -> None:
    """No login CSRF: another site cannot sign a browser into the attacker's account."""
    site.sign_up(site.browser(), "Mallory")
    victim = site.browser()
    reply = victim.post("/api/session", json={"name": "Mallory", "password": PASSWORD},
                        headers={"Origin": "http://evil.example"})
    assert reply.status_code == 403 and session_cookie(victim) is None
    reply = victim.post("/api/accounts", json={"name": "Eve", "password": PASSWORD},
                        headers={"Origin": "http://evil.example"})
    assert reply.status_code == 403 and session_cookie(victim) is None


# -- seats of accounts ------------------------------------------------------------------------
def test_a_signed_in_join_plays_from_another_device_by_cookie_alone(site: Site) -> None:
    laptop = site.first
    site.sign_up(laptop, "Ada")
    game_id = site.game()
    joined = laptop.post(f"/api/games/{game_id}/seats/0/join", json={}, headers=ORIGIN)
    assert joined.status_code == 200, joined.text
    assert joined.json()["url"] == f"/games/{game_id}"  # no token in the link
    summary = laptop.get(f"/api/games/{game_id}").json()
    assert summary["seats"][0]["name"] == "Ada" and summary["seats"][0]["account"] is True
    guest = site.browser()
    bob = guest.post(f"/api/games/{game_id}/seats/1/join", json={"name": "Bob"}).json()["token"]
    bearer = {"Authorization": f"Bearer {bob}"}
    phone = site.browser()
    phone.post("/api/session", json={"name": "Ada", "password": PASSWORD}, headers=ORIGIN)
    view = phone.get(f"/api/games/{game_id}/view").json()
    assert view["seat"] == 0 and view["legal"]
    while True:  # whoever is to move plays: Ada from the phone, by cookie only
        view = guest.get(f"/api/games/{game_id}/view", headers=bearer).json()
        if view["to_move"] == 0:
            break
        assert act(guest, game_id, bearer).status_code == 200
    played = act(phone, game_id)
    assert played.status_code == 200, played.text
    assert played.json()["move_number"] == view["move_number"] + 1
    # the same seat, watched over the WebSocket from the phone: its own view
    with phone.websocket_connect(f"/ws/games/{game_id}", headers=ORIGIN) as ws:
        message = ws.receive_json()
        assert message["type"] == "view" and message["view"]["seat"] == 0


def test_signing_out_closes_the_websocket_of_the_accounts_seat(site: Site) -> None:
    """A WebSocket that a session cookie gave a seat stops pushing that seat's view when the
    session signs out: an error in the reader's language, then close code 4401 (issue 35).
    Another browser's connection of the same account, and a guest's, stay open."""
    from starlette.websockets import WebSocketDisconnect

    ada = site.first
    site.sign_up(ada, "Ada")
    game_id = site.game()
    assert ada.post(f"/api/games/{game_id}/seats/0/join", json={},
                    headers=ORIGIN).status_code == 200
    guest = site.browser()
    bob = guest.post(f"/api/games/{game_id}/seats/1/join", json={"name": "Bob"}).json()["token"]
    phone = site.browser()
    phone.post("/api/session", json={"name": "Ada", "password": PASSWORD}, headers=ORIGIN)
    with ada.websocket_connect(f"/ws/games/{game_id}?lang=ja", headers=ORIGIN) as ws, \
            phone.websocket_connect(f"/ws/games/{game_id}", headers=ORIGIN) as other, \
            guest.websocket_connect(f"/ws/games/{game_id}") as bobs:
        assert ws.receive_json()["view"]["seat"] == 0
        assert other.receive_json()["view"]["seat"] == 0
        bobs.receive_json()
        bobs.send_json({"type": "auth", "token": bob})
        assert bobs.receive_json()["view"]["seat"] == 1
        assert ada.delete("/api/session", headers=ORIGIN).status_code == 204
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"]["code"] == "signed_out"
        assert "サインアウト" in message["error"]["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
        # the phone's session and the guest's token go on: a move reaches both
        while guest.get(f"/api/games/{game_id}/view",
                        headers={"Authorization": f"Bearer {bob}"}).json()["to_move"] != 0:
            assert act(guest, game_id, {"Authorization": f"Bearer {bob}"}).status_code == 200
        assert act(phone, game_id).status_code == 200
        assert other.receive_json()["type"] == "view"
        assert bobs.receive_json()["type"] == "view"
        # a new password set from a third browser ends the phone's session: its socket closes
        tablet = site.browser()
        tablet.post("/api/session", json={"name": "Ada", "password": PASSWORD}, headers=ORIGIN)
        assert tablet.patch("/api/me", json={"password": "another password",
                                             "current_password": PASSWORD},
                            headers=ORIGIN).status_code == 200
        while (message := other.receive_json())["type"] == "view":
            pass
        assert message["error"]["code"] == "signed_out"
        with pytest.raises(WebSocketDisconnect) as closed:
            other.receive_json()
        assert closed.value.code == 4401


def test_one_seat_per_account_and_table(site: Site) -> None:
    site.sign_up(site.first, "Ada")
    game_id = site.game()
    assert site.first.post(f"/api/games/{game_id}/seats/0/join", json={},
                           headers=ORIGIN).status_code == 200
    second = site.first.post(f"/api/games/{game_id}/seats/1/join", json={}, headers=ORIGIN)
    assert second.status_code == 409 and second.json()["error"]["code"] == "already_seated"
    assert not site.first.get(f"/api/games/{game_id}").json()["seats"][1]["taken"]


def test_others_cannot_act_for_an_accounts_seat(site: Site) -> None:
    """Another account, a guest, a spectator and a signed-out browser are refused."""
    ada = site.first
    site.sign_up(ada, "Ada")
    game_id = site.game()
    ada.post(f"/api/games/{game_id}/seats/0/join", json={}, headers=ORIGIN)
    guest = site.browser()
    gil = guest.post(f"/api/games/{game_id}/seats/1/join", json={"name": "Gil"}).json()["token"]
    view = ada.get(f"/api/games/{game_id}/view").json()
    if view["to_move"] != 0:
        act(guest, game_id, {"Authorization": f"Bearer {gil}"})
        view = ada.get(f"/api/games/{game_id}/view").json()
    assert view["to_move"] == 0
    body = {"action": first_notation(view), "move_number": view["move_number"]}
    eve = site.browser()
    site.sign_up(eve, "Eve")  # another account, seated nowhere here: a spectator
    assert eve.get(f"/api/games/{game_id}/view").json()["seat"] is None
    signed_out = site.browser()
    signed_out.post("/api/session", json={"name": "Eve", "password": PASSWORD}, headers=ORIGIN)
    signed_out.delete("/api/session", headers=ORIGIN)
    for client, headers in [(eve, ORIGIN), (signed_out, ORIGIN), (site.browser(), {}),
                            (guest, {"Authorization": f"Bearer {gil}"})]:
        for path in ("actions", "undo"):
            sent = body if path == "actions" else {"move_number": view["move_number"]}
            reply = client.post(f"/api/games/{game_id}/{path}", json=sent, headers=headers)
            assert reply.status_code in (401, 403, 409), reply.text
    assert ada.get(f"/api/games/{game_id}/view").json()["move_number"] == view["move_number"]
    assert act(ada, game_id).status_code == 200


def test_a_guest_who_signs_up_keeps_the_seats_of_this_browser(site: Site) -> None:
    guest = site.first
    first, second = site.game(), site.game()
    one = guest.post(f"/api/games/{first}/seats/1/join", json={"name": "Gil"}).json()["token"]
    two = guest.post(f"/api/games/{second}/seats/0/join", json={"name": "Gil"}).json()["token"]
    claim = [{"game": first, "seat": 1, "token": one}, {"game": second, "seat": 0, "token": two},
             {"game": second, "seat": 1, "token": two},  # not this token's seat
             {"game": "nosuchgame", "seat": 0, "token": two}]
    reply = site.sign_up(guest, "Gil2", claim=claim)
    assert sorted((c["game"], c["seat"]) for c in reply.json()["claimed"]) == sorted(
        [(first, 1), (second, 0)])
    mine = guest.get("/api/me/games").json()["games"]
    assert {(g["id"], g["seat"]) for g in mine} == {(first, 1), (second, 0)}
    assert guest.get(f"/api/games/{first}").json()["seats"][1]["name"] == "Gil2"
    phone = site.browser()  # another device, signed in: the claimed seat is its seat
    phone.post("/api/session", json={"name": "Gil2", "password": PASSWORD}, headers=ORIGIN)
    assert phone.get(f"/api/games/{second}/view").json()["seat"] == 0
    # another account cannot claim them again, even with the token
    thief = site.browser()
    stolen = site.sign_up(thief, "Thief", claim=[{"game": first, "seat": 1, "token": one}])
    assert stolen.json()["claimed"] == []


# -- settings, my games, profiles -------------------------------------------------------------
def test_settings_change_and_a_new_password_needs_the_current_one(site: Site) -> None:
    client = site.first
    site.sign_up(client, "Ada")
    reply = client.patch("/api/me", json={"email": "ada@example.org", "lang": "ja",
                                          "mail_turns": False}, headers=ORIGIN)
    assert reply.status_code == 200
    assert reply.json() == {"name": "Ada", "email": "ada@example.org", "lang": "ja",
                            "mail_turns": False}
    refused = client.patch("/api/me", json={"password": "another password",
                                            "current_password": "not the one"}, headers=ORIGIN)
    assert refused.status_code == 403 and "not the one" not in refused.text
    assert client.patch("/api/me", json={"password": "another password"},
                        headers=ORIGIN).status_code == 403
    assert client.patch("/api/me", json={"nickname": "x"}, headers=ORIGIN).status_code == 400
    assert client.patch("/api/me", json={"password": "another password",
                                         "current_password": PASSWORD},
                        headers=ORIGIN).status_code == 200
    client.delete("/api/session", headers=ORIGIN)
    assert client.post("/api/session", json={"name": "Ada", "password": PASSWORD},
                       headers=ORIGIN).status_code == 401
    assert client.post("/api/session", json={"name": "Ada", "password": "another password"},
                       headers=ORIGIN).status_code == 200
    assert client.patch("/api/me", json={"email": ""}, headers=ORIGIN).json()["email"] is None


def test_account_endpoints_refuse_a_signed_out_browser(site: Site) -> None:
    anonymous = site.browser()
    assert anonymous.get("/api/me").status_code == 401
    assert anonymous.get("/api/me/games").status_code == 401
    assert anonymous.patch("/api/me", json={"lang": "ja"}).status_code == 401
    forged = site.browser()
    plant(forged, "x" * 43)
    assert forged.get("/api/me").status_code == 401
    assert forged.patch("/api/me", json={"lang": "ja"}, headers=ORIGIN).status_code == 401
    assert anonymous.delete("/api/session").status_code == 204  # nothing to end


def test_my_games_are_my_own(site: Site) -> None:
    ada, bea = site.first, site.browser()
    site.sign_up(ada, "Ada")
    site.sign_up(bea, "Bea")
    game_id = site.game()
    ada.post(f"/api/games/{game_id}/seats/0/join", json={}, headers=ORIGIN)
    assert [g["id"] for g in ada.get("/api/me/games").json()["games"]] == [game_id]
    assert bea.get("/api/me/games").json()["games"] == []


def test_a_disabled_account_is_signed_out_and_cannot_sign_in(site: Site, tmp_path: Path) -> None:
    from palio.server.accounts.web import store

    client = site.first
    site.sign_up(client, "Ada")
    accounts = store(client)
    assert accounts.set_disabled("ada")
    assert client.get("/api/me").status_code == 401
    reply = site.browser().post("/api/session", json={"name": "Ada", "password": PASSWORD},
                                headers=ORIGIN)
    assert reply.status_code == 403 and reply.json()["error"]["code"] == "account_disabled"
    wrong = site.browser().post("/api/session", json={"name": "Ada", "password": "not it at all"},
                                headers=ORIGIN)
    assert wrong.status_code == 401  # only the right password learns it is disabled
    assert site.browser().get("/players/Ada").status_code == 404


def test_profile_pages_escape_names(site: Site) -> None:
    evil = '<img src=x onerror="alert(1)">'
    client = site.first
    site.sign_up(client, evil)
    game_id = site.game()
    client.post(f"/api/games/{game_id}/seats/0/join", json={}, headers=ORIGIN)
    guest = site.browser()
    guest.post(f"/api/games/{game_id}/seats/1/join", json={"name": "<script>alert(2)</script>"})
    page = site.browser().get("/players/%3Cimg%20src%3Dx%20onerror%3D%22alert(1)%22%3E")
    assert page.status_code == 200, page.text
    assert "<script>alert" not in page.text and "<img src=x" not in page.text
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page.text
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page.text
    assert f'data-game="{game_id}"' in page.text
    assert 'id="ratings"' in page.text  # the place the ratings concern fills
    public = site.browser().get("/api/players/%3Cimg%20src%3Dx%20onerror%3D%22alert(1)%22%3E")
    assert public.json()["name"] == evil  # JSON: the client escapes it (textContent)
    assert site.browser().get("/players/nobody").status_code == 404
    own = client.get("/profile")
    assert own.status_code == 200 and "profile.js" in own.text


def test_a_public_profile_shows_no_private_settings(site: Site) -> None:
    site.sign_up(site.first, "Ada", email="ada@example.org")
    public = site.browser().get("/api/players/ada").json()
    assert public["name"] == "Ada" and "email" not in json.dumps(public)
    assert "ada@example.org" not in site.browser().get("/players/ada").text


# -- secrets never in logs ---------------------------------------------------------------------
def test_passwords_and_session_tokens_never_reach_the_log(site: Site, caplog: Any) -> None:
    from palio.server.base import logs

    caplog.set_level(logging.DEBUG)
    client = site.first
    site.sign_up(client, "Ada")
    client.post("/api/session", json={"name": "Ada", "password": "a wrong guess"},
                headers=ORIGIN)
    token = session_cookie(client)
    assert token
    # what a debug log of a request or a WebSocket handshake would hold is redacted
    line = f'cookie: palio_session={token}; palio_lang=ja {{"password": "{PASSWORD}"}}'
    cleaned = logs.redact(line)
    assert token not in cleaned and PASSWORD not in cleaned and "palio_lang=ja" in cleaned
    text = caplog.text
    assert PASSWORD not in text and "a wrong guess" not in text and token not in text


def test_a_real_server_logs_no_password_or_session(make_server: Any) -> None:
    """A real ``palio serve`` at debug level: sign-up, sign-in, a signed-in WebSocket; the log
    holds neither the password nor the session token. Behind a trusted proxy that says
    HTTPS, the cookie is Secure."""
    import websockets.sync.client as ws_client

    server = make_server(log_level="debug")
    server.start()
    with httpx.Client(base_url=server.base, timeout=30) as client:
        origin = {"Origin": server.base}
        assert client.post("/api/accounts", json={"name": "Ada", "password": PASSWORD},
                           headers=origin).status_code == 201
        client.post("/api/session", json={"name": "Ada", "password": "a wrong guess"},
                    headers=origin)
        reply = client.post("/api/session", json={"name": "Ada", "password": PASSWORD},
                            headers=origin)
        assert "secure" not in reply.headers["set-cookie"].lower()
        token = reply.cookies["palio_session"]
        with httpx.Client(base_url=server.base, timeout=30) as proxied:
            https = proxied.post("/api/session", json={"name": "Ada", "password": PASSWORD},
                                 headers={"Origin": server.base.replace("http:", "https:"),
                                          "X-Forwarded-Proto": "https"})
            assert "secure" in https.headers["set-cookie"].lower()
        game_id = client.post("/api/games", json=GAME, headers=origin).json()["id"]
        assert client.post(f"/api/games/{game_id}/seats/0/join", json={},
                           headers=origin).status_code == 200
        with ws_client.connect(f"{server.ws_base}/ws/games/{game_id}",
                               additional_headers={"Cookie": f"palio_session={token}",
                                                   "Origin": server.base}) as ws:
            assert json.loads(ws.recv(timeout=10))["view"]["seat"] == 0
        with ws_client.connect(f"{server.ws_base}/ws/games/{game_id}",
                               additional_headers={"Cookie": f"palio_session={token}",
                                                   "Origin": "http://evil.example"}) as ws:
            refused = json.loads(ws.recv(timeout=10))
            assert refused["type"] == "error" and refused["error"]["code"] == "bad_origin"
    server.stop()
    log = server.log_path.read_text(errors="replace")
    assert "/api/session" in log  # the log is there, and at debug level
    assert PASSWORD not in log and "a wrong guess" not in log and token not in log


# -- the migration ---------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_the_migration_upgrades_a_0002_database(backend: str, tmp_path: Path) -> None:
    """A database at 0002 with a game and seats: after 0003 every seat is still there, held
    by no account, and the game plays on; accounts can then take seats."""
    url = database_url(backend, tmp_path)
    engine = make_engine(url)
    upgrade(engine, "0002")
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    with engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO games (id, game, version, players, options, seed, status, created_at,"
            " revision, move_number, updated_at) VALUES ('old1', 'san-gimignano', '1', 2,"
            " '{}', 7, 'open', :at, 0, 0, :at)"), {"at": moment})
        connection.execute(sa.text(
            "INSERT INTO seats (game_id, seat, kind, name, token_hash) VALUES"
            " ('old1', 0, 'human', 'Old', :digest), ('old1', 1, 'human', NULL, NULL)"),
            {"digest": "ab" * 32})
    upgrade(engine)
    inspector = sa.inspect(engine)
    assert "account_id" in {c["name"] for c in inspector.get_columns("seats")}
    assert {"accounts", "sessions", "sign_in_failures"} <= set(inspector.get_table_names())
    with engine.connect() as connection:
        rows = connection.execute(sa.text(
            "SELECT seat, name, token_hash, account_id FROM seats ORDER BY seat")).all()
    assert [tuple(r) for r in rows] == [(0, "Old", "ab" * 32, None), (1, None, None, None)]
    engine.dispose()
    clock = ManualClock(datetime(2026, 6, 1, tzinfo=UTC))
    app = create_app(Settings(db=url, bot_delay=0.0, games_per_minute=0), clock=clock)
    with TestClient(app) as client:
        client.post("/api/accounts", json={"name": "New", "password": PASSWORD},
                    headers=ORIGIN)
        joined = client.post("/api/games/old1/seats/1/join", json={}, headers=ORIGIN)
        assert joined.status_code == 200, joined.text
        seats = client.get("/api/games/old1").json()["seats"]
        assert [(s["name"], s["account"]) for s in seats] == [("Old", False), ("New", True)]


def test_undo_by_cookie_is_the_accounts_alone(site: Site) -> None:
    ada = site.first
    site.sign_up(ada, "Ada")
    game_id = ada.post("/api/games", json={**GAME, "seed": 11}, headers=ORIGIN).json()["id"]
    ada.post(f"/api/games/{game_id}/seats/0/join", json={}, headers=ORIGIN)
    guest = site.browser()
    bo = guest.post(f"/api/games/{game_id}/seats/1/join", json={"name": "Bo"}).json()["token"]
    played = ada.post(f"/api/games/{game_id}/actions", json={"action": "buy", "move_number": 0},
                      headers=ORIGIN)
    assert played.status_code == 200, played.text
    assert played.json()["can_undo"] is True
    eve = site.browser()
    site.sign_up(eve, "Eve")
    undo = f"/api/games/{game_id}/undo"
    assert eve.post(undo, json={"move_number": 1}, headers=ORIGIN).status_code == 401
    assert guest.post(undo, json={"move_number": 1},
                      headers={"Authorization": f"Bearer {bo}"}).status_code == 409
    assert site.browser().post(undo, json={"move_number": 1}).status_code == 401
    assert ada.post(undo, json={"move_number": 1}).status_code == 403  # no Origin: CSRF
    back = ada.post(undo, json={"move_number": 1}, headers=ORIGIN)
    assert back.status_code == 200 and back.json()["move_number"] == 0


def test_guessing_the_current_password_is_limited_too(site: Site) -> None:
    """A stolen session cannot be used to guess the password through PATCH /api/me."""
    client = site.first
    site.sign_up(client, "Ada")
    for n in range(5):
        reply = client.patch("/api/me", json={"password": "new password",
                                              "current_password": f"guess {n}"}, headers=ORIGIN)
        assert reply.status_code == 403
    limited = client.patch("/api/me", json={"password": "new password",
                                            "current_password": PASSWORD}, headers=ORIGIN)
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) == 900
    assert site.browser().post("/api/session", json={"name": "Ada", "password": PASSWORD},
                               headers=ORIGIN).status_code == 429  # the same count
    site.clock.advance(901)
    assert client.patch("/api/me", json={"password": "new password",
                                         "current_password": PASSWORD},
                        headers=ORIGIN).status_code == 200


# -- names that look like another (UTS #39 skeletons, base/names.py) --------------------------
def test_a_name_that_looks_like_an_accounts_is_refused(site: Site) -> None:
    client = site.first
    site.sign_up(client, "Ada")
    site.sign_up(site.browser(), "Aná")  # precomposed á
    for look_alike in ("\u0410da",  # Cyrillic А
                       "\u03b1da",  # Greek α
                       "Ad\u0251",  # Latin alpha
                       "\u0410na\u0301",  # Cyrillic А and a combining acute accent
                       "Ad\u0430"):  # Cyrillic а
        reply = site.browser().post("/api/accounts", json={"name": look_alike,
                                                           "password": PASSWORD},
                                    headers=ORIGIN)
        assert reply.status_code == 409, (look_alike, reply.text)
        assert reply.json()["error"]["code"] == "name_taken"
    site.sign_up(site.browser(), "Adam")  # a different name is fine
    # a guest may not take a name that passes for an account's or another seat's either
    game_id = site.game()
    guest = site.browser()
    for name in ("\u0410da", "\u0410dam"):
        refused = guest.post(f"/api/games/{game_id}/seats/0/join", json={"name": name})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_looks_like"
    assert guest.post(f"/api/games/{game_id}/seats/0/join",
                      json={"name": "Bob"}).status_code == 200
    refused = site.browser().post(f"/api/games/{game_id}/seats/1/join",
                                  json={"name": "B\u043eb"})  # Cyrillic о
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_looks_like"
    seats = site.first.get(f"/api/games/{game_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Bob", None]  # nothing else changed


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_the_database_keeps_skeletons_unique_across_processes(backend: str,
                                                              tmp_path: Path) -> None:
    """Two processes checking at once: the unique index on the skeleton refuses the second
    look-alike; and 0010 gives old accounts theirs (of old look-alikes the oldest keeps it)."""
    url = database_url(backend, tmp_path)
    engine = make_engine(url)
    upgrade(engine, "0009")
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    with engine.begin() as connection:
        for name in ("Ada", "\u0410da", "Bob"):
            connection.execute(sa.text(
                "INSERT INTO accounts (name, name_key, password_hash, lang, mail_turns,"
                " disabled, created_at) VALUES (:name, :key, 'x', 'en', true, false, :at)"),
                {"name": name, "key": name.casefold(), "at": moment})
    upgrade(engine)
    with engine.connect() as connection:
        rows = connection.execute(sa.text(
            "SELECT name, name_skeleton FROM accounts ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [("Ada", "ada"), ("\u0410da", None), ("Bob", "bob")]
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO accounts (name, name_key, name_skeleton, password_hash, lang,"
            " mail_turns, disabled, created_at) VALUES ('\u0392ob', '\u03b2ob', 'bob', 'x',"
            " 'en', true, false, :at)"), {"at": moment})
    engine.dispose()
