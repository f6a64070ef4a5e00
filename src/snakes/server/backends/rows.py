"""When a room's whole stored row is written, and when only its live part.

A room is stored as a row (its settings, seats, seeds and a snapshot of its game), its
game's actions, and a small live part (version, revision, timers, the countdown). A
roll changes only the game and the timers: its actions are appended and the live part
written, and the row, with a fresh snapshot, is written again only when something else
changed (the lobby, a seat, the host, a new game) or the snapshot is ``SNAPSHOT_EVERY``
actions old. Loading a room reads its row, lays the live part over it and applies the
actions logged since the snapshot: at most that many, whatever the game's length.

What the store last wrote of each room is remembered here, per process; a room this
process has not written yet gets its whole row first.
"""

from __future__ import annotations

import functools
from typing import Any

from snakes.engine import Action, action_to_data
from snakes.server import jsontext
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Work

SNAPSHOT_EVERY = 50
"""Actions after which a room's row (with its game's snapshot) is written again."""


class RowPlan:
    """Remembers each room's last whole row: its settings and the version it was at."""

    def __init__(self, every: int = SNAPSHOT_EVERY) -> None:
        self.every = every
        self._whole: dict[str, tuple[tuple[Any, ...], int]] = {}

    def whole(self, room: Room, work: Work) -> tuple[Any, ...] | None:
        """The room's settings key if this change must write its whole row; else None."""
        key = room.settings_key()
        known = self._whole.get(room.code)
        if (
            known is None
            or work.new_game
            or work.record is not None
            or known[0] != key
            or room.version - known[1] >= self.every
        ):
            return key
        return None

    def written(self, code: str, key: tuple[Any, ...], version: int) -> None:
        """The whole row went in (call once the change is durable)."""
        self._whole[code] = (key, version)

    def forget(self, code: str) -> None:
        """The room is gone from the store (or its write failed): start afresh."""
        self._whole.pop(code, None)

    def __len__(self) -> int:
        return len(self._whole)


@functools.lru_cache(maxsize=1024)
def action_json(action: Action) -> str:
    """An action as the log stores it; worked out once per distinct action (a game's
    rolls are shared values, see ``roll_of``)."""
    return jsontext.dumps(action_to_data(action))
