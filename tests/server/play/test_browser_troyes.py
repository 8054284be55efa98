"""Troyes in a real headless Chromium against a real ``palio serve``: a person plays a whole
game against a bot by clicking (board elements where one stands for the choice, the choice
buttons otherwise) in English and in Japanese, the board shows what a player of the physical
game expects, every drawn component carries a tooltip from the glossary, every clickable
element offers only legal choices, and the page fits a phone's width."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.server.conftest import BROWSER_MARKS, Server
from tests.server.play.test_browser import (
    ENGLISH_WORD,
    WAIT_MS,
    Person,
    check_words,
    expected_scores,
    finished,
    no_sideways_scrolling,
    pick,
    shoot,
    shown_scores,
    your_turn,
)

pytestmark = BROWSER_MARKS

MAX_CLICKS = 1500
COMPONENTS = (".ty-building", ".ty-event", ".ty-card", ".ty-cath", ".ty-district", ".ty-die",
              ".ty-char", ".ty-citizen", ".ty-banner", ".ty-space")


def seated(web: Server, players: int, seed: int, bots: int) -> tuple[str, str]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * bots
    seats += [{"kind": "human"}] * (players - 1 - bots)
    created = web.create(game="troyes", players=players, seed=seed, seats=seats)
    return created["id"], web.join(created["id"], 0, "Ada")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_person_plays_a_whole_troyes_game_against_a_bot_by_clicking(web: Server, browser: Any,
                                                                      lang: str) -> None:
    game_id, token = seated(web, 2, seed=4 if lang == "en" else 9, bots=1)
    ada = Person(browser, web, lang)
    ada.open(f"/games/{game_id}?token={token}")
    ada.wait_view()
    page = ada.page
    # the table as a player knows it
    page.wait_for_selector("#buildings .ty-building", timeout=WAIT_MS)
    assert page.locator("#buildings .ty-building").count() == 3
    assert page.locator("#activity-cards .ty-card").count() == 9
    assert page.locator("#cathedral .ty-cath").count() == 18
    assert page.locator("#square .ty-district").count() == 3  # two players and the neutral one
    assert page.locator("#events .ty-event").count() >= 1
    # the initial placement is made by clicking the building spaces themselves
    page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
    assert page.locator("#buildings [data-space].clickable").count() > 0
    rng = random.Random(3)
    clicks = on_board = 0
    deadline = time.monotonic() + 400
    while not finished(ada):
        assert time.monotonic() < deadline, "the game did not end in time"
        assert clicks < MAX_CLICKS, "the game did not end"
        if not your_turn(ada) or not ada.choices():
            time.sleep(0.02)
            continue
        if clicks % 10 == 0:
            check_words(ada)
        notation = pick(ada.choices(), rng)
        if page.locator(f'#board [data-offers="{notation}"]').count():
            on_board += 1
        ada.click(notation)
        clicks += 1
    summary = web.wait_over(game_id, timeout=30)
    assert 0 < clicks < summary["move_number"]  # the bot made the other decisions
    assert on_board > clicks // 4  # many decisions were made on the board itself
    assert [s.removesuffix(".0") for s in shown_scores(ada)] == expected_scores(web, game_id)
    ada.close()


def test_troyes_components_carry_tooltips_and_clicks_map_to_choices(web: Server, browser: Any) -> None:
    created = web.create(game="troyes", players=3, seed=8,
                         seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [web.join(game_id, seat, name) for seat, name in enumerate(["Ada", "Bo", "Cy"])]
    # play the draft and a few actions through the API so the board holds dice, cards, events
    rng = random.Random(2)
    for _ in range(60):
        views = [web.view(game_id, t) for t in tokens]
        mover = next(v for v in views if v["legal"])
        if mover["observation"]["phase"] == "actions" and mover["observation"]["round"] == 1 \
                and mover["observation"]["pending"][-1]["kind"] == "turn" and _ > 40:
            break
        choice = pick([a["notation"] for a in mover["legal"]], rng)
        response = web.http.post(f"/api/games/{game_id}/actions",
                                 headers={"Authorization": f"Bearer {tokens[mover['seat']]}"},
                                 json={"action": choice, "move_number": mover["move_number"]})
        assert response.status_code == 200, response.text
    mover = next(v for v in (web.view(game_id, t) for t in tokens) if v["legal"])
    person = Person(browser, web)
    person.open(f"/games/{game_id}?token={tokens[mover['seat']]}")
    person.wait_view()
    page = person.page
    page.wait_for_selector("#buildings .ty-building", timeout=WAIT_MS)
    # every drawn component says what it is (the page's tooltips read data-tip-title)
    for selector in COMPONENTS:
        for node in page.locator(f"#board {selector}").all():
            assert node.get_attribute("data-tip-title"), selector
    # each clickable element offers only legal choices of this seat
    legal = {a["notation"] for a in web.view(game_id, tokens[mover["seat"]])["legal"]}
    offered = [n.get_attribute("data-offers") for n in page.locator("#board .clickable").all()]
    assert offered, "nothing on the board is clickable on the mover's turn"
    for offers in offered:
        assert set(offers.split("|")) <= legal
    person.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_troyes_fits_a_phone_and_speaks_the_readers_language(web: Server, browser: Any, lang: str) -> None:
    game_id, token = seated(web, 4, seed=6, bots=3)
    person = Person(browser, web, lang, phone=True)
    person.open(f"/games/{game_id}?token={token}")
    person.wait_view()
    page = person.page
    page.wait_for_selector("#buildings .ty-building", timeout=WAIT_MS)
    page.wait_for_timeout(300)
    no_sideways_scrolling(person)
    if lang == "ja":
        english = set(ENGLISH_WORD.findall(page.inner_text("#board"))) - {"Palio", "Ada"}
        assert not english, f"English on the Japanese board: {sorted(english)}"
    shoot(person, f"troyes-{lang}-phone")
    person.close()
    desktop = Person(browser, web, lang)
    desktop.open(f"/games/{game_id}?token={token}")
    desktop.wait_view()
    desktop.page.wait_for_selector("#buildings .ty-building", timeout=WAIT_MS)
    shoot(desktop, f"troyes-{lang}-desktop")
    desktop.close()
