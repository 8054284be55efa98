"""A person in the browser tests: a browser context signed in to a new account (its cookie)."""

from __future__ import annotations

import time
from typing import Any

PASSWORD = "correct horse battery"


class Person:
    """Signs up ``name`` in a context of its own; ``post`` and ``get`` call the API with its
    cookie (a write carries the server's own Origin, as its pages' writes do: the CSRF rule)."""

    def __init__(self, browser: Any, base: str, name: str, lang: str,
                 email: str | None = None, **context: Any) -> None:
        self.base, self.name, self.lang = base, name, lang
        self.context = browser.new_context(**context)
        self.errors: list[str] = []
        body = {"name": name, "password": PASSWORD, "lang": lang}
        if email is not None:
            body["email"] = email
        made = self.post("/api/accounts", body)
        assert made.status in (200, 201), made.text()

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.context.request.post(self.base + path, data=body,
                                         headers={"Origin": self.base})

    def get(self, path: str) -> Any:
        answer = self.context.request.get(self.base + path)
        assert answer.ok, answer.text()
        return answer.json()


def wait_for(check: Any, what: str, timeout: float = 30.0) -> Any:
    """Poll ``check`` every tenth of a second until it gives something true; that, or fail."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen in {timeout} s")
