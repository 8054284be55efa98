"""Palio's ``mcts`` against OpenSpiel's ``MCTSBot`` on the same Palio game, same time per move.

    PYTHONPATH=src python benchmarks/vs_openspiel.py --games 100 --time-per-move 0.1 --seed 1

Both bots play the Palio game through the OpenSpiel adapter (``palio.interop.openspiel``),
seats alternating from game to game (Palio's bot sits at seat ``i % players`` in game ``i``,
OpenSpiel's bots at the others), with the deal of game ``i`` from seed ``seed + i``.

* Palio: ``palio.bots.get("mcts", time_budget=T)``, single-observer ISMCTS on
  ``determinize``d worlds (it never sees hidden cards or future draws), random rollouts of 8
  decisions, then the game's ``evaluate``. Its iterations come from ``last_stats``.
* OpenSpiel: ``open_spiel.python.algorithms.mcts.MCTSBot`` with ``RandomRolloutEvaluator``
  (one random rollout to the end of the game), UCT constant ``--uct-c``. It takes a number of
  simulations, not a time, so it is **calibrated as it plays**: before each search its
  ``max_simulations`` is set to T times its estimated simulations per second (a warm-up search
  of 50 simulations on each game's opening gives the first estimate; after every search the
  estimate moves halfway to that search's rate, as rollouts shorten while the game goes on).
  Its mean seconds per move are printed beside Palio's, so the reader can check the two
  budgets really matched.
  It searches clones of the true state: the adapter keeps Palio's seeded randomness inside the
  state, so OpenSpiel's bot sees the opponent's hand and every future draw (an advantage to it).
* A decision with one legal action is played without search by both sides and not counted.

Prints the win rate of Palio's bot (a tie for first counts as a half) with a 95% Wilson
interval, each side's iterations/s, and whether the issue's aims are met (Palio's iterations/s
at least 3x OpenSpiel's, at least 60% wins). Both sides run in the same process, one game at a
time, so they share whatever CPU the machine leaves free.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from open_spiel.python.algorithms import mcts as spiel_mcts  # noqa: E402

from palio import bots  # noqa: E402
from palio.interop import openspiel as adapter  # noqa: E402

AIM_SPEED_RATIO = 3.0
AIM_WIN_RATE = 0.60
WARM_UP_SIMULATIONS = 50


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """One side's search effort: decisions searched, iterations, seconds."""

    moves: int = 0
    iterations: int = 0
    seconds: float = 0.0

    def add(self, iterations: int, seconds: float) -> None:
        self.moves += 1
        self.iterations += iterations
        self.seconds += seconds

    @property
    def per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds else 0.0

    @property
    def seconds_per_move(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0


class TimedSpielBot:
    """OpenSpiel's MCTSBot with its simulation count recalibrated before every search so that
    it takes about ``seconds`` per move."""

    def __init__(self, game, seconds: float, uct_c: float, seed: int, tally: Tally) -> None:
        rng = np.random.RandomState(seed)
        evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        self.bot = spiel_mcts.MCTSBot(game, uct_c, WARM_UP_SIMULATIONS, evaluator,
                                      random_state=rng)
        self.seconds = seconds
        self.tally = tally
        self.rate = self._warm_up(game)

    def _warm_up(self, game) -> float:
        started = time.perf_counter()
        self.bot.step(game.new_initial_state())
        return WARM_UP_SIMULATIONS / (time.perf_counter() - started)

    def step(self, state) -> int:
        # two at least: MCTSBot's first simulation only evaluates the root, adding no child
        simulations = max(2, round(self.rate * self.seconds))
        self.bot.max_simulations = simulations
        started = time.perf_counter()
        action = self.bot.step(state)
        elapsed = time.perf_counter() - started
        self.tally.add(simulations, elapsed)
        # rollouts shorten as the game goes on, so recent searches weigh most
        self.rate = 0.5 * self.rate + 0.5 * simulations / elapsed
        return action


@dataclass
class Result:
    games: int = 0
    palio_points: float = 0.0
    palio: Tally = field(default_factory=Tally)
    openspiel: Tally = field(default_factory=Tally)
    decisions: int = 0


def play_game(index: int, args: argparse.Namespace, result: Result) -> float:
    """One game; Palio's share of the win."""
    seed = args.seed + index
    game = adapter.load(args.game, players=args.players, seed=seed)
    palio_seat = index % args.players
    palio_bot = bots.get("mcts", time_budget=args.time_per_move, seed=seed)
    spiel_bot = TimedSpielBot(game, args.time_per_move, args.uct_c, seed, result.openspiel)
    state = game.new_initial_state()
    palio_game = state.palio.game
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif seat == palio_seat:
            # Palio's bot reads the Palio state but searches only determinized worlds
            choice = palio_bot.choose(state.palio, seat)
            result.palio.add(int(palio_bot.last_stats["iterations"]), palio_bot.last_stats["seconds"])
            action = palio_game.action_index(choice)
        else:
            action = spiel_bot.step(state)
        state.apply_action(action)
        result.decisions += 1
    return state.returns()[palio_seat]


def report(result: Result, args: argparse.Namespace, command: str, elapsed: float) -> dict:
    rate = result.palio_points / result.games if result.games else 0.0
    low, high = wilson(result.palio_points, result.games)
    ratio = result.palio.per_second / result.openspiel.per_second if result.openspiel.per_second else 0.0
    return {
        "command": command,
        "game": args.game,
        "players": args.players,
        "games": result.games,
        "time_per_move": args.time_per_move,
        "uct_c": args.uct_c,
        "palio_points": result.palio_points,
        "palio_win_rate": rate,
        "wilson_95": [low, high],
        "palio": {**asdict(result.palio), "iterations_per_s": result.palio.per_second,
                  "seconds_per_move": result.palio.seconds_per_move},
        "openspiel": {**asdict(result.openspiel), "iterations_per_s": result.openspiel.per_second,
                      "seconds_per_move": result.openspiel.seconds_per_move},
        "speed_ratio": ratio,
        "aims_met": {"speed_ratio_3x": ratio >= AIM_SPEED_RATIO, "win_rate_60": rate >= AIM_WIN_RATE},
        "decisions": result.decisions,
        "wall_seconds": elapsed,
    }


def print_report(r: dict) -> None:
    low, high = r["wilson_95"]
    met = {True: "met", False: "NOT met"}
    print(f"command: {r['command']}")
    print(f"{r['game']} {r['players']}p, {r['games']} games, {r['time_per_move']} s per move, "
          f"{r['decisions']} decisions, {r['wall_seconds']:.0f} s")
    for side in ("palio", "openspiel"):
        s = r[side]
        print(f"  {side:9}: {s['iterations_per_s']:8,.0f} iterations/s over {s['moves']} searched "
              f"moves, {s['seconds_per_move']:.3f} s per move")
    print(f"  speed ratio Palio/OpenSpiel: {r['speed_ratio']:.2f}x "
          f"(aim >= {AIM_SPEED_RATIO:g}x: {met[r['aims_met']['speed_ratio_3x']]})")
    print(f"  Palio wins: {r['palio_points']:g}/{r['games']} = {r['palio_win_rate']:.1%}, "
          f"95% Wilson [{low:.1%}, {high:.1%}] "
          f"(aim >= {AIM_WIN_RATE:.0%}: {met[r['aims_met']['win_rate_60']]})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="san-gimignano")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time-per-move", type=float, default=0.1)
    parser.add_argument("--uct-c", type=float, default=1.0,
                        help="OpenSpiel's UCT constant (utilities lie in [0, 1])")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path,
                        help="also write the figures here (rewritten after every game)")
    parser.add_argument("--progress", action="store_true", help="a line after every game")
    args = parser.parse_args(argv)
    if args.games < 1 or args.time_per_move <= 0:
        parser.error("--games must be at least 1 and --time-per-move more than 0")
    command = "PYTHONPATH=src python benchmarks/vs_openspiel.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    result = Result()
    started = time.perf_counter()
    for index in range(args.games):
        result.palio_points += play_game(index, args, result)
        result.games += 1
        figures = report(result, args, command, time.perf_counter() - started)
        if args.json:  # after every game, so a run stopped early still leaves its figures
            args.json.write_text(json.dumps(figures, indent=2) + "\n")
        if args.progress:
            print(f"game {index + 1}: Palio {result.palio_points:g}/{result.games}, "
                  f"it/s Palio {result.palio.per_second:,.0f} OpenSpiel "
                  f"{result.openspiel.per_second:,.0f}", flush=True)
    print_report(figures)

if __name__ == "__main__":
    main()
