"""The one error type of the API: an HTTP status, a short code, and a message for people."""

from __future__ import annotations


class ApiError(Exception):
    """An error with an HTTP status and a short code; its message never holds hidden facts."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
