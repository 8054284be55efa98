"""The browser client in a real headless Chromium (Debian's, never `playwright install`) against
a real server and SQLite file, in English and Japanese: a whole San Gimignano game and two
Tiletum rounds played by clicking, a bot opponent on a phone, spectators, reload, invitations,
error pages, the language chooser, and the replay viewer.

What a person reads is checked as they would see it: no raw notation in the choices or the
log, an explanation for every choice, a tooltip on every drawn component, Japanese text in
Japanese, and no sideways scrolling at 390 px. Screenshots of each game page in each language
at desktop and phone size are written to ``out/screenshots/`` (git ignores ``out/``).
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import palio
from tests.server.conftest import BROWSER_MARKS, WAIT_MS, Server

pytestmark = BROWSER_MARKS
pytest.importorskip("playwright.sync_api")

SG = "san-gimignano"
TT = "tiletum"
MAX_CLICKS = 600
DESKTOP = {"width": 1300, "height": 900}
PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "ja": "ja-JP"}
SHOTS = Path(__file__).parents[3] / "out" / "screenshots"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ENGLISH_WORD = re.compile(r"\b[A-Za-z]{4,}\b")
# Latin names printed on a board, which the Japanese rulebook itself quotes beside its own words
# (アクイレイア: 市場 (MERCATUS), 詐欺師 (DOLUS), 盗人(Latro)...)
PRINTED_LATIN = {"aquileia": {"mercatus", "arena", "stadium", "theatrum", "forum", "portus", "dolus",
                              "pecunia", "equi", "arma", "servi", "potentia", "latro"}}


class Person:
    """One browser context (its own localStorage, language and screen) and page; script
    errors are collected. ``lang`` sets the browser's language (Accept-Language)."""

    def __init__(self, browser: Any, server: Server, lang: str = "en", phone: bool = False) -> None:
        self.server = server
        self.lang = lang
        self.phone = phone
        options: dict[str, Any] = {"viewport": PHONE if phone else DESKTOP, "locale": LOCALES[lang]}
        if phone:
            options.update(has_touch=True, is_mobile=True)
        self.context = browser.new_context(**options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.notations: set[str] = set()  # every notation offered to this person so far

    def open(self, path: str) -> None:
        self.page.goto(self.server.base + path)

    def move(self) -> int:
        return int(self.page.get_attribute("body", "data-move") or -1)

    def wait_view(self) -> None:
        self.page.wait_for_selector("body[data-move]", timeout=WAIT_MS)

    def choices(self) -> list[str]:
        found = [b.get_attribute("data-notation") for b in
                 self.page.locator("#actions button.action").all()]
        self.notations.update(found)
        return found

    def click(self, notation: str, on_board: bool = True) -> None:
        """Play ``notation``: on the board when a drawn element offers it (through the chooser
        when the element offers several), else with its button."""
        before = self.move()
        page = self.page
        single = page.locator(f'#board [data-offers="{notation}"]')
        several = [node for node in page.locator("#board [data-offers*='|']").all()
                   if notation in (node.get_attribute("data-offers") or "").split("|")]
        if on_board and single.count():
            single.first.click()
        elif on_board and several:
            several[0].click()
            page.locator(f'#chooser button[data-notation="{notation}"]').click()
        elif self.phone:  # a finger: the first tap on a kind of choice shows what it does (in
            # the button), the second plays; a kind explained before plays at the first tap
            button = page.locator(f'#actions button[data-notation="{notation}"]')
            button.tap()
            if page.locator("#choice-explain").is_visible():
                assert button.locator(".action-explain").is_visible()
                button.tap()
        else:
            page.locator(f'#actions button[data-notation="{notation}"]').click()
        page.wait_for_function(f"document.body.dataset.move !== '{before}'", timeout=WAIT_MS)

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


def pick(notations: list[str], rng: random.Random) -> str:
    """A seeded random choice that avoids passing (or ending a turn early, half the time)
    while anything else is possible, so games neither end on two passes nor crawl."""
    others = [n for n in notations if n != "pass"]
    if "end" in others and rng.random() < 0.5:
        return "end"
    return rng.choice(others or notations)


def your_turn(person: Person) -> bool:
    return person.page.get_attribute("body", "data-your-turn") == "1" and \
        person.page.get_attribute("body", "data-busy") is None


def finished(person: Person) -> bool:
    return person.page.get_attribute("body", "data-status") == "finished"


def play(people: list[Person], rng: random.Random, done: Any, check_every: int = 8) -> int:
    """Click legal choices in whichever page may move until ``done()``; the click count. The
    words on the mover's page are checked every ``check_every`` clicks."""
    clicks = 0
    deadline = time.monotonic() + 240  # a guard against a hang, far above the usual run
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        assert clicks < MAX_CLICKS, "the game did not get there"
        mover = next((p for p in people if your_turn(p)), None)
        if mover is None:
            time.sleep(0.02)  # a push or a bot is on its way
            continue
        notations = mover.choices()
        if clicks % check_every == 0:
            check_words(mover)
        mover.click(pick(notations, rng), on_board=clicks % 2 == 0)
        clicks += 1
    return clicks


# -- what a person reads -------------------------------------------------------------------------
def shown(person: Person) -> dict[str, Any]:
    return person.page.evaluate("""() => ({
      choices: [...document.querySelectorAll('#actions button.action')].map((b) => ({
        notation: b.dataset.notation, label: b.querySelector('.action-label').textContent,
        explain: b.dataset.tip || '', group: b.closest('.action-group').querySelector('.group-name')?.textContent || ''})),
      log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
      prompt: document.getElementById('prompt').textContent,
      names: [...document.querySelectorAll('#seats .seat-chip')].map((c) => c.textContent),
    })""")


def notation_like(notation: str) -> bool:
    """Notation no sentence would contain: codes glued to numbers (1g, b1, L9), separators
    (die 1g>2, build 6,7,8, house Paris.1), single letters (exchange i s) or three words
    (move arch Brugge). "put 6" could be English, so it is not looked for."""
    tokens = notation.split()
    return bool(re.search(r"[>,.:=]|\d[a-zA-Z]|[a-zA-Z]\d", notation)) or len(tokens) >= 3 \
        or any(len(t) == 1 and t.isalpha() for t in tokens)


def check_words(person: Person) -> None:
    """The choices, prompt and log as the person sees them: plain words in their language."""
    seen = shown(person)
    assert seen["prompt"].strip(), "no prompt"
    for choice in seen["choices"]:
        label, explain = choice["label"].strip(), choice["explain"].strip()
        assert label and explain, f"{choice['notation']}: a choice without words or explanation"
        assert label != choice["notation"]
        if notation_like(choice["notation"]):
            assert choice["notation"] not in label + explain, f"raw notation in {label!r}"
        if person.lang == "ja":
            assert JAPANESE.search(label) and JAPANESE.search(explain), (label, explain)
    raw = {n for n in person.notations if notation_like(n)}
    for line in seen["log"]:
        assert not any(n in line for n in raw), f"raw notation in the log: {line!r}"
        assert not re.search(r"\b[Ss]eat \d", line) and "null" not in line and "undefined" not in line
        if person.lang == "ja":
            english = [w for w in ENGLISH_WORD.findall(line) if w not in NAMES]
            assert not english, f"English in a Japanese log line: {line!r}"


NAMES = {"Ada", "Bo"}


def check_tooltips(person: Person, selector: str, at_least: int) -> None:
    """Every element ``selector`` matches on the board has a tooltip (name or text)."""
    page = person.page
    nodes = page.locator(f"#board :is({selector})")
    count = nodes.count()
    assert count >= at_least, f"only {count} of {selector}"
    lacking = page.evaluate(f"""() => [...document.querySelectorAll('#board :is({selector})')]
        .filter((n) => !(n.dataset.tip || n.dataset.tipTitle)).map((n) => n.outerHTML.slice(0, 80))""")
    assert not lacking, lacking[:5]
    # hovering one shows it, and so does a tap on a phone (on one that plays nothing). A new
    # position (a bot's move pushed meanwhile) rightly clears the tip and redraws the board: then
    # the same gesture is tried again on the new board, never more than a few times.
    for _ in range(4):
        move = page.get_attribute("body", "data-move")
        # one that plays nothing itself nor through a part of the board around it (a tap there
        # opens that part's choices instead, rightly)
        quiet = page.locator(f"#board :is({selector}):not(.clickable, .clickable *, button *)").last
        if person.phone:
            quiet.tap()
        else:
            quiet.hover()
        try:
            page.wait_for_selector("#tip:not([hidden])", timeout=WAIT_MS)
            break
        except PlaywrightTimeout:
            if page.get_attribute("body", "data-move") == move:
                raise  # the position stood still and the tip never came: a real fault
    assert page.inner_text("#tip").strip()


def no_sideways_scrolling(person: Person) -> None:
    width = person.page.evaluate("document.documentElement.scrollWidth")
    inner = person.page.evaluate("window.innerWidth")
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"


def shoot(person: Person, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    person.page.evaluate("window.scrollTo(0, 0)")
    person.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=not person.phone)
    if person.phone:
        person.page.screenshot(path=str(SHOTS / f"{name}-full.png"), full_page=True)


# -- the lobby -----------------------------------------------------------------------------------
def create_in_lobby(person: Person, game: str, seats: list[str], seed: int) -> str:
    page = person.page
    person.open("/")
    page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    page.select_option("#create-game", game)
    page.select_option("#create-players", str(len(seats)))
    page.fill("#create-seed", str(seed))
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-kind-{seat}", kind)
    page.click("#create-submit")
    page.wait_for_selector("#created code", timeout=WAIT_MS)
    return page.inner_text("#created code")


def set_name(person: Person, name: str) -> None:
    person.page.fill("#player-name", name)
    person.page.dispatch_event("#player-name", "change")


def shown_scores(person: Person) -> list[str]:
    person.page.wait_for_selector("#scores", timeout=WAIT_MS)
    return [row.inner_text().split("\t")[-1].strip()
            for row in person.page.locator("#scores tbody tr").all()]


def expected_scores(server: Server, game_id: str) -> list[str]:
    view = server.view(game_id)
    return [str(view["scores"][seat]).removesuffix(".0") for seat in view["ranking"]]


def check_breakdown(person: Person, server: Server, game_id: str) -> None:
    """The score breakdown per category for every player, in view when the game ended."""
    page = person.page
    page.wait_for_selector("#score-breakdown", timeout=WAIT_MS)
    table = server.view(game_id)["score_table"]
    rows = page.locator("#score-breakdown tbody tr")
    assert rows.count() == len(table["rows"]) + 1  # the categories, then the totals
    assert page.locator("#score-breakdown thead th").count() == 1 + len(table["totals"])
    totals = rows.last.inner_text().split("\t")[1:]
    assert [t.strip() for t in totals] == [str(t) for t in table["totals"]]
    top = page.evaluate("document.getElementById('result').getBoundingClientRect().top")
    assert -2 <= top < page.evaluate("window.innerHeight"), "the result was not scrolled into view"


# -- whole games by clicking ---------------------------------------------------------------------
def test_a_whole_san_gimignano_game_by_clicking_in_english_and_japanese(web: Server, browser: Any) -> None:
    """Ada's browser speaks English, Bo's Japanese; Bo joins through Ada's invite link."""
    ada, bo = Person(browser, web, "en"), Person(browser, web, "ja")
    game_id = create_in_lobby(ada, SG, ["human", "human"], seed=11)
    invite = ada.page.input_value("#created .invite-link")
    set_name(ada, "Ada")
    ada.page.click("#created [data-join='0']")
    # the join link carries the token in its fragment, which no request sends
    ada.page.wait_for_url(f"**/games/{game_id}#token=*", timeout=WAIT_MS)
    ada.wait_view()
    # seats are open: the page waits for players and offers the invite link
    assert ada.page.is_visible("#waiting #invite-link")
    assert ada.page.input_value("#invite-link") == invite
    assert "Waiting for players" in ada.page.inner_text("#prompt")
    assert ada.page.locator("#seats .turn-mark").count() == 0

    bo.page.goto(invite)
    bo.page.wait_for_selector("#invited:not([hidden]) [data-join='1']", timeout=WAIT_MS)
    assert "招待" in bo.page.inner_text("#invited")
    set_name(bo, "Bo")
    bo.page.click("#invited [data-join='1']")
    bo.page.wait_for_url(f"**/games/{game_id}#token=*", timeout=WAIT_MS)
    for person in (ada, bo):
        person.page.wait_for_selector("body[data-status='running']", timeout=WAIT_MS)
    assert "Ada" in bo.page.inner_text("#seats") and "Bo" in ada.page.inner_text("#seats")
    assert bo.page.get_attribute("html", "lang") == "ja"
    assert ada.page.is_hidden("#waiting")

    clicks = play([ada, bo], random.Random(7), done=lambda: finished(ada) and finished(bo))
    summary = web.wait_over(game_id, timeout=10)
    assert clicks == summary["move_number"] > 10  # every move was a click; not two passes
    want = expected_scores(web, game_id)
    for person in (ada, bo):
        assert [s.removesuffix(".0") for s in shown_scores(person)] == want
        check_breakdown(person, web, game_id)
        check_words(person)
    assert "合計" in bo.page.inner_text("#score-breakdown")
    # the lobby keeps the seat: "My games" leads back to it
    ada.open("/")
    ada.page.wait_for_selector(f"#my-games [data-mine='{game_id}']", timeout=WAIT_MS)
    ada.close()
    bo.close()


def test_two_tiletum_rounds_by_clicking_in_english_and_japanese(web: Server, browser: Any) -> None:
    created = web.create(game=TT, players=2, seed=5, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [web.join(game_id, 0, "Ada"), web.join(game_id, 1, "Bo")]
    ada, bo = Person(browser, web, "en"), Person(browser, web, "ja")
    for person, token in zip((ada, bo), tokens, strict=True):
        person.open(f"/games/{game_id}?token={token}")
        person.wait_view()
    page = ada.page
    assert page.locator("#wheel .wheel-area").count() == 6
    assert page.locator("#wheel .die").count() > 0
    assert page.locator("#map svg .spot").count() >= 23
    assert page.locator(".tt-player").count() == 2
    for person in (ada, bo):
        check_tooltips(person, ".die, .tile:not(.empty), .king-cell, .town-dot, .road-dot, [data-house], .res", 80)

    def round_three() -> bool:
        return web.view(game_id)["observation"]["round"] >= 3

    clicks = play([ada, bo], random.Random(1), done=round_three)
    assert clicks > 20
    for person in (ada, bo):
        person.page.wait_for_selector(f"body[data-move='{web.view(game_id)['move_number']}']", timeout=WAIT_MS)
        check_words(person)
    assert "ラウンド3" in bo.page.inner_text("#board")
    ada.close()
    bo.close()


def test_a_phone_game_against_a_bot_by_tapping(web: Server, browser: Any) -> None:
    """390 x 844, a touch screen: the choices sit in a fixed bar above the board, a first tap
    explains a choice and a second plays it, and nothing scrolls sideways."""
    ada = Person(browser, web, "ja", phone=True)
    game_id = create_in_lobby(ada, SG, ["bot:easy", "human"], seed=3)
    no_sideways_scrolling(ada)
    ada.page.click("#created [data-join='1']")
    ada.wait_view()
    page = ada.page
    page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
    assert page.evaluate("getComputedStyle(document.getElementById('turn-bar')).position") == "fixed"
    rng = random.Random(5)
    for _ in range(8):
        page.wait_for_selector("body[data-your-turn='1']:not([data-busy])", timeout=WAIT_MS)
        page.evaluate("window.scrollTo(0, 0)")
        first = page.locator("#actions button.action").first.bounding_box()
        assert first is not None and first["y"] >= 0 and first["y"] + first["height"] <= PHONE["height"]
        no_sideways_scrolling(ada)
        check_words(ada)
        ada.click(pick(ada.choices(), rng), on_board=False)
    page.wait_for_selector("body[data-your-turn='1']:not([data-busy])", timeout=WAIT_MS)  # the bot has moved
    check_tooltips(ada, ".card:not(.back)", 4)
    assert web.view(game_id)["move_number"] >= 8
    ada.close()


# -- the language ----------------------------------------------------------------------------------
def test_the_language_chooser_works_and_is_remembered(web: Server, browser: Any) -> None:
    person = Person(browser, web, "en")
    page = person.page
    person.open("/")
    page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    assert page.get_attribute("html", "lang") == "en" and "New game" in page.inner_text("main")
    page.select_option("#lang-chooser", "ja")
    page.wait_for_selector("html[lang='ja'] body[data-ready]", timeout=WAIT_MS)
    assert "新しいゲーム" in page.inner_text("main")
    # the page's text without game ids (random letters, which may spell no word of any language)
    lobby_text = page.evaluate("""() => { const copy = document.body.cloneNode(true);
      copy.querySelectorAll('code').forEach((c) => c.remove()); return copy.innerText; }""")
    assert not [w for w in ENGLISH_WORD.findall(lobby_text) if w not in {"Palio", "English", "MCTS"}], lobby_text
    assert "null" not in lobby_text and "undefined" not in lobby_text
    # remembered: another page, opened without ?lang=, speaks Japanese, over the socket too
    created = web.create(game=SG, players=2, seed=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    person.open(f"/games/{created['id']}")
    person.wait_view()
    assert page.get_attribute("html", "lang") == "ja"
    assert "lang=ja" in sockets[-1]
    assert JAPANESE.search(page.inner_text("#board")) and JAPANESE.search(page.inner_text("#prompt"))
    assert page.is_hidden("#actions-panel")  # a spectator has no choices panel
    page.reload()
    person.wait_view()
    assert page.get_attribute("html", "lang") == "ja"
    # the rules page, server-written, follows the choice too and opens at a section
    with person.context.expect_page() as opened:
        page.click("#rules-link")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.get_attribute("html", "lang") == "ja" and "目次" in rules.inner_text("body")
    rules.close()
    # and back to English
    page.select_option("#lang-chooser", "en")
    page.wait_for_selector("html[lang='en'] body[data-move]", timeout=WAIT_MS)
    person.open("/")
    page.wait_for_selector("html[lang='en'] body[data-ready]", timeout=WAIT_MS)
    person.close()


def test_the_browser_language_is_the_default(web: Server, browser: Any) -> None:
    person = Person(browser, web, "ja")
    person.open("/")
    person.page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    assert person.page.get_attribute("html", "lang") == "ja"
    assert person.page.input_value("#lang-chooser") == "ja"
    person.close()


# -- screenshots -----------------------------------------------------------------------------------
def test_screenshots_of_each_game_page_in_each_language_and_size(web: Server, browser: Any) -> None:
    """Every game in play (a bot has moved, so the log and the highlight have something),
    drawn for a seated player in each language at desktop and phone size."""
    games = {}
    for game, info in ((g, palio.get_game(g).info) for g in palio.games()):
        seats = max(info.min_players, min(3, info.max_players))
        created = web.create(game=game, players=seats, seed=4,
                             seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (seats - 1))
        token = web.join(created["id"], 0, "Ada")
        rng = random.Random(2)
        for _ in range(30):  # play into the game: the person moves, the bots answer
            view = web.view(created["id"], token)
            if view["legal"] and view["observation"].get("round", 1) == 1 and view["move_number"] < 24:
                choice = pick([a["notation"] for a in view["legal"]], rng)
                web.http.post(f"/api/games/{created['id']}/actions", headers={"Authorization": f"Bearer {token}"},
                              json={"action": choice, "move_number": view["move_number"]})
            else:
                time.sleep(0.05)
        games[game] = f"/games/{created['id']}?token={token}"
    for game, path in games.items():
        for lang in ("en", "ja"):
            for phone in (False, True):
                person = Person(browser, web, lang, phone=phone)
                person.open(path)
                person.wait_view()
                person.page.wait_for_timeout(300)  # the map centres itself
                no_sideways_scrolling(person)
                assert person.page.get_attribute("html", "lang") == lang
                if lang == "ja":  # every word on the page is Japanese, but names and the brand
                    text = person.page.inner_text("body")
                    english = {w for w in set(ENGLISH_WORD.findall(text)) - {"Palio", "English", "MCTS"} - NAMES
                               if w.lower() not in PRINTED_LATIN.get(game, set())}
                    assert not english, f"{game}: English on a Japanese page: {sorted(english)}"
                shoot(person, f"{game}-{lang}-{'phone' if phone else 'desktop'}")
                person.close()
    names = sorted(p.name for p in SHOTS.glob("*.png"))
    for game in games:
        for lang in ("en", "ja"):
            assert f"{game}-{lang}-desktop.png" in names and f"{game}-{lang}-phone.png" in names


# -- spectators, reload, chooser, errors ------------------------------------------------------------
def api_play(server: Server, game_id: str, tokens: list[str], moves: int, rng: random.Random) -> None:
    """Random legal moves through the REST API, for the seat whose turn it is."""
    for _ in range(moves):
        views = [server.view(game_id, token) for token in tokens]
        mover = next((v for v in views if v["legal"]), None)
        if mover is None:
            return
        choice = pick([a["notation"] for a in mover["legal"]], rng)
        response = server.http.post(f"/api/games/{game_id}/actions",
                                    headers={"Authorization": f"Bearer {tokens[mover['seat']]}"},
                                    json={"action": choice, "move_number": mover["move_number"]})
        assert response.status_code == 200, response.text


def keys_named(key: str, value: Any) -> list[Any]:
    """Every value stored under ``key`` anywhere inside a JSON value."""
    if isinstance(value, dict):
        found = [v for k, v in value.items() if k == key]
        return found + [x for v in value.values() for x in keys_named(key, v)]
    if isinstance(value, list):
        return [x for v in value for x in keys_named(key, v)]
    return []


def own_hand_line(line: str) -> bool:
    """How the English text view lists a seat's own hand: "hand, 5 of 7: 5, 7, 9" (another
    seat's hand shows its size, and the cards of it that are known, after "known:")."""
    text = line.strip()
    return text.startswith("hand, ") and ": " in text and "known:" not in text


def test_a_spectator_never_gets_a_hand(web: Server, browser: Any) -> None:
    created = web.create(game=SG, players=2, seed=21, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [web.join(game_id, 0, "Ada"), web.join(game_id, 1, "Bo")]
    watcher = Person(browser, web)
    frames: list[str] = []
    watcher.page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    watcher.open(f"/games/{game_id}")
    watcher.wait_view()
    api_play(web, game_id, tokens, 30, random.Random(2))
    final = web.view(game_id)["move_number"]
    watcher.page.wait_for_selector(f"body[data-move='{final}']", timeout=WAIT_MS)

    hands = [web.view(game_id, token)["observation"]["players"][seat]["hand"]
             for seat, token in enumerate(tokens)]
    assert any(hands), "the test needs cards in hand to look for"
    hand_lines = [line for token in tokens for line in web.view(game_id, token)["text"].splitlines()
                  if own_hand_line(line)]
    assert len(hand_lines) == 2
    page = watcher.page
    assert page.locator(".hand-card, .own-hand").count() == 0
    assert page.is_hidden("#actions-panel") and page.is_visible("#prompt")
    spectator = web.view(game_id)["observation"]["players"]
    for seat, player in enumerate(spectator):
        area = page.locator(f"[data-player='{seat}'] [data-hand-size]")
        faces = [c.get_attribute("data-card") for c in area.locator(".card:not(.back)").all()]
        assert sorted(faces) == sorted(player["known_hand"])  # only the public cards
        assert area.locator(".card.back").count() == len(hands[seat]) - len(player["known_hand"])
    assert len(frames) >= 2
    for payload in frames:
        view = json.loads(payload)["view"]
        assert view["seat"] is None and view["legal"] == []
        assert not keys_named("hand", view)
        assert not any(p.startswith(("players.0.hand.", "players.1.hand."))
                       for p in (view["recent"] or {}).get("paths", []))
        assert not any(own_hand_line(line) for line in view["text"].splitlines())
        assert not any(line in view["text"] for line in hand_lines)
    watcher.close()


def test_reload_restores_the_view(web: Server, browser: Any) -> None:
    created = web.create(game=SG, players=2, seed=8, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [web.join(game_id, 0, "Ada"), web.join(game_id, 1, "Bo")]
    api_play(web, game_id, tokens, 9, random.Random(4))
    ada = Person(browser, web)
    ada.open(f"/games/{game_id}?token={tokens[0]}")
    ada.wait_view()

    def seen() -> tuple[int, list[str | None]]:
        cards = ada.page.locator(".own-hand .hand-card").all()
        return ada.move(), [c.get_attribute("data-card") for c in cards]

    before = seen()
    view = web.view(game_id, tokens[0])
    assert before == (view["move_number"], view["observation"]["players"][0]["hand"])
    assert ada.page.locator("#board .recent").count() > 0  # the latest move is marked
    ada.page.reload()
    ada.wait_view()
    assert seen() == before
    ada.close()


def test_escape_closes_the_chooser_and_explanations_show_at_once(web: Server, browser: Any) -> None:
    # the second seat starts with 3 gold, so a die may be shifted: a die offers several choices
    created = web.create(game=TT, players=2, seed=5, seats=[{"kind": "bot", "level": "easy"}, {"kind": "human"}])
    token = web.join(created["id"], 1, "Ada")
    ada = Person(browser, web, "ja")
    ada.open(f"/games/{created['id']}?token={token}")
    page = ada.page
    page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
    several = page.locator("#board [data-offers*='|']").first
    several.click()
    page.wait_for_selector("#chooser button.action", timeout=WAIT_MS)
    assert JAPANESE.search(page.inner_text("#chooser"))
    before = ada.move()
    page.keyboard.press("Escape")
    assert page.locator("#chooser").count() == 0
    assert ada.move() == before and web.view(created["id"])["move_number"] == before  # nothing played
    # the explanations of every choice, shown at once
    page.click("#explain-toggle")
    assert page.locator("#actions .action-explain").first.is_visible()
    ada.close()


def test_error_pages_lead_somewhere(web: Server, browser: Any) -> None:
    created = web.create(game=SG, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    person = Person(browser, web, "ja")
    person.open(f"/games/{created['id']}?token=wrong")
    page = person.page
    page.wait_for_selector("#error", timeout=WAIT_MS)
    assert page.get_attribute("html", "lang") == "ja"
    page.click(f"#error a[href^='/games/{created['id']}']")  # watch the game instead
    person.wait_view()
    assert page.is_hidden("#actions-panel")
    person.open("/games/nosuchgame")
    page.wait_for_selector("#error", timeout=WAIT_MS)
    page.click("#error a.primary")
    page.wait_for_selector("body.lobby[data-ready]", timeout=WAIT_MS)
    person.close()


def test_replay_steps_forward_and_back(web: Server, browser: Any) -> None:
    # played through the API with a seeded choice that avoids passing, so the game is the same
    # long one every time (bots draw their own seeds: two early passes could end theirs at once)
    created = web.create(game=SG, players=2, seed=13, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [web.join(game_id, 0, "Ada"), web.join(game_id, 1, "Bo")]
    api_play(web, game_id, tokens, 400, random.Random(13))
    web.wait_over(game_id, timeout=10)
    replay = web.http.get(f"/api/games/{game_id}/replay").json()
    frames = replay["frames"]
    viewer = Person(browser, web)
    viewer.open(f"/games/{game_id}/replay")
    page = viewer.page
    page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    assert page.get_attribute("body", "data-frame") == "0"
    assert not page.locator("#scores").is_visible()  # no spoiler before the last step
    for _ in range(3):
        page.click("#forward")
    assert page.get_attribute("body", "data-frame") == "3"
    assert frames[3]["headline"] in page.inner_text("#frame-move")  # the move in words
    assert frames[3]["notation"] not in page.inner_text("#frame-move") or \
        not notation_like(frames[3]["notation"])
    page.click("#back")
    assert page.get_attribute("body", "data-frame") == "2"
    assert frames[2]["headline"] in page.inner_text("#frame-move")
    page.click("#last")
    assert page.get_attribute("body", "data-frame") == str(len(frames) - 1)
    assert page.locator("#scores").is_visible() and page.locator("#scores tr").count() == 2
    assert page.locator("#score-breakdown").is_visible()
    page.locator("#slider").fill("1")
    assert page.get_attribute("body", "data-frame") == "1"
    # a running game has no replay: the page says so
    running = web.create(game=SG, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    viewer.open(f"/games/{running['id']}/replay")
    page.wait_for_selector("#message:not([hidden])", timeout=WAIT_MS)
    assert "No replay" in page.inner_text("#message")
    viewer.close()


def test_pages_load_their_assets(web: Server) -> None:
    """Every module a page imports is served (a typo would only show in a browser)."""
    static = Path(__file__).parents[3] / "src" / "palio" / "server" / "static"
    for path in sorted(static.rglob("*")):
        if path.is_file():
            relative = path.relative_to(static).as_posix()
            assert web.http.get(f"/static/{relative}").status_code == 200, relative


def test_undo_a_stale_click_and_a_reconnect(web: Server, browser: Any) -> None:
    created = web.create(game=SG, players=2, seed=30, seats=[{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    token = web.join(game_id, 0, "Ada")
    web.join(game_id, 1, "Bo")
    ada = Person(browser, web)
    sockets: list[Any] = []
    muted = {"on": False}

    def relay(route: Any) -> None:  # the page's WebSocket passes through here
        upstream = route.connect_to_server()
        upstream.on_message(lambda message: None if muted["on"] else route.send(message))
        sockets.append(route)

    ada.page.route_web_socket("**/ws/games/**", relay)
    ada.open(f"/games/{game_id}?token={token}")
    ada.wait_view()
    page = ada.page
    page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
    ada.click("buy")  # starting a purchase reveals nothing: it can be taken back
    page.wait_for_selector("#undo:not([hidden])", timeout=WAIT_MS)
    page.click("#undo")
    page.wait_for_selector("body[data-move='0']", timeout=WAIT_MS)

    # the page misses a push (another tab of the same seat moved), then clicks what it shows
    muted["on"] = True
    response = web.http.post(f"/api/games/{game_id}/actions", headers={"Authorization": f"Bearer {token}"},
                             json={"action": "buy", "move_number": 0})
    assert response.status_code == 200, response.text
    assert page.get_attribute("body", "data-move") == "0"
    page.locator('#actions button[data-notation="exchange"]').click()
    page.wait_for_selector("#message.warning:not([hidden])", timeout=WAIT_MS)
    assert "moved on" in page.inner_text("#message")
    page.wait_for_selector("body[data-move='1']", timeout=WAIT_MS)  # refreshed
    assert web.view(game_id)["move_number"] == 1  # the stale click changed nothing

    # the connection drops: the page reconnects by itself and gets a fresh view
    muted["on"] = False
    sockets[-1].close()
    deadline = time.monotonic() + 30  # generous: a loaded machine reconnects late
    while len(sockets) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert len(sockets) == 2
    page.wait_for_selector("body[data-connection='live'][data-move='1']", timeout=WAIT_MS)
    ada.close()
