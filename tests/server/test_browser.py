"""The browser client in a real headless Chromium against a real server and SQLite file:
lobby, play by clicking, a bot opponent, spectators, reload, Tiletum, and the replay viewer."""

from __future__ import annotations

import json
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Server

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"{CHROMIUM} is not installed"),
]
playwright_api = pytest.importorskip("playwright.sync_api")

SG = "san-gimignano"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 15_000
MAX_CLICKS = 600


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser")
    server = Server(f"sqlite:///{tmp / 'palio.db'}", 0.0, tmp / "server.log")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class Person:
    """One browser context (its own localStorage) and page; script errors are collected."""

    def __init__(self, browser: Any, server: Server) -> None:
        self.server = server
        self.context = browser.new_context(viewport={"width": 1300, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def open(self, path: str) -> None:
        self.page.goto(self.server.base + path)

    def move(self) -> int:
        return int(self.page.get_attribute("body", "data-move") or -1)

    def wait_view(self) -> None:
        self.page.wait_for_selector("body[data-move]", timeout=WAIT_MS)

    def choices(self) -> list[str]:
        return [b.get_attribute("data-notation") for b in
                self.page.locator("#actions button.action").all()]

    def click(self, notation: str, on_board: bool = True) -> None:
        """Play ``notation``: on the board when an element offers only it, else its button."""
        before = self.move()
        drawn = self.page.locator(f'#board [data-offers="{notation}"]')
        if on_board and drawn.count():
            drawn.first.click()
        else:
            self.page.locator(f'#actions button[data-notation="{notation}"]').click()
        self.page.wait_for_function(f"document.body.dataset.move !== '{before}'", timeout=WAIT_MS)

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


def pick(notations: list[str], rng: random.Random) -> str:
    """A seeded random choice that avoids passing while anything else is possible, so games
    do not end trivially on two passes."""
    others = [n for n in notations if n != "pass"]
    return rng.choice(others or notations)


def your_turn(person: Person) -> bool:
    return person.page.get_attribute("body", "data-your-turn") == "1" and \
        person.page.get_attribute("body", "data-busy") is None


def finished(person: Person) -> bool:
    return person.page.get_attribute("body", "data-status") == "finished"


def play_out(people: list[Person], rng: random.Random) -> int:
    """Click legal choices in whichever page may move until the game ends; the click count."""
    clicks = 0
    deadline = time.monotonic() + 180  # a guard against a hang, far above the usual 35 s
    while not all(finished(p) for p in people):
        assert time.monotonic() < deadline, "the game did not end in time"
        assert clicks < MAX_CLICKS, "the game did not end"
        mover = next((p for p in people if your_turn(p)), None)
        if mover is None:
            time.sleep(0.02)  # a push or a bot is on its way
            continue
        mover.click(pick(mover.choices(), rng), on_board=clicks % 2 == 0)
        clicks += 1
    return clicks


def shown_scores(person: Person) -> list[str]:
    person.page.wait_for_selector("#scores", timeout=WAIT_MS)
    return [row.inner_text().split("\t")[-1].strip()
            for row in person.page.locator("#scores tbody tr").all()]


def expected_scores(server: Server, game_id: str) -> list[str]:
    view = server.view(game_id)
    return [str(view["scores"][seat]).removesuffix(".0") for seat in view["ranking"]]


def normal(scores: list[str]) -> list[str]:
    return [s.removesuffix(".0") for s in scores]


def create_in_lobby(person: Person, seats: list[str], seed: int) -> str:
    page = person.page
    person.open("/")
    page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    page.select_option("#create-game", SG)
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


def test_two_people_play_to_the_end_from_the_lobby(web: Server, browser: Any) -> None:
    ada, bo = Person(browser, web), Person(browser, web)
    game_id = create_in_lobby(ada, ["human", "human"], seed=11)
    set_name(ada, "Ada")
    ada.page.click("#created [data-join='0']")
    # the join link carries the token in its fragment, which no request sends
    ada.page.wait_for_url(f"**/games/{game_id}#token=*", timeout=WAIT_MS)

    bo.open("/")
    bo.page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    set_name(bo, "Bo")
    bo.page.click(f"#games-open [data-game='{game_id}'] [data-join='1']", timeout=WAIT_MS)
    bo.page.wait_for_url(f"**/games/{game_id}#token=*", timeout=WAIT_MS)
    for person in (ada, bo):
        person.wait_view()
    assert "Ada" in bo.page.inner_text("#seats") and "Bo" in ada.page.inner_text("#seats")

    clicks = play_out([ada, bo], random.Random(7))
    summary = web.wait_over(game_id, timeout=10)
    assert clicks == summary["move_number"] > 10  # every move was a click; not two passes
    want = expected_scores(web, game_id)
    assert normal(shown_scores(ada)) == want and normal(shown_scores(bo)) == want
    # the lobby keeps the seat: "My games" leads back to it
    ada.open("/")
    ada.page.wait_for_selector(f"#my-games [data-mine='{game_id}']", timeout=WAIT_MS)
    ada.close()
    bo.close()


def test_person_plays_a_whole_game_against_a_bot(web: Server, browser: Any) -> None:
    ada = Person(browser, web)
    game_id = create_in_lobby(ada, ["bot:easy", "human"], seed=3)
    summary = web.http.get(f"/api/games/{game_id}").json()
    assert [s["kind"] for s in summary["seats"]] == ["bot", "human"]
    ada.page.click("#created [data-join='1']")
    ada.wait_view()
    clicks = play_out([ada], random.Random(5))
    summary = web.wait_over(game_id, timeout=10)
    assert 0 < clicks < summary["move_number"]  # the bot made the other moves
    assert normal(shown_scores(ada)) == expected_scores(web, game_id)
    assert ada.page.locator("#replay-link").get_attribute("href") == f"/games/{game_id}/replay"
    ada.close()


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
                  if line.strip().startswith("hand (")]
    assert len(hand_lines) == 2
    page = watcher.page
    assert page.locator(".hand-card, .own-hand").count() == 0
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
        assert "hand (" not in view["text"]  # how the text view lists a seat's own hand
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
    ada.page.reload()
    ada.wait_view()
    assert seen() == before
    ada.close()


def test_tiletum_renders_and_takes_clicks(web: Server, browser: Any) -> None:
    created = web.create(game="tiletum", players=2, seed=5,
                         seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    token = web.join(created["id"], 0, "Ada")
    ada = Person(browser, web)
    ada.open(f"/games/{created['id']}?token={token}")
    ada.wait_view()
    page = ada.page
    assert page.locator("#wheel .wheel-area").count() == 6
    assert page.locator("#wheel .die").count() > 0
    assert page.locator("#map svg .spot").count() >= 23
    assert page.locator(".tt-player").count() == 2
    # the first decision is a die: take it on the wheel itself
    page.wait_for_selector("body[data-your-turn='1']", timeout=WAIT_MS)
    die = page.locator("#wheel .die.clickable").first
    die.click()
    if page.locator("#chooser").count():  # several ways to take this die: pick the first
        page.locator("#chooser button.action").first.click()
    page.wait_for_function("document.body.dataset.move !== '0'", timeout=WAIT_MS)
    rng = random.Random(1)
    for _ in range(4):
        page.wait_for_selector("body[data-your-turn='1']:not([data-busy])", timeout=WAIT_MS)
        ada.click(rng.choice(ada.choices()), on_board=False)
    assert web.view(created["id"])["move_number"] >= 5
    ada.close()


def test_replay_steps_forward_and_back(web: Server, browser: Any) -> None:
    created = web.create(game=SG, players=2, seed=13, seats=[{"kind": "bot", "level": "easy"},
                                                             {"kind": "bot", "level": "easy"}])
    game_id = created["id"]
    web.wait_over(game_id, timeout=30)
    replay = web.http.get(f"/api/games/{game_id}/replay").json()
    actions = replay["record"]["actions"]
    viewer = Person(browser, web)
    viewer.open(f"/games/{game_id}/replay")
    page = viewer.page
    page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
    assert page.get_attribute("body", "data-frame") == "0"
    assert not page.locator("#scores").is_visible()  # no spoiler before the last step
    for _ in range(3):
        page.click("#forward")
    assert page.get_attribute("body", "data-frame") == "3"
    assert actions[2] in page.inner_text("#frame-move")
    page.click("#back")
    assert page.get_attribute("body", "data-frame") == "2"
    assert actions[1] in page.inner_text("#frame-move")
    page.click("#last")
    assert page.get_attribute("body", "data-frame") == str(len(actions))
    assert page.locator("#scores").is_visible() and page.locator("#scores tr").count() == 2
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
    static = Path(__file__).parents[2] / "src" / "palio" / "server" / "static"
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
    deadline = time.monotonic() + 10
    while len(sockets) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert len(sockets) == 2
    page.wait_for_selector("body[data-connection='live'][data-move='1']", timeout=WAIT_MS)
    ada.close()
