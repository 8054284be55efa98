"""The review on the replay page in a real Chromium against a real server process: ask for it,
see the chart of each player's chances (axes, legend, marks) and a marked blunder, jump to it
(the board is in view), read the game report; a player's own review shows their cards and their
decisions first; on a phone the marks and controls are 44 px. Both languages, desktop
(1280x800) and phone (390x844), with screenshots in out/screenshots. Hints: percentages in the
given order with reasons, at a practice table only; the one-click bot table is one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.review.test_review import greedy_game
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server
from tests.server.play.test_browser import PHONE, SHOTS, Person

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

BLUNDER_AT = 75  # San Gimignano, seed 2: passing here loses a won game (tests/review)
DESKTOP = {"width": 1280, "height": 800}


def reader(browser: Any, server: Server, game_id: str, lang: str = "en", phone: bool = False,
           token: str | None = None, seat: int | None = None) -> Person:
    """A person on the replay page; with ``token``, this browser holds that seat (as after
    playing it here), so the review is its own."""
    person = Person(browser, server, lang=lang, phone=phone)
    if not phone:
        person.page.set_viewport_size(DESKTOP)
    if token is not None:
        person.open("/")
        person.page.evaluate("([id, seat, token]) => localStorage.setItem('palio.seats', "
                             "JSON.stringify([{ id, seat, token }]))", [game_id, seat, token])
    person.open(f"/games/{game_id}/replay")
    return person


def board_in_view(page: Any) -> bool:
    box = page.evaluate("(() => { const r = document.getElementById('board')"
                        ".getBoundingClientRect(); return [r.top, r.bottom]; })()")
    return box[0] < page.viewport_size["height"] * 0.6 and box[1] > 0


@pytest.fixture(scope="module")
def review_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("review_web")
    server = Server(f"sqlite:///{tmp / 'palio.db'}", 0.0, tmp / "server.log",
                    env={"PALIO_REVIEW_ITERATIONS": "150"})
    server.start()
    yield server
    server.stop()


def play_record(server: Server, actions: list[str]) -> tuple[str, list[str]]:
    created = server.create(game="san-gimignano", players=2, seed=2,
                            seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [server.join(game_id, 0, "Ada"), server.join(game_id, 1, "Bo")]
    for number, notation in enumerate(actions):
        seat = next(v["seat"] for v in (server.view(game_id, t) for t in tokens) if v["legal"])
        reply = server.http.post(f"/api/games/{game_id}/actions",
                                 headers={"Authorization": f"Bearer {tokens[seat]}"},
                                 json={"action": notation, "move_number": number})
        assert reply.status_code == 200, reply.text
    return game_id, tokens


def test_review_a_finished_game_on_the_replay_page(review_web: Server, browser: Any) -> None:
    actions = greedy_game("san-gimignano", 2, 2, stop=BLUNDER_AT, then="pass").notation_history()
    game_id, tokens = play_record(review_web, actions)
    review_web.wait_over(game_id, timeout=10)
    SHOTS.mkdir(parents=True, exist_ok=True)
    viewer = reader(browser, review_web, game_id)
    page = viewer.page
    page.wait_for_selector("#review-button", timeout=WAIT_MS)
    page.click("#review-button")
    page.wait_for_selector("body[data-review=done]", timeout=180_000)
    assert page.locator("#own-view").is_hidden()  # a spectator sees no hidden cards
    chart = page.locator("#review-chart svg")
    assert chart.locator("polyline").count() == 2
    assert chart.locator(".review-marker").count() >= 1
    ticks = chart.locator(".review-tick").all_text_contents()
    assert {"0%", "50%", "100%"} <= set(ticks)
    assert {"Move", "Chance to win"} <= set(chart.locator(".review-axis-title").all_text_contents())
    assert [n.strip() for n in page.locator("#review-legend li").all_inner_texts()] == ["Ada", "Bo"]
    assert page.locator("#review-report .review-player").count() == 2
    assert page.locator("#review-report .review-phases td").count() == 6
    assert "learned" not in page.inner_text("#review") and "iteration" not in page.inner_text("#review")
    blunder = page.locator(f"#review-marked li[data-move='{BLUNDER_AT}']")
    assert blunder.count() == 1
    text = blunder.inner_text()
    assert "Blunder" in text and "Played: Pass (" in text and "Better:" in text and "%)" in text
    page.mouse.wheel(0, 600)
    blunder.locator(".review-jump").click()
    assert page.get_attribute("body", "data-frame") == str(BLUNDER_AT + 1)
    assert "Bo" in page.inner_text("#frame-move")  # the blunder is the second seat's pass
    # the board beside the list, in view, with the list's entry
    assert board_in_view(page)
    board = page.locator("#board").bounding_box()
    listed = page.locator("#review-list").bounding_box()
    assert board["x"] + board["width"] <= listed["x"] + 1, (board, listed)
    page.screenshot(path=str(SHOTS / "review-desktop-en.png"))
    assert page.locator("#review-summary tbody tr").count() == 2
    assert "0 like a choice made at random" in page.inner_text("#review-accuracy-means")
    # the filter: Ada's decisions only
    page.select_option("#review-filter-seat", "0")
    assert page.locator("#review-marked li[data-seat='1']").count() == 0
    page.uncheck("#review-filter-flagged")
    assert page.locator("#review-marked li").count() > 5
    # a marker on the chart jumps too
    page.click("#first")
    page.locator(f"#review-chart .review-marker[data-move='{BLUNDER_AT}']").dispatch_event("click")
    assert page.get_attribute("body", "data-frame") == str(BLUNDER_AT + 1)
    page.locator("#review").screenshot(path=str(SHOTS / "review-chart-en.png"))
    assert not viewer.errors, viewer.errors
    viewer.close()
    # Bo's own review, in Japanese: his cards, his decisions first, the stored review at once
    bo = reader(browser, review_web, game_id, lang="ja", token=tokens[1], seat=1)
    page = bo.page
    page.wait_for_selector("body[data-review=done]", timeout=WAIT_MS)
    assert page.locator("#own-view").is_visible()
    assert page.input_value("#review-filter-seat") == "1"
    assert page.locator("#review-marked li").first.get_attribute("data-seat") == "1"
    assert "悪手" in page.inner_text(f"#review-marked li[data-move='{BLUNDER_AT}']")
    assert "勝ち目" in (page.locator("#review-chart").text_content() or "")
    assert page.locator("#review-report .review-player").first.get_attribute("data-seat") == "1"
    assert "無作為" in page.inner_text("#review-accuracy-means")
    page.locator(f"#review-marked li[data-move='{BLUNDER_AT}'] .review-jump").click()
    assert board_in_view(page)
    page.screenshot(path=str(SHOTS / "review-desktop-ja.png"))
    assert not bo.errors, bo.errors
    bo.close()
    # phones, both languages: marks and controls 44 px, the board scrolled to
    for lang in ("en", "ja"):
        phone = reader(browser, review_web, game_id, lang=lang, phone=True, token=tokens[0],
                       seat=0)
        page = phone.page
        page.wait_for_selector("body[data-review=done]", timeout=WAIT_MS)
        page.wait_for_timeout(200)  # the chart's touch targets are sized after it is drawn
        hit = page.locator(f"#review-chart .review-marker[data-move='{BLUNDER_AT}'] .review-hit")
        assert hit.bounding_box()["width"] >= 43, hit.bounding_box()
        page.screenshot(path=str(SHOTS / f"review-phone-{lang}-top.png"))
        page.select_option("#review-filter-seat", "all")
        jump = page.locator(f"#review-marked li[data-move='{BLUNDER_AT}'] .review-jump")
        jump.scroll_into_view_if_needed()
        assert jump.bounding_box()["height"] >= 44
        assert page.locator("#review-filter-seat").bounding_box()["height"] >= 44
        jump.click()
        assert page.get_attribute("body", "data-frame") == str(BLUNDER_AT + 1)
        assert board_in_view(page)
        assert PHONE["width"] >= page.evaluate("document.documentElement.scrollWidth") - 1
        page.screenshot(path=str(SHOTS / f"review-phone-{lang}-board.png"))
        page.locator("#review-marked").screenshot(path=str(SHOTS / f"review-phone-{lang}-list.png"))
        assert not phone.errors, phone.errors
        phone.close()


def test_a_hint_at_a_practice_table_and_none_elsewhere(review_web: Server,
                                                       browser: Any) -> None:
    for practice in (False, True):
        created = review_web.create(game="san-gimignano", players=2, practice=practice,
                                    seats=[{"kind": "human"}, {"kind": "human"}])
        game_id = created["id"]
        token = review_web.join(game_id, 0, "Ada")
        review_web.join(game_id, 1, "Bo")
        person = Person(browser, review_web)
        person.open(f"/games/{game_id}#token={token}")
        page = person.page
        page.wait_for_selector("#actions button.action", timeout=WAIT_MS)
        if not practice:
            assert page.locator("#hint").is_hidden()
            person.close()
            continue
        page.click("#hint")
        page.wait_for_selector("#hint-choices li", timeout=60_000)
        choices = page.locator("#hint-choices li")
        assert 1 <= choices.count() <= 3
        texts = choices.all_inner_texts()
        assert all("chance to win" in text and "%" in text for text in texts), texts
        shown = [int(p.replace("chance to win ", "").rstrip("%"))
                 for p in page.locator("#hint-choices .hint-percent").all_inner_texts()]
        assert shown == sorted(shown, reverse=True)  # the server's order: best first
        assert page.locator("#hint-choices .hint-reason").count() == choices.count()
        page.locator("#hint-box").screenshot(path=str(SHOTS / "hint-en.png"))
        offered = {page.locator("#actions button.action").nth(i).get_attribute("data-notation")
                   for i in range(page.locator("#actions button.action").count())}
        assert choices.first.get_attribute("data-notation") in offered
        page.wait_for_function(
            "document.getElementById('log').innerText.includes('Hints were used')",
            timeout=WAIT_MS)
        person.close()


def test_the_one_click_bot_table_is_an_unrated_practice_table_with_hints(
        review_web: Server, browser: Any) -> None:
    for lang, word in (("en", "unrated"), ("ja", "レーティングなし")):
        person = Person(browser, review_web, lang=lang)
        page = person.page
        person.open("/")
        page.wait_for_selector("#play-bots", timeout=WAIT_MS)
        assert word in page.inner_text("#play-bots-practice")
        page.select_option("#create-game", "san-gimignano")
        page.click("#play-bots")
        page.wait_for_url("**/games/**", timeout=WAIT_MS)
        page.wait_for_selector("#actions button.action", timeout=WAIT_MS)
        game_id = page.url.split("/games/")[1].split("#")[0].split("?")[0]
        summary = review_web.http.get(f"/api/games/{game_id}").json()
        assert summary["practice"] is True and summary["rated"] is False, summary
        assert page.locator("#hint").is_visible()
        assert word in page.inner_text("#practice-note")  # the table says it is unrated
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"practice-bots-{lang}.png"))
        assert not person.errors, person.errors
        person.close()
