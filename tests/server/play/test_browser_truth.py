"""Every page tells the truth (issue 35), in a real Chromium against a real ``palio serve``: a
seat that ran out of time is marked on its chip, its player sees a banner saying what happened
and when, the lobby and "My games" say "timed out" (not "playing"), and the result explains why
a forfeited seat is ranked last for the rating."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from palio.server.base.clock import OffsetFileClock
from tests.server.conftest import BROWSER_MARKS, WAIT_MS
from tests.server.people import wait_for

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

SG = "san-gimignano"
SHOTS = Path(__file__).parents[3] / "out" / "screenshots"


def holding(browser: Any, base: str, lang: str, seats: list[dict[str, Any]]) -> tuple[Any, Any, list[str]]:
    """A browser whose localStorage holds these guest seats (as the lobby keeps them)."""
    context = browser.new_context(locale={"en": "en-US", "ja": "ja-JP"}[lang])
    context.add_init_script(f"localStorage.setItem('palio.seats', {json.dumps(json.dumps(seats))})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def test_a_timed_out_seat_is_marked_everywhere_and_explained_in_the_result(
        browser: Any, make_server: Any, tmp_path: Path) -> None:
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    server = make_server(None, 0.0, env={"PALIO_CLOCK_FILE": str(offset),
                                         "PALIO_DEADLINE_SWEEP": "0.2"})
    server.start()
    created = server.create(game=SG, players=2, seed=5, rated=True,
                            timing={"kind": "realtime", "base_s": 300, "increment_s": 10},
                            on_timeout={"kind": "bot", "level": "easy"})
    game_id = created["id"]
    tokens = [server.join(game_id, 0, "Anna"), server.join(game_id, 1, "Ben")]
    late = server.view(game_id)["to_move"]  # this seat runs out of time
    other = 1 - late
    name = ["Anna", "Ben"][late]
    OffsetFileClock(offset).advance(301)
    summary = wait_for(
        lambda: (s := server.http.get(f"/api/games/{game_id}").json())["forfeits"] and s,
        "the time-out's forfeit", timeout=20)
    assert summary["forfeited"] == [{"seat": late, "reason": "timeout", "rule": "bot"}]

    held = [{"id": game_id, "game": SG, "seat": late, "name": name, "token": tokens[late]}]
    for lang, mark, status in (("en", "timed out · a bot plays", "timed out"),
                               ("ja", "時間切れ・ボットが続行", "時間切れ")):
        context, page, errors = holding(browser, server.base, lang, held)
        page.goto(f"{server.base}/games/{game_id}#token={tokens[late]}")
        page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
        chip = page.locator(f'#seats [data-seat="{late}"]')
        assert mark in chip.inner_text()
        assert page.locator(f'#seats [data-seat="{other}"] .forfeit-mark').count() == 0
        banner = page.locator("#away-banner")
        assert banner.is_visible()
        said = banner.inner_text()
        assert (f"{name} ran out of time" if lang == "en" else f"{name}の持ち時間が切れました") in said
        at = server.view(game_id)["table"]["forfeits"][0]["at"]
        assert at[:4] in said  # when it happened (the date and time, in the reader's words)
        page.screenshot(path=str(SHOTS / f"truth-timed-out-{lang}.png"))
        # the lobby: "My games" and the running list say "timed out", not "playing"
        page.goto(f"{server.base}/")
        mine = page.locator(f'[data-mine="{game_id}"] [data-status]')
        mine.wait_for(timeout=WAIT_MS)
        assert mine.inner_text() == status and mine.get_attribute("data-status") == "forfeited"
        row = page.locator(f'#games-running [data-game="{game_id}"] .seat-names')
        row.wait_for(timeout=WAIT_MS)
        assert f"{name} ({status})" in row.inner_text()
        assert errors == []
        context.close()

    # the other player leaves; the bots finish; the result says why both are ranked last
    left = server.http.post(f"/api/games/{game_id}/seats/{other}/leave", json={},
                            headers={"Authorization": f"Bearer {tokens[other]}"})
    assert left.status_code == 200, left.text
    server.wait_over(game_id)
    context, page, errors = holding(browser, server.base, "en", held)
    page.goto(f"{server.base}/games/{game_id}#token={tokens[late]}")
    page.wait_for_selector("#scores", timeout=WAIT_MS)
    notes = {int(row.get_attribute("data-seat")): row.locator(".forfeit-note").inner_text()
             for row in page.locator("#scores tbody tr").all()}
    assert notes == {late: "ranked last for the rating: ran out of time",
                     other: "ranked last for the rating: left the table"}
    page.goto(f"{server.base}/")
    mine = page.locator(f'[data-mine="{game_id}"] [data-status]')
    mine.wait_for(timeout=WAIT_MS)
    assert mine.inner_text() == "finished · timed out"
    assert errors == []
    context.close()


def test_the_header_counts_the_tables_waiting_for_you_and_links_the_next(web: Any, browser: Any) -> None:
    """A guest holding seats at three tables, two waiting for them: every page's header says
    so and links the table that has waited longest (never the one on screen)."""
    games = []
    for seed in (5, 6, 7):
        created = web.create(game=SG, players=2, seed=seed, seats=[{"kind": "human"}, {"kind": "human"}])
        tokens = [web.join(created["id"], 0, "Ada"), web.join(created["id"], 1, "Bo")]
        games.append((created["id"], tokens, web.view(created["id"])["to_move"]))
    (first, t1, m1), (second, t2, m2), (third, t3, m3) = games
    held = [{"id": first, "game": SG, "seat": m1, "token": t1[m1]},
            {"id": second, "game": SG, "seat": m2, "token": t2[m2]},
            {"id": third, "game": SG, "seat": 1 - m3, "token": t3[1 - m3]}]  # not to move
    for lang, words in (("en", "Your turn: 2"), ("ja", "あなたの番：2卓")):
        context, page, errors = holding(browser, web.base, lang, held)
        page.goto(f"{web.base}/")
        page.wait_for_selector("#turns", timeout=WAIT_MS)
        badge = page.locator("#turns")
        assert badge.inner_text() == words
        assert badge.get_attribute("href") == f"/games/{first}#token={t1[m1]}"
        badge.click()  # to the table that waited longest: the other one is next
        page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
        page.wait_for_function("document.getElementById('turns')?.dataset.count === '1'", timeout=WAIT_MS)
        assert page.locator("#turns").get_attribute("href") == f"/games/{second}#token={t2[m2]}"
        page.goto(f"{web.base}/rules/troyes?lang={lang}")  # a page the server writes
        page.wait_for_selector("#turns[data-count='2']", timeout=WAIT_MS)
        assert errors == []
        context.close()


def test_chat_lines_carry_their_time_and_unread_chat_shows_on_the_table_and_in_my_games(
        browser: Any, make_server: Any, tmp_path: Path) -> None:
    offset = tmp_path / "clock-offset"
    offset.write_text(str(-2 * 86400))  # the first message is written two days ago
    server = make_server(None, 0.0, env={"PALIO_CLOCK_FILE": str(offset)})
    server.start()
    created = server.create(game=SG, players=2, seed=5, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [server.join(game_id, 0, "Anna"), server.join(game_id, 1, "Ben")]

    def say(text: str, seat: int) -> None:
        reply = server.http.post(f"/api/games/{game_id}/chat", json={"text": text},
                                 headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert reply.status_code == 201, reply.text

    say("from the day before yesterday", 1)
    offset.write_text("0")
    say("good luck", 1)
    say("thanks", 0)  # Anna's own line is never unread to her
    held = [{"id": game_id, "game": SG, "seat": 0, "name": "Anna", "token": tokens[0]}]
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844},
                                  has_touch=True, is_mobile=True)
    context.add_init_script(f"localStorage.setItem('palio.seats', {json.dumps(json.dumps(held))})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base}/")
    unread = page.locator(f'[data-mine="{game_id}"] .chat-unread')
    unread.wait_for(timeout=WAIT_MS)
    assert unread.inner_text() == "Unread chat: 2"
    page.goto(f"{server.base}/games/{game_id}#token={tokens[0]}")
    page.wait_for_selector("#chat-list li[data-n='3']", state="attached", timeout=WAIT_MS)
    badge = page.locator("#chat-unread")
    assert badge.is_visible() and badge.inner_text() == "Unread chat: 2"  # the chat is far below
    times = page.locator("#chat-list time").all_inner_texts()
    assert len(times) == 3
    assert "ago" not in times[0] and times[0] != "now" and any(c.isdigit() for c in times[0])
    assert times[1] in ("now", "1 minute ago") and times[2] in ("now", "1 minute ago")
    assert page.locator("#chat-list li.unread").count() == 2
    page.screenshot(path=str(SHOTS / "truth-chat-unread.png"))
    badge.click()  # to the chat: once on screen, it is read
    page.wait_for_selector("#chat-unread", state="hidden", timeout=WAIT_MS)
    assert page.locator("#chat-list li.unread").count() == 0
    page.goto(f"{server.base}/")
    page.wait_for_selector(f'[data-mine="{game_id}"]', timeout=WAIT_MS)
    page.wait_for_timeout(500)
    assert page.locator(f'[data-mine="{game_id}"] .chat-unread').count() == 0
    say("another", 1)  # a new one is unread again
    page.reload()
    page.wait_for_selector(f'[data-mine="{game_id}"] .chat-unread', timeout=WAIT_MS)
    assert page.locator(f'[data-mine="{game_id}"] .chat-unread').inner_text() == "Unread chat: 1"
    # Japanese: the same day in relative words
    ja = browser.new_context(locale="ja-JP")
    ja_page = ja.new_page()
    ja_page.goto(f"{server.base}/games/{game_id}#token={tokens[1]}")
    ja_page.wait_for_selector("#chat-list li[data-n='4'] time", timeout=WAIT_MS)
    assert ja_page.locator("#chat-list li[data-n='4'] time").inner_text() in ("今", "1 分前")
    assert errors == []
    context.close()
    ja.close()


PASSWORD = "correct horse battery"


def account_client(server: Any, name: str) -> Any:
    client = httpx.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30)
    reply = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert reply.status_code in (200, 201), reply.text
    return client


def play_to_the_end(clients: list[Any], game_id: str) -> None:
    rng = random.Random(4)
    for _ in range(2000):
        views = [c.get(f"/api/games/{game_id}/view").json() for c in clients]
        if views[0]["status"] == "finished":
            return
        mover = next((c, v) for c, v in zip(clients, views, strict=True) if v["legal"])
        client, view = mover
        notations = [a["notation"] for a in view["legal"]]
        choice = rng.choice([n for n in notations if n != "pass"] or notations)
        reply = client.post(f"/api/games/{game_id}/actions",
                            json={"action": choice, "move_number": view["move_number"]})
        assert reply.status_code == 200, reply.text
    raise AssertionError("the game did not end")


def test_the_profile_lists_finished_games_with_place_and_rating_and_draws_the_history(
        web: Any, browser: Any) -> None:
    ada, bob = account_client(web, "Adaprofile"), account_client(web, "Bobprofile")
    created = web.create(game=SG, players=2, seed=8, rated=True,
                         seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    for seat, client in enumerate((ada, bob)):
        assert client.post(f"/api/games/{game_id}/seats/{seat}/join", json={}).status_code == 200
    play_to_the_end([ada, bob], game_id)
    record = web.http.get(f"/api/games/{game_id}/record").json()
    place = record["result"]["ranks"][0] if "ranks" in record["result"] else None
    for lang, provisional in (("en", "provisional"), ("ja", "暫定")):
        context = browser.new_context(locale={"en": "en-US", "ja": "ja-JP"}[lang])
        context.add_cookies([{"name": c.name, "value": c.value, "url": web.base} for c in ada.cookies.jar])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, seen=errors: seen.append(str(exc)))
        page.goto(f"{web.base}/profile")
        page.wait_for_selector("body[data-ready] #history-panel:not([hidden])", timeout=WAIT_MS)
        row = page.locator(f'#finished-table tr[data-game="{game_id}"]')
        cells = row.locator("td").all_inner_texts()
        assert cells[0] and any(ch.isdigit() for ch in cells[0])  # the date it ended
        if lang == "en":
            assert cells[2] in ("1 of 2", "2 of 2") and (place is None or cells[2] == f"{place} of 2")
        assert cells[3].startswith("1000 → ")  # the first rated game starts at 1000
        graph = page.locator(f'.rating-history[data-game="{SG}"] svg.rating-graph')
        assert graph.get_attribute("data-points") == "2"  # before the game, and after it
        assert graph.locator("circle").count() == 1
        assert provisional in page.locator(f'.rating-now[data-game="{SG}"]').inner_text()
        page.screenshot(path=str(SHOTS / f"truth-profile-{lang}.png"), full_page=True)
        # the public page (server-written): the date and place, and the provisional mark
        page.goto(f"{web.base}/players/Adaprofile?lang={lang}")
        listed = page.locator(f'#games-finished li[data-game="{game_id}"]')
        assert listed.locator("time").inner_text()[:4].isdigit()
        assert listed.locator(".place").inner_text() in (("1.", "2.") if lang == "en" else ("1位", "2位"))
        assert page.locator(f'#ratings tr[data-game="{SG}"] .provisional').inner_text() == provisional
        assert errors == []
        context.close()


def test_a_finished_replay_shows_the_cards_of_the_seat_the_reader_held(web: Any, browser: Any) -> None:
    created = web.create(game=SG, players=2, seed=12, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [web.join(game_id, 0, "Anna"), web.join(game_id, 1, "Ben")]
    clients = [web.client(token) for token in tokens]
    play_to_the_end(clients, game_id)
    held = [{"id": game_id, "game": SG, "seat": 0, "name": "Anna", "token": tokens[0]}]
    shown = {}
    for who, seats in (("seat", held), ("spectator", [])):
        context, page, errors = holding(browser, web.base, "en", seats)
        page.goto(f"{web.base}/games/{game_id}/replay")
        page.wait_for_selector("body[data-ready][data-frame='0']", timeout=WAIT_MS)
        assert page.get_attribute("body", "data-viewer") == who
        shown[who] = [page.locator(f"[data-player='{seat}'] .card:not(.back)").count()
                      for seat in (0, 1)]
        if who == "seat":
            page.screenshot(path=str(SHOTS / "truth-replay-own-seat.png"), full_page=True)
        assert errors == []
        context.close()
    assert shown["seat"][0] == 5 and shown["seat"][1] == 0  # Anna's own five cards, not Ben's
    assert shown["spectator"] == [0, 0]


def signed_in_context(browser: Any, web: Any, client: Any, lang: str = "en") -> tuple[Any, Any, list[str]]:
    context = browser.new_context(locale={"en": "en-US", "ja": "ja-JP"}[lang])
    context.add_cookies([{"name": c.name, "value": c.value, "url": web.base} for c in client.cookies.jar])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def test_a_mail_link_opened_signed_out_says_this_is_your_seat_and_signs_in(web: Any, browser: Any) -> None:
    ada = account_client(web, "Adamail")
    created = web.create(game=SG, players=2, seed=13, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    assert ada.post(f"/api/games/{game_id}/seats/0/join", json={}).status_code == 200
    web.join(game_id, 1, "Ben")
    for lang, said in (("en", "This is your seat (Adamail): sign in to play it."),
                       ("ja", "これはあなたの席です（Adamail）。ログインすると打てます。")):
        context, page, errors = holding(browser, web.base, lang, [])
        page.goto(f"{web.base}/games/{game_id}?seat=0")  # the turn mail's link
        page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
        banner = page.locator("#seat-sign-in")
        assert banner.is_visible() and said in banner.inner_text()
        if lang == "en":
            page.goto(f"{web.base}/games/{game_id}")  # no seat named: it asks
            page.wait_for_selector("body[data-move]", timeout=WAIT_MS)
            assert "Is one of these seats yours?" in page.locator("#seat-sign-in").inner_text()
            page.goto(f"{web.base}/games/{game_id}?seat=0")
            page.wait_for_selector("#seat-sign-in-button", timeout=WAIT_MS)
            page.click("#seat-sign-in-button")
            page.fill("#account-name", "Adamail")
            page.fill("#account-password", PASSWORD)
            page.click("#account-submit")
            page.wait_for_selector("body[data-viewer='seat']", timeout=WAIT_MS)
            assert page.locator("#seat-sign-in").is_hidden()
            assert "(you)" in page.locator('#seats [data-seat="0"]').inner_text()
        assert errors == []
        context.close()


def test_the_invitation_does_not_ask_a_signed_in_player_for_a_name(web: Any, browser: Any) -> None:
    ada = account_client(web, "Adainvite")
    created = web.create(game=SG, players=2, seed=14, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    context, page, errors = signed_in_context(browser, web, ada)
    page.goto(f"{web.base}/?invite={game_id}")
    page.wait_for_selector("body[data-ready] #invited:not([hidden]) [data-join='0']", timeout=WAIT_MS)
    page.wait_for_timeout(300)
    asking = [n for n in page.locator("input:visible").all()
              if n.get_attribute("id") in ("player-name",) or "name" in (n.get_attribute("placeholder") or "").lower()]
    assert asking == [], "a signed-in player is asked for a name"
    invited = page.locator("#invited").inner_text()
    assert "Adainvite" in invited and "name above" not in invited  # it says who will sit
    page.click("#invited [data-join='0']")
    page.wait_for_selector("body[data-viewer='seat']", timeout=WAIT_MS)
    assert web.http.get(f"/api/games/{game_id}").json()["seats"][0]["name"] == "Adainvite"
    assert errors == []
    context.close()
