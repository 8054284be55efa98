"""What one search iteration costs on each side of ``vs_openspiel.py``, piece by piece.

    PYTHONPATH=src python benchmarks/iteration_costs.py

CPU time per call, in microseconds, averaged over San Gimignano positions 20 random decisions
into seeded games: Palio's ``copy`` and ``determinize``, a Palio-style rollout (a world, 8
random decisions, ``evaluate`` for both seats), and through the OpenSpiel adapter a ``clone``,
``resample_from_infostate``, ``information_state_string`` (the key of ISMCTS's nodes) and a
random rollout to the end of the game (what OpenSpiel's evaluator plays per simulation).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import pyspiel  # noqa: E402

from palio.interop import openspiel as po  # noqa: E402

RNG = random.Random(0)
SAMPLER = pyspiel.UniformProbabilitySampler(0.0, 1.0)


def mid_game(seed: int, moves: int = 20):
    state = po.load("san-gimignano", seed=seed).new_initial_state()
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def micros(work, states, repeats: int) -> float:
    started = time.process_time()
    for _ in range(repeats):
        for state in states:
            work(state)
    return (time.process_time() - started) / (repeats * len(states)) * 1e6


def rollout_to_end(state) -> int:
    clone = state.clone()
    decisions = 0
    while not clone.is_terminal():
        clone.apply_action(RNG.choice(clone.legal_actions()))
        decisions += 1
    return decisions


def palio_rollout(state) -> None:
    world = state.palio.determinize(state.current_player(), RNG)
    for _ in range(8):
        if world.is_over:
            break
        world.apply_unchecked(RNG.choice(world.legal_actions()))
    for seat in range(world.players):
        world.game.evaluate(world, seat)


def main() -> None:
    states = [s for s in (mid_game(k) for k in range(40)) if not s.is_terminal()][:20]
    lengths = [rollout_to_end(s) for s in states]
    print(f"{len(states)} positions; a random rollout to the end takes "
          f"{sum(lengths) / len(lengths):.0f} decisions on average")
    rows = [
        ("Palio copy()", lambda s: s.palio.copy(), 200),
        ("Palio determinize()", lambda s: s.palio.determinize(s.current_player(), RNG), 200),
        ("Palio: determinize + 8 random decisions + evaluate", palio_rollout, 50),
        ("OpenSpiel clone() through the adapter", lambda s: s.clone(), 200),
        ("resample_from_infostate()",
         lambda s: s.resample_from_infostate(s.current_player(), SAMPLER), 100),
        ("information_state_string()",
         lambda s: s.information_state_string(s.current_player()), 100),
        ("clone + random rollout to the end", rollout_to_end, 10),
    ]
    for name, work, repeats in rows:
        print(f"  {name:52} {micros(work, states, repeats):8.1f} us CPU")


if __name__ == "__main__":
    main()
