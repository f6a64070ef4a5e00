"""A room's life, named as Colyseus names a room's hooks.

create -> join (a seat in an online lobby) -> connect (a connection says hello; with a
seat's secret it is a reconnect) -> drop (a connection goes) -> leave (a player gives up
the seat) -> dispose (the live state is released; records stay). Timers fire into
:func:`fire`, and :func:`restart_countdown` starts an interrupted countdown again in
full (after a restart, a takeover or a store outage).
"""

from __future__ import annotations

from snakes.engine import JUNGLE, MAX_SEATS, Abandon, Board, Rules
from snakes.server.codes import hash_secret
from snakes.server.rooms.access import held
from snakes.server.rooms.errors import BadSecret, InvalidSeats, TooManyViewers
from snakes.server.rooms.lobby import (
    check_colours,
    check_countdown,
    dispose,
    join,
    leave,
    rematch_now,
    rematch_ready,
)
from snakes.server.rooms.lobby import pass_host as _pass_host
from snakes.server.rooms.model import Kind, Mode, Phase, Room, Seat
from snakes.server.rooms.timers import all_racers_away, connected_seats, schedule, set_timer
from snakes.server.rooms.turns import act, roll_for_ai, skip_stalled
from snakes.server.rooms.updates import presence, publish, welcome
from snakes.server.rooms.work import Caller, Context, Presence, Step

__all__ = [
    "connect",
    "create",
    "dispose",
    "drop",
    "fire",
    "join",
    "leave",
    "reconnect",
    "restart_countdown",
    "welcome_again",
]

OVERDUE_SECONDS = 10.0
"""A countdown found this late was interrupted by an outage, not run out by a player."""


def create(
    code: str,
    mode: Mode,
    seats: list[Seat],
    rules: Rules,
    ctx: Context,
    *,
    secret: str,
    shuffle: bool,
    countdown_seconds: int | None,
    board: Board = JUNGLE,
) -> Step:
    """A new room under ``code``; ``secret`` holds its human seats (online: the host's)."""
    countdown = countdown_seconds or ctx.settings.countdown_default
    check_countdown(ctx.settings, countdown)
    check_colours(seats)
    people = sum(s.kind is Kind.HUMAN for s in seats)
    if mode is Mode.AI and (people != 1 or not 2 <= len(seats) <= MAX_SEATS):
        raise InvalidSeats("Play with AI is you and 1-5 AI seats")
    if mode is Mode.PASS and not 2 <= len(seats) <= MAX_SEATS:
        raise InvalidSeats("Pass & Play has 2-6 seats")
    if mode is Mode.ONLINE and (len(seats) != 1 or seats[0].kind is not Kind.HUMAN):
        raise InvalidSeats("an online room starts with the host alone")
    digest = hash_secret(secret)
    seats = [s.held_by(digest if s.kind is Kind.HUMAN else "") for s in seats]
    if shuffle:
        ctx.chance.shuffle(seats)
    online = mode is Mode.ONLINE
    room = Room(
        code=code,
        mode=mode,
        rules=rules,
        seats=seats,
        countdown_seconds=countdown,
        board=board,
        server_seed=ctx.chance.server_seed().hex() if online else "",
        host=0 if online else None,
        phase=Phase.LOBBY if online else Phase.PLAYING,
        created_at=ctx.wall,
        touched_at=ctx.wall,
    )
    step = Step(room, ctx)
    step.work.changed = True
    if step.room.phase is Phase.PLAYING:
        step.room.start_game()
        step.work.new_game = True
    schedule(step, new_turn=True)
    return step


def connect(step: Step, caller: Caller, before: Presence) -> None:
    """A connection said hello (``before`` is who was connected until it did).

    It gets the whole state in a welcome, after the timers are brought up to date, so
    the welcome carries the countdown that is running. The others hear of it only if
    it changes what they see (a seat comes online, or a paused countdown starts), and
    then only in a small presence message.
    """
    room, ctx = step.room, step.ctx
    if caller.secret_hash and not held(room, caller.secret_hash):
        raise BadSecret("that secret holds no seat in this room")
    if not caller.secret_hash and ctx.presence.spectators > ctx.settings.max_spectators:
        raise TooManyViewers(f"this room has {ctx.settings.max_spectators} watching already")
    if room.is_local and not room.opened:
        room.opened = True
        step.work.changed = True
    _presence_changed(step, before, skip=caller.connection)
    welcome(step, caller.connection)


reconnect = connect
"""A reconnect is a hello with the seat's secret: the seat, the state and the countdown."""


def drop(step: Step, before: Presence) -> None:
    """A connection went (closed, lost, or too far behind to keep).

    After a game, the one player who had not yet agreed to a rematch may be the one who
    went: then everyone still here has agreed, and it starts."""
    if rematch_ready(step.room, connected_seats(step.room, step.ctx.presence)):
        rematch_now(step)
        return
    _presence_changed(step, before)


def _presence_changed(step: Step, before: Presence, skip: str = "") -> None:
    room, ctx = step.room, step.ctx
    seats_before = connected_seats(room, before)
    paused_before = all_racers_away(room, before)
    clock_before = room.turn_clock
    schedule(step)
    changed = (
        connected_seats(room, ctx.presence) != seats_before
        or all_racers_away(room, ctx.presence) != paused_before
        or room.turn_clock != clock_before
    )
    if changed:
        presence(step, skip=skip)


def restart_countdown(step: Step) -> None:
    """Start every timer again as if the current turn had just begun: nobody is skipped
    for time the server (or its store) was not there."""
    had_clock = step.room.turn_clock is not None
    step.room.turn_clock = None
    for name in list(step.room.timers):
        set_timer(step, name, None)
    schedule(step, new_turn=True)
    if had_clock or step.room.turn_clock is not None:
        publish(step, [])


def fire(step: Step, name: str, due: float) -> None:
    """A timer is due. A timer that was moved or cancelled since does nothing."""
    room, ctx = step.room, step.ctx
    if abs(room.timers.get(name, -1.0) - due) > 1e-6:
        return
    set_timer(step, name, None)
    clock = room.turn_clock
    if name == "turn" and (
        ctx.now - due > OVERDUE_SECONDS
        or (clock is not None and clock.starts_at <= ctx.store_back_at)
    ):
        # Nobody could have run this countdown to its end (the server or its store was
        # down while it ran): it starts again in full rather than skip a player.
        restart_countdown(step)
        return
    if name == "turn":
        skip_stalled(step)
    elif name == "ai":
        roll_for_ai(step)
    elif name == "idle":
        if room.phase is Phase.PLAYING:
            act(step, Abandon())
        if not ctx.presence.viewers:
            dispose(step)
    elif name == "host":
        _pass_host(step)


def welcome_again(step: Step, connections: list[str]) -> None:
    """The whole state again, to connections that may have missed updates."""
    for connection in connections:
        welcome(step, connection)
