"""Seat tokens work as passwords: no log line may hold one, nor any other secret (a session
cookie, a password, the token of a mail's "stop these mails" link).

A token can appear in a URL (``?token=`` of an old link or client, ``#token=`` never reaches
the server) and uvicorn logs every request's path with its query: its access log, and its
"WebSocket ... [accepted]" lines; at debug level it also logs WebSocket frames (an auth
message) and handshake headers. ``RedactTokens`` rewrites each form in a record (message and
arguments) to ``...[redacted]``; ``install()`` puts it on the loggers that could carry one and
on their handlers, so records propagated from child loggers pass it too.
"""

from __future__ import annotations

import logging
import re

# ?token=T (URLs), "token": "T" (a WebSocket auth message in uvicorn's debug frame log),
# Bearer T (a header, should a debug log show one)
TOKEN = re.compile(r"""(token=)[^&\s"'#]+|("token"\s*:\s*")[^"]*|(bearer\s+)[^\s"',]+"""
                   # the session cookie (a debug log of headers), a password in a JSON body
                   r"""|(palio_session=)[^;\s"',]+|("(?:current_)?password"\s*:\s*")[^"]*"""
                   # the token of a mail's "stop these mails" link (/mail/stop/TOKEN)
                   r"""|(/mail/stop/)[^/?#\s"']+""",
                   re.IGNORECASE)
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "palio", "")


def redact(text: str) -> str:
    return TOKEN.sub(lambda match: next(g for g in match.groups() if g) + "[redacted]", text)


def _clean(value: object) -> object:
    """A redacted argument; one that is not text (a WebSocket frame) is checked as it will be
    written, and replaced by its redacted text only if it holds a token."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, int | float | bool) or value is None:
        return value
    text = str(value)
    clean = redact(text)
    return value if clean == text else clean


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
    """Add the filter to the loggers and every handler they have now (idempotent); and
    write palio's own lines where uvicorn writes its own, at its level."""
    palio, server = logging.getLogger("palio"), logging.getLogger("uvicorn.error")
    # uvicorn.error has no handler of its own: its records go up to "uvicorn"'s
    source = next((lg for lg in (server, logging.getLogger("uvicorn")) if lg.handlers), None)
    if source is not None and not palio.handlers:
        for handler in source.handlers:
            palio.addHandler(handler)
        palio.setLevel(server.getEffectiveLevel())
        palio.propagate = False
    for name in LOGGERS:
        logger = logging.getLogger(name)
        targets = [logger, *logger.handlers]
        for target in targets:
            if not any(isinstance(f, RedactTokens) for f in target.filters):
                target.addFilter(RedactTokens())
