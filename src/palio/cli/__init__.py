"""The ``palio`` command line. Each area registers its commands from its own module."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    help="Palio: rules engines, bots, terminal and web play for European strategy games.",
    no_args_is_help=True,
    add_completion=False,
)

# modules with a ``register(app)`` function; one line per area keeps merges trivial
COMMAND_MODULES = [
    "palio.cli.play",
    "palio.cli.serve",
    "palio.cli.sim",
    "palio.cli.bench",
    "palio.cli.train",
    "palio.cli.review",
    "palio.cli.users",
    "palio.cli.tournament",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)
