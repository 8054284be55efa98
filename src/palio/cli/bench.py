"""``palio bench``: how fast the engines play, copy and search per CPU-second, next to the
issues' aims (judged per CPU-second, so the verdicts hold on a shared machine)."""

from __future__ import annotations

import json
import math
import os
import platform
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import palio.games as registry
from palio.cli.common import fail
from palio.core.errors import PalioError
from palio.core.game import Game
from palio.sim import bench

# wide enough for the table when printed to a pipe or a file (rich assumes 80 columns there)
console = Console(highlight=False, width=max(230, Console().width))


def register(app: typer.Typer) -> None:
    app.command("bench")(bench_command)


def bench_command(
    games: list[str] = typer.Argument(None, help="game ids (default: every registered game)"),
    players: int = typer.Option(
        None, "--players", "-p", help="one player count (default: every count of each game)"
    ),
    seconds: float = typer.Option(2.5, "--seconds", help="CPU seconds per measurement"),
    seed: int = typer.Option(1, "--seed", "-s", help="seed of the games played"),
    json_path: Path = typer.Option(None, "--json", help="also write the figures here (JSON)"),
) -> None:
    """Random playouts, copy cost and MCTS iterations per CPU-second of each game (and the
    learned bot's, with the network's cost per position, where a model ships), each figure
    measured for --seconds of CPU time so that the verdicts hold on a shared machine."""
    try:
        chosen = _chosen_games(games)
        if not seconds > 0:
            raise PalioError(f"--seconds must be more than 0, not {seconds}")
        runs = [(g, n) for g in chosen
                for n in ([players] if players else range(g.info.min_players,
                                                          g.info.max_players + 1))]
        for g, n in runs:
            g.validate_options(n, None)
    except PalioError as exc:
        raise fail(exc) from None
    console.print(f"Measuring {len(runs)} game(s) and player count(s), about {seconds:g} CPU-s "
                  f"per figure, on {os.cpu_count()} CPU(s), Python {platform.python_version()}...")
    yardstick = bench.openspiel_yardstick(seconds, seed)
    # tic-tac-toe again beside each game's playouts, for the ratio (same minutes, same load)
    beside = bench.openspiel_yardstick if yardstick.available else None
    figures = [bench.measure_game(g, n, seconds, seed, beside) for g, n in runs]
    console.print(_table(figures, yardstick))
    console.print(_yardstick_line(yardstick))
    if json_path:
        document = {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "clock": "CPU time of this process (time.process_time)",
            "seconds": seconds,
            "seed": seed,
            "games": [f.as_dict() for f in figures],
            "openspiel_yardstick": yardstick.as_dict(),
        }
        json_path.write_text(json.dumps(document, indent=2) + "\n")
        console.print(f"Figures written to {json_path}")


def _chosen_games(ids: list[str] | None) -> list[Game]:
    return [registry.get(game_id) for game_id in (ids or registry.available())]


def _table(figures: list[bench.GameFigures], yardstick: bench.Yardstick) -> Table:
    table = Table(title="Palio engine speed per CPU-second (one core)")
    table.add_column("game")
    for column in ("players", "decisions/CPU-s", "aim", "games/CPU-s", "aim", "ttt/CPU-s",
                   "x ttt", "aim", "CPU share", "copy µs", "mcts it/CPU-s", "learned it/CPU-s", "net input µs",
                   "net µs"):
        table.add_column(column, justify="right")
    for f in figures:
        aim = f.aim or {}
        table.add_row(
            f.game,
            str(f.players),
            f"{f.decisions_per_cpu_s:,.0f}",
            _aim(aim.get("decisions_per_cpu_s"), f.aims_met.get("decisions_per_cpu_s")),
            f"{f.games_per_cpu_s:,.1f}",
            _aim(aim.get("games_per_cpu_s"), f.aims_met.get("games_per_cpu_s")),
            _optional(f.yardstick_decisions_per_cpu_s, "{:,.0f}"),
            # per CPU-second against OpenSpiel's pure-Python tic-tac-toe, measured in slices
            # between the game's; rounded down, so that a ratio just short of its aim never
            # shows as reaching it
            _optional(None if f.x_yardstick is None else math.floor(f.x_yardstick * 100) / 100,
                      "{:.2f}"),
            _aim(f.yardstick_aim if f.x_yardstick is not None else None,
                 f.aims_met.get("x_yardstick"), "{:.2f}"),
            f"{f.cpu_share:.0%}",
            f"{f.copy_us:.1f}",
            f"{f.mcts_iterations_per_cpu_s:,.0f}",
            _optional(f.learned_iterations_per_cpu_s, "{:,.0f}"),
            _optional(f.features_us, "{:.0f}"),
            _optional(f.network_us, "{:.0f}"),
        )
    return table


def _optional(value: float | None, form: str) -> str:
    """A figure, or '-' where it was not measured (no model ships for that game)."""
    return "-" if value is None else form.format(value)


def _aim(aim: float | None, met: bool | None, form: str = "{:,.0f}") -> str:
    if aim is None:
        return "-"
    verdict = "[green]met[/green]" if met else "[red]NOT met[/red]"
    return f">= {form.format(aim)} {verdict}"


def _yardstick_line(y: bench.Yardstick) -> str:
    if not y.available:
        return f"OpenSpiel yardstick: {escape(y.note)}"  # the note holds [openspiel]
    return (f"OpenSpiel yardstick ({escape(y.note)}): random playouts of {y.game}, "
            f"{y.decisions_per_cpu_s:,.0f} decisions per CPU-s "
            f"({y.games} games, CPU share {y.cpu_share:.0%}) before the games; 'x ttt' divides "
            f"by its rate in slices alternating with each game's playouts")
