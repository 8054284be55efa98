"""Are hints worth taking? The hint's choice against greedy's, in paired playouts.

    PYTHONPATH=src python benchmarks/hint_gain.py [--games san-gimignano:2,signorie:2]
        [--positions 40] [--iterations 600] [--playouts 8] [--continue greedy] [--seed 1]
        [--play greedy] [--per-game 4] [--save DIR]

Positions: for each game type (``id:players``), games are played by ``--play`` at every seat
(the greedy bot by default: cheap, and the kind of play a practice table meets), deal ``g``
with seed ``1000 * seed + g`` and seat ``i``'s bot seeded ``10 * deal + i``. From each game
``--per-game`` non-forced decisions (more than one legal choice) are taken, spread over the
game: its non-forced decisions cut into that many equal stretches, one drawn at random (seeded
by the deal) in each. Games are played until ``--positions`` positions are taken.

At each position, the mover's two choices:

- the hint's: the first choice of :func:`palio.review.hint` (the strongest bot's three most
  searched choices from the mover's view, best expected win share first) at ``--iterations``
  (the hint's own 600 by default), with one outlook world instead of six (the outlooks give
  the words and do not change the order);
- greedy's: ``palio.bots`` ``greedy``, seeded.

Where both are the same action the position's difference is exactly 0 (no playouts; the share
of such positions is reported). Otherwise ``--playouts`` K paired playouts with common random
numbers: from the true position (every hidden card and future draw as they really are), each
choice applied, then the game finished by ``--continue`` (a bot spec, greedy by default) at
every seat, playout ``k``'s bots seeded the same in both branches. So the two branches differ
only by the choice and what follows from it. With the true future fixed, the K playouts of a
position differ only by the continuation's own randomness (greedy's ties and its guesses of
hidden cards); ``--worlds mover`` instead draws each playout's world from the mover's view
(``state.determinize``: the others' hidden cards and the future resampled), the same world for
both branches. Per playout the mover's win share (1 for a sole first place, a tie for first
shared) and score margin (own score less the best other seat's); per position the mean of the
K differences hint - greedy.

Per game type: positions, the share where the choices were the same, the mean win-share and
margin differences with a 95% **t interval over positions** (Student's t, n - 1 degrees of
freedom; identical positions count as 0), the share of the spread of the position means
that is the playouts' own noise (``win_playout_share``, ``margin_playout_share``: near 1, more
``--playouts`` narrow the interval as well as more positions would), and CPU seconds
(``time.process_time``, this process). One JSON line per game type, then a table; ``--save DIR`` keeps every position.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import palio  # noqa: E402
from palio import bots  # noqa: E402
from palio.core.errors import PalioError  # noqa: E402
from palio.core.game import Action, State  # noqa: E402
from palio.core.rng import derive  # noqa: E402
from palio.review import HINT_ITERATIONS, Budget, hint  # noqa: E402

DEFAULT_GAMES = "san-gimignano:2,signorie:2,troyes:2,tiletum:2,aquileia:3"
WORLDS = ("true", "mover")
# Student's t, two-sided 95% (the 0.975 quantile), by degrees of freedom 1-30
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_Z975 = 1.959963984540054


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (a table to 30, then
    the Cornish-Fisher expansion about the normal quantile, within 0.001 there)."""
    if df < 1:
        raise ValueError("a t interval needs at least two values")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def t_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval (low, high); with one value the interval is unbounded."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


class Position(NamedTuple):
    """One sampled decision: where it came from and the true state before it."""

    deal: int
    move: int
    state: State


def sample_positions(game_id: str, players: int, count: int, seed: int, play: str = "greedy",
                     per_game: int = 4) -> list[Position]:
    """``count`` non-forced decisions from games played by ``play``, ``per_game`` a game spread
    over it (one at random in each of ``per_game`` equal stretches of its non-forced ones)."""
    if count < 1 or per_game < 1:
        raise ValueError("positions and positions per game must be at least 1")
    out: list[Position] = []
    deal = 1000 * seed
    while len(out) < count:
        state = palio.new_game(game_id, players=players, seed=deal)
        seats = [bots.get(play, seed=10 * deal + i) for i in range(players)]
        open_: list[tuple[int, State]] = []
        while not state.is_over:
            if len(state.legal_actions()) > 1:
                open_.append((state.move_number, state.copy()))
            state.apply(seats[state.to_move].choose(state, state.to_move))
        rng = random.Random(deal)
        take = min(per_game, len(open_))
        for j in range(take):
            low, high = j * len(open_) // take, (j + 1) * len(open_) // take
            move, position = open_[rng.randrange(low, high)]
            out.append(Position(deal, move, position))
            if len(out) == count:
                break
        deal += 1
    return out


def finish(state: State, action: Action, mover: int, policy: str, seed: int) -> tuple[float, float]:
    """``action`` applied to a copy of ``state``, the game finished by ``policy`` at every seat
    (seat ``i``'s bot seeded from ``seed`` and ``i``): the mover's win share and margin."""
    world = state.copy()
    world.apply_unchecked(action)
    seats = [bots.get(policy, seed=derive(seed, "seat", i).getrandbits(62))
             for i in range(world.players)]
    while not world.is_over:
        world.apply_unchecked(seats[world.to_move].choose(world, world.to_move))
    scores = world.scores()
    best_other = max(s for i, s in enumerate(scores) if i != mover)
    return world.returns()[mover], scores[mover] - best_other


def judge_position(state: State, iterations: int, playouts: int, seed: int,
                   policy: str = "greedy", worlds: str = "true") -> dict:
    """The hint's and greedy's choices at ``state`` (the mover's), and their paired playouts:
    per playout the mover's win share and margin after each, and the mean differences."""
    if worlds not in WORLDS:
        raise ValueError(f"worlds must be one of {', '.join(WORLDS)}, not {worlds!r}")
    if playouts < 1:
        raise ValueError("at least one playout a position")
    mover = state.to_move
    advice = hint(state, mover, budget=Budget(iterations=iterations), seed=seed, worlds=1)
    suggested = state.parse(advice["choices"][0]["notation"])
    greedy = bots.get("greedy", seed=seed).choose(state, mover)
    entry: dict = {"mover": mover, "hint": str(suggested), "greedy": str(greedy),
                   "identical": suggested == greedy}
    if suggested == greedy:  # the same action: nothing to play out
        return {**entry, "win_difference": 0.0, "margin_difference": 0.0, "playouts": []}
    rows = []
    for k in range(playouts):
        playout_seed = derive(seed, "playout", k).getrandbits(62)
        start = state
        if worlds == "mover":
            start = state.determinize(mover, random.Random(playout_seed))
            if suggested not in start.legal_actions() or greedy not in start.legal_actions():
                continue  # a world where one of the choices is not legal tells nothing
        hint_win, hint_margin = finish(start, suggested, mover, policy, playout_seed)
        greedy_win, greedy_margin = finish(start, greedy, mover, policy, playout_seed)
        rows.append({"hint_win": hint_win, "greedy_win": greedy_win,
                     "hint_margin": hint_margin, "greedy_margin": greedy_margin})
    if not rows:
        raise ValueError("no playout world kept both choices legal")
    return {**entry,
            "win_difference": statistics.fmean(r["hint_win"] - r["greedy_win"] for r in rows),
            "margin_difference": statistics.fmean(r["hint_margin"] - r["greedy_margin"]
                                                  for r in rows),
            "playouts": rows}


def playout_share(judged: list[dict], key: str = "win") -> float:
    """How much of the spread of the positions' mean differences (``key``: win or margin) is
    the playouts' own noise: the mean over positions of the variance of their playouts'
    differences over the number of playouts (0 for a position with one playout or none, as
    where the choices agree), over the variance of the position means; 0 where those do not
    vary. Near 1, more playouts a position narrow the interval about as much as more positions;
    near 0, only more positions do."""
    if len(judged) < 2:
        return 0.0
    means = [p[f"{key}_difference"] for p in judged]
    spread = statistics.variance(means)
    if spread == 0:
        return 0.0
    noise = []
    for p in judged:
        rows = p["playouts"]
        diffs = [r[f"hint_{key}"] - r[f"greedy_{key}"] for r in rows]
        noise.append(statistics.variance(diffs) / len(diffs) if len(diffs) > 1 else 0.0)
    return min(1.0, statistics.fmean(noise) / spread)


def measure(game_id: str, players: int, *, positions: int = 40,
            iterations: int = HINT_ITERATIONS, playouts: int = 8, seed: int = 1,
            policy: str = "greedy", play: str = "greedy", per_game: int = 4,
            worlds: str = "true") -> dict:
    """One game type: the sampled positions judged, and the summary over them."""
    started = time.process_time()
    sampled = sample_positions(game_id, players, positions, seed, play, per_game)
    judged = []
    for index, position in enumerate(sampled):
        position_seed = derive(seed, game_id, players, index).getrandbits(62)
        got = judge_position(position.state, iterations, playouts, position_seed, policy, worlds)
        judged.append({"deal": position.deal, "move": position.move, **got})
    wins = [p["win_difference"] for p in judged]
    margins = [p["margin_difference"] for p in judged]
    win_mean, win_low, win_high = t_interval(wins)
    margin_mean, margin_low, margin_high = t_interval(margins)
    return {
        "game": game_id, "players": players, "positions": len(judged),
        "iterations": iterations, "playouts": playouts, "continue": policy, "play": play,
        "worlds": worlds, "seed": seed,
        "identical_share": sum(p["identical"] for p in judged) / len(judged),
        "win_difference": win_mean, "win_interval": [win_low, win_high],
        "margin_difference": margin_mean, "margin_interval": [margin_low, margin_high],
        "interval": "95% Student t over positions",
        "win_playout_share": round(playout_share(judged, "win"), 3),
        "margin_playout_share": round(playout_share(judged, "margin"), 3),
        "cpu_seconds": round(time.process_time() - started, 1),
        "judged": judged,
    }


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=DEFAULT_GAMES)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=HINT_ITERATIONS)
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--continue", dest="policy", default="greedy",
                        help="the bot spec that finishes every playout at every seat")
    parser.add_argument("--play", default="greedy", help="the bot spec the sampled games use")
    parser.add_argument("--worlds", choices=WORLDS, default="true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default=None, help="a folder to keep every position in")
    args = parser.parse_args(argv)
    for name in ("positions", "per_game", "iterations", "playouts"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    for spec in (args.policy, args.play):
        bots.get(spec)  # a clear error for an unknown bot before anything is played
    specs = []
    for spec in args.games.split(","):
        game_id, _, count = spec.partition(":")
        if game_id.strip() not in palio.games.available() or not (count or "2").isdigit():
            parser.error(f"--games: {spec!r} is not game:players (games: "
                         f"{', '.join(palio.games.available())})")
        try:  # a clear error for a player count the game does not take
            palio.new_game(game_id.strip(), players=int(count or 2), seed=0)
        except PalioError as exc:
            parser.error(f"--games: {exc}")
        specs.append((game_id.strip(), int(count or 2)))
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
    rows = []
    for game_id, players in specs:
        row = measure(game_id, players, positions=args.positions, iterations=args.iterations,
                      playouts=args.playouts, seed=args.seed, policy=args.policy,
                      play=args.play, per_game=args.per_game, worlds=args.worlds)
        if args.save:
            out = Path(args.save) / f"{game_id}-{players}-seed{args.seed}.json"
            out.write_text(json.dumps(row, indent=1))
        summary = {k: v for k, v in row.items() if k != "judged"}
        rows.append(summary)
        print(json.dumps(summary), flush=True)
    print(f"\n{'game':14} {'p':>2} {'pos':>4} {'same':>5}  {'win share hint-greedy [95% t]':32}"
          f"  {'margin hint-greedy [95% t]':30} {'cpu s':>7}")
    for r in rows:
        win = f"{r['win_difference']:+.3f} [{r['win_interval'][0]:+.3f}, {r['win_interval'][1]:+.3f}]"
        margin = (f"{r['margin_difference']:+.2f} [{r['margin_interval'][0]:+.2f}, "
                  f"{r['margin_interval'][1]:+.2f}]")
        print(f"{r['game']:14} {r['players']:>2} {r['positions']:>4} {r['identical_share']:>5.0%}"
              f"  {win:32}  {margin:30} {r['cpu_seconds']:>7.1f}")
    return rows


if __name__ == "__main__":
    main()
