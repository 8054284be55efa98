"""The FastAPI application: REST API, WebSocket push, bots, and the static pages.

Blocking work (database, replays, bots) runs in worker threads; the event loop only routes
requests and pushes views. After every change the hub pushes each connected seat its own view,
built from the state at push time, so a late push never shows an older position than an
earlier one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

import palio.games as registry
from palio.core.errors import OptionError
from palio.core.i18n import LANGUAGES, Translator, normalize_language
from palio.server import pages
from palio.server.service import (
    ApiError,
    GameService,
    LiveGame,
    bot_move,
    bot_names,
    fallback_move,
)

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024  # bytes; every body of this API is a few hundred
log = logging.getLogger("palio.server")


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def token_of(request: Request | WebSocket) -> str | None:
    header = request.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return request.query_params.get("token")


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


class Hub:
    """WebSocket connections per game, pushes, and the bots that play between pushes."""

    def __init__(self, service: GameService, bot_delay: float) -> None:
        self.service = service
        self.bot_delay = bot_delay
        # game id -> {id(websocket): (websocket, seat, language)}; a WebSocket is not hashable
        self.connections: dict[str, dict[int, tuple[WebSocket, int | None, str]]] = {}
        self.push_locks: dict[str, asyncio.Lock] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.bot_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="palio-bot")
        self.closing = False

    def lock_for(self, game_id: str) -> asyncio.Lock:
        return self.push_locks.setdefault(game_id, asyncio.Lock())

    def changed(self, game_id: str) -> None:
        """Push the new position to everyone watching, and let a bot move if it is its turn."""
        task = asyncio.get_running_loop().create_task(self.push(game_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self.kick_bot(game_id)

    async def push(self, game_id: str) -> None:
        async with self.lock_for(game_id):
            clients = list(self.connections.get(game_id, {}).values())
            if not clients:
                return
            live = await run_in_threadpool(self.service.get, game_id)
            readers = {(seat, lang) for _, seat, lang in clients}
            views = await run_in_threadpool(views_for, live, readers)
            for websocket, seat, lang in clients:
                await self.send(game_id, websocket, views[seat, lang])

    async def send(self, game_id: str, websocket: WebSocket, view: dict[str, Any]) -> None:
        try:
            await asyncio.wait_for(websocket.send_json({"type": "view", "view": view}), 10)
        except Exception:  # a gone or stuck client is dropped; it reconnects for a fresh view
            self.disconnect(game_id, websocket)

    async def connect(self, game_id: str, websocket: WebSocket, seat: int | None,
                      lang: str) -> None:
        async with self.lock_for(game_id):
            live = await run_in_threadpool(self.service.get, game_id)
            view = (await run_in_threadpool(views_for, live, {(seat, lang)}))[seat, lang]
            self.connections.setdefault(game_id, {})[id(websocket)] = (websocket, seat, lang)
            await self.send(game_id, websocket, view)

    def disconnect(self, game_id: str, websocket: WebSocket) -> None:
        self.connections.get(game_id, {}).pop(id(websocket), None)

    def kick_bot(self, game_id: str) -> None:
        if self.closing:
            return
        task = self.bot_tasks.get(game_id)
        if task is not None and not task.done():
            return
        self.bot_tasks[game_id] = asyncio.get_running_loop().create_task(self.play_bots(game_id))

    async def play_bots(self, game_id: str) -> None:
        """Let bots move while one is to move; each move persists and pushes like a person's."""
        loop = asyncio.get_running_loop()
        while not self.closing:
            turn = await run_in_threadpool(self.service.bot_to_move, game_id)
            if turn is None:
                return
            seat, level, state = turn
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            number = state.move_number
            seed = secrets.randbits(32)
            try:
                try:
                    notation = await loop.run_in_executor(
                        self.bot_pool, bot_move, level, state, seat, seed)
                except Exception:
                    log.exception("bot %s of game %s seat %s failed; playing a random move",
                                  level, game_id, seat)
                    notation = fallback_move(state, seed)
                move = partial(self.service.act, game_id, seat,
                               {"action": notation, "move_number": number}, bot=True)
                await loop.run_in_executor(self.bot_pool, move)
            except ApiError as exc:
                if exc.code == "stale_move":  # the position moved on (undo, restart): look again
                    continue
                log.error("bot of game %s seat %s failed: %s", game_id, seat, exc.message)
                return
            except Exception:
                log.exception("bot of game %s seat %s crashed", game_id, seat)
                return
            task = loop.create_task(self.push(game_id))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        self.closing = True
        for task in list(self.bot_tasks.values()):
            task.cancel()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)


def views_for(live: LiveGame, readers: set[tuple[int | None, str]]
              ) -> dict[tuple[int | None, str], dict[str, Any]]:
    """Each (seat, language)'s view, all of one position (built under the game's lock)."""
    with live.lock:
        return {(seat, lang): live.view(seat, lang) for seat, lang in readers}


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
    return {**game.legend(), "glossary": glossary, "lang": tr.lang}


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


def create_app(db_url: str, bot_delay: float = 0.3) -> FastAPI:
    service_box: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202 - FastAPI's own type
        service = await run_in_threadpool(GameService, db_url)
        hub = Hub(service, bot_delay)
        service_box["service"], service_box["hub"] = service, hub
        app.state.service, app.state.hub = service, hub
        for game_id in await run_in_threadpool(service.running_ids):
            hub.kick_bot(game_id)  # games with a bot to move resume by themselves
        yield
        await hub.close()
        service.close()

    app = FastAPI(title="Palio", lifespan=lifespan, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.include_router(pages.router)  # the pages, rules, the clients' words (pages.py)

    def service() -> GameService:
        return service_box["service"]

    def hub() -> Hub:
        return service_box["hub"]

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)

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
            raise ApiError(404, "no_such_game", f"there is no game type {game!r}") from None

    @app.get("/api/bots")
    async def get_bots() -> Any:
        return {"levels": bot_names()}

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> Any:
        body = await json_body(request)
        live = await run_in_threadpool(service().create, body)
        hub().changed(live.id)
        return JSONResponse(await run_in_threadpool(summary_of, live), status_code=201)

    @app.get("/api/games")
    async def list_games(status: str | None = None) -> Any:
        return JSONResponse(await run_in_threadpool(service().list_games, status))

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> Any:
        live = await run_in_threadpool(service().get, game_id)
        return JSONResponse(await run_in_threadpool(summary_of, live))

    @app.post("/api/games/{game_id}/seats/{seat}/join")
    async def join(game_id: str, seat: str, request: Request) -> Any:
        body = await json_body(request)
        if not (seat.isascii() and seat.isdigit() and len(seat) <= 4):
            raise ApiError(404, "no_such_seat", "a seat is a small number")
        live, token = await run_in_threadpool(service().join, game_id, int(seat), body)
        hub().changed(game_id)
        return {"seat": int(seat), "token": token, "url": f"/games/{live.id}?token={token}"}

    async def seat_of(game_id: str, request: Request) -> tuple[LiveGame, int | None]:
        live = await run_in_threadpool(service().get, game_id)
        return live, live.seat_of_token(token_of(request))

    @app.get("/api/games/{game_id}/view")
    async def view(game_id: str, request: Request) -> Any:
        live, seat = await seat_of(game_id, request)
        reader = (seat, language_of(request))
        return JSONResponse((await run_in_threadpool(views_for, live, {reader}))[reader])

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, request: Request) -> Any:
        live, seat = await seat_of(game_id, request)
        body = await json_body(request)
        await run_in_threadpool(service().act, game_id, seat, body)
        hub().changed(game_id)
        reader = (seat, language_of(request))
        return JSONResponse((await run_in_threadpool(views_for, live, {reader}))[reader])

    @app.post("/api/games/{game_id}/undo")
    async def undo(game_id: str, request: Request) -> Any:
        live, seat = await seat_of(game_id, request)
        body = await json_body(request)
        await run_in_threadpool(service().undo, game_id, seat, body)
        hub().changed(game_id)
        reader = (seat, language_of(request))
        return JSONResponse((await run_in_threadpool(views_for, live, {reader}))[reader])

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
        try:
            live = await run_in_threadpool(service().get, game_id)
            seat = live.seat_of_token(token_of(websocket))
        except ApiError as exc:
            await websocket.accept()
            await websocket.send_json({"type": "error", "error": {"code": exc.code,
                                                                  "message": exc.message}})
            await websocket.close(code=4000 + exc.status)
            return
        await websocket.accept()
        await hub().connect(game_id, websocket, seat, language_of(websocket))
        try:
            while True:
                await websocket.receive_text()  # clients need send nothing; pings are ignored
        except WebSocketDisconnect:
            pass
        finally:
            hub().disconnect(game_id, websocket)

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
