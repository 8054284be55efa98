"""``palio serve``: the web server."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="port to listen on"),
    db: str = typer.Option(
        "sqlite:///palio.db", "--db",
        help="SQLAlchemy database URL; the default is the SQLite file ./palio.db in the current "
        "directory; PostgreSQL: postgresql+psycopg://user:pass@host/dbname",
    ),
    bot_delay: float = typer.Option(0.3, "--bot-delay", min=0.0,
                                    help="seconds a bot waits before each move"),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level"),
) -> None:
    """Serve the web API, live push and the browser pages; bots play their seats."""
    import uvicorn

    from palio.server.app import create_app

    uvicorn.run(create_app(db, bot_delay=bot_delay), host=host, port=port, log_level=log_level)
