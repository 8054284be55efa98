"""Where does the hint's choice lose to greedy's? Ways of choosing from the hint's search,
judged against greedy's choice in the paired playouts of ``benchmarks/hint_gain.py``.

    PYTHONPATH=src python benchmarks/hint_choice.py --games tiletum:2 [--positions 40]
        [--seed 1] [--budgets 600,1800,5400] [--playouts 8] [--save FILE.jsonl]
        [--time-hints N]

The positions, the seed of each position, greedy's choice and the playouts (greedy finish from
the true position, playout ``k`` seeded the same for every choice) are hint_gain's, so the
``settle@600`` row is hint_gain's figure at the hint's budget (the hint's rule since 29
November 2026, seventh stop; ``value@600`` was it before). At each position, the ways:

- ``value@B`` for each budget ``B`` of ``--budgets``: the hint's rule before the seventh stop:
  of the three most searched choices of a search of ``B`` iterations, the best valued;
- ``visits@B``: the most searched choice of that search (the search bots' own rule);
- ``settle@B0`` (``B0`` the first budget): the search of ``B0`` again, then its three most
  searched choices each searched further to at least a quarter of ``B0`` iterations
  (``Engine.search``'s ``also``), the best valued of them: the hint's rule now
  (:func:`palio.review.hint`, ``Engine.search``'s ``top``);
- ``recheck@B0``: where the best two values of ``value@B0``'s three lie within ``NEAR`` (0.04),
  those two searched again at three times ``B0`` (each at least a quarter of it, as a review's
  recheck near a class line), the better valued; elsewhere ``value@B0``'s choice.

Each distinct choice is played out ``--playouts`` times. Per way: the share of positions where it
is greedy's choice, the mean win-share and margin differences against greedy's choice with a 95%
t interval over positions, the mean win-share difference against ``value@B0`` (paired: the same
positions and playouts) with its interval, how many positions it changes, and the mean CPU
seconds of its search per call (this process, ``time.process_time``; the search only, without
the outlooks a served hint adds). One JSON line per way, then a table.

``--time-hints N`` instead times :func:`palio.review.hint` as served (six outlook worlds) at
each budget over ``N`` positions a game: what a player waits, in CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import hint_gain  # noqa: E402

import palio  # noqa: E402
from palio import bots  # noqa: E402
from palio.core.game import Action, State  # noqa: E402
from palio.core.rng import derive  # noqa: E402
from palio.review import (  # noqa: E402
    HINT_COUNT,
    NEAR,
    RECHECK,
    Budget,
    Engine,
    RootStats,
    decision_seed,
    hint,
)
from palio.review import _num as value_or_low  # noqa: E402


def best_valued(stats: RootStats, actions: list[Action]) -> Action:
    """Of ``actions`` (in order), the one ``stats`` values best for its seat (the first of
    equals, as the hint's stable sort)."""
    return max((stats.of(a) for a in actions),
               key=lambda c: value_or_low(c.values[stats.seat])).action


def ways(state: State, engine: Engine, seed: int, budgets: list[int]) -> tuple[dict, dict]:
    """Each way's choice at ``state`` (the mover's) and its search's CPU seconds."""
    mover = state.to_move
    chosen: dict[str, Action] = {}
    cpu: dict[str, float] = {}
    first = budgets[0]
    top: list[Action] = []
    for budget in budgets:
        started = time.process_time()
        stats = engine.search(state, mover, Budget(iterations=budget), seed)
        cpu[f"@{budget}"] = time.process_time() - started
        most = [c.action for c in stats.choices[:HINT_COUNT]]
        chosen[f"value@{budget}"] = best_valued(stats, most)
        chosen[f"visits@{budget}"] = most[0]
        if budget == first:
            top, first_stats = most, stats
    started = time.process_time()
    settled = engine.search(state, mover, Budget(iterations=first), seed, also=top)
    cpu[f"settle@{first}"] = time.process_time() - started
    chosen[f"settle@{first}"] = best_valued(settled, top)
    order = sorted(top, key=lambda a: -value_or_low(first_stats.of(a).values[mover]))
    chosen[f"recheck@{first}"] = order[0]
    cpu[f"recheck@{first}"] = 0.0
    if len(order) > 1:
        gap = (value_or_low(first_stats.of(order[0]).values[mover])
               - value_or_low(first_stats.of(order[1]).values[mover]))
        if gap < NEAR:
            started = time.process_time()
            again = engine.search(state, mover, Budget(iterations=first * RECHECK),
                                  decision_seed(seed, 7), also=order[:2])
            cpu[f"recheck@{first}"] = time.process_time() - started
            chosen[f"recheck@{first}"] = best_valued(again, order[:2])
    return chosen, cpu


def judge(state: State, engine: Engine, seed: int, budgets: list[int], playouts: int) -> dict:
    """One position: each way's choice, greedy's, and every distinct choice's playouts (the
    mover's win share and margin per playout, hint_gain's seeds)."""
    mover = state.to_move
    chosen, cpu = ways(state, engine, seed, budgets)
    chosen["greedy"] = bots.get("greedy", seed=seed).choose(state, mover)
    results = {}
    for action in {str(a): a for a in chosen.values()}.values():
        results[str(action)] = [
            hint_gain.finish(state, action, mover, "greedy",
                             derive(seed, "playout", k).getrandbits(62))
            for k in range(playouts)]
    return {"choice": {k: str(v) for k, v in chosen.items()},
            "cpu": {k: round(v, 3) for k, v in cpu.items()}, "results": results}


def summary(game_id: str, players: int, judged: list[dict]) -> list[dict]:
    """Per way: against greedy's choice and against the hint's rule at the first budget."""
    names = [k for k in judged[0]["choice"] if k != "greedy"]
    base = names[0]
    rows = []
    for name in names:
        win, margin, against = [], [], []
        for p in judged:
            mine = p["results"][p["choice"][name]]
            greedy = p["results"][p["choice"]["greedy"]]
            hinted = p["results"][p["choice"][base]]
            win.append(statistics.fmean(a[0] - g[0] for a, g in zip(mine, greedy, strict=True)))
            margin.append(statistics.fmean(a[1] - g[1]
                                           for a, g in zip(mine, greedy, strict=True)))
            against.append(statistics.fmean(a[0] - h[0]
                                            for a, h in zip(mine, hinted, strict=True)))
        key = "@" + name.split("@")[1] if name.startswith(("value", "visits")) else name
        w, m, b = (hint_gain.t_interval(v) for v in (win, margin, against))
        rows.append({
            "game": game_id, "players": players, "way": name, "positions": len(judged),
            "same_as_greedy": sum(p["choice"][name] == p["choice"]["greedy"] for p in judged)
            / len(judged),
            "win_difference": w[0], "win_interval": list(w[1:]),
            "margin_difference": m[0], "margin_interval": list(m[1:]),
            f"against_{base}": b[0], f"against_{base}_interval": list(b[1:]),
            "changed": sum(p["choice"][name] != p["choice"][base] for p in judged),
            "cpu_per_search": round(statistics.fmean(p["cpu"][key] for p in judged), 3),
        })
    return rows


def time_hints(game_id: str, players: int, count: int, seed: int, budgets: list[int],
               per_game: int = 4) -> dict:
    """CPU seconds of one :func:`palio.review.hint` call as served (the search and six outlook
    worlds for each of its three choices) at each budget: mean and largest over ``count`` of
    hint_gain's positions (hint ``i`` seeded ``i``), after one small call that loads the
    judge."""
    sampled = hint_gain.sample_positions(game_id, players, count, seed, per_game=per_game)
    first = sampled[0].state
    hint(first, first.to_move, budget=Budget(iterations=10))  # the model loaded, not timed
    row: dict = {"game": game_id, "players": players, "positions": len(sampled),
                 "cpu_per_hint": {}}
    for budget in budgets:
        times = []
        for i, position in enumerate(sampled):
            state = position.state
            started = time.process_time()
            hint(state, state.to_move, budget=Budget(iterations=budget), seed=i)
            times.append(time.process_time() - started)
        row["cpu_per_hint"][budget] = {"mean": round(statistics.fmean(times), 2),
                                       "max": round(max(times), 2)}
    return row


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=hint_gain.DEFAULT_GAMES)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--budgets", default="600,1800,5400")
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default=None, help="a JSON-lines file for every position")
    parser.add_argument("--time-hints", type=int, default=0, metavar="N",
                        help="instead: the CPU seconds of a served hint at each budget, over "
                             "N positions a game")
    args = parser.parse_args(argv)
    try:
        budgets = [int(b) for b in args.budgets.split(",")]
    except ValueError:
        parser.error(f"--budgets: {args.budgets!r} is not iterations separated by commas")
    if not budgets or min(budgets) < 1 or args.positions < 1 or args.playouts < 1:
        parser.error("budgets, positions and playouts must be at least 1")
    if args.time_hints < 0:
        parser.error("--time-hints must be at least 0")
    specs = []
    for spec in args.games.split(","):
        game_id, _, count = spec.partition(":")
        if game_id.strip() not in palio.games.available() or not (count or "2").isdigit():
            parser.error(f"--games: {spec!r} is not game:players")
        specs.append((game_id.strip(), int(count or 2)))
    if args.time_hints:
        timed = []
        for game_id, players in specs:
            timed.append(time_hints(game_id, players, args.time_hints, args.seed, budgets,
                                    args.per_game))
            print(json.dumps(timed[-1]), flush=True)
        return timed
    saved = open(args.save, "w") if args.save else None  # noqa: SIM115 - written as it goes
    rows = []
    for game_id, players in specs:
        sampled = hint_gain.sample_positions(game_id, players, args.positions, args.seed,
                                             per_game=args.per_game)
        engine = Engine.strongest(sampled[0].state)
        judged = []
        for index, position in enumerate(sampled):
            seed = derive(args.seed, game_id, players, index).getrandbits(62)
            entry = {"game": game_id, "players": players, "index": index,
                     "deal": position.deal, "move": position.move,
                     **judge(position.state, engine, seed, budgets, args.playouts)}
            judged.append(entry)
            if saved is not None:
                saved.write(json.dumps(entry) + "\n")
                saved.flush()
        for row in summary(game_id, players, judged):
            rows.append(row)
            print(json.dumps(row), flush=True)
    if saved is not None:
        saved.close()
    base = rows[0]["way"] if rows else ""
    print(f"\n{'game':14} {'way':14} {'greedy':>6}  {'win share - greedy [95% t]':28}"
          f"  {'- ' + base + ' [95% t]':28} {'changed':>7} {'cpu s':>6}")
    for r in rows:
        low, high = r["win_interval"]
        b_low, b_high = r[f"against_{base}_interval"]
        print(f"{r['game']:14} {r['way']:14} {r['same_as_greedy']:>6.0%}  "
              f"{r['win_difference']:+.3f} [{low:+.3f}, {high:+.3f}]{'':5}  "
              f"{r[f'against_{base}']:+.3f} [{b_low:+.3f}, {b_high:+.3f}]{'':5} "
              f"{r['changed']:>7} {r['cpu_per_search']:>6.2f}")
    return rows


if __name__ == "__main__":
    main()
