"""The first game in a real Chromium (issue 22, sections 2 and 3): one colour per player in
every part of a page, a key beside every board that explains every symbol drawn, one-click
games against bots, giving an empty seat to a bot, no stray "null", and a phone's controls.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest

import palio
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server
from tests.server.play.test_browser import Person

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

GAMES = list(palio.games())
SECOND_PERSON = {"en": re.compile(r"\b(you|your)\b", re.IGNORECASE),
                 "ja": re.compile(r"あなた")}


def seats_for(game: str) -> int:
    info = palio.get_game(game).info
    return max(info.min_players, min(3, info.max_players))


def bots_game(server: Server, game: str, seed: int = 4, **options: Any) -> str:
    """An all-bot game, played until it is over (bots answer at once on this server)."""
    players = seats_for(game)
    created = server.create(game=game, players=players, seed=seed, options=options,
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
        # the game page has the key too, folded until asked for
        assert person.page.locator("#board-key .key-entry").count() > 0
        assert not person.page.locator("#board-key .key-entry").first.is_visible()
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


def test_play_against_bots_in_one_click(web: Server, browser: Any) -> None:
    for lang in ("en", "ja"):
        person = Person(browser, web, lang)
        page = person.page
        person.open("/")
        page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
        # the form's own default is you against bots, too: a friend's seat is a choice
        page.select_option("#create-game", "tiletum")
        page.select_option("#create-players", "3")
        assert page.input_value("#seat-kind-0") == "human"
        assert page.input_value("#seat-kind-1").startswith("bot:")
        assert page.input_value("#seat-kind-2").startswith("bot:")
        page.click("#play-bots")
        page.wait_for_url("**/games/*#token=*", timeout=WAIT_MS)
        page.wait_for_selector("body[data-status='running'][data-viewer='seat']", timeout=WAIT_MS)
        game_id = page.url.split("/games/")[1].split("#")[0]
        seats = web.http.get(f"/api/games/{game_id}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
        assert page.locator("#seats .seat-chip.me[data-seat='0']").count() == 1
        person.close()


def test_no_null_and_the_creator_gives_a_seat_to_a_bot(web: Server, browser: Any) -> None:
    ada = Person(browser, web, "ja")
    page = ada.page
    ada.open("/")
    page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    page.select_option("#create-game", "san-gimignano")
    page.select_option("#seat-kind-1", "human")  # a seat for a friend
    page.click("#create-submit")
    page.wait_for_selector("#created .invite-link", timeout=WAIT_MS)
    assert "null" not in page.inner_text("#created")
    game_id = page.inner_text("#created code")
    page.click("#created [data-join='0']")
    page.wait_for_selector("#waiting:not([hidden]) [data-bot-seat='1']", timeout=WAIT_MS)
    assert "null" not in page.inner_text("#waiting")
    # another browser (a player who did not create the game) has no such button
    bo = Person(browser, web, "en")
    bo.open(f"/games/{game_id}")
    bo.wait_view()
    assert bo.page.locator("[data-bot-seat]").count() == 0
    page.click("[data-bot-seat='1']")
    page.wait_for_selector("body[data-status='running']", timeout=WAIT_MS)
    seat = web.http.get(f"/api/games/{game_id}").json()["seats"][1]
    assert seat["kind"] == "bot" and seat["taken"]
    bo.page.wait_for_selector("body[data-status='running']", timeout=WAIT_MS)
    ada.close()
    bo.close()


# -- the key ------------------------------------------------------------------------------------
# every text drawn on the board, step by step through a whole game's replay
BOARD_TEXTS = """() => {
  const slider = document.getElementById('slider');
  const seen = new Set();
  const steps = [];
  for (let i = 0; i <= Number(slider.max); i += 1) {
    slider.value = String(i);
    slider.dispatchEvent(new Event('input'));
    steps.push([document.getElementById('frame-move').textContent,
      document.getElementById('step-log').textContent]);
    const walk = document.createTreeWalker(document.getElementById('board'), NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const text = walk.currentNode.textContent.trim();
      if (text) seen.add(text);
    }
  }
  return { texts: [...seen], steps };
}"""
# punctuation any reader knows; everything else that is not a word or a number is a symbol
ORDINARY = set(".,:;()-–−—·'\"!?%+→、。・（）：「」＋／")
JAPANESE_SCRIPT = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uff10-\uff19\uff21-\uff5a]")
GLUED = re.compile(r"(?<![^\W\d])\d+([A-Za-z]{1,2})(?![^\W\d])|(?<!\w)([A-Za-z])\d+")
ABBREVIATION = re.compile(r"(?<![^\W\d])([A-Z]{1,3})(?![^\W\d])")


def symbols_in(text: str) -> set[str]:
    """The symbols in a drawn text: signs (÷ × ◆ ⌂ ② /...), letters of no word (Σ ƒ),
    letters glued to numbers (5d, L9) and capital abbreviations (VP)."""
    found = set()
    for char in text:
        kind = unicodedata.category(char)
        if char.isspace() or char in ORDINARY or JAPANESE_SCRIPT.match(char):
            continue
        if char.isascii() and (char.isalnum()):
            continue
        if kind.startswith("L") and ord(char) < 0x180:  # accented Latin letters of names (ö)
            continue
        found.add(char)
    for match in GLUED.finditer(text):
        found.add(match.group(1) or match.group(2))
    found.update(ABBREVIATION.findall(text))
    return found


def test_the_key_explains_every_symbol_on_every_board(web: Server, browser: Any) -> None:
    names = {"Ada", "Bo"}
    lacking: list[str] = []
    # every game, and San Gimignano with its noble cards too
    for game, options in [(game, {}) for game in GAMES] + [("san-gimignano", {"nobles": True})]:
        game_id = bots_game(web, game, seed=6, **options)
        for lang in ("en", "ja"):
            person = Person(browser, web, lang)
            page = person.page
            person.open(f"/games/{game_id}/replay")
            page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
            seat_names = set(page.evaluate(
                "() => [...document.querySelectorAll('#seats .seat-chip, .scores td')].map((n) => n.textContent)"))
            drawn = page.evaluate(BOARD_TEXTS)
            texts = drawn["texts"]
            legend = web.http.get(f"/api/catalog/{game}/legend?lang={lang}").json()
            key = legend["key"]
            # names of components are words ("Henry I", a tile's name): not symbols
            # (and what a tile gives its owner, "Helper: 2 resources of your choice", addresses
            # no reader: the log names it without its kind)
            names_given = {g["name"] for g in legend["glossary"].values() if g["name"]}
            names_given |= {n.split(": ", 1)[1] for n in names_given if ": " in n}
            words = sorted(names_given, key=len, reverse=True)
            # the replay's words too: every step says what happened, in the third person
            messages = web.http.get(f"/api/i18n/{lang}").json()["messages"]
            nothing = messages["ui.replay.nothing_logged"]
            for headline, step_log in drawn["steps"][1:]:
                assert headline.strip() and step_log.strip() and nothing not in step_log
                printed = headline
                for word in words:  # a tile's printed name ("... of your choice") is no address
                    printed = printed.replace(word, " ")
                assert not SECOND_PERSON[lang].search(printed), headline
            explained = {symbol for entry in key for symbol in entry["symbols"]}
            for entry in key:
                assert entry["text"].strip() and not entry["text"].startswith("board."), entry
                if lang == "ja":
                    assert JAPANESE_SCRIPT.search(entry["text"]), entry
            unexplained: dict[str, str] = {}
            for text in texts:
                if text in names or text in seat_names:
                    continue
                for word in words:
                    text = text.replace(word, " ")
                for symbol in symbols_in(text) - explained:
                    unexplained.setdefault(symbol, text)
            if unexplained:
                lacking.append(f"{game} ({lang}): the key lacks {unexplained}")
            # the key opens beside the board, its entries drawn with the board's own signs
            if key:
                page.click("#board-key summary")
                assert page.locator("#board-key .key-entry").count() == len(key)
                assert page.locator("#board-key .key-entry").first.is_visible()
            person.close()
    assert not lacking, "\n".join(lacking)


# -- a phone ------------------------------------------------------------------------------------
SMALL_CONTROLS = """() => [...document.querySelectorAll('button, select, input, a.button')]
  .filter((n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden')
  .map((n) => [n.outerHTML.slice(0, 70), n.getBoundingClientRect().height])
  .filter(([, height]) => height < 43.5)"""
# the action buttons a tapped one's explanation would hide: those not on top at their centre
COVERED = """() => [...document.querySelectorAll('#actions button.action:not(.armed)')].filter((b) => {
  const r = b.getBoundingClientRect();
  if (r.bottom < 0 || r.top > window.innerHeight || !r.width) return false;  // scrolled away
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top && !b.contains(top);
}).map((b) => b.dataset.notation)"""


def test_a_phone_explains_each_kind_of_choice_once_and_every_control_fits_a_finger(
        web: Server, browser: Any) -> None:
    created = web.create(game="san-gimignano", players=2, seed=9,
                         seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    token = web.join(created["id"], 0, "Ada")
    ada = Person(browser, web, "ja", phone=True)
    page = ada.page
    ada.open(f"/games/{created['id']}?token={token}")
    page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
    assert not page.evaluate(SMALL_CONTROLS), page.evaluate(SMALL_CONTROLS)
    tapped: set[str] = set()
    explained_once = False
    for _ in range(12):
        page.wait_for_selector("body[data-your-turn='1']:not([data-busy])", timeout=WAIT_MS)
        page.evaluate("window.scrollTo(0, 0)")
        before = ada.move()
        choices = ada.choices()
        again = [n for n in choices if n.split()[0] in tapped]
        notation = again[0] if again else choices[0]
        button = page.locator(f'#actions button[data-notation="{notation}"]')
        button.tap()
        if notation.split()[0] in tapped:  # explained before: one tap plays it
            page.wait_for_function(f"document.body.dataset.move !== '{before}'", timeout=WAIT_MS)
            explained_once = True
            continue
        # the first tap explains it in the button itself; no tooltip lies over the other choices
        assert page.locator("#choice-explain").is_visible()
        assert button.locator(".action-explain").is_visible()
        assert page.locator("#tip:not([hidden])").count() == 0
        assert not page.evaluate(COVERED), page.evaluate(COVERED)
        assert ada.move() == before
        button.tap()
        page.wait_for_function(f"document.body.dataset.move !== '{before}'", timeout=WAIT_MS)
        tapped.add(notation.split()[0])
        if explained_once:
            break
    assert explained_once, "no kind of choice came twice"
    ada.close()

    # the lobby and a replay: every control a finger's size too
    person = Person(browser, web, "en", phone=True)
    person.open("/")
    person.page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    assert not person.page.evaluate(SMALL_CONTROLS), person.page.evaluate(SMALL_CONTROLS)
    finished = bots_game(web, "san-gimignano")
    person.open(f"/games/{finished}/replay")
    person.page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    assert not person.page.evaluate(SMALL_CONTROLS), person.page.evaluate(SMALL_CONTROLS)
    person.close()


def test_tiletum_king_track_fits_a_phone(web: Server, browser: Any) -> None:
    created = web.create(game="tiletum", players=2, seed=5,
                         seats=[{"kind": "human"}, {"kind": "human"}])
    person = Person(browser, web, "ja", phone=True)
    person.open(f"/games/{created['id']}")
    person.wait_view()
    cells = person.page.evaluate("""() => [...document.querySelectorAll('.king-cell')].map((c) => {
      const r = c.getBoundingClientRect(); return [r.left, r.right]; })""")
    assert len(cells) > 10
    width = person.page.evaluate("window.innerWidth")
    assert all(left >= 0 and right <= width for left, right in cells), (width, cells)
    assert not person.page.evaluate(SMALL_CONTROLS), person.page.evaluate(SMALL_CONTROLS)
    person.close()
