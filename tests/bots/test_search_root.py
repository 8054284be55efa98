"""``palio.bots.mcts.search_root``: the root statistics reviews and hints read."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import palio
from palio.bots.mcts import MctsBot, search_root
from palio.bots.mcts_baseline import BaselineMctsBot
from palio.core.errors import IllegalAction
from palio.core.game import leads as core_leads


def test_root_statistics_cover_every_legal_action_with_a_win_share():
    state = palio.new_game("san-gimignano", players=2, seed=3)
    seat = state.to_move
    stats = search_root(state, seat, iterations=120, seed=5)
    assert [action for action, _, _ in stats] == list(state.legal_actions())
    assert sum(visits for _, visits, _ in stats) == 120
    assert all(0.0 <= value <= 1.0 for _, _, value in stats)
    assert all(visits > 0 for _, visits, _ in stats[:3])


def test_root_statistics_are_reproducible_with_a_seed_and_never_read_hidden_cards():
    state = palio.new_game("signorie", players=2, seed=4)
    rng = random.Random(1)
    for _ in range(12):
        state.apply_unchecked(rng.choice(state.legal_actions()))
    seat = state.to_move
    twin = state.determinize(seat, random.Random(9))
    assert twin.observe(seat) == state.observe(seat)
    first = search_root(state, seat, iterations=60, seed=2)
    assert search_root(state, seat, iterations=60, seed=2) == first
    assert search_root(twin, seat, iterations=60, seed=2) == first


def test_a_seat_not_to_move_is_refused():
    state = palio.new_game("san-gimignano", players=2, seed=3)
    with pytest.raises(IllegalAction):
        search_root(state, 1 - state.to_move, iterations=10, seed=1)


def _replay(entry):
    # Aquileia's entries were recorded under its rules version 1, which the option
    # tiebreaker_ends now plays (issue 35): "options" replays them as they were recorded
    state = palio.new_game(entry["game"], players=entry["players"], seed=entry["seed"],
                           options=entry.get("options"))
    for text in entry["history"]:
        state.apply(text)
    return state


GOLDEN = json.loads((Path(__file__).parent / "golden_search.json").read_text())


@pytest.mark.parametrize("entry", GOLDEN, ids=lambda e: f"{e['game']}-{e['players']}p-{e['seed']}")
def test_the_baseline_search_is_unchanged_by_faster_evaluation(entry):
    """Root visits and summed results recorded with the search as it was before evaluate_all
    and the faster Troyes legal actions (tests/bots/golden_search.json): identical now."""
    state = _replay(entry)
    root = BaselineMctsBot(iterations=60, rollout_depth=8, seed=entry["seed"]).search(
        state, state.to_move)
    assert {str(a): ch.visits for a, ch in root.children.items()} == entry["visits"]
    totals = {str(a): [round(x, 9) for x in ch.total] for a, ch in root.children.items()}
    assert totals == entry["totals"]


@pytest.mark.parametrize("entry", GOLDEN[::4], ids=lambda e: f"{e['game']}-{e['players']}p")
def test_mcts_without_mast_searches_as_the_baseline_did(entry):
    """With the baseline's options (random rollouts of 8 decisions), mcts searches exactly as
    mcts-2026: MAST and the games' own defaults are the only changes to the search."""
    state = _replay(entry)
    root = MctsBot(iterations=60, rollout_depth=8, mast=0, seed=entry["seed"]).search(
        state, state.to_move)
    assert {str(a): ch.visits for a, ch in root.children.items()} == entry["visits"]


@pytest.mark.parametrize("entry", GOLDEN[::3], ids=lambda e: f"{e['game']}-{e['players']}p")
def test_evaluate_is_evaluate_all_for_each_seat_and_leads_over_the_best_other(entry):
    state = _replay(entry)
    game = state.game
    worths = game.worths(state)
    leads = game.evaluate_all(state)
    for seat in range(state.players):
        best_other = max(w for p, w in enumerate(worths) if p != seat)
        assert leads[seat] == worths[seat] - best_other
        assert game.evaluate(state, seat) == leads[seat]


def test_leads_are_the_plain_differences_to_the_last_bit_with_ties():
    # core.game.leads against the definition it replaced (the first of the best seats leads
    # over the runner-up, every other seat trails the best), on lists and tuples with ties
    def plain(worths):
        if len(worths) == 1:
            return (worths[0] - 0.0,)
        top = max(range(len(worths)), key=worths.__getitem__)
        best = worths[top]
        runner_up = max(w for i, w in enumerate(worths) if i != top)
        return tuple((w - best) if i != top else (w - runner_up) for i, w in enumerate(worths))

    rng = random.Random(5)
    for _ in range(3000):
        n = rng.randint(1, 5)
        worths = [rng.choice([0.0, 1.5, 2.7, -3.1, rng.uniform(-40, 40)]) for _ in range(n)]
        for vector in (worths, tuple(worths)):
            got = core_leads(vector)
            assert [v.hex() for v in got] == [v.hex() for v in plain(vector)]
    assert core_leads([3.0, 7.0, 7.0, 1.0]) == (-4.0, 0.0, 0.0, -6.0)
    assert core_leads((2.0, 9.0, 4.5)) == (-7.0, 4.5, -4.5)
