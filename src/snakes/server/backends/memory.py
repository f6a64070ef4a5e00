"""A room log in memory, for tests and benchmarks that need no file.

It keeps what the SQLite log keeps, as the same JSON and on the same plan (a room's
whole row now and then, its live part with every change: ``rows.py``), so a room read
back from it has been through the same encoding as one read from disk.
"""

from __future__ import annotations

from typing import Any

from snakes.server import jsontext
from snakes.server.backends.rows import RowPlan, action_json
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Work


class MemoryLog:
    def __init__(self) -> None:
        self.rows: dict[str, str] = {}
        self.live: dict[str, str] = {}
        """Each room's live part, when written after its row."""
        self.plan = RowPlan()
        self.actions: dict[str, list[tuple[int, int, str]]] = {}
        """Each room's log: (sequence, game number, action JSON)."""
        self.records: dict[tuple[str, int], tuple[float, str]] = {}
        self.revs: dict[str, int] = {}
        """Each room's revision, which a change must have been made from."""

    async def load(self, code: str) -> Room | None:
        return self.load_room(code)

    def load_room(self, code: str) -> Room | None:
        row = self.rows.get(code)
        if row is None:
            return None
        data = jsontext.loads(row)
        game = data["game_number"]
        actions = [jsontext.loads(a) for _, g, a in self.actions.get(code, []) if g == game]
        live = self.live.get(code)
        return Room.from_data(data, actions, None if live is None else jsontext.loads(live))

    def action_log(self, code: str) -> list[tuple[int, int, dict[str, Any]]]:
        return [(seq, game, jsontext.loads(a)) for seq, game, a in self.actions.get(code, [])]

    async def load_record(self, code: str, game: int | None) -> str | None:
        games = sorted(g for c, g in self.records if c == code)
        if not games:
            return None
        chosen = games[-1] if game is None else game
        found = self.records.get((code, chosen))
        return None if found is None else found[1]

    async def live_codes(self) -> list[str]:
        return sorted(c for c, row in self.rows.items() if jsontext.loads(row)["mode"] == "online")

    async def purge(self, before: float, unopened_before: float) -> int:
        def stale_row(data: dict[str, Any]) -> bool:
            if data["mode"] == "online":
                return False
            unopened = not data.get("opened", True) and data["touched_at"] < unopened_before
            return bool(data["touched_at"] < before or unopened)

        stale = [c for c, row in self.rows.items() if stale_row(jsontext.loads(row))]
        for code in stale:
            del self.rows[code]
            self.revs.pop(code, None)
            self.live.pop(code, None)
            self.actions.pop(code, None)
            self.plan.forget(code)
        old = [k for k, (at, _) in self.records.items() if at < before]
        for key in old:
            del self.records[key]
        return len(stale) + len(old)

    async def probe(self) -> bool:
        return True

    def write_many(self, changes: list[tuple[Room, Work, bool]]) -> list[bool]:
        return [self.write(room, work, created=created) for room, work, created in changes]

    def write(self, room: Room, work: Work, *, created: bool) -> bool:
        if created and room.code in self.rows:
            return False
        code = room.code
        if not created and self.revs.get(code) != room.rev - 1:
            self.plan.forget(code)
            return False  # made from a revision the room has moved on from (as SQLite)
        self.revs[code] = room.rev
        if work.delete:
            self.revs.pop(code, None)
            self.rows.pop(code, None)
            self.live.pop(code, None)
            self.actions.pop(code, None)
            self.plan.forget(code)
        else:
            first_seq = room.version - len(work.actions) + 1
            log = self.actions.setdefault(code, [])
            for i, action in enumerate(work.actions):
                log.append((first_seq + i, room.game_number, action_json(action)))
            key = self.plan.whole(room, work)
            if key is None:
                self.live[code] = jsontext.dumps(room.live_data())
            else:
                self.rows[code] = jsontext.dumps(room.to_data())
                self.live.pop(code, None)
                self.plan.written(code, key, room.version)
        if work.record is not None:
            game, record = work.record
            self.records[(room.code, game)] = (room.touched_at, record)
        return True

    def close(self) -> None:
        """Nothing to release."""
