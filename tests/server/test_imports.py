"""Importing the server application loads no bot, no numpy, no review engine and no Markdown
parser: those are imported where first used (a bot seat, a review or hint, a rules page), so a
server start and every ``--workers`` process stay cheap (issue 34: at most 0.5 CPU-s); nor the
confusables table, Babel or openskill (a name's check, a catalog, a rating)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import palio.review
from palio.server.play.service import hints_allowed

# and, lighter, what a server needs only at a first use: a name checked for look-alikes, a
# catalog read, a rating (issue 34: ~0.02 CPU-s together)
HEAVY = ("numpy", "palio.bots", "palio.review", "markdown_it", "confusable_homoglyphs",
         "babel", "openskill")


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


def test_the_play_concerns_hint_rule_is_the_review_engines() -> None:
    """play keeps its own copy of the two-line rule (palio.review imports numpy): the same
    answer for every table, and for a row from before the columns existed."""
    for practice, rated in itertools.product((False, True), repeat=2):
        row = SimpleNamespace(practice=practice, rated=rated)
        assert hints_allowed(row) == palio.review.hints_allowed(row)
    assert hints_allowed(SimpleNamespace()) == palio.review.hints_allowed(SimpleNamespace())
