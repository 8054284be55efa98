"""``palio review RECORD.json``: the strongest bot judges every decision of a finished game.

A Rich progress bar while it thinks, then the decisions that lost the most and a summary per
player, in the words of ``--lang``; ``--json FILE`` (``-``: standard output) writes the whole
review (see :mod:`palio.review` and docs/review.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from palio.cli.common import fail, load_game
from palio.cli.play import LANG_OPTION, seat_names, terminal_language
from palio.core.errors import PalioError
from palio.core.i18n import Translator
from palio.core.record import GameRecord
from palio.core.words import msg
from palio.review import (
    DEFAULT_ITERATIONS,
    ITERATIONS_BY_GAME,
    Budget,
    add_words,
    cores,
    review,
)

console = Console(highlight=False, soft_wrap=True, stderr=False)
errors = Console(stderr=True, highlight=False)


# the default budget and the games that review at another, from palio.review's table
ITERATIONS_HELP = "search iterations per decision (default {}; {})".format(
    DEFAULT_ITERATIONS, ", ".join(f"{n} for {game} with {players} players"
                                  for (game, players), n in sorted(ITERATIONS_BY_GAME.items())))


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)


def review_command(
    path: Path = typer.Argument(..., help="a finished game's record (palio play --record)"),
    seat: list[int] = typer.Option(None, "--seat", help="review only this seat (repeatable)"),
    seconds: float = typer.Option(None, "--seconds", help="thinking time per decision "
                                  "(not repeatable; default: a fixed number of iterations)"),
    iterations: int = typer.Option(None, "--iterations", help=ITERATIONS_HELP),
    seed: int = typer.Option(0, "--seed", "-s", help="the search's seed: a review repeats"),
    workers: int = typer.Option(None, "--workers", "-w", help="processes that search decisions "
                                "(the same review, sooner; default: one per core)"),
    json_out: str = typer.Option(None, "--json", help="write the review as JSON here ('-': "
                                 "standard output)"),
    components_file: Path = typer.Option(
        None, "--components-file", help="the components file the game was played on"),
    lang: str = LANG_OPTION,
) -> None:
    """Review a finished game: each decision's loss in expected win share, the better choice."""
    tr = Translator()
    try:
        tr = Translator(terminal_language(lang))
        record = GameRecord.load(path)
        game = load_game(record.game, components_file)
        if seat and any(not 0 <= s < record.players for s in seat):
            raise PalioError(f"--seat must be 0-{record.players - 1}",
                             words=msg("cli.review.bad_seat", last=record.players - 1))
        # neither given: the review's default for the game and player count (iterations_for)
        budget = (Budget(iterations=iterations, seconds=seconds)
                  if iterations is not None or seconds is not None else None)
        if workers is not None and workers < 1:
            raise PalioError("--workers must be at least 1",
                             words=msg("cli.review.bad_workers"))
        workers = workers or cores()
        quiet = json_out == "-"
        shown = errors if quiet else console
        title = tr(msg("cli.review.progress", game=game.info.name))
        if shown.is_terminal:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=shown, transient=quiet) as bar:
                task = bar.add_task(escape(title), total=len(record.actions))
                result = review(record, game, seats=seat or None, budget=budget, seed=seed,
                                workers=workers,
                                progress=lambda done, total: bar.update(task, completed=done))
        else:  # a log or a pipe: a plain line at each tenth of the decisions
            result = review(record, game, seats=seat or None, budget=budget, seed=seed,
                            workers=workers, progress=TenthLines(shown, tr, game.info.name))
    except (PalioError, OSError) as exc:
        raise fail(exc, tr) from None
    names = seat_names(record.seats, tr) if record.seats else None
    tr = Translator(tr.lang, names)
    add_words(result, record, tr, game)
    if json_out == "-":
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
        return
    show(result, tr)
    if json_out:
        Path(json_out).write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n",
                                  encoding="utf-8")
        console.print(escape(tr(msg("cli.review.saved", path=json_out))))


class TenthLines:
    """Progress for output that is not a terminal: one line each time another tenth of the
    decisions is done (and at the end)."""

    def __init__(self, out: Console, tr: Translator, game: str) -> None:
        self.out, self.tr, self.game, self.shown = out, tr, game, -1

    def __call__(self, done: int, total: int) -> None:
        tenth = 10 * done // max(1, total)
        if tenth > self.shown:
            self.shown = tenth
            self.out.print(escape(self.tr(msg("cli.review.progress_line", game=self.game,
                                              done=done, total=total))))


def share(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def show(result: dict, tr: Translator) -> None:
    engine = result["engine"]
    budget = (msg("cli.review.iterations", n=engine["iterations"]) if engine["iterations"]
              else msg("cli.review.seconds", seconds=f"{engine['seconds']:g}"))
    console.print(escape(tr(msg("cli.review.engine", bot=engine["bot"], budget=budget,
                                seed=result["seed"], players=result["seats"]))))
    marked = [d for d in result["decisions"] if d["class"]]
    if not marked:
        console.print(escape(tr(msg("cli.review.none"))))
    else:
        table = Table(title=escape(tr(msg("cli.review.decisions_title"))))
        for key in ("col_move", "col_player", "col_played", "col_best", "col_loss", "col_class",
                    "col_why"):
            table.add_column(escape(tr(msg(f"cli.review.{key}"))))
        for d in marked:
            played = tr(msg("cli.review.estimate", label=d["played"]["label"],
                            value=share(d["played"]["value"])))
            best = tr(msg("cli.review.estimate", label=d["best"]["label"],
                          value=share(d["best"]["value"])))
            table.add_row(str(d["move"] + 1), escape(tr.player(d["seat"])), escape(played),
                          escape(best), f"{d['loss']:.2f}",
                          escape(tr(msg(f"cli.review.class.{d['class']}"))),
                          escape(" ".join(t for t in (d.get("reason"), d.get("line")) if t)))
        console.print(table)
    summary = Table(title=escape(tr(msg("cli.review.players_title"))),
                    caption=escape(tr(msg("cli.review.accuracy_means"))))
    for key in ("col_player", "col_decisions", "col_average", "col_inaccuracies",
                "col_mistakes", "col_blunders", "col_accuracy"):
        summary.add_column(escape(tr(msg(f"cli.review.{key}"))))
    for p in result["players"]:
        accuracy = "–" if p["accuracy"] is None else f"{p['accuracy']:.0f}"
        summary.add_row(escape(tr.player(p["seat"])), str(p["decisions"]), f"{p['average_loss']:.3f}", str(p["inaccuracies"]),
                        str(p["mistakes"]), str(p["blunders"]), accuracy)
    console.print(summary)
