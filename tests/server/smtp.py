"""A local SMTP server for the tests (aiosmtpd on a free loopback port): it keeps what it
receives, and can be stopped and started again on the same port to play a mail server that
is down."""

from __future__ import annotations

import email
import time
from email import policy
from email.message import Message

from aiosmtpd.controller import Controller

from palio.server.base.process import free_port


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, _server, _session, envelope):  # noqa: N802 - aiosmtpd's name
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 15.0) -> list[Message]:
        """Real mail arrives over a real socket: wait (bounded) until ``count`` have come."""
        end = time.monotonic() + timeout
        while len(self.messages) < count and time.monotonic() < end:
            time.sleep(0.05)
        return self.messages


class LocalSmtp:
    def __init__(self) -> None:
        self.inbox = Inbox()
        self.port = free_port()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None
