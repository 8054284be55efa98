"""CPU time of one search iteration, ``learned`` beside ``mcts``, on the same positions.

    PYTHONPATH=src python benchmarks/search_cost.py tiletum -p 3 --seed 1

What an iteration is on each side: ``learned`` samples a world (``determinize``), walks its
tree, and at the leaf encodes the mover's observation and runs the network once; ``mcts``
samples a world, walks its tree, plays the game's own rollout (``Game.search_options``: none
in Signorie, 3 random decisions in Troyes, 8-24 MAST decisions elsewhere) and calls the
game's ``evaluate_all`` once for every seat. Each bot searches every position of ``palio.sim.bench.mid_game_positions``
with a fixed iteration budget; the figure is CPU seconds (``time.process_time``) over
iterations, so load on the machine changes it little. To compare two versions of the code,
run it twice, ``--src`` naming each checkout's ``src`` folder (default: this checkout's).
Where no model ships for the game and player count (and ``--model`` names none), only the
``mcts`` figure is given. ``--bots`` adds other searching bots by spec (e.g. the baseline
``mcts-2026``) on the same positions.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def cost(spec: str, positions: list, iterations: int, seed: int, **options) -> float:
    """Microseconds of CPU per iteration of bot ``spec`` over ``positions``."""
    from palio import bots

    bot = bots.get(spec, iterations=iterations, seed=seed, **options)
    done = 0
    started = time.process_time()
    for state in positions:
        bot.choose(state.copy(), state.to_move)
        done += bot.last_stats["iterations"]
    return (time.process_time() - started) / done * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", "-p", type=int, default=None)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", default=None, help="model file (default: the shipped one)")
    parser.add_argument("--bots", default="",
                        help="comma-separated further bot specs to measure (e.g. mcts-2026)")
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                        help="the src folder of the code to measure")
    args = parser.parse_args()
    sys.path.insert(0, str(args.src))
    from palio.bots.network import shipped_model
    from palio.games import get
    from palio.sim.bench import mid_game_positions

    game = get(args.game)
    players = args.players or game.info.min_players
    positions = mid_game_positions(game, players, args.seed, args.positions)
    print(f"{args.game}, {players} players, {len(positions)} positions, {args.iterations} "
          f"iterations each, seed {args.seed}, code from {args.src}")
    mcts_us = cost("mcts", positions, args.iterations, args.seed)
    line = f"CPU per iteration: mcts {mcts_us:.0f} us"
    for spec in filter(None, (b.strip() for b in args.bots.split(","))):
        other_us = cost(spec, positions, args.iterations, args.seed)
        line += f", {spec} {other_us:.0f} us ({spec}/mcts {other_us / mcts_us:.2f})"
    if args.model or shipped_model(args.game, players) is not None:
        learned = {"model": args.model} if args.model else {}
        learned_us = cost("learned", positions, args.iterations, args.seed, **learned)
        line += f", learned {learned_us:.0f} us (learned/mcts {learned_us / mcts_us:.2f})"
    else:
        line += " (no model ships for this game and player count: mcts alone)"
    print(line)


if __name__ == "__main__":
    main()
