"""benchmarks/hint_choice.py: ways of choosing from the hint's search, against greedy's."""

import statistics

import pytest

from palio.review import Budget, Engine, hint
from tests.benchmark_scripts import benchmark as _script


@pytest.fixture(scope="module")
def bench():
    return _script("hint_choice")


@pytest.fixture(scope="module")
def positions():
    return _script("hint_gain").sample_positions("signorie", 2, 2, seed=3, per_game=2)


def test_the_hints_rule_is_the_hints_first_choice_and_visits_the_most_searched(bench, positions):
    """The hint's rule since the seventh stop is ``settle`` (its three most searched choices
    each searched further, then the best valued); ``value@B`` is the rule before it."""
    for index, position in enumerate(positions):
        state = position.state
        engine = Engine.strongest(state)
        chosen, cpu = bench.ways(state, engine, 40 + index, [20, 45])
        given = hint(state, state.to_move, budget=Budget(iterations=20), seed=40 + index,
                     worlds=1)
        assert str(chosen["settle@20"]) == given["choices"][0]["notation"]
        for budget in (20, 45):
            stats = engine.search(state, state.to_move, Budget(iterations=budget), 40 + index)
            assert chosen[f"visits@{budget}"] == stats.best.action
        assert set(cpu) == {"@20", "@45", "settle@20", "recheck@20"}
        assert all(v >= 0 for v in cpu.values())


def test_each_way_is_judged_against_greedys_choice_in_the_same_playouts(bench, positions):
    state = positions[0].state
    engine = Engine.strongest(state)
    judged = [bench.judge(p.state, engine, 7 + i, [20, 45], 2) for i, p in enumerate(positions)]
    for p in judged:
        assert set(p["choice"]) == {"value@20", "visits@20", "value@45", "visits@45",
                                    "settle@20", "recheck@20", "greedy"}
        assert set(p["results"]) == set(p["choice"].values())  # each distinct choice once
        assert all(len(rows) == 2 for rows in p["results"].values())
    rows = bench.summary("signorie", 2, judged)
    assert [r["way"] for r in rows] == ["value@20", "visits@20", "value@45", "visits@45",
                                        "settle@20", "recheck@20"]
    for r in rows:
        wins = [statistics.fmean(a[0] - g[0] for a, g in zip(
            p["results"][p["choice"][r["way"]]], p["results"][p["choice"]["greedy"]],
            strict=True)) for p in judged]
        assert r["win_difference"] == pytest.approx(statistics.fmean(wins))
        assert r["changed"] == sum(p["choice"][r["way"]] != p["choice"]["value@20"]
                                   for p in judged)
    assert rows[0]["against_value@20"] == 0.0 and rows[0]["changed"] == 0


def test_time_hints_times_a_served_hint_at_each_budget(bench):
    row = bench.time_hints("signorie", 2, 2, 3, [10, 30])
    assert row["game"] == "signorie" and row["positions"] == 2
    assert list(row["cpu_per_hint"]) == [10, 30]
    for cell in row["cpu_per_hint"].values():
        assert 0 <= cell["mean"] <= cell["max"]
    with pytest.raises(SystemExit):
        bench.main(["--games", "signorie:2", "--time-hints", "-1"])
