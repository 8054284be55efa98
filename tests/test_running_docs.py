"""What a person running Palio reads and meets (issue 22, section 6): the README's test lines
use the venv's pytest, the server's lock file is ignored by git, and docs/server.md says what
the server does with big frames and when it sends score tables."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_runs_the_venvs_pytest():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"`([^`]*\bpytest\b[^`]*)`", text)
    commands += [line for line in re.findall(r"```sh\n(.*?)```", text, re.S)
                 for line in line.splitlines() if "pytest" in line]
    bare = [c for c in commands if re.match(r"\s*pytest\b", c)]
    assert not bare, f"a bare pytest needs the venv: {bare}"


@pytest.mark.skipif(shutil.which("git") is None, reason="no git")
def test_the_server_lock_beside_a_database_is_ignored_by_git():
    done = subprocess.run(["git", "check-ignore", "-q", "palio.db.serve-lock"], cwd=ROOT)
    assert done.returncode == 0, "palio.db.serve-lock is not ignored by git"


def test_server_doc_says_frame_limit_and_open_score_tables():
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    assert re.search(r"frame may be at most 64 KiB.*closes the sender's socket", text, re.S)
    assert re.search(r"`score_table`[^.]*sent during play", text)
