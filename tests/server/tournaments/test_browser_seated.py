"""A Swiss round reaches the open tournament page with no reload, in a real Chromium against a
real ``palio serve`` (SQLite): four accounts enter a Swiss of two-seat San Gimignano tables;
Anna has its page open on a desktop in English, Bruno on a phone in Japanese. The test moves
the server's clock (``PALIO_CLOCK_FILE``) to the start; the deadline sweep pairs round 1 and
``/ws/me`` tells each page (account.js ``hearSeated``): the header shows a "New table" link to
the reader's table, the page draws the round's tables and the standings again, and the link
opens the table at the reader's own seat. Screenshots go to ``out/screenshots/``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import BROWSER_MARKS, WAIT_MS
from tests.server.people import Person, wait_for
from tests.server.tournaments.players import JAPANESE, SHOTS, Player, no_sideways_scroll, served

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")


def heard_on(player: Player) -> list[str]:
    """The frames the page's ``/ws/me`` receives, from now on (listening before it opens)."""
    frames: list[str] = []

    def socket(ws: Any) -> None:
        if ws.url.endswith("/ws/me"):
            ws.on("framereceived", lambda payload: frames.append(str(payload)))

    player.page.on("websocket", socket)
    return frames


# WCAG's contrast ratio of an element's text on its own (opaque) background
CONTRAST = """(e) => {
  const light = (c) => c.match(/[\\d.]+/g).slice(0, 3).map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + [0.2126, 0.7152, 0.0722][i] * v, 0);
  const style = getComputedStyle(e);
  const [a, b] = [light(style.color), light(style.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_a_swiss_round_reaches_the_open_tournament_page(browser: Any, make_server: Any,
                                                        tmp_path: Path) -> None:
    server, clock = served(make_server, tmp_path)
    anna = Player(browser, server.base, "Anna", "en")  # a desktop in English
    bruno = Player(browser, server.base, "Bruno", "ja")  # a phone in Japanese
    others = [Person(browser, server.base, name, "en") for name in ("Carla", "Dario")]
    everyone = [anna, bruno, *others]
    made = anna.post("/api/tournaments", {
        "name": "Seated Swiss", "game": "san-gimignano", "players": 2, "rounds": 2,
        "bots": False, "starts_at": (clock.now() + timedelta(hours=1)).isoformat()})
    assert made.status == 201, made.text()
    tid = made.json()["id"]
    for person in everyone:
        entered = person.post(f"/api/tournaments/{tid}/register", {})
        assert entered.ok, entered.text()

    readers = (anna, bruno)
    heard = {reader.name: heard_on(reader) for reader in readers}
    for reader in readers:
        reader.open(f"/tournaments/{tid}")
        reader.page.wait_for_selector("#tournament-action[data-action=withdraw]",
                                      timeout=WAIT_MS)
        assert reader.page.locator("ul.round").count() == 0  # no round yet
        assert reader.page.locator("#seated").count() == 0
        reader.page.evaluate("window.sameDocument = true")  # gone if the page reloads
    # both pages hold /ws/me (its hello came) before the clock moves
    # (a call into the page lets Playwright hand over the frames that came meanwhile)
    wait_for(lambda: all(reader.page.evaluate("true") and any('"hello"' in f for f in
                                                              heard[reader.name])
                         for reader in readers), "the pages' /ws/me hello", WAIT_MS / 1000)

    clock.advance(3600 + 60)  # the start: the server's sweep pairs round 1
    detail = wait_for(lambda: (d := anna.get(f"/api/tournaments/{tid}")) and d["rounds"] and d,
                      "round 1", WAIT_MS / 1000)
    tables = detail["rounds"][0]["tables"]
    assert sorted(n for t in tables for n in t["seats"]) == sorted(p.name for p in everyone)
    for reader in readers:
        page = reader.page
        (table,) = [t for t in tables if reader.name in t["seats"]]
        game_id = table["game_id"]
        link = page.wait_for_selector("header.top a#seated", timeout=WAIT_MS)
        assert link.get_attribute("href") == f"/games/{game_id}"
        assert link.get_attribute("data-game") == game_id
        words = link.inner_text()
        assert (words == "New table") if reader.lang == "en" else bool(JAPANESE.search(words))
        assert link.evaluate(CONTRAST) >= 4.5, "the link's words are hard to read"
        # the page drew the round again: each table of it, a link to its game, no reload
        page.wait_for_function(f"document.querySelectorAll('ul.round li a').length === "
                               f"{len(tables)}", timeout=WAIT_MS)
        hrefs = sorted(a.split("?")[0] for a in page.eval_on_selector_all(
            "ul.round li a", "links => links.map((a) => a.getAttribute('href'))"))
        assert hrefs == sorted(f"/games/{t['game_id']}" for t in tables)
        assert page.evaluate("window.sameDocument") is True
        # the standings too: everyone is playing one table now (the last column)
        playing = page.eval_on_selector_all(
            "#standings tbody tr", "rows => rows.map((r) => r.lastElementChild.textContent)")
        assert playing == ["1"] * len(everyone)
        # the header's turn count was drawn again (1 if this seat moves first, else none)
        turns = len(reader.get("/api/turns")["games"])
        page.wait_for_selector(f"#turns[data-count='{turns}']", timeout=WAIT_MS)
        if reader.lang == "ja":
            no_sideways_scroll(reader)
        page.screenshot(path=str(SHOTS / f"tournament-seated-{reader.lang}.png"))

        page.click("a#seated")
        page.wait_for_url(f"**/games/{game_id}", timeout=WAIT_MS)
        page.wait_for_selector("body[data-viewer=seat]", timeout=WAIT_MS)
        seat = table["seats"].index(reader.name)
        assert reader.get(f"/api/games/{game_id}/view")["seat"] == seat
        mine = page.locator("#seats .seat-chip.me")
        assert mine.get_attribute("data-seat") == str(seat)
        assert reader.name in mine.inner_text()
    assert [reader.errors for reader in readers] == [[], []]
