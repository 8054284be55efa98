"""The ``palio`` command line. Each area registers its commands from its own module.

A command's module is imported only when that command runs (or shows its own ``--help``):
importing them all cost every command, ``palio serve`` included, about 0.4 CPU-s (SQLAlchemy,
numpy, the bots) before it did anything (issue 34). ``palio --help`` lists the commands from
the table below; ``tests/test_cli_lazy.py`` checks that it agrees with each command's own help.
"""

from __future__ import annotations

import importlib
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

# command name -> (the module whose ``register(app)`` defines it, the one-line help that
# ``palio --help`` shows: the first paragraph of the command's own help), in the listed order
COMMANDS: dict[str, tuple[str, str]] = {
    "games": ("palio.cli.play", "List the games, or show one game's options and data."),
    "play": ("palio.cli.play",
             "Play a game in the terminal against bots, or watch bots play a whole game."),
    "replay": ("palio.cli.play",
               "Verify a game record by replaying it, and show the final position."),
    "serve": ("palio.cli.serve",
              "Serve the web API, live push and the browser pages; bots play their seats."),
    "simulate": ("palio.cli.sim", "Play many bot games in parallel; print win rates (95% "
                                  "Wilson), scores and ranks."),
    "arena": ("palio.cli.sim", "Round robin over seat arrangements; Bradley-Terry ratings with "
                               "bootstrap intervals."),
    "bench": ("palio.cli.bench", "Random playouts, copy cost and MCTS iterations per CPU-second "
                                 "of each game (and the learned bot's, with the network's cost "
                                 "per position, where a model ships), each figure measured for "
                                 "--seconds of CPU time so that the verdicts hold on a shared "
                                 "machine."),
    "train": ("palio.cli.train", "Train a policy-value network by self-play; its model file "
                                 "plays as bot 'learned'."),
    "models": ("palio.cli.train", "The model cards of the shipped models (or of the given "
                                  "files): what each one saw."),
    "review": ("palio.cli.review", "Review a finished game: each decision's loss in expected "
                                   "win share, the better choice."),
    "users": ("palio.cli.users", "Accounts of a server: list, create, disable, reset a password."),
    "tournament": ("palio.cli.tournament", "Tournaments: simulate pairings."),
}


def load_command(name: str) -> TyperCommand | TyperGroup:
    """The click command ``name``, as its module's ``register(app)`` defines it."""
    module, _ = COMMANDS[name]
    area = typer.Typer(add_completion=False)
    importlib.import_module(module).register(area)
    command = typer.main.get_group(area).commands.get(name)
    if command is None:
        raise RuntimeError(f"{module}.register defines no command {name!r}")
    return command


class LazyGroup(TyperGroup):
    """The ``palio`` group. Listing the commands (``palio --help``, the "did you mean" hint)
    uses stand-ins that carry only the name and the one-line help of ``COMMANDS``; the command
    that runs is resolved to the real one, importing its module then."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = {name: TyperCommand(name, short_help=short_help)
                         for name, (_, short_help) in COMMANDS.items()}

    def resolve_command(self, ctx: typer.Context, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        return name, (load_command(name) if name in COMMANDS else command), rest


app = typer.Typer(
    cls=LazyGroup,
    help="Palio: rules engines, bots, terminal and web play for European strategy games.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def main() -> None:
    # nothing to do before a command: a Typer with no registered command needs a callback to
    # be a group (and a docstring here would not be shown: the help above wins)
    return
