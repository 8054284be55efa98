"""Train sb3-contrib's MaskablePPO on a Palio game against the random bot, report its win share.

    pip install -e '.[gym,rl]'
    PYTHONPATH=src python benchmarks/maskable_ppo.py --timesteps 50000 --eval-games 400 --seed 1

The environment is ``palio.interop.gym.PalioEnv`` as it comes: ``observation="flat"`` gives
the game's observation tensor as a plain Box, and ``PalioEnv.action_masks()`` is the method
MaskablePPO asks for the legal actions, so no wrapper is needed. The learner sits at seat 0
during training; the evaluation plays ``--eval-games`` fresh deals, seats alternating, against
the same opponent, and prints the learner's win share (a tie for first counts as its share)
with a 95% Wilson interval, next to the untrained policy's share on the same deals.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

try:
    from sb3_contrib import MaskablePPO
except ImportError:  # the optional extra is missing: say how to get it
    sys.exit("this example needs sb3-contrib (and PyTorch): pip install -e '.[gym,rl]'")

from palio.interop.gym import PalioEnv  # noqa: E402


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = points / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def win_share(model, game: str, opponent: str, games: int, seed: int) -> float:
    """Mean return of the model's seat over ``games`` deals, seats alternating."""
    points = 0.0
    for index in range(games):
        env = PalioEnv(game, seat=index % 2, opponents=opponent, observation="flat")
        obs, _ = env.reset(seed=seed + index)
        while not env.state.is_over:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, *_ = env.step(int(action))
        points += env.state.returns()[env.seat]
    return points / games


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="san-gimignano")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--timesteps", type=int, default=50_000, help="learner decisions trained")
    parser.add_argument("--n-steps", type=int, default=1024, help="decisions per PPO update")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    env = PalioEnv(args.game, seat=0, opponents=args.opponent, observation="flat")
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=args.n_steps,
                        batch_size=min(256, args.n_steps), verbose=0)
    eval_seed = 10_000_000 + args.seed * 100_000  # deals never seen in training
    untrained = win_share(model, args.game, args.opponent, args.eval_games, eval_seed)
    started = time.perf_counter()
    cpu = time.process_time()
    model.learn(total_timesteps=args.timesteps)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    trained = win_share(model, args.game, args.opponent, args.eval_games, eval_seed)

    low, high = wilson(trained * args.eval_games, args.eval_games)
    before_low, before_high = wilson(untrained * args.eval_games, args.eval_games)
    print(f"{args.game}: MaskablePPO vs {args.opponent}, {args.timesteps} training decisions "
          f"in {seconds:.0f} s wall, {cpu_seconds:.0f} s CPU (seed {args.seed})")
    print(f"  untrained: {untrained:.1%} of {args.eval_games} games, 95% Wilson "
          f"[{before_low:.1%}, {before_high:.1%}]")
    print(f"  trained:   {trained:.1%} of {args.eval_games} games, 95% Wilson "
          f"[{low:.1%}, {high:.1%}]")
    return {"untrained": untrained, "trained": trained, "wilson_95": [low, high],
            "train_seconds": seconds, "train_cpu_seconds": cpu_seconds}


if __name__ == "__main__":
    main()
