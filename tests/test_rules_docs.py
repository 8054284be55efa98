"""The rules pages are written for players (issue 22, section 1): no developer words or paths,
the sections a newcomer needs in the order they need them (aim, set-up, a round, the actions,
the end, scoring, and "About this edition" last), every section a prompt links to present in
both languages, and every page rendered by the server's own renderer."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

import palio.games as registry
from palio.server.app import create_app
from palio.server.rules import pages

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
GAMES = ["san-gimignano", "tiletum", "signorie", "troyes", "aquileia"]
LANGS = ["en", "ja"]

# Words and marks a player should never meet: paths, code, the developers' vocabulary.
FORBIDDEN = {
    "en": [r"src/", r"docs/", r"shared/", r"tests?/", r"\.py\b", r"\bengine\b", r"\bissues?\b",
           r"component file", r"\bseat \d", r"`", r"\bReading\*\*", r"\bobserve\b",
           r"\bnotation\b"],
    "ja": [r"src/", r"docs/", r"shared/", r"tests?/", r"\.py\b", r"エンジン", r"\bissue",
           r"component file", r"\bseat\b", r"席\s*0", r"0番", r"`", r"\*\*解釈\*\*",
           r"\bobserve\b", r"\bengine\b"],
}

# The second-level headings a player needs, in this order; a heading is of a kind when it
# begins with one of these words. Other sections may stand between them.
ORDER = ["aim", "setup", "round", "actions", "end", "scoring", "about"]
KINDS = {
    "en": {
        "aim": ("Aim of the game",),
        "setup": ("Set-up",),
        "round": ("A round", "A turn", "Rounds", "Turns"),
        "actions": ("Actions", "The actions"),
        "end": ("End of the game", "The end of the game"),
        "scoring": ("Scoring", "Final scoring"),
        "about": ("About this edition",),
    },
    "ja": {
        "aim": ("ゲームの目的",),
        "setup": ("ゲームの準備",),
        "round": ("ラウンドの流れ", "手番の流れ", "ラウンド", "手番"),
        "actions": ("アクション",),
        "end": ("ゲームの終了",),
        "scoring": ("得点計算", "最終得点計算", "得点"),
        "about": ("この版について",),
    },
}


def path_of(game: str, lang: str) -> Path:
    return RULES / (f"{game}.md" if lang == "en" else f"{game}.{lang}.md")


def rendered(game: str, lang: str) -> tuple[str, list[tuple[str, str]]]:
    return pages.render_rules(path_of(game, lang).read_text(encoding="utf-8"), lang)


def kinds_in_order(contents: list[tuple[str, str]], lang: str) -> list[str]:
    """The kind of each second-level heading that has one, first occurrences only."""
    found: list[str] = []
    for _anchor, title in contents:
        for kind in ORDER:
            if title.strip().startswith(KINDS[lang][kind]):
                if kind not in found:
                    found.append(kind)
                break
    return found


def prompt_sections(game_id: str) -> set[str]:
    """The rules sections the prompts of a few random games name."""
    game = registry.get(game_id)
    wanted = set()
    for seed in range(3):
        players = min(max(game.info.min_players, 2 + seed), game.info.max_players)
        state = game.setup(players, seed)
        rng = random.Random(seed)
        while not state.is_over and state.move_number < 400:
            section = game.words.prompt(state).section
            if section:
                wanted.add(section)
            state.apply(rng.choice(state.legal_actions()))
    return wanted


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_has_no_developer_words(game: str, lang: str) -> None:
    text = path_of(game, lang).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        for pattern in FORBIDDEN[lang]:
            assert not re.search(pattern, line, re.I), (
                f"{path_of(game, lang).name}:{number}: {pattern!r} in {line!r}")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_renders_with_its_sections_in_the_order_a_player_needs(
        game: str, lang: str) -> None:
    html, contents = rendered(game, lang)
    assert html.count("<h1") == 1 and "{#" not in html and "<code>" not in html
    assert kinds_in_order(contents, lang) == ORDER, [title for _a, title in contents]
    assert contents[-1][1].startswith(KINDS[lang]["about"]), "About this edition comes last"


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_have_the_same_sections_and_every_prompt_section(game: str) -> None:
    ids = {}
    for lang in LANGS:
        html, _ = rendered(game, lang)
        ids[lang] = re.findall(r'<h[2-6] id="([^"]+)"', html)
    assert ids["en"] == ids["ja"], set(ids["en"]) ^ set(ids["ja"])
    missing = prompt_sections(game) - set(ids["en"])
    assert not missing, f"{game}: prompts link to missing sections {sorted(missing)}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_link_of_a_rules_page_leads_somewhere(game: str, lang: str) -> None:
    """Links inside a page name one of its sections; links to another game's page (in the same
    language) name a section of that page."""
    html, _ = rendered(game, lang)
    own = set(re.findall(r'<h[1-6] id="([^"]+)"', html))
    links = re.findall(r'<a href="([^"]+)"', html)
    for href in links:
        inside = re.fullmatch(r"#([\w-]+)", href)
        other = re.fullmatch(r"/rules/([a-z-]+)\?lang=(\w+)(?:#([\w-]+))?", href)
        if inside:
            assert inside.group(1) in own, f"{game} {lang}: no section {href}"
        elif other:
            assert other.group(1) in GAMES and other.group(2) == lang, href
            if other.group(3):
                target, _ = rendered(other.group(1), lang)
                assert f'id="{other.group(3)}"' in target, href
        else:
            assert href.startswith("https://"), f"{game} {lang}: link {href} leads nowhere"


def test_the_server_serves_every_page_in_both_languages(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'palio.db'}", bot_delay=0.0)
    with TestClient(app) as client:
        for game in GAMES:
            for lang in LANGS:
                response: Any = client.get(f"/rules/{game}?lang={lang}")
                assert response.status_code == 200, (game, lang)
                assert f'data-written-in="{lang}"' in response.text
                about = "About this edition" if lang == "en" else "この版について"
                assert f'<a href="#about">{about}</a>' in response.text  # in the contents


def test_the_checks_catch_what_they_look_for() -> None:
    """The order check and the forbidden words fail on a page written the old way."""
    _html, contents = pages.render_rules(
        "# T\n\n## Set-up {#setup}\n\n## Aim of the game {#aim}\n\n## A round {#round}\n\n"
        "## Actions {#actions}\n\n## Scoring {#scoring}\n\n## End of the game {#end}\n", "en")
    assert kinds_in_order(contents, "en") == ["setup", "aim", "round", "actions", "scoring", "end"]
    old = "Seat 0 plays first (see `src/palio/games/x/rules.py`); the engine follows issue 7."
    hits = [p for p in FORBIDDEN["en"] if re.search(p, old, re.I)]
    assert len(hits) >= 5
