"""``palio users``: accounts of a server's database, for whoever runs the server.

``create NAME [--email ADDR]`` and ``reset-password NAME`` read the password from standard
input (one line; typed without echo at a terminal), so it never shows in a process list or a
shell's history. ``disable NAME`` ends the account's sessions at once; ``list`` shows every
account. Each takes the same ``--db`` (and ``PALIO_DB``) as ``palio serve``, and none needs
the server to stop: the server reads accounts from the database on every request.
"""

from __future__ import annotations

import getpass
import sys

import typer

from palio.cli.language import terminal_language
from palio.cli.serve import check_database, database_url
from palio.core.errors import PalioError
from palio.core.i18n import Translator
from palio.core.words import msg
from palio.server.base.errors import ApiError

users = typer.Typer(help="Accounts of a server: list, create, disable, reset a password.",
                    no_args_is_help=True)

DB_OPTION = typer.Option(
    "sqlite:///palio.db", "--db", envvar="PALIO_DB",
    help="SQLAlchemy database URL, as for palio serve (default: ./palio.db)")


def register(app: typer.Typer) -> None:
    app.add_typer(users, name="users")


def words() -> Translator:
    return Translator(terminal_language(None))


def stop(key: str, **params: object) -> typer.Exit:
    """Say what went wrong, in the terminal's language, and end with status 2."""
    typer.secho(f"error: {words()(msg(key, **params))}", err=True, fg=typer.colors.RED)
    return typer.Exit(2)


def account_store(db: str):  # noqa: ANN201 - palio.server.accounts.store.AccountStore
    """The accounts of ``db``, its schema brought up to date first (as the server does)."""
    from sqlalchemy.orm import sessionmaker

    from palio.server.accounts.store import AccountStore
    from palio.server.base.clock import clock_from_env
    from palio.server.base.db import make_engine, upgrade

    url = database_url(db)
    check_database(url)  # a missing driver or an unreachable database: one line, status 2
    engine = make_engine(url)
    upgrade(engine)
    return AccountStore(sessionmaker(engine, expire_on_commit=False), clock_from_env())


def read_password() -> str:
    """One line of standard input (without echo at a terminal); never an argument."""
    if sys.stdin.isatty():
        return getpass.getpass(words()(msg("cli.users.password_prompt")))
    return sys.stdin.readline().rstrip("\r\n")


def checked(name: str, password: str, email: str | None = None) -> None:
    """The same rules as sign-up in the browser (name, password length, address)."""
    from palio.server.accounts.store import SignUp
    from palio.server.base import models

    if not password:
        raise stop("cli.users.empty_password")
    try:
        models.parse(SignUp, {"name": name, "password": password, "email": email})
    except ApiError as exc:
        raise stop("cli.users.refused", reason=exc.message) from None


@users.command("create")
def create_command(
    name: str = typer.Argument(..., help="the account's name"),
    email: str = typer.Option(None, "--email", help="an address for turn notices"),
    db: str = DB_OPTION,
) -> None:
    """Create an account; its password is read from standard input."""
    password = read_password()
    checked(name, password, email)
    try:
        account_store(db).create(name, password, email)
    except ApiError:
        raise stop("cli.users.taken", name=name) from None
    except (PalioError, OSError) as exc:
        raise stop("cli.users.refused", reason=str(exc)) from None
    typer.echo(words()(msg("cli.users.created", name=name)))


@users.command("list")
def list_command(db: str = DB_OPTION) -> None:
    """Every account: name, e-mail, language, whether it is disabled, when it was made."""
    tr = words()
    accounts = account_store(db).list_accounts()
    if not accounts:
        typer.echo(tr(msg("cli.users.none")))
        return
    header = [tr(msg(f"cli.users.column.{c}"))
              for c in ("name", "email", "lang", "status", "created")]
    typer.echo("\t".join(header))
    for row in accounts:
        status = tr(msg("cli.users.status.disabled" if row["disabled"] else "cli.users.status.active"))
        created = row["created_at"].strftime("%Y-%m-%d %H:%M")
        typer.echo("\t".join([row["name"], row["email"] or "-", row["lang"], status, created]))


@users.command("disable")
def disable_command(name: str = typer.Argument(..., help="the account's name"),
                    db: str = DB_OPTION) -> None:
    """Disable an account: it can no longer sign in, and its sessions end now."""
    if not account_store(db).set_disabled(name, True):
        raise stop("cli.users.no_such", name=name)
    typer.echo(words()(msg("cli.users.disabled", name=name)))


@users.command("reset-password")
def reset_password_command(name: str = typer.Argument(..., help="the account's name"),
                           db: str = DB_OPTION) -> None:
    """Give an account a new password, read from standard input; its sessions end."""
    store = account_store(db)
    if not store.exists(name):
        raise stop("cli.users.no_such", name=name)
    password = read_password()
    checked("x", password)  # the password's rules; the name is an existing one
    store.set_password(name, password)
    typer.echo(words()(msg("cli.users.password_set", name=name)))
