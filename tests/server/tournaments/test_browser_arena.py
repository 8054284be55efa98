"""A turn-based arena in a real Chromium against a real ``palio serve`` (SQLite): Anna, on a
desktop in English, creates it with the form on /tournaments (choosing "Arena" shows its hours
and hides the rounds), four accounts (Bruno on a phone in Japanese) enter two-seat San Gimignano
tables; the test moves the server's clock (``PALIO_CLOCK_FILE``) to the start. The sweep seats
two tables; when both are played out the four who wait are seated again, each against someone
new; after the end nothing more is seated and the last table's finish ends the arena. The page
shows the tables being played, who waits, the tables played with their places and the standings,
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

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

HOURS = 24


def pairs(tables: list[dict[str, Any]]) -> set[frozenset[str]]:
    return {frozenset(t["seats"]) for t in tables}


def test_an_arena_made_with_the_form_seats_the_waiting_again(browser: Any, make_server: Any,
                                                              tmp_path: Path) -> None:
    server, clock = served(make_server, tmp_path)
    people = [Player(browser, server.base, "Anna", "en"), Player(browser, server.base, "Bruno", "ja"),
              Player(browser, server.base, "Carla", "en"), Player(browser, server.base, "Dario", "en")]
    anna, bruno = people[0], people[1]
    start = clock.now().timestamp() + 3600

    anna.open("/tournaments")
    form = anna.page.locator("#tournament-form")
    form.wait_for(timeout=WAIT_MS)
    rounds, hours = form.locator("[name=rounds]"), form.locator("[name=arena_hours]")
    assert rounds.is_visible() and not hours.is_visible()  # a Swiss first: rounds, no hours
    form.locator("[name=format]").select_option("arena")
    assert hours.is_visible() and not rounds.is_visible()
    assert not form.locator("[name=round_days]").is_visible()
    form.locator("[name=name]").fill("Winter Arena")
    form.locator("[name=game]").select_option("san-gimignano")
    form.locator("[name=players]").fill("2")
    hours.fill(str(HOURS))
    form.locator("[name=starts_at]").fill(time.strftime("%Y-%m-%dT%H:%M", time.gmtime(start)))
    form.locator("[name=per_move_days]").fill("1")
    form.locator("[name=bots]").uncheck()
    anna.page.screenshot(path=str(SHOTS / "arena-form-en.png"), full_page=True)
    anna.page.click("#tournament-create")
    anna.page.wait_for_url(re.compile(r"/tournaments/\d+$"), timeout=WAIT_MS)
    tid = int(anna.page.url.rsplit("/", 1)[1])
    made = anna.get(f"/api/tournaments/{tid}")
    assert made["format"] == "arena" and made["rounds_planned"] is None and made["bots"] is False
    assert made["players"] == 2 and made["timing"]["per_move_s"] == 86400
    assert "arena" in anna.page.inner_text("#facts")

    for person in people:
        entered = person.post(f"/api/tournaments/{tid}/register", {})
        assert entered.ok, entered.text()

    clock.advance(3600 + 60)  # the start: the sweep seats everyone who waits
    first = wait_for(lambda: (d := anna.get(f"/api/tournaments/{tid}")) and d["rounds"] and d,
                     "the first tables", WAIT_MS / 1000)["rounds"][0]["tables"]
    assert sorted(n for t in first for n in t["seats"]) == sorted(p.name for p in people)
    for reader in (anna, bruno):
        reader.open(f"/tournaments/{tid}")
        assert reader.page.locator("#playing li").count() == 2
        waiting = reader.page.inner_text("#waiting")
        assert ("Nobody is waiting" in waiting) if reader.lang == "en" \
            else bool(JAPANESE.search(waiting))

    play_out(server, people, first)
    # both tables ended: the four who waited are seated again, nobody against the same player
    detail = wait_for(lambda: (d := anna.get(f"/api/tournaments/{tid}"))
                      and sum(len(r["tables"]) for r in d["rounds"]) == 4 and d,
                      "the second tables", WAIT_MS / 1000)
    second = [t for r in detail["rounds"] for t in r["tables"] if t["places"] is None]
    assert len(second) == 2 and not pairs(second) & pairs(first)
    assert all(row["played"] == 1 for row in detail["standings"])
    for reader in (anna, bruno):
        reader.open(f"/tournaments/{tid}")
        page = reader.page
        assert page.locator("#playing li").count() == 2
        assert page.locator("#played li").count() == 2
        played = page.inner_text("#played")
        assert ("places" in played) if reader.lang == "en" else bool(JAPANESE.search(played))
        assert page.locator("#standings tbody tr").count() == 4
        if reader.lang == "ja":
            assert JAPANESE.search(page.inner_text("main"))
            no_sideways_scroll(reader)
        page.screenshot(path=str(SHOTS / f"arena-{reader.lang}.png"), full_page=True)

    clock.advance(HOURS * 3600)  # past the end: the running tables are played out, no more
    play_out(server, people, second)
    done = wait_for(lambda: (d := anna.get(f"/api/tournaments/{tid}"))
                    and d["status"] == "finished" and d, "the end", WAIT_MS / 1000)
    assert sum(len(r["tables"]) for r in done["rounds"]) == 4  # nothing seated after the end
    assert all(row["played"] == 2 for row in done["standings"])
    bruno.open(f"/tournaments/{tid}")
    assert bruno.page.locator("#waiting").count() == 0  # no "waiting" line once it ended
    assert bruno.page.locator("#tournament-action").count() == 0
    bruno.page.screenshot(path=str(SHOTS / "arena-finished-ja.png"), full_page=True)
    assert all(p.errors == [] for p in people)
