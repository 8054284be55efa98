"""benchmarks/review_rank.py: the breakdowns by opponent and by decided position, and a kept
game judged again, computed right."""

import pytest

from palio.review import Budget, review
from tests.benchmark_scripts import benchmark as _script
from tests.review.test_review import small_record

rank = _script("review_rank")


def _decision(before, gap, stake):
    return {"before": before, "margin_gap": gap, "stake_margin": stake}


def test_accuracy_by_opponent_pools_each_bots_games_against_one_opponent():
    greedy, mcts20 = rank.BOTS.index("greedy"), rank.BOTS.index("mcts:iterations=20")
    plays = {greedy: [("random", [_decision(0.5, 1.0, 4.0)]),
                      ("random", [_decision(0.5, 3.0, 4.0)]),
                      ("mcts20", [_decision(0.5, 0.0, 2.0)])],
             mcts20: [("greedy", [_decision(0.5, 4.0, 2.0)])]}
    got = rank.by_opponent(plays)
    # (1 + 3) lost of (4 + 4) staked: 50; nothing lost: 100; more lost than staked: 0
    assert got == {"greedy": {"mcts20": 100.0, "random": 50.0}, "mcts20": {"greedy": 0.0}}


def test_decided_split_parts_a_bots_decisions_by_the_judges_value():
    greedy = rank.BOTS.index("greedy")
    plays = {greedy: [("random", [_decision(0.5, 1.0, 4.0), _decision(0.99, 2.0, 2.0)]),
                      ("mcts150", [_decision(0.01, 0.0, 2.0), _decision(0.3, 0.0, 4.0)])]}
    share, open_accuracy, decided_accuracy = rank.decided_split(plays)["greedy"]
    assert share == 0.5  # 0.99 and 0.01 are decided, 0.5 and 0.3 are not
    assert open_accuracy == pytest.approx(87.5)  # 1 lost of 8 staked
    assert decided_accuracy == pytest.approx(50.0)  # 2 lost of 4 staked


def test_a_kept_game_judged_again_at_the_reviews_budget_gives_the_reviews_measures():
    """Judged again at the review's own budget and seed, a game gets the first search's
    verdicts back wherever the review did not search again near a class line."""
    record = small_record()
    kept = review(record, budget=Budget(iterations=12), seed=3)
    again = rank.judged_again(record.to_json(), 12, 3)
    first = {d["move"]: d for d in kept["decisions"] if not d["forced"]}
    assert sorted(d["move"] for d in again["decisions"]) == sorted(first)
    compared = 0
    for d in again["decisions"]:
        old = first[d["move"]]
        if old["checked"]:
            continue
        compared += 1
        assert d["loss"] == pytest.approx(old["loss"], abs=1e-4)
        assert d["stake"] == pytest.approx(old["stake"], abs=1e-4)
        assert d["margin_gap"] == pytest.approx(old["margin_gap"], abs=0.01)
        assert d["stake_margin"] == pytest.approx(old["stake_margin"], abs=0.01)
        assert d["played"]["notation"] == old["played"]["notation"]
    assert compared >= 5
    # the measures read it as they read a review
    scale = 8.0
    mine = [d for d in again["decisions"] if d["seat"] == 0]
    assert 0.0 <= rank.variants(mine, scale)["accuracy"] <= 100.0
