"""How long a client waits for the words of a position: every legal action's label,
explanation and group (``describe.choices``), rendered in English and Japanese.

Plays seeded random games and times ``describe.choices`` at every position, and the words
alone (``game.words.action`` for each legal action, no text) at the largest one. Prints the
mean, the 99th percentile and the largest position's time per game and language.

    PYTHONPATH=src python benchmarks/words_speed.py --games 2 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import palio
from palio.core import describe
from palio.core.i18n import Translator

CASES = [("san-gimignano", 2, {"nobles": True}), ("tiletum", 2, {}), ("tiletum", 4, {})]


def best_of(runs: int, work) -> float:
    """The fastest of ``runs`` timings of ``work()``, in milliseconds (the least disturbed)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def measure(game_id: str, players: int, options: dict, seed: int) -> dict[str, dict[str, float]]:
    game = palio.get_game(game_id)
    names = ["Alice", "Bruno", "Chiara", "Dario"][:players]
    translators = {lang: Translator(lang, names) for lang in ("en", "ja")}
    state = game.setup(players, seed, options)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {lang: [] for lang in translators}
    largest = state.copy()
    for tr in translators.values():  # load the catalogs before timing
        describe.choices(state, tr)
    while not state.is_over:
        for lang, tr in translators.items():
            times[lang].append(best_of(1, lambda tr=tr: describe.choices(state, tr)))
        if len(state.legal_actions()) > len(largest.legal_actions()):
            largest = state.copy()
        state.apply_unchecked(rng.choice(state.legal_actions()))
    out = {}
    for lang, tr in translators.items():
        ordered = sorted(times[lang])
        out[lang] = {
            "positions": len(ordered),
            "mean_ms": statistics.mean(ordered),
            "p99_ms": ordered[int(0.99 * (len(ordered) - 1))],
            "largest_actions": len(largest.legal_actions()),
            "largest_ms": best_of(20, lambda tr=tr: describe.choices(largest, tr)),
            "words_only_ms": best_of(
                20, lambda: [game.words.action(largest, a) for a in largest.legal_actions()]
            ),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per case")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    args = parser.parse_args()
    for game_id, players, options in CASES:
        for seed in range(args.seed, args.seed + args.games):
            for lang, row in measure(game_id, players, options, seed).items():
                print(
                    f"{game_id} {players}p seed {seed} {lang}: {row['positions']} positions, "
                    f"choices mean {row['mean_ms']:.2f} ms, p99 {row['p99_ms']:.2f} ms; largest "
                    f"position {row['largest_actions']} actions: {row['largest_ms']:.2f} ms "
                    f"(words alone {row['words_only_ms']:.2f} ms)"
                )


if __name__ == "__main__":
    main()
