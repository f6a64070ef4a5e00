"""A presence message applied to the room a client last saw, as the browser does."""

from __future__ import annotations

from typing import Any


def with_presence(room: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """``room`` with each seat's ``connected`` and the countdown from ``message``."""
    connected = message["connected"]
    assert len(connected) == len(room["seats"]), (message, room["seats"])
    seats = [{**seat, "connected": now} for seat, now in zip(room["seats"], connected, strict=True)]
    return {**room, "seats": seats, "countdown": message["countdown"]}
