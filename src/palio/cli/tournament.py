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


# -- a server's tournaments (for whoever runs the server, on its --db, like palio users) -------
DB_OPTION = typer.Option(
    "sqlite:///palio.db", "--db", envvar="PALIO_DB",
    help="SQLAlchemy database URL, as for palio serve (default: ./palio.db)")


def server_tournaments(db: str):  # noqa: ANN201 - palio.server.tournaments.service.Tournaments
    """The tournaments of ``db``, its schema brought up to date first (as the server does).
    Imported here, as ``palio users`` does: the server's modules load only for these commands."""
    from palio.server.base.clock import clock_from_env
    from palio.server.play.service import GameService
    from palio.server.tournaments.service import Tournaments

    return Tournaments(GameService(db, clock=clock_from_env()))


def say_refused(tr: Translator, reason: str) -> typer.Exit:
    typer.secho(f"error: {tr(msg('cli.tournament.refused', reason=reason))}", err=True,
                fg=typer.colors.RED)
    return typer.Exit(2)


@tournament.command("create")
def create_command(
    name: str = typer.Argument(..., help="the tournament's name"),
    game: str = typer.Option(..., "--game", help="game id, e.g. tiletum"),
    seats: int = typer.Option(..., "--seats", "-k", help="seats per table"),
    rounds: int | None = typer.Option(None, "--rounds", "-r",
                                      help="rounds (swiss and roundrobin)"),
    organiser: str = typer.Option(..., "--organiser", help="the organising account's name"),
    starts: str = typer.Option(..., "--starts", help="start, ISO 8601 with its zone"),
    fmt: str = typer.Option("swiss", "--format", help="swiss, roundrobin or arena"),
    arena_hours: int | None = typer.Option(None, "--arena-hours",
                                           help="how long an arena runs, in hours (arena only)"),
    points: str = typer.Option("bga", "--scoring", help=f"{', '.join(PRESETS)}"),
    bots: bool = typer.Option(False, "--bots/--no-bots", help="bots may fill a table"),
    bot_level: str = typer.Option("medium", "--bot-level",
                                  help="the bots' level: easy, medium, hard, expert, or any "
                                       "bot a table's seat takes (GET /api/bots)"),
    rated: bool = typer.Option(False, "--rated/--unrated", help="rated tables"),
    round_days: int = typer.Option(7, "--round-days", help="the longest a round runs, in days"),
    db: str = DB_OPTION,
) -> None:
    """Create a tournament on a server's database (the server starts it at its time)."""
    # the server's modules: these commands only
    from palio.server.accounts.store import AccountStore
    from palio.server.base.errors import ApiError

    tr = Translator(terminal_language(None))
    tournaments = server_tournaments(db)
    account = AccountStore(tournaments.service.sessions, tournaments.clock).by_name(organiser)
    if account is None:
        raise say_refused(tr, tr(msg("cli.users.no_such", name=organiser)))
    body = {"name": name, "game": game, "players": seats, "format": fmt, "scoring": points,
            "bots": bots, "bot_level": bot_level, "rated": rated, "starts_at": starts,
            "round_days": round_days}
    # what is not given stays out of the body: the server says what a format needs
    body.update({key: value for key, value in (("rounds", rounds), ("arena_hours", arena_hours))
                 if value is not None})
    try:
        made = tournaments.create(account.id, body)
    except ApiError as exc:
        raise say_refused(tr, exc.message) from None
    typer.echo(tr(msg("cli.tournament.created", id=made["id"], name=made["name"])))


@tournament.command("list")
def list_command(db: str = DB_OPTION) -> None:
    """A server's tournaments: id, name, game, seats, format, entrants, status, start."""
    tr = Translator(terminal_language(None))
    rows = server_tournaments(db).listing()
    if not rows:
        typer.echo(tr(msg("cli.tournament.none")))
        return
    for t in rows:
        typer.echo("\t".join([str(t["id"]), t["name"], t["game"], str(t["players"]), t["format"],
                              str(t["entrants"]), t["status"], t["starts_at"]]))


@tournament.command("show")
def show_command(tid: int = typer.Argument(..., help="the tournament's id"),
                 db: str = DB_OPTION,
                 as_json: bool = typer.Option(False, "--json", help="print the API's JSON")) -> None:
    """One tournament: its standings (tie-breaks by name) and its rounds' tables."""
    from palio.server.base.errors import ApiError  # the server's modules: these commands only

    tr = Translator(terminal_language(None))
    try:
        t = server_tournaments(db).detail(tid)
    except ApiError as exc:
        raise say_refused(tr, exc.message) from None
    if as_json:
        typer.echo(json.dumps(t, ensure_ascii=False, indent=1))
        return
    typer.echo(f'{t["name"]} ({t["game"]}, {t["format"]}, {t["status"]})')
    typer.echo("\t".join(["#", tr(msg("cli.tournament.points")), *t["tie_breaks"]]))
    for s in t["standings"]:
        typer.echo("\t".join([str(s["rank"]), s["name"], f'{s["points"]:g}',
                              *(f'{s["tie_breaks"][n]:g}' for n in t["tie_breaks"])]))
    for r in t["rounds"]:
        bot = tr(msg("cli.tournament.bot"))
        tables = " | ".join(", ".join(n or bot for n in x["seats"]) for x in r["tables"])
        typer.echo(tr(msg("cli.tournament.round", number=r["number"], tables=tables)))
