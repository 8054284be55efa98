"""The first game in a real Chromium (issue 22, sections 2 and 3): one colour per player in
every part of a page, a key beside every board that explains every symbol drawn, one-click
games against bots, giving an empty seat to a bot, no stray "null", and a phone's controls.
"""

from __future__ import annotations

from typing import Any

import pytest

import palio
from tests.server.conftest import BROWSER_MARKS, Server
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
