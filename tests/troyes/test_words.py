"""Troyes' words beyond the generic checks: the prompts point at sections that exist in both
rules documents, the terminal board stays compact, and the log never shows a secret."""

from __future__ import annotations

import random
import re
from pathlib import Path

from palio.core.i18n import Translator
from palio.games.troyes import GAME
from palio.games.troyes.words import GROUP_SECTIONS, SECTIONS

DOCS = Path(__file__).parents[2] / "docs" / "rules"


def anchors(path: Path) -> set[str]:
    return set(re.findall(r"^#+ .*\{#([a-z0-9-]+)\}\s*$", path.read_text(encoding="utf-8"), re.M))


def test_prompt_sections_exist_in_both_rules_documents():
    used = set(SECTIONS.values()) | set(GROUP_SECTIONS) | {"delayed-cards", "placing-a-citizen"}
    for name in ("troyes.md", "troyes.ja.md"):
        assert used <= anchors(DOCS / name), (name, used - anchors(DOCS / name))
    assert anchors(DOCS / "troyes.md") == anchors(DOCS / "troyes.ja.md")


def test_every_prompt_seen_in_play_names_a_documented_section():
    known = anchors(DOCS / "troyes.md")
    rng = random.Random(3)
    for players in (2, 4):
        s = GAME.setup(players, players)
        while not s.is_over:
            assert GAME.words.prompt(s).section in known
            s.apply_unchecked(rng.choice(s.legal_actions()))


def test_the_terminal_board_is_under_50_rows_with_four_players():
    rng = random.Random(1)
    s = GAME.setup(4, 9)
    longest = 0
    for lang in ("en", "ja"):
        tr = Translator(lang, ["Alice", "Bruno", "Chiara", "Dario"])
        while not s.is_over:
            if rng.random() < 0.05:
                longest = max(longest, len(GAME.render(s, s.to_move, tr).splitlines()))
            s.apply_unchecked(rng.choice(s.legal_actions()))
        longest = max(longest, len(GAME.render(s, None, tr).splitlines()))
        s = GAME.setup(4, 10)
    assert 10 < longest < 50


def test_a_seat_reads_its_own_characters_and_nobody_elses():
    s = GAME.setup(3, 5)
    tr = Translator("en", ["Alice", "Bruno", "Chiara"])
    from palio.core import describe
    from palio.games.troyes.words import character

    for seat in range(3):
        own = {tr(character(s.comp, ch)) for ch in s.chars[seat]}
        others = {tr(character(s.comp, ch)) for p in range(3) if p != seat for ch in s.chars[p]}
        text = " ".join(line["text"] for line in describe.log(s, seat, tr))
        board = GAME.render(s, seat, tr)
        assert all(name in text and name in board for name in own)
        assert not any(name in text or name in board for name in others - own)
    spectator = " ".join(line["text"] for line in describe.log(s, None, tr)) + GAME.render(s, None, tr)
    assert not any(tr(character(s.comp, ch)) in spectator for p in range(3) for ch in s.chars[p])


def test_reasons_for_illegal_moves_never_break_and_read_in_both_languages():
    from palio.core.errors import IllegalAction
    from tests.test_words import check_text

    rng = random.Random(7)
    every = GAME.all_actions()
    for players in (2, 4):
        s = GAME.setup(players, 20 + players)
        while not s.is_over:
            if rng.random() < 0.1:
                legal = set(s.legal_actions())
                for action in rng.sample(every, 25):
                    if action in legal:
                        continue
                    reason = GAME.words.why_illegal(s, action)
                    for lang in ("en", "ja"):
                        tr = Translator(lang, ["Alice", "Bruno", "Chiara", "Dario"])
                        if reason is not None:
                            check_text(tr(reason), lang, f"why {action}", set())
                    try:
                        s.apply(action)
                    except IllegalAction as exc:
                        assert exc.words is not None
                    else:
                        raise AssertionError(f"{action} was applied though not legal")
            s.apply_unchecked(rng.choice(s.legal_actions()))
