"""Every observation tensor of seeded random games must match its golden digest, and its sparse
entries (what the ``learned`` bot's search reads) must be the dense tensor's nonzeros."""

import json

import pytest

import palio
from tests.encoding import random_positions
from tests.golden.encodings import FILE, cases, digest, key

GOLDEN = json.loads(FILE.read_text(encoding="utf-8"))


def test_every_case_has_a_golden_digest_and_no_other():
    assert sorted(GOLDEN) == sorted(key(*case) for case in cases()), (
        "run python -m tests.golden.encodings")


@pytest.mark.parametrize(("game_id", "players", "options"), cases(), ids=lambda v: str(v))
def test_encodings_match_their_golden_digest(game_id, players, options):
    expected = GOLDEN[key(game_id, players, options)]
    hexdigest, count = digest(palio.get_game(game_id), players, options)
    assert count == expected["observations"], "the random games changed: did the rules change?"
    assert hexdigest == expected["sha256"], (
        "an observation tensor changed: shipped models read these values; if the change is "
        "deliberate, change the layout too and regenerate (python -m tests.golden.encodings)")


@pytest.mark.parametrize(("game_id", "players", "options"), cases(), ids=lambda v: str(v))
def test_sparse_entries_are_the_dense_tensors_nonzeros(game_id, players, options):
    game = palio.get_game(game_id)
    size = game.observation_layout(players).size
    checked = 0
    for state in random_positions(game, players, 1, options or None, seed=7):
        for seat in (*range(players), None):
            entries = game.observation_entries(state, seat)
            dense = game.observation_tensor(state, seat)
            assert len(dense) == size == entries.size
            assert entries.index == [i for i, v in enumerate(dense) if v]
            assert entries.value == [v for v in dense if v]
            assert all(type(v) is float for v in entries.value)
            checked += 1
    assert checked > 50
