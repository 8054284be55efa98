"""Troyes in a real headless Chromium against a real ``palio serve``: a person plays a whole
game against a bot by clicking (board elements where one stands for the choice, the choice
buttons otherwise), the board shows what a player of the physical game expects, every drawn
component carries a tooltip, and the page fits a phone's width."""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.server.test_browser import (
    ARGS,
    CHROMIUM,
    WAIT_MS,
    Person,
    expected_scores,
    finished,
    normal,
    playwright_api,
    shown_scores,
    your_turn,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"{CHROMIUM} is not installed"),
]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-troyes")
    server = Server(f"sqlite:///{tmp / 'palio.db'}", 0.0, tmp / "server.log")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()

MAX_CLICKS = 1500


def choose(notations: list[str], rng: random.Random) -> str:
    """Seeded: avoid passing while anything else is possible, and rarely spend influence."""
    busy = [n for n in notations if n != "pass"]
    calm = [n for n in busy if not n.startswith(("reroll", "flip", "recruit"))]
    if calm and rng.random() < 0.9:
        return rng.choice(calm)
    return rng.choice(busy or notations)


def test_a_person_plays_a_whole_troyes_game_against_a_bot_by_clicking(web: Server, browser: Any) -> None:
    created = web.create(game="troyes", players=2, seed=4,
                         seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    game_id = created["id"]
    token = web.join(game_id, 0, "Ada")
    ada = Person(browser, web)
    ada.open(f"/games/{game_id}?token={token}")
    ada.wait_view()
    page = ada.page
    # the table as a player knows it
    page.wait_for_selector("#buildings .ty-building", timeout=WAIT_MS)
    assert page.locator("#buildings .ty-building").count() == 3
    assert page.locator("#activity-cards .ty-card").count() == 9
    assert page.locator("#cathedral .ty-cath").count() == 18
    assert page.locator("#square .ty-district").count() == 3  # two players and the neutral one
    assert page.locator("#events .ty-event").count() >= 1
    # the initial placement is done by clicking the building spaces themselves
    page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
    assert page.locator("#buildings [data-space].clickable").count() > 0
    rng = random.Random(3)
    clicks = on_board = 0
    deadline = time.monotonic() + 400
    while not finished(ada):
        assert time.monotonic() < deadline, "the game did not end in time"
        assert clicks < MAX_CLICKS, "the game did not end"
        if not your_turn(ada):
            time.sleep(0.02)
            continue
        choices = ada.choices()
        if not choices:
            time.sleep(0.02)
            continue
        notation = choose(choices, rng)
        if page.locator(f'#board [data-offers="{notation}"]').count():
            on_board += 1
        ada.click(notation)
        clicks += 1
    summary = web.wait_over(game_id, timeout=30)
    assert 0 < clicks < summary["move_number"]  # the bot made the other decisions
    assert on_board > clicks // 4  # most kinds of decision were made on the board itself
    assert normal(shown_scores(ada)) == expected_scores(web, game_id)
    ada.close()


def test_troyes_components_carry_tooltips_and_clicks_map_to_choices(web: Server, browser: Any) -> None:
    created = web.create(game="troyes", players=3, seed=8,
                         seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [web.join(game_id, seat, name) for seat, name in enumerate(["Ada", "Bo", "Cy"])]
    # play the draft through the API so the board holds dice, cards and events
    rng = random.Random(2)
    for _ in range(40):
        views = [web.view(game_id, t) for t in tokens]
        mover = next(v for v in views if v["legal"])
        if mover["observation"]["phase"] == "actions":
            break
        choice = rng.choice([a["notation"] for a in mover["legal"]])
        response = web.http.post(f"/api/games/{game_id}/actions",
                                 headers={"Authorization": f"Bearer {tokens[mover['seat']]}"},
                                 json={"action": choice, "move_number": mover["move_number"]})
        assert response.status_code == 200, response.text
    mover = next(v for v in (web.view(game_id, t) for t in tokens) if v["legal"])
    person = Person(browser, web)
    person.open(f"/games/{game_id}?token={tokens[mover['seat']]}")
    person.wait_view()
    page = person.page
    page.wait_for_selector("#buildings .ty-building", timeout=WAIT_MS)
    # every drawn component says what it is
    for selector in (".ty-building", ".ty-event", ".ty-card", ".ty-cath", ".ty-district", ".ty-die",
                     ".ty-char", "#cathedral"):
        for node in page.locator(selector).all():
            assert node.get_attribute("title"), selector
    # each clickable element offers only legal choices of this seat
    legal = {a["notation"] for a in web.view(game_id, tokens[mover["seat"]])["legal"]}
    offered = [n.get_attribute("data-offers") for n in page.locator("#board .clickable").all()]
    assert offered, "nothing on the board is clickable on the mover's turn"
    for offers in offered:
        assert set(offers.split("|")) <= legal
    person.close()


def test_troyes_fits_a_phone_screen(web: Server, browser: Any) -> None:
    created = web.create(game="troyes", players=4, seed=6,
                         seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3)
    token = web.join(created["id"], 0, "Ada")
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{web.base}/games/{created['id']}?token={token}")
    page.wait_for_selector("#buildings .ty-building", timeout=WAIT_MS)
    page.wait_for_timeout(300)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    assert not errors, errors
    context.close()
