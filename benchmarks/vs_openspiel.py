"""Palio's ``mcts`` against OpenSpiel's MCTS and ISMCTS on the same Palio game, equal time per move.

    PYTHONPATH=src python benchmarks/vs_openspiel.py --games 130 --time-per-move 0.05 --seed 1

Every bot plays the Palio game through the OpenSpiel adapter (``palio.interop.openspiel``).
For each game index ``i`` and each opponent, one game: Palio's bot at seat ``i % players``,
the opponent's bot at the others, the deal from seed ``seed + i`` (the same deals for every
opponent).

* Palio: ``palio.bots.get("mcts")``, single-observer ISMCTS on ``determinize``d worlds (it
  never sees hidden cards or future draws), MAST rollouts of 8 decisions in San Gimignano (the
  game's ``search_defaults`` elsewhere), then the game's ``evaluate``.
* ``mcts``: OpenSpiel's ``open_spiel.python.algorithms.mcts.MCTSBot`` with
  ``RandomRolloutEvaluator`` (one random rollout to the end of the game). It searches clones of
  the **true** state: the adapter keeps Palio's seeded randomness inside the state, so it sees
  the opponent's hand and every future draw (an advantage to it).
* ``ismcts``: OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with the same
  evaluator; every simulation starts from ``resample_from_infostate`` (Palio's
  ``determinize``), so it sees no more than its seat may. (OpenSpiel's C++
  ``pyspiel.ISMCTSBot`` cannot call a Python game's resampler; see the adapter's docstring.)

Equal time per move. None of the three takes a time budget measured the same way, so each is
**calibrated as it plays**: before every search its iteration count is set to the time per
move times its estimated iterations per second (a warm-up search of 50 iterations on each
game's opening gives the first estimate; after every search the estimate moves halfway to that
search's rate). ``--clock cpu`` (the default) measures that time as the process's CPU time, so
a loaded machine slows every side alike without changing what each gets; ``--clock wall``
uses wall-clock time. Each side's mean CPU and wall seconds per searched move are printed, so
the reader can check that the budgets matched. A decision with one legal action is played
without search by every side and not counted.

Iterations are counted as run, not as asked for: OpenSpiel's ``MCTSBot`` (MCTS-Solver) stops
as soon as its root is solved, so its count is the root's ``explore_count`` after the search;
``ISMCTSBot`` runs every simulation asked for (its root's ``total_visits``); Palio's bot reports
its own (``last_stats``). The rate that sets the next move's count is the rate actually run,
and each side's CPU per move is printed beside the budget.

Prints, per opponent, the share of the points Palio's bot won (a tie for first counts as a
share) with a 95% Wilson interval, and each side's iterations per CPU-second. Everything runs
in one process, one game at a time.
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

from open_spiel.python.algorithms import ismcts as spiel_ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as spiel_mcts  # noqa: E402

from palio import bots  # noqa: E402
from palio.interop import openspiel as adapter  # noqa: E402

WARM_UP_ITERATIONS = 50
OPPONENTS = ("mcts", "ismcts")


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
    """One side's search effort: searched decisions, iterations, CPU and wall seconds."""

    moves: int = 0
    iterations: int = 0  # run
    asked: int = 0  # asked for
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    def add(self, iterations: int, asked: int, cpu: float, wall: float) -> None:
        self.moves += 1
        self.iterations += iterations
        self.asked += asked
        self.cpu_seconds += cpu
        self.wall_seconds += wall

    def figures(self) -> dict:
        per_move = max(1, self.moves)
        return {**asdict(self),
                "iterations_per_cpu_s": self.iterations / self.cpu_seconds if self.cpu_seconds else 0.0,
                "iterations_per_wall_s": self.iterations / self.wall_seconds if self.wall_seconds else 0.0,
                "cpu_seconds_per_move": self.cpu_seconds / per_move,
                "wall_seconds_per_move": self.wall_seconds / per_move}


class Calibrated:
    """A search whose iteration count is set before each move from its measured rate."""

    def __init__(self, seconds: float, clock: str, tally: Tally) -> None:
        self.seconds = seconds
        self.clock = time.process_time if clock == "cpu" else time.perf_counter
        self.tally = tally
        self.rate = 0.0

    def warm_up(self, state) -> None:
        started = self.clock()
        self.search(state.clone(), WARM_UP_ITERATIONS)
        self.rate = WARM_UP_ITERATIONS / max(1e-6, self.clock() - started)

    def step(self, state) -> int:
        # two at least: OpenSpiel's first simulation only evaluates the root
        iterations = max(2, round(self.rate * self.seconds))
        cpu, wall = time.process_time(), time.perf_counter()
        action, ran = self.search(state, iterations)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        self.tally.add(ran, iterations, cpu, wall)
        spent = cpu if self.clock is time.process_time else wall
        # rollouts shorten as the game goes on, so recent searches weigh most
        self.rate = 0.5 * self.rate + 0.5 * max(1, ran) / max(1e-6, spent)
        return action

    def search(self, state, iterations: int) -> tuple[int, int]:
        """(the action chosen, the iterations the search actually ran)."""
        raise NotImplementedError


class PalioSide(Calibrated):
    def __init__(self, seed: int, seconds: float, clock: str, tally: Tally,
                 bot: str = "mcts") -> None:
        super().__init__(seconds, clock, tally)
        # any Palio bot that searches a number of ``iterations`` (mcts, learned)
        self.bot = bots.get(bot, iterations=WARM_UP_ITERATIONS, seed=seed)

    def search(self, state, iterations: int) -> tuple[int, int]:
        # Palio's bot reads the Palio state but searches only determinized worlds
        self.bot.iterations = iterations
        palio = state.palio
        action = palio.game.action_index(self.bot.choose(palio, palio.to_move))
        return action, int(self.bot.last_stats["iterations"])


class SpielMctsSide(Calibrated):
    def __init__(self, game, seed: int, uct_c: float, seconds: float, clock: str,
                 tally: Tally) -> None:
        super().__init__(seconds, clock, tally)
        rng = np.random.RandomState(seed)
        evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        self.bot = spiel_mcts.MCTSBot(game, uct_c, WARM_UP_ITERATIONS, evaluator,
                                      random_state=rng)

    def search(self, state, iterations: int) -> tuple[int, int]:
        # what MCTSBot.step does, keeping the root: the solver may stop before ``iterations``
        self.bot.max_simulations = iterations
        root = self.bot.mcts_search(state)
        return root.best_child().action, root.explore_count


class SpielIsmctsSide(Calibrated):
    def __init__(self, game, seed: int, uct_c: float, seconds: float, clock: str,
                 tally: Tally) -> None:
        super().__init__(seconds, clock, tally)
        rng = np.random.RandomState(seed)
        evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        self.bot = spiel_ismcts.ISMCTSBot(game, evaluator, uct_c, WARM_UP_ITERATIONS,
                                          random_state=rng)

    def search(self, state, iterations: int) -> tuple[int, int]:
        self.bot._max_simulations = iterations  # the Python ISMCTSBot keeps it private
        action = int(self.bot.step(state))
        return action, self.bot._root_node.total_visits


@dataclass
class Match:
    """Palio's bot against one opponent over several games."""

    opponent: str
    games: int = 0
    palio_points: float = 0.0
    decisions: int = 0
    palio: Tally = field(default_factory=Tally)
    other: Tally = field(default_factory=Tally)


def play_game(index: int, args: argparse.Namespace, match: Match) -> float:
    """One game against ``match.opponent``; Palio's share of the win."""
    seed = args.seed + index
    game = adapter.load(args.game, players=args.players, seed=seed)
    palio_seat = index % args.players
    palio = PalioSide(seed, args.time_per_move, args.clock, match.palio, args.palio_bot)
    kind = SpielMctsSide if match.opponent == "mcts" else SpielIsmctsSide
    other = kind(game, seed, args.uct_c, args.time_per_move, args.clock, match.other)
    state = game.new_initial_state()
    palio.warm_up(state)
    other.warm_up(state)
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif state.current_player() == palio_seat:
            action = palio.step(state)
        else:
            action = other.step(state)
        state.apply_action(action)
        match.decisions += 1
    return state.returns()[palio_seat]


def report(match: Match, args: argparse.Namespace) -> dict:
    rate = match.palio_points / match.games if match.games else 0.0
    low, high = wilson(match.palio_points, match.games)
    palio, other = match.palio.figures(), match.other.figures()
    ratio = (palio["iterations_per_cpu_s"] / other["iterations_per_cpu_s"]
             if other["iterations_per_cpu_s"] else 0.0)
    return {"opponent": match.opponent, "games": match.games, "palio_points": match.palio_points,
            "palio_win_rate": rate, "wilson_95": [low, high], "decisions": match.decisions,
            "palio": palio, match.opponent: other, "iterations_ratio": ratio}


def print_report(r: dict) -> None:
    print(f"command: {r['command']}")
    print(f"{r['game']} {r['players']}p, {r['time_per_move']} s of {r['clock']} time per move, "
          f"seed {r['seed']}, {r['wall_seconds']:.0f} s wall, {r['cpu_seconds']:.0f} s CPU")
    for m in r["matches"]:
        low, high = m["wilson_95"]
        print(f"  vs {m['opponent']}: {m['games']} games, {m['decisions']} decisions")
        for side in ("palio", m["opponent"]):
            s = m[side]
            print(f"    {side:7}: {s['iterations_per_cpu_s']:8,.0f} iterations run per CPU-s "
                  f"({s['iterations']:,} run of {s['asked']:,} asked for) over "
                  f"{s['moves']} searched moves, {s['cpu_seconds_per_move']:.3f} s CPU and "
                  f"{s['wall_seconds_per_move']:.3f} s wall per move (budget "
                  f"{r['time_per_move']} s)")
        print(f"    Palio wins {m['palio_points']:g}/{m['games']} = {m['palio_win_rate']:.1%}, "
              f"95% Wilson [{low:.1%}, {high:.1%}]; iterations ratio "
              f"{m['iterations_ratio']:.1f}x")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="san-gimignano")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100, help="games against each opponent")
    parser.add_argument("--time-per-move", type=float, default=0.1)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--opponents", default=",".join(OPPONENTS),
                        help="comma-separated: mcts (sees the true state), ismcts (does not)")
    parser.add_argument("--uct-c", type=float, default=1.0,
                        help="OpenSpiel's UCT constant (utilities lie in [0, 1])")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--palio-bot", default="mcts",
                        help="Palio's side: mcts (default) or learned (the shipped model)")
    parser.add_argument("--json", type=Path,
                        help="also write the figures here (rewritten after every game)")
    parser.add_argument("--progress", action="store_true", help="a line after every game")
    args = parser.parse_args(argv)
    opponents = [o for o in args.opponents.split(",") if o]
    if args.games < 1 or args.time_per_move <= 0 or not opponents or set(opponents) - set(OPPONENTS):
        parser.error(f"--games at least 1, --time-per-move above 0, --opponents from {OPPONENTS}")
    command = "PYTHONPATH=src python benchmarks/vs_openspiel.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    matches = [Match(o) for o in opponents]
    started, cpu = time.perf_counter(), time.process_time()
    figures: dict = {}
    for index in range(args.games):
        for match in matches:
            match.palio_points += play_game(index, args, match)
            match.games += 1
            if args.progress:
                print(f"game {index + 1} vs {match.opponent}: Palio {match.palio_points:g}/"
                      f"{match.games}", flush=True)
        figures = {"command": command, "game": args.game, "players": args.players,
                   "time_per_move": args.time_per_move, "clock": args.clock, "seed": args.seed,
                   "uct_c": args.uct_c, "wall_seconds": time.perf_counter() - started,
                   "cpu_seconds": time.process_time() - cpu,
                   "matches": [report(m, args) for m in matches]}
        if args.json:  # after every game, so a run stopped early still leaves its figures
            args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print_report(figures)
    return figures


if __name__ == "__main__":
    main()
