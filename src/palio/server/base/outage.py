"""The database going away under a running server (a PostgreSQL restart, a failover).

A request that meets a lost connection is answered ``503 Service Unavailable`` with
``Retry-After``, in the API's JSON error shape, and the server log gets one line, not a
traceback. SQLAlchemy invalidates the whole pool on such an error, so the next attempt opens
fresh connections; a read (GET or HEAD, which changes nothing) is therefore retried once at
once, and a person whose page was loading never sees the blip when the database is back.
A change (POST) is not retried here: its client retries after ``Retry-After``, and the move
endpoints' revision check makes a repeated move harmless. The background loops log one line
per outage as well (:class:`LoopOutage`).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("palio.server")

RETRY_AFTER_SECONDS = 2
CODE = "database_unavailable"
READS = ("GET", "HEAD")


def is_outage(exc: BaseException) -> bool:
    """A lost or refused database connection (not a constraint or a bad statement): through
    SQLAlchemy, a socket's own error, or PostgreSQL's driver used directly (the claims)."""
    if isinstance(exc, OperationalError | ConnectionError) or (
            isinstance(exc, DBAPIError) and exc.connection_invalidated):
        return True
    psycopg = sys.modules.get("psycopg")  # the optional driver, only if something loaded it
    return psycopg is not None and isinstance(exc, psycopg.OperationalError)


class LoopOutage:
    """The log of a background loop (the deadline sweep, the review poller, the bot sweep, the
    mail pass) that fails while the database is away: one line when an outage begins, not a
    traceback on each pass, and one when the loop works again. Any other failure is the
    server's own and is logged with its traceback, each time."""

    def __init__(self, what: str, logger: logging.Logger = log) -> None:
        self.what = what
        self.log = logger
        self.down = False

    def failed(self, exc: BaseException) -> None:
        if not is_outage(exc):
            self.log.error("%s failed; it tries again", self.what, exc_info=exc)
        elif not self.down:
            self.down = True
            self.log.warning("database unavailable for %s: %s; it tries again", self.what,
                             one_line(exc))

    def worked(self) -> None:
        if self.down:
            self.down = False
            self.log.info("database back for %s", self.what)


def one_line(exc: BaseException) -> str:
    original = getattr(exc, "orig", None) or exc
    text = str(original).strip().splitlines()
    return f"{type(original).__name__}: {text[0] if text else ''}"


async def database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The exception handler for :class:`DBAPIError`: 503 for an outage; anything else is the
    server's own failure (500, logged with its traceback as any other)."""
    if not is_outage(exc):
        raise exc
    log.warning("database unavailable during %s %s: %s", request.method, request.url.path,
                one_line(exc))
    return JSONResponse(
        {"error": {"code": CODE, "message": "the database is unavailable for a moment; "
                   f"try again in {RETRY_AFTER_SECONDS} seconds"}},
        status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class RetryReads:
    """ASGI middleware: a GET or HEAD answered 503 for a database outage is run once more
    (nothing of the first answer has been sent; a read changes nothing)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in READS:
            await self.app(scope, receive, send)
            return
        outage = False
        started = False

        async def first(message: Message) -> None:
            nonlocal outage, started
            if not started and message["type"] == "http.response.start":
                started = True
                outage = message["status"] == 503 and _is_outage_answer(message)
            if not outage:
                await send(message)

        await self.app(scope, _replay(receive), first)
        if outage:
            await self.app(scope, _replay(receive), send)


def _is_outage_answer(message: Message) -> bool:
    headers: list[tuple[bytes, bytes]] = message.get("headers", [])
    return any(name.lower() == b"retry-after" for name, _ in headers)


def _replay(receive: Receive) -> Any:
    """A GET's (empty) body for the first read, then the real channel (a disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        return await receive()

    return replayed
