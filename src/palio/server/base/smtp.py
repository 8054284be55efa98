"""Where the server's mail goes: an SMTP server given as a URL (``--smtp``), and one send.

The bottom layer holds it because a setting is checked when the settings are read; what is
mailed, and when, is the mail concern's (``palio.server.mail``)."""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True)
class SmtpTarget:
    """Where mail goes: ``smtp://[user:password@]host[:port]`` (STARTTLS when the server
    offers it) or ``smtps://...`` (TLS from the start)."""

    host: str
    port: int
    tls: str  # "starttls" (when offered) | "ssl"
    user: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> SmtpTarget:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("--smtp must look like smtp://host:port or "
                             "smtps://user:password@host:port")
        try:
            port = parts.port or (465 if parts.scheme == "smtps" else 25)
        except ValueError:
            raise ValueError("--smtp has a port that is not a number from 1 to 65535") from None
        return cls(parts.hostname, port, "ssl" if parts.scheme == "smtps" else "starttls",
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None)

    def __str__(self) -> str:  # for logs: never the password
        scheme = "smtps" if self.tls == "ssl" else "smtp"
        user = f"{self.user}@" if self.user else ""
        return f"{scheme}://{user}{self.host}:{self.port}"

    def send(self, message: EmailMessage, timeout: float = 20.0) -> None:
        context = ssl.create_default_context()
        if self.tls == "ssl":
            client: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=timeout,
                                                    context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=timeout)
        with client:
            if self.tls == "starttls":
                client.ehlo()
                if client.has_extn("starttls"):
                    client.starttls(context=context)
                    client.ehlo()
            if self.user:
                client.login(self.user, self.password or "")
            client.send_message(message)
