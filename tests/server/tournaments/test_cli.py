"""``palio tournament create``, ``list`` and ``show`` on a server's database (as ``palio
users``): what they write is what the server then runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from palio.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


def test_create_list_and_show(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'palio.db'}"
    made = runner.invoke(app, ["users", "create", "Ada", "--db", db],
                         input="correct horse battery\n")
    assert made.exit_code == 0, made.output
    created = runner.invoke(app, [
        "tournament", "create", "Club Cup", "--game", "tiletum", "--seats", "3", "--rounds",
        "3", "--organiser", "Ada", "--starts", "2030-01-01T10:00:00+00:00", "--bots",
        "--db", db])
    assert created.exit_code == 0, created.output
    assert "Tournament 1 (Club Cup) created." in created.output
    listed = runner.invoke(app, ["tournament", "list", "--db", db])
    assert listed.output.split("\t")[:4] == ["1", "Club Cup", "tiletum", "3"]
    shown = runner.invoke(app, ["tournament", "show", "1", "--json", "--db", db])
    detail = json.loads(shown.output)
    assert detail["status"] == "planned" and detail["bots"] is True
    assert detail["bot_level"] == "medium"  # none named: the level bots always had


def test_create_with_the_bots_level(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'palio.db'}"
    runner.invoke(app, ["users", "create", "Ada", "--db", db], input="correct horse battery\n")
    created = runner.invoke(app, [
        "tournament", "create", "Hard Cup", "--game", "tiletum", "--seats", "3", "--rounds",
        "3", "--organiser", "Ada", "--starts", "2030-01-01T10:00:00+00:00", "--bots",
        "--bot-level", "hard", "--db", db])
    assert created.exit_code == 0, created.output
    detail = json.loads(runner.invoke(app, ["tournament", "show", "1", "--json", "--db", db])
                        .output)
    assert detail["bots"] is True and detail["bot_level"] == "hard"
    assert detail["starts_at"] == "2030-01-01T10:00:00+00:00"


def test_an_arena_is_created_with_its_hours_and_no_rounds(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'palio.db'}"
    runner.invoke(app, ["users", "create", "Ada", "--db", db], input="correct horse battery\n")
    base = ["tournament", "create", "Evening Arena", "--game", "san-gimignano", "--seats", "2",
            "--format", "arena", "--organiser", "Ada", "--starts", "2030-01-01T18:00:00+00:00",
            "--db", db]
    without = runner.invoke(app, base)
    assert without.exit_code == 2 and "arena_hours" in without.output, without.output
    created = runner.invoke(app, [*base, "--arena-hours", "3"])
    assert created.exit_code == 0, created.output
    detail = json.loads(runner.invoke(app, ["tournament", "show", "1", "--json", "--db", db])
                        .output)
    assert detail["format"] == "arena" and detail["rounds_planned"] is None
    assert detail["ends_at"] == "2030-01-01T21:00:00+00:00"


@pytest.mark.parametrize(("args", "says"), [
    (["--seats", "7"], "players"),  # a table of seven
    (["--organiser", "Nobody"], "Nobody"),
    (["--starts", "2030-01-01T10:00:00"], "starts_at"),  # no zone
    (["--format", "arena"], "format"),  # an arena with rounds
    (["--arena-hours", "3"], "format"),  # hours for a swiss
    (["--bot-level", "nope"], "bot_level"),  # no such bot
])
def test_bad_input_is_refused_and_writes_nothing(tmp_path: Path, args: list[str],
                                                 says: str) -> None:
    db = f"sqlite:///{tmp_path / 'palio.db'}"
    runner.invoke(app, ["users", "create", "Ada", "--db", db], input="correct horse battery\n")
    given = {"--seats": "3", "--organiser": "Ada", "--starts": "2030-01-01T10:00:00+00:00",
             "--format": "swiss"}
    given.update(dict(zip(args[::2], args[1::2], strict=True)))
    refused = runner.invoke(app, ["tournament", "create", "Cup", "--game", "tiletum",
                                  "--rounds", "2", *[x for kv in given.items() for x in kv],
                                  "--db", db])
    assert refused.exit_code == 2 and says in refused.output, refused.output
    assert "No tournaments." in runner.invoke(app, ["tournament", "list", "--db", db]).output
