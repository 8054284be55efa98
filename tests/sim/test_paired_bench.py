"""benchmarks/paired.py: two versus.py runs on one seed compared deal by deal."""

import json

import pytest

from tests.benchmark_scripts import benchmark as _script


def test_runs_on_one_seed_are_compared_on_the_same_deals(tmp_path, capsys):
    versus, paired = _script("versus"), _script("paired")
    runs = {}
    for name, a in (("greedy", "greedy"), ("random", "random:seed=3")):
        runs[name] = tmp_path / f"{name}.jsonl"
        versus.main(["san-gimignano", "--a", a, "--b", "random", "--games", "6", "--seed", "4",
                     "--out", str(runs[name])])
    rows = {name: [json.loads(line) for line in path.read_text().splitlines()]
            for name, path in runs.items()}
    deals = {name: {row["seed"] for row in found} for name, found in rows.items()}
    assert deals["greedy"] == deals["random"] and len(deals["greedy"]) == 3  # the same deals

    def share(found, a):  # A's points over every game of the run, by hand
        won = 0.0
        for row in found:
            mine = row["bots"].index(a)
            ours, theirs = row["ranks"][mine], row["ranks"][1 - mine]
            won += 1.0 if ours < theirs else 0.5 if ours == theirs else 0.0
        return won / len(found)

    figures = paired.main([str(runs["greedy"]), str(runs["random"])])
    assert figures["deals"] == 3
    assert figures["first"] == pytest.approx(share(rows["greedy"], "greedy"))
    assert figures["second"] == pytest.approx(share(rows["random"], "random:seed=3"))
    assert figures["difference"] == pytest.approx(figures["first"] - figures["second"])
    low, high = figures["interval_95"]
    assert low <= figures["difference"] <= high
    assert "3 deals" in capsys.readouterr().out


def test_a_file_of_more_players_is_refused(tmp_path):
    paired = _script("paired")
    path = tmp_path / "three.jsonl"
    path.write_text(json.dumps({"players": 3, "index": 0, "bots": ["a", "b", "c"],
                                "ranks": [1, 2, 3], "seed": 1}) + "\n")
    with pytest.raises(SystemExit, match="not a two-player"):
        paired.main([str(path), str(path)])


def test_versus_from_a_file_counts_what_the_run_counted(tmp_path):
    """--from reads an earlier run's games (played elsewhere) and gives that run's figures."""
    versus = _script("versus")
    out = tmp_path / "run.jsonl"
    played = versus.main(["troyes", "-p", "3", "--a", "greedy", "--b", "random", "--games", "3",
                          "--seed", "2", "--out", str(out)])
    read = versus.main(["troyes", "-p", "3", "--a", "greedy", "--b", "random", "--seed", "2",
                        "--from", str(out)])
    for key in ("games", "points", "pairs", "rate", "wilson_95", "iterations_per_move"):
        assert read[key] == played[key]
    assert played["pairs"] == 6  # three games, the A seat against two others in each
    with pytest.raises(ValueError, match="no seat played by 'mcts'"):  # a file of other bots: A's seat is not in it
        versus.main(["troyes", "-p", "3", "--a", "mcts", "--b", "random", "--from", str(out)])
