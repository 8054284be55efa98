"""The words layer, for every game: complete catalogs, and plain words in every line a person
reads (labels, explanations, prompts, log lines, scores, the board, the glossary).

A game fails here when a message lacks a translation in either language, when a translation
drops or adds a placeholder, or when a text of a random game still holds raw notation, an
internal id, "Seat N", a Python list or a float score.
"""

from __future__ import annotations

import random
import re

import pytest

import palio
from palio import bots
from palio.core import describe
from palio.core.i18n import (
    LANGUAGES,
    PLACEHOLDER,
    Translator,
    catalog_path,
    load_catalog,
    lookup,
    server_domains,
)
from palio.core.words import Msg, Player

NAMES = ["Alice", "Bruno", "Chiara", "Dario", "Elena"]
GAMES = list(palio.games())
DOMAINS = (["core", "ui", "cli"] + [palio.get_game(g).words.domain for g in GAMES]
           + server_domains())

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
FORBIDDEN = [
    (re.compile(r"\b[Ss]eat \d"), "a seat number instead of a name"),
    (re.compile(r"[\[\]]"), "a Python list or notation brackets"),
    (re.compile(r"\d\.0\b"), "a float score"),
    (re.compile(r"[{}]"), "an unrendered placeholder"),
    (re.compile(r"\b(None|True|False)\b"), "a Python value"),
    (re.compile(r"\b[a-z_]+\.(?:[a-z_0-9]+\.)+[a-z_0-9]+\b"), "a message id without a text"),
]


def placeholders(text: str | tuple[str, ...]) -> set[str]:
    forms = text if isinstance(text, tuple) else (text,)
    return {name for form in forms for name in PLACEHOLDER.findall(form)}


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_in_both_languages_with_the_same_placeholders(domain):
    catalogs = {lang: load_catalog(domain, lang) for lang in LANGUAGES}
    for lang, catalog in catalogs.items():
        assert catalog is not None, f"no catalog {catalog_path(domain, lang)}"
    english = catalogs["en"].texts
    for lang, catalog in catalogs.items():
        # a second-person variant (<id>@you, <id>@you.<param>) is only where a language needs
        # it (see Translator.template); it says at most what its message says
        variants = {key for key in catalog.texts if "@you" in key}
        for key in variants:
            base = key.partition("@")[0]
            assert base in english, f"{lang} {key}: a variant of no message"
            assert placeholders(catalog.texts[key]) <= placeholders(english[base]), (
                f"{lang} {key}: placeholders its message lacks")
        missing = sorted(set(english) - set(catalog.texts) - {k for k in english if "@you" in k})
        extra = sorted(set(catalog.texts) - set(english) - variants)
        assert not missing, f"{lang} lacks {missing[:10]}"
        assert not extra, f"{lang} has messages English lacks: {extra[:10]}"
        for key, text in catalog.texts.items():
            if key in variants:
                continue
            forms = text if isinstance(text, tuple) else (text,)
            assert all(forms), f"{lang} {key}: empty translation"
            # core and ui share palio/locale/<lang>.po (see palio.core.i18n.catalog_path)
            shared = {"core", "ui"} if domain in ("core", "ui") else {domain}
            assert key.split(".")[0] in shared, f"{key} is outside the domain {domain}"
            assert placeholders(text) == placeholders(english[key]), (
                f"{lang} {key}: placeholders {placeholders(text)} vs {placeholders(english[key])}")
            if lang == "ja" and re.search(r"[A-Za-z]{3}", PLACEHOLDER.sub("", forms[0])):
                # Japanese text may quote a short code, never an untranslated English phrase
                assert JAPANESE.search(forms[0]), f"ja {key} is not Japanese: {forms[0]!r}"


def check_text(text: str, lang: str, where: str, notations: set[str]) -> None:
    assert text.strip(), f"{where}: empty text"
    for pattern, what in FORBIDDEN:
        assert not pattern.search(text), f"{where}: {what} in {text!r}"
    for notation in notations:
        assert text != notation, f"{where}: raw notation {text!r}"
    if lang == "ja" and re.search(r"[A-Za-z]{4}", text):
        assert JAPANESE.search(text), f"{where}: not Japanese: {text!r}"


def words_of_position(state, tr: Translator) -> list[tuple[str, str]]:
    """Every text a person could read at this position, with where it comes from."""
    out = []
    for choice in describe.choices(state, tr):
        for key in ("label", "explain", "group"):
            out.append((f"{key} of {choice['notation']}", choice[key]))
    for viewer in [None, *range(state.players)]:
        said = describe.prompt(state, viewer, tr)
        if said is not None:
            out.append((f"prompt for {viewer}", said["text"]))
    return out


def play_and_read(game_id: str, players: int, options: dict, seed: int, lang: str,
                  sample: float) -> None:
    game = palio.get_game(game_id)
    tr = Translator(lang, NAMES[:players])
    state = game.setup(players, seed, options)
    rng = random.Random(seed)
    while not state.is_over:
        if rng.random() < sample:
            notations = {str(a) for a in state.legal_actions() if not str(a).isalpha()}
            for where, text in words_of_position(state, tr):
                check_text(text, lang, where, notations)
            for line in tr.lines(game.words.board(state, rng.choice([None, state.to_move]))).splitlines():
                check_text(line, lang, "board", set())
        state.apply_unchecked(rng.choice(state.legal_actions()))
    for viewer in [None, *range(players)]:
        for line in describe.log(state, viewer, tr):
            check_text(line["text"], lang, f"log for {viewer}", set())
    table = describe.score_table(state, tr)
    for row in table["rows"]:
        check_text(row["category"], lang, "score category", set())
    for seat in range(players):
        assert sum(row["points"][seat] for row in table["rows"]) == table["totals"][seat], (
            "the score rows do not add up to the total")
        for outcome in game.words.outcomes(state, seat):
            check_text(tr(outcome), lang, f"outcome of seat {seat}", set())


CASES = [(g, p) for g in GAMES
         for p in range(palio.get_game(g).info.min_players, palio.get_game(g).info.max_players + 1)]


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize(("game_id", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
def test_random_games_read_in_plain_words(game_id, players, lang):
    game = palio.get_game(game_id)
    option_sets = [{}] + [{s.name: True} for s in game.info.options if s.choices == (False, True)]
    for seed, options in enumerate(option_sets):
        play_and_read(game_id, players, options, seed, lang, sample=0.1)


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game_id", GAMES)
def test_every_component_has_a_name_and_an_explanation(game_id, lang):
    game = palio.get_game(game_id)
    tr = Translator(lang, NAMES)
    entries = list(game.words.glossary())
    assert entries, f"{game_id} names no component"
    keys = [entry.key for entry in entries]
    assert len(keys) == len(set(keys)), "glossary keys repeat"
    for entry in entries:
        check_text(tr(entry.name), lang, f"name of {entry.key}", set())
        check_text(tr(entry.text), lang, f"text of {entry.key}", set())


@pytest.mark.parametrize("game_id", GAMES)
def test_scores_and_outcomes_during_play_show_only_what_everyone_knows(game_id):
    """Clients show the score table during play, and reviews count each seat's named outcomes
    (``words.outcomes``) in worlds drawn from the mover's view: neither may change in any
    world a seat cannot tell apart from the real one (no hidden card, no future draw in it)."""
    game = palio.get_game(game_id)
    for players in (game.info.min_players, game.info.max_players):
        state = game.setup(players, 5)
        rng = random.Random(5)
        while not state.is_over:
            if rng.random() < 0.05:
                rows = game.words.scores(state)
                named = [game.words.outcomes(state, seat) for seat in range(players)]
                for seat in range(players):
                    world = state.determinize(seat, random.Random(rng.random()))
                    assert game.words.scores(world) == rows
                    assert world.scores() == state.scores()
                    assert [game.words.outcomes(world, s) for s in range(players)] == named
            state.apply_unchecked(rng.choice(state.legal_actions()))


def test_plain_messages_are_kept_per_language() -> None:
    """A message of strings and integers alone is kept once worded (``i18n._plain``): each
    language keeps its own words, and a seat among the parameters is still named by each
    translator's own names."""
    plain = Msg("core.player_n", {"n": 2})
    english, japanese = Translator("en")(plain), Translator("ja")(plain)
    assert english != japanese
    assert (Translator("en")(plain), Translator("ja")(plain)) == (english, japanese)
    named = Msg("core.winner", {"player": Player(0), "points": 3})
    assert Translator("en", names=["Ada"])(named) != Translator("en", names=["Bea"])(named)


@pytest.mark.parametrize("game_id", ["san-gimignano", "tiletum"])
def test_kept_lines_are_each_readers_own(game_id: str) -> None:
    """Board lines and choices kept once worded (``Translator.kept``, ``_LINES``) read as the
    same messages worded afresh, for every reader: each seat (and a spectator), language,
    set of names and ``you``, the kept words of the other readers before them."""
    game = palio.games.get(game_id)
    state = game.setup(2, 5, game.validate_options(2, {}))
    rng = random.Random(5)
    readers = [Translator(lang, names, you) for lang in ("en", "ja")
               for names in ([None, None], ["Ada", "Bea"], ["Bea", "Ada"]) for you in (None, 0, 1)]
    for _ in range(25):
        for tr in readers:  # each reader after the others: their words are kept meanwhile
            for seat in (0, 1, None):
                messages = game.words.board(state, seat)
                assert tr.lines(messages) == "\n".join(tr(m) for m in messages)
            for action in state.legal_actions()[:5]:
                label = game.words.action(state, action).label
                assert tr.kept(label) == tr(label)
        state.apply(rng.choice(state.legal_actions()))
    # parameters Python calls equal but words tell apart: a seat is not a number, nor True 1
    said = [Translator("en", ["Ada", "Bea"]).kept(Msg("core.winner", {"player": value, "points": 3}))
            for value in (Player(1), 1, True, 1.0, "1")]
    assert said[0] != said[1] and said[1] != said[2]
    assert said == [Translator("en", ["Ada", "Bea"])(Msg("core.winner", {"player": value,
                                                                          "points": 3}))
                    for value in (Player(1), 1, True, 1.0, "1")]
    # the seat said in the second person ("you") is part of what the words depend on
    winner = Msg("core.winner", {"player": Player(1), "points": 3})
    yours, theirs = Translator("en", ["Ada", "Bea"], 1), Translator("en", ["Ada", "Bea"])
    assert (yours.kept(winner), theirs.kept(winner)) == (yours(winner), theirs(winner))
    assert yours(winner) != theirs(winner)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_bot_and_level_has_a_name_in_each_language(lang) -> None:
    """The lobby lists every registered bot and level by its words (``ui.level.<name>``): a
    new bot without them would show its code name in a Japanese page."""
    missing = [name for name in bots.names() if lookup(f"ui.level.{name}", lang) is None]
    assert not missing, (lang, missing)
