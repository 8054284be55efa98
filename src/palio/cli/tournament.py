"""``palio tournament pair``: a tournament's pairings on random results, for organisers and
researchers: seat balance and repeat meetings at a glance (``--json``: the tables only).

The server's ``create``, ``list`` and ``show`` come with its tournament module (issue 38).
"""

from __future__ import annotations

import json
from collections import Counter

import typer

import palio.games as registry
from palio.cli.common import fail
from palio.cli.play import terminal_language
from palio.core.errors import PalioError
from palio.core.i18n import Translator
from palio.core.words import msg
from palio.tournament.model import FORMATS, refuse
from palio.tournament.scoring import PRESETS, scoring
from palio.tournament.simulate import simulate

tournament = typer.Typer(help="Tournaments: simulate pairings.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(tournament, name="tournament")


@tournament.command("pair")
def pair_command(
    game: str = typer.Argument(..., help="game id, e.g. tiletum"),
    players: int = typer.Option(..., "--players", "-p", help="entrants"),
    seats: int = typer.Option(..., "--seats", "-k", help="seats per table"),
    rounds: int = typer.Option(..., "--rounds", "-r", help="rounds (arena: games each, about)"),
    seed: int = typer.Option(0, "--seed", "-s", help="seed of the random results"),
    fmt: str = typer.Option("swiss", "--format", help="swiss, roundrobin or arena"),
    points: str = typer.Option("bga", "--scoring", help=f"{', '.join(PRESETS)}"),
    bots: bool = typer.Option(False, "--bots/--no-bots", help="bots may fill a table"),
    withdrawals: int = typer.Option(0, "--withdrawals", help="entrants who withdraw at random"),
    late: int = typer.Option(0, "--late", help="entrants who enter late at random"),
    as_json: bool = typer.Option(False, "--json", help='print {"rounds": [[[p, ...], ...], ...]}'),
) -> None:
    """Pair a tournament round after round on random results; print seat balance and repeats."""
    tr = Translator(terminal_language(None))
    try:
        info = registry.get(game).info
        if fmt not in FORMATS:
            raise refuse("unknown_format", f"unknown format {fmt!r}", name=fmt)
        if not info.min_players <= seats <= info.max_players:
            raise refuse("seats_for_game", f"{info.name} seats {info.min_players}-"
                         f"{info.max_players} players, not {seats}", game=info.name,
                         least=info.min_players, most=info.max_players, given=seats)
        if players < 1 or rounds < 1 or withdrawals < 0 or late < 0:
            raise refuse("bad_counts", "players and rounds must be positive")
        sim = simulate(fmt, players, seats, rounds, seed, min_players=info.min_players,
                       bots=bots, rules=scoring(points), withdrawals=withdrawals, late=late)
    except PalioError as exc:
        raise fail(exc, tr) from None
    if as_json:
        typer.echo(json.dumps({"rounds": [r.to_json() for r in sim.rounds]}))
        return
    for number, paired in enumerate(sim.rounds, 1):
        tables = "  ".join("-".join("bot" if p is None else str(p) for p in t)
                           for t in paired.tables)
        typer.echo(tr(msg("cli.tournament.round", number=number, tables=tables)))
        if paired.sitting_out:
            typer.echo(tr(msg("cli.tournament.sitting_out",
                              players=", ".join(map(str, paired.sitting_out)))))
    history = sim.history()
    spread = Counter(max(c) - min(c) for c in history.seat_counts.values())
    for gap in sorted(spread):
        typer.echo(tr(msg("cli.tournament.seat_gap", gap=gap, count=spread[gap])))
    typer.echo(tr(msg("cli.tournament.repeats", count=sim.repeats())))
