"""The first game in a real Chromium (issue 22, sections 2 and 3): one colour per player in
every part of a page, a key beside every board that explains every symbol drawn, one-click
games against bots, giving an empty seat to a bot, no stray "null", and a phone's controls.
"""

from __future__ import annotations

from typing import Any

import pytest

import palio
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server
from tests.server.test_browser import Person

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

GAMES = list(palio.games())


def seats_for(game: str) -> int:
    info = palio.get_game(game).info
    return max(info.min_players, min(3, info.max_players))


def bots_game(server: Server, game: str, seed: int = 4) -> str:
    """An all-bot game, played until it is over (bots answer at once on this server)."""
    players = seats_for(game)
    created = server.create(game=game, players=players, seed=seed,
                            seats=[{"kind": "bot", "level": "random"}] * players)
    server.wait_over(created["id"], timeout=120)
    return created["id"]


# every element of a page that stands for a seat, with the colour property it shows it in
SEAT_COLOURS = """(seat) => {
  const found = [];
  const add = (selector, prop) => {
    for (const node of document.querySelectorAll(selector)) {
      found.push([selector, getComputedStyle(node)[prop]]);
    }
  };
  add(`#seats .seat-chip[data-seat="${seat}"] .dot`, "backgroundColor");
  add(`#log li.seat-${seat}`, "borderLeftColor");
  add(`#board [data-player="${seat}"] h3 .dot`, "backgroundColor");
  add(`#board .sg-p${seat}`, "backgroundColor");
  add(`#board .sg-border-${seat}`, "borderLeftColor");
  add(`#board .seat-bg-${seat}`, "backgroundColor");
  add(`#board .seat-fill-${seat}`, "fill");
  add(`#board .ty-district-${seat}`, "borderTopColor");
  return found;
}"""


def test_one_colour_per_player_everywhere_on_the_page(web: Server, browser: Any) -> None:
    for game in GAMES:
        game_id = bots_game(web, game)
        person = Person(browser, web)
        person.open(f"/games/{game_id}")
        person.wait_view()
        colours = []
        for seat in range(seats_for(game)):
            found = person.page.evaluate(SEAT_COLOURS, seat)
            places = {selector.split()[0] for selector, _ in found}
            assert "#seats" in places and "#board" in places and "#log" in places, (game, found)
            shown = {colour for _, colour in found}
            assert len(shown) == 1, f"{game}: seat {seat + 1} is drawn in {sorted(set(map(tuple, found)))}"
            colours.append(shown.pop())
        assert len(set(colours)) == len(colours), f"{game}: two players share a colour {colours}"
        person.close()


def test_play_against_bots_in_one_click(web: Server, browser: Any) -> None:
    for lang in ("en", "ja"):
        person = Person(browser, web, lang)
        page = person.page
        person.open("/")
        page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
        # the form's own default is you against bots, too: a friend's seat is a choice
        page.select_option("#create-game", "tiletum")
        page.select_option("#create-players", "3")
        assert page.input_value("#seat-kind-0") == "human"
        assert page.input_value("#seat-kind-1").startswith("bot:")
        assert page.input_value("#seat-kind-2").startswith("bot:")
        page.click("#play-bots")
        page.wait_for_url("**/games/*#token=*", timeout=WAIT_MS)
        page.wait_for_selector("body[data-status='running'][data-viewer='seat']", timeout=WAIT_MS)
        game_id = page.url.split("/games/")[1].split("#")[0]
        seats = web.http.get(f"/api/games/{game_id}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
        assert page.locator("#seats .seat-chip.me[data-seat='0']").count() == 1
        person.close()


def test_no_null_and_the_creator_gives_a_seat_to_a_bot(web: Server, browser: Any) -> None:
    ada = Person(browser, web, "ja")
    page = ada.page
    ada.open("/")
    page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    page.select_option("#create-game", "san-gimignano")
    page.select_option("#seat-kind-1", "human")  # a seat for a friend
    page.click("#create-submit")
    page.wait_for_selector("#created .invite-link", timeout=WAIT_MS)
    assert "null" not in page.inner_text("#created")
    game_id = page.inner_text("#created code")
    page.click("#created [data-join='0']")
    page.wait_for_selector("#waiting:not([hidden]) [data-bot-seat='1']", timeout=WAIT_MS)
    assert "null" not in page.inner_text("#waiting")
    # another browser (a player who did not create the game) has no such button
    bo = Person(browser, web, "en")
    bo.open(f"/games/{game_id}")
    bo.wait_view()
    assert bo.page.locator("[data-bot-seat]").count() == 0
    page.click("[data-bot-seat='1']")
    page.wait_for_selector("body[data-status='running']", timeout=WAIT_MS)
    seat = web.http.get(f"/api/games/{game_id}").json()["seats"][1]
    assert seat["kind"] == "bot" and seat["taken"]
    bo.page.wait_for_selector("body[data-status='running']", timeout=WAIT_MS)
    ada.close()
    bo.close()
