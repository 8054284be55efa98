"""The composition root: it reads the settings, builds each concern and wires them together.

The server is laid out as lichess's lila is: a small bottom layer (``base``: settings, clock,
database and migrations, request helpers, errors, logs, the page shell), one package per
concern above it, each owning its tables, routes and words, and this module, the only one
that knows them all. Imports point down only::

    app.py        this composition root
    tournaments/  review/  ratings/  mail/  chat/      concerns above the tables
    play/         the tables: the game service, seats, push, bots at tables, timing
    accounts/     accounts, sessions, the CSRF rule
    rules/        the rules pages
    base/         settings, clock, db, http, errors, logs, outage, pages, cluster, smtp, names

Events go up through hooks registered here: the game service calls ``move_hooks`` (turn
mails) and ``finish_hooks`` (ratings) in the transaction of the change; the accounts call
``Hooks.claim_seats`` and ``Hooks.profile_parts`` (the tables' games and the ratings); the
tables' routes tell the server of viewers joining (the chat).

Blocking work (database, replays, views) runs in worker threads and bots think in processes
of their own (``play.botplay``); the event loop only routes requests and hands views to each
connection's sender (``play.push``). Every change is committed, then pushed to the clients
watching the game in this process; on PostgreSQL the other processes hear of it through
LISTEN/NOTIFY (``base.cluster``) and push it to theirs.
"""

from __future__ import annotations

import asyncio
import fcntl
import gc
import logging
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from palio.server.accounts import routes as accounts_routes
from palio.server.accounts.store import Account, AccountStore, Claim
from palio.server.accounts.web import OriginCheck
from palio.server.base import logs, outage, pages
from palio.server.base.clock import Clock, clock_from_env
from palio.server.base.cluster import Listener, LocalClaims, PostgresClaims
from palio.server.base.db import normalize_url
from palio.server.base.errors import ApiError
from palio.server.base.http import error
from palio.server.base.lifeline import die_with_parent
from palio.server.base.settings import Settings
from palio.server.base.smtp import SmtpTarget
from palio.server.chat import chat
from palio.server.mail import turns as mail
from palio.server.mail.turns import Mailer, TurnMails
from palio.server.play import account_seats, timing
from palio.server.play import pages as play_pages
from palio.server.play import routes as play_routes
from palio.server.play.botplay import BotRunner
from palio.server.play.push import Hub, Viewer
from palio.server.play.service import GameService
from palio.server.ratings import ratings
from palio.server.ratings import routes as ratings_routes
from palio.server.review import review as reviews_api
from palio.server.rules import pages as rules
from palio.server.tournaments import routes as tournaments_routes
from palio.server.tournaments.service import Tournaments

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("palio.server")


def sqlite_single_process(db_url: str) -> Any:
    """Hold an exclusive lock beside a SQLite file while serving it: a second ``palio serve``
    on the same file would keep a second, diverging cache of its games. The OS releases the
    lock when the process ends, however it ends."""
    database = make_url(normalize_url(db_url)).database
    if not database or database == ":memory:":
        return None
    handle = open(f"{os.path.abspath(database)}.serve-lock", "a")  # noqa: SIM115 - held
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise RuntimeError(
            f"another palio serve is using {database}: SQLite serves one process; use "
            "PostgreSQL (--db postgresql+psycopg://...) for several") from None
    return handle


class Server:
    """The parts of one running application, started and stopped by its lifespan."""

    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock = clock or clock_from_env()
        self.service: GameService
        self.hub: Hub
        self.bots: BotRunner
        self.listener: Listener | None = None
        self.claims: Any = None
        self.lock_file: Any = None
        self.mailer: asyncio.Task[None] | None = None
        self.sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        settings = self.settings
        logs.install()
        if not settings.shared_database:
            self.lock_file = sqlite_single_process(settings.db)
        self.service = await run_in_threadpool(
            lambda: GameService(settings.db, games_per_minute=settings.games_per_minute,
                                bot_seconds=settings.bot_seconds, clock=self.clock,
                                limits=timing.Limits(settings.open_expiry_hours,
                                                     settings.idle_days)))
        # the rated tables' accounts are rated in the transaction that finishes a game
        self.service.finish_hooks.append(ratings.rate_finished)
        # a tournament table's places are its result, written in the same transaction
        self.tournaments = Tournaments(self.service,
                                       settings.public_url if settings.smtp else None)
        self.service.finish_hooks.append(self.tournaments.game_finished)
        self.accounts = AccountStore(self.service.sessions, self.clock,
                                     settings.sign_ups_per_hour)
        self.hub = Hub(self.service)
        self.loop = asyncio.get_running_loop()
        # a new table (a tournament's round or arena table) told to its accounts' open pages:
        # from this process's commits on SQLite, from every process's NOTIFY on PostgreSQL
        if not settings.shared_database:
            self.service.seated_hooks.append(self.seated)
        self.chat = chat.ChatPush(self.service, self.hub)
        self.claims = PostgresClaims(settings.db) if settings.shared_database else LocalClaims()
        self.bots = BotRunner(self.service, self.claims, processes=settings.bot_processes,
                              delay=settings.bot_delay, max_seconds=settings.bot_seconds,
                              on_move=self.changed)
        if settings.shared_database:
            self.listener = Listener(settings.db, self.notified, self.reconnected,
                                     on_chat=self.chat_posted,
                                     on_signout=self.signed_out_elsewhere,
                                     on_seated=self.hub.seated)
            self.listener.start()
            await asyncio.wait_for(self.listener.ready.wait(), 30)
        self.bots.start()
        self.reviews = reviews_api.ReviewRunner(reviews_api.ReviewService(self.service),
                                                settings.db)
        self.reviews.start()
        if settings.smtp:
            self.start_mail()
        # games with a bot to move resume by themselves (each process tries; claims decide)
        self.bots.resume_all(await run_in_threadpool(self.service.bot_turns))
        self.sweeper = asyncio.get_running_loop().create_task(self.sweep_deadlines())

    async def sweep_deadlines(self) -> None:
        """Every ``deadline_sweep`` seconds: act on the deadlines that came (timing.py; of
        several processes, one acts on each), then push and let the new bots play."""
        failures = outage.LoopOutage("the deadline sweep", log)
        while True:
            await asyncio.sleep(self.settings.deadline_sweep)
            try:
                for game_id in await run_in_threadpool(timing.sweep, self.service):
                    self.changed(game_id)
                # tournaments starting, rounds to pair (each created once: tournaments/)
                for game_id in await run_in_threadpool(self.tournaments.sweep):
                    self.changed(game_id)
                failures.worked()
            except Exception as exc:  # a database outage: one line (base/outage.py)
                failures.failed(exc)

    def start_mail(self) -> None:
        """Turn mails (palio.server.mail.turns): queued with each move, sent by this process's
        mailer, which also records which seats' pages are open here."""
        settings = self.settings
        turns = TurnMails(self.clock, settings.public_url, settings.mail_hours, self.service)
        self.service.move_hooks.append(turns.after_move)
        mailer = Mailer(self.service.sessions, self.clock, SmtpTarget.parse(settings.smtp),
                        settings.mail_from, still_due=turns.still_due)

        def open_pages() -> list[tuple[str, int]]:
            return [(game_id, viewer.seat) for game_id, viewers in self.hub.viewers.items()
                    for viewer in viewers if viewer.seat is not None]

        self.mailer = asyncio.get_running_loop().create_task(mailer.run(2.0, open_pages))

    async def stop(self) -> None:
        await self.reviews.close()
        if self.mailer is not None:
            self.mailer.cancel()
        if self.sweeper is not None:
            self.sweeper.cancel()
        await self.bots.close()
        await self.chat.close()
        await self.hub.close()
        if self.listener is not None:
            await self.listener.close()
        await self.claims.close()
        self.service.close()
        if self.lock_file is not None:
            self.lock_file.close()

    def changed(self, game_id: str) -> None:
        """A change committed here: push it to this process's clients, let a bot move."""
        self.hub.changed(game_id)
        self.bots.kick(game_id)

    def seated(self, game_id: str, accounts: list[int | None]) -> None:
        """A new table's transaction committed here (a worker thread): tell its accounts'
        pages, on the event loop."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.hub.seated, game_id, accounts)

    def notified(self, game_id: str, revision: int) -> None:
        """A change committed by any process (this one included): push it if not yet."""
        if self.hub.watching(game_id) and not self.hub.known(game_id, revision):
            self.hub.changed(game_id, elsewhere=True, revision=revision)

    def reconnected(self) -> None:
        """Notifications may have been missed: push every watched game again."""
        for game_id in list(self.hub.viewers):
            self.hub.changed(game_id, elsewhere=True)
            self.chat.changed(game_id)

    def chat_posted(self, game_id: str) -> None:
        """A chat message committed (here, or in another process): push it (chat.py)."""
        self.chat.changed(game_id)

    async def signed_out(self, session: str) -> None:
        """A browser signed out here: the connections its session opened here close now
        (other processes hear it through NOTIFY: ``signed_out_elsewhere``)."""
        await self.hub.sign_out(session)

    def signed_out_elsewhere(self, session: str) -> None:
        asyncio.get_running_loop().create_task(self.hub.sign_out(session))

    async def viewer_joined(self, viewer: Viewer) -> None:
        """A page started watching a table: it gets the table's chat too."""
        await self.chat.joined(viewer)

    def viewer_reseated(self, game_id: str) -> None:
        """A page now watches as a seat: it may read chat it could not as a spectator."""
        self.chat.changed(game_id)

    async def claim_seats(self, account: Account, claims: list[Claim]) -> list[dict[str, Any]]:
        """At sign-up or sign-in: the guest seats this browser held become the account's."""
        claimed = await run_in_threadpool(account_seats.claim_seats, self.service, account,
                                          claims)
        for game_id in {c["game"] for c in claimed}:
            self.changed(game_id)
        return claimed


FREEZE_AFTER_S = 1.0  # seconds from the end of the start to freeze_heap (palio serve)


def freeze_heap() -> None:
    """Leave what the start made out of the cyclic garbage collector's future passes: a full
    pass over every object the process holds (modules, the framework, the catalogs, each
    game's cached copy) stops the event loop, and the start's objects, which live as long as
    the process, were most of them: 120,000 of the 150,000 to 200,000 objects of a server
    with 100 tables, which made each full pass 50 to 200 ms (docs/performance.md). The
    start's garbage is collected first, so none of it is kept for good; the collector is
    then on again (``palio serve`` turns it off for its start: the passes it made while the
    start built its objects cost 50-70 ms of CPU, and this one pass, about 0.1 s, comes a
    second after the start, not before the first answer). Only for a process that serves
    (``palio serve``), not for the many applications of one test process."""
    gc.collect()
    gc.freeze()
    gc.enable()


def create_app(settings: Settings | str, bot_delay: float | None = None,
               clock: Clock | None = None, *, serving: bool = False) -> FastAPI:
    """The application. ``create_app(Settings(...))``; a database URL alone (and a bot delay)
    is kept for tests that need nothing else. ``clock``: a test's clock (default: the
    system's, or ``PALIO_CLOCK_FILE``'s; see palio.server.base.clock). ``serving``: the
    process serves this one application for its life (``palio serve``): once started, its
    heap is frozen (:func:`freeze_heap`)."""
    if isinstance(settings, str):
        settings = Settings(db=settings, bot_delay=0.3 if bot_delay is None else bot_delay)
    server = Server(settings, clock)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202 - FastAPI's own type
        await server.start()
        state = app.state
        state.service, state.hub, state.server = server.service, server.hub, server
        state.accounts = server.accounts
        state.tournaments = server.tournaments
        state.account_hooks = accounts_routes.Hooks(
            claim_seats=server.claim_seats, signed_out=server.signed_out,
            profile_parts=[ratings_routes.profile_part(server.service),
                           account_seats.profile_part(server.service),
                           tournaments_routes.profile_part(server.tournaments)])
        if serving:  # just after the start, so that its first answer does not wait for it
            server.loop.call_later(FREEZE_AFTER_S, freeze_heap)
        yield
        await server.stop()

    app = FastAPI(title="Palio", lifespan=lifespan, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    # the tables' REST routes and WebSocket push first: a request is matched against the
    # routes in order, and finding a move's POST behind the routers below took 69 microseconds
    # of CPU (14 now, docs/performance.md); none of theirs can match a path of these, so no
    # answer changes (tests/server/test_app.py)
    play_routes.install(app, server)
    app.include_router(pages.router)  # the clients' words, the favicon (base/pages.py)
    app.include_router(play_pages.router)  # the lobby, a table's page, its replay
    app.include_router(rules.router)  # the rules pages
    app.include_router(mail.router)  # the page that stops turn mails
    app.include_router(ratings_routes.router)  # leaderboards and seats' ratings
    app.include_router(accounts_routes.router)  # sign-up, sign-in, profiles
    app.include_router(account_seats.router)  # an account's games
    app.include_router(tournaments_routes.router)  # tournaments: the API and the pages
    app.add_middleware(OriginCheck)  # CSRF: signed-in writes from our own pages only

    def service() -> GameService:
        return server.service

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)

    # a database outage: 503 with Retry-After and one log line; reads retried once (outage.py)
    app.add_exception_handler(DBAPIError, outage.database_unavailable)
    app.add_middleware(outage.RetryReads)

    @app.exception_handler(ClientDisconnect)
    async def client_left(request: Request, _exc: ClientDisconnect) -> Response:
        # the client went away before its body arrived: one line, nothing changed, and an
        # answer nobody reads (no traceback: it is the client's doing, not the server's)
        log.warning("client disconnected during %s %s before its body arrived",
                    request.method, request.url.path)
        return Response(status_code=400)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, _exc: Exception) -> JSONResponse:
        # JSON like every other error; the exception itself (which may name hidden state) goes
        # only to the server log, where Starlette re-raises it after this response
        return error(500, "internal_error", "the server failed on this request; reload the view")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and pages.wants_page(request):
            return pages.error_page(request, 404, "not_found")  # a person's mistyped address
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return error(exc.status_code, code, str(exc.detail))

    chat.install(app, lambda game_id, request: play_routes.seat_of(server.service, game_id,
                                                                   request),
                 server.chat_posted)  # POST and GET /api/games/{id}/chat
    reviews_api.install(app, server)  # reviews of finished games, hints (server/review.py)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app



def app_from_env() -> FastAPI:
    """The application of one ``palio serve --workers N`` process (uvicorn's factory)."""
    die_with_parent()  # a killed supervisor must not leave its workers on the port
    gc.disable()  # until the start is done (freeze_heap)
    return create_app(Settings.from_env(), serving=True)
