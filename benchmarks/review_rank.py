"""Does the review's accuracy rank skill? Games played by bots of known strength, reviewed.

    PYTHONPATH=src python benchmarks/review_rank.py [--games san-gimignano:2,tiletum:2]
        [--deals 6] [--iterations 60] [--seed 1] [--save DIR | --load DIR [--judge-again N]]
        [--runs 2]

Four bots, weakest first: random, greedy, mcts at 20 iterations, mcts at 150 iterations. For
each game (``id:players``), ``--deals`` games are played, deal ``k`` with seed ``seed + k``
and the bots of the ``k``-th combination of ``players`` of the four (all combinations in turn,
seats rotated by ``k``). Each game is reviewed twice (review seeds ``seed`` and ``seed + 1``)
at ``--iterations`` a decision. ``--save DIR`` keeps every review as JSON (and reuses one
kept there for the same game, iterations and seed by a run that was stopped); ``--load DIR``
measures reviews kept so (no play, no search); with ``--judge-again N`` it judges the kept
games' decisions again at ``N`` iterations (the review's search only: no recheck, no reasons;
a stronger judge at a fraction of a review's cost). ``--runs 1`` uses review seed ``seed``
only. Per game type and review seed: Spearman's
correlation over all seats between the bot's strength (0-3) and the seat's accuracy by each
measure, all computed from the same decisions' fields:

- ``accuracy``: the review's (:func:`palio.review.game_accuracy`): the share of the seat's
  total stake (what a uniformly random choice would lose, summed over its decisions) that its
  choices kept, in score margin (the search's expected lead in points), 0 for random play on
  average; ``margin_capped``: the same with each decision's loss capped at its stake;
- the same in win share, the margin's share where the win share saturated (the measure of
  ``plain_margin``): ``capped`` and ``relative`` (uncapped); ``relative_share``: win share
  only, uncapped;
- issue 36's later variants, each the share of the total stake kept as ``accuracy`` is, with
  a function of :mod:`palio.review` per decision: ``slope`` (the margin lost and staked
  weighed by :func:`~palio.review.position_weight`, how much a point moves the chances
  there), ``hybrid`` (:func:`~palio.review.hybrid_loss`: win share where it moves, the
  margin elsewhere), ``won_share`` (:func:`~palio.review.won_loss`: win share where the mover
  has the game won, the margin elsewhere), ``blend`` (:func:`~palio.review.blend_loss`: both
  added);
- lichess-style, per decision ``lichess_accuracy`` of a loss, the game's the mean of the
  plain and harmonic means: ``plain`` (the win-share ``loss``, the accuracy before issue 36),
  ``share_lost`` (the loss less its standard error), ``plain_margin`` (the margin where
  saturated: the review's accuracy before stakes), ``margin_all`` (the margin everywhere);
  ``weighted`` (``plain_margin``'s decisions weighed by stake) and ``lichess`` (lichess's
  volatility-weighted mean over windows of the judge's win percent, with the harmonic mean);

and the mean accuracy per bot by each measure ("ordered" where it rises with strength); for
the review's accuracy, each bot's against each opponent (``by_opponent``) and, pooled over its
games, the share of its decisions in positions the judge thinks decided (below 5 % or above
95 %) with its accuracy in the other decisions and in those (``decided``). One JSON line per
game type, then a table (the breakdowns for the first review seed). CPU seconds (this process) are reported, as the
machine may be shared.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio  # noqa: E402
import palio.games as registry  # noqa: E402
from palio import bots  # noqa: E402
from palio.core.record import GameRecord  # noqa: E402
from palio.review import (  # noqa: E402
    Budget,
    Engine,
    accuracy_loss,
    blend_loss,
    decision_seed,
    game_accuracy,
    game_scale,
    hybrid_loss,
    lichess_accuracy,
    lichess_game_accuracy,
    margin_lost,
    margin_share,
    position_weight,
    review,
    saturated,
    share_lost,
    stakes,
    won_loss,
)

BOTS = ["random", "greedy", "mcts:iterations=20", "mcts:iterations=150"]


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: list[float], y: list[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on the ranks), None where either is constant."""
    rx, ry = ranks(x), ranks(y)
    if len(set(rx)) < 2 or len(set(ry)) < 2:
        return None
    return statistics.correlation(rx, ry)


def lichess(decisions: list[dict], accuracies: list[float]) -> float:
    """lichess's game accuracy, rewritten for a seat's decisions: the mean of the harmonic
    mean and a mean weighted by volatility (the spread of the judge's win percent over a
    sliding window of the seat's decisions, clamped to 0.5..12)."""
    if not accuracies:
        return 0.0
    wins = [100.0 * (d["before"] if d["before"] is not None else 0.5) for d in decisions]
    size = max(2, min(8, len(wins) // 10))
    weights = []
    for i in range(len(wins)):
        window = wins[max(0, min(i, len(wins) - size)):][:size]
        spread = statistics.pstdev(window) if len(window) > 1 else 0.0
        weights.append(max(0.5, min(12.0, spread)))
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    harmonic = len(accuracies) / sum(1.0 / max(a, 1e-9) for a in accuracies)
    return (weighted + harmonic) / 2.0


def ratio(lost: list[float], staked: list[float], capped: bool) -> float:
    """The share of the total stake kept, in percent (each loss capped at its stake, or not)."""
    total = sum(staked)
    if total <= 0:
        return 100.0
    kept = sum(min(x, s) if capped else x for x, s in zip(lost, staked, strict=True))
    return max(0.0, 100.0 * (1.0 - kept / total))


def variants(decisions: list[dict], scale: float) -> dict[str, float]:
    """A seat's accuracy by each measure, from its judged (unforced) decisions' fields."""
    losses: dict[str, list[float]] = {"plain": [], "share_lost": [], "plain_margin": [],
                                      "margin_all": []}
    lost: list[float] = []  # win share lost (the margin's where saturated)
    staked: list[float] = []  # what a random choice would lose there, the same way
    for d in decisions:
        same = d["played"]["notation"] == d["best"]["notation"]
        shrunk = 0.0 if same else share_lost(d["best"]["value"], d["best"]["visits"],
                                             d["played"]["value"], d["played"]["visits"])
        losses["plain"].append(d["loss"])
        losses["share_lost"].append(shrunk)
        losses["plain_margin"].append(accuracy_loss(d["loss"], d["before"], d["margin_loss"],
                                                    scale))
        gap, stake_margin = d.get("margin_gap", 0.0), d.get("stake_margin", 0.0)
        losses["margin_all"].append(max(d["loss"], margin_share(gap, scale)))
        lost.append(accuracy_loss(d["loss"], d["before"], gap, scale))
        staked.append(accuracy_loss(d.get("stake", 0.0), d["before"], stake_margin, scale))
    out = {k: lichess_game_accuracy([lichess_accuracy(v) for v in got]) or 0.0
           for k, got in losses.items()}
    gaps = [d.get("margin_gap", 0.0) for d in decisions]
    stakes_m = [d.get("stake_margin", 0.0) for d in decisions]
    # the review's accuracy, from the decisions' raw fields (so reviews kept before the
    # measure was chosen are measured the same way): score margin lost over margin staked
    out["accuracy"] = game_accuracy(gaps, stakes_m) or 0.0
    out["margin_capped"] = ratio(gaps, stakes_m, capped=True)
    out["capped"] = ratio(lost, staked, capped=True)
    out["relative"] = ratio(lost, staked, capped=False)
    out["relative_share"] = ratio([d["loss"] for d in decisions],
                                  [d.get("stake", 0.0) for d in decisions], capped=False)
    # issue 36's later variants (each a function of palio.review), the share of the total
    # stake kept as in ``accuracy``: the margin weighed by how much a point moves the chances
    # there (``slope``); win share where it moves, else the margin (``hybrid``); win share
    # where the mover has the game won, else the margin (``won_share``); both added (``blend``)
    weights = [position_weight(d["before"]) for d in decisions]
    out["slope"] = ratio([w * g for w, g in zip(weights, gaps, strict=True)],
                         [w * s for w, s in zip(weights, stakes_m, strict=True)], capped=False)
    for name, loss in (("hybrid", hybrid_loss), ("won_share", won_loss)):
        out[name] = ratio([loss(d["loss"], d.get("margin_gap", 0.0), d["before"], scale)
                           for d in decisions],
                          [loss(d.get("stake", 0.0), d.get("stake_margin", 0.0), d["before"], scale)
                           for d in decisions], capped=False)
    out["blend"] = ratio([blend_loss(d["loss"], d.get("margin_gap", 0.0), scale) for d in decisions],
                         [blend_loss(d.get("stake", 0.0), d.get("stake_margin", 0.0), scale)
                          for d in decisions], capped=False)
    moves = [lichess_accuracy(v) for v in losses["plain_margin"]]
    # plain_margin's decisions weighed by stake (a decision whose choices are alike hardly
    # counts)
    weights = [s + 0.01 for s in staked]
    out["weighted"] = (sum(a * w for a, w in zip(moves, weights, strict=True)) / sum(weights)
                       if moves else 0.0)
    out["lichess"] = lichess(decisions, moves)
    return out


NAMES = ["accuracy", "margin_capped", "capped", "relative", "relative_share", "slope", "hybrid",
         "won_share", "blend", "plain", "share_lost", "plain_margin", "margin_all", "weighted",
         "lichess"]



def played(game_id: str, players: int, seed: int, lineup: list[int]) -> GameRecord:
    state = palio.new_game(game_id, players=players, seed=seed)
    seats = [bots.get(BOTS[b], seed=seed * 10 + i) for i, b in enumerate(lineup)]
    while not state.is_over:
        state.apply(seats[state.to_move].choose(state, state.to_move))
    return GameRecord.of(state)


def judged_again(text: str, iterations: int, seed: int) -> dict:
    """A kept review's game judged again at ``iterations`` a decision: the review's own search
    from the mover's view (:meth:`palio.review.Engine.search`, the choice played searched
    further, each decision's seed as the review's) without the recheck near a line or the
    outlooks, so only the fields the measures read (``before``, ``loss``, ``stake``,
    ``margin_gap``, ``stake_margin``, the notations and visits). A stronger judge for the
    same games at a fraction of a review's cost."""
    record = GameRecord.from_json(text)
    state = registry.get(record.game).setup(record.players, record.seed, record.options)
    engine = Engine.strongest(state)
    decisions = []
    for move, notation in enumerate(record.actions):
        action = state.parse(notation)
        seat = state.to_move
        if len(state.legal_actions()) > 1:
            stats = engine.search(state, seat, Budget(iterations=iterations),
                                  decision_seed(seed, move), action)
            best, mine = stats.best, stats.of(action)
            same = mine.action == best.action
            gap = (statistics.fmean(best.leads) - statistics.fmean(mine.leads)
                   if not same and best.leads and mine.leads else 0.0)
            stake, stake_margin = stakes(stats)
            decisions.append({
                "move": move, "seat": seat, "forced": False, "before": best.values[seat],
                "loss": 0.0 if same else max(0.0, best.values[seat] - mine.values[seat]),
                "stake": stake, "stake_margin": stake_margin, "margin_gap": max(0.0, gap),
                "margin_loss": None if same else margin_lost(best.leads, mine.leads),
                "played": {"notation": notation, "value": mine.values[seat],
                           "visits": mine.visits},
                "best": {"notation": str(best.action), "value": best.values[seat],
                         "visits": best.visits}})
        state.apply_unchecked(action)
    return {"decisions": decisions,
            "players": [{"seat": seat} for seat in range(record.players)]}


def reviews(game_id: str, players: int, args: argparse.Namespace):
    """(deal, lineup, review seed offset 0/1, review) for each game reviewed: played and reviewed
    now, or read from ``--load``'s folder (as ``--save`` wrote it)."""
    if args.load:
        for path in sorted(Path(args.load).glob(f"{game_id}-{players}-deal*-seed*.json")):
            saved = json.loads(path.read_text())
            deal = int(path.stem.split("-deal")[1].split("-")[0])
            run = int(path.stem.rsplit("-seed", 1)[1]) - args.seed
            if deal < args.deals and run in range(args.runs):
                result = saved["review"]
                if args.judge_again:
                    result = judged_again(saved["record"], args.judge_again, args.seed + run)
                yield deal, [BOTS.index(b) for b in saved["lineup"]], run, result
        return
    combos = list(itertools.combinations(range(len(BOTS)), players))
    for k in range(args.deals):
        combo = list(combos[k % len(combos)])
        lineup = combo[k % players:] + combo[:k % players]
        record = played(game_id, players, args.seed + k, lineup)
        for run in range(args.runs):
            out = Path(args.save or ".") / f"{game_id}-{players}-deal{k}-seed{args.seed + run}.json"
            if args.save and out.exists():  # kept by an earlier run that was stopped: reused
                saved = json.loads(out.read_text())
                if (saved["record"] == record.to_json()
                        and saved["review"]["engine"]["iterations"] == args.iterations):
                    yield k, lineup, run, saved["review"]
                    continue
            result = review(record, budget=Budget(iterations=args.iterations),
                            seed=args.seed + run)
            if args.save:
                out.write_text(json.dumps({"lineup": [BOTS[b] for b in lineup],
                                           "record": record.to_json(), "review": result}))
            yield k, lineup, run, result


SHORT = {"random": "random", "greedy": "greedy", "mcts:iterations=20": "mcts20",
         "mcts:iterations=150": "mcts150"}


def by_opponent(plays: dict[int, list[tuple[str, list[dict]]]]) -> dict[str, dict[str, float]]:
    """The review's accuracy of each bot against each opponent (its decisions in those games
    pooled: total margin lost over total margin staked)."""
    out: dict[str, dict[str, float]] = {}
    for bot, games in sorted(plays.items()):
        rivals: dict[str, list[dict]] = {}
        for rival, mine in games:
            rivals.setdefault(rival, []).extend(mine)
        out[SHORT[BOTS[bot]]] = {
            rival: round(game_accuracy([d.get("margin_gap", 0.0) for d in mine],
                                       [d.get("stake_margin", 0.0) for d in mine]) or 0.0, 1)
            for rival, mine in sorted(rivals.items())}
    return out


def decided_split(plays: dict[int, list[tuple[str, list[dict]]]]) -> dict[str, list[float]]:
    """Per bot, pooled over its games: the share of its decisions in positions the judge
    thinks decided (:func:`palio.review.saturated`), and the review's accuracy (margin lost
    over margin staked) in the undecided and in the decided ones."""
    out: dict[str, list[float]] = {}
    for bot, games in sorted(plays.items()):
        mine = [d for _, ds in games for d in ds]
        parts = ([d for d in mine if not saturated(d["before"])],
                 [d for d in mine if saturated(d["before"])])
        out[SHORT[BOTS[bot]]] = [round(len(parts[1]) / max(1, len(mine)), 2)] + [
            round(game_accuracy([d.get("margin_gap", 0.0) for d in part],
                                [d.get("stake_margin", 0.0) for d in part]) or 0.0, 1)
            for part in parts]
    return out


def ordered(means: dict[str, float]) -> bool:
    """Whether the mean accuracies rise strictly with the bots' strength."""
    values = [means[b] for b in BOTS if b in means]
    return all(a < b for a, b in itertools.pairwise(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="san-gimignano:2,tiletum:2,aquileia:3,signorie:2,"
                        "troyes:2")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default=None, help="a folder to keep each review in")
    parser.add_argument("--runs", type=int, choices=(1, 2), default=2,
                        help="review seeds: seed only (1) or seed and seed + 1 (2)")
    parser.add_argument("--judge-again", type=int, default=None, metavar="ITERATIONS",
                        help="with --load: judge the kept games' decisions again at this "
                             "many iterations (search only: no recheck, no reasons)")
    parser.add_argument("--load", default=None,
                        help="a folder of reviews kept by --save: measure those, play nothing")
    args = parser.parse_args()
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
    rows = []
    for spec in args.games.split(","):
        game_id, _, count = spec.partition(":")
        players = int(count or 2)
        started = time.process_time()
        scale = game_scale(palio.new_game(game_id, players=players, seed=args.seed))
        seats: dict[int, list[tuple[int, dict[str, float]]]] = {0: [], 1: []}
        # per review seed and bot: (its opponents, its decisions), for the breakdowns
        plays: dict[int, dict[int, list[tuple[str, list[dict]]]]] = {0: {}, 1: {}}
        deals = set()
        for k, lineup, run, result in reviews(game_id, players, args):
            deals.add(k)
            for summary in result["players"]:
                seat = summary["seat"]
                mine = [d for d in result["decisions"] if d["seat"] == seat and not d["forced"]]
                seats[run].append((lineup[seat], variants(mine, scale)))
                rivals = "+".join(SHORT[BOTS[b]] for i, b in enumerate(lineup) if i != seat)
                plays[run].setdefault(lineup[seat], []).append((rivals, mine))
        if not deals:
            continue
        row: dict = {"game": game_id, "players": players, "deals": len(deals),
                     "iterations": args.iterations,
                     "cpu_seconds": round(time.process_time() - started, 1)}
        for run, got in seats.items():
            if not got:
                continue
            strength = [float(s) for s, _ in got]
            row[f"seed_{args.seed + run}"] = {
                **{f"spearman_{name}": spearman(strength, [v[name] for _, v in got])
                   for name in NAMES},
                "mean_accuracy": {name: {BOTS[b]: round(statistics.fmean(
                    [v[name] for s, v in got if s == b]), 1) for b in sorted({s for s, _ in got})}
                    for name in NAMES},
                "by_opponent": by_opponent(plays[run]),
                "decided": decided_split(plays[run]),
            }
        rows.append(row)
        print(json.dumps(row), flush=True)
    fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
    print(f"\n{'game':14} {'p':>2} {'deals':>5}  Spearman with strength, two review seeds")
    for row in rows:
        runs = [row[k] for k in row if k.startswith("seed_")]
        print(f"{row['game']:14} {row['players']:>2} {row['deals']:>5}")
        for name in NAMES:
            means = runs[0]["mean_accuracy"][name]
            print(f"{'':10}{name:16} {'/'.join(fmt(r['spearman_' + name]) for r in runs):>11}"
                  f"  mean per bot (first seed): {', '.join(f'{v:.1f}' for v in means.values())}"
                  f"{'  ordered' if ordered(means) else ''}")
        for bot, rivals in runs[0]["by_opponent"].items():
            print(f"{'':10}accuracy of {bot} against: "
                  + ", ".join(f"{rival} {v:.1f}" for rival, v in rivals.items()))
        for bot, (share, calm, decided) in runs[0]["decided"].items():
            print(f"{'':10}{bot}: {100 * share:.0f} % of decisions decided; accuracy "
                  f"{calm:.1f} in the others, {decided:.1f} in those")
    print("\nmean Spearman over games and seeds:")
    for name in NAMES:
        got = [r["spearman_" + name] for row in rows for k, r in row.items()
               if k.startswith("seed_") and r["spearman_" + name] is not None]
        print(f"  {name:16} {statistics.fmean(got):.2f}" if got else f"  {name:16} -")


if __name__ == "__main__":
    main()
