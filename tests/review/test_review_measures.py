"""The review's measures, one small function each (docs/review.md, "The measures"), the
reasons in words from the mover's view only, re-searching near class lines, hint order."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import palio
from palio.core.i18n import Translator
from palio.review import (
    CONFIRM_BY_GAME,
    NEAR,
    OUTLOOK_WORLDS,
    PLAYED_SHARE,
    QUIET_WORLDS,
    RECHECK,
    RECHECK_CAP,
    STOP,
    Budget,
    Choice,
    Engine,
    RootStats,
    accuracy_loss,
    advice,
    blend_loss,
    confirm,
    confirm_for,
    decision_seed,
    game_accuracy,
    hint,
    hybrid_loss,
    judge_decision,
    lichess_accuracy,
    lichess_game_accuracy,
    loss_of,
    margin_lost,
    margin_share,
    move_accuracy,
    near_a_line,
    near_for,
    outlook,
    pool,
    position_weight,
    recheck,
    saturated,
    share_lost,
    stakes,
    why_words,
    win_percent,
    won_loss,
)
from tests.review.test_review import position_at

TINY = Budget(iterations=40)


def test_win_percent_is_the_share_in_percent_clamped():
    assert win_percent(0.5) == 50.0
    assert win_percent(0.0) == 0.0 and win_percent(1.0) == 100.0
    assert win_percent(1.2) == 100.0 and win_percent(-0.1) == 0.0


def test_saturated_only_below_five_or_above_ninety_five_percent():
    assert saturated(0.01) and saturated(0.99)
    assert not saturated(0.05) and not saturated(0.5) and not saturated(0.95)


def test_margin_share_is_the_logistic_slope_at_an_even_position():
    assert margin_share(8, 8.0) == pytest.approx(0.25)
    assert margin_share(0, 8.0) == 0.0
    assert margin_share(100, 8.0) == 1.0 and margin_share(-3, 8.0) == 0.0
    # the slope of 1 / (1 + exp(-x / s)) at 0 is 1 / (4 s)
    s = 8.0
    slope = (1 / (1 + math.exp(-0.001 / s)) - 0.5) / 0.001
    assert margin_share(1, s) == pytest.approx(slope, rel=1e-3)


def test_accuracy_loss_uses_the_margin_only_where_win_share_saturated():
    assert accuracy_loss(0.1, 0.5, 40.0, 8.0) == 0.1  # win share still moves
    assert accuracy_loss(0.0, 0.99, 8.0, 8.0) == pytest.approx(0.25)
    assert accuracy_loss(0.0, 0.01, 8.0, 8.0) == pytest.approx(0.25)
    assert accuracy_loss(0.3, 0.99, 1.0, 8.0) == 0.3  # never less than the win share lost
    assert accuracy_loss(0.0, 0.99, None, 8.0) == 0.0  # the bot's own choice: nothing lost


def test_position_weight_is_the_logistic_slope_there_with_a_floor():
    assert position_weight(0.5) == 1.0
    assert position_weight(0.9) == pytest.approx(0.36)
    assert position_weight(0.1) == pytest.approx(0.36)
    # decided games still count a little, and never more than an even one
    assert position_weight(0.99) == 0.2 and position_weight(0.0) == 0.2
    assert position_weight(0.99, floor=0.0) == pytest.approx(0.0396)
    assert position_weight(1.3) == 0.2
    # the slope of the logistic p(x) = 1 / (1 + e^-x) is p (1 - p): relative to x = 0
    for x in (-2.0, -0.5, 1.0):
        p = 1 / (1 + math.exp(-x))
        slope = (1 / (1 + math.exp(-(x + 1e-6))) - p) / 1e-6
        assert position_weight(p, floor=0.0) == pytest.approx(slope / 0.25, rel=1e-4)


def test_hybrid_loss_reads_the_margin_only_where_win_share_stops_moving():
    assert hybrid_loss(0.1, 40.0, 0.5, 8.0) == 0.1
    assert hybrid_loss(0.1, 40.0, 0.1, 8.0) == 0.1 and hybrid_loss(0.1, 40.0, 0.9, 8.0) == 0.1
    assert hybrid_loss(0.1, 8.0, 0.95, 8.0) == pytest.approx(0.25)
    assert hybrid_loss(0.3, 4.0, 0.02, 8.0) == pytest.approx(0.125)
    assert hybrid_loss(-0.1, 4.0, 0.5, 8.0) == 0.0


def test_won_loss_forgives_points_only_in_a_game_won():
    assert won_loss(0.01, 16.0, 0.95, 8.0) == 0.01  # sure to win: points do not matter
    assert won_loss(0.01, 16.0, 0.5, 8.0) == pytest.approx(0.5)
    assert won_loss(0.01, 16.0, 0.02, 8.0) == pytest.approx(0.5)  # a lost game still counts
    assert won_loss(0.01, 16.0, 0.9, 8.0) == pytest.approx(0.5)  # the line is strict


def test_blend_loss_adds_win_share_and_margin():
    assert blend_loss(0.1, 8.0, 8.0) == pytest.approx(0.35)
    assert blend_loss(0.0, 0.0, 8.0) == 0.0
    assert blend_loss(-0.2, 4.0, 8.0) == pytest.approx(0.125)


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 50), st.floats(0, 50), st.floats(0, 1))
def test_the_variants_never_fall_as_a_loss_grows(a, b, m, n, before):
    low, high = sorted((a, b))
    small, big = sorted((m, n))
    for loss in (lambda s, g: hybrid_loss(s, g, before, 8.0),
                 lambda s, g: won_loss(s, g, before, 8.0),
                 lambda s, g: blend_loss(s, g, 8.0)):
        assert 0 <= loss(low, small) <= loss(high, big)


@given(st.floats(0, 1), st.floats(0, 1))
def test_lichess_accuracy_falls_as_the_loss_grows(a, b):
    low, high = sorted((a, b))
    assert 0 <= lichess_accuracy(high) <= lichess_accuracy(low) <= 100
    assert lichess_accuracy(0.0) == 100.0


def test_advice_and_near_a_line():
    limits = (0.1, 0.2, 0.3)
    assert advice(0.09, limits) is None and advice(0.21, limits) == "mistake"
    assert near_a_line(0.12, limits) and near_a_line(0.29, limits)
    assert not near_a_line(0.05, limits) and not near_a_line(0.6, limits)


def test_the_stake_is_what_a_random_tried_choice_would_lose():
    nan = math.nan
    stats = RootStats(0, [Choice("a", 10, [0.6, 0.4], [4.0, 6.0]),
                          Choice("b", 5, [0.3, 0.7], [-2.0]),
                          Choice("c", 0, [nan, nan])], 15, 0.0, "mcts")
    share, margin = stakes(stats)
    assert share == pytest.approx(0.15)  # (0 + 0.3) / 2: the untried choice left out
    assert margin == pytest.approx(3.5)  # (0 + (5 - -2)) / 2 points
    alike = RootStats(1, [Choice("a", 8, [0.5, 0.5], [1.0]), Choice("b", 8, [0.5, 0.5], [1.0])],
                      16, 0.0, "mcts")
    assert stakes(alike) == (0.0, 0.0)


def test_move_accuracy_is_the_share_of_the_stake_kept():
    assert move_accuracy(0.0, 0.2) == 100.0
    assert move_accuracy(0.1, 0.2) == pytest.approx(50.0)
    assert move_accuracy(0.2, 0.2) == 0.0  # lost as much as a random choice would
    assert move_accuracy(0.5, 0.2) == 0.0  # or more
    assert move_accuracy(0.0, 0.0) == 100.0  # nothing at stake


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0.001, 1))
def test_move_accuracy_falls_as_the_loss_grows(a, b, stake):
    low, high = sorted((a, b))
    assert 0 <= move_accuracy(high, stake) <= move_accuracy(low, stake) <= 100


def test_game_accuracy_weighs_each_decision_by_its_stake():
    """A player's accuracy is the share of the total stake kept (the decisions' accuracies
    weighed by their stakes, where no loss exceeds its stake)."""
    assert game_accuracy([], []) is None
    assert game_accuracy([0.0, 0.0], [0.1, 0.3]) == 100
    assert game_accuracy([0.1, 0.0], [0.2, 0.2]) == pytest.approx(75)
    assert game_accuracy([0.1, 0.0], [0.2, 0.6]) == pytest.approx(87.5)
    # a decision that lost more than its stake counts so: here the whole game's stake
    assert game_accuracy([0.4, 0.0], [0.2, 0.2]) == 0.0
    assert game_accuracy([0.3, 0.0], [0.2, 0.2]) == pytest.approx(25)
    # the losses and stakes are the review's score margins in points: any unit will do
    assert game_accuracy([4.0, 0.0], [8.0, 24.0]) == pytest.approx(87.5)
    assert game_accuracy([0.0, 0.0], [0.0, 0.0]) == 100  # nothing was ever at stake
    # many decisions where nothing is at stake do not hide the one that was thrown away
    # (the plain mean of the decisions' accuracies would be 98)
    assert game_accuracy([0.0] * 49 + [0.3], [0.001] * 49 + [0.3]) < 20
    # reviews stored before stakes: lichess's mean of the plain and harmonic means
    assert lichess_game_accuracy([]) is None
    assert lichess_game_accuracy([100, 100]) == 100
    assert lichess_game_accuracy([100, 10]) < 55


def positions(game_id: str, players: int, count: int):
    """Random positions with a choice to make, each with the last legal action."""
    rng = random.Random(5)
    for seed in range(count):
        state = palio.new_game(game_id, players=players, seed=seed)
        for _ in range(rng.randrange(6, 30)):
            state.apply_unchecked(rng.choice(state.legal_actions()))
            if state.is_over:
                break
        if not state.is_over and len(state.legal_actions()) >= 2:
            yield state


@pytest.mark.parametrize(("game_id", "players"), [("san-gimignano", 2), ("tiletum", 3),
                                                  ("troyes", 2), ("aquileia", 3),
                                                  ("signorie", 2)])
def test_a_reason_never_reveals_a_hidden_card(game_id, players):
    """Twins that differ only in what the mover could not see, the same seed: the same
    reason and line in both languages (only worlds drawn from the mover's view feed them)."""
    compared = 0
    for state in positions(game_id, players, 3):
        seat = state.to_move
        engine = Engine.strongest(state)
        for action in state.legal_actions()[-2:]:
            verdict = judge_decision(state, action, budget=TINY, seed=11, engine=engine,
                                     worlds=2)
            words = {lang: why_words(verdict, Translator(lang)) for lang in ("en", "ja")}
            assert words["en"]["reason"] and words["ja"]["line"]
            twin = state.determinize(seat, random.Random(100))
            assert twin.observe(seat) == state.observe(seat)
            other = judge_decision(twin, action, budget=TINY, seed=11, engine=engine, worlds=2)
            for lang in ("en", "ja"):
                assert why_words(other, Translator(lang)) == words[lang]
            compared += "played" in verdict["why"]
    assert compared >= 1  # at least one choice compared with a better one


def test_an_outlook_repeats_with_its_seed_and_starts_with_the_choice():
    state = position_at("san-gimignano", 2, 2, 40)
    seat = state.to_move
    action = state.legal_actions()[0]
    first = outlook(state, seat, action, None, seed=3, worlds=3)
    assert first == outlook(state, seat, action, None, seed=3, worlds=3)
    assert first.worlds == 3 and 0 <= first.first <= 3
    assert len(first.categories) == len(first.points) >= 1
    assert sum(first.points) == pytest.approx(first.total)
    assert len(first.line) == 1  # no tree given: only the choice itself
    text = Translator("en")(first.line[0])
    assert text.startswith("Player 1:") or text.startswith("Player 2:")


def _searched(seat, *choices):
    """A search's result by hand: (action, visits, main search's visits, value for seat 0)."""
    made = [Choice(a, n, [v, 1 - v], [float(n)], main) for a, n, main, v in choices]
    return RootStats(seat, made, sum(c[2] for c in choices), 0.0, "mcts")


def test_searches_pool_their_visits_and_weigh_values_by_visits():
    first = _searched(0, ("b", 300, 300, 0.6), ("a", 100, 50, 0.5), ("c", 50, 50, 0.2))
    second = _searched(0, ("a", 400, 200, 0.4), ("b", 300, 300, 0.5), ("c", 0, 0, math.nan))
    both = pool([first, second])
    # preferred by the main searches' visits together: a 250, b 600, c 50
    assert [c.action for c in both.choices] == ["b", "a", "c"]
    b, a, c = both.choices
    assert (b.visits, b.searched, a.visits, a.searched, c.visits) == (600, 600, 500, 250, 50)
    assert b.values[0] == pytest.approx((0.6 * 300 + 0.5 * 300) / 600)
    assert a.values[0] == pytest.approx((0.5 * 100 + 0.4 * 400) / 500)
    assert a.values[1] == pytest.approx(1 - a.values[0])
    assert c.values[0] == pytest.approx(0.2)  # a search that never tried it adds nothing
    assert a.leads == [100.0, 400.0] and both.iterations == 400 + 500
    assert loss_of(both, "a") == pytest.approx(b.values[0] - a.values[0])
    assert loss_of(both, "b") == 0.0
    assert pool([first]).choices == first.choices


class _Scripted:
    """An engine whose searches are given in order; it notes what each was asked."""

    def __init__(self, *results):
        self.results = list(results)
        self.asked = []

    def search(self, state, seat, budget, seed, played=None, also=()):
        self.asked.append((budget.iterations, seed, played, list(also)))
        return self.results.pop(0)


def test_a_recheck_pools_its_searches_and_stops_once_clear_of_every_line():
    limits = (0.08, 0.15, 0.30)
    first = _searched(0, ("b", 100, 100, 0.60), ("a", 100, 40, 0.50))  # 0.10: near 0.08
    assert near_a_line(loss_of(first, "a"), limits)
    # alone, the second search's loss (0.07) and the third's (0.00) each decide nothing the
    # pooled loss does: after two 0.08 (near), after three 0.048 (clear by STOP): stop there
    engine = _Scripted(_searched(0, ("b", 200, 200, 0.57), ("a", 200, 60, 0.50)),
                       _searched(0, ("b", 200, 200, 0.50), ("a", 200, 60, 0.50)),
                       _searched(0, ("b", 200, 200, 0.90), ("a", 200, 60, 0.10)))
    stats, added = recheck(engine, None, "a", first, Budget(iterations=100), 5, limits, cap=11)
    assert added == 2 and len(engine.results) == 1  # stopped: the third never searched
    assert loss_of(stats, "a") == pytest.approx((60 + 114 + 100) / 500 - 0.5)
    assert abs(loss_of(stats, "a") - 0.08) >= STOP
    # each search RECHECK times the budget, its own seed derived from the decision's, the
    # choice played and the pooled preferred choice searched further
    assert engine.asked == [(100 * RECHECK, decision_seed(5, 7), "a", ["b"]),
                            (100 * RECHECK, decision_seed(5, 14), "a", ["b"])]
    assert judge_seeds_differ(engine.asked)


def judge_seeds_differ(asked):
    return len({seed for _, seed, _, _ in asked}) == len(asked)


def test_a_recheck_that_stays_near_a_line_stops_at_the_cap():
    limits = (0.08, 0.15, 0.30)
    first = _searched(0, ("b", 100, 100, 0.58), ("a", 100, 40, 0.50))
    again = [_searched(0, ("b", 200, 200, 0.58), ("a", 200, 60, 0.50)) for _ in range(9)]
    engine = _Scripted(*again)
    stats, added = recheck(engine, None, "a", first, Budget(iterations=100), 5, limits, cap=9)
    assert added == (9 - 1) // RECHECK == len(engine.asked)  # never more than the cap
    assert loss_of(stats, "a") == pytest.approx(0.08)
    assert judge_seeds_differ(engine.asked)
    # the preferred choice changes in the pooled search: the next search checks the new one
    first = _searched(0, ("b", 100, 100, 0.58), ("c", 90, 90, 0.57), ("a", 100, 40, 0.50))
    engine = _Scripted(_searched(0, ("c", 300, 300, 0.58), ("b", 50, 50, 0.5),
                                 ("a", 200, 60, 0.50)),
                       _searched(0, ("c", 300, 300, 0.50), ("b", 50, 50, 0.5),
                                 ("a", 200, 60, 0.50)))
    stats, added = recheck(engine, None, "a", first, Budget(iterations=100), 5, limits, cap=9)
    assert [also for _, _, _, also in engine.asked] == [["b"], ["c"]]
    assert stats.best.action == "c" and added == 2


def _count_budgets(monkeypatch, engine):
    """The iterations of each search ``engine`` is asked for, in order, as a list."""
    budgets = []
    search = engine.search

    def counted(*args, **kwargs):
        budgets.append(args[2].iterations)
        return search(*args, **kwargs)

    monkeypatch.setattr(engine, "search", counted)
    return budgets


def test_a_suggestion_checked_at_a_larger_budget_stands_only_where_that_search_agrees():
    first = _searched(0, ("b", 300, 300, 0.70), ("a", 100, 60, 0.50))  # b suggested, a played
    # the deeper search values b above a: the review's own search stands
    agrees = _searched(0, ("b", 3000, 2800, 0.62), ("a", 1000, 300, 0.55))
    engine = _Scripted(agrees)
    stats, confirmed = confirm(engine, None, "a", first, Budget(iterations=100), 5, 10)
    assert confirmed is True and stats is first
    assert engine.asked == [(1000, decision_seed(5, 13), "a", ["b"])]
    # it values a at least as high as b: its verdict replaces the review's, even where it
    # searched b most (the loss is then 0, no class)
    disagrees = _searched(0, ("b", 3000, 2800, 0.55), ("a", 1000, 300, 0.55))
    stats, confirmed = confirm(_Scripted(disagrees), None, "a", first, Budget(iterations=100),
                               5, 10)
    assert confirmed is False and stats is disagrees and loss_of(stats, "a") == 0.0


def test_only_the_games_that_need_it_check_their_suggestions(monkeypatch):
    assert confirm_for("aquileia", 3) == 10 and confirm_for("aquileia", 4) == 0
    assert confirm_for("san-gimignano", 2) == 0
    state = position_at("san-gimignano", 2, 2, 75)
    action = state.parse("pass")  # a blunder: the better choice differs
    engine = Engine.strongest(state)
    budgets = _count_budgets(monkeypatch, engine)
    plain = judge_decision(state, action, budget=TINY, seed=1, engine=engine, worlds=1)
    assert plain["class"] == "blunder" and plain["confirmed"] is None
    assert 40 * 3 not in budgets
    budgets.clear()
    monkeypatch.setitem(CONFIRM_BY_GAME, ("san-gimignano", 2), 3)
    assert confirm_for("san-gimignano", 2) == 3
    checked = judge_decision(state, action, budget=TINY, seed=1, engine=engine, worlds=1)
    assert budgets[-1] == 40 * 3  # the check, after the first search (and any again)
    assert checked["confirmed"] is True and checked["class"] == "blunder"
    assert checked["best"] == plain["best"] and checked["loss"] == plain["loss"]


def test_a_loss_near_a_class_line_is_searched_again_with_more_budget(monkeypatch):
    state = position_at("san-gimignano", 2, 2, 75)
    action = state.parse("pass")
    engine = Engine.strongest(state)
    budgets = _count_budgets(monkeypatch, engine)
    far = judge_decision(state, action, budget=TINY, seed=1, engine=engine,
                         limits=(5.0, 6.0, 7.0), worlds=1)
    assert not far["checked"] and budgets == [40]
    loss = far["loss"]
    budgets.clear()
    near = judge_decision(state, action, budget=TINY, seed=1, engine=engine,
                          limits=(loss + 0.01, 6.0, 7.0), worlds=1)
    assert near["checked"] and budgets[0] == 40 and near["rechecks"] == len(budgets) - 1 >= 1
    assert set(budgets[1:]) == {40 * RECHECK}
    assert 1 + RECHECK * near["rechecks"] <= RECHECK_CAP
    assert far["rechecks"] == 0


@pytest.mark.parametrize(("players", "move", "played"), [(2, 20, "die 3f"), (4, 20, "buy f")])
def test_two_player_tiletum_searches_again_further_from_a_line(players, move, played):
    # a loss between NEAR and two-player Tiletum's wider zone from a class line: searched
    # again in two-player Tiletum, not with four players (the default zone)
    assert (near_for("tiletum", players) > NEAR) == (players == 2)
    wide = near_for("tiletum", 2)
    state = position_at("tiletum", players, 1, move)
    action = state.parse(played)
    engine = Engine.strongest(state)
    far = judge_decision(state, action, budget=TINY, seed=1, engine=engine,
                         limits=(5.0, 6.0, 7.0), worlds=1)
    assert far["loss"] > 0 and not far["checked"]
    between = far["loss"] + (NEAR + wide) / 2  # the line lies this far above the loss
    judged = judge_decision(state, action, budget=TINY, seed=1, engine=engine,
                            limits=(between, 6.0, 7.0), worlds=1)
    assert judged["checked"] == (players == 2)
    assert (judged["rechecks"] >= 1) == (players == 2)
    assert 1 + RECHECK * judged["rechecks"] <= RECHECK_CAP


def test_a_decision_without_a_class_tells_its_reason_from_fewer_worlds():
    state = position_at("san-gimignano", 2, 2, 75)
    action = state.parse("pass")  # a blunder: the better choice differs
    engine = Engine.strongest(state)
    flagged = judge_decision(state, action, budget=TINY, seed=1, engine=engine)
    assert flagged["class"] == "blunder"
    assert flagged["why"]["played"]["worlds"] == flagged["why"]["best"]["worlds"] \
        == OUTLOOK_WORLDS
    quiet = judge_decision(state, action, budget=TINY, seed=1, engine=engine,
                           limits=(5.0, 6.0, 7.0))
    assert quiet["class"] is None and quiet["loss"] == flagged["loss"]  # the same verdict
    assert quiet["why"]["played"]["worlds"] == quiet["why"]["best"]["worlds"] \
        == QUIET_WORLDS < OUTLOOK_WORLDS
    assert quiet["why"]["reason"]


def test_hints_are_ordered_by_value_in_percent_each_with_its_reason():
    state = position_at("tiletum", 3, 2, 40)
    given_hint = hint(state, state.to_move, budget=Budget(iterations=60), seed=2,
                      tr=Translator("ja"), worlds=2)
    percents = [c["percent"] for c in given_hint["choices"]]
    values = [c["value"] for c in given_hint["choices"]]
    assert len(percents) >= 2
    assert percents == sorted(percents, reverse=True) and values == sorted(values, reverse=True)
    assert all(p == round(100 * v) for p, v in zip(percents, values, strict=True))
    assert all(c["reason"] and c["line"] and c["explain"] for c in given_hint["choices"])
    # each shown choice is searched at least a quarter of the budget, so its value and reason
    # do not rest on the handful of visits a search that settles early leaves the others
    assert all(c["visits"] >= int(60 * PLAYED_SHARE) for c in given_hint["choices"])
    troyes = position_at("troyes", 2, 224, 40)
    shown = hint(troyes, troyes.to_move, budget=Budget(iterations=80), seed=1, worlds=1)
    assert Engine.strongest(troyes).name == "puct"
    assert all(c["visits"] >= int(80 * PLAYED_SHARE) for c in shown["choices"])


def test_margin_lost_counts_only_what_the_samples_show_beyond_their_noise():
    assert margin_lost([10, 10, 10], [0, 0, 0], paired=True) == 10  # the same in every world
    assert margin_lost([0, 0, 0], [10, 10, 10]) == 0  # the choice played was better
    assert margin_lost([20, -20, 20, -20], [0, 0, 0, 0], paired=True) == 0  # mean 0
    some = margin_lost([12, 8, 11, 9], [0, 0, 0, 0], paired=True)
    assert some == pytest.approx(10 - math.sqrt(10 / 3 / 4))  # 10 less its standard error
    assert margin_lost([], [1.0]) == 0.0
    # independent samples: the difference of the means less the error of both
    assert margin_lost([5.0, 7.0], [1.0]) == pytest.approx(5.0 - 1.0)
    assert margin_lost([5.0, 7.0], [1.0, 3.0]) == pytest.approx(4.0 - math.sqrt(2.0))
    # paired samples hide a shared world's luck: the same difference in every world
    assert margin_lost([30, 0, 15], [25, -5, 10], paired=True) == 5
    assert margin_lost([30, 0, 15], [25, -5, 10]) == 0  # 5 less about 7


def test_the_search_keeps_each_choices_expected_lead():
    state = position_at("signorie", 2, 3, 30)
    seat = state.to_move
    stats = Engine.strongest(state).search(state, seat, TINY, 4, state.legal_actions()[-1])
    assert sum(len(c.leads) for c in stats.choices) >= 40  # every iteration's end, and more
    played = stats.of(state.legal_actions()[-1])
    assert len(played.leads) >= played.visits - 1  # its own search kept them too
    for choice in stats.choices:
        assert all(isinstance(v, float) and abs(v) < 500 for v in choice.leads)


def test_share_lost_forgives_what_the_search_could_make_by_chance():
    assert share_lost(0.6, 10, 0.5, 10) == 0.0  # 0.1 apart on ten visits each: chance
    big = share_lost(0.9, 400, 0.1, 100)
    assert 0.75 < big < 0.8  # a blunder stays one: 0.8 less about 0.03
    assert share_lost(0.3, 50, 0.6, 50) == 0.0
    assert share_lost(0.7, 0, 0.2, 5) == pytest.approx(0.5)  # no visits: the plain difference
