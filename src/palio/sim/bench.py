"""Speed measurements over the engine contract, for any registered game (``palio bench``).

For one game and player count: random playouts from set-up (decisions/s and games/s), the
mean cost of ``state.copy()`` on mid-game positions, and the ``mcts`` bot's iterations/s on a
few mid-game positions; where a trained model ships for the game and player count, the
``learned`` bot's iterations/s and the network's cost per position beside them. The playouts also report the share of a core they got (the machine may
be shared) and their rate per CPU-second. As a yardstick, OpenSpiel's random playouts of its own pure-Python
tic-tac-toe, when ``open_spiel`` is installed. Each measurement runs for about ``seconds`` of
wall-clock time on one core; nothing here depends on which game is measured.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from palio import bots
from palio.bots.network import Model, shipped_model
from palio.core.game import Game, State

MCTS_ITERATIONS = 200  # per decision; small enough that a short run still times several
MID_GAME_POSITIONS = 6
OPENSPIEL_YARDSTICK = "python_tic_tac_toe"


@dataclass(frozen=True)
class Aim:
    """The speed an issue asks of a game, for one player count."""

    players: int
    decisions_per_s: float
    games_per_s: float


# the aims stated in the issue; a game without an entry is measured all the same
AIMS: dict[str, Aim] = {
    "san-gimignano": Aim(players=2, decisions_per_s=20_000, games_per_s=200),
    "tiletum": Aim(players=4, decisions_per_s=5_000, games_per_s=10),
    # issue 13: half of OpenSpiel's pure-Python tic-tac-toe (about 27,000/s on a quiet core);
    # a five-player game is about 260 decisions
    "aquileia": Aim(players=5, decisions_per_s=14_000, games_per_s=50),
    # half of OpenSpiel's pure-Python tic-tac-toe (about 27,000/s on a quiet core); a random
    # four-player game is about 260 decisions
    "signorie": Aim(players=4, decisions_per_s=14_000, games_per_s=40),
    # issue 12: half of OpenSpiel's pure-Python tic-tac-toe (about 27,000/s on a quiet core)
    "troyes": Aim(players=4, decisions_per_s=14_000, games_per_s=50),
}


@dataclass
class GameFigures:
    """What ``measure_game`` found for one game and player count."""

    game: str
    players: int
    seconds: float
    games: int = 0
    decisions: int = 0
    decisions_per_s: float = 0.0
    games_per_s: float = 0.0
    cpu_share: float = 0.0
    decisions_per_cpu_s: float = 0.0
    copy_us: float = 0.0
    copies: int = 0
    mcts_iterations: int = 0
    mcts_iterations_per_s: float = 0.0
    mcts_iterations_per_cpu_s: float = 0.0
    mcts_decisions: int = 0
    # the learned bot, where a model ships for this game and player count (else None)
    learned_iterations_per_s: float | None = None
    network_us: float | None = None  # one forward pass of the network
    features_us: float | None = None  # the observation tensor, scaled for the network
    aim: dict[str, Any] | None = None
    aims_met: dict[str, bool] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def default_players(game: Game) -> int:
    """The player count an aim names, else the largest (the slowest game to play)."""
    aim = AIMS.get(game.info.id)
    return aim.players if aim is not None else game.info.max_players


def random_playouts(game: Game, players: int, seconds: float,
                    seed: int) -> tuple[int, int, float, float]:
    """Whole random games from set-up until ``seconds`` pass:
    (games, decisions, wall-clock seconds, CPU seconds of this process)."""
    rng = random.Random(seed)
    games = decisions = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    while True:
        state = game.setup(players, seed + games)
        while not state.is_over:
            state.apply_unchecked(rng.choice(state.legal_actions()))
            decisions += 1
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return games, decisions, elapsed, time.process_time() - cpu_started


def mid_game_positions(game: Game, players: int, seed: int, count: int) -> list[State]:
    """``count`` positions from random games, each taken between a quarter and three quarters
    of the way through, where the mover has more than one choice."""
    rng = random.Random(seed)
    positions: list[State] = []
    attempt = 0
    while len(positions) < count and attempt < 20 * count:
        finished = game.setup(players, seed + attempt)
        while not finished.is_over:
            finished.apply_unchecked(rng.choice(finished.legal_actions()))
        played = finished.history.to_list()
        stop = rng.randint(len(played) // 4, 3 * len(played) // 4)
        state = game.setup(players, seed + attempt)
        for action in played[:stop]:
            state.apply_unchecked(action)
        attempt += 1
        if not state.is_over and len(state.legal_actions()) > 1:
            positions.append(state)
    if not positions:
        raise RuntimeError(f"no mid-game position with a choice found in {game.info.id}")
    return positions


def copy_cost(positions: list[State], seconds: float) -> tuple[float, int]:
    """Mean microseconds of one ``copy()`` over the positions, and how many were made."""
    copies = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for state in positions:
            for _ in range(100):
                state.copy()
        copies += 100 * len(positions)
        elapsed = time.perf_counter() - started
    return elapsed / copies * 1e6, copies


def mcts_speed(positions: list[State], seconds: float, seed: int,
               iterations: int = MCTS_ITERATIONS, bot_name: str = "mcts",
               ) -> tuple[int, float, int, float]:
    """The ``mcts`` (or ``bot_name``) bot's decisions on the positions in turn, until
    ``seconds`` of search: (iterations, search seconds, decisions, CPU seconds), the first
    two as its ``last_stats`` report them, the CPU time of this process around its searches."""
    bot = bots.get(bot_name, iterations=iterations, seed=seed)
    done = searched = cpu = 0.0
    decisions = 0
    while searched < seconds or decisions == 0:
        state = positions[decisions % len(positions)].copy()
        started = time.process_time()
        bot.choose(state, state.to_move)
        cpu += time.process_time() - started
        done += bot.last_stats["iterations"]
        searched += bot.last_stats["seconds"]
        decisions += 1
    return int(done), searched, decisions, cpu


def inference_cost(model: Model, positions: list[State], seconds: float) -> tuple[float, float]:
    """Mean microseconds per position of the network's input (the observation's nonzero
    entries, scaled) and of one forward pass on them, each seat to move viewing its own
    position: what the search pays at a leaf."""
    inputs = [model.entries(state, state.to_move) for state in positions]
    timings = []
    for work in (lambda i: model.entries(positions[i], positions[i].to_move),
                 lambda i: model.predict_entries(*inputs[i])):
        done = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds / 2 or done == 0:
            for i in range(len(positions)):
                work(i)
            done += len(positions)
        timings.append((time.perf_counter() - started) / done * 1e6)
    return timings[0], timings[1]


def judge(figures: GameFigures) -> None:
    """Fill in the aim for this game and player count, and whether each figure meets it."""
    aim = AIMS.get(figures.game)
    if aim is None or aim.players != figures.players:
        return
    figures.aim = asdict(aim)
    figures.aims_met = {
        "decisions_per_s": figures.decisions_per_s >= aim.decisions_per_s,
        "games_per_s": figures.games_per_s >= aim.games_per_s,
    }


def measure_game(game: Game, players: int, seconds: float = 2.5, seed: int = 1) -> GameFigures:
    """Every figure of one game; each measurement takes about ``seconds``."""
    game.validate_options(players, None)  # a clear error before any work
    figures = GameFigures(game=game.info.id, players=players, seconds=seconds)
    games, decisions, elapsed, cpu = random_playouts(game, players, seconds, seed)
    figures.games, figures.decisions = games, decisions
    figures.decisions_per_s = decisions / elapsed
    figures.games_per_s = games / elapsed
    # on a shared machine the wall-clock rate depends on the load; the CPU share says how much
    # of one core the playouts got, and the per-CPU-second rate what they would do with all of it
    figures.cpu_share = cpu / elapsed
    figures.decisions_per_cpu_s = decisions / cpu if cpu > 0 else 0.0
    positions = mid_game_positions(game, players, seed, MID_GAME_POSITIONS)
    figures.copy_us, figures.copies = copy_cost(positions, seconds)
    iterations, searched, chosen, cpu = mcts_speed(positions, seconds, seed)
    figures.mcts_iterations, figures.mcts_decisions = iterations, chosen
    figures.mcts_iterations_per_s = iterations / searched if searched > 0 else 0.0
    figures.mcts_iterations_per_cpu_s = iterations / cpu if cpu > 0 else 0.0
    model = shipped_model(game.info.id, players)
    if model is not None:
        iterations, searched, _, _ = mcts_speed(positions, seconds, seed, bot_name="learned")
        figures.learned_iterations_per_s = iterations / searched if searched > 0 else 0.0
        figures.features_us, figures.network_us = inference_cost(model, positions, seconds)
    judge(figures)
    return figures


@dataclass
class Yardstick:
    """OpenSpiel's random playouts of one of its own pure-Python games."""

    game: str
    available: bool
    games: int = 0
    decisions: int = 0
    decisions_per_s: float = 0.0
    cpu_share: float = 0.0
    decisions_per_cpu_s: float = 0.0
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def openspiel_yardstick(seconds: float = 2.5, seed: int = 1) -> Yardstick:
    """Random playouts of OpenSpiel's pure-Python tic-tac-toe, through its own API."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
        import pyspiel
    except ImportError:
        return Yardstick(OPENSPIEL_YARDSTICK, False,
                         note="open_spiel is not installed (pip install 'palio[openspiel]')")
    game = pyspiel.load_game(OPENSPIEL_YARDSTICK)
    rng = random.Random(seed)
    games = decisions = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    cpu = time.process_time() - cpu_started
    cpu_share = cpu / elapsed
    return Yardstick(OPENSPIEL_YARDSTICK, True, games, decisions, decisions / elapsed, cpu_share,
                     decisions / cpu if cpu > 0 else 0.0, note=f"OpenSpiel {getattr(pyspiel, '__version__', '')}".strip())
