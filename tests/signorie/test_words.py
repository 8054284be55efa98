"""Signorie's words beyond the generic checks of tests/test_words.py: the terminal picture's
size, prompts that point at sections of the rules documents, Japanese terms of the rulebook,
and log lines that name components in words."""

from __future__ import annotations

import math
import random
import re
import unicodedata
from pathlib import Path

import pytest

from palio.core import describe
from palio.core.i18n import Translator
from palio.games.signorie import GAME
from palio.games.signorie.components import SIGNORIA
from palio.games.signorie.scenario import position
from palio.games.signorie.words import SECTIONS
from tests.signorie.test_properties import progress

DOCS = Path(__file__).parents[2] / "docs" / "rules"
NAMES = ["Ada", "Bo", "Cy", "Di"]


def positions(players: int, seed: int, every: int = 7):
    s = GAME.setup(players, seed)
    rng = random.Random(seed)
    while not s.is_over:
        if s.move_number % every == 0:
            yield s
        s.apply_unchecked(progress(s, rng))
    yield s


def screen_rows(text: str, width: int = 100) -> int:
    """Rows the text takes on a terminal ``width`` columns wide (CJK characters take two)."""
    def cells(line: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)

    return sum(max(1, math.ceil(cells(line) / width)) for line in text.splitlines())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_board_stays_under_fifty_rows_of_a_100_column_terminal_with_four_players(lang):
    tr = Translator(lang, NAMES)
    longest = 0
    for seed in (1, 3, 5):
        for s in positions(4, seed):
            text = GAME.render(s, s.to_move, tr)
            longest = max(longest, screen_rows(text))
            assert len(text.splitlines()) < 40
    assert 30 < longest < 50


@pytest.mark.parametrize("doc", ["signorie.md", "signorie.ja.md"])
def test_prompt_sections_exist_in_the_rules_documents(doc):
    text = (DOCS / doc).read_text(encoding="utf-8")
    anchors = set(re.findall(r"\{#([a-z0-9-]+)\}", text))
    assert set(SECTIONS.values()) <= anchors


def test_japanese_uses_the_rulebook_terms():
    tr = Translator("ja", NAMES)
    s = position(4, to_move=1, florins={1: 9}, pool="b1 g4 r2", men={1: "mil 13"})
    labels = " ".join(c["explain"] + c["label"] for c in describe.choices(s, tr))
    assert "フロリン" in labels and "しきい値" in labels
    s.apply("die b1")
    texts = " ".join(c["group"] for c in describe.choices(s, tr))
    assert "助手の雇用" in texts and "業務アクション" in texts and "外交任務" in texts
    glossary = {e.key: tr(e.name) for e in GAME.words.glossary()}
    for key, term in [("helper", "助手"), ("threshold", "しきい値"), ("alliance_tile", "同盟タイル"),
                      ("advancement_point", "進歩ポイント"), ("initiative", "イニシアチブトラック"),
                      ("dowry", "持参金"), ("stock", "全体ストック")]:
        assert glossary[key] == term


def test_japanese_names_the_signoria_actions_as_the_rulebook_does():
    """シニョーリアアクションの実行: the grey column's action is the rulebook's 「トラック」
    (its section title), whose points are 進歩ポイント; 「進歩」 alone is not the rulebook's."""
    tr = Translator("ja", NAMES)
    glossary = {e.key: tr(e.name) for e in GAME.words.glossary()}
    assert [glossary[f"signoria.{a}"] for a in SIGNORIA] == ["フロリン", "結婚", "子孫", "トラック", "外交任務"]
    s = position(4, to_move=1, florins={1: 9}, pool="g4")
    s.apply("die g4")
    labels = {c["notation"]: c["label"] for c in describe.choices(s, tr)}
    assert labels["advance"] == "トラック"


def test_log_names_players_and_components_in_words():
    tr = Translator("en", NAMES)
    s = position(4, to_move=1, florins={1: 9}, pool="b1", men={1: "mil 13"})
    s.apply("die b1")
    s.apply("mission mil 9 Milano")
    lines = [line["text"] for line in describe.log(s, None, tr)][-2:]
    assert lines[0] == "Bo takes the light blue die showing 1 and pays 4 florins"
    assert lines[1].startswith("Bo sends a military man from slot 9 to Milan: 13 VP")


def test_score_rows_add_up_at_the_end():
    s = list(positions(3, 5))[-1]
    table = describe.score_table(s, Translator("ja", NAMES))
    assert [sum(row["points"][p] for row in table["rows"]) for p in range(3)] == table["totals"]
    assert len(table["rows"]) == 9


def test_why_illegal_never_breaks_and_reads_plainly():
    from tests.test_words import check_text

    space = GAME.all_actions()
    rng = random.Random(7)
    for players in (2, 4):
        for s in positions(players, players, every=13):
            if s.is_over:
                continue
            legal = set(s.legal_actions())
            before = s.observe(None)
            for action in rng.sample(space, 60):
                if action in legal:
                    continue
                reason = GAME.words.why_illegal(s, action)
                if reason is not None:
                    for lang in ("en", "ja"):
                        check_text(Translator(lang, NAMES)(reason), lang, f"why {action}", set())
            assert s.observe(None) == before  # asking changes nothing


def test_choices_name_every_legal_action_differently():
    """Two legal actions with the same label and group would be indistinguishable buttons."""
    tr = Translator("en", NAMES)
    for players in (2, 3, 4):
        for s in positions(players, 9, every=5):
            if s.is_over:
                continue
            seen = {}
            for choice in describe.choices(s, tr):
                key = (choice["group"], choice["label"])
                assert key not in seen, f"{choice['notation']} and {seen[key]} both read {key}"
                seen[key] = choice["notation"]


def test_a_rejected_move_carries_its_reason_in_words():
    from palio.core.errors import IllegalAction

    s = position(4, to_move=1, florins={1: 0}, pool="b1")
    with pytest.raises(IllegalAction) as caught:
        s.apply("die b1")
    assert Translator("en")(caught.value.words) == "That die costs 4 florins, more than you have."
