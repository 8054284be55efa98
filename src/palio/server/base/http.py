"""What every concern's routes read from a request and write back: the JSON error shape, the
bearer token, the client's address, the body (size-limited JSON, parsed into a model), the
reader's language, and the OpenAPI note of a body read this way."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Mapping
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect

from palio.core.i18n import normalize_language
from palio.server.base import models
from palio.server.base.errors import ApiError

MAX_BODY = 64 * 1024  # bytes; every body of this API is a few hundred
PRIVATE = {"Cache-Control": "private, no-store"}  # a seat's or an account's own: no cache keeps it


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


class BodySchema(Mapping[str, Any]):
    """A route's ``openapi_extra``: the request body's JSON schema for the OpenAPI page (the
    body is read by :func:`json_body`, which keeps the size limit and the error shape).

    Made when first read, that is when the OpenAPI document is first built (``GET
    /api/openapi.json``, which FastAPI then keeps), not when the route is made: the schema,
    and the model's validator under it (``models.Body`` defers its build), cost a server's
    start ~5 ms of CPU that most servers never need (issue 34). FastAPI only reads the
    mapping (``deep_dict_update``: its truth and ``items()``)."""

    def __init__(self, model: type[models.Body]) -> None:
        self.model = model
        self._made: dict[str, Any] | None = None

    def _schema(self) -> dict[str, Any]:
        if self._made is None:
            self._made = {"requestBody": {"required": True, "content": {
                "application/json": {"schema": self.model.model_json_schema()}}}}
        return self._made

    def __getitem__(self, key: str) -> Any:
        return self._schema()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._schema())

    def __len__(self) -> int:
        return len(self._schema())


def schema(model: type[models.Body]) -> Any:
    """``openapi_extra=schema(Model)``: a body read by :func:`json_body` (:class:`BodySchema`;
    typed ``Any`` because FastAPI's parameter says ``dict``, of which it reads only a
    mapping's part)."""
    return BodySchema(model)


def is_disconnect(exc: BaseException) -> bool:
    """The ways a connection ends under a sender or receiver: a normal event, not an error."""
    if isinstance(exc, WebSocketDisconnect | OSError | asyncio.CancelledError):
        return True
    # Starlette says "... once a close message has been sent" / "... after sending
    # 'websocket.close'" as RuntimeError (a subclass in newer versions)
    return isinstance(exc, RuntimeError) and "close" in str(exc).lower()
