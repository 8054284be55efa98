"""More browsers on one application that a ``with TestClient(app) as main`` block runs.

A ``TestClient`` that was not entered starts a fresh event loop, in a thread of its own, for
each request and each WebSocket. The application's own asyncio objects (the push's wake-up
events, its tasks) live on the loop that ran its start-up, so a request or socket served on
another loop sets them from the wrong thread: the waiting loop is never woken, and a socket
waits for a view forever (a test on PostgreSQL hung CI that way, now and then, under load).
A browser made here runs every request and socket on ``main``'s loop, as a served
application (uvicorn, one loop) does, with a cookie jar of its own."""

from __future__ import annotations

import warnings
from typing import Any

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def browser_of(main: TestClient, **options: Any) -> TestClient:
    """A new browser (its own cookies) on ``main``'s running application and event loop;
    ``options`` as for ``TestClient`` (``base_url``, ``client``...). Use it inside ``main``'s
    ``with`` block only."""
    if main.portal is None:
        raise RuntimeError("browser_of needs a TestClient inside its `with` block")
    options.setdefault("raise_server_exceptions", False)
    browser = TestClient(main.app, **options)
    # TestClient runs everything through its portal when it has one (set by `with`)
    browser.portal = main.portal
    return browser
