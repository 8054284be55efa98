"""The tables' routes: the catalog and legends, creating, listing and joining games, a seat's
view, moves, undo, leaving, records and replays (REST), and each table's WebSocket push.

They need the running server's parts (:class:`Host`: the game service, the push hub, the
clock, the settings) and tell it of every committed change (``changed``) and of every viewer
that joins or changes seat, so that the concerns above (the chat) can act on it without this
package knowing them."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable
from typing import Any, Protocol
from urllib.parse import urlencode

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

import palio.games as registry
from palio.core.errors import OptionError
from palio.core.i18n import LANGUAGES, Translator
from palio.server.accounts.store import PRIVATE, SESSION_COOKIE, token_hash
from palio.server.accounts.web import account_of, signed_in, websocket_account
from palio.server.base.clock import Clock
from palio.server.base.errors import ApiError
from palio.server.base.http import (
    body_as,
    client_address,
    is_disconnect,
    json_body,
    language_of,
    schema,
    token_of,
)
from palio.server.base.models import parse
from palio.server.base.settings import Settings
from palio.server.play import boardkey, models, seating, timing
from palio.server.play.account_seats import seat_of_account
from palio.server.play.push import AccountViewer, Hub, Viewer, abort, texts_for, with_now
from palio.server.play.service import GameService, LiveGame, bot_names

MAX_CLIENT_MESSAGE = 4096  # characters of a WebSocket message worth reading (an auth message)
log = logging.getLogger("palio.server")


class Host(Protocol):
    """What the tables' routes need of the running server (the composition root's Server)."""

    settings: Settings
    clock: Clock
    service: GameService
    hub: Hub

    def changed(self, game_id: str) -> None: ...

    def viewer_joined(self, viewer: Viewer) -> Awaitable[None]: ...

    def viewer_reseated(self, game_id: str) -> None: ...


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


async def seat_of(service: GameService, game_id: str, request: Request
                  ) -> tuple[LiveGame, int | None]:
    """The seat a token opens; without one, the seat the signed-in account holds (every
    route that acts for a seat asks here: actions, undo, chat, hints)."""
    live = await run_in_threadpool(service.get, game_id)
    token = token_of(request)
    if token:
        return live, live.seat_of_token(token)
    return live, seat_of_account(live, await signed_in(request))


def install(app: FastAPI, host: Host) -> None:
    """The tables' routes on ``app``."""

    def service() -> GameService:
        return host.service

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
        host.changed(live.id)
        created = await run_in_threadpool(summary_of, live)
        return JSONResponse({**created, "creator_token": creator_token}, status_code=201)

    @app.get("/api/games")
    async def list_games(request: Request) -> Any:
        """Newest first; ``status``, ``game``, ``limit`` (1-200, default 50) and ``before``
        (a game id: the page after it). The next page's URL is in the ``Link`` header."""
        # ``lang`` (the reader's language, accepted by every request) does not change the list
        given = {k: v for k, v in request.query_params.items() if k != "lang"}
        query = parse(models.ListGames, given, code="bad_query")
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
        account = await signed_in(request)  # signed in: the account's seat
        live, token = await run_in_threadpool(service().join, game_id, int(seat), body, account)
        host.changed(game_id)
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
        host.changed(game_id)
        return JSONResponse(await run_in_threadpool(summary_of, live))

    def view_response(text: str) -> Response:
        """A view's answer from its JSON text (the bytes JSONResponse would write), the
        server's time beside it: pages count the clocks down from it."""
        return Response(with_now(text, host.clock.now().isoformat()),
                        media_type="application/json",
                        headers=PRIVATE)  # a seat's view: kept by no cache

    async def view_reply(live: LiveGame, seat: int | None, request: Request) -> Response:
        reader = (seat, language_of(request))
        return view_response((await run_in_threadpool(texts_for, live, {reader}))[reader])

    def seat_in_thread(game_id: str, request: Request) -> tuple[LiveGame, int | None]:
        """:func:`seat_of`, for a caller already in a worker thread."""
        live = service().get(game_id)
        token = token_of(request)
        return live, (live.seat_of_token(token) if token
                      else seat_of_account(live, account_of(request)))

    def seat_view(game_id: str, request: Request) -> str:
        """The view of the seat the request opens, in one worker thread (seat_of and then
        view_reply, without a second hand over to a thread)."""
        live, seat = seat_in_thread(game_id, request)
        reader = (seat, language_of(request))
        return texts_for(live, {reader})[reader]

    @app.get("/api/games/{game_id}/view")
    async def view(game_id: str, request: Request) -> Any:
        return view_response(await run_in_threadpool(seat_view, game_id, request))

    def act_and_view(game_id: str, request: Request, body: Any, body_error: ApiError | None,
                     watching: set[Any]) -> str:
        """A move, and the mover's view after it, in one worker thread: the steps and the
        order of the answers of seat_of, body_as, service.act and view_reply, without a hand
        over to a worker thread between them (each hand over is CPU per move). The views of
        those ``watching`` are built here too (each once per position, as the push would), and
        serialised, so the push sends them from the event loop (push.Hub.build_cached) and
        the mover's answer and push share one serialisation. The seat is found once the move
        holds the game's row, from the newest seats (``act_as``): no read of the game first."""
        service()._cached(game_id)  # an unknown game's answer comes first
        token = token_of(request)
        account = None if token else account_of(request)
        if body_error is not None:
            raise body_error
        live, seat = service().act_as(
            game_id, lambda live: (live.seat_of_token(token) if token
                                   else seat_of_account(live, account)),
            parse(models.Act, body))
        reader = (seat, language_of(request))
        return texts_for(live, watching | {reader})[reader]

    @app.post("/api/games/{game_id}/actions", openapi_extra=schema(models.Act))
    async def act(game_id: str, request: Request) -> Any:
        try:  # read here, on the event loop; a bad body is answered after an unknown game
            body, body_error = await json_body(request), None
        except ApiError as exc:
            body, body_error = None, exc
        with host.hub.making_change(game_id):  # this route pushes the move itself
            text = await run_in_threadpool(act_and_view, game_id, request, body, body_error,
                                           host.hub.readers(game_id))
            host.changed(game_id)
        return view_response(text)

    @app.post("/api/games/{game_id}/undo", openapi_extra=schema(models.Undo))
    async def undo(game_id: str, request: Request) -> Any:
        live, seat = await seat_of(service(), game_id, request)
        body = await body_as(models.Undo, request)
        await run_in_threadpool(service().undo, game_id, seat, body)
        host.changed(game_id)
        return await view_reply(live, seat, request)

    @app.post("/api/games/{game_id}/seats/{seat}/leave")
    async def leave(game_id: str, seat: str, request: Request) -> Any:
        """The seat's player leaves a running table: the table's rule for leaving applies
        (timing.py). Only the seat's holder may."""
        if not (seat.isascii() and seat.isdigit() and len(seat) <= 4):
            raise ApiError(404, "no_such_seat", "a seat is a small number")
        live, holder = await seat_of(service(), game_id, request)
        if not 0 <= int(seat) < live.players:
            raise ApiError(404, "no_such_seat", f"seats of this game are 0-{live.players - 1}")
        await run_in_threadpool(timing.leave, service(), game_id, holder, int(seat))
        host.changed(game_id)
        return await view_reply(live, holder, request)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Any:
        return JSONResponse(await run_in_threadpool(service().record, game_id))

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request) -> Any:
        """A finished game's frames; a seat's token (or the account that held the seat) gets
        that seat's own view in every frame, its cards included; anyone else a spectator's."""
        try:
            _, seat = await seat_of(service(), game_id, request)
        except ApiError as exc:  # a token of another table (a page's old one): the public replay
            if exc.code != "bad_token":
                raise
            seat = None
        return JSONResponse(await run_in_threadpool(service().replay, game_id,
                                                    language_of(request), seat))

    # -- push -----------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def push(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            live = await run_in_threadpool(service().get, game_id)
            seat = live.seat_of_token(token_of(websocket))
            session = None
            if seat is None:  # a signed-in browser watches as its account's seat
                seat = seat_of_account(live, await websocket_account(websocket))
                if seat is not None:  # until that session ends
                    session = token_hash(websocket.cookies.get(SESSION_COOKIE, ""))
        except ApiError as exc:
            await refuse(websocket, exc)
            return
        viewer = Viewer(websocket, game_id, seat, language_of(websocket),
                        host.settings.push_timeout, host.hub.remove)
        viewer.session = session
        try:
            await host.viewer_joined(viewer)
            await host.hub.add(viewer)
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

    @app.websocket("/ws/me")
    async def account_push(websocket: WebSocket) -> None:
        """A signed-in account's page hears of each new table seating the account (a
        tournament's round, an arena's next table), made in any process, with no reload:
        first ``{"type": "hello", "name"}``, then ``{"type": "seated", "game", "seat"}`` per
        table. Without an account: 4401; an account's cookie from a foreign page: 4403."""
        await websocket.accept()
        try:
            account = await websocket_account(websocket)
            if account is None:
                raise ApiError(401, "not_signed_in", "sign in to hear of your new tables")
        except ApiError as exc:
            await refuse(websocket, exc)
            return
        session = token_hash(websocket.cookies.get(SESSION_COOKIE, ""))
        viewer = AccountViewer(websocket, account.id, session, language_of(websocket),
                               host.settings.push_timeout, host.hub.remove_account)
        try:
            # the hello is queued before the page is registered, and sent by the same sender:
            # no table made from here on is missed, and none is told before the hello
            viewer.tell(json.dumps({"type": "hello", "name": account.name}))
            host.hub.add_account(viewer)
            while not viewer.gone:  # nothing is read: the loop only sees the disconnect
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
        except Exception as exc:  # noqa: BLE001 - a connection ending is not a server error
            if not is_disconnect(exc):
                log.exception("WebSocket of account %s failed", account.id)
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
        await host.hub.send_current(viewer)
        host.viewer_reseated(viewer.game_id)  # a seat may read what it could not as spectator
        return True

    async def refuse(websocket: WebSocket, exc: ApiError) -> None:
        """Send the error, then close with 4000 + status (4403, 4404); never wait long."""
        message = {"type": "error", "error": {"code": exc.code, "message": exc.message}}
        try:
            await asyncio.wait_for(websocket.send_text(json.dumps(message)), host.settings.push_timeout)
            await asyncio.wait_for(websocket.close(code=4000 + exc.status), host.settings.push_timeout)
        except TimeoutError:
            abort(websocket)
        except Exception as error:  # noqa: BLE001
            if not is_disconnect(error):
                raise
