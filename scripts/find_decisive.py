"""Find decisive positions for the review's blunder test (tests/review/test_review.py).

    PYTHONPATH=src python scripts/find_decisive.py troyes -p 2 --seeds 60 260 --losing pass

Plays seeded greedy games (as the test does) and, over the last ``--last`` decisions of each,
looks for a position where the ``--losing`` choice loses every one of ``--tries`` random
continuations from the mover's view while some other choice wins every one. Prints one JSON line
per position found: ``[seed, move index, seat, {choice: win rate}]``. The test then checks the
position again with 40 continuations and asks the review to call the losing choice a blunder.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio  # noqa: E402
from palio import bots  # noqa: E402
from palio.review import random_win_rate as win_rate  # noqa: E402


def scan(seed: int, game: str, players: int, losing: str, last: int, tries: int) -> list:
    state = palio.new_game(game, players=players, seed=seed)
    bot = bots.get("greedy", seed=seed)
    while not state.is_over:
        state.apply(bot.choose(state, state.to_move))
    end = state.move_number
    found = []
    state = palio.new_game(game, players=players, seed=seed)
    bot = bots.get("greedy", seed=seed)  # the same greedy game again, checked near its end
    rng = random.Random(seed)
    while not state.is_over:
        if state.move_number >= end - last:
            seat = state.to_move
            legal = {str(action): action for action in state.legal_actions()}
            if losing in legal and len(legal) > 1 \
                    and win_rate(state, seat, legal[losing], rng, tries // 2) == 0.0:
                rates = {name: win_rate(state, seat, action, rng, tries)
                         for name, action in legal.items()}
                if rates[losing] == 0.0 and max(rates.values()) == 1.0:
                    found.append([seed, state.move_number, seat, rates])
        state.apply(bot.choose(state, state.to_move))
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", "-p", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 100), metavar=("FROM", "TO"))
    parser.add_argument("--losing", default="pass", help="the losing choice, in notation")
    parser.add_argument("--last", type=int, default=30, help="decisions before the end to check")
    parser.add_argument("--tries", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    job = partial(scan, game=args.game, players=args.players, losing=args.losing,
                  last=args.last, tries=args.tries)
    with Pool(args.workers) as pool:
        for found in pool.imap(job, range(*args.seeds)):
            for line in found:
                print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
