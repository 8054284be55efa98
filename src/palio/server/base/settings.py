"""The server's settings: ``palio serve`` options, each also an environment variable.

``palio serve --workers N`` starts N processes that build their application from the
environment (uvicorn imports ``palio.server.app:app_from_env`` in each), so every setting has
one ``PALIO_*`` variable; the command line writes them for its workers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

from palio.server.base.db import is_sqlite
from palio.server.base.smtp import SmtpTarget


def cpu_count() -> int:
    """CPUs this process may run on (a container's limit, where the OS tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_bot_processes(workers: int = 1) -> int:
    """Bot processes per server process: the machine's CPUs less one for each server
    process, shared among them, and at least one."""
    return max(1, (cpu_count() - workers) // max(1, workers))


@dataclass(frozen=True)
class Settings:
    db: str = "sqlite:///palio.db"
    bot_delay: float = 0.3  # seconds a bot waits before each move, so people can follow
    bot_processes: int = 0  # processes that think for bots; 0: default_bot_processes()
    bot_seconds: float = 10.0  # the most a bot may think per decision (bots with a time budget)
    games_per_minute: int = 30  # games one client address may create per minute; 0: no limit
    sign_ups_per_hour: int = 10  # sign-ups one client address may start per hour; 0: no limit
    push_timeout: float = 10.0  # a client that takes no push for this long is disconnected
    workers: int = 1  # server processes (PostgreSQL only beyond 1)
    smtp: str = ""  # where turn mails go (smtp://host:port, smtps://user:pass@host); "": none
    mail_from: str = "palio@localhost"  # the mails' sender address
    public_url: str = ""  # the server's address as players reach it, for links in mails
    mail_hours: float = 3.0  # at most one turn mail per table and player in this many hours
    # timed tables and expiry (timing.py): how often each process looks for due deadlines,
    # how long an open table waits for players, how long an untimed table waits for a move
    deadline_sweep: float = 1.0
    open_expiry_hours: float = 72.0
    idle_days: float = 30.0

    def __post_init__(self) -> None:
        if self.bot_processes == 0:
            object.__setattr__(self, "bot_processes", default_bot_processes(self.workers))
        self.check()

    def check(self) -> None:
        """ValueError with a sentence a person can act on."""
        if self.workers < 1:
            raise ValueError("--workers must be at least 1")
        if self.workers > 1 and is_sqlite(self.db):
            raise ValueError(
                "--workers above 1 needs PostgreSQL (--db postgresql+psycopg://...): SQLite "
                "serves one process, which holds every live game in memory")
        if self.bot_processes < 1:
            raise ValueError("--bot-processes must be at least 1")
        if self.bot_delay < 0 or self.bot_seconds <= 0 or self.push_timeout <= 0:
            raise ValueError("--bot-delay must be 0 or more; --bot-seconds and --push-timeout "
                             "more than 0")
        if self.smtp:
            SmtpTarget.parse(self.smtp)  # ValueError says what an SMTP address looks like
            if not self.public_url.startswith(("http://", "https://")):
                raise ValueError("--public-url must be the address players open, such as "
                                 "https://palio.example.org, for the links in mails")
        if self.mail_hours < 0:
            raise ValueError("--mail-hours must be 0 or more")
        if self.deadline_sweep <= 0 or self.open_expiry_hours <= 0 or self.idle_days <= 0:
            raise ValueError("--deadline-sweep, --open-expiry-hours and --idle-days must be "
                             "more than 0")
        if self.games_per_minute < 0:
            raise ValueError("--games-per-minute must be 0 (no limit) or more")
        if self.sign_ups_per_hour < 0:
            raise ValueError("--sign-ups-per-hour must be 0 (no limit) or more")

    @property
    def shared_database(self) -> bool:
        """Whether other processes may use the same database (PostgreSQL)."""
        return not is_sqlite(self.db)

    def to_env(self) -> dict[str, str]:
        return {env_name(f.name): str(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        environ = os.environ if environ is None else environ
        given = {}
        for f in fields(cls):
            text = environ.get(env_name(f.name))
            if text is None or text == "":
                continue
            kind = type(getattr(cls, f.name))
            try:
                given[f.name] = kind(text)
            except ValueError:
                raise ValueError(f"{env_name(f.name)}={text!r} is not a {kind.__name__}") from None
        return cls(**given)


def env_name(field_name: str) -> str:
    return "PALIO_" + field_name.upper()
