"""The room manager: every room's intents, one at a time, and the timers that drive them.

Data flows one way: intent -> room -> engine -> events -> store -> every viewer. A
handler runs to completion on a fresh copy of its room without awaiting, writing down
what must follow in a :class:`Work`; the backend then commits that work as one unit.
If another node changed the room first, the commit fails and the intent is tried
again on the newer room (where a stale roll is refused), so nothing is applied twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from snakes.engine import (
    JUNGLE,
    MAX_SEATS,
    Abandon,
    Action,
    Board,
    Climbed,
    DiceSource,
    GameState,
    Leave,
    Moved,
    Remove,
    Roll,
    RuleError,
    Rules,
    Skip,
    Slid,
)
from snakes.fair import dice_key, fair_roll, new_server_seed
from snakes.server.backends.local import Backend, BackendUnavailable, Work
from snakes.server.codes import hash_secret, is_room_code, new_room_code, new_secret, normalise_code
from snakes.server.rooms.model import COLOURS, Kind, Mode, Phase, Room, Seat, TurnClock
from snakes.server.rooms.names import check_seat_names
from snakes.server.rooms.views import event_data, room_view
from snakes.server.runtime.session import Session
from snakes.server.settings import Settings
from snakes.server.transport.protocol import ProtocolError
from snakes.testing.hooks import ScriptableDice

log = logging.getLogger("snakes.rooms")

T = TypeVar("T")

MAX_FAST_FORWARD = 50_000
"""'Skip to results' plays at most this many rolls (a game never needs close to it)."""
COMMIT_ATTEMPTS = 8
OVERDUE_SECONDS = 10.0
"""A countdown found this late was interrupted by an outage, not run out by a player."""
TIMER_NAMES = ("turn", "ai", "idle", "host")


class RoomManager:
    def __init__(self, settings: Settings, backend: Backend, dice: DiceSource) -> None:
        self.settings = settings
        self.backend = backend
        self.clock = backend.clock
        self.dice = dice
        self.rooms: dict[str, Room] = {}
        """Rooms this process has at hand; the backend has the final word on each."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._work = Work()
        self.rolls = 0

    @property
    def lock_count(self) -> int:
        return len(self._locks)

    # ---- life cycle -------------------------------------------------------------

    async def start(self) -> None:
        """Start the timers, and bring back rooms that were live when the process stopped.

        Their countdowns start again in full: nobody is skipped for the downtime.
        """
        await self.backend.start(self.fire, self.resync)
        for code in await self.backend.startup_rooms():
            await self._attempt(code, self._restart_timers)

    async def stop(self) -> None:
        for code in list(self.rooms):
            for session in self.backend.local_sessions(code):
                session.close()
        await self.backend.stop()

    def _restart_timers(self, room: Room) -> None:
        room.turn_clock = None
        for name in list(room.timers):
            self._set_timer(room, name, None)
        self._schedule(room, new_turn=True)

    async def purge(self) -> int:
        """Drop records past retention and local games nobody resumed in that time."""
        return await self.backend.purge(time.time() - self.settings.record_days * 86400)

    # ---- running handlers ---------------------------------------------------------

    async def run(self, code: str, handler: Callable[[Room], T]) -> T:
        """Run ``handler`` on the room, then commit what it did; retry on a conflict."""
        code = normalise_code(code)
        lock = self._locks.get(code)
        if lock is None:
            lock = self._locks[code] = asyncio.Lock()
        async with lock:
            for _ in range(COMMIT_ATTEMPTS):
                room = self.rooms.get(code)
                try:
                    fresh = await self.backend.fetch(code, room) if is_room_code(code) else None
                except BackendUnavailable:
                    raise _unavailable() from None
                if fresh is None:
                    self.rooms.pop(code, None)
                    self._locks.pop(code, None)
                    raise ProtocolError("room_not_found", "no room has that code")
                self.rooms[code] = fresh
                self._work = work = Work()
                try:
                    result = handler(fresh)
                except ProtocolError:
                    raise
                except BaseException:
                    self.rooms.pop(code, None)  # the copy may be half-changed
                    raise
                if work.empty:
                    return result
                fresh.rev += 1
                try:
                    committed = await self.backend.commit(fresh, work)
                except BackendUnavailable:
                    self.rooms.pop(code, None)
                    raise _unavailable() from None
                if committed:
                    if work.delete:
                        self.rooms.pop(code, None)
                        self._locks.pop(code, None)
                    return result
                self.rooms.pop(code, None)  # another node changed it first
            raise ProtocolError("busy", "the room is busy; try again")

    async def resync(self, code: str) -> None:
        """Send every local connection of a room its whole state again (after an outage)."""

        def resend(room: Room) -> None:
            for session in self.backend.local_sessions(room.code):
                session.seats = self._held(room, session.secret_hash)
                welcome = {
                    "type": "welcome",
                    "you": self._you(session, room),
                    "room": self.view(room),
                }
                session.send(json.dumps(welcome))

        await self._attempt(code, resend)

    async def _attempt(self, code: str, handler: Callable[[Room], Any]) -> None:
        """Run a handler for the server's own sake; a room that has gone is no error."""
        try:
            await self.run(code, handler)
        except ProtocolError as error:
            if error.code != "room_not_found":
                log.warning("room %s: %s", code, error.message)

    async def fire(self, code: str, name: str, due: float) -> None:
        def handler(room: Room) -> None:
            if abs(room.timers.get(name, -1.0) - due) > 1e-6:
                # Moved or cancelled since; say again what is due, so a claimed copy of
                # this timer elsewhere is put right.
                self._set_timer(room, name, room.timers.get(name))
                return
            self._set_timer(room, name, None)
            if name == "turn" and self.clock.now() - due > OVERDUE_SECONDS:
                # Nobody was there to run this countdown (every node, or Redis, was down):
                # it starts again in full rather than skip a player for the downtime.
                self._schedule(room, new_turn=True)
                self._publish(room, [])
                return
            self._fire(room, name)

        await self._attempt(code, handler)

    # ---- rooms ------------------------------------------------------------------

    async def create(
        self,
        mode: Mode,
        seats: list[Seat],
        rules: Rules,
        *,
        shuffle: bool,
        countdown_seconds: int | None,
        board: Board = JUNGLE,
    ) -> tuple[Room, str]:
        """A new room; the answer's secret holds its human seats (online: the host's)."""
        countdown = countdown_seconds or self.settings.countdown_default
        self._check_countdown(countdown)
        _check_colours(seats)
        if mode is Mode.AI and (
            sum(s.kind is Kind.HUMAN for s in seats) != 1 or not 2 <= len(seats) <= MAX_SEATS
        ):
            raise ProtocolError("invalid_seats", "Play with AI is you and 1-5 AI seats")
        if mode is Mode.PASS and not 2 <= len(seats) <= MAX_SEATS:
            raise ProtocolError("invalid_seats", "Pass & Play has 2-6 seats")
        if mode is Mode.ONLINE and (len(seats) != 1 or seats[0].kind is not Kind.HUMAN):
            raise ProtocolError("invalid_seats", "an online room starts with the host alone")
        secret = new_secret()
        for seat in seats:
            seat.secret_hash = hash_secret(secret) if seat.kind is Kind.HUMAN else ""
        if shuffle:
            random.SystemRandom().shuffle(seats)
        now = time.time()
        for _ in range(COMMIT_ATTEMPTS):
            room = Room(
                code=new_room_code(),
                mode=mode,
                rules=rules,
                seats=seats,
                countdown_seconds=countdown,
                board=board,
                server_seed=new_server_seed().hex() if mode is Mode.ONLINE else "",
                host=0 if mode is Mode.ONLINE else None,
                phase=Phase.LOBBY if mode is Mode.ONLINE else Phase.PLAYING,
                created_at=now,
                touched_at=now,
                rev=1,
            )
            self._work = work = Work(changed=True)
            if room.phase is Phase.PLAYING:
                room.start_game()
                work.new_game = True
            self._schedule(room, new_turn=True)
            try:
                committed = await self.backend.commit(room, work, created=True)
            except BackendUnavailable:
                raise _unavailable() from None
            if committed:
                self.rooms[room.code] = room
                log.info("room %s created (%s, %d seats)", room.code, mode.value, len(seats))
                return room, secret
        raise ProtocolError("busy", "could not find a free room code; try again")

    async def join(self, code: str, name: str, colour: str) -> tuple[Room, int, str]:
        """Take a free seat in an online lobby."""
        secret = new_secret()

        def handler(room: Room) -> int:
            if room.mode is not Mode.ONLINE:
                raise ProtocolError("not_allowed", "only online rooms can be joined")
            if room.phase is not Phase.LOBBY:
                raise ProtocolError("already_started", "the game has started; you can watch it")
            if len(room.seats) >= MAX_SEATS:
                raise ProtocolError("room_full", f"all {MAX_SEATS} seats are taken")
            seat = Seat(name, colour, Kind.HUMAN, hash_secret(secret))
            _check_colours([*room.seats, seat])
            room.seats.append(seat)
            index = len(room.seats) - 1
            self._touch(room)
            self._publish(room, [{"type": "joined", "seat": index}])
            return index

        index = await self.run(code, handler)
        return self.rooms[normalise_code(code)], index, secret

    async def public_view(self, code: str) -> dict[str, Any]:
        return await self.run(code, self.view)

    def _check_countdown(self, seconds: int) -> None:
        low, high = self.settings.countdown_min, self.settings.countdown_max
        if not low <= seconds <= high:
            raise ProtocolError("invalid_rules", f"the turn countdown is {low}-{high} seconds")

    # ---- connections ------------------------------------------------------------

    async def hello(self, session: Session, code: str, secret: str | None) -> None:
        digest = hash_secret(secret) if secret is not None else ""

        def check(room: Room) -> str:
            if digest and all(s.secret_hash != digest for s in room.seats):
                raise ProtocolError("bad_secret", "that secret holds no seat in this room")
            return room.code

        canonical = await self.run(code, check)
        if session.room is not None:
            await self.disconnect(session)
        session.room = canonical
        session.secret_hash = digest
        try:
            await self.backend.attach(canonical, session)
        except BackendUnavailable:
            await self.disconnect(session)
            raise _unavailable() from None

        def greet(room: Room) -> None:
            self._welcome(session, room)
            self._publish(room, [], skip=session)

        try:
            await self.run(canonical, greet)
        except ProtocolError:
            await self.disconnect(session)
            raise

    async def disconnect(self, session: Session) -> None:
        code = session.room
        if code is None:
            return
        session.room = None
        await self.backend.detach(code, session)

        def left(room: Room) -> None:
            self._publish(room, [])

        await self._attempt(code, left)
        room = self.rooms.get(code)
        if room is not None and room.is_local and not self.backend.presence(code).viewers:
            # A local game pauses while no device shows it; the store keeps it.
            self.rooms.pop(code, None)
            lock = self._locks.get(code)
            if lock is not None and not lock.locked():
                del self._locks[code]

    def _welcome(self, session: Session, room: Room) -> None:
        """The whole state, to one connection: after hello, and after an outage."""
        session.seats = self._held(room, session.secret_hash)
        welcome = {"type": "welcome", "you": self._you(session, room), "room": self.view(room)}
        session.send(json.dumps(welcome))

    def _held(self, room: Room, digest: str) -> frozenset[int]:
        if not digest:
            return frozenset()
        return frozenset(i for i, s in enumerate(room.seats) if s.secret_hash == digest)

    def connected_seats(self, room: Room) -> set[int]:
        digests = self.backend.presence(room.code).secrets
        return {i for i, s in enumerate(room.seats) if s.secret_hash and s.secret_hash in digests}

    def _you(self, session: Session, room: Room) -> dict[str, Any]:
        return {
            "seats": sorted(session.seats),
            "host": room.host is not None and room.host in session.seats,
            "spectator": not session.seats,
        }

    def view(self, room: Room) -> dict[str, Any]:
        return room_view(
            room,
            connected=self.connected_seats(room),
            now=self.clock.now(),
            paused=self._all_racers_away(room),
            public_url=self.settings.public_url
            or f"http://{self.settings.host}:{self.settings.port}",
        )

    # ---- intents ----------------------------------------------------------------

    async def intent(self, session: Session, handler: Callable[[Session, Room], None]) -> None:
        if session.room is None:
            raise ProtocolError("not_in_room", "say hello to a room first")
        await self.run(session.room, lambda room: handler(session, room))

    def roll(self, session: Session, room: Room, seat: int, version: int) -> None:
        self._check_seat(session, room, seat)
        game = self._playing(room)
        if version != room.version:
            raise ProtocolError(
                "stale_version", f"that roll was made at version {version}; it is {room.version}"
            )
        if game.turn != seat:
            raise ProtocolError("not_your_turn", f"it is {room.seats[game.turn or 0].name}'s turn")
        self._act(room, Roll(seat, self._die(room, game.faces)))

    def leave(self, session: Session, room: Room, seat: int) -> None:
        self._check_seat(session, room, seat)
        if room.phase is Phase.LOBBY:
            self._remove_from_lobby(room, seat)
            return
        self._playing(room)
        self._act(room, Leave(seat))
        if room.host == seat:
            self._pass_host(room)

    def start_game(self, session: Session, room: Room, shuffle: bool) -> None:
        self._check_host(session, room)
        if room.phase is not Phase.LOBBY:
            raise ProtocolError("already_started", "the game has already started")
        if len(room.seats) < 2:
            raise ProtocolError("not_allowed", "an online game needs at least 2 players")
        if shuffle:
            host_seat = room.seats[room.host or 0]
            random.SystemRandom().shuffle(room.seats)
            room.host = room.seats.index(host_seat)
        room.start_game()
        self._work.new_game = True
        self._touch(room)
        self._publish(room, [{"type": "started"}], new_turn=True)

    def set_rules(
        self,
        session: Session,
        room: Room,
        rules: Rules,
        countdown: int | None,
        board: Board | None = None,
    ) -> None:
        self._check_host(session, room)
        if room.phase is not Phase.LOBBY:
            raise ProtocolError("already_started", "rules are fixed once the game starts")
        if countdown is not None:
            self._check_countdown(countdown)
            room.countdown_seconds = countdown
        room.rules = rules
        if board is not None:
            room.board = board
        self._touch(room)
        self._publish(room, [{"type": "rules_changed"}])

    def add_ai(self, session: Session, room: Room, name: str, colour: str) -> None:
        """The online host adds an AI seat in the lobby; it rolls by itself, like everyone's."""
        self._check_host(session, room)
        if room.phase is not Phase.LOBBY:
            raise ProtocolError("already_started", "seats are fixed once the game starts")
        if len(room.seats) >= MAX_SEATS:
            raise ProtocolError("room_full", f"all {MAX_SEATS} seats are taken")
        seat = Seat(name, colour, Kind.AI, "")
        _check_colours([*room.seats, seat])
        room.seats.append(seat)
        self._touch(room)
        self._publish(room, [{"type": "joined", "seat": len(room.seats) - 1}])

    def seed(self, session: Session, room: Room, seed: str) -> None:
        """A device's own seed for the next game's dice, sent after seeing the commitment."""
        self._check_member(session, room)
        if not room.fair:
            raise ProtocolError("not_allowed", "this room's dice take no seeds")
        if room.phase is Phase.PLAYING:
            raise ProtocolError("already_started", "seeds are fixed once the game starts")
        room.client_seeds[session.secret_hash] = seed
        self._touch(room)
        self._publish(room, [])

    def remove(self, session: Session, room: Room, seat: int) -> None:
        self._check_host(session, room)
        if not 0 <= seat < len(room.seats):
            raise ProtocolError("not_allowed", f"there is no seat {seat}")
        if room.phase is Phase.LOBBY:
            if seat == room.host:
                raise ProtocolError("not_allowed", "the host cannot remove their own seat")
            self._remove_from_lobby(room, seat)
            return
        game = self._playing(room)
        if seat in self.connected_seats(room) and not game.is_away(seat):
            raise ProtocolError("not_allowed", "only an away or disconnected player can be removed")
        self._act(room, Remove(seat))

    def rematch(self, session: Session, room: Room) -> None:
        self._check_member(session, room)
        if room.phase is not Phase.OVER or room.game is None:
            raise ProtocolError("not_allowed", "a rematch comes after the game is over")
        if not room.is_local:
            keep = [i for i in range(len(room.seats)) if i not in room.game.leavers]
            if len(keep) < 2:
                raise ProtocolError("not_allowed", "a rematch needs at least 2 players")
            old_first = room.first
            room.seats = [room.seats[i] for i in keep]
            room.host = keep.index(room.host) if room.host in keep else 0
            following = [i for i in keep if i > old_first] + [i for i in keep if i <= old_first]
            room.first = keep.index(following[0])
        else:
            room.first = (room.first + 1) % len(room.seats)
        room.game_number += 1
        room.start_game()
        self._work.new_game = True
        self._touch(room)
        self._publish(room, [{"type": "rematch"}], new_turn=True)

    def finish_ai(self, session: Session, room: Room) -> None:
        """'Skip to results': the remaining AI turns are really played, all at once."""
        self._check_member(session, room)
        game = self._playing(room)
        if not all(room.seats[s].kind is Kind.AI for s in game.racing):
            raise ProtocolError("not_allowed", "people are still racing")
        events: list[dict[str, Any]] = []
        for _ in range(MAX_FAST_FORWARD):
            game = self._playing(room)
            events += self._apply(room, Roll(game.turn or 0, self._die(room, game.faces)))
            if room.phase is Phase.OVER:
                break
        self._publish(room, events, new_turn=True, instant=True)

    # ---- the one way a game action happens ----------------------------------------

    def _act(self, room: Room, action: Action) -> None:
        events = self._apply(room, action)
        self._publish(room, events, new_turn=True, allowance=self._allowance(events))

    def _apply(self, room: Room, action: Action) -> list[dict[str, Any]]:
        try:
            events = room.play(action)
        except RuleError as error:
            raise ProtocolError(error.code, str(error)) from None
        self._touch(room)
        self._work.actions.append(action)
        if isinstance(action, Roll):
            self.rolls += 1
        if room.phase is Phase.OVER:
            self._work.records.append((room.game_number, room.record_json()))
            if room.fair:
                # The seed is revealed in the record; the next game gets a new one, and
                # the players' devices send fresh seeds after seeing its commitment.
                room.server_seed = new_server_seed().hex()
                room.client_seeds = {}
            log.info("room %s game %d over", room.code, room.game_number)
        return [event_data(e) for e in events]

    def _die(self, room: Room, faces: int) -> int:
        """The next roll: from the room's committed seeds online, else a secure die."""
        if isinstance(self.dice, ScriptableDice) and self.dice.queued:
            return self.dice.roll(faces)  # test hooks only
        if room.fair and room.locked_seeds is not None:
            index = sum(isinstance(a, Roll) for a in room.actions)
            key = dice_key(bytes.fromhex(room.server_seed), room.locked_seeds)
            return fair_roll(key, index, faces)
        return self.dice.roll(faces)

    def _allowance(self, events: Iterable[dict[str, Any]]) -> float:
        squares = jumps = 0
        for event in events:
            if event["type"] == Moved.kind:
                squares += event["end"] - event["start"]
            elif event["type"] in (Climbed.kind, Slid.kind):
                jumps += 1
        return self.settings.move_allowance(squares, jumps)

    def _publish(
        self,
        room: Room,
        events: list[dict[str, Any]],
        *,
        new_turn: bool = False,
        allowance: float = 0.0,
        instant: bool = False,
        skip: Session | None = None,
    ) -> None:
        self._schedule(room, new_turn=new_turn, allowance=allowance)
        self._work.changed = True
        body = {"type": "update", "events": events, "instant": instant, "room": self.view(room)}
        self._work.updates.append((json.dumps(body), skip.id if skip else ""))

    # ---- timers ------------------------------------------------------------------

    def _all_racers_away(self, room: Room) -> bool:
        game = room.game
        if room.mode is not Mode.ONLINE or room.phase is not Phase.PLAYING or game is None:
            return False
        humans = {s for s in game.racing if room.seats[s].kind is Kind.HUMAN}
        return bool(humans) and not humans & self.connected_seats(room)

    def _set_timer(self, room: Room, name: str, due: float | None) -> None:
        if due is None:
            if room.timers.pop(name, None) is not None:
                self._work.timers[name] = None
        else:
            room.timers[name] = due
            self._work.timers[name] = due
        self._work.changed = True

    def _schedule(self, room: Room, *, new_turn: bool = False, allowance: float = 0.0) -> None:
        """Set or cancel the room's countdown, AI, idle and host timers after any change."""
        now = self.clock.now()
        game = room.game if room.phase is Phase.PLAYING else None
        turn = game.turn if game is not None else None
        kind = room.seats[turn].kind if turn is not None else None
        anyone = self.backend.presence(room.code).viewers > 0
        away = self._all_racers_away(room)

        clock = room.turn_clock
        if room.mode is Mode.ONLINE and kind is Kind.HUMAN and not away and turn is not None:
            if new_turn or clock is None or clock.version != room.version:
                starts = now + allowance
                room.turn_clock = TurnClock(
                    turn, room.version, starts, starts + room.countdown_seconds
                )
                self._set_timer(room, "turn", room.turn_clock.deadline)
        elif clock is not None or "turn" in room.timers:
            room.turn_clock = None
            self._set_timer(room, "turn", None)

        if kind is Kind.AI and anyone and not away:
            if new_turn or "ai" not in room.timers:
                self._set_timer(room, "ai", now + allowance + self.settings.ai_delay)
        elif "ai" in room.timers:
            self._set_timer(room, "ai", None)

        if room.mode is Mode.ONLINE and (away or not anyone):
            if "idle" not in room.timers:
                self._set_timer(room, "idle", now + self.settings.idle_seconds)
        elif "idle" in room.timers:
            self._set_timer(room, "idle", None)

        host_gone = room.host is not None and room.host not in self.connected_seats(room)
        if room.phase is Phase.LOBBY and host_gone and anyone:
            if "host" not in room.timers:
                self._set_timer(room, "host", now + self.settings.host_grace_seconds)
        elif "host" in room.timers:
            self._set_timer(room, "host", None)

    def _fire(self, room: Room, name: str) -> None:
        game = room.game
        if name == "turn":
            clock, room.turn_clock = room.turn_clock, None
            if clock is not None and game is not None and not game.over and game.turn == clock.seat:
                self._act(room, Skip(clock.seat))
        elif name == "ai":
            if game is not None and game.turn is not None and not game.over:
                self._act(room, Roll(game.turn, self._die(room, game.faces)))
        elif name == "idle":
            if room.phase is Phase.PLAYING:
                self._act(room, Abandon())
            if not self.backend.presence(room.code).viewers:
                self._release(room)
        elif name == "host":
            self._pass_host(room)

    # ---- helpers -----------------------------------------------------------------

    def _release(self, room: Room) -> None:
        """Let go of a room's live state (its records stay)."""
        for name in TIMER_NAMES:
            self._set_timer(room, name, None)
        room.turn_clock = None
        self._work.delete = True
        log.info("room %s released", room.code)

    def _pass_host(self, room: Room) -> None:
        """The next person in seat order hosts, a connected one if there is one."""
        left = set(room.game.leavers) if room.game else set()
        count = len(room.seats)
        start = room.host if room.host is not None else -1
        order = [(start + step) % count for step in range(1, count)]
        people = [s for s in order if s not in left and room.seats[s].kind is Kind.HUMAN]
        connected = self.connected_seats(room)
        chosen = next((s for s in people if s in connected), people[0] if people else None)
        if chosen is None:
            return
        room.host = chosen
        self._publish(room, [{"type": "host_changed", "seat": chosen}])

    def _remove_from_lobby(self, room: Room, seat: int) -> None:
        was_host = room.host == seat
        del room.seats[seat]
        if not room.seats:
            self._publish(room, [{"type": "closed"}])
            self._release(room)
            return
        if room.host is not None and room.host > seat:
            room.host -= 1
        if was_host:
            # The seat that followed the host now has the host's old number.
            connected = self.connected_seats(room)
            count = len(room.seats)
            order = [(seat + step) % count for step in range(count)]
            room.host = next((s for s in order if s in connected), order[0])
        self._touch(room)
        self._publish(room, [{"type": "seat_left", "seat": seat}])

    def _touch(self, room: Room) -> None:
        room.touched_at = time.time()

    def _check_member(self, session: Session, room: Room) -> None:
        if not self._held(room, session.secret_hash):
            raise ProtocolError("spectator", "spectators watch; they do not play")

    def _check_seat(self, session: Session, room: Room, seat: int) -> None:
        self._check_member(session, room)
        if seat not in self._held(room, session.secret_hash):
            raise ProtocolError("not_your_seat", f"you do not hold seat {seat}")

    def _check_host(self, session: Session, room: Room) -> None:
        self._check_member(session, room)
        if room.host is None or room.host not in self._held(room, session.secret_hash):
            raise ProtocolError("not_host", "only the host can do that")

    def _playing(self, room: Room) -> GameState:
        if room.phase is Phase.LOBBY or room.game is None:
            raise ProtocolError("not_started", "the game has not started")
        if room.phase is Phase.OVER:
            raise ProtocolError("game_over", "the game is over")
        return room.game


def _unavailable() -> ProtocolError:
    return ProtocolError("unavailable", "the game store is unreachable; try again in a moment")


def _check_colours(seats: list[Seat]) -> None:
    check_seat_names(seats)
    colours = [s.colour for s in seats]
    for colour in colours:
        if colour not in COLOURS:
            raise ProtocolError("invalid_colour", f"colour must be one of {', '.join(COLOURS)}")
    if len(set(colours)) != len(colours):
        raise ProtocolError("colour_taken", "each seat needs its own colour")
