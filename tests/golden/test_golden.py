"""Seeded playthroughs must match their golden files exactly; every game must have one."""

import pytest

import palio
from tests.golden.playthrough import CASES, path_for, playthrough

GOLDEN = [
    (game_id, *case) for game_id in palio.games() for case in CASES.get(game_id, [])
]


@pytest.mark.parametrize("game_id", list(palio.games()))
def test_every_game_has_a_golden_playthrough(game_id):
    assert CASES.get(game_id), f"{game_id} has no golden playthrough in tests/golden/playthrough.py"


@pytest.mark.parametrize(("game_id", "players", "options", "seed"), GOLDEN)
def test_playthrough_matches_golden_file(game_id, players, options, seed):
    path = path_for(game_id, players, options, seed)
    assert path.exists(), f"missing {path.name}: run python -m tests.golden.playthrough"
    expected = path.read_text(encoding="utf-8")
    assert playthrough(game_id, players, options, seed) == expected, (
        f"{path.name} changed: if the rules change is deliberate, regenerate and say why"
    )
