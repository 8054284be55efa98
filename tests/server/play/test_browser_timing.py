"""A real-time table in a real Chromium against real ``palio serve`` processes (SQLite; and
PostgreSQL with two processes): the clocks tick on a seat's page and a spectator's, the tab
says whose turn it is, and when the test moves the servers' clock (``PALIO_CLOCK_FILE``) past
the player's time, a bot takes the seat, on every page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from palio.server.base.clock import OffsetFileClock
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, database_url

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

SG = "san-gimignano"


def clock_text(page: Any, seat: int) -> str:
    return page.locator(f'#seats [data-seat="{seat}"] .clock').inner_text()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_realtime_clock_runs_out_in_the_page(browser: Any, make_server: Any, tmp_path: Path,
                                               backend: str) -> None:
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    options = ("--workers", "2") if backend == "postgres" else ()
    server = make_server(database_url(backend, tmp_path), 0.0, *options,
                         env={"PALIO_CLOCK_FILE": str(offset), "PALIO_DEADLINE_SWEEP": "0.2"})
    server.start()
    created = server.create(game=SG, players=2, seed=5,
                            timing={"kind": "realtime", "base_s": 300, "increment_s": 10},
                            on_timeout={"kind": "bot", "level": "easy"})
    game_id = created["id"]
    tokens = [server.join(game_id, 0, "Anna"), server.join(game_id, 1, "Ben")]
    to_move = server.view(game_id)["to_move"]
    name = ["Anna", "Ben"][to_move]

    context = browser.new_context()
    seat_page = context.new_page()
    errors: list[str] = []
    seat_page.on("pageerror", lambda exc: errors.append(str(exc)))
    seat_page.goto(f"{server.base}/games/{game_id}#token={tokens[to_move]}")
    watcher = browser.new_context(locale="ja-JP").new_page()  # a spectator reading Japanese
    watcher.goto(f"{server.base}/games/{game_id}")
    for page in (seat_page, watcher):
        page.wait_for_selector(f'#seats [data-seat="{to_move}"] .clock.running', timeout=WAIT_MS)
    # the seat's page says it is their turn: in the tab's title and its icon
    seat_page.wait_for_function("document.body.dataset.turnSignal === '1'", timeout=WAIT_MS)
    assert seat_page.title().startswith("● Your turn")
    assert seat_page.locator("link[rel~='icon']").get_attribute("href").startswith("data:image/svg")
    assert not watcher.title().startswith("●")
    # ticking: the mover's clock counts down on both pages (a real second passes here)
    for page in (seat_page, watcher):
        before = clock_text(page, to_move)
        assert before.strip().startswith(("5:00", "4:5"))
        page.wait_for_function(
            f"""document.querySelector('#seats [data-seat="{to_move}"] .clock')
                .textContent !== {before!r}""", timeout=WAIT_MS)
    assert clock_text(seat_page, 1 - to_move).strip() == "5:00"  # the other clock stands

    OffsetFileClock(offset).advance(301)  # every server process reads the same file
    said = {seat_page: f"{name} ran out of time; Easy bot plays on", watcher: f"{name}の持ち時間が切れました"}
    for page in (seat_page, watcher):
        page.wait_for_function(
            "[...document.querySelectorAll('#log li')].some((li) => "
            f"li.textContent.includes({said[page]!r}))", timeout=WAIT_MS)
        # the bot plays on: the game moves past the move at which time ran out
        page.wait_for_function("Number(document.body.dataset.move) > 0", timeout=WAIT_MS)
    seat_page.wait_for_function("document.body.dataset.turnSignal === '0'", timeout=WAIT_MS)
    assert not seat_page.title().startswith("●")
    assert seat_page.locator("#leave").count() == 0  # nothing left to leave
    summary = server.http.get(f"/api/games/{game_id}").json()
    assert summary["seats"][to_move]["kind"] == "bot" and summary["forfeits"] == 1
    assert errors == []
    context.close()
    watcher.context.close()


def test_the_lobby_creates_a_timed_table(browser: Any, web: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{web.base}/")
    page.wait_for_selector("body[data-ready='1']", timeout=WAIT_MS)
    page.select_option("#create-game", SG)
    page.select_option("#create-timing", "realtime")
    page.fill("#create-base", "5")
    page.fill("#create-increment", "15")
    page.select_option("#create-on-timeout", "last")
    page.check("#create-rated")
    page.click("#create-submit")
    page.wait_for_selector("#created code", timeout=WAIT_MS)
    game_id = page.inner_text("#created code")
    summary = web.http.get(f"/api/games/{game_id}").json()
    assert summary["timing"] == {"kind": "realtime", "base_s": 300, "increment_s": 15}
    assert summary["rated"] and not summary["practice"]
    assert summary["on_timeout"] == {"kind": "last"}
    # practice and rated exclude each other in the form, as the server does
    page.check("#create-practice")
    assert not page.is_checked("#create-rated")
    row = page.locator(f'#games-open [data-game="{game_id}"]')
    row.wait_for(timeout=WAIT_MS)
    assert row.locator(".badge.timing").inner_text() == "5 min + 15 s per decision · rated"
    page.context.close()
