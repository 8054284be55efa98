"""Importing the server application loads no bot, no numpy, no review engine and no Markdown
parser: those are imported where first used (a bot seat, a review or hint, a rules page), so a
server start and every ``--workers`` process stay cheap (issue 34: at most 0.5 CPU-s); nor the
confusables table, Babel or openskill (a name's check, a catalog, a rating); nor the process
pools' multiprocessing (a bot's first move, a review) or the tournaments' pairing (a round
paired). Nor does it build a request body's validator or JSON schema (a request, the OpenAPI
page)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import palio.review
from palio.server.accounts.store import SignUp
from palio.server.app import create_app
from palio.server.base.settings import Settings
from palio.server.chat.chat import Chat
from palio.server.play.models import Act, CreateGame
from palio.server.play.service import hints_allowed

# and, lighter, what a server needs only at a first use: a name checked for look-alikes, a
# catalog read, a rating (issue 34: ~0.02 CPU-s together)
HEAVY = ("numpy", "palio.bots", "palio.review", "markdown_it", "confusable_homoglyphs",
         "babel", "openskill",
         # ~4 ms each (issue 34 §2): the pools' processes, the pairing's searches and audit
         "multiprocessing", "concurrent.futures.process", "palio.tournament.pairing",
         "palio.tournament.sizes", "palio.tournament.audit")

# a body model's validator, built when the class was made until issue 34 §2: now at its first
# use (models.Body's defer_build), its JSON schema when the OpenAPI page is first asked for
BODIES = ("palio.server.accounts.store:SignUp", "palio.server.accounts.store:SignIn",
          "palio.server.accounts.store:ChangeSettings", "palio.server.play.models:CreateGame",
          "palio.server.play.models:Act", "palio.server.play.models:ListGames",
          "palio.server.chat.chat:Chat", "palio.server.play.seating:SeatToBot")


def test_importing_the_server_app_loads_no_heavy_module() -> None:
    code = ("import json, sys; import palio.server.app; "
            f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_building_the_app_loads_no_heavy_module(tmp_path: object) -> None:
    """Not the import only: building the application (routes, hooks) imports none either."""
    code = ("import json, sys\n"
            "from palio.server.app import create_app\n"
            "from palio.server.base.settings import Settings\n"
            f"create_app(Settings(db='sqlite:///{tmp_path}/x.db'))\n"
            f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def _built_bodies(build: str) -> list[str]:
    """In a fresh process: after ``build``, the body models whose validator is built."""
    code = ("import importlib, json\n" + build +
            f"\nbodies = {list(BODIES)!r}\n"
            "def complete(name):\n"
            "    module, _, attribute = name.partition(':')\n"
            "    return getattr(importlib.import_module(module), attribute)"
            ".__pydantic_complete__\n"
            "print(json.dumps([name for name in bodies if complete(name)]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_neither_import_nor_build_makes_a_body_models_validator(tmp_path: object) -> None:
    """The app built, its bodies still unbuilt; the OpenAPI page then builds those it shows
    (the check can fail: a body made at import, or a schema asked for by a route's making)."""
    app = ("from palio.server.app import create_app\n"
           "from palio.server.base.settings import Settings\n"
           f"app = create_app(Settings(db='sqlite:///{tmp_path}/x.db'))")
    assert _built_bodies(app) == []
    shown = _built_bodies(app + "\napp.openapi()")
    assert "palio.server.accounts.store:SignUp" in shown
    assert "palio.server.chat.chat:Chat" in shown
    assert "palio.server.play.models:ListGames" not in shown  # a query, not a body: no schema


def test_the_openapi_page_shows_each_body_read_by_hand(tmp_path: Path) -> None:
    """Each route that reads its body itself (``json_body``) still shows the body's schema
    on the OpenAPI page, made there from the model (``base.http.BodySchema``)."""
    document = create_app(Settings(db=f"sqlite:///{tmp_path}/x.db")).openapi()
    for path, model in (("/api/accounts", SignUp), ("/api/games", CreateGame),
                        ("/api/games/{game_id}/actions", Act),
                        ("/api/games/{game_id}/chat", Chat)):
        body = document["paths"][path]["post"]["requestBody"]
        assert body["required"] is True
        shown = body["content"]["application/json"]["schema"]  # as FastAPI's model keeps it
        assert shown["title"] == model.__name__
        assert shown["properties"].keys() == model.model_json_schema()["properties"].keys()
    # the schema is made once, then kept: a route's mapping is read again, not remade
    extra = next(route.openapi_extra for route in create_app(
        Settings(db=f"sqlite:///{tmp_path}/y.db")).routes
        if getattr(route, "path", "") == "/api/games" and "POST" in route.methods)
    assert extra["requestBody"] is extra["requestBody"]


def test_the_play_concerns_hint_rule_is_the_review_engines() -> None:
    """play keeps its own copy of the two-line rule (palio.review imports numpy): the same
    answer for every table, and for a row from before the columns existed."""
    for practice, rated in itertools.product((False, True), repeat=2):
        row = SimpleNamespace(practice=practice, rated=rated)
        assert hints_allowed(row) == palio.review.hints_allowed(row)
    assert hints_allowed(SimpleNamespace()) == palio.review.hints_allowed(SimpleNamespace())
