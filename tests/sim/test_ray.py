"""The Ray backend gives the same results as local processes, and says how to get Ray."""

from __future__ import annotations

import sys

import pytest

from palio import sim
from palio.core.errors import OptionError


def by_index(results):
    return sorted((sim.comparable(r) for r in results), key=lambda r: r["index"])


@pytest.mark.ray
def test_ray_results_equal_process_results():
    ray = pytest.importorskip("ray")
    simulation = {"game": "san-gimignano", "games": 3, "bots": ["mcts:iterations=3", "greedy"],
                  "seed": 21, "records": True}
    tournament = {"game": "tiletum", "bots": ["greedy", "random"], "games": 1, "players": 3,
                  "seed": 4}
    local = by_index(sim.simulate(workers=2, **simulation))
    local_arena = by_index(sim.arena(workers=2, **tournament))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = by_index(sim.simulate(workers=2, backend="ray", **simulation))
        remote_arena = by_index(sim.arena(workers=2, backend="ray", **tournament))
    finally:
        ray.shutdown()
    assert remote == local and len(remote) == 3 and "record" in remote[0]
    assert remote_arena == local_arena and len(remote_arena) == 6


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # makes ``import ray`` fail
    with pytest.raises(OptionError, match=r"pip install 'palio\[ray\]'"):
        sim.simulate("san-gimignano", games=1, bots=["random"], backend="ray")


def test_the_command_line_says_it_too_and_exits_2(monkeypatch):
    from typer.testing import CliRunner

    from palio.cli import app

    monkeypatch.setitem(sys.modules, "ray", None)
    result = CliRunner().invoke(app, ["simulate", "san-gimignano", "--backend", "ray"])
    assert result.exit_code == 2 and "pip install 'palio[ray]'" in result.output
