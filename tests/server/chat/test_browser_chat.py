"""The table chat in a real Chromium: two players' pages see each other's messages as plain
text (an HTML attempt stays text), muting hides a writer in this browser and lasts a reload,
and a spectator of a table without spectator chat gets no chat panel."""

from __future__ import annotations

from typing import Any

import pytest

from palio.server.ratings import ratings
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server
from tests.server.play.test_browser import Person

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

XSS = '<img src=x onerror="document.body.dataset.pwned=1">'


def open_seat(person: Person, game_id: str, token: str) -> None:
    person.open(f"/games/{game_id}#token={token}")
    person.page.wait_for_selector("#chat:not([hidden]) #chat-form:not([hidden])", timeout=WAIT_MS)


def write(person: Person, text: str) -> None:
    person.page.fill("#chat-input", text)
    person.page.click("#chat-send")


def test_two_pages_see_a_message_as_text_and_a_mute_lasts(web: Server, browser: Any) -> None:
    created = web.create(game="san-gimignano", players=2, seed=4,
                         seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    ada_token, bo_token = web.join(game_id, 0, "Ada"), web.join(game_id, 1, "Bo")
    ada, bo = Person(browser, web), Person(browser, web)
    watcher = Person(browser, web)
    open_seat(ada, game_id, ada_token)
    open_seat(bo, game_id, bo_token)
    watcher.open(f"/games/{game_id}")
    watcher.wait_view()

    write(ada, XSS)
    line = bo.page.locator("#chat-list li[data-n='1']")
    line.wait_for(timeout=WAIT_MS)  # pushed over Bo's WebSocket
    assert line.locator(".chat-text").text_content() == XSS
    assert line.locator(".chat-name").text_content() == "Ada"
    assert bo.page.locator("#chat-list img").count() == 0
    assert bo.page.get_attribute("body", "data-pwned") is None
    ada.page.locator("#chat-list li[data-n='1']").wait_for(timeout=WAIT_MS)
    assert ada.page.locator("#chat-list li[data-n='1'] .chat-mute").count() == 0  # not oneself

    write(bo, "hello Ada")
    ada.page.locator("#chat-list li[data-n='2']").wait_for(timeout=WAIT_MS)
    assert ada.page.locator("#chat-list li[data-n='2'] .chat-text").text_content() == "hello Ada"

    # Bo mutes Ada: her messages are hidden on Bo's page, also after a reload
    bo.page.click("#chat-list li[data-n='1'] .chat-mute")
    assert bo.page.locator("#chat-list li[data-n='1']").is_hidden()
    write(ada, "are you there?")
    bo.page.locator("#chat-list li[data-n='3']").wait_for(state="attached", timeout=WAIT_MS)
    assert bo.page.locator("#chat-list li[data-n='3']").is_hidden()
    assert bo.page.is_visible("#chat-muted")
    bo.page.reload()
    bo.page.locator("#chat-list li[data-n='3']").wait_for(state="attached", timeout=WAIT_MS)
    assert bo.page.locator("#chat-list li[data-n='1']").is_hidden()
    assert bo.page.locator("#chat-list li[data-n='2']").is_visible()
    # Ada's page never muted anyone
    ada.page.locator("#chat-list li[data-n='3']").wait_for(timeout=WAIT_MS)

    # the spectator of a table without spectator chat sees no panel and got no message
    assert watcher.page.is_hidden("#chat")
    assert watcher.page.locator("#chat-list li").count() == 0
    for person in (ada, bo, watcher):
        person.close()


def test_the_lobby_links_the_leaderboard_and_it_names_the_bots(web: Server, browser: Any) -> None:
    person = Person(browser, web)
    person.open("/")
    person.page.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)
    assert person.page.is_visible("#spectator-chat")
    link = person.page.locator("#ratings-link")
    assert "/ratings/" in (link.get_attribute("href") or "")
    link.click()
    person.page.wait_for_selector("#ratings", timeout=WAIT_MS)
    expert = next(b for b in ratings.bots_for("san-gimignano") if b["level"] == "expert")
    line = person.page.locator("#bot-ratings li[data-level='expert']")
    assert line.count() == 1 and str(expert["rating"]) in (line.text_content() or "")
    person.close()


def test_a_spectator_writes_where_the_table_allows(web: Server, browser: Any) -> None:
    person = Person(browser, web)
    person.open("/")
    person.page.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)
    person.page.check("#spectator-chat")
    person.page.click("#create-submit")
    person.page.wait_for_selector("#created:not([hidden])", timeout=WAIT_MS)
    game_id = web.http.get("/api/games").json()[0]["id"]
    assert web.http.get(f"/api/games/{game_id}").json()["spectator_chat"] is True
    watcher = Person(browser, web)
    watcher.open(f"/games/{game_id}")
    watcher.page.wait_for_selector("#chat:not([hidden]) #chat-form:not([hidden])", timeout=WAIT_MS)
    write(watcher, "hello from the rail")
    watcher.page.locator("#chat-list li[data-n='1']").wait_for(timeout=WAIT_MS)
    assert watcher.page.locator("#chat-list li[data-n='1'] .chat-text").text_content() == (
        "hello from the rail")
    for one in (person, watcher):
        one.close()


def test_ratings_show_beside_names_after_a_rated_game(web: Server, browser: Any) -> None:
    """Two accounts (signed up through their browsers' own cookie jars) finish a rated table;
    the seat bar and the lobby show each one's rating and how the game moved it."""
    origin = {"Origin": web.base}
    people = [Person(browser, web), Person(browser, web)]
    for person, name in zip(people, ("Ria", "Sol"), strict=True):
        reply = person.context.request.post(f"{web.base}/api/accounts", headers=origin,
                                            data={"name": name, "password": "correct horse 42"})
        assert reply.status == 201, reply.text()
    created = people[0].context.request.post(f"{web.base}/api/games", headers=origin, data={
        "game": "san-gimignano", "players": 2, "seed": 9, "rated": True})
    game_id = created.json()["id"]
    for seat, person in enumerate(people):
        joined = person.context.request.post(
            f"{web.base}/api/games/{game_id}/seats/{seat}/join", headers=origin, data={})
        assert joined.status == 200, joined.text()
    said = people[1].context.request.post(f"{web.base}/api/games/{game_id}/chat", headers=origin,
                                          data={"text": "good game"})
    assert said.status == 201, said.text()
    for _ in range(1000):
        views = [p.context.request.get(f"{web.base}/api/games/{game_id}/view").json()
                 for p in people]
        if views[0]["status"] == "finished":
            break
        mover = next(v for v in views if v["legal"])
        reply = people[mover["seat"]].context.request.post(
            f"{web.base}/api/games/{game_id}/actions", headers=origin,
            data={"action": mover["legal"][0]["notation"], "move_number": mover["move_number"]})
        assert reply.status == 200, reply.text()
    winner = views[0]["ranking"][0]
    page = people[0].page
    page.goto(f"{web.base}/games/{game_id}")
    chip = page.locator(f"#seats .seat-chip[data-seat='{winner}'] .rating")
    chip.wait_for(timeout=WAIT_MS)
    assert "(+" in (chip.text_content() or "")
    loser = page.locator(f"#seats .seat-chip[data-seat='{1 - winner}'] .rating")
    assert "(-" in (loser.text_content() or "")
    page.goto(f"{web.base}/")
    line = page.locator(f".game-row[data-game='{game_id}'] .seat-ratings")
    line.wait_for(timeout=WAIT_MS)
    assert "Ria" in (line.text_content() or "") and "Sol" in (line.text_content() or "")
    # the replay shows the table's chat to its players (signed in here), not to a stranger
    page.goto(f"{web.base}/games/{game_id}/replay")
    said_line = page.locator("#chat-list li[data-n='1'] .chat-text")
    said_line.wait_for(timeout=WAIT_MS)
    assert said_line.text_content() == "good game"
    stranger = Person(browser, web)
    stranger.open(f"/games/{game_id}/replay")
    stranger.page.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)
    stranger.page.wait_for_load_state("networkidle")
    assert stranger.page.is_hidden("#chat") and stranger.page.locator("#chat-list li").count() == 0
    for person in (*people, stranger):
        person.close()
