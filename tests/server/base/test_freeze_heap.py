"""A serving process leaves its start's objects out of the garbage collector's passes
(``palio.server.app.freeze_heap``, docs/performance.md: the passes over them stopped the event
loop for 50-200 ms): once, just after the start, and only when the application is the
process's one (``serving``), never for a test's application."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import palio.server.app as app_module
from palio.server.app import create_app, freeze_heap


def test_freeze_heap_freezes_and_leaves_the_collector_on() -> None:
    was_enabled = gc.isenabled()
    gc.disable()  # as palio serve's start leaves it
    try:
        freeze_heap()
        assert gc.get_freeze_count() > 0
        assert gc.isenabled()
    finally:
        gc.unfreeze()  # this test process goes on collecting everything
        if not was_enabled:
            gc.disable()


@pytest.mark.parametrize(("serving", "freezes"), [(True, 1), (False, 0)])
def test_only_a_serving_app_freezes_after_its_start(
        serving: bool, freezes: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(app_module, "FREEZE_AFTER_S", 0.0)
    monkeypatch.setattr(app_module, "freeze_heap", lambda: calls.append("frozen"))
    app = create_app(f"sqlite:///{tmp_path / 'freeze.db'}", serving=serving)
    with TestClient(app) as client:
        # answering takes the event loop several turns: the freeze, due at once, has run
        assert client.get("/api/bots").status_code == 200
        assert client.get("/api/bots").status_code == 200
    assert calls == ["frozen"] * freezes
