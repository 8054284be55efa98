"""benchmarks/review_stability.py: class stability across two seeds and suggestions confirmed
at ten times the budget, counted right."""


from palio.review import CONFIRM_BY_GAME, Budget
from tests.benchmark_scripts import benchmark as _script

stability = _script("review_stability")


def _decision(move, cls, played="pass", best="buy", forced=False):
    loss = {None: 0.0, "inaccuracy": 0.1, "mistake": 0.2, "blunder": 0.4}[cls]
    return {"move": move, "forced": forced, "class": cls, "loss": loss,
            "played": {"notation": played}, "best": {"notation": best if cls else played}}


def _review(*decisions):
    return {"decisions": list(decisions)}


def test_a_flagged_decision_with_another_class_from_the_other_seed_is_unstable():
    a = _review(_decision(0, None), _decision(1, "mistake"), _decision(2, "inaccuracy"),
                _decision(3, "blunder"), _decision(4, None), _decision(5, None, forced=True))
    b = _review(_decision(0, None), _decision(1, "mistake"), _decision(2, None),
                _decision(3, "mistake"), _decision(4, "inaccuracy"), _decision(5, None, forced=True))
    got = stability.class_stability(a, b)
    # flagged by either: 1, 2, 3, 4; only 1 keeps its class; 0 (never flagged) is not counted
    assert (got["flagged"], got["same_class"], got["share"]) == (4, 1, 0.25)
    assert got["unstable"] == [[2, "inaccuracy", None, 0.1, 0.0],
                               [3, "blunder", "mistake", 0.4, 0.2],
                               [4, None, "inaccuracy", 0.0, 0.1]]
    assert stability.class_stability(a, a)["share"] == 1.0
    assert stability.class_stability(_review(_decision(0, None)), _review(_decision(0, None))) \
        == {"flagged": 0, "same_class": 0, "share": None, "unstable": []}


def test_a_suggestion_is_confirmed_only_when_the_judge_values_it_above_the_choice_played():
    limits = (0.08, 0.15, 0.30)

    def judged(best, suggested_value, played_value, best_value):
        row = {"played": "pass", "suggested": "buy", "best": best, "class": "inaccuracy",
               "suggested_value": suggested_value, "played_value": played_value,
               "best_value": best_value}
        return {**row, **stability.ten_class(row, limits)}

    rows = [
        judged("buy", 0.6, 0.4, 0.6),  # confirmed, the judge's best too; loss 0.2: a mistake
        judged("take 3", 0.5, 0.4, 0.5),  # confirmed, another choice as good: gap 0, 0.1
        judged("pass", 0.3, 0.4, 0.4),  # the choice played was better: gap 0.1, no loss
        judged("pass", 0.4, 0.4, 0.4),  # a tie confirms nothing
    ]
    assert [(r["ten_loss"], r["ten_class"]) for r in rows] == [
        (0.2, "mistake"), (0.1, "inaccuracy"), (0.0, None), (0.0, None)]
    got = stability.confirmation(rows)
    assert (got["judged"], got["confirmed"], got["share"]) == (4, 2, 0.5)
    assert (got["same_class"], got["class_share"]) == (1, 0.25)
    assert (got["best_is_suggestion"], got["best_share"]) == (1, 0.25)
    assert got["mean_gap"] == round((0 + 0.0 + 0.1 + 0.0) / 4, 4)
    assert stability.confirmation([])["share"] is None
    assert stability.verdict([0.9, 0.84], 0.85) == "missed"
    assert stability.verdict([0.9, 0.85], 0.85) == "met"
    assert stability.verdict([0.9, None], 0.85) == "missed"
    assert stability.verdict([None, None], 0.85) == "not measured"


def test_one_san_gimignano_game_at_tiny_budgets_is_counted_from_its_own_reviews(monkeypatch):
    # its suggestions checked at three times the budget, as three-player Aquileia's at ten
    monkeypatch.setitem(CONFIRM_BY_GAME, ("san-gimignano", 2), 3)
    record = stability.played_game("san-gimignano", 2, 1, "greedy")
    moves = list(range(40))
    run = stability.stability_run(record, Budget(iterations=6), 1, moves=moves)
    reviews, _, _ = stability.two_reviews(record, Budget(iterations=6), 1, moves=moves)
    assert run["decisions"] == len([d for d in reviews[0]["decisions"] if not d["forced"]])
    # the same reviews again (seeded), counted by hand
    left = {d["move"]: d["class"] for d in reviews[0]["decisions"] if not d["forced"]}
    right = {d["move"]: d["class"] for d in reviews[1]["decisions"] if not d["forced"]}
    flagged = [m for m in left if left[m] or right[m]]
    assert flagged, "a greedy game at 6 iterations has decisions to flag"
    assert run["class_stability"]["flagged"] == len(flagged)
    assert run["class_stability"]["same_class"] == sum(left[m] == right[m] for m in flagged)
    assert run["checked"] == [sum(bool(d.get("checked")) for d in r["decisions"])
                              for r in reviews]
    assert run["rechecks"] == [sum(d["rechecks"] for d in r["decisions"]) for r in reviews]
    assert all(d["rechecks"] >= d["checked"] for r in reviews for d in r["decisions"])
    assert run["overruled"] == [sum(d["confirmed"] is False for d in r["decisions"])
                                for r in reviews]
    # a class is given only after the check (which may replace the review's verdict)
    assert all(d["confirmed"] is not None for r in reviews for d in r["decisions"]
               if d["class"])
    assert any(d["confirmed"] is not None for r in reviews for d in r["decisions"])
    # every suggestion judged at ten times: flagged by the first review, not the choice played
    asked = {d["move"] for d in reviews[0]["decisions"]
             if d["class"] and d["best"]["notation"] != d["played"]["notation"]}
    assert asked and {j["move"] for j in run["judged"]} == asked
    for j in run["judged"]:
        assert j["class"] == left[j["move"]] and j["suggested"] != j["played"]
        assert j["played"] == record.actions[j["move"]]
    confirmed = sum(j["suggested_value"] > j["played_value"] for j in run["judged"])
    assert run["confirmation"]["confirmed"] == confirmed
    assert run["confirmation"]["judged"] == len(asked)
    # a limit judges a sample of the suggestions, no more
    limited = stability.stability_run(record, Budget(iterations=6), 1, moves=moves, ten_limit=1)
    assert limited["confirmation"]["judged"] == 1
    assert limited["judged"][0]["move"] in asked
