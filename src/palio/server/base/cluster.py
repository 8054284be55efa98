"""What several server processes on one PostgreSQL database share beyond the rows.

* ``Listener``: ``LISTEN palio_games`` on a connection of its own; every committed change of
  any process arrives as ``"<game id> <revision>"`` and is handed to a callback (the hub
  pushes the game to the clients watching it here). After a lost connection it reconnects
  and reports that notifications may have been missed.
* ``PostgresClaims``: a bot's move is claimed with a session-level advisory lock
  (``pg_try_advisory_lock``) on a connection of its own, so one process thinks for a move
  while the others leave it. The database releases the lock when the holder's connection
  ends, ``kill -9`` included, so a crashed process never keeps a game's bots waiting.

SQLite serves one process: ``LocalClaims`` always grants the claim (one task per game in the
process is the only ordering needed there) and there is nothing to listen to.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy.engine import make_url

from palio.server.base.db import normalize_url

log = logging.getLogger("palio.server")
# PostgreSQL NOTIFY channel: payload "<game id> <revision>", "<game id> chat", "<session hash>
# signout" or "<game id> seated <account of each seat, "-" for a bot, comma-separated>"
CHANNEL = "palio_games"
KEEPALIVE = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10,
             "keepalives_count": 3}


def conninfo(url: str) -> str:
    """A psycopg connection string from a SQLAlchemy URL."""
    return make_url(normalize_url(url)).set(drivername="postgresql").render_as_string(
        hide_password=False)


def lock_key(game_id: str) -> int:
    """A game's advisory lock: a signed 64-bit number from its id."""
    return int.from_bytes(hashlib.sha256(b"palio-bot:" + game_id.encode()).digest()[:8],
                          "big", signed=True)


class LocalClaims:
    @contextlib.asynccontextmanager
    async def claim(self, game_id: str) -> AsyncIterator[bool]:
        yield True

    async def close(self) -> None:
        pass


class PostgresClaims:
    """Advisory locks on one connection; reconnects when it is lost (its locks went with it)."""

    def __init__(self, url: str) -> None:
        self.url = conninfo(url)
        self.connection: Any = None
        self.connecting = asyncio.Lock()

    async def _connection(self) -> Any:
        import psycopg  # lazy: PostgreSQL's driver is an optional extra

        async with self.connecting:
            if self.connection is None or self.connection.closed:
                self.connection = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, **KEEPALIVE)
            return self.connection

    @contextlib.asynccontextmanager
    async def claim(self, game_id: str) -> AsyncIterator[bool]:
        """``True`` if this process may play the game's bot now; held until the block ends."""
        import psycopg  # lazy: PostgreSQL's driver is an optional extra

        key = lock_key(game_id)
        try:
            connection = await self._connection()
            cursor = await connection.execute("SELECT pg_try_advisory_lock(%s)", (key,))
            row = await cursor.fetchone()
            mine = bool(row and row[0])
        except (psycopg.Error, OSError) as exc:
            log.warning("bot claim for game %s failed (%s); another process or the sweep "
                        "will play it", game_id, exc)
            self.connection = None
            mine = False
        try:
            yield mine
        finally:
            if mine:
                try:
                    await connection.execute("SELECT pg_advisory_unlock(%s)", (key,))
                except (psycopg.Error, OSError):
                    self.connection = None  # the lock ended with the connection

    async def close(self) -> None:
        if self.connection is not None:
            with contextlib.suppress(Exception):
                await self.connection.close()


class Listener:
    """Calls ``on_change(game_id, revision)`` for every change committed by any process, and
    ``on_reconnect()`` after the connection was lost (changes may have been missed)."""

    def __init__(self, url: str, on_change: Callable[[str, int], None],
                 on_reconnect: Callable[[], None],
                 on_chat: Callable[[str], None] | None = None,
                 on_signout: Callable[[str], None] | None = None,
                 on_seated: Callable[[str, list[int | None]], None] | None = None) -> None:
        self.url = conninfo(url)
        self.on_change = on_change
        self.on_chat = on_chat  # "<game id> chat": a table chat message (chat.py)
        # "<session hash> signout": a browser signed out (accounts); its connections close
        self.on_signout = on_signout
        # "<game id> seated <accounts>": a new table seated these accounts (play/service.py)
        self.on_seated = on_seated
        self.on_reconnect = on_reconnect
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        import psycopg  # lazy: PostgreSQL's driver is an optional extra

        delay = 0.5
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True, **KEEPALIVE) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    if not first:
                        self.on_reconnect()
                    first, delay = False, 0.5
                    async for note in connection.notifies():
                        self._handle(note.payload)
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError) as exc:
                log.warning("lost the PostgreSQL notification connection (%s); reconnecting", exc)
                first = False
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    def _handle(self, payload: str) -> None:
        game_id, _, revision = payload.partition(" ")
        if revision == "chat" and self.on_chat is not None:
            try:
                self.on_chat(game_id)
            except Exception:
                log.exception("pushing the chat of game %s failed", game_id)
            return
        if revision == "signout" and self.on_signout is not None:
            try:
                self.on_signout(game_id)  # here the first word is the session's hash
            except Exception:
                log.exception("closing the connections of a signed-out session failed")
            return
        if revision.startswith("seated ") and self.on_seated is not None:
            try:
                self.on_seated(game_id, [None if a == "-" else int(a)
                                         for a in revision.removeprefix("seated ").split(",")])
            except Exception:
                log.exception("telling of the new table %s failed", game_id)
            return
        if not revision.isdigit():
            log.warning("ignored a notification that is not palio's: %r", payload[:80])
            return
        try:
            self.on_change(game_id, int(revision))
        except Exception:
            log.exception("handling the change of game %s failed", game_id)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
