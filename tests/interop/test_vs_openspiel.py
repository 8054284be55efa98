"""The head-to-head benchmark with OpenSpiel runs end to end (one short game; no speed asserted)."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "vs_openspiel.py"


@pytest.fixture(scope="module")
def module():
    spec = importlib.util.spec_from_file_location("vs_openspiel", SCRIPT)
    loaded = importlib.util.module_from_spec(spec)
    sys.modules["vs_openspiel"] = loaded  # dataclasses look their module up there
    spec.loader.exec_module(loaded)
    yield loaded
    del sys.modules["vs_openspiel"]


def test_one_quick_game_against_each_opponent_reports_every_side(module, tmp_path, capsys):
    out = tmp_path / "h2h.json"
    module.main(["--games", "1", "--time-per-move", "0.005", "--seed", "3", "--json", str(out)])
    printed = capsys.readouterr().out
    assert "iterations run per CPU-s" in printed and "asked for" in printed
    assert "Wilson" in printed and "vs ismcts" in printed
    figures = json.loads(out.read_text())
    assert [m["opponent"] for m in figures["matches"]] == ["mcts", "ismcts"]
    assert figures["clock"] == "cpu" and figures["cpu_seconds"] > 0
    for match in figures["matches"]:
        assert match["games"] == 1 and 0 <= match["palio_points"] <= 1
        low, high = match["wilson_95"]
        assert 0 <= low <= match["palio_win_rate"] <= high <= 1
        for side in ("palio", match["opponent"]):
            assert match[side]["moves"] > 0 and match[side]["iterations"] > 0
            # counted as run: never more than asked for (OpenSpiel's solver may stop early)
            assert match[side]["iterations"] <= match[side]["asked"]
            assert match[side]["cpu_seconds_per_move"] > 0


def test_bad_arguments_are_refused(module):
    with pytest.raises(SystemExit):
        module.main(["--opponents", "alphazero"])


def test_wilson_interval_matches_known_values(module):
    low, high = module.wilson(60, 100)
    assert low == pytest.approx(0.5020, abs=1e-3) and high == pytest.approx(0.6906, abs=1e-3)
    assert module.wilson(0, 0) == (0.0, 1.0)
