"""The table chat in a real Chromium: two players' pages see each other's messages as plain
text (an HTML attempt stays text), muting hides a writer in this browser and lasts a reload,
and a spectator of a table without spectator chat gets no chat panel."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server
from tests.server.test_browser import Person

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
