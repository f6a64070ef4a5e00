"""The room manager: every room's intents, one at a time, and the timers that drive them.

Data flows one way: intent -> room -> engine -> events -> store -> every viewer. Each
handler runs to completion without awaiting, so one room's intents never interleave.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import logging
import random
import time
from collections.abc import Iterable
from typing import Any

from snakes.engine import (
    MAX_SEATS,
    Abandon,
    Action,
    Climbed,
    DiceSource,
    Leave,
    Moved,
    Remove,
    Roll,
    RuleError,
    Skip,
    Slid,
)
from snakes.server.clock import Clock
from snakes.server.codes import hash_secret, is_room_code, new_room_code, new_secret, normalise_code
from snakes.server.hub import Hub, Session
from snakes.server.protocol import ProtocolError
from snakes.server.rooms import COLOURS, Kind, Mode, Phase, Room, Seat
from snakes.server.settings import Settings
from snakes.server.store import Store
from snakes.server.views import TurnClock, room_view

log = logging.getLogger("snakes.rooms")

MAX_FAST_FORWARD = 50_000
"""'Skip to results' plays at most this many rolls (a game never needs close to it)."""


class RoomManager:
    def __init__(
        self, settings: Settings, store: Store, hub: Hub, clock: Clock, dice: DiceSource
    ) -> None:
        self.settings = settings
        self.store = store
        self.hub = hub
        self.clock = clock
        self.dice = dice
        self.rooms: dict[str, Room] = {}
        self.turn_clocks: dict[str, TurnClock] = {}
        self._timers: dict[tuple[str, str], float] = {}
        self._heap: list[tuple[float, str, str]] = []
        self._wake = asyncio.Event()
        self.rolls = 0

    # ---- life cycle -------------------------------------------------------------

    def load(self) -> None:
        """Bring back every live online room after a start. Countdowns start again in full."""
        for code in self.store.room_codes(online=True):
            room = self.store.load_room(code)
            if room is not None:
                self.rooms[code] = room
                self._schedule(room, new_turn=True)

    def close_all(self) -> None:
        """On shutdown: tell every connection to come back (1012, service restart)."""
        for code in list(self.rooms):
            for session in self.hub.sessions(code):
                session.close()

    def purge(self) -> int:
        """Drop records past retention and local games nobody resumed in that time."""
        cutoff = time.time() - self.settings.record_days * 86400
        return self.store.purge(records_before=cutoff, local_rooms_before=cutoff)

    async def run_timers(self) -> None:
        while True:
            now = self.clock.now()
            while self._heap and self._heap[0][0] <= now:
                due, code, name = heapq.heappop(self._heap)
                if self._timers.get((code, name)) != due:
                    continue  # cancelled or moved
                del self._timers[(code, name)]
                try:
                    self._fire(code, name)
                except Exception:
                    log.exception("timer %s of room %s failed", name, code)
            delay = self._heap[0][0] - now if self._heap else None
            self._wake.clear()
            await self.clock.wait(delay, self._wake)

    def _set_timer(self, code: str, name: str, due: float) -> None:
        self._timers[(code, name)] = due
        heapq.heappush(self._heap, (due, code, name))
        self._wake.set()

    def _cancel_timer(self, code: str, name: str) -> None:
        self._timers.pop((code, name), None)

    def timer_due(self, code: str, name: str) -> float | None:
        return self._timers.get((code, name))

    # ---- rooms ------------------------------------------------------------------

    def create(
        self,
        mode: Mode,
        seats: list[Seat],
        rules: Any,
        *,
        shuffle: bool,
        countdown_seconds: int | None,
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
        room = Room(
            code=self._free_code(),
            mode=mode,
            rules=rules,
            seats=seats,
            countdown_seconds=countdown,
            host=0 if mode is Mode.ONLINE else None,
            phase=Phase.LOBBY if mode is Mode.ONLINE else Phase.PLAYING,
            created_at=now,
            touched_at=now,
        )
        if room.phase is Phase.PLAYING:
            room.start_game()
        self.store.save_room(room)
        self.rooms[room.code] = room
        self._schedule(room, new_turn=True)
        log.info("room %s created (%s, %d seats)", room.code, mode.value, len(seats))
        return room, secret

    def join(self, code: str, name: str, colour: str) -> tuple[Room, int, str]:
        """Take a free seat in an online lobby."""
        room = self.room(code)
        if room.mode is not Mode.ONLINE:
            raise ProtocolError("not_allowed", "only online rooms can be joined")
        if room.phase is not Phase.LOBBY:
            raise ProtocolError("already_started", "the game has started; you can watch it")
        if len(room.seats) >= MAX_SEATS:
            raise ProtocolError("room_full", f"all {MAX_SEATS} seats are taken")
        secret = new_secret()
        seat = Seat(name, colour, Kind.HUMAN, hash_secret(secret))
        _check_colours([*room.seats, seat])
        room.seats.append(seat)
        index = len(room.seats) - 1
        self._touch(room)
        self.store.save_room(room)
        self._publish(room, [{"type": "joined", "seat": index}])
        return room, index, secret

    def room(self, code: str) -> Room:
        """A live room by code (loading a local game from the store if needed)."""
        code = normalise_code(code)
        room = self.rooms.get(code)
        if room is None and is_room_code(code):
            room = self.store.load_room(code)
            if room is not None:
                self.rooms[code] = room
        if room is None:
            raise ProtocolError("room_not_found", "no room has that code")
        return room

    def _free_code(self) -> str:
        while True:
            code = new_room_code()
            if code not in self.rooms and self.store.load_room(code) is None:
                return code

    def _check_countdown(self, seconds: int) -> None:
        low, high = self.settings.countdown_min, self.settings.countdown_max
        if not low <= seconds <= high:
            raise ProtocolError("invalid_rules", f"the turn countdown is {low}-{high} seconds")

    # ---- connections ------------------------------------------------------------

    def hello(self, session: Session, code: str, secret: str | None) -> Room:
        room = self.room(code)
        seats: frozenset[int] = frozenset()
        if secret is not None:
            digest = hash_secret(secret)
            seats = frozenset(i for i, s in enumerate(room.seats) if s.secret_hash == digest)
            if not seats:
                raise ProtocolError("bad_secret", "that secret holds no seat in this room")
        if session.room is not None:
            self.disconnect(session)
        session.room = room.code
        session.seats = seats
        session.secret_hash = hash_secret(secret) if secret else ""
        self.hub.attach(room.code, session)
        self._schedule(room)
        self._publish(room, [], exclude=session)
        return room

    def disconnect(self, session: Session) -> None:
        code = session.room
        if code is None:
            return
        self.hub.detach(code, session)
        session.room = None
        room = self.rooms.get(code)
        if room is None:
            return
        if room.is_local and not self.hub.sessions(code):
            # A local game pauses while no device shows it; the store keeps it.
            self._release(room, delete=False)
            return
        self._schedule(room)
        self._publish(room, [])

    def connected_seats(self, room: Room) -> set[int]:
        held: set[int] = set()
        for session in self.hub.sessions(room.code):
            held |= session.seats
        return held

    def you(self, session: Session, room: Room) -> dict[str, Any]:
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
            turn_clock=self.turn_clocks.get(room.code),
            paused=self._all_racers_away(room),
            public_url=self.settings.public_url
            or f"http://{self.settings.host}:{self.settings.port}",
        )

    def welcome(self, session: Session, room: Room) -> str:
        return json.dumps(
            {"type": "welcome", "you": self.you(session, room), "room": self.view(room)}
        )

    # ---- intents ----------------------------------------------------------------

    def roll(self, session: Session, seat: int, version: int) -> None:
        room = self._seat_room(session, seat)
        game = self._playing(room)
        if version != room.version:
            raise ProtocolError(
                "stale_version", f"that roll was made at version {version}; it is {room.version}"
            )
        if game.turn != seat:
            raise ProtocolError("not_your_turn", f"it is {room.seats[game.turn or 0].name}'s turn")
        self._act(room, Roll(seat, self.dice.roll(game.faces)))

    def leave(self, session: Session, seat: int) -> None:
        room = self._seat_room(session, seat)
        if room.phase is Phase.LOBBY:
            self._remove_from_lobby(room, seat)
            return
        self._playing(room)
        self._act(room, Leave(seat))
        if room.host == seat:
            self._pass_host(room)

    def start(self, session: Session, shuffle: bool) -> None:
        room = self._host_room(session)
        if room.phase is not Phase.LOBBY:
            raise ProtocolError("already_started", "the game has already started")
        if len(room.seats) < 2:
            raise ProtocolError("not_allowed", "an online game needs at least 2 players")
        if shuffle:
            host_seat = room.seats[room.host or 0]
            random.SystemRandom().shuffle(room.seats)
            room.host = room.seats.index(host_seat)
            self._refresh_sessions(room)
        room.start_game()
        self._touch(room)
        self.store.save_room(room)
        self._publish(room, [{"type": "started"}], new_turn=True)

    def set_rules(self, session: Session, rules: Any, countdown: int | None) -> None:
        room = self._host_room(session)
        if room.phase is not Phase.LOBBY:
            raise ProtocolError("already_started", "rules are fixed once the game starts")
        if countdown is not None:
            self._check_countdown(countdown)
            room.countdown_seconds = countdown
        room.rules = rules
        self._touch(room)
        self.store.save_room(room)
        self._publish(room, [{"type": "rules_changed"}])

    def remove(self, session: Session, seat: int) -> None:
        room = self._host_room(session)
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

    def rematch(self, session: Session) -> None:
        room = self._member_room(session)
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
            self._refresh_sessions(room)
        else:
            room.first = (room.first + 1) % len(room.seats)
        room.game_number += 1
        room.start_game()
        self._touch(room)
        self.store.save_room(room)
        self._publish(room, [{"type": "rematch"}], new_turn=True)

    def finish_ai(self, session: Session) -> None:
        """'Skip to results': the remaining AI turns are really played, all at once."""
        room = self._member_room(session)
        game = self._playing(room)
        if not all(room.seats[s].kind is Kind.AI for s in game.racing):
            raise ProtocolError("not_allowed", "people are still racing")
        events: list[dict[str, Any]] = []
        for _ in range(MAX_FAST_FORWARD):
            game = self._playing(room)
            action = Roll(game.turn or 0, self.dice.roll(game.faces))
            events += self._apply(room, action)
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
        self.store.append_action(room, action)
        if isinstance(action, Roll):
            self.rolls += 1
        if room.phase is Phase.OVER:
            self.store.save_record(
                room.code, room.game_number, time.time(), room.record().to_json()
            )
            log.info("room %s game %d over", room.code, room.game_number)
        return [e.to_data() for e in events]

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
        exclude: Session | None = None,
    ) -> None:
        self._schedule(room, new_turn=new_turn, allowance=allowance)
        body = json.dumps(
            {"type": "update", "events": events, "instant": instant, "room": self.view(room)}
        )
        head = body[:-1]
        for session in self.hub.sessions(room.code):
            if session is not exclude:
                session.send(f'{head},"you":{json.dumps(self.you(session, room))}}}')

    # ---- timers ------------------------------------------------------------------

    def _all_racers_away(self, room: Room) -> bool:
        game = room.game
        if room.mode is not Mode.ONLINE or room.phase is not Phase.PLAYING or game is None:
            return False
        humans = {s for s in game.racing if room.seats[s].kind is Kind.HUMAN}
        return bool(humans) and not humans & self.connected_seats(room)

    def _schedule(self, room: Room, *, new_turn: bool = False, allowance: float = 0.0) -> None:
        """Set or cancel the room's countdown, AI, idle and host timers after any change."""
        code, now = room.code, self.clock.now()
        game = room.game if room.phase is Phase.PLAYING else None
        turn = game.turn if game is not None else None
        kind = room.seats[turn].kind if turn is not None else None
        anyone = bool(self.hub.sessions(code))
        away = self._all_racers_away(room)

        clock = self.turn_clocks.get(code)
        if room.mode is Mode.ONLINE and kind is Kind.HUMAN and not away and turn is not None:
            if new_turn or clock is None or clock.version != room.version:
                starts = now + allowance
                clock = TurnClock(turn, room.version, starts, starts + room.countdown_seconds)
                self.turn_clocks[code] = clock
                self._set_timer(code, "turn", clock.deadline)
        else:
            self.turn_clocks.pop(code, None)
            self._cancel_timer(code, "turn")

        if kind is Kind.AI and anyone and not away:
            if new_turn or self.timer_due(code, "ai") is None:
                self._set_timer(code, "ai", now + allowance + self.settings.ai_delay)
        else:
            self._cancel_timer(code, "ai")

        if room.mode is Mode.ONLINE and (away or not anyone):
            if self.timer_due(code, "idle") is None:
                self._set_timer(code, "idle", now + self.settings.idle_seconds)
        else:
            self._cancel_timer(code, "idle")

        host_gone = room.host is not None and room.host not in self.connected_seats(room)
        if room.phase is Phase.LOBBY and host_gone and anyone:
            if self.timer_due(code, "host") is None:
                self._set_timer(code, "host", now + self.settings.host_grace_seconds)
        else:
            self._cancel_timer(code, "host")

    def _fire(self, code: str, name: str) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        game = room.game
        if name == "turn":
            clock = self.turn_clocks.pop(code, None)
            if clock is not None and game is not None and game.turn == clock.seat:
                self._act(room, Skip(clock.seat))
        elif name == "ai":
            if game is not None and game.turn is not None and not game.over:
                self._act(room, Roll(game.turn, self.dice.roll(game.faces)))
        elif name == "idle":
            if room.phase is Phase.PLAYING:
                self._act(room, Abandon())
            if not self.hub.sessions(code):
                self._release(room, delete=True)
        elif name == "host":
            self._pass_host(room)

    # ---- helpers -----------------------------------------------------------------

    def _release(self, room: Room, *, delete: bool) -> None:
        """Let go of a room's live state (its record, if any, stays)."""
        for name in ("turn", "ai", "idle", "host"):
            self._cancel_timer(room.code, name)
        self.turn_clocks.pop(room.code, None)
        self.rooms.pop(room.code, None)
        if delete:
            self.store.delete_room(room.code)
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
        self.store.save_room(room)
        self._publish(room, [{"type": "host_changed", "seat": chosen}])

    def _remove_from_lobby(self, room: Room, seat: int) -> None:
        was_host = room.host == seat
        del room.seats[seat]
        if not room.seats:
            self._publish(room, [{"type": "closed"}])
            self._release(room, delete=True)
            return
        if room.host is not None and room.host > seat:
            room.host -= 1
        self._refresh_sessions(room)
        if was_host:
            # The seat that followed the host now has the host's old number.
            room.host = self._next_connected(room, seat % len(room.seats))
        self._touch(room)
        self.store.save_room(room)
        self._publish(room, [{"type": "seat_left", "seat": seat}])

    def _next_connected(self, room: Room, after: int) -> int:
        connected = self.connected_seats(room)
        count = len(room.seats)
        for step in range(count):
            candidate = (after + step) % count
            if candidate in connected:
                return candidate
        return 0

    def _refresh_sessions(self, room: Room) -> None:
        """Seat numbers moved: each connection holds whatever seats its secret still holds."""
        for session in self.hub.sessions(room.code):
            if session.secret_hash:
                session.seats = frozenset(
                    i for i, s in enumerate(room.seats) if s.secret_hash == session.secret_hash
                )

    def _touch(self, room: Room) -> None:
        room.touched_at = time.time()

    def _member_room(self, session: Session) -> Room:
        if session.room is None:
            raise ProtocolError("not_in_room", "say hello to a room first")
        if not session.seats:
            raise ProtocolError("spectator", "spectators watch; they do not play")
        return self.room(session.room)

    def _seat_room(self, session: Session, seat: int) -> Room:
        room = self._member_room(session)
        if seat not in session.seats:
            raise ProtocolError("not_your_seat", f"you do not hold seat {seat}")
        return room

    def _host_room(self, session: Session) -> Room:
        room = self._member_room(session)
        if room.host is None or room.host not in session.seats:
            raise ProtocolError("not_host", "only the host can do that")
        return room

    def _playing(self, room: Room) -> Any:
        if room.phase is Phase.LOBBY or room.game is None:
            raise ProtocolError("not_started", "the game has not started")
        if room.phase is Phase.OVER:
            raise ProtocolError("game_over", "the game is over")
        return room.game


def _check_colours(seats: list[Seat]) -> None:
    colours = [s.colour for s in seats]
    for colour in colours:
        if colour not in COLOURS:
            raise ProtocolError("invalid_colour", f"colour must be one of {', '.join(COLOURS)}")
    if len(set(colours)) != len(colours):
        raise ProtocolError("colour_taken", "each seat needs its own colour")
