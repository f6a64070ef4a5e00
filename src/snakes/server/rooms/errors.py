"""Refusals: every intent the rooms refuse raises one, with a stable code for the client."""

from __future__ import annotations

import asyncio


class ProtocolError(Exception):
    """An intent refused before or outside the engine; ``code`` goes to the client."""

    def __init__(self, code: str, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        """For ``rate_limited``: seconds until trying again may succeed (HTTP Retry-After)."""


class OutcomeUnknown(ProtocolError):
    """The intent went out and its answer was lost: it may have been applied or not.

    ``verdict`` (when the intent has an id) resolves once the store answers again: True,
    it was applied (its update shows it); False, it was not and never will be, so the
    same intent may be sent again; None, the store never answered."""

    def __init__(self, verdict: asyncio.Future[bool | None] | None = None) -> None:
        super().__init__(
            "outcome_unknown",
            "the game store stopped answering while this was on its way: it may have "
            "been applied or not; you will be told once the store is back",
        )
        self.verdict = verdict


def unavailable() -> ProtocolError:
    return ProtocolError("unavailable", "the game store is unreachable; try again in a moment")
