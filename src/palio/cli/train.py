"""``palio train``: self-play training of a network for the ``learned`` bot, any encoded game.

Progress shows as a bar per generation and one line per finished generation; where the output
is not a terminal (a log file, a batch job) a plain line replaces the bar at most every
``PLAIN_EVERY`` seconds. The run folder
keeps a checkpoint after every generation; the same command resumes an interrupted run, and a
larger ``--generations`` extends a finished one. Ctrl-C stops at once (exit 130); the games of
an unfinished generation are played again on resuming, with the same seeds.
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import palio.games as registry
from palio.bots.network import Model, shipped, shipped_model, spec_mix
from palio.cli.common import fail, parse_options
from palio.cli.sim import BACKEND_HELP, INTERRUPTED, _check_run, _stop_on_sigint
from palio.core.errors import OptionError, PalioError
from palio.learn import import_trainer

PLAIN_EVERY = 30.0  # seconds between plain progress lines outside a terminal
METHODS = ("dmc", "search")

console = Console(highlight=False, soft_wrap=True)
errors = Console(stderr=True, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("train")(train_command)
    app.command("models")(models_command)


def models_command(
    files: list[Path] = typer.Argument(None, help="model files (default: the shipped ones)"),
    mix: float = typer.Option(
        None, "--mix",
        help="with one model file: the weight (0 to 1) of the game's own evaluation in the "
             "learned bot's leaf values, written into the card (the file is rewritten; "
             "measurements made at another weight are marked superseded)"),
    prior_visits: int = typer.Option(
        None, "--prior-visits",
        help="with one model file: the visits a search node needs before the learned bot asks "
             "the network for its priors, at mix 1 (0: at once), written into the card "
             "(measurements made with another value are kept and no longer counted)"),
    note: str = typer.Option(
        None, "--note",
        help="with one model file: a sentence written into the card as its note (what a "
             "reader of the card must know, e.g. a control that did as well); '' removes it"),
) -> None:
    """The model cards of the shipped models (or of the given files): what each one saw."""
    if mix is not None:
        set_mix(files or [], mix)
    if prior_visits is not None:
        set_prior_visits(files or [], prior_visits)
    if note is not None:
        set_note(files or [], note)
    try:
        models = ([(str(f), Model.load(f)) for f in files] if files else
                  [(f"{g} ({p} players, shipped)", shipped_model(g, p)) for g, p in shipped()])
    except PalioError as exc:
        raise fail(exc) from None
    if not models:
        console.print("No model ships with this installation; palio train makes one.")
    for title, model in models:
        console.print(f"[bold]{title}[/bold]: {model.game_id}, {model.players} players, "
                      f"hidden layers {model.meta['hidden']}")
        for key, value in sorted(model.card.items()):
            console.print(f"  {key}: {value}")


def one_model(files: list[Path], option: str):
    """The one model file an editing option (``--mix``, ``--prior-visits``, ``--note``)
    rewrites, loaded."""
    if len(files) != 1:
        raise fail(OptionError(f"{option} changes one model file: name exactly one"))
    try:
        return Model.load(files[0])
    except PalioError as exc:
        raise fail(exc) from None


def set_note(files: list[Path], note: str) -> None:
    """Write ``note`` into the card of the one model file in ``files`` (empty: remove it)."""
    model = one_model(files, "--note")
    card = model.meta.setdefault("card", {})
    text = note.strip()
    if text:
        card["note"] = text
    else:
        card.pop("note", None)
    model.save(files[0])
    console.print(f"{files[0]}: note {'written' if text else 'removed'}")


def set_mix(files: list[Path], mix: float) -> None:
    """Write ``mix`` into the card of the one model file in ``files``: the learned bot's
    default weight of the game's evaluation in its leaf values. A measurement in the card made
    at the card's weight before (its bot spec naming none) no longer describes the bot: it is
    kept, marked superseded, and the lobby's levels stop counting it. One whose spec names a
    weight counts exactly while the card's is that one (``Model.measured_against``)."""
    if not 0.0 <= mix <= 1.0:
        raise fail(OptionError(f"--mix must lie between 0 and 1, not {mix}"))
    model = one_model(files, "--mix")
    card = model.meta.setdefault("card", {})
    before = model.mix
    for entry in card.get("measured", []):
        named = spec_mix(str(entry.get("a", "learned")))
        if named is None and before != mix and not entry.get("superseded"):
            entry["superseded"] = f"measured with mix {before:g}; the card's mix is now {mix:g}"
    card["mix"] = mix
    card.setdefault("mix_changes", []).append(
        {"from": before, "to": mix, "command": f"palio models {files[0].name} --mix {mix:g}"})
    model.save(files[0])
    console.print(f"{files[0]}: mix {before:g} -> {mix:g}")


def set_prior_visits(files: list[Path], prior_visits: int) -> None:
    """Write ``prior_visits`` into the card of the one model file in ``files``: how many
    visits a search node needs before the learned bot asks the network for its priors (at
    ``mix`` 1). Entries measured with another value stay in the card and stop counting
    (``Model.measured_against`` compares the value each entry's bot spec names, 0 where it
    names none)."""
    if prior_visits < 0:
        raise fail(OptionError(f"--prior-visits must be 0 or more, not {prior_visits}"))
    model = one_model(files, "--prior-visits")
    card = model.meta.setdefault("card", {})
    before = model.prior_visits
    card["prior_visits"] = prior_visits
    card.setdefault("prior_visits_changes", []).append(
        {"from": before, "to": prior_visits,
         "command": f"palio models {files[0].name} --prior-visits {prior_visits}"})
    model.save(files[0])
    console.print(f"{files[0]}: prior_visits {before} -> {prior_visits}")


def train_command(
    game: str = typer.Argument(..., help="game id, e.g. san-gimignano (it needs an encode.py)"),
    players: int = typer.Option(None, "--players", "-p", help="players (default: the fewest)"),
    method: str = typer.Option(
        "dmc", "--method",
        help="dmc: search-free self-play learning action values (Deep Monte-Carlo); "
             "search: a network-guided search at every self-play decision"),
    epsilon: float = typer.Option(0.05, "--epsilon",
                                  help="dmc: share of self-play decisions played at random"),
    generations: int = typer.Option(10, "--generations", "-g",
                                    help="total generations (self-play, then training)"),
    games: int = typer.Option(16, "--games", "-n", help="self-play games per generation"),
    iterations: int = typer.Option(64, "--iterations",
                                   help="search: iterations per self-play decision"),
    steps: int = typer.Option(200, "--steps", help="gradient steps per generation"),
    batch: int = typer.Option(256, "--batch", help="positions per gradient step"),
    lr: float = typer.Option(1e-3, "--lr", help="learning rate (AdamW)"),
    weight_decay: float = typer.Option(1e-4, "--weight-decay", help="AdamW weight decay"),
    hidden: str = typer.Option("128,128", "--hidden", help="hidden layer widths, comma separated"),
    buffer: int = typer.Option(50_000, "--buffer", help="positions kept for training"),
    mix_generations: int = typer.Option(
        4, "--mix-generations",
        help="generations over which the evaluate heuristic's weight in leaf values falls from 1 to 0"),
    explore_moves: int = typer.Option(30, "--explore-moves",
                                      help="opening decisions chosen in proportion to visits"),
    seed: int = typer.Option(0, "--seed", "-s", help="run seed; every other seed derives from it"),
    init: Path = typer.Option(
        None, "--init",
        help="a model file to start the network from (e.g. a dmc run's, for a search run); "
             "read by a new run only"),
    run: Path = typer.Option(None, "--run", help="run folder (default runs/<game>-<players>p)"),
    export: Path = typer.Option(None, "--export", help="also copy the final model file here"),
    keep_every: int = typer.Option(
        10, "--keep-every",
        help="keep a copy of the model every N generations in RUN/models (0: none)"),
    option: list[str] = typer.Option(None, "--option", "-o", help="game option, e.g. nobles"),
    workers: int = typer.Option(1, "--workers", "-w", help="parallel self-play worker processes"),
    backend: str = typer.Option("process", "--backend", help=BACKEND_HELP),
    address: str = typer.Option(None, "--address", help="Ray cluster address (else a local one)"),
    device: str = typer.Option("auto", "--device", help="auto (the GPU if any), cpu or cuda"),
    time_limit: float = typer.Option(None, "--time-limit",
                                     help="minutes; no new generation starts after that"),
) -> None:
    """Train a policy-value network by self-play; its model file plays as bot 'learned'."""
    try:
        trainer_module = import_trainer()
        found = registry.get(game)
        players = found.info.min_players if players is None else players
        found.validate_options(players, parse_options(option))
        if found.observation_layout(players) is None:
            raise OptionError(f"{found.info.name} has no observation tensor encoding (encode.py)")
        _check_run(workers, backend, address)
        for name, value in (("--generations", generations), ("--games", games),
                            ("--iterations", iterations), ("--batch", batch),
                            ("--buffer", buffer)):
            if value < 1:
                raise OptionError(f"{name} must be at least 1, not {value}")
        if method not in METHODS:
            raise OptionError(f"unknown --method {method!r}; choose {' or '.join(METHODS)}")
        if not 0 <= epsilon <= 1:
            raise OptionError(f"--epsilon must be from 0 to 1, not {epsilon}")
        if time_limit is not None and not time_limit > 0:
            raise OptionError("--time-limit must be above 0 minutes")
        if min(steps, mix_generations, explore_moves, keep_every, weight_decay) < 0 or not lr > 0:
            raise OptionError("--steps, --mix-generations, --explore-moves, --keep-every and "
                              "--weight-decay must be 0 or more, --lr above 0")
        widths = [int(w) for w in hidden.split(",") if w.strip()]
        if not widths or min(widths) < 1:
            raise OptionError(f"--hidden takes positive widths like 128,128, not {hidden!r}")
        settings = trainer_module.TrainSettings(
            game=game, players=players, options=parse_options(option), seed=seed,
            generations=generations, games=games, iterations=iterations, hidden=widths,
            steps=steps, batch=batch, lr=lr, weight_decay=weight_decay, buffer=buffer, mix_generations=mix_generations,
            explore_moves=explore_moves, method=method, epsilon=epsilon,
            init="" if init is None else str(init))
        folder = run or Path("runs") / f"{game}-{players}p"
        trainer = trainer_module.Trainer(settings, folder, workers, backend, address, device,
                                         keep_every)
    except (PalioError, ValueError) as exc:
        raise fail(str(exc)) from None
    if trainer.generation:
        errors.print(f"Resuming {folder} after generation {trainer.generation}.")
    stop = threading.Event()
    with _stop_on_sigint(stop), _bar() as bar:
        trainer.run(_progress(trainer_module, bar), stop,
                    None if time_limit is None else time_limit * 60)
    if trainer.generation and export is not None:
        try:
            shutil.copyfile(folder / trainer_module.MODEL_FILE, export)
        except OSError as exc:
            raise fail(f"cannot write {export}: {exc.strerror or exc}") from None
    console.print(f"{trainer.generation} generations, {trainer.games_played} games, "
                  f"{trainer.positions_seen} positions; {trainer.wall_seconds:.0f} s wall, "
                  f"{trainer.cpu_seconds:.0f} s CPU. Model: {folder / trainer_module.MODEL_FILE}")
    if stop.is_set():
        errors.print("Interrupted; run the same command to resume.")
        raise typer.Exit(INTERRUPTED)


def _bar() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=errors, transient=True)


def _progress(trainer_module, bar: Progress):
    task = {"id": None, "generation": 0, "games": 0, "done": 0, "printed": time.monotonic()}
    plain = not errors.is_terminal  # the bar does not show: print a line now and then

    def started(generation: int, games: int) -> None:
        if task["id"] is not None:
            bar.remove_task(task["id"])
        task["id"] = bar.add_task(f"generation {generation}: self-play games", total=games)
        task.update(generation=generation, games=games, done=0)

    def game_finished(result: dict) -> None:
        bar.advance(task["id"], result.get("games", 1))
        task["done"] += result.get("games", 1)
        if plain and time.monotonic() - task["printed"] >= PLAIN_EVERY:
            task["printed"] = time.monotonic()
            errors.print(f"generation {task['generation']}: {task['done']} of {task['games']} "
                         f"self-play games played")

    def finished(record: dict) -> None:
        console.print(
            f"generation {record['generation']}: {record['games']} games "
            f"({record['mean_decisions']:.0f} decisions), {record['positions']} positions "
            f"(buffer {record['buffer']}), mix {record['mix']:.2f}; loss "
            f"{record['loss_before']:.3f} -> {record['loss_after']:.3f} (policy "
            f"{record['policy_loss']:.3f}, value {record['value_loss']:.3f}); "
            f"{record['seconds']:.0f} s, {record['cpu_seconds']:.0f} CPU-s")

    return trainer_module.Progress(started, game_finished, finished)
