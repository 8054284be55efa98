"""``palio games``, ``palio play`` and ``palio replay``: terminal play and records."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

import palio.games as registry
from palio import bots
from palio.cli.common import fail, load_game, parse_options, split_names
from palio.core.errors import PalioError
from palio.core.game import Game, State
from palio.core.record import GameRecord

console = Console(highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("games")(games_command)
    app.command("play")(play_command)
    app.command("replay")(replay_command)


def games_command(
    game: str = typer.Argument(None, help="a game id for details"),
    components: bool = typer.Option(False, "--components", help="list provisional component data"),
    components_file: Path = typer.Option(
        None, "--components-file", help="check a corrected components file and list its data"),
    export_components: Path = typer.Option(
        None, "--export-components", help="write the built-in component data here, to correct"),
) -> None:
    """List the games, or show one game's options and data."""
    if game is None:
        for game_id, g in registry().items():
            info = g.info
            console.print(f"{game_id:16} {info.name} ({info.min_players}-{info.max_players} players)")
        return
    try:
        g = load_game(game, components_file)
    except PalioError as exc:
        raise fail(exc) from None
    if export_components is not None:
        exporter = getattr(g, "export_components", None)
        if exporter is None:
            raise fail(f"{g.info.name} has no component data to export")
        export_components.write_text(exporter(), encoding="utf-8")
        console.print(f"Component data written to {export_components}")
        return
    if components_file is not None:
        console.print(f"Components file {components_file} is valid.")
    info = g.info
    console.print(f"{info.name} [{info.id}] version {info.version}, {info.min_players}-{info.max_players} players")
    console.print(f"rules: {info.rules}; action space: {info.action_space_size} actions")
    for spec in info.options:
        console.print(f"  option {spec.name}: {spec.description} (default {spec.default})")
    if components or components_file is not None:
        listing = getattr(g, "provisional_components", None)
        entries = listing() if listing else []
        if not entries:
            console.print("No provisional component data: every value comes from the rulebook.")
        for entry in entries:
            console.print(f"  provisional: {entry}")


def play_command(
    game: str = typer.Argument(..., help="game id, e.g. san-gimignano"),
    players: int = typer.Option(None, "--players", "-p", help="number of players"),
    seed: int = typer.Option(None, "--seed", "-s", help="random seed (a game replays from it)"),
    bot_names: str = typer.Option(
        None, "--bots", help="bots for the seats, comma separated; as many as players to autoplay"
    ),
    seat: int = typer.Option(0, "--seat", help="your seat when you play"),
    option: list[str] = typer.Option(None, "--option", "-o", help="game option, e.g. nobles or key=value"),
    record: Path = typer.Option(None, "--record", help="save the game record (JSON) here"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="autoplay: print only the result"),
    components_file: Path = typer.Option(
        None, "--components-file", help="play on a corrected components file"),
) -> None:
    """Play a game in the terminal against bots, or watch bots play a whole game."""
    try:
        g = load_game(game, components_file)
        n = players or g.info.min_players
        state = g.setup(n, seed, parse_options(option))
        names = split_names(bot_names)
        if len(names) == n:
            seats = names
        else:
            if not 0 <= seat < n:
                raise PalioError(f"--seat must be 0-{n - 1}")
            others = names or ["greedy"] * (n - 1)
            if len(others) != n - 1:
                raise PalioError(f"give {n - 1} bots for the other seats, or {n} to autoplay")
            seats = others[:seat] + ["you"] + others[seat:]
        players_by_seat = {
            i: bots.get(name, seed=None if seed is None else seed + i)
            for i, name in enumerate(seats)
            if name != "you"
        }
    except PalioError as exc:
        raise fail(exc) from None
    human = None if len(players_by_seat) == n else seat
    shown = 0
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        if mover == human:
            shown = _print_log(g, state, human, shown)
            console.print(g.render(state, human))
            action = _ask(state)
            if action is None:
                console.print("Bye.")
                raise typer.Exit(1)
        else:
            action = players_by_seat[mover].choose(state, mover)
        state.apply(action)
        if human is None and not quiet:
            shown = _print_log(g, state, None, shown)
    if human is not None:
        _print_log(g, state, human, shown)
    _print_result(g, state, seats)
    if record:
        GameRecord.of(state, seats).save(record)
        console.print(f"Record saved to {record}")


def _print_log(g: Game, state: State, seat: int | None, start: int) -> int:
    events = state.events_for(seat, start)
    for event in events:
        if event["kind"] != "setup":
            console.print(f"  {g.describe_event(event)}")
    return start + len(events)


def _ask(state: State):
    legal = state.legal_actions()
    console.print("Your moves: " + "  ".join(f"[{i}] {a}" for i, a in enumerate(legal, 1)))
    by_text = state.legal_by_text()
    while True:
        try:
            text = input("your move> ").strip()
        except EOFError:
            return None
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        try:
            action = state.parse(text)
        except PalioError as exc:
            console.print(f"[red]{exc}[/red]. Type a move's number or its notation.")
            continue
        if str(action) in by_text:
            return by_text[str(action)]
        console.print(f"[red]{action} is not legal now.[/red] Choose one of the moves listed.")


def _print_result(g: Game, state: State, seats: list[str]) -> None:
    scores = state.scores()
    console.print(f"{g.info.name}: game over after {state.move_number} decisions")
    for place, s in enumerate(state.ranking(), 1):
        console.print(f"  {place}. seat {s} ({seats[s]}): {scores[s]:g}")


def replay_command(
    path: Path = typer.Argument(..., help="a game record written by --record"),
    log: bool = typer.Option(False, "--log", help="print the whole game log"),
    components_file: Path = typer.Option(
        None, "--components-file", help="the components file the game was played on"),
) -> None:
    """Verify a game record by replaying it, and show the final position."""
    try:
        rec = GameRecord.load(path)
        g = load_game(rec.game, components_file)
        state = rec.replay(g)
    except (PalioError, OSError) as exc:
        raise fail(exc) from None
    if log:
        for event in state.log.to_list():
            console.print(f"  {g.describe_event(event.full())}")
    console.print(g.render(state, None))
    verdict = "verified" if rec.result else "replayed (no result stated)"
    console.print(f"Record {verdict}: {len(rec.actions)} actions, result {json.dumps(rec.result)}")
