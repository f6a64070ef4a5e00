"""The timer policy on its own: a room, who is connected and the time give the timers.

PRODUCT.md, Play Online: "Every player sees the countdown. There is one per roll, bonus
rolls included, and it starts once the previous move has been shown (the server allows
a short, fixed time for the animation)."
"""

from __future__ import annotations

from dataclasses import replace

from snakes.engine import Rules
from snakes.server.rooms.model import Kind, Mode, Room, Seat
from snakes.server.rooms.timers import all_racers_away, plan_timers
from snakes.server.rooms.work import Presence
from tests.rooms.helpers import (
    CODE,
    NOW,
    SETTINGS,
    assert_unchanged,
    caller,
    online_game,
    online_lobby,
    present,
    snapshot,
)


def test_an_online_humans_turn_gets_a_countdown_after_the_move_allowance() -> None:
    """PRODUCT.md: "it starts once the previous move has been shown (the server allows
    a short, fixed time for the animation)"."""
    room = online_game(2, countdown=15)
    plan = plan_timers(room, present(0, 1), NOW, SETTINGS, new_turn=True, allowance=1.5)
    assert plan.turn_clock is not None
    assert plan.turn_clock.seat == 0 and plan.turn_clock.version == room.version
    assert plan.turn_clock.starts_at == NOW + 1.5
    assert plan.turn_clock.deadline == NOW + 1.5 + 15
    assert plan.changes == {"turn": NOW + 1.5 + 15}


def test_a_running_countdown_is_kept_until_the_turn_changes() -> None:
    """PRODUCT.md: "There is one per roll, bonus rolls included"."""
    room = online_game(2)
    assert room.turn_clock is not None
    later = plan_timers(room, present(0, 1), NOW + 5, SETTINGS)
    assert later.turn_clock == room.turn_clock and later.changes == {}
    moved_on = replace(room, version=room.version + 1)
    fresh = plan_timers(moved_on, present(0, 1), NOW + 5, SETTINGS)
    assert fresh.turn_clock is not None and fresh.turn_clock.starts_at == NOW + 5
    assert fresh.changes == {"turn": NOW + 5 + room.countdown_seconds}


def test_every_racer_disconnected_pauses_the_countdown_and_sets_the_idle_timer() -> None:
    """PRODUCT.md: "When every player still racing is disconnected, the countdown
    pauses. If none of them is back within the idle time, the game ends"."""
    room = online_game(2)
    assert "turn" in room.timers
    watcher_only = Presence(frozenset(), viewers=1)  # a spectator is no racer
    assert all_racers_away(room, watcher_only)
    plan = plan_timers(room, watcher_only, NOW + 3, SETTINGS)
    assert plan.turn_clock is None
    assert plan.changes == {"turn": None, "idle": NOW + 3 + SETTINGS.idle_seconds}
    one_back = plan_timers(room, present(1, viewers=2), NOW + 3, SETTINGS)
    assert not all_racers_away(room, present(1))
    assert one_back.turn_clock is not None and "idle" not in one_back.changes


def test_an_idle_timer_already_set_is_not_pushed_back() -> None:
    """PRODUCT.md: "A room in which nobody is connected pauses its countdown and
    expires after an idle time (default 30 minutes)"."""
    room = online_game(2)
    room.timers["idle"] = NOW + 10
    room.turn_clock = None
    del room.timers["turn"]
    plan = plan_timers(room, Presence(), NOW + 5, SETTINGS)
    assert plan.changes == {}
    back = plan_timers(room, present(0), NOW + 5, SETTINGS)
    assert back.changes["idle"] is None and back.turn_clock is not None


def _ai_to_move(mode: Mode) -> Room:
    seats = [Seat("Ana", "red", Kind.HUMAN, caller(0).secret_hash), Seat("Robo", "blue", Kind.AI)]
    room = Room(code=CODE, mode=mode, rules=Rules(), seats=seats, first=1)
    room.start_game()
    return room


def test_an_ai_seat_with_a_viewer_gets_an_ai_timer() -> None:
    """PRODUCT.md, Play with AI: "AI seats roll by themselves after a short, natural
    pause, with the same dice as everyone"."""
    room = _ai_to_move(Mode.AI)
    plan = plan_timers(room, present(0), NOW, SETTINGS, new_turn=True, allowance=0.5)
    assert plan.turn_clock is None  # no countdown for an AI seat
    assert plan.changes == {"ai": NOW + 0.5 + SETTINGS.ai_delay}


def test_an_ai_seat_nobody_watches_does_not_roll() -> None:
    """PRODUCT.md: "Local games (both modes above) pause while no device shows them"."""
    room = _ai_to_move(Mode.AI)
    room.timers["ai"] = NOW + 1
    plan = plan_timers(room, Presence(), NOW, SETTINGS)
    assert plan.changes == {"ai": None}  # and a local room never idles out


def test_a_lobby_whose_host_is_gone_gets_a_host_timer() -> None:
    """PRODUCT.md: "If the host leaves (or stays disconnected for a minute in the
    lobby), the next connected seat hosts"."""
    room = online_lobby(2)  # built with nobody connected: its idle timer runs
    plan = plan_timers(room, present(1), NOW, SETTINGS)
    assert plan.changes == {"idle": None, "host": NOW + SETTINGS.host_grace_seconds}
    assert plan_timers(room, present(0, 1), NOW, SETTINGS).changes == {"idle": None}
    room.timers = {"host": NOW + 60}
    assert plan_timers(room, present(0, 1), NOW, SETTINGS).changes == {"host": None}


def test_a_lobby_nobody_is_in_idles_instead_of_handing_over() -> None:
    """PRODUCT.md: "A room in which nobody is connected ... expires after an idle time"."""
    room = online_lobby(2)
    room.timers = {}
    plan = plan_timers(room, Presence(), NOW, SETTINGS)
    assert plan.changes == {"idle": NOW + SETTINGS.idle_seconds}  # no host timer: nobody to host


def test_the_plan_is_pure() -> None:
    """timers.py: "the same room, presence and time give the same plan"."""
    room = online_game(3)
    before = snapshot(room)
    plans = [plan_timers(room, present(1), NOW + 2, SETTINGS, new_turn=True) for _ in range(3)]
    assert plans[0] == plans[1] == plans[2]
    assert_unchanged(room, before)
