"""The tables' pages: the lobby, a table's page and its replay (static files; an unknown game
or a wrong seat token gets an error page a person can read)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from palio.server.base.errors import ApiError
from palio.server.base.pages import error_page, static_page

router = APIRouter()


@router.get("/", include_in_schema=False)
async def lobby() -> Any:
    return static_page("index.html")


async def _game_or_error(request: Request, game_id: str, check_token: bool) -> Response | None:
    """An error page when the game does not exist or the token opens no seat of it."""
    service = request.app.state.service
    try:
        live = await run_in_threadpool(service.get, game_id)
        if check_token:
            live.seat_of_token(request.query_params.get("token"))
    except ApiError as exc:
        if exc.code == "bad_token":
            return error_page(request, 403, "bad_token", game_id=game_id, watch=True)
        return error_page(request, 404, "no_such_game")
    return None


@router.get("/games/{game_id}", include_in_schema=False)
async def game_page(game_id: str, request: Request) -> Any:
    return await _game_or_error(request, game_id, check_token=True) or static_page("game.html")


@router.get("/games/{game_id}/replay", include_in_schema=False)
async def replay_page(game_id: str, request: Request) -> Any:
    return await _game_or_error(request, game_id, check_token=False) or static_page("replay.html")
