"""``palio users``: create, list, disable and reset-password against a server's database,
the password read from standard input; the accounts then sign in (or not) at a server on that
database, which needs no restart."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from palio.cli import app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from palio.server.app import create_app
from tests.server.conftest import database_url

runner = CliRunner()
ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


def users(db: str, *args: str, password: str | None = None) -> Any:
    return runner.invoke(app, ["users", *args, "--db", db],
                         input=None if password is None else password + "\n")


def sign_in(client: TestClient, name: str, password: str) -> int:
    return client.post("/api/session", json={"name": name, "password": password},
                       headers=ORIGIN).status_code


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_create_list_disable_and_reset(backend: str, tmp_path: Path) -> None:
    db = database_url(backend, tmp_path)
    made = users(db, "create", "Ada", "--email", "ada@example.org", password="first password")
    assert made.exit_code == 0, made.output
    assert "Ada" in made.output and "first password" not in made.output
    listed = users(db, "list")
    assert listed.exit_code == 0
    assert "Ada\tada@example.org\ten\tactive" in listed.output
    app_ = create_app(db, bot_delay=0.0)
    with TestClient(app_) as client:  # the server runs on while the commands change accounts
        assert sign_in(client, "Ada", "first password") == 200
        assert client.get("/api/me").status_code == 200
        reset = users(db, "reset-password", "ada", password="second password")
        assert reset.exit_code == 0, reset.output
        assert client.get("/api/me").status_code == 401  # its sessions ended
        assert sign_in(client, "Ada", "first password") == 401
        assert sign_in(client, "Ada", "second password") == 200
        disabled = users(db, "disable", "Ada")
        assert disabled.exit_code == 0, disabled.output
        assert client.get("/api/me").status_code == 401
        assert sign_in(client, "Ada", "second password") == 403
    assert "disabled" in users(db, "list").output


def test_clear_errors_and_a_non_zero_exit(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'palio.db'}"
    empty = users(db, "create", "Ada", password="")
    assert empty.exit_code != 0 and "password is empty" in empty.output
    short = users(db, "create", "Ada", password="short")
    assert short.exit_code != 0 and "at least 8" in short.output
    assert users(db, "list").output.strip() == "No accounts."  # nothing was made
    assert users(db, "create", "Ada", password="a good password").exit_code == 0
    taken = users(db, "create", "ADA", password="a good password")
    assert taken.exit_code != 0 and "taken" in taken.output
    for command in (["disable", "Nobody"], ["reset-password", "Nobody"]):
        result = users(db, *command, password="a good password")
        assert result.exit_code != 0 and "no account named Nobody" in result.output
    bad_email = users(db, "create", "Bea", "--email", "nope", password="a good password")
    assert bad_email.exit_code != 0 and "e-mail" in bad_email.output


def test_the_database_comes_from_palio_db_and_the_password_from_stdin(tmp_path: Path) -> None:
    """A real process: ``PALIO_DB`` as for ``palio serve``; the password is piped in, never
    an argument; Japanese words for a Japanese terminal."""
    env = {**os.environ, "PALIO_DB": f"sqlite:///{tmp_path / 'palio.db'}", "LANG": "ja_JP.UTF-8"}
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    made = subprocess.run([sys.executable, "-m", "palio", "users", "create", "Ada"],
                          input="piped password\n", capture_output=True, text=True, env=env,
                          timeout=120)
    assert made.returncode == 0, made.stderr
    assert "アカウント Ada を作成しました" in made.stdout
    listed = subprocess.run([sys.executable, "-m", "palio", "users", "list"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert "Ada" in listed.stdout and "有効" in listed.stdout
