"""Playing over days, end to end, in a real Chromium against real ``palio serve`` processes
(SQLite; PostgreSQL with two processes) and a local SMTP server: two accounts at a rated
turn-based table each see "your turn"; the one whose page is closed gets a mail and opens the
table from its link; the test moves the servers' clock (``PALIO_CLOCK_FILE``) past the time
limit, a bot takes that seat, the game ends and both players' ratings change."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from palio.server.base.clock import OffsetFileClock
from palio.server.base.db import make_engine
from palio.server.mail.turns import GRACE_S
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, database_url
from tests.server.people import Person, wait_for
from tests.server.smtp import LocalSmtp

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

SG = "san-gimignano"
DAY = 86400


class Player(Person):
    """One person: a browser context signed in to their account (cookie), and their page."""

    def __init__(self, browser: Any, base: str, name: str, lang: str) -> None:
        super().__init__(browser, base, name, lang, email=f"{name.lower()}@example.org",
                         locale="ja-JP" if lang == "ja" else "en-US")
        self.page: Any = None

    def open(self, url: str) -> None:
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(url)
        self.page.wait_for_selector("body[data-move]", timeout=WAIT_MS)

    def wait_your_turn(self) -> None:
        self.page.wait_for_function("document.body.dataset.turnSignal === '1'",
                                    timeout=WAIT_MS)
        assert self.page.title().startswith("●")

    def click_until_turn_passes(self) -> int:
        """Click the first choice until the turn is someone else's; the clicks made."""
        clicks = 0
        while self.page.get_attribute("body", "data-your-turn") == "1":
            before = self.page.get_attribute("body", "data-move")
            self.page.locator("#actions button.action").first.click()
            self.page.wait_for_function(f"document.body.dataset.move !== '{before}'",
                                        timeout=WAIT_MS)
            clicks += 1
        return clicks


def page_seen(db_url: str, game_id: str) -> bool:
    """Whether the server's mail pass recorded a page of the table open for seat 0."""
    engine = make_engine(db_url)
    try:
        with engine.connect() as connection:
            return connection.execute(sa.text(
                "SELECT 1 FROM page_seen WHERE game_id = :g AND seat = 0"),
                {"g": game_id}).first() is not None
    finally:
        engine.dispose()



@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_accounts_play_a_turn_based_table_over_days(browser: Any, make_server: Any,
                                                        tmp_path: Path, backend: str) -> None:
    smtp = LocalSmtp()
    smtp.start()
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    clock = OffsetFileClock(offset)
    options = ("--workers", "2") if backend == "postgres" else ()
    server = make_server(database_url(backend, tmp_path), 0.0, *options, "--smtp", smtp.url,
                         env={"PALIO_CLOCK_FILE": str(offset), "PALIO_DEADLINE_SWEEP": "0.2"})
    try:
        server.start()
        anna = Player(browser, server.base, "Anna", "en")
        bruno = Player(browser, server.base, "Bruno", "ja")
        made = anna.post("/api/games", {
            "game": SG, "players": 2, "seed": 4, "rated": True,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "timing": {"kind": "turn", "per_move_s": DAY},
            "on_timeout": {"kind": "bot", "level": "easy"}})
        assert made.status == 201, made.text()
        game_id = made.json()["id"]
        for seat, person in enumerate((anna, bruno)):
            joined = person.post(f"/api/games/{game_id}/seats/{seat}/join", {})
            assert joined.ok, joined.text()
        first = anna.get(f"/api/games/{game_id}/view")["to_move"]
        mover, waiter = (anna, bruno) if first == 0 else (bruno, anna)

        # the first mover has the table open: "your turn" in the tab, and no mail for them
        mover.open(f"{server.base}/games/{game_id}")
        mover.wait_your_turn()
        assert mover.click_until_turn_passes() >= 1
        # the other player's page is closed: a minute later the mail goes out, in their language
        clock.advance(GRACE_S + 5)
        mails = wait_for(lambda: smtp.inbox.messages, "the turn mail")
        assert [m["To"] for m in mails] == [f"{waiter.name.lower()}@example.org"]
        body = mails[0].get_content()
        link = next(w for w in body.split() if w.startswith(f"{server.base}/games/{game_id}"))
        waiter.open(link)  # a plain link: the cookie is what signs in
        waiter.wait_your_turn()

        # the waiter does not move: the clock passes the limit and its bank; a bot plays on
        clock.advance(3 * DAY)
        said = {"Anna": "Anna ran out of time; Easy bot plays on",
                "Bruno": "Brunoの持ち時間が切れました"}[waiter.name]  # in their own language
        waiter.page.wait_for_function(
            f"[...document.querySelectorAll('#log li')].some((li) => li.textContent.includes({said!r}))",
            timeout=WAIT_MS)
        summary = server.http.get(f"/api/games/{game_id}").json()
        assert summary["seats"][1 - first]["kind"] == "bot" and summary["forfeits"] == 1

        # the one still playing finishes the game (through the API: many decisions)
        seat = first
        while (view := mover.get(f"/api/games/{game_id}/view"))["status"] != "finished":
            if view["to_move"] != seat or not view["legal"]:
                time.sleep(0.05)  # the bot's move is on its way
                continue
            acted = mover.post(f"/api/games/{game_id}/actions",
                               {"action": view["legal"][0]["notation"],
                                "move_number": view["move_number"]})
            assert acted.ok or acted.status == 409, acted.text()
        board = wait_for(lambda: [r for r in server.http.get(f"/api/ratings/{SG}").json()
                                  ["players"] if r["games"] == 1] or None, "the ratings")
        rating = {row["name"]: row["rating"] for row in board}
        assert set(rating) == {"Anna", "Bruno"}
        newcomer = server.http.get(f"/api/ratings/{SG}").json()["scale"]["base"]
        assert rating[mover.name] > newcomer > rating[waiter.name]  # time ran out: rated last
        assert mover.errors == [] and waiter.errors == []
    finally:
        smtp.stop()


def test_a_quick_reply_after_the_tab_closed_is_mailed(browser: Any, make_server: Any,
                                                      tmp_path: Path) -> None:
    """Anna plays her turn in Chromium and closes the tab; Bruno answers within seconds. Her
    page was seen just before her new turn began, which never cancels the mail: a minute later
    it arrives (a real palio serve, a local SMTP server), saying the last move and time left."""
    smtp = LocalSmtp()
    smtp.start()
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    clock = OffsetFileClock(offset)
    server = make_server(database_url("sqlite", tmp_path), 0.0, "--smtp", smtp.url,
                         env={"PALIO_CLOCK_FILE": str(offset)})
    try:
        server.start()
        anna = Player(browser, server.base, "Anna", "en")
        bruno = Player(browser, server.base, "Bruno", "ja")
        made = anna.post("/api/games", {
            "game": SG, "players": 2, "seed": 4,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "timing": {"kind": "turn", "per_move_s": DAY}})
        assert made.status == 201, made.text()
        game_id = made.json()["id"]
        for seat, person in enumerate((anna, bruno)):
            assert person.post(f"/api/games/{game_id}/seats/{seat}/join", {}).ok
        if anna.get(f"/api/games/{game_id}/view")["to_move"] != 0:  # Bruno first: he moves
            while (view := bruno.get(f"/api/games/{game_id}/view"))["to_move"] == 1:
                assert bruno.post(f"/api/games/{game_id}/actions", {
                    "action": view["legal"][0]["notation"],
                    "move_number": view["move_number"]}).ok
        anna.open(f"{server.base}/games/{game_id}")
        anna.wait_your_turn()
        wait_for(lambda: page_seen(server.db_url, game_id), "her open page recorded")
        anna.click_until_turn_passes()
        anna.page.close()  # she closes the tab
        while (view := bruno.get(f"/api/games/{game_id}/view"))["to_move"] == 1:
            assert bruno.post(f"/api/games/{game_id}/actions", {  # he answers at once
                "action": view["legal"][0]["notation"], "move_number": view["move_number"]}).ok
        clock.advance(GRACE_S + 5)
        mails = wait_for(lambda: [m for m in smtp.inbox.messages
                                  if m["To"] == "anna@example.org"], "Anna's turn mail")
        body = mails[-1].get_content()
        assert "Last move: " in body and "Time left for this move: " in body
        assert f"{server.base}/games/{game_id}" in body
        assert anna.errors == []
    finally:
        smtp.stop()
