"""The FastAPI application: REST API, WebSocket push, bots, and the static pages.

Blocking work (database, replays, views) runs in worker threads and bots think in processes
of their own (``botplay``); the event loop only routes requests and hands views to each
connection's sender (``push``). Every change is committed, then pushed to the clients
watching the game in this process; on PostgreSQL the other processes hear of it through
LISTEN/NOTIFY (``cluster``) and push it to theirs.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import logging
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

import palio.games as registry
from palio.core.errors import OptionError
from palio.core.i18n import LANGUAGES, Translator, normalize_language
from palio.server import (
    accounts,
    boardkey,
    chat,
    logs,
    mail,
    models,
    outage,
    pages,
    ratings_api,
    seating,
    timing,
)
from palio.server import review as reviews_api
from palio.server.botplay import BotRunner
from palio.server.clock import Clock, clock_from_env
from palio.server.cluster import Listener, LocalClaims, PostgresClaims
from palio.server.db import normalize_url
from palio.server.errors import ApiError
from palio.server.mail import Mailer, SmtpTarget, TurnMails
from palio.server.push import Hub, Viewer, abort, views_for
from palio.server.service import GameService, LiveGame, bot_names
from palio.server.settings import Settings

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024  # bytes; every body of this API is a few hundred
MAX_CLIENT_MESSAGE = 4096  # characters of a WebSocket message worth reading (an auth message)
log = logging.getLogger("palio.server")


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def token_of(request: Request | WebSocket) -> str | None:
    """``Authorization: Bearer TOKEN`` first, then the ``?token=`` of older links."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return request.query_params.get("token")


def client_address(request: Request) -> str:
    """The client's address (uvicorn puts the proxy's X-Forwarded-For here when it trusts
    the proxy: ``--forwarded-allow-ips``)."""
    return request.client.host if request.client is not None else "unknown"


async def json_body(request: Request) -> Any:
    raw = b""
    async for chunk in request.stream():  # read no further than the limit
        raw += chunk
        if len(raw) > MAX_BODY:
            raise ApiError(413, "body_too_large", f"a request body is at most {MAX_BODY} bytes")
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # deep nesting: RecursionError
        raise ApiError(400, "bad_json", "the body is not valid JSON") from None


async def body_as(model: type[models.M], request: Request) -> models.M:
    return models.parse(model, await json_body(request))


def language_of(request: Request | WebSocket) -> str:
    """``?lang=`` first, then the browser's ``Accept-Language``; English otherwise."""
    return normalize_language(request.query_params.get("lang")
                              or request.headers.get("accept-language"))


def legend_of(game_id: str, lang: str) -> dict[str, Any]:
    """A game's printed tables, with every component's name and explanation in ``lang``."""
    game = registry.get(game_id)
    tr = Translator(lang)
    glossary = {entry.key: {"name": tr(entry.name), "text": tr(entry.text)}
                for entry in game.words.glossary()}
    # "key": what each symbol the board draws means (boardkey.py)
    return {**game.legend(), "glossary": glossary, "key": boardkey.key(game.info.id, tr),
            "lang": tr.lang}


def summary_of(live: LiveGame) -> dict[str, Any]:
    """Run in a worker thread: the game's lock may be held by a commit or a view for a while."""
    with live.lock:
        return live.summary()


def catalog() -> list[dict[str, Any]]:
    out = []
    for game_id, game in registry().items():
        info = game.info
        options = []
        for spec in info.options:
            choices = list(spec.choices)
            if set(choices) <= {False, True} and isinstance(spec.default, bool):
                kind = "bool"
            elif all(isinstance(c, int) and not isinstance(c, bool) for c in choices):
                kind = "int"
            else:
                kind = "choice"
            options.append({"name": spec.name, "kind": kind, "default": spec.default,
                            "choices": choices, "help": spec.description})
        out.append({"id": game_id, "name": info.name, "min_players": info.min_players,
                    "max_players": info.max_players, "options": options})
    return out


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
        self.hub = Hub(self.service)
        self.chat = chat.ChatPush(self.service, self.hub)
        self.claims = PostgresClaims(settings.db) if settings.shared_database else LocalClaims()
        self.bots = BotRunner(self.service, self.claims, processes=settings.bot_processes,
                              delay=settings.bot_delay, max_seconds=settings.bot_seconds,
                              on_move=self.changed)
        if settings.shared_database:
            self.listener = Listener(settings.db, self.notified, self.reconnected,
                                     on_chat=self.chat_posted)
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
        while True:
            await asyncio.sleep(self.settings.deadline_sweep)
            try:
                for game_id in await run_in_threadpool(timing.sweep, self.service):
                    self.changed(game_id)
            except Exception:
                log.exception("the deadline sweep failed; it tries again")

    def start_mail(self) -> None:
        """Turn mails (palio.server.mail): queued with each move, sent by this process's
        mailer, which also records which seats' pages are open here."""
        settings = self.settings
        turns = TurnMails(self.clock, settings.public_url, settings.mail_hours)
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

    def notified(self, game_id: str, revision: int) -> None:
        """A change committed by any process (this one included): push it if not yet."""
        if self.hub.watching(game_id) and not self.hub.known(game_id, revision):
            self.hub.changed(game_id)

    def reconnected(self) -> None:
        """Notifications may have been missed: push every watched game again."""
        for game_id in list(self.hub.viewers):
            self.hub.changed(game_id)
            self.chat.changed(game_id)

    def chat_posted(self, game_id: str) -> None:
        """A chat message committed (here, or in another process): push it (chat.py)."""
        self.chat.changed(game_id)


def create_app(settings: Settings | str, bot_delay: float | None = None,
               clock: Clock | None = None) -> FastAPI:
    """The application. ``create_app(Settings(...))``; a database URL alone (and a bot delay)
    is kept for tests that need nothing else. ``clock``: a test's clock (default: the
    system's, or ``PALIO_CLOCK_FILE``'s; see palio.server.clock)."""
    if isinstance(settings, str):
        settings = Settings(db=settings, bot_delay=0.3 if bot_delay is None else bot_delay)
    server = Server(settings, clock)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202 - FastAPI's own type
        await server.start()
        app.state.service, app.state.hub, app.state.server = server.service, server.hub, server
        yield
        await server.stop()

    app = FastAPI(title="Palio", lifespan=lifespan, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.include_router(pages.router)  # the pages, rules, the clients' words (pages.py)
    app.include_router(mail.router)  # the page that stops turn mails
    app.include_router(ratings_api.router)  # leaderboards and seats' ratings (ratings.py)
    app.include_router(accounts.router)  # sign-up, sign-in, profiles (accounts.py)
    app.add_middleware(accounts.OriginCheck)  # CSRF: signed-in writes from our own pages only

    def service() -> GameService:
        return server.service

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)

    # a database outage: 503 with Retry-After and one log line; reads retried once (outage.py)
    app.add_exception_handler(DBAPIError, outage.database_unavailable)
    app.add_middleware(outage.RetryReads)

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

    def schema(model: type[models.Body]) -> dict[str, Any]:
        """The request body's JSON schema for the OpenAPI page (the body is read by
        ``json_body``, which keeps the size limit and the error shape)."""
        return {"requestBody": {"required": True, "content": {
            "application/json": {"schema": model.model_json_schema()}}}}

    # -- REST ---------------------------------------------------------------------------
    @app.get("/api/catalog")
    async def get_catalog() -> Any:
        return await run_in_threadpool(catalog)

    @app.get("/api/languages")
    async def get_languages() -> Any:
        return LANGUAGES

    @app.get("/api/catalog/{game}/legend")
    async def get_legend(game: str, request: Request) -> Any:
        try:
            return await run_in_threadpool(legend_of, game, language_of(request))
        except OptionError:
            raise ApiError(404, "no_such_game", f"there is no game type {game[:64]!r}") from None

    @app.get("/api/bots")
    async def get_bots() -> Any:
        return {"levels": bot_names()}

    @app.post("/api/games", status_code=201, openapi_extra=schema(models.CreateGame))
    async def create_game(request: Request) -> Any:
        body = await body_as(models.CreateGame, request)
        # the creator's token: only this reply carries it (it gives empty seats to bots)
        creator_token, creator_hash = seating.new_creator_token()
        live = await run_in_threadpool(lambda: service().create(
            body, creator=client_address(request), creator_token=creator_hash))
        server.changed(live.id)
        created = await run_in_threadpool(summary_of, live)
        return JSONResponse({**created, "creator_token": creator_token}, status_code=201)

    @app.get("/api/games")
    async def list_games(request: Request) -> Any:
        """Newest first; ``status``, ``game``, ``limit`` (1-200, default 50) and ``before``
        (a game id: the page after it). The next page's URL is in the ``Link`` header."""
        # ``lang`` (the reader's language, accepted by every request) does not change the list
        given = {k: v for k, v in request.query_params.items() if k != "lang"}
        query = models.parse(models.ListGames, given, code="bad_query")
        page, after = await run_in_threadpool(service().list_games, query)
        headers = {}
        if after is not None:
            params = {k: v for k, v in query.model_dump().items() if v is not None}
            params["before"] = after
            headers["Link"] = f'</api/games?{urlencode(params)}>; rel="next"'
        return JSONResponse(page, headers=headers)

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> Any:
        live = await run_in_threadpool(service().get, game_id)
        return JSONResponse(await run_in_threadpool(summary_of, live))

    @app.post("/api/games/{game_id}/seats/{seat}/join", openapi_extra=schema(models.JoinSeat))
    async def join(game_id: str, seat: str, request: Request) -> Any:
        body = await body_as(models.JoinSeat, request)
        if not (seat.isascii() and seat.isdigit() and len(seat) <= 4):
            raise ApiError(404, "no_such_seat", "a seat is a small number")
        account = await accounts.signed_in(request)  # signed in: the account's seat
        live, token = await run_in_threadpool(service().join, game_id, int(seat), body, account)
        server.changed(game_id)
        if account is not None:  # the cookie opens the seat on any device
            return {"seat": int(seat), "token": token, "url": f"/games/{live.id}"}
        # the token travels in the fragment, which browsers never send to a server
        return {"seat": int(seat), "token": token, "url": f"/games/{live.id}#token={token}"}

    @app.post("/api/games/{game_id}/seats/{seat}/bot", openapi_extra=schema(seating.SeatToBot))
    async def seat_to_bot(game_id: str, seat: str, request: Request) -> Any:
        """The creator (the creator's token as the bearer) gives an empty seat to a bot."""
        body = await body_as(seating.SeatToBot, request)
        if not (seat.isascii() and seat.isdigit() and len(seat) <= 4):
            raise ApiError(404, "no_such_seat", "a seat is a small number")
        live = await run_in_threadpool(seating.give_to_bot, service(), game_id, int(seat),
                                       token_of(request), body)
        server.changed(game_id)
        return JSONResponse(await run_in_threadpool(summary_of, live))

    async def seat_of(game_id: str, request: Request) -> tuple[LiveGame, int | None]:
        """The seat a token opens; without one, the seat the signed-in account holds."""
        live = await run_in_threadpool(service().get, game_id)
        token = token_of(request)
        if token:
            return live, live.seat_of_token(token)
        return live, accounts.seat_of_account(live, await accounts.signed_in(request))

    chat.install(app, seat_of, server.chat_posted)  # POST and GET /api/games/{id}/chat

    async def view_reply(live: LiveGame, seat: int | None, request: Request) -> JSONResponse:
        reader = (seat, language_of(request))
        view = (await run_in_threadpool(views_for, live, {reader}))[reader]
        # the server's time beside the view: pages count the clocks down from it
        return JSONResponse({**view, "now": server.clock.now().isoformat()},
                            headers=accounts.PRIVATE)  # a seat's view: kept by no cache

    @app.get("/api/games/{game_id}/view")
    async def view(game_id: str, request: Request) -> Any:
        live, seat = await seat_of(game_id, request)
        return await view_reply(live, seat, request)

    @app.post("/api/games/{game_id}/actions", openapi_extra=schema(models.Act))
    async def act(game_id: str, request: Request) -> Any:
        live, seat = await seat_of(game_id, request)
        body = await body_as(models.Act, request)
        await run_in_threadpool(service().act, game_id, seat, body)
        server.changed(game_id)
        return await view_reply(live, seat, request)

    @app.post("/api/games/{game_id}/undo", openapi_extra=schema(models.Undo))
    async def undo(game_id: str, request: Request) -> Any:
        live, seat = await seat_of(game_id, request)
        body = await body_as(models.Undo, request)
        await run_in_threadpool(service().undo, game_id, seat, body)
        server.changed(game_id)
        return await view_reply(live, seat, request)

    @app.post("/api/games/{game_id}/seats/{seat}/leave")
    async def leave(game_id: str, seat: str, request: Request) -> Any:
        """The seat's player leaves a running table: the table's rule for leaving applies
        (timing.py). Only the seat's holder may."""
        if not (seat.isascii() and seat.isdigit() and len(seat) <= 4):
            raise ApiError(404, "no_such_seat", "a seat is a small number")
        live, holder = await seat_of(game_id, request)
        if not 0 <= int(seat) < live.players:
            raise ApiError(404, "no_such_seat", f"seats of this game are 0-{live.players - 1}")
        await run_in_threadpool(timing.leave, service(), game_id, holder, int(seat))
        server.changed(game_id)
        return await view_reply(live, holder, request)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Any:
        return JSONResponse(await run_in_threadpool(service().record, game_id))

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request) -> Any:
        return JSONResponse(await run_in_threadpool(service().replay, game_id,
                                                    language_of(request)))

    # -- push -----------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def push(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            live = await run_in_threadpool(service().get, game_id)
            seat = live.seat_of_token(token_of(websocket))
            if seat is None:  # a signed-in browser watches as its account's seat
                seat = await accounts.websocket_account_seat(websocket, live)
        except ApiError as exc:
            await refuse(websocket, exc)
            return
        viewer = Viewer(websocket, game_id, seat, language_of(websocket),
                        settings.push_timeout, server.hub.remove)
        try:
            await server.chat.joined(viewer)
            await server.hub.add(viewer)
            while not viewer.gone:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not await answer(websocket, viewer, message.get("text")):
                    break
        except Exception as exc:  # noqa: BLE001 - a connection ending is not a server error
            if not is_disconnect(exc):
                log.exception("WebSocket of game %s failed", game_id)
        finally:
            await viewer.close()

    async def answer(websocket: WebSocket, viewer: Viewer, text: str | None) -> bool:
        """Act on a client's message; False once the connection should end. The one message
        understood is ``{"type": "auth", "token": T}``: watch as T's seat from now on (a
        browser cannot set the Authorization header of a WebSocket, and a URL is logged).
        It counts once, on a connection that has no seat yet (each would cost a view).
        Anything else (binary frames, pings, text, a second auth) is ignored."""
        if text is None or len(text) > MAX_CLIENT_MESSAGE or viewer.seat is not None:
            return True
        try:
            message = json.loads(text)
        except ValueError:
            return True
        if not isinstance(message, dict) or message.get("type") != "auth":
            return True
        token = message.get("token")
        try:
            if not isinstance(token, str):
                raise ApiError(400, "bad_message", "an auth message needs a token string")
            live = await run_in_threadpool(service().get, viewer.game_id)
            seat = live.seat_of_token(token)
        except ApiError as exc:
            await viewer.close()
            await refuse(websocket, exc)
            return False
        viewer.reseat(seat)
        await server.hub.send_current(viewer)
        server.chat.changed(viewer.game_id)  # a seat may read what it could not as spectator
        return True

    async def refuse(websocket: WebSocket, exc: ApiError) -> None:
        """Send the error, then close with 4000 + status (4403, 4404); never wait long."""
        message = {"type": "error", "error": {"code": exc.code, "message": exc.message}}
        try:
            await asyncio.wait_for(websocket.send_text(json.dumps(message)), settings.push_timeout)
            await asyncio.wait_for(websocket.close(code=4000 + exc.status), settings.push_timeout)
        except TimeoutError:
            abort(websocket)
        except Exception as error:  # noqa: BLE001
            if not is_disconnect(error):
                raise

    reviews_api.install(app, server)  # reviews of finished games, hints (server/review.py)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


def is_disconnect(exc: BaseException) -> bool:
    """The ways a connection ends under a sender or receiver: a normal event, not an error."""
    from starlette.websockets import WebSocketDisconnect

    if isinstance(exc, WebSocketDisconnect | OSError | asyncio.CancelledError):
        return True
    # Starlette says "... once a close message has been sent" / "... after sending
    # 'websocket.close'" as RuntimeError (a subclass in newer versions)
    return isinstance(exc, RuntimeError) and "close" in str(exc).lower()


def app_from_env() -> FastAPI:
    """The application of one ``palio serve --workers N`` process (uvicorn's factory)."""
    from palio.server.lifeline import die_with_parent

    die_with_parent()  # a killed supervisor must not leave its workers on the port
    return create_app(Settings.from_env())
