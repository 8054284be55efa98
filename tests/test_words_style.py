"""Words a player reads, checked for the slips a new player met (issue 22, section 4): Japanese
brackets, separators, verbs and stock names; English capitals and nouns.

Texts come from a random and a progress-policy game of every game at its fewest and most
players, with seats left unnamed ("Player 2", "プレイヤー2"), as a client shows them before
names are known.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

import palio
from palio.core import describe
from palio.core.i18n import LANGUAGES, Translator, load_catalog
from palio.core.words import Msg, Player
from tests.contract import progress_game, random_game
from tests.test_words import DOMAINS

GAMES = list(palio.games())


@cache
def texts(game_id: str, lang: str) -> tuple[tuple[str, str], ...]:
    """(where, text) of everything read in a few games of ``game_id`` in ``lang``."""
    game = palio.get_game(game_id)
    tr = Translator(lang)
    out: list[tuple[str, str]] = []
    for players in sorted({game.info.min_players, game.info.max_players}):
        for seed, play in enumerate((random_game, progress_game)):
            rng = random.Random(seed)

            def read(state, action, _rng, rng=rng):
                if rng.random() > 0.15:
                    return
                for choice in describe.choices(state, tr):
                    out.append(("label", choice["label"]))
                    out.append(("explain", choice["explain"]))
                said = describe.prompt(state, state.to_move, tr)
                if said is not None:
                    out.append(("prompt", said["text"]))
                for line in tr.lines(game.words.board(state, state.to_move)).splitlines():
                    out.append(("board", line))

            state = play(game, players, seed, None, on_step=read)
            out.extend(("log", line["text"]) for line in describe.log(state, None, tr, full=True))
    return tuple(out)


def catalog_texts(domain: str, lang: str):
    catalog = load_catalog(domain, lang)
    for key, text in catalog.texts.items():
        for form in text if isinstance(text, tuple) else (text,):
            yield key, form


@pytest.mark.parametrize("domain", DOMAINS)
def test_japanese_text_uses_full_width_brackets(domain):
    half = [(key, text) for key, text in catalog_texts(domain, "ja") if re.search(r"[()]", text)]
    assert not half, f"half-width brackets in Japanese: {half[:5]}"


@pytest.mark.parametrize("game_id", GAMES)
def test_english_sentences_start_with_a_capital(game_id):
    for where, text in texts(game_id, "en"):
        assert not re.search(r"[.!?] [a-z]", text), f"{where}: a sentence without a capital: {text!r}"


@pytest.mark.parametrize("game_id", GAMES)
def test_japanese_reads_without_doubled_words_or_objects(game_id):
    for where, text in texts(game_id, "ja"):
        # a player named "プレイヤー2" right after a label ending in プレイヤー
        assert "プレイヤープレイヤー" not in text, f"{where}: no separator: {text!r}"
        # two objects of one verb: "横たわっていた駒を出目3で宮殿に市民駒を置く"
        assert not re.search(r"駒を[^、。]*駒を", text), f"{where}: two を for one verb: {text!r}"


def test_signorie_reads_a_man_and_the_count_of_men_apart_from_a_name():
    english = {text for _, text in texts("signorie", "en")}
    assert not [t for t in english if re.search(r"\ba military\b(?! man)", t)]
    assert any("military man" in t for t in english)
    ja = Translator("ja", ["ボット2"])
    line = ja(Msg("signorie.board.track_men", {"player": Player(0), "n": 1, "slot": 3, "vp": 2}))
    assert not re.search(r"\d\d人", line), line  # "ボット21人" reads as 21 men
    board = "\n".join(text for where, text in texts("signorie", "ja") if where == "board")
    assert "全体ストック" in board  # the rulebook's name for the family stock on the board


def test_troyes_hires_only_tradesmen_in_japanese():
    for key, text in catalog_texts("troyes", "ja"):
        if "雇" in text:
            assert "職人" in text, f"{key}: 雇う is for a tradesman only: {text!r}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_declining_a_card_does_not_read_as_quitting(lang):
    labels = {text for where, text in texts("aquileia", lang) if where == "label"}
    assert "やめる" not in labels and "Quit" not in labels


def test_troyes_places_a_lying_citizen_with_one_object():
    ja = Translator("ja", ["アリス"])
    palace = Msg("troyes.building.palace")
    source = Msg("troyes.src.lying.short", {"building": palace})
    line = ja(Msg("troyes.log.placed", {"player": Player(0), "source": source, "value": 3,
                                         "building": palace}))
    assert not re.search(r"駒を[^、。]*駒を", line), line
