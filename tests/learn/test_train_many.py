"""benchmarks/train_many.py: several training runs side by side, then each model against mcts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

from tests.benchmark_scripts import BENCHMARKS  # noqa: E402

pytestmark = pytest.mark.learn


def test_two_runs_side_by_side_then_measured(tmp_path):
    runs = tmp_path / "runs"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "train_many.py"), "--runs", str(runs), "--minutes",
         "5", "--generations", "1", "--workers", "1", "--games", "2", "--steps", "2", "--batch", "8", "--hidden", "8",
         "--device", "cpu", "--measure-minutes", "2", "--measure-games", "2",
         "--time-per-move", "0.005", "san-gimignano:2", "troyes:2"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")})
    assert done.returncode == 0, done.stderr
    assert "trained 2 configurations" in done.stdout
    for name in ("san-gimignano-2p", "troyes-2p"):
        assert (runs / name / "model.npz").exists()
        record = [json.loads(line) for line in (runs / f"{name}.log").read_text().splitlines()
                  if line.startswith("{")]
        assert record[0]["generation"] == 1 and record[-1]["done"] and record[-1]["games"] == 2
        games = (runs / f"{name}.versus.jsonl").read_text().splitlines()
        assert len(games) == 2  # one deal, each bot in each seat
        assert f"{name.rsplit('-', 1)[0]} 2p: " in done.stdout
    assert "of 2 games" in done.stdout


def test_a_configuration_is_game_colon_players():
    refused = subprocess.run([sys.executable, str(BENCHMARKS / "train_many.py"), "tiletum"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "expected GAME:PLAYERS" in refused.stderr
