"""Running simulations: result schema on every game, records that replay, and results that
depend on the seeds only, never on the number of workers."""

from __future__ import annotations

import json
import threading

import pytest

import palio.games as registry
from palio import sim
from palio.core.record import GameRecord

KEYS = {"index", "seed", "game", "players", "bots", "scores", "ranks", "decisions", "seconds",
        "iterations_per_move"}
CASES = [(game_id, n) for game_id in registry.available()
         for n in sorted({registry.get(game_id).info.min_players,
                          registry.get(game_id).info.max_players})]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_each_result_is_a_json_line_with_the_documented_fields(game, players):
    results = list(sim.simulate(game, players, games=2, bots=["greedy", "random"], seed=3,
                                records=True))
    assert sorted(r["index"] for r in results) == [0, 1]
    for result in results:
        assert json.loads(json.dumps(result)) == result  # JSON-ready as it is
        assert set(result) == KEYS | {"record"}
        assert result["game"] == game and result["players"] == players
        assert len(result["bots"]) == len(result["scores"]) == len(result["ranks"]) == players
        state = GameRecord(**result["record"]).replay(registry.get(game))  # verifies the result
        assert state.ranks() == result["ranks"] and state.scores() == result["scores"]
        assert state.move_number == result["decisions"] and state.seed == result["seed"]
        assert result["record"]["seats"] == result["bots"]


def test_results_are_the_same_for_any_number_of_workers():
    args = {"game": "san-gimignano", "games": 4, "bots": ["mcts:iterations=3", "greedy"],
            "seed": 11}
    one = sorted((sim.comparable(r) for r in sim.simulate(workers=1, **args)),
                 key=lambda r: r["index"])
    two = sorted((sim.comparable(r) for r in sim.simulate(workers=2, **args)),
                 key=lambda r: r["index"])
    assert one == two
    direct = [sim.comparable(sim.play_job(job))
              for job in sim.plan_simulation(args["game"], None, 4, args["bots"], 11)]
    assert direct == one
    # the seed matters: another run seed gives other games
    other = [sim.comparable(r) for r in sim.simulate(**{**args, "seed": 12, "games": 2})]
    assert {r["seed"] for r in other}.isdisjoint(r["seed"] for r in one)


def test_a_records_free_run_leaves_records_out():
    (result,) = sim.simulate("tiletum", games=1, bots=["random"], seed=1)
    assert "record" not in result and set(result) == KEYS


def test_arena_results_rate_every_bot():
    results = list(sim.arena("san-gimignano", ["greedy", "random"], games=3, seed=2, workers=2))
    assert len(results) == 6
    table = sim.standings(results, ["greedy", "random"], seed=2, bootstrap=20)
    assert {line.rating.bot for line in table} == {"greedy", "random"}
    assert sum(line.rating.rating for line in table) == pytest.approx(0.0, abs=1e-6)
    assert all(line.record.games == 6 for line in table)
    assert all(line.rating.low <= line.rating.rating <= line.rating.high for line in table)


def test_a_stop_event_ends_a_run_early():
    stop = threading.Event()
    done = []
    for result in sim.simulate("san-gimignano", games=500, bots=["greedy"], seed=0, workers=2,
                               stop=stop):
        done.append(result)
        if len(done) == 3:
            stop.set()
    assert len(done) == 3  # nothing more is yielded once the event is set


def test_each_result_says_how_much_each_searching_bot_searched():
    (result,) = sim.simulate("san-gimignano", games=1, bots=["mcts:iterations=5", "random"],
                             seed=3, rotate=False)
    assert result["iterations_per_move"] == [5.0, None]
