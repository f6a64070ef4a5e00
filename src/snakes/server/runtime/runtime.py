"""The runtime: one owner per room, its intents applied one at a time, commit, then swap.

Data flows one way: intent -> room -> engine -> events -> store -> every viewer. For a
room this process owns, an intent waits its turn in the room's queue, runs as a pure
handler on the current room value (:func:`run_handler`), and the backend commits the
work (publishing its messages to other nodes). Only then does the handler's draft become
the current room, and only then does the runtime deliver the messages to this process's
connections (the backend delivers none: it imports nothing of the runtime). A failed
commit leaves the current room exactly as it was: the player is told ``unavailable``,
and the same intent works once the store is back.

With Redis, a room's owner is the node holding its lease; an intent that arrives at
another node is forwarded to the owner, and a node whose owner died takes the room over
from its snapshot and the log's tail. Without Redis this process owns every room.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from snakes.engine import Board, Rules
from snakes.server.backends.interfaces import (
    ANSWERED,
    Backend,
    NotOwner,
    OutcomeLost,
    Owners,
    StoreUnanswered,
    StoreUnavailable,
)
from snakes.server.codes import hash_secret, is_room_code, new_room_code, new_secret, normalise_code
from snakes.server.rooms import lifecycle
from snakes.server.rooms.errors import (
    Busy,
    NotInRoom,
    OutcomeUnknown,
    ProtocolError,
    RoomNotFound,
    StaleVersion,
    Unavailable,
    unavailable,
)
from snakes.server.rooms.intents import (
    Connect,
    Drop,
    Fire,
    Intent,
    Join,
    Restart,
    Resync,
    View,
    handle,
)
from snakes.server.rooms.model import Kind, Mode, Room, Seat
from snakes.server.rooms.updates import welcome
from snakes.server.rooms.work import (
    Caller,
    Context,
    Message,
    Presence,
    RoomDice,
    Step,
    run_handler,
)
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.live_room import LiveRoom
from snakes.server.runtime.members import Members
from snakes.server.runtime.owners import LocalOwners
from snakes.server.runtime.session import Session
from snakes.server.settings import Settings

log = logging.getLogger("snakes.runtime")

CREATE_ATTEMPTS = 8
ROUTE_ATTEMPTS = 4
NOBODY = Caller()
"""The caller of the server's own operations (timers, restarts)."""
PROBE_SECONDS = 0.5
"""How often a store that failed is tried again."""
FIRE_ATTEMPTS = 20
"""A due timer whose room is between owners is tried this often, PROBE_SECONDS apart."""
NODE_SWEEP_TICKS = 30
"""Seconds between full looks for connections of dead nodes (besides when one dies)."""
RECORDED = frozenset(
    {"join", "leave", "start", "rules", "seed", "add_ai", "remove", "rematch", "finish_ai",
     "reactions"}
)  # fmt: skip
"""Intents whose outcome is kept under an id with their commit (with Redis), so that a
sender who lost the answer learns whether it was applied. A roll needs none: it names
the version it saw, so a copy sent again is refused as stale (``stale_version``: its
sender is shown the room again)."""
SHOWN_AGAIN = "shown-again"
"""What applying a stale intent sent by a connection answers (also to the node that
forwarded it): not applied, and its sender was sent a welcome, the room as it is now."""
UNKNOWABLE = RECORDED | {"roll"}
"""Players' intents: a lost answer leaves their sender an ``outcome_unknown``. The
server's own operations (connect, drop, view, fire, restart, resync) and reactions
are told ``unavailable`` instead: they change nothing, or put themselves right (the
store is read again, countdowns start again in full, the state is sent again)."""


class Attempt:
    """One intent on its way: whether it went out where a lost answer leaves its
    outcome unknown (a commit sent to the store, or a request to the room's owner)."""

    __slots__ = ("sent",)

    def __init__(self) -> None:
        self.sent = False


@dataclass(frozen=True)
class Created:
    code: str
    secret: str
    seats: list[int]
    """The seats the secret holds (every human seat of a local room; the host's online)."""


class RoomRuntime:
    """Every room this process owns, and the doors to the rest (create, intents, views)."""

    def __init__(
        self,
        settings: Settings,
        backend: Backend,
        dice: RoomDice,
        hub: Hub,
        owners: Owners,
        *,
        deadline: float | None = None,
    ) -> None:
        self.settings = settings
        self.deadline = deadline
        """Seconds within which every intent and lookup is answered (with Redis: the
        store may stall; SQLite is on this machine and answers or fails by itself)."""
        self.backend = backend
        self.clock = backend.clock
        self.dice = dice
        self.hub = hub
        self.owners = owners
        self._live: dict[str, LiveRoom] = {}
        """Every room this process owns and has at hand, or has intents waiting for: its
        value, its members and its queue (see :class:`LiveRoom`)."""
        self._store_ok = True
        self._store_back_at = float("-inf")
        self._unsure: set[str] = set()
        """Rooms whose commit went out here and was not answered: it may have been stored
        (others' nodes then showed it) or not. Their connections here are shown the room
        again once the store is back, or they would never see it."""
        self._tasks: list[asyncio.Task[None]] = []
        self.rolls = 0

    # ---- life cycle of the process ----------------------------------------------------

    async def start(self) -> None:
        """Start the timers, and bring back rooms that were live when the process stopped.

        Their countdowns start again in full: nobody is skipped for the downtime.
        """
        await self.backend.start(self._store_failed, self._resync)
        self.owners.serve(self._serve)
        self._tasks.append(asyncio.create_task(self.backend.timers.run(self._fire)))
        self._tasks.append(asyncio.create_task(self._watch_nodes()))
        with contextlib.suppress(StoreUnavailable):
            for code in await self.backend.log.live_codes():
                await self._quietly(code, Restart())

    async def stop(self) -> None:
        for code in self.hub.rooms():
            for session in self.hub.sessions(code):
                session.close()
        for task in self._tasks:
            task.cancel()
        await self.owners.stop()
        await self.backend.stop()

    def current(self, code: str) -> Room | None:
        """The current value of a room this process owns (for tools and tests; never
        changed by anyone, so it is safe to read)."""
        live = self._live.get(code)
        return None if live is None else live.value

    @property
    def room_count(self) -> int:
        return sum(live.value is not None for live in self._live.values())

    @property
    def queue_count(self) -> int:
        """Rooms held with their queue: the owned ones, and any with intents waiting."""
        return len(self._live)

    @property
    def node(self) -> str | None:
        """This node's name among several (as its log gives it); None when it is alone."""
        return None if isinstance(self.owners, LocalOwners) else self.owners.node

    def stats(self) -> dict[str, int]:
        return {
            "rooms": self.room_count,
            "connections": self.hub.connections,
            **self.backend.stats(),
        }

    async def ready(self) -> bool:
        return self._store_ok and await self.backend.log.probe()

    async def purge(self) -> int:
        """Drop records past retention, local games nobody resumed in that time, and
        local games no device ever opened."""
        now = time.time()
        return await self.backend.log.purge(
            now - self.settings.record_days * 86400, now - self.settings.unopened_seconds
        )

    # ---- the HTTP API's doors -----------------------------------------------------------

    async def create(
        self,
        mode: Mode,
        seats: list[Seat],
        rules: Rules,
        *,
        shuffle: bool,
        countdown_seconds: int | None,
        board: Board,
    ) -> Created:
        secret = new_secret()
        for _ in range(CREATE_ATTEMPTS):
            code = new_room_code()
            step = lifecycle.create(
                code,
                mode,
                seats,
                rules,
                self._context(Presence()),
                secret=secret,
                shuffle=shuffle,
                countdown_seconds=countdown_seconds,
                board=board,
            )
            step.room.rev = 1
            try:
                created = await self.backend.commit(step.room, step.work, created=True)
            except StoreUnavailable:
                self._store_failed()
                raise unavailable() from None
            if created:
                live = self._live.get(code)
                if live is None:
                    self._live[code] = LiveRoom(step.room)
                else:  # a lookup of the code waits in its queue: keep the queue
                    live.value = step.room
                self._deliver(step.room, step.work.messages)
                log.info("room %s created (%s, %d seats)", code, mode.value, len(seats))
                held = [i for i, s in enumerate(step.room.seats) if s.kind is Kind.HUMAN]
                return Created(code, secret, held)
        raise Busy("could not find a free room code; try again")

    async def join(self, code: str, name: str, colour: str) -> tuple[str, int, str]:
        """A free seat in an online lobby: (room code, seat, the seat's secret)."""
        secret = new_secret()
        code = _checked(code)
        join = Join(name, colour, hash_secret(secret))
        index: int = await self._run(code, join, Caller(ident=self.owners.new_ident()))
        return code, index, secret

    async def view(self, code: str) -> dict[str, Any]:
        """A room's public view: what a spectator sees."""
        result: dict[str, Any] = await self._run(_checked(code), View())
        return result

    async def record(self, code: str, game: int | None) -> str | None:
        try:
            return await self.backend.log.load_record(normalise_code(code), game)
        except StoreUnavailable:
            raise unavailable() from None

    # ---- connections --------------------------------------------------------------------

    async def hello(
        self,
        session: Session,
        code: str,
        secret: str | None,
        *,
        odds: bool = False,
        arrived: float | None = None,
    ) -> None:
        """A connection joins a room's viewers (a seat's secret makes it that seat's);
        ``odds``: it shows the live odds, so they are worked out while it is here.
        ``arrived``: when it came (the loop's time), which the deadline counts from."""
        code = _checked(code)
        digest = hash_secret(secret) if secret is not None else ""
        if session.room == code and session.secret_hash == digest:
            # A hello again from a connection already here: its own welcome, nothing else.
            caller = Caller(session.id, digest)
            connect = Connect(self.owners.key(session), odds)
            await self._run(code, connect, caller, arrived=arrived)
            return
        if session.room is not None:
            await self.disconnect(session, arrived=arrived)
        session.room = code
        session.secret_hash = hash_secret(secret) if secret is not None else ""
        self.hub.attach(code, session)
        try:
            async with asyncio.timeout_at(self._answer_by(arrived)):
                # Every time, not only for the room's first connection here: on a cluster
                # the room's channel may not be heard yet (asked, or moving).
                await self.backend.bus.subscribe(code)
                await self.backend.presence.join(code, session)
            caller = Caller(session.id, session.secret_hash)
            connect = Connect(self.owners.key(session), odds)
            await self._run(code, connect, caller, arrived=arrived)
        except (StoreUnavailable, TimeoutError):
            await self._forget(code, session)
            self._store_failed()
            raise unavailable() from None
        except BaseException:
            await self._forget(code, session)
            raise

    async def disconnect(self, session: Session, *, arrived: float | None = None) -> None:
        code = session.room
        if code is None:
            return
        await self._forget(code, session)
        try:
            await self._run(code, Drop(self.owners.key(session)), arrived=arrived)
        except ProtocolError as error:
            if not isinstance(error, RoomNotFound):
                log.warning("room %s: a disconnect was not recorded: %s", code, error.message)

    async def _forget(self, code: str, session: Session) -> None:
        session.room = None
        with contextlib.suppress(Exception):
            if self.hub.detach(code, session):
                await self.backend.bus.unsubscribe(code)
        with contextlib.suppress(Exception):
            await self.backend.presence.leave(code, session)

    async def intent(
        self, session: Session, intent: Intent, *, arrived: float | None = None
    ) -> bool:
        """A player's intent (roll, leave, start, rules, …) for the room it said hello to;
        ``arrived``: when it came (the loop's time), which the deadline counts from.

        False: it was stale (made against an older state of the room), so it was not
        applied, and its sender was sent the room as it is now (a welcome), nothing more.
        """
        if session.room is None:
            raise NotInRoom("say hello to a room first")
        ident = self.owners.new_ident() if intent.kind in RECORDED else ""
        caller = Caller(session.id, session.secret_hash, "", ident)
        answer = await self._run(session.room, intent, caller, arrived=arrived)
        return bool(answer != SHOWN_AGAIN)

    # ---- routing: here if this process owns the room, else to its owner -----------------

    def _answer_by(self, arrived: float | None) -> float | None:
        """When an operation that came at ``arrived`` (now, if None) must be answered."""
        if self.deadline is None:
            return None
        if arrived is None:
            arrived = asyncio.get_running_loop().time()
        return arrived + self.deadline

    async def _run(
        self, code: str, intent: Intent, caller: Caller = NOBODY, *, arrived: float | None = None
    ) -> Any:
        """Apply an operation here or at the room's owner, answered within the deadline
        from its arrival (the wait for its turn in its connection's queue included):
        ``unavailable`` when nothing changed, ``outcome_unknown`` when it may have."""
        attempt = Attempt()
        try:
            async with asyncio.timeout_at(self._answer_by(arrived)):
                return await self._route(code, intent, caller, attempt)
        except TimeoutError:
            self._store_failed()
            if attempt.sent and intent.kind in UNKNOWABLE:
                raise self._unknown(code, caller) from None
            raise unavailable() from None
        except OutcomeLost:
            if intent.kind not in UNKNOWABLE:
                raise unavailable() from None
            raise self._unknown(code, caller) from None

    def _unknown(self, code: str, caller: Caller) -> OutcomeUnknown:
        """The answer was lost: find out, once the store is back, what became of it."""
        if not caller.ident:
            return OutcomeUnknown()
        verdict = asyncio.create_task(self.owners.settle(code, caller.ident))
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(verdict)  # type: ignore[arg-type]  # kept until it is done
        return OutcomeUnknown(verdict=verdict)

    async def _route(self, code: str, intent: Intent, caller: Caller, attempt: Attempt) -> Any:
        for _ in range(ROUTE_ATTEMPTS):
            owner = None if self.current(code) else await self.owners.route(code)
            if owner is None:
                try:
                    return await self._apply(code, intent, caller, attempt)
                except NotOwner:
                    continue
            listening = bool(self.hub.sessions(code))
            attempt.sent = True
            reply = await self.owners.forward(owner, code, intent, caller, listening=listening)
            attempt.sent = False  # answered: not applied where it went, or told how
            if reply is None:
                continue  # the owner did not answer or no longer owns it: route again
            if reply.refused is not None:
                raise reply.refused
            return reply.result
        raise Busy("the room is moving to another server; try again")

    async def _serve(self, code: str, intent: Intent, caller: Caller) -> Any:
        """An intent forwarded by another node to this one, the room's owner."""
        if not self.current(code) and not await self.owners.holds(code):
            raise NotOwner(code)
        # The sender keeps the deadline: its own answer is what is bounded.
        return await self._apply(code, intent, caller, Attempt())

    @staticmethod
    def _answer_with_update(step: Step, result: Any, caller: Caller) -> bool:
        """A forwarded intent with nothing to return is answered by its own update."""
        if caller.request and result is None and step.work.messages:
            step.work.answers.append(caller.request)
            return True
        return False

    # ---- applying: one intent at a time per room; commit, then swap ---------------------

    async def _apply(self, code: str, intent: Intent, caller: Caller, attempt: Attempt) -> Any:
        live = self._live.get(code)
        if live is None:
            live = self._live[code] = LiveRoom()
        live.waiting += 1
        try:
            async with live.lock:
                return await self._apply_in_turn(code, live, intent, caller, attempt)
        finally:
            live.waiting -= 1
            # The room goes (its members and queue with it) only once no intent waits.
            if live.idle and self._live.get(code) is live:
                del self._live[code]

    async def _apply_in_turn(
        self, code: str, live: LiveRoom, intent: Intent, caller: Caller, attempt: Attempt
    ) -> Any:
        try:
            room = live.value or await self._take(code, live)
        except StoreUnavailable:
            self._store_failed()
            raise unavailable() from None
        if room is None:
            raise RoomNotFound("no room has that code")
        before = live.members
        after = before.after(intent, caller)
        if isinstance(intent, Drop):
            live.members = after  # a connection that went stays gone, stored or not
        ctx = self._context(after.presence, intent.due if isinstance(intent, Fire) else None)
        try:
            step, result = run_handler(room, ctx, self._handler(intent, caller, before.presence))
            if step.work.empty:
                live.members = after
                return result
            if step.work.durable:
                step.room.rev = room.rev + 1
            answered = self._answer_with_update(step, result, caller)
            attempt.sent = step.work.durable
            committed = await self.backend.commit(step.room, step.work, request=caller.ident)
            attempt.sent = False
        except BaseException as error:
            # The members stay as they were, like the room: nothing to undo.
            stale = isinstance(error, StaleVersion)
            if stale and caller.connection and await self._show_again(room, ctx, caller):
                return SHOWN_AGAIN  # the welcome is the whole answer: the room as it is now
            self._not_committed(code, live, error, attempt)
            raise
        if not committed:
            live.value = None  # another node owns the room now
            raise NotOwner(code)
        live.members = after
        self.rolls += step.rolls
        if step.work.delete:
            live.value = None
            log.info("room %s released", code)
        elif step.room.is_local and not after.presence.viewers:
            live.value = None  # a local game pauses while no device shows it; it is stored
        else:
            live.value = step.room
        self._deliver(step.room, step.work.messages)
        return ANSWERED if answered else result

    def _deliver(self, room: Room, messages: list[Message]) -> None:
        """A committed change's messages to this process's connections of the room, once
        the room is swapped in (the store published them to any other node's)."""
        if messages:
            self.hub.deliver(room.code, messages, room.host, [s.secret_hash for s in room.seats])

    @staticmethod
    def _handler(intent: Intent, caller: Caller, before: Presence) -> Callable[[Step], Any]:
        """The handler for this intent, as :func:`run_handler` calls it."""
        return partial(handle, intent=intent, caller=caller, before=before)

    def _not_committed(
        self, code: str, live: LiveRoom, error: BaseException, attempt: Attempt
    ) -> None:
        """After a change failed: raise what its sender is told, if the store failed."""
        unsure = isinstance(error, StoreUnanswered) or not isinstance(
            error, StoreUnavailable | ProtocolError
        )  # its answer lost, or the wait for it cut short
        if attempt.sent and unsure:
            # The commit went out and may have been stored (or be yet): the room is read
            # again before its next intent, and the store's revision check keeps this
            # node's stale copy from writing meanwhile.
            live.value = None
            self._unsure.add(code)
        if isinstance(error, StoreUnavailable):
            self._store_failed()
            if attempt.sent and isinstance(error, StoreUnanswered):
                raise OutcomeLost(code) from None
            raise unavailable() from None

    async def _show_again(self, room: Room, ctx: Context, caller: Caller) -> bool:
        """The sender of a stale intent is shown the room as it is now: a welcome, and no
        error with it (its client acts again on what it now sees, and needs no reconnect).
        False: the welcome could not go out, and the refusal is sent instead."""
        step, _ = run_handler(room, ctx, lambda s: welcome(s, caller.connection))
        try:
            sent = await self.backend.commit(step.room, step.work)
        except StoreUnavailable:
            return False
        if sent:
            self._deliver(step.room, step.work.messages)
        return True

    async def _take(self, code: str, live: LiveRoom) -> Room | None:
        """Load a room this process now owns: its snapshot, the log's tail, who is here."""
        room = await self.backend.log.load(code)
        if room is not None:
            members = await self.owners.members(code)
            if self.node is None:
                # Alone, this process's own connections are every member there is.
                live.members = live.members.joined(members)
            else:
                live.members = Members(members)
        return room

    def _context(self, presence: Presence, not_before: float | None = None) -> Context:
        now = self.clock.now()
        return Context(
            now=now if not_before is None else max(now, not_before),
            wall=time.time(),
            presence=presence,
            settings=self.settings,
            dice=self.dice,
            store_back_at=self._store_back_at,
        )

    # ---- timers, outages and nodes --------------------------------------------------------

    async def _fire(self, code: str, name: str, due: float) -> None:
        if not self._store_ok:
            return  # every countdown restarts in full once the store is back
        try:
            await self._run(code, Fire(name, due))
        except ProtocolError as error:
            if isinstance(error, Busy):
                # The room's owner is moving (it died): keep trying while it is taken over.
                self._tasks.append(asyncio.create_task(self._fire_later(code, name, due)))
            elif not isinstance(error, RoomNotFound | Unavailable):
                log.warning("room %s: %s", code, error.message)

    async def _fire_later(self, code: str, name: str, due: float) -> None:
        for _ in range(FIRE_ATTEMPTS):
            await asyncio.sleep(PROBE_SECONDS)
            try:
                await self._run(code, Fire(name, due))
                return
            except ProtocolError as error:
                if not isinstance(error, Busy):
                    return

    async def _quietly(self, code: str, intent: Intent) -> None:
        """Run an operation for the server's own sake; a room that has gone is no error."""
        try:
            await self._run(code, intent)
        except ProtocolError as error:
            if not isinstance(error, RoomNotFound | Unavailable):
                log.warning("room %s: %s", code, error.message)

    def _store_failed(self) -> None:
        if self._store_ok:
            self._store_ok = False
            log.error("the store is unreachable; rolls wait until it is back")
            self._tasks.append(asyncio.create_task(self._recover()))

    async def _recover(self) -> None:
        """Probe the store until it takes writes, then restart every running countdown.

        Until every room is put right (each room's restart is itself a write), the
        recovery goes on: the resend to the players is retried until it succeeds.
        """
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            if not await self.backend.log.probe():
                continue
            self._store_back_at = self.clock.now()
            self._store_ok = True
            pending = [code for code, live in self._live.items() if live.value is not None]
            for code in pending:
                try:
                    await self._run(code, Restart())
                except ProtocolError as error:
                    if isinstance(error, Unavailable):
                        break
            else:
                log.info("the store is back; %d rooms' countdowns restarted", len(pending))
                unsure, self._unsure = sorted(self._unsure), set()
                self._resync(unsure)
                return
            self._store_ok = False

    def _resync(self, rooms: list[str]) -> None:
        """Messages to these rooms' connections here may have been lost: send the state."""
        for code in rooms:
            self._tasks.append(asyncio.create_task(self._welcome_again(code)))

    async def _welcome_again(self, code: str) -> None:
        while True:
            connections = [s.id for s in self.hub.sessions(code)]
            if not connections:
                return
            try:
                await self._run(code, Resync(tuple(connections)))
                return
            except ProtocolError as error:
                if not isinstance(error, Unavailable):
                    return
            await asyncio.sleep(PROBE_SECONDS)

    async def _watch_nodes(self) -> None:
        """Connections held by a node that died stop counting as present.

        Rooms are looked through when a node is newly taken for dead (a connection
        joins from a live node, and a room taken over starts from live members only),
        and once in a while besides, for a join that was on its way as its node died.
        """
        seen: frozenset[str] = frozenset()
        for tick in itertools.count(1):
            await asyncio.sleep(1.0)
            dead = self.owners.dead()
            newly_dead, seen = dead - seen, dead
            if not dead or (not newly_dead and tick % NODE_SWEEP_TICKS):
                continue
            for code, live in list(self._live.items()):
                for key in [k for k in live.members if k.partition("/")[0] in dead]:
                    log.info("room %s: connection %s was on a node that is gone", code, key)
                    await self._quietly(code, Drop(key))


def _checked(code: str) -> str:
    code = normalise_code(code)
    if not is_room_code(code):
        raise RoomNotFound("no room has that code")
    return code
