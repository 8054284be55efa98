"""What building one observation's nonzero entries costs, per game and player count.

    PYTHONPATH=src python benchmarks/encode_cost.py [GAME ...] [--positions N] [--repeats R]
    PYTHONPATH=src python benchmarks/encode_cost.py GAME --search MODEL.npz -p 3 [--moves 20]

CPU time (``time.process_time``) per ``Game.observation_entries`` call, in microseconds,
averaged over the positions of seeded random games (every decision, the deciding seat's view:
what the ``learned`` bot's search builds at each leaf), split into ``observe`` (the view) and
the encoder (the view to entries). Issue 37: at equal CPU per move this cost decides how many
iterations ``learned`` runs against ``mcts``.

With ``--search``: the mean search iterations a move of ``learned`` on that model and of
``mcts``, both at 0.1 s of CPU time a move, over decisions spread through seeded random games
(a quicker look than ``versus.py``, which plays whole games).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio.games as registry  # noqa: E402
from palio import bots  # noqa: E402

GAMES = ["signorie", "troyes", "tiletum", "aquileia", "san-gimignano"]


def positions(game, players: int, count: int, seed: int = 1) -> list:
    """``count`` positions of seeded random games, each a copy, with the seat to view."""
    rng = random.Random(seed)
    out = []
    number = 0
    while len(out) < count:
        state = game.setup(players, seed * 1000 + number, None)
        number += 1
        while not state.is_over and len(out) < count:
            out.append((state.copy(), state.to_move))
            state.apply_unchecked(rng.choice(state.legal_actions()))
    return out


def micros(work, cases, repeats: int) -> float:
    started = time.process_time()
    for _ in range(repeats):
        for state, seat in cases:
            work(state, seat)
    return (time.process_time() - started) / (repeats * len(cases)) * 1e6


def search_iterations(name: str, players: int, model: str, moves: int, budget: float = 0.1) -> None:
    game = registry.get(name)
    cases = [(s, seat) for s, seat in positions(game, players, moves * 10)[::10]
             if len(s.legal_actions()) > 1][:moves]
    specs = {"learned": f"learned:model={model},time_budget={budget},cpu_time=true",
             "mcts": f"mcts:time_budget={budget},cpu_time=true"}
    for label, spec in specs.items():
        bot = bots.get(spec)
        counts = []
        for state, seat in cases:
            bot.choose(state.copy(), seat)
            counts.append(bot.last_stats["iterations"])
        print(f"{name} {players}p {label}: {sum(counts) / len(counts):.0f} iterations a move "
              f"at {budget} s CPU ({len(counts)} decisions)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--search", metavar="MODEL", help="learned's and mcts's iterations a move")
    parser.add_argument("--players", "-p", type=int, default=None)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args(argv)
    if args.search:
        for name in args.games:
            players = args.players or registry.get(name).info.min_players
            search_iterations(name, players, args.search, args.moves)
        return
    print(f"{'game':<14} {'P':>2} {'entries µs':>11} {'observe µs':>11} {'encode µs':>10} {'nonzero':>8}")
    for name in args.games:
        game = registry.get(name)
        info = game.info
        for players in range(info.min_players, min(info.max_players, 4) + 1):
            cases = positions(game, players, args.positions)
            layout = game.observation_layout(players)
            views = [(state.observe(seat), None) for state, seat in cases]
            total = micros(game.observation_entries, cases, args.repeats)
            observe = micros(lambda s, seat: s.observe(seat), cases, args.repeats)
            encode = micros(lambda view, _, g=game, lay=layout: g.encode_observation(view, lay), views,
                            args.repeats)
            nonzero = sum(len(game.observation_entries(s, seat).index) for s, seat in cases) / len(cases)
            print(f"{name:<14} {players:>2} {total:>11.1f} {observe:>11.1f} {encode:>10.1f} {nonzero:>8.0f}")


if __name__ == "__main__":
    main()
