"""A room's life as pure handlers: hello, drop, timers firing, a countdown restarted.

PRODUCT.md, Play Online: "When every player still racing is disconnected, the countdown
pauses. If none of them is back within the idle time, the game ends: those still racing
are ranked by square reached, marked "did not finish"."
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from snakes.server.rooms import lifecycle
from snakes.server.rooms.model import Phase
from snakes.server.rooms.updates import view
from snakes.server.rooms.work import Presence, Step
from tests.rooms.helpers import (
    NOW,
    SETTINGS,
    SPECTATOR,
    caller,
    context,
    handle,
    online_game,
    online_lobby,
    present,
    updates,
)


def firing(name: str, due: float) -> Callable[[Step], None]:
    return lambda s: lifecycle.fire(s, name, due)


def test_a_spectator_saying_hello_gets_a_welcome_and_nobody_else_hears_of_it() -> None:
    """PRODUCT.md: "Only game actions advance a game's version; connecting, spectating
    or reacting never does."."""
    room = online_game(2)
    ctx = context(present(0, 1, viewers=3))
    step, _ = handle(room, ctx, lambda s: lifecycle.connect(s, SPECTATOR, present(0, 1)))
    (welcome,) = step.work.messages
    assert welcome.to == SPECTATOR.connection
    assert json.loads(welcome.body)["type"] == "welcome"
    assert step.room.version == room.version and not step.work.durable


def test_a_seat_coming_back_online_is_shown_to_the_others() -> None:
    """PRODUCT.md: "Reconnecting: a per-seat secret kept in the browser brings a player
    who reloads, loses the network or changes networks back to their seat"."""
    room = online_game(2)
    step, _ = handle(
        room, context(present(0, 1)), lambda s: lifecycle.connect(s, caller(1), present(0))
    )
    told, welcome = step.work.messages
    assert told.skip == caller(1).connection and welcome.to == caller(1).connection
    # A small presence message, not the whole room: nothing else changed, nothing stored.
    body = json.loads(told.body)
    assert told.presence and sorted(body) == ["connected", "countdown", "type"]
    assert body["type"] == "presence" and body["connected"] == [True, True]
    shown = view(step)["countdown"]
    assert [body["countdown"][k] for k in ("seat", "remaining_ms", "paused")] == [
        shown[k] for k in ("seat", "remaining_ms", "paused")
    ]
    assert len(told.body) * 4 < len(welcome.body)
    assert step.room.version == room.version and not step.work.durable


def test_a_seat_going_offline_is_a_presence_message_and_a_last_racer_pauses_the_countdown() -> None:
    """PRODUCT.md: "When every player still racing is disconnected, the countdown pauses"."""
    room = online_game(2)
    one_gone, _ = handle(room, context(present(0)), lambda s: lifecycle.drop(s, present(0, 1)))
    (told,) = one_gone.work.messages
    body = json.loads(told.body)
    assert told.presence and body["connected"] == [True, False]
    assert body["countdown"]["paused"] is False and not one_gone.work.durable
    both_gone, _ = handle(
        one_gone.room, context(Presence()), lambda s: lifecycle.drop(s, present(0))
    )
    (told,) = both_gone.work.messages
    body = json.loads(told.body)
    assert body["connected"] == [False, False] and body["countdown"]["paused"] is True
    assert both_gone.work.durable  # the idle timer and the paused countdown are stored


def test_a_timer_that_was_moved_or_cancelled_does_nothing() -> None:
    """lifecycle.py: "A timer that was moved or cancelled since does nothing."."""
    room = online_game(2)
    due = room.timers["turn"]
    for name, when in (("turn", due - 1), ("ai", due), ("idle", due)):
        step, _ = handle(room, context(present(0, 1), now=due), firing(name, when))
        assert step.work.empty and step.room.version == room.version


def test_a_room_left_alone_for_the_idle_time_ends_unfinished_and_is_released() -> None:
    """PRODUCT.md: "If none of them is back within the idle time, the game ends: those
    still racing are ranked by square reached, marked "did not finish"."."""
    room = online_game(2)
    gone, _ = handle(room, context(Presence()), lambda s: lifecycle.drop(s, present(0, 1)))
    due = gone.room.timers["idle"]
    assert due == NOW + SETTINGS.idle_seconds and "turn" not in gone.room.timers
    step, _ = handle(gone.room, context(now=due), firing("idle", due))
    assert step.work.delete and step.room.timers == {}
    assert step.work.record is not None  # the record stays
    (update,) = updates(step)
    assert update["events"][-1]["reason"] == "abandoned"
    assert [(r["seat"], r["status"]) for r in update["room"]["results"]] == [
        (0, "did-not-finish"),
        (1, "did-not-finish"),
    ]


def test_a_watched_room_whose_racers_all_left_ends_but_stays_for_its_watchers() -> None:
    """PRODUCT.md: "the result screen for everyone"."""
    room = online_game(2)
    watched = Presence(frozenset(), viewers=1)
    gone, _ = handle(room, context(watched), lambda s: lifecycle.drop(s, present(0, 1)))
    due = gone.room.timers["idle"]
    step, _ = handle(gone.room, context(watched, now=due), firing("idle", due))
    assert step.room.phase is Phase.OVER and not step.work.delete


def test_an_interrupted_countdown_starts_again_in_full() -> None:
    """PRODUCT.md: "If the server restarts, an interrupted countdown starts again in
    full: nobody is skipped for the server's downtime."."""
    room = online_game(2, countdown=10)
    later = NOW + 7
    step, _ = handle(room, context(present(0, 1), now=later), lifecycle.restart_countdown)
    clock = step.room.turn_clock
    assert clock is not None and clock.starts_at == later and clock.deadline == later + 10
    assert step.room.timers["turn"] == later + 10
    assert updates(step)[0]["room"]["countdown"]["remaining_ms"] == 10_000


def test_a_countdown_found_long_overdue_starts_again_instead_of_skipping() -> None:
    """PRODUCT.md: "nobody is skipped for the server's downtime"."""
    room = online_game(2)
    due = room.timers["turn"]
    late = due + lifecycle.OVERDUE_SECONDS + 1
    step, _ = handle(room, context(present(0, 1), now=late), firing("turn", due))
    assert step.room.version == room.version and step.work.actions == []
    assert step.room.timers["turn"] == late + room.countdown_seconds


def test_a_countdown_that_ran_while_the_store_was_down_starts_again_in_full() -> None:
    """PRODUCT.md: "Nothing a player did is lost"; a store outage skips nobody either."""
    room = online_game(2)
    due = room.timers["turn"]
    ctx = context(present(0, 1), now=due)
    step, _ = handle(room, replace(ctx, store_back_at=NOW + 1), firing("turn", due))
    assert step.work.actions == [] and step.room.timers["turn"] == due + room.countdown_seconds


def test_a_host_gone_for_the_grace_time_hands_the_lobby_to_a_connected_seat() -> None:
    """PRODUCT.md: "If the host leaves (or stays disconnected for a minute in the
    lobby), the next connected seat hosts."."""
    room = online_lobby(3)
    gone, _ = handle(room, context(present(2)), lambda s: lifecycle.drop(s, present(0, 2)))
    due = gone.room.timers["host"]
    assert due == NOW + SETTINGS.host_grace_seconds
    step, _ = handle(gone.room, context(present(2), now=due), firing("host", due))
    assert step.room.host == 2  # seat 1 is not connected: the next connected seat hosts
    assert updates(step)[0]["events"] == [{"type": "host_changed", "seat": 2}]
    shown = handle(step.room, context(present(2)), view)[1]
    assert [s["host"] for s in shown["seats"]] == [False, False, True]
