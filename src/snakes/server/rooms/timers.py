"""The timer policy: from a room, who is connected and the time, the timers it needs.

A room has at most four pending timers, each by name:

- ``turn``: an online human's countdown ran out; the turn is skipped (never rolled).
- ``ai``: an AI seat's pause is over (someone is watching); the AI seat rolls.
- ``idle``: an online room had nobody (or no racer) connected for the idle time; the
  game is abandoned and the room released.
- ``host``: a lobby's host was disconnected for the grace time; the next connected
  seat hosts.

:func:`plan_timers` is pure: the same room, presence and time give the same plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from snakes.server.rooms.model import Kind, Mode, Phase, Room, TurnClock
from snakes.server.rooms.work import Presence, Step
from snakes.server.settings import Settings

TIMER_NAMES = ("turn", "ai", "idle", "host")


@dataclass(frozen=True)
class TimerPlan:
    """The countdown the room shows, and the timers to set (a due time) or cancel (None)."""

    turn_clock: TurnClock | None
    changes: dict[str, float | None] = field(default_factory=dict)


def connected_seats(room: Room, presence: Presence) -> set[int]:
    return {
        i for i, s in enumerate(room.seats) if s.secret_hash and s.secret_hash in presence.secrets
    }


def all_racers_away(room: Room, presence: Presence, connected: set[int] | None = None) -> bool:
    """Every person still racing in an online game is disconnected: the countdown pauses.

    ``connected``: :func:`connected_seats`, when the caller has it already."""
    game = room.game
    if room.mode is not Mode.ONLINE or room.phase is not Phase.PLAYING or game is None:
        return False
    if connected is None:
        connected = connected_seats(room, presence)
    people = [s for s in game.racing if room.seats[s].kind is Kind.HUMAN]
    return bool(people) and not any(s in connected for s in people)


def plan_timers(
    room: Room,
    presence: Presence,
    now: float,
    settings: Settings,
    *,
    new_turn: bool = False,
    allowance: float = 0.0,
    connected: set[int] | None = None,
) -> TimerPlan:
    """The timers ``room`` needs now; ``new_turn`` restarts the countdown in full.

    ``allowance`` is the time the browsers are given to show the move that just happened:
    the next countdown (or AI pause) starts after it. ``connected``:
    :func:`connected_seats`, when the caller has it already.
    """
    changes: dict[str, float | None] = {}
    timers = room.timers
    game = room.game if room.phase is Phase.PLAYING else None
    turn = game.turn if game is not None else None
    kind = room.seats[turn].kind if turn is not None else None
    anyone = presence.viewers > 0
    if connected is None:
        connected = connected_seats(room, presence)
    away = all_racers_away(room, presence, connected)

    clock = room.turn_clock
    if room.mode is Mode.ONLINE and kind is Kind.HUMAN and not away and turn is not None:
        if new_turn or clock is None or clock.version != room.version:
            starts = now + allowance
            clock = TurnClock(turn, room.version, starts, starts + room.countdown_seconds)
            changes["turn"] = clock.deadline
    else:
        clock = None
        if "turn" in timers:
            changes["turn"] = None

    if kind is Kind.AI and anyone and not away:
        if new_turn or "ai" not in timers:
            changes["ai"] = now + allowance + settings.ai_delay
    elif "ai" in timers:
        changes["ai"] = None

    if room.mode is Mode.ONLINE and (away or not anyone):
        if "idle" not in timers:
            changes["idle"] = now + settings.idle_seconds
    elif "idle" in timers:
        changes["idle"] = None

    host_gone = room.host is not None and room.host not in connected
    if room.phase is Phase.LOBBY and host_gone and anyone:
        if "host" not in timers:
            changes["host"] = now + settings.host_grace_seconds
    elif "host" in timers:
        changes["host"] = None
    return TimerPlan(clock, changes)


def set_timer(step: Step, name: str, due: float | None) -> None:
    """Set (or with None cancel) one of the draft's timers, and note it in the work."""
    timers = step.room.timers
    if due is None:
        if timers.pop(name, None) is not None:
            step.work.timers[name] = None
    else:
        timers[name] = due
        step.work.timers[name] = due
    step.work.changed = True


def schedule(
    step: Step,
    *,
    new_turn: bool = False,
    allowance: float = 0.0,
    connected: set[int] | None = None,
) -> None:
    """Bring the draft's timers in line with the policy after any change."""
    ctx = step.ctx
    plan = plan_timers(
        step.room,
        ctx.presence,
        ctx.now,
        ctx.settings,
        new_turn=new_turn,
        allowance=allowance,
        connected=connected,
    )
    if plan.turn_clock != step.room.turn_clock:
        step.room.turn_clock = plan.turn_clock
        step.work.changed = True
    for name, due in plan.changes.items():
        set_timer(step, name, due)


def cancel_all(step: Step) -> None:
    for name in TIMER_NAMES:
        set_timer(step, name, None)
    step.room.turn_clock = None
