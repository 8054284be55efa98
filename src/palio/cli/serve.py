"""``palio serve``: the web server.

Every option is also an environment variable (``PALIO_DB``, ``PALIO_WORKERS``, ...; the
option wins). ``--workers N`` runs N uvicorn processes on one port; each builds its
application from those variables, so the command writes them before starting uvicorn.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

import typer

from palio.cli.language import terminal_language
from palio.core.i18n import Translator
from palio.core.words import msg
from palio.server.base.settings import Settings, default_bot_processes


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)


# uvicorn's own default is 5 s: on a busy host a worker that is still importing the
# application (a CPU-second or more of work at a fraction of a core) misses it, is killed and
# replaced by another that misses it too (issue 35: 93 deaths in 5 minutes, no request
# answered). A minute is met by a start on a saturated two-core host
# (tests/server/base/test_busy_start.py) and still replaces a hung worker.
WORKER_TIMEOUT = 60

URL_EXAMPLES = ("sqlite:///palio.db (a file in this directory), sqlite:////var/lib/palio.db, "
                "postgresql+psycopg://user:password@host/dbname")


def database_url(text: str) -> str:
    """``--db`` as an SQLAlchemy URL: a URL as it is (checked), a plain file path as the SQLite
    database in that file. A clear error, not a traceback, for anything else."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    if "://" not in text:
        path = Path(text).expanduser().resolve()
        if path.is_dir() or not path.parent.is_dir():
            raise typer.BadParameter(
                f"{text!r} is not a database file in an existing folder; give a file path or "
                f"a database URL such as {URL_EXAMPLES}", param_hint="--db")
        return f"sqlite:///{path}"
    try:
        make_url(text).get_dialect()
    except (ArgumentError, NoSuchModuleError):
        raise typer.BadParameter(f"{text!r} is not a database URL; a database URL looks like "
                                 f"{URL_EXAMPLES}", param_hint="--db") from None
    return text


def refuse(key: str, **params: object) -> typer.Exit:
    """One line on standard error, in the terminal's language; the caller raises the returned
    exit (status 2)."""
    words = Translator(terminal_language(None))
    typer.secho(f"error: {words(msg(key, **params))}", err=True, fg=typer.colors.RED)
    return typer.Exit(2)


def check_driver(url: str) -> None:
    """The URL's database driver must be installed, and a plain (not asyncio) one: a missing
    one is one line naming it and what to install, not a traceback (the URL itself, which may
    hold a password, is not repeated)."""
    from sqlalchemy.engine import make_url

    from palio.server.base.db import normalize_url

    parsed = make_url(normalize_url(url))
    dialect = parsed.get_dialect()
    if getattr(dialect, "is_async", False):
        raise refuse("cli.serve.async_driver", driver=parsed.drivername, examples=URL_EXAMPLES)
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        missing = exc.name or str(exc)
        install = ("pip install -e '.[postgres]'" if parsed.get_backend_name() == "postgresql"
                   else "")
        raise refuse("cli.serve.no_driver_install" if install else "cli.serve.no_driver",
                     driver=parsed.drivername, missing=repr(missing), install=install,
                     examples=URL_EXAMPLES) from None


def check_database(url: str) -> None:
    """Connect once before serving, so an unreachable database is one clear line, not a
    traceback from every worker's start-up."""
    from sqlalchemy.exc import DBAPIError

    from palio.server.base.db import make_engine

    check_driver(url)
    engine = make_engine(url)
    try:
        with engine.connect():
            pass
    except DBAPIError as exc:
        reason = str(exc.orig or exc).strip().splitlines()[0]
        raise refuse("cli.serve.no_database", url=repr(engine.url), reason=reason) from None
    finally:
        engine.dispose()


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", envvar="PALIO_HOST",
                             help="address to listen on"),
    port: int = typer.Option(8000, "--port", envvar="PALIO_PORT", help="port to listen on"),
    db: str = typer.Option(
        "sqlite:///palio.db", "--db", envvar="PALIO_DB",
        help="SQLAlchemy database URL, or the path of an SQLite file; the default is the SQLite "
        "file ./palio.db in the current directory; PostgreSQL: "
        "postgresql+psycopg://user:pass@host/dbname",
    ),
    workers: int = typer.Option(1, "--workers", envvar="PALIO_WORKERS", min=1,
                                help="server processes on this port (more than 1: PostgreSQL only)"),
    worker_timeout: int = typer.Option(
        WORKER_TIMEOUT, "--worker-timeout", envvar="PALIO_WORKER_TIMEOUT", min=1,
        help="with --workers above 1: seconds a server process may take to answer its "
        "supervisor's health check (every half second) before it is killed and replaced; "
        "generous, so that a busy host's processes are not killed while they start"),
    bot_delay: float = typer.Option(0.3, "--bot-delay", envvar="PALIO_BOT_DELAY", min=0.0,
                                    help="seconds a bot waits before each move"),
    bot_processes: int = typer.Option(
        0, "--bot-processes", envvar="PALIO_BOT_PROCESSES", min=0,
        help="processes that think for bots, per server process; also the most bot decisions "
        "computed at once (others wait their turn); 0: the CPUs less one per server process, "
        "shared among the server processes"),
    bot_seconds: float = typer.Option(10.0, "--bot-seconds", envvar="PALIO_BOT_SECONDS",
                                      min=0.001, help="the most a bot may think per move"),
    games_per_minute: int = typer.Option(
        30, "--games-per-minute", envvar="PALIO_GAMES_PER_MINUTE", min=0,
        help="games one client address may create per minute; 0: no limit"),
    sign_ups_per_hour: int = typer.Option(
        10, "--sign-ups-per-hour", envvar="PALIO_SIGN_UPS_PER_HOUR", min=0,
        help="accounts one client address may sign up per hour (each costs a password hash); "
        "0: no limit"),
    push_timeout: float = typer.Option(
        10.0, "--push-timeout", envvar="PALIO_PUSH_TIMEOUT", min=0.001,
        help="seconds a WebSocket client may take to read a push before it is disconnected"),
    smtp: str = typer.Option(
        "", "--smtp", envvar="PALIO_SMTP",
        help="mail server for turn mails: smtp://host:port (STARTTLS when offered) or "
        "smtps://user:password@host:port; empty: no mail"),
    mail_from: str = typer.Option("palio@localhost", "--mail-from", envvar="PALIO_MAIL_FROM",
                                  help="sender address of the mails"),
    public_url: str = typer.Option(
        "", "--public-url", envvar="PALIO_PUBLIC_URL",
        help="the address players open (for links in mails); default http://HOST:PORT"),
    mail_hours: float = typer.Option(3.0, "--mail-hours", envvar="PALIO_MAIL_HOURS", min=0.0,
                                     help="at most one turn mail per table and player in this "
                                     "many hours"),
    deadline_sweep: float = typer.Option(
        1.0, "--deadline-sweep", envvar="PALIO_DEADLINE_SWEEP", min=0.001,
        help="seconds between two looks for tables whose time ran out"),
    open_expiry_hours: float = typer.Option(
        72.0, "--open-expiry-hours", envvar="PALIO_OPEN_EXPIRY_HOURS", min=0.001,
        help="hours an open table waits for players before it expires"),
    idle_days: float = typer.Option(
        30.0, "--idle-days", envvar="PALIO_IDLE_DAYS", min=0.001,
        help="days a running table without a time limit waits for a move; then the table's "
        "rule for running out of time applies to the player to move"),
    forwarded_allow_ips: str = typer.Option(
        "127.0.0.1", "--forwarded-allow-ips", envvar="FORWARDED_ALLOW_IPS",
        help="proxies whose X-Forwarded-For names the client (comma-separated, or *)"),
    log_level: str = typer.Option("info", "--log-level", envvar="PALIO_LOG_LEVEL",
                                  help="uvicorn log level"),
) -> None:
    """Serve the web API, live push and the browser pages; bots play their seats."""
    gc.disable()  # no collector passes over the start's objects (freeze_heap turns it on)
    import uvicorn

    try:
        settings = Settings(db=database_url(db), bot_delay=bot_delay,
                            bot_processes=bot_processes or default_bot_processes(workers),
                            bot_seconds=bot_seconds, games_per_minute=games_per_minute,
                            sign_ups_per_hour=sign_ups_per_hour,
                            push_timeout=push_timeout, workers=workers,
                            deadline_sweep=deadline_sweep, open_expiry_hours=open_expiry_hours,
                            idle_days=idle_days, smtp=smtp, mail_from=mail_from,
                            mail_hours=mail_hours,
                            public_url=public_url or f"http://{host}:{port}")
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    common = {"host": host, "port": port, "log_level": log_level,
              "forwarded_allow_ips": forwarded_allow_ips,
              "ws_max_size": 64 * 1024}  # clients send only small messages
    check_database(settings.db)
    if workers == 1:
        from palio.server.app import create_app

        uvicorn.run(create_app(settings, serving=True), **common)
        return
    from palio.server.base.db import make_engine, upgrade

    engine = make_engine(settings.db)  # migrate once, before the workers start
    upgrade(engine)
    engine.dispose()
    os.environ.update(settings.to_env())
    gc.enable()  # this process only supervises; each worker's start turns it off (app_from_env)
    uvicorn.run("palio.server.app:app_from_env", factory=True, workers=workers,
                timeout_worker_healthcheck=worker_timeout, **common)
