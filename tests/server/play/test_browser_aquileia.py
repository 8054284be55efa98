"""Aquileia in a real headless Chromium against a real ``palio serve``: a person plays a whole
three-player game against two bots by clicking (the board's fields, cards, plots, coins and
tracks where a drawn element offers the choice, else the choice buttons), and the board fits a
390 px phone screen with a tooltip on every component.

Of the shared client it relies only on ``data-notation`` (the choice buttons), ``data-offers``
(clickable board elements), ids that exist today (``#actions``, ``#board``, ``#scores``) and
the page's state on ``body`` (``data-move``, ``data-your-turn``, ``data-status``), as the
client's look is being reworked elsewhere; the ``aq-`` classes are this game's renderer's own.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")



class Person:
    """One browser context and page, at a given screen size; script errors are collected.
    It finds its choices by ``data-notation`` (the buttons) and ``data-offers`` (the board)."""

    def __init__(self, browser: Any, server: Server, width: int = 1300, height: int = 900) -> None:
        self.server = server
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def open(self, path: str) -> None:
        self.page.goto(self.server.base + path)
        self.page.wait_for_selector("body[data-move]", timeout=WAIT_MS)

    def body(self, name: str) -> str | None:
        return self.page.get_attribute("body", f"data-{name}")

    def your_turn(self) -> bool:
        return self.body("your-turn") == "1" and self.body("busy") is None

    def finished(self) -> bool:
        return self.body("status") == "finished"

    def choices(self) -> list[str]:
        return [b.get_attribute("data-notation") for b in self.page.locator("#actions [data-notation]").all()]

    def click(self, notation: str, on_board: bool) -> None:
        """Play ``notation``: on the board where an element offers only it, else its button."""
        before = self.body("move")
        drawn = self.page.locator(f'#board [data-offers="{notation}"]')
        if on_board and drawn.count():
            drawn.first.click()
        else:
            self.page.locator(f'#actions [data-notation="{notation}"]').click()
        self.page.wait_for_function(f"document.body.dataset.move !== '{before}'", timeout=WAIT_MS)

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


def shown_scores(person: Person) -> list[str]:
    person.page.wait_for_selector("#scores", timeout=WAIT_MS)
    return [row.inner_text().split("\t")[-1].strip().removesuffix(".0")
            for row in person.page.locator("#scores tbody tr").all()]


def expected_scores(server: Server, game_id: str) -> list[str]:
    view = server.view(game_id)
    return [str(view["scores"][seat]).removesuffix(".0") for seat in view["ranking"]]


MAX_CLICKS = 400


def choose(notations: list[str], rng: random.Random) -> str:
    """Mostly something other than passing, so the person's game goes deep; sometimes a pass,
    so the auction and the placement end the usual way too."""
    others = [n for n in notations if n not in ("pass", "skip", "done")]
    if others and rng.random() < 0.85:
        return rng.choice(others)
    return rng.choice(notations)


def play_by_clicking(person: Person, rng: random.Random) -> tuple[int, int]:
    """Click the person's choices until the game ends: (clicks, clicks made on the board)."""
    clicks = on_board = 0
    deadline = time.monotonic() + 300
    page = person.page
    while not person.finished():
        assert time.monotonic() < deadline, "the game did not end in time"
        assert clicks < MAX_CLICKS, "the game did not end"
        if not person.your_turn():
            time.sleep(0.02)
            continue
        notation = choose(person.choices(), rng)
        drawn = page.locator(f'#board [data-offers="{notation}"]')
        board = drawn.count() > 0 and (clicks % 3 != 2 or not person.choices())
        person.click(notation, on_board=board)
        clicks += 1
        on_board += board
    return clicks, on_board


def test_a_person_plays_aquileia_to_the_end_against_two_bots(web: Server, browser: Any) -> None:
    created = web.create(game="aquileia", players=3, seed=17,
                         seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                {"kind": "bot", "level": "medium"}])
    token = web.join(created["id"], 0, "Ada")
    ada = Person(browser, web)
    ada.open(f"/games/{created['id']}?token={token}")
    page = ada.page
    page.wait_for_selector(".aq-board", timeout=WAIT_MS)
    assert page.locator(".aq-district").count() == 6
    assert page.locator(".aq-field").count() == 28
    assert page.locator(".aq-plot").count() == len(web.http.get("/api/catalog/aquileia/legend").json()["plots"])
    clicks, on_board = play_by_clicking(ada, random.Random(3))
    summary = web.wait_over(created["id"], timeout=30)
    assert 30 < clicks < summary["move_number"]  # the bots made the other moves
    assert on_board > 15  # fields, cards, plots and tracks took clicks, not only buttons
    assert shown_scores(ada) == expected_scores(web, created["id"])
    ada.close()


def test_the_board_fits_a_phone_and_every_component_has_a_tooltip(web: Server, browser: Any) -> None:
    created = web.create(game="aquileia", players=5, seed=4,
                         seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 4)
    token = web.join(created["id"], 0, "Ada")
    phone = Person(browser, web, width=390, height=844)
    phone.open(f"/games/{created['id']}?token={token}")
    page = phone.page
    page.wait_for_selector(".aq-board", timeout=WAIT_MS)
    rng = random.Random(8)
    for _ in range(12):  # into the round, so cards, strengths and auctions may be on the board
        page.wait_for_selector("body[data-your-turn='1']:not([data-busy])", timeout=WAIT_MS)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways on a phone: {width} px"
        untitled = page.evaluate("""() => [...document.querySelectorAll(
            '.aq-field, .aq-card, .aq-plot, .aq-coin, .aq-die, .aq-tb-space, .aq-district')]
            .filter((node) => !node.title && !node.closest('[title]')).length""")
        assert untitled == 0
        phone.click(choose(phone.choices(), rng), on_board=False)
    phone.close()


def test_a_spectator_sees_no_hidden_card(web: Server, browser: Any) -> None:
    created = web.create(game="aquileia", players=3, seed=23,
                         seats=[{"kind": "bot", "level": "easy"}] * 3)
    web.wait_over(created["id"], timeout=60)
    running = web.create(game="aquileia", players=3, seed=23,
                         seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    tokens = [web.join(running["id"], seat, name) for seat, name in enumerate(("Ada", "Bo", "Cy"))]
    rng = random.Random(1)
    for _ in range(60):  # through the API, to a position with cards in hand
        views = [web.view(running["id"], t) for t in tokens]
        mover = next(v for v in views if v["legal"])
        choice = choose([a["notation"] for a in mover["legal"]], rng)
        reply = web.http.post(f"/api/games/{running['id']}/actions",
                              headers={"Authorization": f"Bearer {tokens[mover['seat']]}"},
                              json={"action": choice, "move_number": mover["move_number"]})
        assert reply.status_code == 200, reply.text
    watcher = Person(browser, web)
    watcher.open(f"/games/{running['id']}")
    spectator = web.view(running["id"])["observation"]["players"]
    for seat, player in enumerate(spectator):
        hand = watcher.page.locator(f"[data-player='{seat}'] [data-hand-size]")
        faces = sorted(c.get_attribute("data-card") for c in hand.locator(".aq-card:not(.back)").all())
        assert faces == sorted(player["cards"])  # only the cards everyone has seen
    seat_views: list[dict[str, Any]] = [web.view(running["id"], t)["observation"] for t in tokens]
    assert any(sum(v["players"][k]["hidden"].values()) for v in seat_views for k in range(3))
    watcher.close()
