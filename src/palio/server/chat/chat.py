"""Table chat: short plain-text messages at a table, stored with the game and pushed live.

Who may write: a seat (its token, exactly as for actions), and a spectator only at a table
created with ``"spectator_chat": true``. Who may read: the same people; so a table without
spectator chat keeps its words among its players, in the replay too (the replay page sends
the seat's token it holds).

A message is text and stays text: it is stored as sent and sent as a JSON string, and the
pages put it in the document with ``textContent``, never as HTML. At most ``MAX_LENGTH``
characters; control characters (line breaks included) and the invisible bidirectional
overrides, which could make a message look like another's, are refused, and so is a message
made only of characters that show nothing (spaces, zero-width characters, fillers). Each author may write
``PER_MINUTE`` messages a minute at one table, counted with the server's clock.

Muting is the reader's own: the page keeps a list of muted authors in its browser
(localStorage), so it holds on that browser only and nobody else is told.

Pushing: a message is committed, then each connection watching the table that may read it
gets it on its WebSocket as ``{"type": "chat", "message": {...}}``. Messages of one table are
numbered 1, 2, 3...; a page that sees a gap (or reconnects) asks ``GET .../chat?after=N``.
On PostgreSQL the other processes hear of it through ``NOTIFY`` (payload ``"<id> chat"``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import threading
import unicodedata
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, Field
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from palio.server.accounts.web import signed_in
from palio.server.base import models
from palio.server.base.cluster import CHANNEL
from palio.server.base.db import utc
from palio.server.base.errors import ApiError
from palio.server.base.http import json_body, schema
from palio.server.base.names import shows_nothing
from palio.server.chat.tables import ChatRow
from palio.server.play.service import GameService, LiveGame

if TYPE_CHECKING:
    from palio.server.play.push import Hub, Viewer

log = logging.getLogger("palio.server")
MAX_LENGTH = 500  # characters of one message
PER_MINUTE = 10  # messages one author may write at one table in a minute
PAGE = 200  # messages one GET returns at most
_LOCAL = threading.Lock()  # SQLite: one chat writer at a time in this (the only) process
# bidirectional embeddings, overrides and isolates: invisible, and able to reorder what follows
BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _plain_text(value: str) -> str:
    if shows_nothing(value):  # spaces, zero-width characters, fillers: nothing to read
        raise ValueError("must not be only spaces or invisible characters")
    for char in value:
        if unicodedata.category(char) in ("Cc", "Cs") or char in BIDI_CONTROLS:
            raise ValueError("must not hold control characters (line breaks included)")
    return value


class Chat(models.Body):
    text: Annotated[str, Field(min_length=1, max_length=MAX_LENGTH), AfterValidator(_plain_text)]


def may_read(live: LiveGame, seat: int | None) -> bool:
    return seat is not None or live.spectator_chat


def guest_key(address: str) -> str:
    """A spectator without an account is told apart by a hash of their address."""
    return hashlib.sha256(f"palio-chat:{address}".encode()).hexdigest()[:16]


def author_of(request: Request, live: LiveGame, seat: int | None,
              account: Any) -> tuple[str, str | None]:
    """(author key, name shown) of a message's writer; ``account``: the signed-in one."""
    if seat is not None:
        return f"seat:{seat}", live.seats[seat].name  # None: "Player N" in each reader's words
    if account is not None:
        return f"account:{account.id}", account.name
    address = request.client.host if request.client is not None else "unknown"
    return f"guest:{guest_key(address)}", None


def as_message(row: ChatRow) -> dict[str, Any]:
    return {"n": row.n, "author": row.author, "seat": row.seat, "name": row.name,
            "text": row.text, "at": utc(row.created_at).isoformat()}


# -- storing and reading ------------------------------------------------------------------------
def post(service: GameService, live: LiveGame, seat: int | None, author: str,
         name: str | None, body: Any) -> dict[str, Any]:
    """Store one message; the message as readers receive it. The caller checked the token."""
    request = models.parse(Chat, body)
    if seat is None and not live.spectator_chat:
        raise ApiError(403, "chat_closed", "only the players write in this table's chat")
    moment = service.clock.now()
    for _attempt in range(5):  # two writers may pick the same number: the second tries again
        try:
            # one writer of a table's chat at a time, so the count below holds: on PostgreSQL
            # the game's row is locked (every process), on SQLite (one process) a lock here
            with _LOCAL if not service.shared else contextlib.nullcontext(), \
                    service.sessions.begin() as session:
                if service.shared:
                    service.hold_row(session, live.id)
                recent = session.scalar(select(func.count()).select_from(ChatRow).where(
                    ChatRow.game_id == live.id, ChatRow.author == author,
                    ChatRow.created_at > moment - timedelta(minutes=1)))
                if recent >= PER_MINUTE:
                    raise ApiError(429, "too_many_messages",
                                   f"one may write {PER_MINUTE} messages a minute at a table; "
                                   "wait a little")
                last = session.scalar(select(func.max(ChatRow.n))
                                      .where(ChatRow.game_id == live.id)) or 0
                row = ChatRow(game_id=live.id, n=last + 1, author=author, seat=seat,
                              name=name, text=request.text, created_at=moment)
                session.add(row)
                session.flush()
                if service.shared:  # the other processes push it to their readers
                    session.execute(text("SELECT pg_notify(:channel, :payload)"),
                                    {"channel": CHANNEL, "payload": f"{live.id} chat"})
            return as_message(row)
        except IntegrityError:
            continue
    raise ApiError(503, "busy", "the chat is busy; send again")


def messages(service: GameService, game_id: str, after: int = 0,
             limit: int = PAGE) -> list[dict[str, Any]]:
    """Messages numbered above ``after``, oldest first (the caller checked who reads)."""
    with service.sessions() as session:
        rows = session.scalars(select(ChatRow).where(ChatRow.game_id == game_id,
                                                     ChatRow.n > after)
                               .order_by(ChatRow.n).limit(limit))
        return [as_message(row) for row in rows]


def unread_since(session: Session, game_id: str, seat: int, since: datetime | None) -> int:
    """How many messages of this table the player at ``seat`` may read that others wrote
    after ``since`` (``None``: ever), in the caller's session: the turn mail says whether
    there is chat the player has not seen (a seat may read all of its table's chat)."""
    query = select(func.count()).select_from(ChatRow).where(
        ChatRow.game_id == game_id, ChatRow.author != f"seat:{seat}")
    if since is not None:
        query = query.where(ChatRow.created_at > since)
    return session.scalar(query) or 0

def unread(service: GameService, game_id: str, after: int, own: str) -> dict[str, int]:
    """How many messages are numbered above ``after`` that ``own`` (the reader's author key)
    did not write, and the newest number: a page's "unread chat" (the page keeps the last
    number its reader saw)."""
    with service.sessions() as session:
        count = session.scalar(select(func.count()).select_from(ChatRow).where(
            ChatRow.game_id == game_id, ChatRow.n > after, ChatRow.author != own)) or 0
        last = session.scalar(select(func.max(ChatRow.n)).where(ChatRow.game_id == game_id)) or 0
    return {"count": count, "last": last}


def last_number(service: GameService, game_id: str) -> int:
    with service.sessions() as session:
        return session.scalar(select(func.max(ChatRow.n)).where(ChatRow.game_id == game_id)) or 0


# -- pushing ------------------------------------------------------------------------------------
class ChatPush:
    """Hands new messages to the connections that may read them, one task per game."""

    def __init__(self, service: GameService, hub: Hub) -> None:
        self.service = service
        self.hub = hub
        self.dirty: set[str] = set()
        self.tasks: dict[str, asyncio.Task[None]] = {}

    async def joined(self, viewer: Viewer) -> None:
        """A new connection gets messages from now on (its page reads older ones by GET)."""
        viewer.chat_seen = await run_in_threadpool(last_number, self.service, viewer.game_id)

    def changed(self, game_id: str) -> None:
        if not self.hub.watching(game_id):
            return
        self.dirty.add(game_id)
        task = self.tasks.get(game_id)
        if task is None or task.done():
            self.tasks[game_id] = asyncio.get_running_loop().create_task(self._push(game_id))

    async def _push(self, game_id: str) -> None:
        try:
            while game_id in self.dirty:
                self.dirty.discard(game_id)
                viewers = list(self.hub.viewers.get(game_id, ()))
                if not viewers:
                    break
                live = await run_in_threadpool(self.service.get, game_id)
                readers = [v for v in viewers if may_read(live, v.seat)]
                if not readers:
                    continue
                since = min(v.chat_seen for v in readers)
                found = await run_in_threadpool(messages, self.service, game_id, since)
                for message in found:
                    line = json.dumps({"type": "chat", "message": message}, separators=(",", ":"))
                    for viewer in readers:
                        viewer.offer_chat(message["n"], line)
        except Exception:
            log.exception("could not push the chat of game %s", game_id)
        finally:
            self.tasks.pop(game_id, None)

    async def close(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()


# -- the API ------------------------------------------------------------------------------------
SeatOf = Callable[[str, Request], Awaitable[tuple[LiveGame, int | None]]]


def install(app: Any, seat_of: SeatOf, on_posted: Callable[[str], None]) -> None:
    """The chat's two routes; ``seat_of`` authenticates a seat as every action does."""

    @app.post("/api/games/{game_id}/chat", status_code=201, openapi_extra=schema(Chat))
    async def post_chat(game_id: str, request: Request) -> Any:
        live, seat = await seat_of(game_id, request)
        body = await json_body(request)
        account = None if seat is not None else await signed_in(request)
        author, name = author_of(request, live, seat, account)
        message = await run_in_threadpool(post, request.app.state.service, live, seat, author,
                                          name, body)
        on_posted(game_id)
        return JSONResponse(message, status_code=201)

    async def reader(game_id: str, request: Request) -> tuple[LiveGame, int | None, int]:
        """The table, the reader's seat, and ``?after=N``, for a reader who may read."""
        live, seat = await seat_of(game_id, request)
        if not may_read(live, seat):
            raise ApiError(403, "chat_closed", "only the players read this table's chat")
        after_text = request.query_params.get("after", "0")
        if not (after_text.isascii() and after_text.isdigit() and len(after_text) <= 9):
            raise ApiError(400, "bad_query", "after: must be a whole number")
        return live, seat, int(after_text)

    @app.get("/api/games/{game_id}/chat/unread")
    async def get_unread(game_id: str, request: Request) -> Any:
        """``?after=N``: {"count", "last"}, the messages after N that others wrote."""
        live, seat, after = await reader(game_id, request)
        account = None if seat is not None else await signed_in(request)
        own, _ = author_of(request, live, seat, account)
        found = await run_in_threadpool(unread, request.app.state.service, live.id, after, own)
        return JSONResponse(found, headers={"Cache-Control": "private, no-store"})

    @app.get("/api/games/{game_id}/chat")
    async def get_chat(game_id: str, request: Request) -> Any:
        live, seat, after = await reader(game_id, request)
        found = await run_in_threadpool(messages, request.app.state.service, live.id, after)
        return {"messages": found, "spectator_chat": live.spectator_chat}


__all__ = ["MAX_LENGTH", "PER_MINUTE", "Chat", "ChatPush", "install", "may_read"]
