"""The accounts as every request sees them: who a session cookie signs in, the CSRF rule
(:class:`OriginCheck`) and the session cookie itself. Other concerns ask here who is signed in
(:func:`signed_in`, :func:`required`, :func:`websocket_account`), never the tables."""

from __future__ import annotations

from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from palio.server.accounts.store import (
    SESSION_COOKIE,
    SESSION_LIFETIME,
    SIGN_IN_PATHS,
    WRITES,
    Account,
    AccountStore,
)
from palio.server.base.errors import ApiError


def store(connection: HTTPConnection) -> AccountStore:
    """The application's account store (the composition root puts it in ``app.state``)."""
    return connection.app.state.accounts


def account_of(request_or_websocket: HTTPConnection) -> Account | None:
    """The account the request's session cookie signs in, or None. Blocking (a database
    read): from async code, call it through ``run_in_threadpool`` (or use :func:`signed_in`)."""
    token = request_or_websocket.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    return store(request_or_websocket).account_for_token(token)


async def signed_in(connection: HTTPConnection) -> Account | None:
    """:func:`account_of` off the event loop; no database read without a cookie."""
    if not connection.cookies.get(SESSION_COOKIE):
        return None
    return await run_in_threadpool(account_of, connection)


def own_origin(scope: dict[str, Any], headers: dict[str, str]) -> str | None:
    """``scheme://host`` of the server as this request reached it (the scheme as uvicorn
    gives it, which honours the proxy headers of trusted proxies)."""
    host = headers.get("host")
    if not host:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"),
                                                 scope.get("scheme", "http"))
    return f"{scheme}://{host}".lower()


def has_session_cookie(scope: dict[str, Any]) -> bool:
    """Would the request sign in by cookie? Read by the very parser the routes read it with
    (``palio_session =T`` or a second Cookie header must not slip past the check)."""
    return bool(HTTPConnection(scope).cookies.get(SESSION_COOKIE))


def origin_allowed(scope: dict[str, Any]) -> bool:
    """May this request act with its session cookie? Only when its Origin is our own."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    origin = headers.get("origin")
    return origin is not None and origin.lower() == own_origin(scope, headers)


class OriginCheck:
    """The CSRF rule, as ASGI middleware: a write (POST, PUT, PATCH, DELETE) that carries the
    session cookie is refused with 403 unless its ``Origin`` is the server's own; so is a
    sign-up or sign-in that names a foreign ``Origin``. Writes without the cookie (a guest's
    seat token) pass as before. WebSockets are checked where the cookie is used (push)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] in WRITES:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope["headers"]}
            cookie = has_session_cookie(scope)
            sign_in = scope["path"] in SIGN_IN_PATHS and "origin" in headers
            if (cookie or sign_in) and not origin_allowed(scope):
                response = JSONResponse({"error": {
                    "code": "bad_origin",
                    "message": "a signed-in write must come from this server's own pages"}},
                    status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def set_session_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=int(SESSION_LIFETIME.total_seconds()),
                        path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


async def required(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    return account


async def websocket_account(websocket: WebSocket) -> Account | None:
    """The account a WebSocket's session cookie signs in (None: no cookie, or none).
    ApiError 403 when the cookie would sign in but the Origin is foreign (CSRF)."""
    if not websocket.cookies.get(SESSION_COOKIE):
        return None
    if not origin_allowed(websocket.scope):
        raise ApiError(403, "bad_origin", "a signed-in connection must come from this "
                                          "server's own pages")
    return await signed_in(websocket)
