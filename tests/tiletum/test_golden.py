"""Golden playthroughs: seeded games stored as notation; a change that alters them must say why.

Regenerate with ``PALIO_REGEN_GOLDEN=1 pytest tests/tiletum/test_golden.py``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from palio.games.tiletum import GAME

HERE = Path(__file__).parent / "golden"
CASES = [(2, 101), (3, 202), (4, 303)]


def play(players: int, seed: int) -> list[str]:
    s = GAME.setup(players, seed)
    rng = random.Random(seed)
    lines = []
    while not s.is_over:
        legal = s.legal_actions()
        busy = [a for a in legal if str(a) not in ("end", "done")]
        action = rng.choice(busy if busy and rng.random() < 0.8 else legal)
        lines.append(f"{s.to_move} {action}")
        s.apply(action)
    lines.append(f"scores {' '.join(str(int(v)) for v in s.scores())}")
    lines.append(f"ranking {' '.join(map(str, s.ranking()))}")
    return lines


@pytest.mark.parametrize("players, seed", CASES)
def test_golden_playthrough(players, seed):
    path = HERE / f"tiletum_{players}p_seed{seed}.txt"
    lines = play(players, seed)
    if os.environ.get("PALIO_REGEN_GOLDEN") or not path.exists():
        path.write_text("\n".join(lines) + "\n")
    assert path.read_text().splitlines() == lines


@pytest.mark.parametrize("players, seed", CASES)
def test_golden_replays_from_notation(players, seed):
    path = HERE / f"tiletum_{players}p_seed{seed}.txt"
    if not path.exists():
        pytest.skip("golden file not generated yet")
    *moves, scores, _ranking = path.read_text().splitlines()
    s = GAME.setup(players, seed)
    for line in moves:
        seat, text = line.split(" ", 1)
        assert s.to_move == int(seat)
        s.apply(text)
    assert scores == f"scores {' '.join(str(int(v)) for v in s.scores())}"
