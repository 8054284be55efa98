"""Accounts in a real headless Chromium (Debian's) against a real server: a guest joins a
seat, signs up in the header (the seat becomes the account's), sees the name in the header,
and a second browser that only signs in opens the table as that seat; XSS-looking names stay
text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import BROWSER_MARKS, WAIT_MS

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

PASSWORD = "correct horse battery"
NAME = "<img src=x onerror=alert(1)>Ada"


def ready(page: Any, path: str, base: str) -> None:
    page.goto(base + path)
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)


def test_sign_up_in_the_header_keeps_the_seat_and_signs_in_elsewhere(web: Any, browser: Any) -> None:
    game_id = web.create(game="san-gimignano", players=2)["id"]
    laptop = browser.new_context(locale="en-US")
    errors: list[str] = []
    page = laptop.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    ready(page, f"/?invite={game_id}", web.base)
    page.click("#invited button[data-join='0']")
    page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
    ready(page, "/", web.base)
    page.click("#sign-up")
    page.fill("#account-name", NAME)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-name-link", timeout=WAIT_MS)
    header = page.inner_text("header.top")
    assert f"Signed in as {NAME}" in header  # shown as text, not markup
    assert page.locator("header.top img").count() == 0
    assert page.get_attribute("body", "data-account") == NAME
    page.wait_for_selector(f"[data-account-game='{game_id}']", timeout=WAIT_MS)
    seats = web.http.get(f"/api/games/{game_id}").json()["seats"]
    assert seats[0]["name"] == NAME and seats[0]["account"] is True

    phone = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    other = phone.new_page()
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    ready(other, "/", web.base)
    other.click("#sign-in")
    other.fill("#account-name", NAME.upper())  # any case
    other.fill("#account-password", PASSWORD)
    other.click("#account-submit")
    other.wait_for_selector("#account-name-link", timeout=WAIT_MS)
    other.goto(f"{web.base}/games/{game_id}")  # no token in the address: the cookie opens it
    other.wait_for_selector("body[data-move]", timeout=WAIT_MS)
    other.wait_for_function("document.body.dataset.connection === 'live'", timeout=WAIT_MS)
    ready(other, "/profile", web.base)
    assert other.input_value("#settings-email") == ""
    other.fill("#settings-email", "ada@example.org")
    other.click("#settings-save")
    other.wait_for_selector("#message.info", timeout=WAIT_MS)
    other.click("#sign-out")
    other.wait_for_selector("#sign-in", timeout=WAIT_MS)
    assert errors == []
    laptop.close()
    phone.close()
