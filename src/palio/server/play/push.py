"""WebSocket push: each connection has a mailbox of one message and its own sender.

A change marks its game dirty; one task per game builds the views (once per seat and language
watching, off the event loop, under the game's lock only while building) and drops each
connection's view in its mailbox, replacing any view it has not sent yet: the newest position
is all a client needs. Each connection's sender sends on its own, so a slow client delays only
itself; one that has not taken a message within ``push_timeout`` seconds is disconnected (its
socket aborted) and reconnects for a fresh view, if it ever reads again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Iterator

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from palio.core.i18n import Translator
from palio.core.words import msg
from palio.server.play.service import GameService, LiveGame

log = logging.getLogger("palio.server")
MAX_CHATS_QUEUED = 50
Reader = tuple[int | None, str]  # (seat or None for a spectator, language)


def abort(websocket: WebSocket) -> None:
    """Drop the connection now. A polite close needs the client to read the close frame,
    which a stuck client never does, and until then the server keeps its unsent bytes; so
    abort the transport under it. Found through uvicorn's ``receive`` (the ASGI protocol
    object); other servers lack it, and the connection then waits for their own timeouts."""
    protocol = getattr(getattr(websocket, "_receive", None), "__self__", None)
    transport = getattr(protocol, "transport", None)
    if transport is not None and hasattr(transport, "abort"):
        transport.abort()


class Viewer:
    """One WebSocket connection watching one game as one seat, in one language."""

    def __init__(self, websocket: WebSocket, game_id: str, seat: int | None, lang: str,
                 timeout: float, on_gone: Callable[[Viewer], None]) -> None:
        self.websocket = websocket
        self.game_id = game_id
        self.seat = seat
        self.lang = lang
        self.timeout = timeout
        self.on_gone = on_gone
        self.pending: str | None = None  # the newest message not yet sent: a mailbox of one
        # chat messages are each sent, in order (chat.py); a reader far behind drops the
        # oldest and its page asks for them again (it sees the gap in their numbers)
        self.chats: deque[str] = deque(maxlen=MAX_CHATS_QUEUED)
        self.chat_seen = 0  # number of the newest chat message queued for this connection
        self.revision = -1  # revision of the newest view put in the mailbox
        self.wake = asyncio.Event()
        self.gone = False
        self.sender: asyncio.Task[None] | None = None
        # the hash of the session cookie that gave this connection its seat (None: a token or
        # a spectator): signing that session out closes the connection (``Hub.sign_out``)
        self.session: str | None = None

    @property
    def reader(self) -> Reader:
        return self.seat, self.lang

    def start(self) -> None:
        self.sender = asyncio.get_running_loop().create_task(self._send_loop())

    def offer(self, revision: int, message: str) -> None:
        """Queue a view of ``revision``, replacing an unsent one; never an older position."""
        if self.gone or revision <= self.revision:
            return
        self.revision = revision
        self.pending = message
        self.wake.set()

    def offer_chat(self, number: int, message: str) -> None:
        """Queue chat message ``number`` unless it was queued already."""
        if self.gone or number <= self.chat_seen:
            return
        self.chat_seen = number
        self.chats.append(message)
        self.wake.set()

    def _next_message(self) -> str | None:
        if self.chats:
            return self.chats.popleft()
        message, self.pending = self.pending, None
        return message

    def reseat(self, seat: int | None) -> None:
        """The connection now watches as another seat: its next view, whatever its revision,
        is sent."""
        self.seat = seat
        self.revision = -1

    async def _send_loop(self) -> None:
        while not self.gone:
            await self.wake.wait()
            self.wake.clear()
            message = self._next_message()
            if message is None:
                continue
            if self.chats or self.pending is not None:
                self.wake.set()  # more to send after this one
            try:
                await asyncio.wait_for(self.websocket.send_text(message), self.timeout)
            except TimeoutError:
                log.info("dropped a WebSocket client of game %s: it took no message for %g s",
                         self.game_id, self.timeout)
                abort(self.websocket)
                self.stop()
                return
            except Exception:  # noqa: BLE001 - closed under us: the reader sees the disconnect
                self.stop()
                return

    def stop(self) -> None:
        if not self.gone:
            self.gone = True
            self.wake.set()
            self.on_gone(self)

    async def close(self) -> None:
        """Stop sending, and wait for the sender to end (at most its timeout)."""
        self.stop()
        if self.sender is not None and self.sender is not asyncio.current_task():
            self.sender.cancel()
            with contextlib.suppress(BaseException):
                await self.sender


    async def end(self, code: int, error: dict[str, str]) -> None:
        """Close the connection from the server's side: stop pushing, send ``error``, close
        with ``code`` (never waiting longer than the timeout)."""
        await self.close()
        try:
            await asyncio.wait_for(self.websocket.send_text(
                json.dumps({"type": "error", "error": error})), self.timeout)
            await asyncio.wait_for(self.websocket.close(code=code), self.timeout)
        except TimeoutError:
            abort(self.websocket)
        except Exception:  # noqa: BLE001, S110 - closed meanwhile by its client: nothing to do
            pass


class AccountViewer(Viewer):
    """One WebSocket connection of a signed-in account's page (``/ws/me``), watching no game:
    told of each new table that seats the account (``{"type": "seated", "game", "seat"}``), in
    order, through the same sender as a game's viewer (the queue its chat messages use)."""

    def __init__(self, websocket: WebSocket, account_id: int, session: str | None, lang: str,
                 timeout: float, on_gone: Callable[[Viewer], None]) -> None:
        super().__init__(websocket, "", None, lang, timeout, on_gone)
        self.account_id = account_id
        self.session = session

    def tell(self, message: str) -> None:
        if not self.gone:
            self.chats.append(message)
            self.wake.set()


class Hub:
    """The viewers of every game, and one push task per game with viewers; the signed-in
    accounts' pages (``AccountViewer``), told of the tables that seat them."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.viewers: dict[str, set[Viewer]] = {}
        self.accounts: dict[int, set[AccountViewer]] = {}
        self.dirty: set[str] = set()
        self.pushers: dict[str, asyncio.Task[None]] = {}
        self.pushed: dict[str, int] = {}  # game id -> newest revision pushed from here
        # games with a change this process's copy may not have yet (another process's), with
        # its revision (None: unknown): their next push reads the game (service.get catches
        # up), never only the views built here, unless the copy has that revision already
        self.elsewhere: dict[str, int | None] = {}
        # games with a change being made in this process (a move's worker thread), which
        # pushes it once made (``making``): pushes asked for meanwhile wait for it, so that
        # the change's own notification, which PostgreSQL may deliver before the move's
        # views are built, does not read the game and build its views a second time
        self.making: dict[str, int] = {}

    async def sign_out(self, session: str) -> int:
        """A session ended: close the connections it signed in, with 4401 and a word in each
        one's language; how many."""
        ending = [viewer for viewers in [*self.viewers.values(), *self.accounts.values()]
                  for viewer in viewers if viewer.session == session]
        for viewer in ending:
            words = Translator(viewer.lang)(msg("timing.error.signed_out"))
            await viewer.end(4401, {"code": "signed_out", "message": words})
        return len(ending)

    def watching(self, game_id: str) -> bool:
        return bool(self.viewers.get(game_id))

    def changed(self, game_id: str, *, elsewhere: bool = False,
                revision: int | None = None) -> None:
        """The game changed: push it to everyone watching. ``elsewhere``: the change may be
        another process's (a notification), which this process's copy may not have yet;
        ``revision``: that change's, if known."""
        if not self.watching(game_id):
            return
        self.dirty.add(game_id)
        if elsewhere:
            known = self.elsewhere.get(game_id, -1)
            self.elsewhere[game_id] = (None if known is None or revision is None
                                       else max(known, revision))
        if game_id not in self.making:
            self._start(game_id)

    def _start(self, game_id: str) -> None:
        task = self.pushers.get(game_id)
        if task is None or task.done():
            self.pushers[game_id] = asyncio.get_running_loop().create_task(self._push(game_id))

    @contextlib.contextmanager
    def making_change(self, game_id: str) -> Iterator[None]:
        """Around a change made in this process whose maker calls :meth:`changed` once it is
        made (and its views built): a push asked for meanwhile waits until the block ends,
        and is then made (if the change failed, it still is: a notification may have come)."""
        self.making[game_id] = self.making.get(game_id, 0) + 1
        try:
            yield
        finally:
            left = self.making.pop(game_id) - 1
            if left:
                self.making[game_id] = left
            elif game_id in self.dirty and self.watching(game_id):
                self._start(game_id)

    def known(self, game_id: str, revision: int) -> bool:
        """Whether this process has pushed ``revision`` of the game (or a newer one)."""
        return self.pushed.get(game_id, -1) >= revision

    async def _push(self, game_id: str) -> None:
        while game_id in self.dirty:
            self.dirty.discard(game_id)
            elsewhere = game_id in self.elsewhere
            if elsewhere:
                # a change this process's copy has already (this process's own, or one it
                # caught up with) needs no reading of the game
                revision = self.elsewhere.pop(game_id)
                live = self.service.live.get(game_id)
                elsewhere = revision is None or live is None or live.revision < revision
            viewers = list(self.viewers.get(game_id, ()))
            if not viewers:
                break
            readers = {v.reader for v in viewers}
            try:
                revision, messages = ((None if elsewhere else self.build_cached(game_id, readers))
                                      or await run_in_threadpool(self.build, game_id, readers))
            except Exception:
                log.exception("could not build the views of game %s", game_id)
                break
            self.pushed[game_id] = max(revision, self.pushed.get(game_id, -1))
            for viewer in viewers:
                message = messages.get(viewer.reader)
                if message is not None:
                    viewer.offer(revision, message)
        self.pushers.pop(game_id, None)

    def build(self, game_id: str, readers: set[Reader]) -> tuple[int, dict[Reader, str]]:
        """Each reader's view message, all of one position (run in a worker thread)."""
        live = self.service.get(game_id)
        return views_text(live, readers, self.service.clock.now().isoformat())

    def build_cached(self, game_id: str, readers: set[Reader]
                     ) -> tuple[int, dict[Reader, str]] | None:
        """:meth:`build` on the event loop when every view is built already (a move made
        here builds its watchers' views in its own worker thread): no hand over to a thread
        for the push, which cost as much CPU as the move's transaction. None otherwise. Only
        for a change made in this process (its copy is then the newest)."""
        live = self.service.live.get(game_id)
        cached = None if live is None else live.cached_texts(readers)
        if cached is None:
            return None
        revision, texts = cached
        return revision, messages_of(texts, self.service.clock.now().isoformat())

    def readers(self, game_id: str) -> set[Reader]:
        """The (seat, language) of every connection watching the game."""
        return {viewer.reader for viewer in self.viewers.get(game_id, ())}

    async def add(self, viewer: Viewer) -> None:
        """Start pushing to a new connection: first the current view, then every change."""
        self.viewers.setdefault(viewer.game_id, set()).add(viewer)
        viewer.start()
        await self.send_current(viewer)

    async def send_current(self, viewer: Viewer) -> None:
        revision, messages = await run_in_threadpool(self.build, viewer.game_id, {viewer.reader})
        viewer.offer(revision, messages[viewer.reader])

    def remove(self, viewer: Viewer) -> None:
        viewers = self.viewers.get(viewer.game_id)
        if viewers is not None:
            viewers.discard(viewer)
            if not viewers:
                del self.viewers[viewer.game_id]
                self.pushed.pop(viewer.game_id, None)

    def seated(self, game_id: str, accounts: list[int | None]) -> None:
        """A new table seats these accounts (in seat order; None a bot): tell each one's open
        pages here (on the event loop; the root hands it over from a worker thread)."""
        for seat, account in enumerate(accounts):
            if account is None:
                continue
            message = json.dumps({"type": "seated", "game": game_id, "seat": seat})
            for viewer in list(self.accounts.get(account, ())):
                viewer.tell(message)

    def add_account(self, viewer: AccountViewer) -> None:
        self.accounts.setdefault(viewer.account_id, set()).add(viewer)
        viewer.start()

    def remove_account(self, viewer: Viewer) -> None:
        if isinstance(viewer, AccountViewer):
            viewers = self.accounts.get(viewer.account_id)
            if viewers is not None:
                viewers.discard(viewer)
                if not viewers:
                    del self.accounts[viewer.account_id]

    async def close(self) -> None:
        for viewers in [*self.viewers.values(), *self.accounts.values()]:
            for viewer in list(viewers):
                await viewer.close()
        for task in list(self.pushers.values()):
            task.cancel()


def views_text(live: LiveGame, readers: set[Reader],
               now: str | None = None) -> tuple[int, dict[Reader, str]]:
    """The view message of each reader, serialised once, and the revision they show; ``now``:
    the server's time, beside each view (pages count the clocks down from it)."""
    with live.lock:
        texts = {reader: live.view_text(*reader) for reader in readers}
        revision = live.revision
    return revision, messages_of(texts, now)


def with_now(text: str, now: str | None) -> str:
    """A view's JSON text (``LiveGame.view_text``) with the server's time as its last member:
    the JSON of ``{**view, "now": now}`` (a view has members, and none named ``now``)."""
    return text if now is None else f'{text[:-1]},"now":{json.dumps(now)}}}'


def messages_of(texts: dict[Reader, str], now: str | None) -> dict[Reader, str]:
    """Each reader's view text as its push message, ``{"type":"view","view":{...}}``."""
    return {reader: f'{{"type":"view","view":{with_now(text, now)}}}'
            for reader, text in texts.items()}


def texts_for(live: LiveGame, readers: set[Reader]) -> dict[Reader, str]:
    """Each (seat, language)'s view text, all of one position (built under the game's lock):
    the REST answer of one and the push to all of them share each serialisation."""
    with live.lock:
        return {reader: live.view_text(*reader) for reader in readers}
