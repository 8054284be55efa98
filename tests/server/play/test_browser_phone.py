"""A phone (390 x 844, touch) shows the board: on every game page, in both languages, the board
starts on the first screen above the choice sheet, the sheet folds away, every control and every
clickable board element is at least 44 px in its smaller dimension, and the English "Scores so
far" table fits the screen. The rules page's table of contents is tappable too. Screenshots go
to ``out/screenshots/phone-first-*.png`` (git ignores ``out/``)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

import palio
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "ja": "ja-JP"}
SHOTS = Path(__file__).parents[3] / "out" / "screenshots"
FINGER = 44  # px: the smallest side of anything a finger should hit (touch guidelines)
BOARD_SEEN = 300  # px of board a phone shows on its first screen, above the sheet

# what a finger can hit: controls, links, folding summaries and the board's clickable elements
TAPPABLE = ("button, select, input:not([type=hidden]), a[href], summary, [role=button], "
            ".clickable")
# a check box is hit through its label, which is its target
SMALL_ONES = """(selector) => [...document.querySelectorAll(selector)].map((node) => (
  node.matches('input[type=checkbox], input[type=radio]') && node.closest('label') ? node.closest('label') : node
)).filter((node) => {
  const box = node.getBoundingClientRect();
  const style = getComputedStyle(node);
  if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') return false;
  if (node.closest('[hidden], details:not([open]) > :not(summary)')) return false;
  return Math.min(box.width, box.height) < FINGER - 0.5;
}).map((node) => {
  const box = node.getBoundingClientRect();
  return `${node.tagName.toLowerCase()}${node.id ? '#' + node.id : ''}.${[...node.classList].join('.')}`
    + ` "${(node.textContent || '').trim().slice(0, 20)}" ${Math.round(box.width)}x${Math.round(box.height)}`;
})""".replace("FINGER", str(FINGER))


def phone_page(browser: Any, lang: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=PHONE, locale=LOCALES[lang], has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def seated_game(web: Server, game: str, players: int | None = None) -> str:
    """A game of ``game`` a few moves in (so the scores and the log have something), the
    path of its first seat's page."""
    info = palio.get_game(game).info
    players = players or info.min_players
    created = web.create(game=game, players=players, seed=4,
                         seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1))
    token = web.join(created["id"], 0, "Ada")
    rng = random.Random(3)
    for _ in range(40):
        view = web.view(created["id"], token)
        if view["legal"] and view["move_number"] < 12:
            choice = rng.choice([a["notation"] for a in view["legal"] if a["notation"] != "pass"]
                                or [a["notation"] for a in view["legal"]])
            web.http.post(f"/api/games/{created['id']}/actions",
                          headers={"Authorization": f"Bearer {token}"},
                          json={"action": choice, "move_number": view["move_number"]})
        elif view["move_number"] >= 12 and view["legal"]:
            break
        else:
            time.sleep(0.05)
    return f"/games/{created['id']}#token={token}"


def test_a_phone_shows_the_board_on_the_first_screen_of_every_game(web: Server, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    paths = {game: seated_game(web, game) for game in palio.games()}
    problems: list[str] = []
    for game, path in paths.items():
        for lang in ("en", "ja"):
            context, page, errors = phone_page(browser, lang)
            page.goto(web.base + path)
            page.wait_for_selector("body[data-move][data-your-turn='1']", timeout=WAIT_MS)
            page.wait_for_timeout(300)  # the map centres itself
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(SHOTS / f"phone-first-{game}-{lang}.png"))
            board = page.locator("#board").bounding_box()
            sheet = page.locator("#turn-bar").bounding_box()
            assert board is not None and sheet is not None
            seen = min(board["y"] + board["height"], sheet["y"]) - board["y"]
            if seen < BOARD_SEEN:
                problems.append(f"{game} {lang}: the first screen shows {seen:.0f} px of board "
                                f"(board at {board['y']:.0f}, sheet at {sheet['y']:.0f})")
            # the sheet folds down to its prompt line, and opens again
            page.locator("#bar-toggle").tap()
            folded = page.locator("#turn-bar").bounding_box()
            assert folded is not None and folded["height"] <= 120, folded
            assert page.locator("#actions-panel").is_hidden()
            page.locator("#bar-toggle").tap()
            assert page.locator("#actions-panel").is_visible()
            # every control and clickable element, anywhere on the page, fits a finger
            page.evaluate("document.getElementById('live-scores').open = true")
            small = page.evaluate(SMALL_ONES, TAPPABLE)
            if small:
                problems.append(f"{game} {lang}: smaller than {FINGER} px: {small[:12]}")
            if lang == "en":  # "Scores so far" fits the screen
                table = page.locator("#live-score-breakdown")
                if table.count():
                    box = table.bounding_box()
                    assert box is not None
                    if box["x"] < 0 or box["x"] + box["width"] > PHONE["width"]:
                        problems.append(f"{game}: the scores table is {box['width']:.0f} px wide "
                                        f"at x={box['x']:.0f}")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                problems.append(f"{game} {lang}: the page is {width} px wide")
            assert errors == [], errors
            context.close()
    assert not problems, "\n".join(problems)


def test_the_english_scores_so_far_fit_a_phone_with_four_players(web: Server, browser: Any) -> None:
    for game in ("troyes", "signorie", "tiletum"):
        path = seated_game(web, game, players=4)
        context, page, errors = phone_page(browser, "en")
        page.goto(web.base + path)
        page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
        page.evaluate("document.getElementById('live-scores').open = true")
        table = page.locator("#live-score-breakdown")
        table.wait_for(timeout=WAIT_MS)
        box = table.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (game, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        table.screenshot(path=str(SHOTS / f"phone-scores-{game}.png"))
        assert errors == []
        context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_rules_contents_fit_a_finger(web: Server, browser: Any, lang: str) -> None:
    context, page, errors = phone_page(browser, lang)
    page.goto(f"{web.base}/rules/troyes?lang={lang}")
    page.wait_for_selector(".rules-toc a", timeout=WAIT_MS)
    assert page.evaluate(SMALL_ONES, ".rules-toc a, header a, header button, header select") == []
    assert errors == []
    context.close()


def test_tiletum_map_spots_offered_on_a_phone_fit_a_finger(web: Server, browser: Any) -> None:
    """A town or road spot a move goes to is an 18 px dot at the phone's zoom, a house square 8
    px: offered, the spot gets one finger-sized target for all of them (found by a CI run where
    the bots happened to leave a map move to take)."""
    created = web.create(game="tiletum", players=2, seed=4,
                         seats=[{"kind": "human"}, {"kind": "human"}])
    tokens = [web.join(created["id"], seat, name) for seat, name in ((0, "Ada"), (1, "Bo"))]
    rng = random.Random(1)

    def until(prefix: str) -> dict[str, Any]:
        """Random choices until a seat may take a choice named ``prefix``: that seat's view."""
        for _ in range(1500):
            mover = next(v for v in (web.view(created["id"], t) for t in tokens) if v["legal"])
            notations = [a["notation"] for a in mover["legal"]]
            if any(n.startswith(prefix) for n in notations):
                return mover
            choice = rng.choice([n for n in notations if n != "pass"] or notations)
            reply = web.http.post(f"/api/games/{created['id']}/actions",
                                  headers={"Authorization": f"Bearer {tokens[mover['seat']]}"},
                                  json={"action": choice, "move_number": mover["move_number"]})
            assert reply.status_code == 200, reply.text
        raise AssertionError(f"no {prefix!r} choice came")

    for prefix in ("move ", "house "):
        mover = until(prefix)
        context, page, errors = phone_page(browser, "en")
        page.goto(web.base + f"/games/{created['id']}#token={tokens[mover['seat']]}")
        page.wait_for_selector(f"body[data-move='{mover['move_number']}'][data-your-turn='1']",
                               timeout=WAIT_MS)
        targets = page.locator("#board .spot-target.clickable")
        assert targets.count() > 0
        assert page.evaluate(SMALL_ONES, TAPPABLE) == []
        offered = {n for node in targets.all()
                   for n in (node.get_attribute("data-offers") or "").split("|")}
        wanted = {a["notation"] for a in mover["legal"] if a["notation"].startswith(prefix)}
        assert wanted <= offered, (wanted, offered)  # every such choice has its target
        targets.first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"phone-tiletum-map-{prefix.strip()}.png"))
        assert not errors
        context.close()
