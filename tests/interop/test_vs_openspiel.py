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


def test_one_quick_game_reports_both_sides(module, tmp_path, capsys):
    out = tmp_path / "h2h.json"
    module.main(["--games", "2", "--time-per-move", "0.01", "--seed", "3", "--json", str(out)])
    printed = capsys.readouterr().out
    assert "iterations/s" in printed and "Wilson" in printed
    figures = json.loads(out.read_text())
    assert figures["games"] == 2 and 0 <= figures["palio_points"] <= 2
    low, high = figures["wilson_95"]
    assert 0 <= low <= figures["palio_win_rate"] <= high <= 1
    assert figures["palio"]["moves"] > 0 and figures["openspiel"]["moves"] > 0
    assert figures["palio"]["iterations"] > 0 and figures["openspiel"]["iterations"] > 0


def test_wilson_interval_matches_known_values(module):
    low, high = module.wilson(60, 100)
    assert low == pytest.approx(0.5020, abs=1e-3) and high == pytest.approx(0.6906, abs=1e-3)
    assert module.wilson(0, 0) == (0.0, 1.0)
