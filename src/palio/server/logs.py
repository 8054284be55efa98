"""Seat tokens work as passwords: no log line may hold one.

A token can appear in a URL (``?token=`` of an old link or client, ``#token=`` never reaches
the server) and uvicorn logs every request's path with its query: its access log, and its
"WebSocket ... [accepted]" lines. ``RedactTokens`` rewrites any ``token=...`` in a record
(message and arguments) to ``token=[redacted]``; ``install()`` puts it on the handlers of
the loggers that could carry one, so records propagated from child loggers pass it too.
"""

from __future__ import annotations

import logging
import re

TOKEN = re.compile(r"(token=)[^&\s\"'#]+", re.IGNORECASE)
REDACTED = r"\1[redacted]"
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "palio", "")


def redact(text: str) -> str:
    return TOKEN.sub(REDACTED, text)


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """Redacts the message and each argument in place, keeping their shape: uvicorn's access
    formatter unpacks the arguments (client, method, path, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _clean(arg) for key, arg in record.args.items()}
        return True


def install() -> None:
    """Add the filter to the loggers and every handler they have now (idempotent)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        targets = [logger, *logger.handlers]
        for target in targets:
            if not any(isinstance(f, RedactTokens) for f in target.filters):
                target.addFilter(RedactTokens())
