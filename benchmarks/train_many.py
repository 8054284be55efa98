"""Several ``palio train`` runs side by side on one large machine, then each model against ``mcts``.

    PYTHONPATH=src python benchmarks/train_many.py --runs runs/many --minutes 5 --workers 2 \\
        --games 256 --steps 200 --batch 512 --buffer 100000 --seed 1 \\
        signorie:2 signorie:3 troyes:3 tiletum:4 aquileia:5

One process per ``game:players``, each a :class:`palio.learn.trainer.Trainer` with ``--workers``
self-play processes and the same settings (search-free, ``--method dmc``, unless given), in
``RUNS/<game>-<players>p``; no generation starts after ``--minutes``. Each run's generation
lines go to ``RUNS/<game>-<players>p.log``, and a summary of all to standard output. With
``--measure-minutes M`` each finished model then plays ``mcts`` at ``--time-per-move`` seconds of
CPU a move (``benchmarks/versus.py``, paired deals for two players, rotated seats for more),
all configurations at once, each stopped after M minutes; ``RUNS/<game>-<players>p.versus.jsonl``
keeps every game played, so a stopped measurement still counts what it finished.

This is the driver the issue-37 runs on a 16-core machine used (docs/bots.md); it needs PyTorch
(and the ``babel`` package the games' words need) but not the command line's other libraries.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from versus import tally  # noqa: E402  (this folder's versus.py: the same count as its runs)

HERE = Path(__file__).resolve().parent


def parse_config(text: str) -> tuple[str, int]:
    game, _, players = text.partition(":")
    if not game or not players.isdigit():
        raise argparse.ArgumentTypeError(f"expected GAME:PLAYERS, e.g. tiletum:3, not {text!r}")
    return game, int(players)


def train_one(args: argparse.Namespace, game: str, players: int) -> None:
    """Run one configuration in this process (the child's side)."""
    from palio.learn import trainer as t

    settings = t.TrainSettings(game=game, players=players, seed=args.seed,
                               generations=args.generations, games=args.games, steps=args.steps,
                               batch=args.batch, buffer=args.buffer, lr=args.lr,
                               hidden=[int(w) for w in args.hidden.split(",")],
                               method=args.method, epsilon=args.epsilon,
                               iterations=args.iterations)
    folder = args.runs / f"{game}-{players}p"
    trainer = t.Trainer(settings, folder, args.workers, device=args.device,
                        keep_every=args.keep_every)

    def finished(record: dict) -> None:
        print(json.dumps(record), flush=True)

    trainer.run(t.Progress(generation_finished=finished), threading.Event(), args.minutes * 60)
    print(json.dumps({"done": True, "generations": trainer.generation,
                      "games": trainer.games_played, "positions": trainer.positions_seen,
                      "wall_seconds": round(trainer.wall_seconds, 1),
                      "cpu_seconds": round(trainer.cpu_seconds, 1)}), flush=True)


def child_command(args: argparse.Namespace, game: str, players: int) -> list[str]:
    """This script for one configuration, with every option of this run (the child reads the
    training ones)."""
    command = [sys.executable, __file__, "--one", f"{game}:{players}"]
    for name, value in vars(args).items():
        if name not in ("configs", "one"):
            command += ["--" + name.replace("_", "-"), str(value)]
    return command


def last_json(path: Path) -> dict:
    lines = [line for line in path.read_text().splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


def measure(args: argparse.Namespace, configs: list[tuple[str, int]]) -> None:
    """Every model against mcts at once, each stopped after --measure-minutes."""
    spec = f"time_budget={args.time_per_move};cpu_time=true"
    running = []
    for game, players in configs:
        model = args.runs / f"{game}-{players}p" / "model.npz"
        if not model.exists():
            continue
        out = args.runs / f"{game}-{players}p.versus.jsonl"
        a = f"learned:model={model};{spec}"
        command = [sys.executable, str(HERE / "versus.py"), game, "-p", str(players),
                   "--a", a, "--b", f"mcts:{spec}",
                   "--games", str(args.measure_games), "--seed", str(args.measure_seed),
                   "--workers", str(args.measure_workers), "--out", str(out)]
        log = (args.runs / f"{game}-{players}p.versus.log").open("w")
        running.append((game, players, out, a, subprocess.Popen(command, stdout=log,
                                                             stderr=subprocess.STDOUT)))
    deadline = time.monotonic() + args.measure_minutes * 60
    for *_, process in running:
        try:
            process.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for game, players, out, a, _ in running:
        print(f"{game} {players}p: {summarise(out, players, a)}", flush=True)


def summarise(out: Path, players: int, a: str) -> str:
    """The learned seat's score (A's, by its spec) from a versus.py --out file: whatever games
    it finished."""
    games = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    if not games:
        return "no game finished"
    figures = tally(games, a)
    noun = "games" if players == 2 else "pairs"
    low, high = figures["wilson_95"]
    return (f"{figures['points']:g} of {figures['pairs']:g} {noun} ({figures['rate']:.1%}, 95% "
            f"Wilson {low:.1%}-{high:.1%}), {figures['games']} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="*", type=parse_config)
    parser.add_argument("--one", type=parse_config, help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=Path, default=Path("runs/many"))
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=256)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--buffer", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generations", type=int, default=1000)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--hidden", default="128,128")
    parser.add_argument("--method", default="dmc", choices=("dmc", "search"))
    parser.add_argument("--epsilon", type=float, default=0.05)
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--keep-every", type=int, default=5)
    parser.add_argument("--measure-minutes", type=float, default=0.0)
    parser.add_argument("--measure-games", type=int, default=40)
    parser.add_argument("--measure-seed", type=int, default=1)
    parser.add_argument("--measure-workers", type=int, default=1)
    parser.add_argument("--time-per-move", type=float, default=0.1)
    args = parser.parse_args()
    if args.one:
        train_one(args, *args.one)
        return
    args.runs.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    children = []
    for game, players in args.configs:
        log = (args.runs / f"{game}-{players}p.log").open("w")
        children.append((game, players, log.name,
                         subprocess.Popen(child_command(args, game, players), stdout=log,
                                          stderr=subprocess.STDOUT)))
    for *_, child in children:
        child.wait()
    print(f"trained {len(children)} configurations in {time.monotonic() - started:.0f} s wall",
          flush=True)
    for game, players, log, child in children:
        print(f"{game} {players}p (exit {child.returncode}): {last_json(Path(log))}", flush=True)
    if args.measure_minutes > 0:
        measure(args, args.configs)


if __name__ == "__main__":
    main()
