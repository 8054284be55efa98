"""The documents keep up with the code: every rules section a prompt links to exists in both
languages, the coverage table names real tests, the tensor layout is documented, and the
terminal board stays compact."""

from __future__ import annotations

import random
import re
from pathlib import Path

from palio.core.i18n import Translator
from palio.games.aquileia import GAME

DOCS = Path(__file__).parents[2] / "docs"
TESTS = Path(__file__).parents[1]


def section_ids(path: Path) -> set[str]:
    return set(re.findall(r"^#+ .*\{#([a-z0-9-]+)\}\s*$", path.read_text(encoding="utf-8"), re.M))


def test_every_prompt_links_to_a_section_of_both_rules_documents():
    linked = set()
    for seed in range(6):
        s = GAME.setup(3 + seed % 3, seed)
        rng = random.Random(seed)
        while not s.is_over:
            linked.add(GAME.words.prompt(s).section)
            s.apply_unchecked(rng.choice(s.legal_actions()))
    assert {"placement", "mercatus", "arena", "stadium", "theatrum", "forum"} <= linked
    english, japanese = section_ids(DOCS / "rules/aquileia.md"), section_ids(DOCS / "rules/aquileia.ja.md")
    assert linked <= english and linked <= japanese
    assert english == japanese


def test_the_coverage_table_names_real_tests():
    text = (DOCS / "coverage/aquileia.md").read_text(encoding="utf-8")
    defined = {m for path in TESTS.rglob("test_*.py")
               for m in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)}
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", text))
    assert named and named <= defined, sorted(named - defined)


def test_the_tensor_layout_is_documented():
    text = (DOCS / "observation-tensors.md").read_text(encoding="utf-8")
    assert GAME.observation_layout(3).table() in text


def test_the_terminal_board_is_compact():
    tr = Translator("en", ["Alice", "Bruno", "Chiara", "Dario", "Elena"])
    longest = 0
    s = GAME.setup(5, 3)
    rng = random.Random(3)
    while not s.is_over:
        for seat in (None, s.to_move):
            longest = max(longest, len(GAME.render(s, seat, tr).splitlines()))
        s.apply_unchecked(rng.choice(s.legal_actions()))
    assert longest < 50
