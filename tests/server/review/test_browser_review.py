"""The review on the replay page in a real Chromium against a real server process: ask for it,
see the chart of each player's chances and a marked blunder, jump to it. The Hint button does
not show at a table that is not a practice table."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.review.test_review import greedy_game
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server
from tests.server.play.test_browser import SHOTS, Person

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

BLUNDER_AT = 75  # San Gimignano, seed 2: passing here loses a won game (tests/review)


@pytest.fixture(scope="module")
def review_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("review_web")
    server = Server(f"sqlite:///{tmp / 'palio.db'}", 0.0, tmp / "server.log",
                    env={"PALIO_REVIEW_ITERATIONS": "150"})
    server.start()
    yield server
    server.stop()


def play_record(server: Server, actions: list[str]) -> str:
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
    return game_id


def test_review_a_finished_game_on_the_replay_page(review_web: Server, browser: Any) -> None:
    actions = greedy_game("san-gimignano", 2, 2, stop=BLUNDER_AT, then="pass").notation_history()
    game_id = play_record(review_web, actions)
    review_web.wait_over(game_id, timeout=10)
    viewer = Person(browser, review_web)
    viewer.open(f"/games/{game_id}/replay")
    page = viewer.page
    page.wait_for_selector("#review-button", timeout=WAIT_MS)
    page.click("#review-button")
    page.wait_for_selector("body[data-review=done]", timeout=180_000)
    assert page.locator("#review-chart svg polyline").count() == 2
    assert page.locator("#review-chart svg .review-marker").count() >= 1
    blunder = page.locator(f"#review-marked li[data-move='{BLUNDER_AT}']")
    assert blunder.count() == 1
    text = blunder.inner_text()
    assert "Blunder" in text and "Played: Pass" in text and "Better:" in text
    blunder.locator(".review-jump").click()
    assert page.get_attribute("body", "data-frame") == str(BLUNDER_AT + 1)
    assert "Bo" in page.inner_text("#frame-move")  # the blunder is the second seat's pass
    assert page.locator("#review-summary tbody tr").count() == 2
    # a marker on the chart jumps too
    page.click("#first")
    page.locator(f"#review-chart .review-marker[data-move='{BLUNDER_AT}']").dispatch_event("click")
    assert page.get_attribute("body", "data-frame") == str(BLUNDER_AT + 1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#review").screenshot(path=str(SHOTS / "review-en.png"))
    # reloaded: the stored review shows at once, in Japanese for a Japanese reader
    japanese = Person(browser, review_web, lang="ja")
    japanese.open(f"/games/{game_id}/replay")
    japanese.page.wait_for_selector("body[data-review=done]", timeout=WAIT_MS)
    assert "悪手" in japanese.page.inner_text(f"#review-marked li[data-move='{BLUNDER_AT}']")
    japanese.close()
    viewer.close()


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
        assert "chance" in choices.first.inner_text()
        offered = {page.locator("#actions button.action").nth(i).get_attribute("data-notation")
                   for i in range(page.locator("#actions button.action").count())}
        assert choices.first.get_attribute("data-notation") in offered
        page.wait_for_function(
            "document.getElementById('log').innerText.includes('Hints were used')",
            timeout=WAIT_MS)
        person.close()
