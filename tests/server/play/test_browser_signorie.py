"""Signorie in a real headless Chromium against a real ``palio serve``: a person plays a whole
game against bots by clicking (on the board where a drawn element offers the choice, else its
button), the board shows every part of the table with a tooltip on each component, and a
phone-width page has no sideways scroll.

Only ``data-notation``, ``data-offers`` and the page ids of today are relied on (the client's
look and words are being reworked); the Signorie renderer's own ids (``sg-*``) are its own.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")



def open_seat(browser: Any, server: Server, path: str, width: int = 1300) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.base + path)
    page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
    return context, page, errors


def new_game(server: Server, players: int, seed: int) -> tuple[str, str]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    created = server.create(game="signorie", players=players, seed=seed, seats=seats)
    return created["id"], server.join(created["id"], 0, "Ada")


def choose(notations: list[str], rng: random.Random) -> str:
    """Mostly something other than passing or stopping, so the game goes deep."""
    busy = [n for n in notations if n not in ("pass", "done")]
    return rng.choice(busy) if busy and rng.random() < 0.9 else rng.choice(notations)


def test_a_person_plays_a_whole_game_against_bots_by_clicking(web: Server, browser: Any) -> None:
    game_id, token = new_game(web, 3, seed=8)
    context, page, errors = open_seat(browser, web, f"/games/{game_id}?token={token}")
    rng = random.Random(3)
    clicks = on_board = 0
    deadline = time.monotonic() + 400
    while page.get_attribute("body", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.get_attribute("body", "data-your-turn") != "1" or page.get_attribute("body", "data-busy"):
            time.sleep(0.02)
            continue
        notations = [b.get_attribute("data-notation") for b in page.locator("#actions button.action").all()]
        if not notations:
            time.sleep(0.02)
            continue
        notation = choose(notations, rng)
        before = page.get_attribute("body", "data-move")
        drawn = page.locator(f'#board [data-offers="{notation}"]')
        if drawn.count():
            drawn.first.click()
            on_board += 1
        else:
            page.locator(f'#actions button[data-notation="{notation}"]').click()
        page.wait_for_function(f"document.body.dataset.move !== '{before}'", timeout=WAIT_MS)
        clicks += 1
    summary = web.wait_over(game_id, timeout=10)
    assert 40 < clicks < summary["move_number"]  # the bots made the other moves
    assert on_board > 10  # dice, helpers, tiles, tracks and cities took clicks themselves
    view = web.view(game_id)
    page.wait_for_selector("#scores", timeout=WAIT_MS)
    shown = [row.inner_text().split("\t")[-1].strip() for row in page.locator("#scores tbody tr").all()]
    assert shown == [str(view["scores"][seat]).removesuffix(".0") for seat in view["ranking"]]
    # the finished game's replay draws the same table, step by step
    page.goto(f"{web.base}/games/{game_id}/replay")
    page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    page.click("#last")
    page.wait_for_selector(".sg-player", timeout=WAIT_MS)
    assert page.locator(".sg-player").count() == 3
    assert not errors, errors
    context.close()


def test_the_board_shows_the_table_with_a_tooltip_on_every_component(web: Server, browser: Any) -> None:
    game_id, token = new_game(web, 4, seed=5)
    context, page, errors = open_seat(browser, web, f"/games/{game_id}?token={token}")
    page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
    assert page.locator("#sg-dice .sg-area").count() == 5
    on_boards = page.locator(".sg-player .sg-die-slot .sg-die").count()  # bots may move first
    assert page.locator("#sg-dice .sg-die").count() + on_boards == 20  # four dice of each colour
    assert page.locator("#sg-dice .sg-assign").count() == 10
    assert page.locator("#sg-rewards .sg-reward").count() == 7
    assert page.locator("#sg-map .sg-city").count() == 5
    assert page.locator("#sg-tracks .sg-track").count() == 4  # three careers and initiative
    assert page.locator(".sg-player").count() == 4
    assert page.locator(".sg-player .sg-col").count() == 20
    untitled = page.evaluate("""() => [...document.querySelectorAll(
        '.sg-die, .sg-assign, .sg-reward, .sg-city, .sg-cslot, .sg-shield, .sg-tslot, .sg-helper, '
        + '.sg-col-head, .sg-bride, .sg-row-name')].filter((n) => !n.title).length""")
    assert untitled == 0
    # the dice offered on the board are the legal dice
    offered = sorted({n.get_attribute("data-offers") for n in page.locator("#sg-dice .sg-die.clickable").all()})
    legal = sorted(n for n in (b.get_attribute("data-notation") for b in page.locator("#actions button.action").all())
                   if n.startswith("die "))
    assert offered == legal
    page.locator("#sg-dice .sg-die.clickable").first.click()
    page.wait_for_function("document.body.dataset.move !== '0'", timeout=WAIT_MS)
    assert not errors, errors
    context.close()


def test_japanese_tooltips_come_from_the_glossary(web: Server, browser: Any) -> None:
    game_id, token = new_game(web, 2, seed=6)
    context = browser.new_context(viewport={"width": 1300, "height": 900}, locale="ja-JP",
                                  extra_http_headers={"Accept-Language": "ja"})
    page = context.new_page()
    page.goto(f"{web.base}/games/{game_id}?token={token}")
    page.wait_for_selector("#sg-map .sg-city", timeout=WAIT_MS)
    titles = page.evaluate("() => [...document.querySelectorAll('#sg-map .sg-city')].map((n) => n.title)")
    assert any("ミラノ" in t for t in titles) or any("ナポリ" in t or "ローマ" in t for t in titles)
    context.close()


def test_phone_width_has_no_sideways_scroll(web: Server, browser: Any) -> None:
    game_id, token = new_game(web, 4, seed=7)
    context, page, errors = open_seat(browser, web, f"/games/{game_id}?token={token}", width=390)
    page.wait_for_selector(".sg-player", timeout=WAIT_MS)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert not errors, errors
    context.close()


def test_the_renderer_is_registered_and_served(web: Server) -> None:
    static = Path(__file__).parents[3] / "src" / "palio" / "server" / "static" / "render"
    assert "renderSignorie" in (static / "index.js").read_text(encoding="utf-8")
    assert web.http.get("/static/render/signorie.js").status_code == 200
    legend = web.http.get("/api/catalog/signorie/legend?lang=ja").json()
    assert legend["glossary"]["city.0"]["name"] == "ミラノ" and len(legend["cities"]) == 5
