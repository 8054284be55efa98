"""The tournaments' browser tests' people: an account in Chromium with one page, reading
English on a desktop or Japanese on a phone (its page errors kept), who can play its seat
through the API; and what those tests share (the screenshots' folder, a Japanese check)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from palio.server.base.clock import OffsetFileClock
from tests.server.people import Person

SHOTS = Path(__file__).parents[3] / "out" / "screenshots"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def served(make_server: Any, tmp_path: Path) -> tuple[Any, OffsetFileClock]:
    """A started ``palio serve`` whose clock the test moves (``PALIO_CLOCK_FILE``), sweeping
    for rounds every 0.2 s, and that clock; the screenshots' folder made."""
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    server = make_server(None, 0.0, env={"PALIO_CLOCK_FILE": str(offset),
                                         "PALIO_DEADLINE_SWEEP": "0.2"})
    server.start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    return server, OffsetFileClock(offset)


class Player(Person):
    def __init__(self, browser: Any, base: str, name: str, lang: str) -> None:
        phone = lang == "ja"
        options: dict[str, Any] = {"locale": "ja-JP" if phone else "en-US", "timezone_id": "UTC",
                                   "viewport": {"width": 390, "height": 844} if phone
                                   else {"width": 1300, "height": 900}}
        if phone:
            options.update(has_touch=True, is_mobile=True)
        super().__init__(browser, base, name, lang, **options)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def open(self, path: str) -> None:
        self.page.goto(self.base + path)

    def play_turn(self, game_id: str) -> bool:
        """One decision if it is this account's turn at the table (its cookie is its seat)."""
        view = self.get(f"/api/games/{game_id}/view")
        if view["status"] != "running" or view["to_move"] != view["seat"] or not view["legal"]:
            return False
        acted = self.post(f"/api/games/{game_id}/actions",
                          {"action": first_notation(view["legal"]),
                           "move_number": view["move_number"]})
        assert acted.ok or acted.status == 409, acted.text()
        return acted.ok


def play_out(server: Any, people: list[Player], tables: list[dict[str, Any]],
             within: float = 300.0) -> None:
    """The accounts play their seats of these tables (through the API), the server's bots
    theirs, until every table has ended."""
    games = {t["game_id"]: [p for p in people if p.name in t["seats"]] for t in tables}
    end = time.monotonic() + within
    while games:
        assert time.monotonic() < end, "the tables' games did not end"
        for game_id, seated in list(games.items()):
            if not any(p.play_turn(game_id) for p in seated):
                if server.http.get(f"/api/games/{game_id}").json()["status"] == "finished":
                    del games[game_id]
                else:
                    time.sleep(0.05)  # a bot is thinking


def first_notation(node: Any) -> str:
    if isinstance(node, dict):
        if isinstance(node.get("notation"), str):
            return node["notation"]
        node = list(node.values())
    for value in node:
        if isinstance(value, dict | list):
            try:
                return first_notation(value)
            except StopIteration:
                continue
    raise StopIteration


def no_sideways_scroll(player: Player) -> None:
    width = player.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"{player.name}'s phone page scrolls sideways ({width} px)"
