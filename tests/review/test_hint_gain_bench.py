"""benchmarks/hint_gain.py: the hint's choice against greedy's in paired playouts."""

import math
import statistics

import pytest

import palio
from palio import bots
from palio.review import Budget, hint
from tests.benchmark_scripts import benchmark as _script


@pytest.fixture(scope="module")
def bench():
    return _script("hint_gain")


@pytest.fixture(scope="module")
def row(bench):
    return bench.measure("san-gimignano", 2, positions=2, iterations=20, playouts=2, seed=3,
                         per_game=2)


def test_the_summary_is_the_mean_of_the_positions_paired_differences(row):
    assert row["game"] == "san-gimignano" and row["players"] == 2
    assert row["positions"] == len(row["judged"]) == 2
    assert row["iterations"] == 20 and row["playouts"] == 2 and row["continue"] == "greedy"
    assert row["cpu_seconds"] >= 0
    judged = row["judged"]
    assert len({(p["deal"], p["move"]) for p in judged}) == 2  # two different decisions
    for p in judged:
        if p["identical"]:
            assert p["hint"] == p["greedy"] and p["playouts"] == []
            assert p["win_difference"] == 0.0 and p["margin_difference"] == 0.0
            continue
        assert p["hint"] != p["greedy"] and len(p["playouts"]) == 2
        for k in p["playouts"]:
            assert k["hint_win"] in (0.0, 0.5, 1.0) and k["greedy_win"] in (0.0, 0.5, 1.0)
        assert p["win_difference"] == pytest.approx(
            statistics.fmean(k["hint_win"] - k["greedy_win"] for k in p["playouts"]))
        assert p["margin_difference"] == pytest.approx(
            statistics.fmean(k["hint_margin"] - k["greedy_margin"] for k in p["playouts"]))
    assert row["identical_share"] == sum(p["identical"] for p in judged) / 2
    wins = [p["win_difference"] for p in judged]
    assert row["win_difference"] == pytest.approx(statistics.fmean(wins))
    low, high = row["win_interval"]
    assert low <= row["win_difference"] <= high
    # two positions: t with one degree of freedom (12.706)
    for name in ("win", "margin"):
        values = [p[f"{name}_difference"] for p in judged]
        mean, half = statistics.fmean(values), 12.706 * statistics.stdev(values) / math.sqrt(2)
        assert row[f"{name}_difference"] == pytest.approx(mean)
        assert row[f"{name}_interval"] == pytest.approx([mean - half, mean + half])


def test_the_positions_are_real_decisions_of_the_sampled_games(bench):
    for position in bench.sample_positions("san-gimignano", 2, 3, seed=3, per_game=3):
        assert len(position.state.legal_actions()) > 1 and not position.state.is_over
        assert position.state.move_number == position.move


def test_the_choices_are_the_hints_first_and_greedys(bench):
    state = bench.sample_positions("san-gimignano", 2, 1, seed=5, per_game=1)[0].state
    mover = state.to_move
    got = bench.judge_position(state, 30, 2, seed=17)
    want = hint(state, mover, budget=Budget(iterations=30), seed=17, worlds=1)
    assert got["hint"] == want["choices"][0]["notation"]
    assert got["greedy"] == str(bots.get("greedy", seed=17).choose(state, mover))
    assert got["mover"] == mover


def test_identical_choices_differ_by_exactly_zero(bench, monkeypatch):
    state = bench.sample_positions("san-gimignano", 2, 1, seed=4, per_game=1)[0].state
    greedy = str(bots.get("greedy", seed=9).choose(state, state.to_move))
    monkeypatch.setattr(bench, "hint", lambda *a, **k: {"choices": [{"notation": greedy}]})
    got = bench.judge_position(state, 10, 3, seed=9)
    assert got["identical"] and got["hint"] == got["greedy"] == greedy
    assert got["win_difference"] == 0.0 and got["margin_difference"] == 0.0


def test_both_branches_of_a_playout_meet_the_same_randomness(bench):
    """Common random numbers: one action finished twice with one seed ends the same, so a
    difference between the branches is the choice's."""
    state = palio.new_game("san-gimignano", players=2, seed=8)
    action = state.legal_actions()[0]
    first = bench.finish(state, action, state.to_move, "greedy", 123)
    assert bench.finish(state, action, state.to_move, "greedy", 123) == first
    others = {bench.finish(state, action, state.to_move, "greedy", s) for s in range(1, 7)}
    assert len(others | {first}) > 1  # the seed does reach the continuation
    assert not state.move_number  # the true state is left as it was


def test_bad_settings_are_refused(bench):
    state = palio.new_game("san-gimignano", players=2, seed=8)
    with pytest.raises(ValueError, match="worlds"):
        bench.judge_position(state, 10, 2, seed=1, worlds="all")
    with pytest.raises(ValueError, match="playout"):
        bench.judge_position(state, 10, 0, seed=1)
    for argv in (["--games", "san-gimignano:2", "--playouts", "0"], ["--games", "chess:2"],
                 ["--games", "signorie:9"], ["--games", "signorie:two"]):
        with pytest.raises(SystemExit):
            bench.main(argv)


def test_t_quantiles(bench):
    assert bench.t975(1) == 12.706 and bench.t975(39) == pytest.approx(2.0227, abs=1e-3)
    assert bench.t975(100) == pytest.approx(1.9840, abs=1e-3)


def test_worlds_from_the_movers_view_pair_both_branches_too(bench, monkeypatch):
    """``--worlds mover``: each playout starts from one world drawn from the mover's view, the
    same for both branches; a choice played in both branches differs by exactly 0."""
    state = bench.sample_positions("san-gimignano", 2, 1, seed=4, per_game=1)[0].state
    mover = state.to_move
    legal = state.legal_actions()
    greedy = bots.get("greedy", seed=9).choose(state, mover)
    other = next(a for a in legal if a != greedy)
    monkeypatch.setattr(bench, "hint", lambda *a, **k: {"choices": [{"notation": str(other)}]})
    got = bench.judge_position(state, 10, 3, seed=9, worlds="mover")
    assert not got["identical"] and 1 <= len(got["playouts"]) <= 3
    assert got["win_difference"] == pytest.approx(
        statistics.fmean(k["hint_win"] - k["greedy_win"] for k in got["playouts"]))
    # the same action in both branches of one world and one seed: no difference at all
    world = state.determinize(mover, bench.random.Random(5))
    assert (bench.finish(world, greedy, mover, "greedy", 5)
            == bench.finish(world, greedy, mover, "greedy", 5))


def _position(wins: list[tuple[float, float]]) -> dict:
    rows = [{"hint_win": h, "greedy_win": g, "hint_margin": 10 * h, "greedy_margin": 10 * g}
            for h, g in wins]
    diffs = [h - g for h, g in wins]
    mean = statistics.fmean(diffs) if diffs else 0.0
    return {"win_difference": mean, "margin_difference": 10 * mean, "playouts": rows}


def test_the_playout_share_is_the_playouts_noise_over_the_spread_of_position_means(bench):
    # differences per playout [1, 0] (variance 0.5, over 2 playouts 0.25), none (choices
    # agree), [1, 1] (no noise): position means 0.5, 0, 1 (variance 0.25); noise 0.25 / 3
    judged = [_position([(1, 0), (0, 0)]), _position([]), _position([(1, 0), (1, 0)])]
    assert bench.playout_share(judged) == pytest.approx((0.25 / 3) / 0.25)
    assert bench.playout_share(judged, "margin") == pytest.approx((0.25 / 3) / 0.25)
    # every playout of a position alike: all the spread is between positions
    steady = [_position([(1, 0)] * 4), _position([(0, 0)] * 4), _position([(0, 1)] * 4)]
    assert bench.playout_share(steady) == 0.0
    assert bench.playout_share([_position([(1, 0), (0, 0)])]) == 0.0  # one position
    assert bench.playout_share([_position([]), _position([])]) == 0.0  # nothing varies


def test_the_summary_gives_the_playout_share(row, bench):
    assert row["win_playout_share"] == round(bench.playout_share(row["judged"]), 3)
    assert row["margin_playout_share"] == round(bench.playout_share(row["judged"], "margin"), 3)
    assert 0.0 <= row["win_playout_share"] <= 1.0
