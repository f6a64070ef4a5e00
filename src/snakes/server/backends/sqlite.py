"""The SQLite room log: rooms, their append-only action log, and finished games' records.

One file holds everything; a backup is a copy of that file (taken while the server is
stopped, or with ``sqlite3 snakes.db ".backup copy.db"`` while it runs). The schema has
a version and migrates itself forward when the server starts.

Every failure of the file (disk full, an I/O error, a locked or vanished file) is a
:class:`StoreUnavailable`: the change was rolled back whole, and the caller keeps the
room as it was.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from snakes.server import jsontext
from snakes.server.backends.interfaces import StoreUnavailable
from snakes.server.backends.rows import RowPlan, action_json
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Work

T = TypeVar("T")

SCHEMA_VERSION = 4
CHECKPOINT_SECONDS = 1.0
RESTART_AFTER_FRAMES = 16_384
"""A log this long (64 MB of 4 KB pages, a few seconds of commits at 10,000 players) is
started again from its beginning after a checkpoint. Each restart holds commits up
while it copies the last pages and waits for the disk (13-75 ms in the soak, longer as
the file grows), so not every second."""
WAL_LIMIT_BYTES = 128 * 1024 * 1024

log = logging.getLogger("snakes.store")

_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE rooms (
        code TEXT PRIMARY KEY,
        mode TEXT NOT NULL,
        phase TEXT NOT NULL,
        touched_at REAL NOT NULL,
        data TEXT NOT NULL
    );
    CREATE TABLE actions (
        code TEXT NOT NULL,
        seq INTEGER NOT NULL,
        game INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (code, seq)
    );
    CREATE TABLE records (
        code TEXT NOT NULL,
        game INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (code, game)
    );
    CREATE INDEX records_by_age ON records (finished_at);
    CREATE INDEX rooms_by_age ON rooms (touched_at);
    """,
    # 2: rows carry a snapshot of the game (in the JSON); a table the health probe writes.
    2: """
    CREATE TABLE health (id INTEGER PRIMARY KEY, probed_at REAL NOT NULL);
    """,
    # 3: a room's live part (version, timers, countdown) beside its row; the row and its
    # game snapshot are written again only now and then (backends/rows.py).
    3: """
    ALTER TABLE rooms ADD COLUMN live TEXT;
    """,
    # 4: a room's revision in a column of its own: a commit names the one it changed
    # from, and is refused if the row has moved on since (never a fork).
    4: """
    ALTER TABLE rooms ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
    UPDATE rooms SET rev = COALESCE(json_extract(live, '$.rev'), json_extract(data, '$.rev'), 0);
    """,
}


class SQLiteLog:
    """The default room log: one SQLite file in the data folder."""

    FILE_NAME = "snakes.db"

    def __init__(
        self,
        path: Path,
        *,
        checkpoint_every: float = CHECKPOINT_SECONDS,
        restart_after_frames: int = RESTART_AFTER_FRAMES,
    ) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.checkpoint_every = checkpoint_every
        self.restart_after_frames = restart_after_frames
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode survives a process crash (SIGKILL); only an OS crash can
        # lose the last transactions.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        # SQLite's own page cache stays at its default (2 MB): a larger one filled with
        # the pages of new actions and records and grew the process by tens of MB in
        # the soak, for no CPU saved; the operating system caches the file anyway.
        self._migrate()
        self.rows = RowPlan()
        # A checkpoint copies the log into the database file and waits for the disk
        # (fsync): tens of milliseconds, hundreds on a busy disk. Commits never do it
        # (they only append to the log); a thread of its own does, once a second, so
        # the event loop that serves every player never waits for the disk.
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        # A log started again keeps its file; one that grew past this in a burst is cut
        # back to it.
        self._db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_forever, name="sqlite-checkpoint", daemon=True
        )
        self._checkpointer.start()

    def _checkpoint_forever(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            while not self._stop.wait(self.checkpoint_every):
                try:
                    self._checkpoint(db)
                except sqlite3.Error as error:
                    log.warning("checkpoint failed: %s", error)
        finally:
            db.close()

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        """Copy the log into the file without holding up a commit; then, if the log is
        long, start it again from its beginning.

        A passive checkpoint never waits for a writer, so while rooms commit every few
        milliseconds there is never a moment when the whole log is copied and no commit
        has added to it since: SQLite then appends to the log for ever (the soak's log
        and its index in shared memory grew by 1 MB of index a minute). A restart
        checkpoint makes commits wait while it copies what the passive one left (the
        last few milliseconds' pages) and the log starts over.
        """
        _, frames, _ = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if frames >= self.restart_after_frames:
            db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()

    @classmethod
    def in_folder(cls, folder: Path) -> SQLiteLog:
        return cls(folder / cls.FILE_NAME)

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        current = self.schema_version
        if current > SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path} has schema {current}, newer than this server's {SCHEMA_VERSION}"
            )
        for version in range(current + 1, SCHEMA_VERSION + 1):
            self._db.executescript(
                f"BEGIN; {_MIGRATIONS[version]} PRAGMA user_version = {version}; COMMIT;"
            )

    # ---- the RoomLog interface -----------------------------------------------------

    async def load(self, code: str) -> Room | None:
        return self._guard(lambda: self.load_room(code))

    async def load_record(self, code: str, game: int | None) -> str | None:
        return self._guard(lambda: self._load_record(code, game))

    async def live_codes(self) -> list[str]:
        return self._guard(lambda: self.room_codes(online=True))

    async def purge(self, before: float, unopened_before: float) -> int:
        return self._guard(lambda: self._purge(before, unopened_before))

    async def probe(self) -> bool:
        try:
            with self._transaction():
                self._db.execute(
                    "INSERT OR REPLACE INTO health (id, probed_at) VALUES (1, ?)", (time.time(),)
                )
        except sqlite3.Error:
            return False
        return True

    def write(self, room: Room, work: Work, *, created: bool) -> bool:
        """The change in one transaction: actions, the room's row, the game's record.

        False if ``created`` and the code is taken. Raises :class:`StoreUnavailable`.
        """
        return self.write_many([(room, work, created)])[0]

    def write_many(self, changes: list[tuple[Room, Work, bool]]) -> list[bool]:
        """Several rooms' changes in one transaction (a group commit): one wait for the
        disk instead of one per room. Each change is all-or-nothing with the others;
        a created room whose code is taken, or a change made from a revision the room
        has moved on from, is answered False and writes nothing."""

        def write() -> list[bool]:
            answers = []
            wholes: list[tuple[str, tuple[Any, ...], int]] = []
            with self._transaction():
                for room, work, created in changes:
                    if created and self._exists(room.code):
                        answers.append(False)
                        continue
                    written, key = self._write_one(room, work, created)
                    if key is not None:
                        wholes.append((room.code, key, room.version))
                    answers.append(written)
            for code, key, version in wholes:  # only once the transaction is in
                self.rows.written(code, key, version)
            return answers

        return self._guard(write)

    def _write_one(
        self, room: Room, work: Work, created: bool
    ) -> tuple[bool, tuple[Any, ...] | None]:
        """One change: whether it went in (the row was at the revision it was made
        from), and the room's settings key if its whole row was written."""
        key = None
        code, since = room.code, room.rev - 1
        if work.delete:
            gone = self._db.execute("DELETE FROM rooms WHERE code = ? AND rev = ?", (code, since))
            self.rows.forget(code)
            if not gone.rowcount:
                return False, None
            self._db.execute("DELETE FROM actions WHERE code = ?", (code,))
        else:
            key = self.rows.whole(room, work)
            if created:
                self._insert_room(room)
            elif not self._update_room(room, whole=key is not None, since=since):
                self.rows.forget(code)  # another writer changed it: its row is not ours
                return False, None
            first_seq = room.version - len(work.actions) + 1
            if work.actions:
                self._db.executemany(
                    "INSERT INTO actions (code, seq, game, action) VALUES (?, ?, ?, ?)",
                    [
                        (code, first_seq + i, room.game_number, action_json(a))
                        for i, a in enumerate(work.actions)
                    ],
                )
        if work.record is not None:
            game, record = work.record
            self._db.execute(
                "INSERT OR REPLACE INTO records (code, game, finished_at, record)"
                " VALUES (?, ?, ?, ?)",
                (room.code, game, room.touched_at, record),
            )
        return True, key

    def _guard(self, work: Callable[[], T]) -> T:
        try:
            return work()
        except sqlite3.Error as error:
            log.warning("the store failed: %s", error)
            raise StoreUnavailable(str(error)) from error

    # ---- rows -------------------------------------------------------------------------

    def _exists(self, code: str) -> bool:
        return (
            self._db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is not None
        )

    def _insert_room(self, room: Room) -> None:
        self._db.execute(
            "INSERT INTO rooms (code, mode, phase, touched_at, data, live, rev)"
            " VALUES (?, ?, ?, ?, ?, NULL, ?)",
            (
                room.code,
                room.mode.value,
                room.phase.value,
                room.touched_at,
                jsontext.dumps(room.to_data()),
                room.rev,
            ),
        )

    def _update_room(self, room: Room, *, whole: bool, since: int) -> bool:
        """The room's row (``whole``) or only its live part, if the row is still at
        revision ``since``; False if it is not (or is gone)."""
        if whole:
            cursor = self._db.execute(
                "UPDATE rooms SET phase = ?, touched_at = ?, data = ?, live = NULL, rev = ?"
                " WHERE code = ? AND rev = ?",
                (
                    room.phase.value,
                    room.touched_at,
                    jsontext.dumps(room.to_data()),
                    room.rev,
                    room.code,
                    since,
                ),
            )
        else:
            cursor = self._db.execute(
                "UPDATE rooms SET touched_at = ?, live = ?, rev = ? WHERE code = ? AND rev = ?",
                (room.touched_at, jsontext.dumps(room.live_data()), room.rev, room.code, since),
            )
        return cursor.rowcount == 1

    def load_room(self, code: str) -> Room | None:
        row = self._db.execute("SELECT data, live FROM rooms WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        data = jsontext.loads(row[0])
        live = None if row[1] is None else jsontext.loads(row[1])
        actions = [
            jsontext.loads(text)
            for (text,) in self._db.execute(
                "SELECT action FROM actions WHERE code = ? AND game = ? ORDER BY seq",
                (code, data["game_number"]),
            )
        ]
        return Room.from_data(data, actions, live)

    def action_log(self, code: str) -> list[tuple[int, int, dict[str, Any]]]:
        """Every stored action of a room as (sequence, game, action), for checks."""
        return [
            (seq, game, jsontext.loads(text))
            for seq, game, text in self._db.execute(
                "SELECT seq, game, action FROM actions WHERE code = ? ORDER BY seq", (code,)
            )
        ]

    def room_codes(self, *, online: bool) -> list[str]:
        op = "=" if online else "!="
        return [
            code
            for (code,) in self._db.execute(
                f"SELECT code FROM rooms WHERE mode {op} 'online' ORDER BY code"
            )
        ]

    def _load_record(self, code: str, game: int | None = None) -> str | None:
        if game is None:
            row = self._db.execute(
                "SELECT record FROM records WHERE code = ? ORDER BY game DESC LIMIT 1", (code,)
            ).fetchone()
        else:
            row = self._db.execute(
                "SELECT record FROM records WHERE code = ? AND game = ?", (code, game)
            ).fetchone()
        return None if row is None else str(row[0])

    def _purge(self, before: float, unopened_before: float) -> int:
        """Drop records past retention, local games nobody came back to, and local games
        nobody ever opened."""
        with self._transaction():
            stale = [
                code
                for (code,) in self._db.execute(
                    "SELECT code FROM rooms WHERE mode != 'online' AND (touched_at < ?"
                    " OR (json_extract(data, '$.opened') = 0 AND touched_at < ?))",
                    (before, unopened_before),
                )
            ]
            for code in stale:
                self._db.execute("DELETE FROM actions WHERE code = ?", (code,))
                self._db.execute("DELETE FROM rooms WHERE code = ?", (code,))
                self.rows.forget(code)
            cursor = self._db.execute("DELETE FROM records WHERE finished_at < ?", (before,))
        return len(stale) + cursor.rowcount

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(10)
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as error:
            log.warning("last checkpoint failed: %s", error)
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except BaseException:
            # A commit can fail too (the disk filled up): nothing of it may stay behind.
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
