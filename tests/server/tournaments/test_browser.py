"""A whole turn-based Swiss in a real Chromium against a real ``palio serve`` (SQLite): seven
accounts, four reading English on a desktop and three Japanese on a phone, enter a tournament
of three-seat Tiletum tables (bots fill the short ones) from its page; the test moves the
server's clock (``PALIO_CLOCK_FILE``) to the start and through the week; each round's tables
appear on the page, a player opens theirs from it, the accounts play their seats (through the
API: hundreds of decisions), the server's bots theirs, and the standings page shows all seven
in both languages. Screenshots go to ``out/screenshots/``."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import BROWSER_MARKS, WAIT_MS
from tests.server.people import wait_for
from tests.server.tournaments.players import (
    JAPANESE,
    SHOTS,
    Player,
    no_sideways_scroll,
    play_out,
    served,
)

pytestmark = [*BROWSER_MARKS, pytest.mark.slow]
pytest.importorskip("playwright.sync_api")


DAY = 86400
ROUNDS = 3


def test_a_whole_swiss_of_seven_over_a_week(browser: Any, make_server: Any,
                                            tmp_path: Path) -> None:
    server, clock = served(make_server, tmp_path)
    people = [Player(browser, server.base, f"Anna{i}", "en") for i in range(4)] + \
             [Player(browser, server.base, f"Bruno{i}", "ja") for i in range(3)]
    # the organiser creates it with the form on /tournaments (an hour from now, a day a move)
    start = clock.now().timestamp() + 3600
    organiser = people[0]
    organiser.open("/")  # the lobby links to the tournaments
    organiser.page.wait_for_selector("#tournaments-link:has-text('Tournaments')", timeout=WAIT_MS)
    organiser.page.click("#tournaments-link")
    organiser.page.wait_for_selector("#tournament-form", timeout=WAIT_MS)
    form = organiser.page.locator("#tournament-form")
    form.locator("[name=name]").fill("Autumn Swiss")
    form.locator("[name=game]").select_option("tiletum")
    form.locator("[name=players]").fill("3")
    form.locator("[name=rounds]").fill(str(ROUNDS))
    form.locator("[name=starts_at]").fill(time.strftime("%Y-%m-%dT%H:%M", time.gmtime(start)))
    form.locator("[name=per_move_days]").fill("1")
    form.locator("[name=bot_level]").select_option("easy")  # the organiser's bots' level
    organiser.page.screenshot(path=str(SHOTS / "tournaments-form-en.png"), full_page=True)
    organiser.page.click("#tournament-create")
    organiser.page.wait_for_url(re.compile(r"/tournaments/\d+$"), timeout=WAIT_MS)
    tid = int(organiser.page.url.rsplit("/", 1)[1])
    made = organiser.get(f"/api/tournaments/{tid}")
    assert made["bots"] is True and made["players"] == 3 and made["rounds_planned"] == ROUNDS
    assert made["bot_level"] == "easy"
    assert "bots (Easy) fill short tables" in organiser.page.inner_text("#facts")
    assert made["timing"]["kind"] == "turn" and made["timing"]["per_move_s"] == DAY

    # everyone finds it on /tournaments and enters from its page, in their own language
    for person in people:
        person.open("/tournaments")
        person.page.click(f'#tournaments tr[data-id="{tid}"] a')
        person.page.wait_for_selector("#tournament-action[data-action=register]",
                                      timeout=WAIT_MS)
        person.page.click("#tournament-action")
        person.page.wait_for_selector("#tournament-action[data-action=withdraw]",
                                      timeout=WAIT_MS)
        text = person.page.inner_text("main")
        assert bool(JAPANESE.search(text)) == (person.lang == "ja"), text
        if person.lang == "ja":
            no_sideways_scroll(person)
    assert len(people[0].get(f"/api/tournaments/{tid}")["standings"]) == 7

    clock.advance(3600 + 60)  # the start
    for number in range(1, ROUNDS + 1):
        detail = wait_for(lambda n=number: (d := people[0].get(f"/api/tournaments/{tid}"))
                          and len(d["rounds"]) >= n and d, f"round {number}", 60.0)
        tables = detail["rounds"][number - 1]["tables"]
        seats = [name for table in tables for name in table["seats"]]
        assert sorted(n for n in seats if n) == sorted(p.name for p in people)
        assert seats.count(None) == 2  # seven at three-seat tables: bots fill two seats
        # a player sees the round on the page and opens their table from it
        reader = people[number % 7]
        reader.open(f"/tournaments/{tid}")
        reader.page.click(f'ul.round a:has-text("{reader.name}")')
        reader.page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
        assert reader.page.url.split("?")[0].endswith(
            next(t["game_id"] for t in tables if reader.name in t["seats"]))
        play_out(server, people, tables, within=900)  # the accounts their seats, bots theirs
        clock.advance(DAY)  # a day of the week passes between rounds

    detail = wait_for(lambda: (d := people[0].get(f"/api/tournaments/{tid}"))
                      and d["status"] == "finished" and d, "the end", 60.0)
    assert all(row["played"] == ROUNDS for row in detail["standings"])
    for person in (people[0], people[4]):
        person.open(f"/tournaments/{tid}")
        rows = person.page.locator("#standings tbody tr")
        assert rows.count() == 7
        header = person.page.inner_text("#standings thead")
        assert ("Buchholz" in header) if person.lang == "en" else ("ブッフホルツ" in header)
        person.page.screenshot(path=str(SHOTS / f"tournament-{person.lang}.png"),
                               full_page=True)
        if person.lang == "ja":
            no_sideways_scroll(person)
    assert all(p.errors == [] for p in people)
