"""XSS attempts in names, in a real headless Chromium (Debian's) against a real server: an
account and a guest whose names are markup sit at a table, one leaves (the log names them),
and every page that shows a name (the lobby, the table, the player's page, the profile) shows
it as text: no element is injected and no script runs."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from tests.server.conftest import BROWSER_MARKS, WAIT_MS

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

PASSWORD = "correct horse battery"
ACCOUNT = "<img src=x onerror=__x=1>Ada"  # no '/': account names refuse it
GUEST = '"><svg onload=__x=2></script><script>__x=3</script>'


def ready(page: Any, path: str, base: str) -> None:
    page.goto(base + path)
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)


def test_names_that_are_markup_stay_text_on_every_page(web: Any, browser: Any) -> None:
    context = browser.new_context(locale="en-US")
    origin = {"Origin": web.base}
    signed = context.request.post(f"{web.base}/api/accounts", headers=origin,
                                  data={"name": ACCOUNT, "password": PASSWORD})
    assert signed.status == 201, signed.text()
    game_id = web.create(game="san-gimignano", players=2, timing={"kind": "turn",
                                                                   "per_move_s": 86400})["id"]
    joined = context.request.post(f"{web.base}/api/games/{game_id}/seats/0/join",
                                  headers=origin, data={})
    assert joined.status == 200, joined.text()
    web.join(game_id, 1, GUEST)
    other = web.create(game="san-gimignano", players=2)["id"]
    web.join(other, 0, GUEST)  # an open table: the lobby lists it with the guest's name
    left = context.request.post(f"{web.base}/api/games/{game_id}/seats/0/leave",
                                headers=origin)
    assert left.status == 200, left.text()  # the log now says the account left
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: errors.append(f"dialog {dialog.message}"))
    for path, shown in [("/", GUEST), (f"/games/{game_id}", ACCOUNT),
                        (f"/players/{quote(ACCOUNT, safe='')}", ACCOUNT), ("/profile", ACCOUNT)]:
        if path.startswith("/games/"):
            page.goto(web.base + path)
            page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
        else:
            ready(page, path, web.base)
        page.wait_for_function("names => names.some(n => document.body.innerText.includes(n))",
                               arg=[shown], timeout=WAIT_MS)  # the name is on the page...
        injected = page.evaluate("""() => ({
            ran: typeof window.__x !== 'undefined',
            elements: document.querySelectorAll('img[onerror], svg[onload], main script').length
        })""")
        assert injected == {"ran": False, "elements": 0}, (path, injected)  # ...as text
    table_text = page.evaluate("() => document.body.innerText")
    assert ACCOUNT in table_text  # the profile lists the table by its seats' names
    page.goto(f"{web.base}/games/{game_id}")
    page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
    assert GUEST in page.evaluate("() => document.body.innerText")
    assert page.evaluate("() => typeof window.__x") == "undefined"
    assert errors == []
    context.close()
