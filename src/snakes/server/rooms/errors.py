"""Refusals: every intent the rooms refuse raises one, with a stable code for the client."""

from __future__ import annotations


class ProtocolError(Exception):
    """An intent refused before or outside the engine; ``code`` goes to the client."""

    def __init__(self, code: str, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        """For ``rate_limited``: seconds until trying again may succeed (HTTP Retry-After)."""


def unavailable() -> ProtocolError:
    return ProtocolError("unavailable", "the game store is unreachable; try again in a moment")
