"""The pages and words the server gives the browser (src/palio/server/base/pages.py), in-process:
the clients' words per language, the language rules, rules pages, error pages, the favicon,
bot names in the reader's words, and the latest move's changes in a view."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

import palio
from palio.core.i18n import LANGUAGES, load_catalog, server_domains
from palio.server.app import create_app
from palio.server.base import pages
from palio.server.play.recent import changed_paths
from palio.server.rules import pages as rules

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

STATIC = pages.STATIC
RULES = Path(__file__).parents[3] / "docs" / "rules"
GAMES = ["san-gimignano", "tiletum"]


@pytest.fixture
def client(tmp_path: Path) -> Any:
    app = create_app(f"sqlite:///{tmp_path / 'palio.db'}", bot_delay=0.0)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


# -- the clients' words -------------------------------------------------------------------------
def test_words_in_each_language_hold_every_ui_message(client: Any) -> None:
    english = load_catalog("ui", "en")
    ui_keys = {key for key in english.texts if key.startswith("ui.")}
    for domain in server_domains():  # each server concern's words go to the browser too
        ui_keys |= {key for key in load_catalog(domain, "en").texts if key.startswith(domain)}
    for lang in LANGUAGES:
        body = client.get(f"/api/i18n/{lang}").json()
        assert body["lang"] == lang and body["languages"] == LANGUAGES
        assert set(body["messages"]) == ui_keys  # only the clients' own domains
    ja = client.get("/api/i18n/ja").json()["messages"]
    assert ja["ui.play.your_choices"] == "あなたの選択肢"
    assert ja["ui.points"] == ["{n}点"]  # a plural message: its forms
    assert client.get("/api/i18n/en").json()["messages"]["ui.points"] == ["{n} point", "{n} points"]


def test_an_unknown_language_is_a_clear_404(client: Any) -> None:
    response = client.get("/api/i18n/xx")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "no_such_language"


@pytest.mark.parametrize(("query", "cookie", "header", "expected"), [
    ("", None, None, "en"),
    ("", None, "ja-JP,ja;q=0.9,en;q=0.8", "ja"),
    ("", None, "fr-FR,fr;q=0.9", "en"),
    ("?lang=en", None, "ja", "en"),          # the address wins over the browser
    ("", "ja", "en-US", "ja"),               # the chooser's cookie wins over the browser
    ("?lang=en", "ja", None, "en"),          # the address wins over the cookie
    ("?lang=xx", "ja", None, "ja"),          # an unknown ?lang= is ignored
])
def test_the_language_of_a_request(client: Any, query: str, cookie: str | None,
                                   header: str | None, expected: str) -> None:
    headers = {"Accept-Language": header} if header else {}
    client.cookies.clear()
    if cookie:
        client.cookies.set(pages.LANGUAGE_COOKIE, cookie)
    assert client.get(f"/api/i18n{query}", headers=headers).json()["lang"] == expected


def test_no_english_text_is_written_in_the_static_pages() -> None:
    """Every word of the HTML pages comes from the catalog: text outside tags is only
    symbols (arrows, the brand), never a word of English."""
    allowed = {"Palio"}
    for page in sorted(STATIC.glob("*.html")):
        html = page.read_text()
        body = re.sub(r"<(script|style|title)[^>]*>.*?</\1>", "", html, flags=re.S)
        words = re.findall(r"[A-Za-z]{2,}", " ".join(re.findall(r">([^<]+)<", body)))
        assert set(words) <= allowed, f"{page.name}: {sorted(set(words) - allowed)}"


def test_every_ui_message_the_pages_name_exists() -> None:
    """A misspelt key would show as its id: each literal key in the JavaScript and HTML is in
    the catalog, and so is each key the Python pages use."""
    english = load_catalog("ui", "en").texts
    server = Path(pages.__file__).parents[1]  # every concern's Python writes pages too
    sources = list(STATIC.rglob("*.js")) + list(STATIC.glob("*.html")) + list(server.rglob("*.py"))
    for source in sources:
        for key in re.findall(r"""["'`](ui\.[a-z_]+(?:\.[a-z_0-9]+)+)["'`]""", source.read_text()):
            assert key in english, f"{source.name} names {key}, which the catalog lacks"


# -- rules pages -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_rules_pages_in_both_languages_with_the_same_sections(client: Any, game: str) -> None:
    ids = {}
    for lang in LANGUAGES:
        response = client.get(f"/rules/{game}?lang={lang}")
        assert response.status_code == 200
        html = response.text
        assert f'<html lang="{lang}">' in html and f'data-written-in="{lang}"' in html
        assert "{#" not in html  # explicit ids never show
        ids[lang] = set(re.findall(r'<h[2-6] id="([^"]+)"', html))  # the title aside
        assert f'href="/?lang={lang}"' in html  # the way back to the lobby
    assert ids["en"] == ids["ja"] and len(ids["en"]) > 5


def section_ids(game: str, lang: str) -> set[str]:
    path = RULES / (f"{game}.md" if lang == "en" else f"{game}.{lang}.md")
    html, _ = rules.render_rules(path.read_text(), lang)
    return set(re.findall(r'<h[1-6] id="([^"]+)"', html))


@pytest.mark.parametrize("game", GAMES)
def test_the_sections_prompts_link_to_exist_in_both_languages(game: str) -> None:
    """Every rules section a prompt of a random game names is a heading of both pages."""
    rng = random.Random(3)
    wanted = set()
    for seed in range(3):
        state = palio.new_game(game, players=2, seed=seed)
        while not state.is_over and state.move_number < 300:
            section = state.game.words.prompt(state).section
            if section:
                wanted.add(section)
            state.apply(rng.choice(state.legal_actions()))
    assert wanted
    for lang in LANGUAGES:
        missing = wanted - section_ids(game, lang)
        assert not missing, f"{game} {lang}: no section {sorted(missing)}"


def test_markdown_of_a_rules_page() -> None:
    html, contents = rules.render_rules(
        "# T\n\n## Set-up {#setup}\n\nSee [the map](../components/x.md), [Tiletum](tiletum.md#king)"
        " and [a site](https://example.org).\n\n## Set-up\n\n日本語の\n文章\n\n<script>x</script>\n", "ja")
    assert '<h2 id="setup">Set-up</h2>' in html
    assert '<h2 id="set-up">' in html  # a heading without an id gets a slug
    assert "the map" in html and "../components" not in html  # repository files: plain text
    assert 'href="/rules/tiletum?lang=ja#king"' in html
    assert 'href="https://example.org"' in html
    assert "日本語の文章" in html  # no gap where the source wrapped a Japanese line
    assert "<script>" not in html  # raw HTML is not passed through
    assert contents == [("setup", "Set-up"), ("set-up", "Set-up")]


def test_rules_of_an_unknown_game_and_a_missing_checkout(client: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    response = client.get("/rules/chess?lang=ja")
    assert response.status_code == 404 and "ロビーに戻る" in response.text
    monkeypatch.setattr(rules, "rules_dir", lambda: None)
    response = client.get("/rules/tiletum")
    assert response.status_code == 404
    assert "docs/rules" in response.text and 'href="/?lang=en"' in response.text


def test_a_game_without_a_rules_document_says_so(client: Any, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "rules_dir", lambda: tmp_path)  # a checkout without tiletum.md
    response = client.get("/rules/tiletum?lang=ja")
    assert response.status_code == 404 and "まだPalioの言葉で書かれていません" in response.text


def test_a_game_without_a_japanese_page_shows_the_english_one(
        client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tiletum.md").write_text("# Tiletum\n\n## Set-up {#setup}\n\nText.\n")
    monkeypatch.setattr(rules, "rules_dir", lambda: tmp_path)
    response = client.get("/rules/tiletum?lang=ja")
    assert response.status_code == 200
    assert 'data-written-in="en"' in response.text and "日本語版はまだありません" in response.text


# -- pages and errors ------------------------------------------------------------------------------
def test_error_pages_lead_back_to_the_lobby_or_to_watching(client: Any) -> None:
    game_id = client.post("/api/games", json={"game": "san-gimignano", "players": 2}).json()["id"]
    missing = client.get("/games/nosuchgame?lang=ja")
    assert missing.status_code == 404 and "text/html" in missing.headers["content-type"]
    assert "ゲームが見つかりません" in missing.text and 'href="/?lang=ja"' in missing.text
    wrong = client.get(f"/games/{game_id}?token=not-a-token")
    assert wrong.status_code == 403
    assert f'href="/games/{game_id}?lang=en"' in wrong.text and 'href="/?lang=en"' in wrong.text
    assert client.get(f"/games/{game_id}").status_code == 200  # a spectator
    assert client.get(f"/games/{game_id}/replay").status_code == 200
    assert client.get("/games/nosuchgame/replay").status_code == 404
    assert client.get("/no/such/page").status_code == 404
    assert "text/html" in client.get("/no/such/page").headers["content-type"]
    api = client.get("/api/no/such/route")  # programs still get JSON
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


def test_favicon_and_pages_carry_it(client: Any) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")
    for page in ("/", "/rules/tiletum"):
        assert 'rel="icon"' in client.get(page).text


# -- views: names, the latest move -----------------------------------------------------------------
def test_bots_and_unnamed_people_are_named_in_the_readers_language(client: Any) -> None:
    created = client.post("/api/games", json={
        "game": "san-gimignano", "players": 2, "seed": 4,
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "human"}]}).json()
    assert created["seats"][0]["name"] is None  # named by its level, in each reader's words
    token = client.post(f"/api/games/{created['id']}/seats/1/join", json={}).json()["token"]
    assert client.get(f"/api/games/{created['id']}").json()["seats"][1]["name"] is None
    view = client.get(f"/api/games/{created['id']}/view?lang=ja",
                      headers={"Authorization": f"Bearer {token}"}).json()
    said = view["prompt"]["text"] + " ".join(line["text"] for line in view["log"])
    assert "ボット（やさしい）" in said or "プレイヤー2" in said
    assert "easy bot" not in said and "Player" not in said


def test_two_bots_of_one_level_are_told_apart(client: Any) -> None:
    created = client.post("/api/games", json={
        "game": "tiletum", "players": 3, "seed": 4,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]}).json()
    view = client.get(f"/api/games/{created['id']}/view?lang=en").json()
    lines = view["text"]
    assert "Easy bot 2" in lines and "Easy bot 3" in lines


def test_changed_paths() -> None:
    before = {"market": ["6", "8"], "players": [{"hand_size": 5}], "bonus": {"Paris": 3}}
    after = {"market": ["6", "9", "10"], "players": [{"hand_size": 6}], "bonus": {}}
    assert changed_paths(before, after) == [
        "bonus", "bonus.Paris", "market", "market.1", "market.2", "players", "players.0",
        "players.0.hand_size"]
    assert changed_paths(before, before) == []


def test_a_view_names_what_the_latest_move_changed_from_the_viewers_own_views(client: Any) -> None:
    created = client.post("/api/games", json={"game": "san-gimignano", "players": 2, "seed": 7}).json()
    game_id = created["id"]
    tokens = [client.post(f"/api/games/{game_id}/seats/{s}/join", json={"name": n}).json()["token"]
              for s, n in enumerate(["Ada", "Bo"])]

    def view(seat: int | None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {tokens[seat]}"} if seat is not None else {}
        return client.get(f"/api/games/{game_id}/view", headers=headers).json()

    assert view(0)["recent"] is None
    start = {seat: view(seat)["observation"] for seat in (0, 1, None)}
    moves = 0
    while view(0)["legal"] and moves < 4:  # seat 0 plays a whole purchase: buy, draw, draw
        current = view(0)
        choice = next(a["notation"] for a in current["legal"] if a["notation"] in ("buy", "draw")) \
            if moves == 0 else next(a["notation"] for a in current["legal"] if a["notation"] == "draw")
        client.post(f"/api/games/{game_id}/actions", headers={"Authorization": f"Bearer {tokens[0]}"},
                    json={"action": choice, "move_number": current["move_number"]})
        moves += 1
    for seat in (0, 1, None):
        now = view(seat)
        recent = now["recent"]
        assert recent["seat"] == 0 and recent["since"] == 0
        assert recent["paths"] == changed_paths(start[seat], now["observation"])
        assert "deck_size" in recent["paths"]
    assert "players.0.hand" in view(0)["recent"]["paths"]  # the buyer sees its new cards
    assert not any(p.startswith("players.0.hand.") for p in view(1)["recent"]["paths"])
