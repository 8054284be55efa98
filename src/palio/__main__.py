"""``python -m palio`` runs the command line."""

from palio.cli import app

app()
