"""The runtime: one owner per room, its intents applied one at a time, commit, then swap.

Data flows one way: intent -> room -> engine -> events -> store -> every viewer. For a
room this process owns, an intent waits its turn in the room's queue, runs as a pure
handler on the current room value (:func:`run_handler`), and the backend commits the
work. Only then does the handler's draft become the current room and do the messages
go out. A failed commit leaves the current room exactly as it was: the player is told
``unavailable``, and the same intent works once the store is back.

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
from dataclasses import dataclass
from typing import Any

from snakes.engine import Board, Rules
from snakes.server.backends.interfaces import Backend, StoreUnanswered, StoreUnavailable
from snakes.server.codes import hash_secret, is_room_code, new_room_code, new_secret, normalise_code
from snakes.server.rooms import lifecycle
from snakes.server.rooms.errors import OutcomeUnknown, ProtocolError, unavailable
from snakes.server.rooms.model import Kind, Mode, Room, Seat
from snakes.server.rooms.updates import welcome
from snakes.server.rooms.work import Caller, Context, Presence, RoomDice, Step, run_handler
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.intents import OPERATIONS, Operation, no_presence, nothing
from snakes.server.runtime.owners import ANSWERED, LocalOwners, NotOwner, OutcomeLost, Owners
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
the version it saw, so a copy sent again is refused (``stale_version``)."""
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
        self._rooms: dict[str, Room] = {}
        """Current values of the rooms this process owns (and has at hand)."""
        self._presence: dict[str, dict[str, str]] = {}
        """Per owned room: connection key (node/connection) -> secret digest held."""
        self._seen: dict[str, Presence] = {}
        """Per owned room: its ``_presence`` summed up, until a connection comes or goes."""
        self._queues: dict[str, _Queue] = {}
        """Per room: the intents waiting their turn. An entry goes only when none waits."""
        self._store_ok = True
        self._store_back_at = float("-inf")
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
                await self._quietly(code, "restart")

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
        return self._rooms.get(code)

    @property
    def room_count(self) -> int:
        return len(self._rooms)

    @property
    def queue_count(self) -> int:
        return len(self._queues)

    @property
    def node(self) -> str | None:
        """This node's name among several (as its log gives it); None when it is alone."""
        return None if isinstance(self.owners, LocalOwners) else self.owners.node

    def stats(self) -> dict[str, int]:
        return {
            "rooms": len(self._rooms),
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
                self._rooms[code] = step.room
                self._presence[code] = {}
                log.info("room %s created (%s, %d seats)", code, mode.value, len(seats))
                held = [i for i, s in enumerate(step.room.seats) if s.kind is Kind.HUMAN]
                return Created(code, secret, held)
        raise ProtocolError("busy", "could not find a free room code; try again")

    async def join(self, code: str, name: str, colour: str) -> tuple[str, int, str]:
        """A free seat in an online lobby: (room code, seat, the seat's secret)."""
        secret = new_secret()
        args = {"name": name, "colour": colour, "secret_hash": hash_secret(secret)}
        code = _checked(code)
        index: int = await self._run(code, "join", args, Caller(ident=self.owners.new_ident()))
        return code, index, secret

    async def view(self, code: str) -> dict[str, Any]:
        """A room's public view: what a spectator sees."""
        result: dict[str, Any] = await self._run(_checked(code), "view", {})
        return result

    async def record(self, code: str, game: int | None) -> str | None:
        try:
            return await self.backend.log.load_record(normalise_code(code), game)
        except StoreUnavailable:
            raise unavailable() from None

    # ---- connections --------------------------------------------------------------------

    async def hello(
        self, session: Session, code: str, secret: str | None, *, odds: bool = False
    ) -> None:
        """A connection joins a room's viewers (a seat's secret makes it that seat's);
        ``odds``: it shows the live odds, so they are worked out while it is here."""
        code = _checked(code)
        digest = hash_secret(secret) if secret is not None else ""
        if session.room == code and session.secret_hash == digest:
            # A hello again from a connection already here: its own welcome, nothing else.
            caller = Caller(session.id, digest)
            args = {"key": self.owners.key(session), "odds": odds}
            await self._run(code, "connect", args, caller)
            return
        if session.room is not None:
            await self.disconnect(session)
        session.room = code
        session.secret_hash = hash_secret(secret) if secret is not None else ""
        first = self.hub.attach(code, session)
        try:
            if first:
                await self.backend.bus.subscribe(code)
            await self.backend.presence.join(code, session)
            caller = Caller(session.id, session.secret_hash)
            args = {"key": self.owners.key(session), "odds": odds}
            await self._run(code, "connect", args, caller)
        except StoreUnavailable:
            await self._forget(code, session)
            self._store_failed()
            raise unavailable() from None
        except BaseException:
            await self._forget(code, session)
            raise

    async def disconnect(self, session: Session) -> None:
        code = session.room
        if code is None:
            return
        await self._forget(code, session)
        try:
            await self._run(code, "drop", {"key": self.owners.key(session)})
        except ProtocolError as error:
            if error.code != "room_not_found":
                log.warning("room %s: a disconnect was not recorded: %s", code, error.message)

    async def _forget(self, code: str, session: Session) -> None:
        session.room = None
        with contextlib.suppress(Exception):
            if self.hub.detach(code, session):
                await self.backend.bus.unsubscribe(code)
        with contextlib.suppress(Exception):
            await self.backend.presence.leave(code, session)

    async def intent(self, session: Session, name: str, args: dict[str, Any]) -> None:
        """A player's intent (roll, leave, start, rules, …) for the room it said hello to."""
        if session.room is None:
            raise ProtocolError("not_in_room", "say hello to a room first")
        ident = self.owners.new_ident() if name in RECORDED else ""
        await self._run(
            session.room, name, args, Caller(session.id, session.secret_hash, "", ident)
        )

    # ---- routing: here if this process owns the room, else to its owner -----------------

    async def _run(self, code: str, op: str, args: dict[str, Any], caller: Caller = NOBODY) -> Any:
        """Apply an operation here or at the room's owner, answered within the deadline:
        ``unavailable`` when nothing changed, ``outcome_unknown`` when it may have."""
        attempt = Attempt()
        try:
            async with asyncio.timeout(self.deadline):
                return await self._route(code, op, args, caller, attempt)
        except TimeoutError:
            self._store_failed()
            if attempt.sent and op in UNKNOWABLE:
                raise self._unknown(code, caller) from None
            raise unavailable() from None
        except OutcomeLost:
            if op not in UNKNOWABLE:
                raise unavailable() from None
            raise self._unknown(code, caller) from None

    def _unknown(self, code: str, caller: Caller) -> OutcomeUnknown:
        """The answer was lost: find out, once the store is back, what became of it."""
        if not caller.ident:
            return OutcomeUnknown()
        verdict = asyncio.create_task(self.owners.settle(code, caller.ident))
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(verdict)  # type: ignore[arg-type]  # kept until it is done
        return OutcomeUnknown(verdict)

    async def _route(
        self, code: str, op: str, args: dict[str, Any], caller: Caller, attempt: Attempt
    ) -> Any:
        for _ in range(ROUTE_ATTEMPTS):
            owner = None if code in self._rooms else await self.owners.route(code)
            if owner is None:
                try:
                    return await self._apply(code, OPERATIONS[op], args, caller, attempt)
                except NotOwner:
                    continue
            listening = bool(self.hub.sessions(code))
            attempt.sent = True
            reply = await self.owners.forward(owner, code, op, args, caller, listening=listening)
            attempt.sent = False  # answered: not applied where it went, or told how
            if reply is None:
                continue  # the owner did not answer or no longer owns it: route again
            error = reply.get("error")
            if error is not None:
                raise ProtocolError(
                    error["code"], error["message"], retry_after=error.get("retry_after")
                )
            return reply.get("result")
        raise ProtocolError("busy", "the room is moving to another server; try again")

    async def _serve(self, code: str, op: str, args: dict[str, Any], caller: Caller) -> Any:
        """An intent forwarded by another node to this one, the room's owner."""
        if code not in self._rooms and not await self.owners.holds(code):
            raise NotOwner(code)
        # The sender keeps the deadline: its own answer is what is bounded.
        return await self._apply(code, OPERATIONS[op], args, caller, Attempt())

    @staticmethod
    def _answer_with_update(step: Step, result: Any, caller: Caller) -> bool:
        """A forwarded intent with nothing to return is answered by its own update."""
        if caller.request and result is None and step.work.messages:
            step.work.answers.append(caller.request)
            return True
        return False

    # ---- applying: one intent at a time per room; commit, then swap ---------------------

    async def _apply(
        self,
        code: str,
        operation: Operation,
        args: dict[str, Any],
        caller: Caller,
        attempt: Attempt,
    ) -> Any:
        queue = self._queues.get(code)
        if queue is None:
            queue = self._queues[code] = _Queue()
        queue.waiting += 1
        try:
            async with queue.lock:
                return await self._apply_in_turn(code, operation, args, caller, attempt)
        finally:
            queue.waiting -= 1
            # The room's queue (and who is here) goes with the room, but only once no
            # intent waits in it: between a release and the next waiter's wake-up the
            # lock reads as free, and a new queue then would let two intents run at once.
            if not queue.waiting and code not in self._rooms:
                self._presence.pop(code, None)
                self._seen.pop(code, None)
                if self._queues.get(code) is queue:
                    del self._queues[code]

    async def _apply_in_turn(
        self,
        code: str,
        operation: Operation,
        args: dict[str, Any],
        caller: Caller,
        attempt: Attempt,
    ) -> Any:
        try:
            room = self._rooms.get(code) or await self._take(code)
        except StoreUnavailable:
            self._store_failed()
            raise unavailable() from None
        if room is None:
            raise ProtocolError("room_not_found", "no room has that code")
        members = self._presence.setdefault(code, {})
        before = self._presence_now(code, members)
        if operation.presence is no_presence:
            undo, now = nothing, before
        else:
            undo = operation.presence(members, args, caller)
            self._seen.pop(code, None)
            now = self._presence_now(code, members)
        ctx = self._context(now, not_before=args["due"] if operation.at_due else None)
        try:
            step, result = run_handler(
                room, ctx, lambda s: operation.handler(s, caller, before, args)
            )
            if step.work.empty:
                return result
            if step.work.durable:
                step.room.rev = room.rev + 1
            answered = self._answer_with_update(step, result, caller)
            attempt.sent = step.work.durable
            committed = await self.backend.commit(step.room, step.work, request=caller.ident)
            attempt.sent = False
        except BaseException as error:
            undo()
            self._seen.pop(code, None)
            stale = isinstance(error, ProtocolError) and error.code == "stale_version"
            if stale and caller.connection:
                await self._show_again(room, ctx, caller)
            self._not_committed(code, error, attempt)
            raise
        if not committed:
            self._let_go(code)
            raise NotOwner(code)
        self.rolls += step.rolls
        if step.work.delete:
            self._let_go(code)
            log.info("room %s released", code)
        elif step.room.is_local and not _presence_of(members).viewers:
            # A local game pauses while no device shows it; the store keeps it.
            self._let_go(code)
        else:
            self._rooms[code] = step.room
        return ANSWERED if answered else result

    def _not_committed(self, code: str, error: BaseException, attempt: Attempt) -> None:
        """After a change failed: raise what its sender is told, if the store failed."""
        unsure = isinstance(error, StoreUnanswered) or not isinstance(
            error, StoreUnavailable | ProtocolError
        )  # its answer lost, or the wait for it cut short
        if attempt.sent and unsure:
            # The commit went out and may have been stored (or be yet): the room is read
            # again before its next intent, and the store's revision check keeps this
            # node's stale copy from writing meanwhile.
            self._let_go(code)
        if isinstance(error, StoreUnavailable):
            self._store_failed()
            if attempt.sent and isinstance(error, StoreUnanswered):
                raise OutcomeLost(code) from None
            raise unavailable() from None

    async def _show_again(self, room: Room, ctx: Context, caller: Caller) -> None:
        """The sender of a stale intent is shown the room as it is now (a welcome)."""
        step, _ = run_handler(room, ctx, lambda s: welcome(s, caller.connection))
        with contextlib.suppress(StoreUnavailable):
            await self.backend.commit(step.room, step.work)

    async def _take(self, code: str) -> Room | None:
        """Load a room this process now owns: its snapshot, the log's tail, who is here."""
        room = await self.backend.log.load(code)
        if room is not None:
            members = await self.owners.members(code)
            if self.node is None:
                # Alone, this process's own connections are every member there is.
                members = {**self._presence.get(code, {}), **members}
            self._presence[code] = members
            self._seen.pop(code, None)
        return room

    def _let_go(self, code: str) -> None:
        """The room's value goes now; who is here and its queue once none waits."""
        self._rooms.pop(code, None)
        self._seen.pop(code, None)

    def _presence_now(self, code: str, members: dict[str, str]) -> Presence:
        seen = self._seen.get(code)
        if seen is None:
            seen = self._seen[code] = _presence_of(members)
        return seen

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
            await self._run(code, "fire", {"name": name, "due": due})
        except ProtocolError as error:
            if error.code == "busy":
                # The room's owner is moving (it died): keep trying while it is taken over.
                self._tasks.append(asyncio.create_task(self._fire_later(code, name, due)))
            elif error.code not in ("room_not_found", "unavailable"):
                log.warning("room %s: %s", code, error.message)

    async def _fire_later(self, code: str, name: str, due: float) -> None:
        for _ in range(FIRE_ATTEMPTS):
            await asyncio.sleep(PROBE_SECONDS)
            try:
                await self._run(code, "fire", {"name": name, "due": due})
                return
            except ProtocolError as error:
                if error.code != "busy":
                    return

    async def _quietly(self, code: str, op: str, args: dict[str, Any] | None = None) -> None:
        """Run an operation for the server's own sake; a room that has gone is no error."""
        try:
            await self._run(code, op, args or {})
        except ProtocolError as error:
            if error.code not in ("room_not_found", "unavailable"):
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
            pending = list(self._rooms)
            for code in pending:
                try:
                    await self._run(code, "restart", {})
                except ProtocolError as error:
                    if error.code == "unavailable":
                        break
            else:
                log.info("the store is back; %d rooms' countdowns restarted", len(pending))
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
                await self._run(code, "resync", {"connections": connections})
                return
            except ProtocolError as error:
                if error.code != "unavailable":
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
            for code, members in list(self._presence.items()):
                for key in [k for k in members if k.partition("/")[0] in dead]:
                    log.info("room %s: connection %s was on a node that is gone", code, key)
                    await self._quietly(code, "drop", {"key": key})


class _Queue:
    """A room's intents, one at a time, and how many are in it (running or waiting)."""

    __slots__ = ("lock", "waiting")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.waiting = 0


def _checked(code: str) -> str:
    code = normalise_code(code)
    if not is_room_code(code):
        raise ProtocolError("room_not_found", "no room has that code")
    return code


def _presence_of(members: dict[str, str]) -> Presence:
    digests = [m.partition("|")[0] for m in members.values()]
    held = [d for d in digests if d]
    odds = any(m.endswith("|odds") for m in members.values())
    return Presence(frozenset(held), len(members), len(members) - len(held), odds)
