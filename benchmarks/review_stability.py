"""Stable verdicts (issue 36): do flagged decisions keep their class across two review seeds,
and does ten times the budget confirm the suggested choices?

    PYTHONPATH=src python benchmarks/review_stability.py [--games san-gimignano:2,signorie:2]
        [--bot greedy] [--iterations 400] [--seed 1] [--runs 2] [--deals 1] [--ten-limit 0]

For each game (``id:players``) and run ``k`` (0 to ``--runs`` - 1): ``--deals`` games played
by ``--bot`` (``review_speed.played_game``), game ``i`` with game seed
``g = seed + k * deals + i``, each reviewed twice at ``--iterations`` a decision with review
seeds ``g`` and ``g + 1`` (``review_speed.two_reviews``); a run's counts are its games' pooled.
So the runs are different games, each with its own pair of review seeds.

- **Class stability**: among the decisions flagged (inaccuracy, mistake or blunder) by either
  review, the share that got the same class from both.
- **Suggestion confirmation**: each decision flagged by the first review whose suggested choice
  differs from the one played is searched again alone at ten times the budget with seed
  ``g + 7`` (``decision_seed(g + 7, move)``): the review's own search (``Engine.search``), from the
  mover's view, the choice played and the suggestion each searched at least a quarter of the
  budget more on their own, as the review's recheck near a class line does. Not ``review(...,
  moves=[...])``: its JSON carries only the values of the choice played and of its own best,
  not the value of a suggestion it does not prefer. The suggestion is *confirmed* where the
  ten-times judge values it above the choice played (strictly); the stricter share is where the
  ten-times judge's own preferred choice is the suggestion; the gap is the ten-times best's value
  less the suggestion's (0 where they are the same), in win share (it can be below 0: the
  judge prefers its most searched choice, not its best valued). Also the ten-times judge's
  class of the choice played, computed as the review does (``ten_class``), against the
  review's. ``--ten-limit N`` judges a
  seeded sample of at most N such decisions a game (0: all).

**Rechecked**: the decisions each review searched again (``"checked"``: a loss near a class
line), first review and second, and the searches they added (``"rechecks"``; each is
``RECHECK`` times the budget, ``palio.review.recheck``). **Overruled**: the flagged decisions
whose suggestion the game checks at a larger budget (``palio.review.confirm_for``) and whose
check replaced the review's verdict (``"confirmed": false``).

CPU seconds are this process's and its finished workers' (``review_speed.cpu_seconds``). One
JSON line per game played and a summary line per game type, then a table: each run, all runs
pooled, and the spread (largest less smallest share) between the runs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from review_speed import cpu_seconds, played_game, searched, two_reviews  # noqa: E402

import palio.games as registry  # noqa: E402
from palio.core.record import GameRecord  # noqa: E402
from palio.review import (  # noqa: E402
    Budget,
    Engine,
    decision_seed,
    iterations_for,
    judge,
    thresholds_for,
)

TEN = 10  # the confirming judge's budget, in times the review's
CLASS_AIM = 0.85  # the aims: flagged decisions keeping their class across seeds
CONFIRM_AIM = 0.90  # and suggested choices confirmed at ten times the budget


def share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def class_stability(a: dict, b: dict) -> dict[str, Any]:
    """Among the decisions both reviews searched that either flagged, how many got the same
    class from both (``unstable``: the moves that did not, with both classes and both
    losses)."""
    left, right = searched(a), searched(b)
    flagged = sorted(m for m in set(left) & set(right) if left[m]["class"] or right[m]["class"])
    unstable = [[m, left[m]["class"], right[m]["class"], left[m]["loss"], right[m]["loss"]]
                for m in flagged if left[m]["class"] != right[m]["class"]]
    same = len(flagged) - len(unstable)
    return {"flagged": len(flagged), "same_class": same, "share": share(same, len(flagged)),
            "unstable": unstable}


def suggestions(result: dict) -> list[dict]:
    """The decisions a review flagged whose suggested choice is not the one played."""
    return [d for d in searched(result).values()
            if d["class"] and d["best"]["notation"] != d["played"]["notation"]]


def ten_times(record: GameRecord, decisions: list[dict], budget: Budget,
              seed: int) -> list[dict[str, Any]]:
    """Each decision (a review's entry) searched again alone at ``budget`` with
    ``decision_seed(seed, move)``, the choice played and the suggestion each searched further:
    their values for the mover, and the judge's own preferred choice and its value."""
    game = registry.get(record.game)
    state = game.setup(record.players, record.seed, record.options)
    wanted = {d["move"]: d for d in decisions}
    engine = Engine.strongest(state)
    out = []
    for move, text in enumerate(record.actions):
        action = state.parse(text)
        entry = wanted.get(move)
        if entry is not None:
            seat = state.to_move
            suggested = state.parse(entry["best"]["notation"])
            stats = engine.search(state.copy(), seat, budget, decision_seed(seed, move), action,
                                  also=[suggested])
            row = {
                "move": move, "seat": seat, "class": entry["class"],
                "played": text, "suggested": str(suggested), "best": str(stats.best.action),
                "played_value": _value(stats.of(action).values[seat]),
                "suggested_value": _value(stats.of(suggested).values[seat]),
                "best_value": _value(stats.best.values[seat]),
            }
            out.append({**row, **ten_class(row, thresholds_for(record.game))})
        state.apply_unchecked(action)
    return out


def ten_class(row: dict[str, Any], limits: tuple[float, float, float]) -> dict[str, Any]:
    """The loss and class the ten-times judge gives the choice played, as the review computes
    them: its preferred choice's value less the choice played's (0 where they are the same)."""
    if row["best"] == row["played"] or row["played_value"] is None:
        loss = 0.0
    else:
        loss = max(0.0, row["best_value"] - row["played_value"])
    return {"ten_loss": round(loss, 4), "ten_class": judge(loss, limits)}


def _value(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)


def confirmation(judged: list[dict]) -> dict[str, Any]:
    """How many suggestions the ten-times judge confirmed (valued above the choice played; a
    suggestion it never valued is not confirmed), how many it preferred itself, the mean gap
    between its preferred choice's value and the suggestion's, and how many decisions it gave
    the review's class (``ten_class``)."""
    confirmed = sum(1 for j in judged if j["suggested_value"] is not None
                    and j["played_value"] is not None
                    and j["suggested_value"] > j["played_value"])
    best = sum(1 for j in judged if j["best"] == j["suggested"])
    gaps = [0.0 if j["best"] == j["suggested"] else j["best_value"] - j["suggested_value"]
            for j in judged if j["suggested_value"] is not None]
    same = sum(1 for j in judged if j["ten_class"] == j["class"])
    return {"judged": len(judged), "confirmed": confirmed, "share": share(confirmed, len(judged)),
            "same_class": same, "class_share": share(same, len(judged)),
            "best_is_suggestion": best, "best_share": share(best, len(judged)),
            "mean_gap": round(statistics.fmean(gaps), 4) if gaps else None}


def stability_run(record: GameRecord, budget: Budget, seed: int, *, workers: int = 1,
                  moves: list[int] | None = None, ten_limit: int = 0) -> dict[str, Any]:
    """One run: two reviews (seeds ``seed``, ``seed + 1``; only ``moves`` where given), their
    class stability, and the first review's suggestions judged at ten times the budget."""
    started = cpu_seconds()
    reviews, seconds, _ = two_reviews(record, budget, seed, workers, moves=moves)
    asked = suggestions(reviews[0])
    if ten_limit and len(asked) > ten_limit:
        asked = random.Random(seed).sample(asked, ten_limit)
    judging = cpu_seconds()
    judged = ten_times(record, asked, budget.times(TEN), seed + 7)
    return {
        "review_seeds": [seed, seed + 1], "iterations": budget.iterations,
        "decisions": len(searched(reviews[0])),
        "flagged": [len([d for d in r["decisions"] if d["class"]]) for r in reviews],
        "checked": [len([d for d in r["decisions"] if d.get("checked")]) for r in reviews],
        "rechecks": [sum(d.get("rechecks", 0) for d in r["decisions"]) for r in reviews],
        "overruled": [sum(1 for d in r["decisions"] if d.get("confirmed") is False)
                      for r in reviews],
        "class_stability": class_stability(*reviews),
        "suggestions": len(suggestions(reviews[0])),
        "confirmation": confirmation(judged), "judged": judged,
        "cpu_seconds": {"reviews": seconds, "ten_times": round(cpu_seconds() - judging, 1),
                        "total": round(cpu_seconds() - started, 1)},
    }


def spread(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(max(known) - min(known), 3) if len(known) > 1 else None


def verdict(values: list[float | None], aim: float) -> str:
    """``met`` where every run reached the aim, ``missed`` where one did not, ``not
    measured`` where no run had anything to count."""
    known = [v for v in values if v is not None]
    if not known:
        return "not measured"
    return "met" if len(known) == len(values) and min(known) >= aim else "missed"


def pooled(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Several games' counts as one: flagged decisions and suggestions of all of them."""
    flagged = sum(r["class_stability"]["flagged"] for r in results)
    same = sum(r["class_stability"]["same_class"] for r in results)
    judged = [j for r in results for j in r["judged"]]
    return {"decisions": sum(r["decisions"] for r in results),
            "checked": [sum(r["checked"][k] for r in results) for k in range(2)],
            "rechecks": [sum(r["rechecks"][k] for r in results) for k in range(2)],
            "class_stability": {"flagged": flagged, "same_class": same,
                                "share": share(same, flagged),
                                "unstable": [[r["game_seed"], *u] for r in results
                                             for u in r["class_stability"]["unstable"]]},
            "confirmation": confirmation(judged),
            "cpu_seconds": round(sum(r["cpu_seconds"]["total"] for r in results), 1)}


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="san-gimignano:2,signorie:2,troyes:2,tiletum:2,"
                        "aquileia:3")
    parser.add_argument("--bot", default="greedy",
                        help="the bot that plays the reviewed games (greedy: more mistakes)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="a decision's budget (default: the review's for the game, "
                        "palio.review.iterations_for)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=2, help="runs a game type")
    parser.add_argument("--deals", type=int, default=1,
                        help="games a run, pooled (run k: game seeds seed + k * deals + i)")
    parser.add_argument("--ten-limit", type=int, default=0,
                        help="at most this many suggestions judged at ten times a game (0: all)")
    parser.add_argument("--workers", type=int, default=1, help="processes per review")
    args = parser.parse_args(argv)
    rows = []
    for spec in args.games.split(","):
        game_id, _, players = spec.partition(":")
        budget = Budget(iterations=args.iterations
                        or iterations_for(game_id, int(players or 2)))
        runs, every = [], []
        for k in range(args.runs):
            games = []
            for i in range(args.deals):
                game_seed = args.seed + k * args.deals + i
                record = played_game(game_id, int(players or 2), game_seed, args.bot)
                judge = Engine.strongest(registry.get(game_id).setup(record.players, 1, {}))
                one = {"game": game_id, "players": record.players, "played_by": args.bot,
                       "judge": judge.name, "run": k, "game_seed": game_seed,
                       "moves": len(record.actions),
                       **stability_run(record, budget, game_seed, workers=args.workers,
                                       ten_limit=args.ten_limit)}
                print(json.dumps(one), flush=True)
                games.append(one)
            every += games
            runs.append({"run": k, "game_seeds": [g["game_seed"] for g in games],
                         **pooled(games)})
        classes = [r["class_stability"]["share"] for r in runs]
        confirmed = [r["confirmation"]["share"] for r in runs]
        row = {"game": game_id, "players": every[0]["players"], "iterations": budget.iterations,
               "played_by": args.bot, "runs": runs, "all": pooled(every),
               "class_spread": spread(classes), "confirm_spread": spread(confirmed),
               "class_verdict": verdict(classes, CLASS_AIM),
               "confirm_verdict": verdict(confirmed, CONFIRM_AIM)}
        print(json.dumps({"summary": row}), flush=True)
        rows.append(row)
    print(f"\n{'game':14} {'p':>2} {'run':>5} {'dec':>4} {'same class':>11} "
          f"{'confirmed':>11} {'10x best':>11} {'gap':>7} {'10x class':>11} "
          f"{'checked':>9} {'searches':>9} {'CPU s':>7}")
    for row in rows:
        for run in [*row["runs"], {"run": "all", **row["all"]}]:
            c, t = run["class_stability"], run["confirmation"]
            print(f"{row['game']:14} {row['players']:>2} {run['run']!s:>5} "
                  f"{run['decisions']:>4} {c['same_class']:>3}/{c['flagged']:<3} {c['share']!s:>5} "
                  f"{t['confirmed']:>3}/{t['judged']:<3} {t['share']!s:>5} "
                  f"{t['best_is_suggestion']:>3}/{t['best_share']!s:<5} {t['mean_gap']!s:>7} "
                  f"{t['same_class']:>3}/{t['class_share']!s:<5} "
                  f"{run['checked'][0]:>4} {run['checked'][1]:>4} "
                  f"{run['rechecks'][0]:>4} {run['rechecks'][1]:>4} {run['cpu_seconds']:>7}")
        print(f"{'':14} {'':>2} spread: same class {row['class_spread']} "
              f"({row['class_verdict']} at {CLASS_AIM:.0%}), confirmed {row['confirm_spread']} "
              f"({row['confirm_verdict']} at {CONFIRM_AIM:.0%})")
    return rows


if __name__ == "__main__":
    main()
