"""The accounts' routes: sign-up, sign-in and out, one's own settings, and a player's public
profile (``/api/players/{name}``, ``/players/{name}``, ``/profile``).

Two things belong to concerns above this one and reach it through :class:`Hooks`, which the
composition root fills: making a browser's guest seats the account's own at sign-up or
sign-in (the tables' concern), and the parts of a profile (the tables' games, the ratings)."""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from palio.server.accounts.store import (
    PRIVATE,
    SESSION_COOKIE,
    Account,
    ChangeSettings,
    Claim,
    SignIn,
    SignUp,
    TooManyAttempts,
    token_hash,
    too_many,
)
from palio.server.accounts.web import (
    clear_session_cookie,
    required,
    set_session_cookie,
    store,
)
from palio.server.base.errors import ApiError
from palio.server.base.http import body_as, client_address, schema
from palio.server.base.pages import error_page, page_language, say, shell, static_page


@dataclass(frozen=True)
class ProfilePart:
    """A part of a player's profile that another concern provides: ``key`` in the JSON,
    ``data(account_id)`` (blocking) and ``html(lang, data)`` (a page section, escaped)."""

    key: str
    data: Callable[[int], Any]
    html: Callable[[str, Any], str]


@dataclass
class Hooks:
    """What concerns above the accounts add to them (set by the composition root)."""

    claim_seats: Callable[[Account, list[Claim]], Awaitable[list[dict[str, Any]]]] | None = None
    profile_parts: list[ProfilePart] = field(default_factory=list)
    # a session ended (its token's hash): its open connections close (the WebSocket push)
    signed_out: Callable[[str], Awaitable[None]] | None = None


def hooks(connection: HTTPConnection) -> Hooks:
    return getattr(connection.app.state, "account_hooks", None) or Hooks()


def public_profile(connection: HTTPConnection, name: str) -> dict[str, Any]:
    """A player's public page: the name, and each part other concerns add (blocking)."""
    accounts = store(connection)
    account = accounts.by_name(name) if len(name) <= 64 else None
    if account is None:
        raise ApiError(404, "no_such_player", "there is no such player")
    return {"name": account.name,
            **{part.key: part.data(account.id) for part in hooks(connection).profile_parts}}


router = APIRouter()


async def _claim(request: Request, account: Account, claims: list[Claim] | None) -> list[Any]:
    """The guest seats this browser held, made the account's own by the tables' concern
    (``hooks.claim_seats``, registered by the composition root)."""
    claim_seats = hooks(request).claim_seats
    if not claims or claim_seats is None:
        return []
    return await claim_seats(account, claims)


def _signed_in_reply(request: Request, account: Account, token: str, claimed: list[Any],
                     status: int = 200) -> JSONResponse:
    response = JSONResponse({**account.public(), "claimed": claimed}, status_code=status,
                            headers=PRIVATE)
    set_session_cookie(response, request, token)
    return response


@router.post("/api/accounts", status_code=201, tags=["accounts"], openapi_extra=schema(SignUp))
async def sign_up(request: Request) -> Any:
    """Sign up (and in). ``claim``: the guest seats held in this browser, kept as the
    account's seats."""
    body = await body_as(SignUp, request)
    accounts = store(request)
    try:
        account = await run_in_threadpool(accounts.create, body.name, body.password,
                                          body.email, body.lang, client_address(request))
    except TooManyAttempts as exc:
        return too_many(exc)
    token = await run_in_threadpool(accounts.start_session, account)
    claimed = await _claim(request, account, body.claim)
    return _signed_in_reply(request, account, token, claimed, 201)


@router.post("/api/session", tags=["accounts"], openapi_extra=schema(SignIn))
async def sign_in(request: Request) -> Any:
    body = await body_as(SignIn, request)
    accounts = store(request)
    try:
        account = await run_in_threadpool(accounts.sign_in, body.name, body.password,
                                          client_address(request))
    except TooManyAttempts as exc:
        return too_many(exc)
    old = request.cookies.get(SESSION_COOKIE)
    if old:  # a session the browser held before ends: only the new token opens one
        await run_in_threadpool(accounts.end_session, old)
    token = await run_in_threadpool(accounts.start_session, account)
    claimed = await _claim(request, account, body.claim)
    return _signed_in_reply(request, account, token, claimed)


@router.delete("/api/session", status_code=204, response_model=None, tags=["accounts"])
async def sign_out(request: Request) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await run_in_threadpool(store(request).end_session, token)
        if hooks(request).signed_out is not None:
            await hooks(request).signed_out(token_hash(token))
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


@router.get("/api/me", tags=["accounts"])
async def me(request: Request) -> Any:
    return JSONResponse((await required(request)).public(), headers=PRIVATE)


@router.patch("/api/me", tags=["accounts"], openapi_extra=schema(ChangeSettings))
async def change_me(request: Request) -> Any:
    account = await required(request)
    body = await body_as(ChangeSettings, request)
    try:
        changed, ended = await run_in_threadpool(store(request).change, account, body,
                                                 request.cookies.get(SESSION_COOKIE))
    except TooManyAttempts as exc:
        return too_many(exc)
    signed_out = hooks(request).signed_out
    for session in ended if signed_out is not None else []:  # their connections close too
        await signed_out(session)
    return JSONResponse(changed.public(), headers=PRIVATE)


@router.get("/api/players/{name}", tags=["accounts"])
async def player(name: str, request: Request) -> Any:
    return await run_in_threadpool(public_profile, request, name)


@router.get("/players/{name}", include_in_schema=False)
async def player_page(name: str, request: Request) -> Any:
    return await run_in_threadpool(player_html, request, name)


@router.get("/profile", include_in_schema=False)
async def profile_page() -> Any:
    return static_page("profile.html")


def player_html(request: Request, name: str) -> HTMLResponse:
    """``/players/{name}``: a player's public page (every text escaped)."""
    lang = page_language(request)
    try:
        profile = public_profile(request, name)
    except ApiError:
        return error_page(request, 404, "not_found")
    shown = html.escape(profile["name"])
    body = (f'<section class="panel player" id="player"><h2 id="player-name">{shown}</h2>'
            "</section>"
            + "".join(part.html(lang, profile[part.key])
                      for part in hooks(request).profile_parts))
    return HTMLResponse(shell(lang, say(lang, "accounts.profile.title", name=profile["name"]),
                              body))
