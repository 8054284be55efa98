"""``palio simulate`` and ``palio arena``: many bot games in parallel, summaries and ratings.

Per-game results go out as JSON lines, one per finished game, flushed as it finishes, so an
interrupted run keeps every game it finished. Ctrl-C stops the run (exit code 130) after
printing the figures of the finished games; a second Ctrl-C stops at once.
"""

from __future__ import annotations

import contextlib
import csv
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from palio import sim
from palio.cli.common import fail, parse_options, split_names
from palio.core.errors import PalioError
from palio.sim.jobs import GameJob

console = Console(highlight=False, soft_wrap=True)
errors = Console(stderr=True, highlight=False)
INTERRUPTED = 130  # the shell's code for a run ended by SIGINT

BOTS_HELP = ("bot specs, comma separated (random, greedy, mcts, levels; options after ':', "
             "several joined by ';', e.g. mcts:iterations=100;c=1)")
# "\\[" keeps rich markup in the help from reading [ray] as a style tag
BACKEND_HELP = "process (local worker processes) or ray (needs pip install 'palio\\[ray]')"


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
    app.command("arena")(arena_command)


def simulate_command(
    game: str = typer.Argument(..., help="game id, e.g. san-gimignano"),
    players: int = typer.Option(None, "--players", "-p", help="players (default: the fewest)"),
    games: int = typer.Option(100, "--games", "-n", help="how many games"),
    bot_names: str = typer.Option("random", "--bots", help=BOTS_HELP + "; the last fills the "
                                  "remaining seats"),
    seed: int = typer.Option(0, "--seed", "-s", help="run seed; game i's seed derives from it"),
    workers: int = typer.Option(1, "--workers", "-w", help="parallel worker processes"),
    out: Path = typer.Option(None, "--out", help="write one JSON line per finished game here ('-': stdout)"),
    option: list[str] = typer.Option(None, "--option", "-o", help="game option, e.g. nobles"),
    records: bool = typer.Option(False, "--records", help="include each game's record"),
    rotate: bool = typer.Option(True, "--rotate/--no-rotate",
                                help="rotate seats so each bot sits in each seat equally often"),
    backend: str = typer.Option("process", "--backend", help=BACKEND_HELP),
    address: str = typer.Option(None, "--address", help="Ray cluster address (else a local one)"),
) -> None:
    """Play many bot games in parallel; print win rates (95% Wilson), scores and ranks."""
    try:
        specs = split_names(bot_names)
        jobs = sim.plan_simulation(game, players, games, specs, seed, parse_options(option),
                                   rotate, records)
        _check_run(workers, backend, address)
    except PalioError as exc:
        raise fail(exc) from None
    finished, interrupted, seconds = _run(jobs, workers, backend, address, out)
    _print_summary(_report(out), sim.summarize(finished, order=specs), seconds, workers, backend)
    _end(finished, jobs, interrupted)


def arena_command(
    game: str = typer.Argument(..., help="game id, e.g. san-gimignano"),
    bot_names: str = typer.Option(..., "--bots", help=BOTS_HELP + "; at least two, each once"),
    games: int = typer.Option(10, "--games", "-n",
                              help="games per seat arrangement of each group of bots"),
    players: int = typer.Option(None, "--players", "-p", help="players (default: the fewest)"),
    seed: int = typer.Option(0, "--seed", "-s", help="run seed (deals and bootstrap)"),
    workers: int = typer.Option(1, "--workers", "-w", help="parallel worker processes"),
    seating: str = typer.Option(
        None, "--seating",
        help="permutations (every seat order) or rotations (cyclic shifts only); default: "
             "permutations up to 3 players, rotations from 4"),
    bootstrap: int = typer.Option(200, "--bootstrap", help="bootstrap resamples for intervals"),
    csv_path: Path = typer.Option(None, "--csv", help="write the ratings table as CSV"),
    json_path: Path = typer.Option(None, "--json", help="write the ratings and settings as JSON"),
    out: Path = typer.Option(None, "--out", help="write one JSON line per finished game here ('-': stdout)"),
    option: list[str] = typer.Option(None, "--option", "-o", help="game option, e.g. nobles"),
    backend: str = typer.Option("process", "--backend", help=BACKEND_HELP),
    address: str = typer.Option(None, "--address", help="Ray cluster address (else a local one)"),
    ratings_path: Path = typer.Option(
        None, "--ratings",
        help="also rate the bots with openskill on the server's rating scale and add this "
             "game's levels to this JSON file (e.g. src/palio/server/bot_ratings.json)"),
) -> None:
    """Round robin over seat arrangements; Bradley-Terry ratings with bootstrap intervals.

    2 players: every pair of bots in both seat orders. More: every group of that many distinct
    bots (with repetition when there are fewer bots than seats) in every seating. All seatings
    of a group play the same deals. Pairwise results come from each game's final ranking (ties
    as halves); ratings are Bradley-Terry strengths fit by the MM algorithm, on an Elo scale
    (400 points = 10:1 odds, mean 0), with 95% intervals from a bootstrap over games.
    """
    try:
        specs = split_names(bot_names)
        jobs = sim.plan_arena(game, specs, games, players, seed, parse_options(option), seating)
        _check_run(workers, backend, address)
        if bootstrap < 0:
            raise PalioError("--bootstrap must be 0 or more")
        for path in (csv_path, json_path, ratings_path):
            _check_writable(path)
    except PalioError as exc:
        raise fail(exc) from None
    finished, interrupted, seconds = _run(jobs, workers, backend, address, out)
    table = sim.standings(finished, specs, seed, bootstrap)
    _print_standings(_report(out), table, finished, jobs, seconds)
    settings = {"game": jobs[0].game, "players": jobs[0].players, "seed": seed,
                "games_per_seating": games, "seating": seating or sim.plan.default_seating(
                    jobs[0].players), "games": len(finished), "planned": len(jobs),
                "bootstrap": bootstrap, "interrupted": interrupted}
    _write_tables(table, settings, csv_path, json_path)
    if ratings_path is not None:
        command = ["palio", "arena", game, "--bots", bot_names, "--games", str(games),
                   "--seed", str(seed), *(["--players", str(players)] if players else []),
                   *(["--seating", seating] if seating else []),
                   *[part for o in option or [] for part in ("--option", o)],
                   "--ratings", str(ratings_path)]
        _write_ratings(ratings_path, settings, finished, seconds, command)
    _end(finished, jobs, interrupted)


# -- running ---------------------------------------------------------------------------------

def _check_run(workers: int, backend: str, address: str | None) -> None:
    sim.plan.check_count("--workers", workers, 1)
    sim.check_backend(backend, address)


def _run(jobs: list[GameJob], workers: int, backend: str, address: str | None,
         out: Path | None) -> tuple[list[dict[str, Any]], bool, float]:
    """Play the jobs with a progress bar; write each result as a JSON line as it comes."""
    stop = threading.Event()
    finished: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        output = _open_output(out)
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror or exc}") from None
    with output as lines, _stop_on_sigint(stop), _progress(len(jobs)) as advance:
        try:
            for result in sim.backends.run_jobs(jobs, workers, backend, address, stop):
                # one write per line: an interrupted run never leaves half a line
                lines.write(json.dumps(result) + "\n")
                lines.flush()
                finished.append(result)
                advance()
        except PalioError as exc:
            raise fail(exc) from None
    return finished, stop.is_set(), time.perf_counter() - started


def _check_writable(path: Path | None) -> None:
    """Refuse a table path that could not be written, before hours of games are played."""
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise PalioError(f"cannot write {path}: no such writable file location")


def _open_output(out: Path | None) -> contextlib.AbstractContextManager[Any]:
    """The JSON lines' destination as a context manager (a file is closed, stdout is not)."""
    if out is None:
        return contextlib.nullcontext(_Discard())
    if str(out) == "-":
        return contextlib.nullcontext(sys.stdout)
    return out.open("w", encoding="utf-8")


class _Discard:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass


@contextlib.contextmanager
def _stop_on_sigint(stop: threading.Event) -> Iterator[None]:
    """The first SIGINT sets ``stop``; a second one interrupts at once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handle(signum: int, frame: Any) -> None:
        stop.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    previous = signal.signal(signal.SIGINT, handle)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _progress(total: int) -> Iterator[Any]:
    """A progress bar on stderr (stdout stays clean for tables and lines)."""
    bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=errors, transient=True)
    task = bar.add_task("games", total=total)
    with bar:
        yield lambda: bar.advance(task)


def _end(finished: list[dict[str, Any]], jobs: Sequence[GameJob], interrupted: bool) -> None:
    if interrupted:
        errors.print(f"Interrupted: {len(finished)} of {len(jobs)} games finished and kept.")
        raise typer.Exit(INTERRUPTED)


# -- printing --------------------------------------------------------------------------------

def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1%}"


def _report(out: Path | None) -> Console:
    """Where tables go: stdout, unless the JSON lines go there."""
    return errors if str(out) == "-" else console


def _print_summary(console: Console, summary: sim.Summary, seconds: float, workers: int, backend: str) -> None:
    table = Table(title="Simulation summary (a tie for first counts as a share of a win)")
    for name in ("bot", "seats", "win rate", "95% interval", "mean score", "mean rank"):
        table.add_column(name, justify="left" if name == "bot" else "right", overflow="fold")
    for row in summary.bots:
        low, high = row.interval
        table.add_row(escape(row.bot), str(row.games), _percent(row.win_rate),
                      f"{_percent(low)}-{_percent(high)}", f"{row.mean_score:.2f}",
                      f"{row.mean_rank:.2f}")
    console.print(table)
    console.print(f"{summary.games} games, mean length {summary.mean_decisions:.1f} decisions; "
                  f"{seconds:.1f} s with {workers} worker(s) ({backend})")


def _rating(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+.0f}"


def _print_standings(console: Console, table: list[sim.Standing], finished: list[dict[str, Any]],
                     jobs: Sequence[GameJob], seconds: float) -> None:
    out = Table(title="Arena: Bradley-Terry ratings (Elo scale, mean 0; 95% bootstrap interval)")
    for name in ("bot", "rating", "95% interval", "games", "win rate", "mean score"):
        out.add_column(name, justify="left" if name == "bot" else "right", overflow="fold")
    for line in table:
        rating, record = line.rating, line.record
        out.add_row(escape(rating.bot), _rating(rating.rating),
                    f"{_rating(rating.low)} to {_rating(rating.high)}", str(record.games),
                    _percent(record.win_rate), f"{record.mean_score:.2f}")
    console.print(out)
    mean = sum(r["decisions"] for r in finished) / len(finished) if finished else 0.0
    console.print(f"{len(finished)} of {len(jobs)} games, mean length {mean:.1f} decisions; "
                  f"{seconds:.1f} s")


def _write_tables(table: list[sim.Standing], settings: dict[str, Any], csv_path: Path | None,
                  json_path: Path | None) -> None:
    rows = [line.as_dict() for line in table]
    try:
        if csv_path is not None:
            with csv_path.open("w", encoding="utf-8", newline="") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
        if json_path is not None:
            data = {**settings, "method": "bradley-terry (MM), bootstrap over games",
                    "bots": [_json_safe(row) for row in rows]}
            json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write the tables: {exc.strerror or exc}") from None


def _write_ratings(path: Path, settings: dict[str, Any], finished: list[dict[str, Any]],
                   seconds: float, command: list[str]) -> None:
    """The bots' openskill ratings on the server's scale (palio.server.ratings.ratings), with how
    they were measured."""
    import shlex

    from palio.server.ratings import ratings

    levels = ratings.rate_results(finished)
    about = {"command": shlex.join(command), "seconds": round(seconds, 1),
             **{k: settings[k] for k in ("players", "seed", "games_per_seating", "seating",
                                         "games", "planned", "interrupted")}}
    try:
        ratings.write_bot_ratings(path, settings["game"], levels, about)
    except OSError as exc:
        raise fail(f"cannot write {path}: {exc.strerror or exc}") from None
    for bot, entry in levels.items():
        console.print(f"{escape(bot)}: rating {entry['rating']} (mu {entry['mu']:.2f}, "
                      f"sigma {entry['sigma']:.2f}, {entry['games']} games)")


def _json_safe(row: dict[str, Any]) -> dict[str, Any]:
    """NaN (no interval without games) as null, since JSON has no NaN."""
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in row.items()}
