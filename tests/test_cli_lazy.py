"""The ``palio`` command line imports a command's module only when that command runs (issue 34:
importing them all cost every command, ``palio serve`` included, ~0.4 CPU-s of SQLAlchemy,
numpy and the bots). ``palio --help`` lists the commands from a table in ``palio.cli``; the
table must agree with what each module's ``register(app)`` defines."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys

import typer
import typer.main
from typer.testing import CliRunner

from palio.cli import COMMANDS, app, load_command

HEAVY = ("sqlalchemy", "fastapi", "numpy", "torch", "palio.server", "palio.bots", "uvicorn")


def one_line(help_text: str) -> str:
    """The first paragraph of a command's help, on one line: what ``palio --help`` shows."""
    return " ".join(inspect.cleandoc(help_text).split("\n\n")[0].split())


def test_listing_the_commands_imports_no_command_module() -> None:
    """In a fresh interpreter: import the command line and print ``palio --help`` as the
    ``palio`` script does; no command module, nothing heavy is loaded, every command listed."""
    code = ("import json, sys\n"
            "from typer.testing import CliRunner\n"
            "import palio.cli\n"
            "result = CliRunner().invoke(palio.cli.app, ['--help'], terminal_width=200)\n"
            "assert result.exit_code == 0, result.output\n"
            f"heavy = [m for m in {list(HEAVY)!r} if m in sys.modules]\n"
            "modules = sorted(m for m in sys.modules if m.startswith('palio.cli.'))\n"
            "print(json.dumps({'heavy': heavy, 'modules': modules, 'output': result.output}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["heavy"] == [] and seen["modules"] == []
    # each command with its one-line help, in the table's order
    lines = seen["output"].splitlines()
    rows = [next(i for i, line in enumerate(lines) if f" {name} " in line
                 and COMMANDS[name][1][:30] in line) for name in COMMANDS]
    assert rows == sorted(rows)


def test_the_table_agrees_with_each_modules_commands() -> None:
    """Each module defines exactly the commands the table gives it, and each command's own help
    begins with the table's one-line help: the table cannot drift from the modules."""
    for module in dict.fromkeys(module for module, _ in COMMANDS.values()):
        area = typer.Typer()
        importlib.import_module(module).register(area)
        defined = list(typer.main.get_group(area).commands)
        assert defined == [name for name, (owner, _) in COMMANDS.items() if owner == module]
    for name, (_, short_help) in COMMANDS.items():
        command = load_command(name)
        assert command.name == name
        assert one_line(command.short_help or command.help or "") == short_help, name


def test_a_command_runs_and_shows_its_own_help_after_loading() -> None:
    """``palio X --help`` is the real command's help (its options), and a mistyped command
    still gets the suggestion."""
    runner = CliRunner()
    result = runner.invoke(app, ["replay", "--help"], terminal_width=200)
    assert result.exit_code == 0 and "--log" in result.output
    result = runner.invoke(app, ["users", "--help"], terminal_width=200)
    assert result.exit_code == 0 and "reset-password" in result.output
    result = runner.invoke(app, ["plya"])
    assert result.exit_code == 2 and "Did you mean 'play'" in result.output
