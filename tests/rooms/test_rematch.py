"""A rematch is a proposal (PRODUCT.md, "After the game"): each result screen shows who
wants to play again; the new game starts when every connected player agreed, or when the
host starts it with those who did; nobody is pulled out of their results."""

from __future__ import annotations

from collections.abc import Callable

from snakes.engine import Rules
from snakes.engine.actions import action_to_data
from snakes.server.rooms import lifecycle, lobby, turns
from snakes.server.rooms.model import Phase, Room
from snakes.server.rooms.work import Presence, Step
from tests.rooms.helpers import (
    caller,
    context,
    dice,
    events,
    handle,
    online_game,
    present,
    refused,
    updates,
)

QUICK = Rules(exact_finish=False, six_again=False)


def go(room: Room, handler: Callable[[Step], object], presence: Presence, *values: int) -> Step:
    step, _ = handle(room, context(presence, rolls=dice(*values)), handler)
    return step


def finished(players: int = 3, ai: int = 0) -> Room:
    """An online game played to its end, everyone connected."""
    return finished_from(online_game(players, rules=QUICK, ai=ai))


def rolling(room: Room) -> Callable[[Step], None]:
    """Whoever's turn it is rolls (an AI seat by itself)."""
    assert room.game is not None and room.game.turn is not None
    seat, version = room.game.turn, room.version
    if room.seats[seat].kind.value == "ai":
        return turns.roll_for_ai
    return lambda s: turns.roll(s, caller(seat), seat, version)


def finished_from(room: Room) -> Room:
    everyone = present(*range(len(room.seats)))
    for n in range(1000):
        if room.phase is Phase.OVER:
            return room
        room = go(room, rolling(room), everyone, n % 6 + 1).room
    raise AssertionError("the game never ended")


def wants(seat: int, start: bool = False) -> Callable[[Step], None]:
    return lambda s: lobby.rematch(s, caller(seat), start)


def test_a_guests_play_again_is_a_proposal_that_moves_nobody() -> None:
    room = finished(3)
    step = go(room, wants(2), present(0, 1, 2))
    assert step.room.phase is Phase.OVER and not step.work.new_game
    assert events(step) == [{"type": "rematch_wanted", "seat": 2}]
    assert updates(step)[0]["room"]["rematch"] == [2]
    assert step.room.game_number == room.game_number
    # Asking twice changes nothing more.
    again = go(step.room, wants(2), present(0, 1, 2))
    assert again.room.rematch == [2] and again.room.phase is Phase.OVER


def test_the_rematch_starts_when_every_connected_player_agreed() -> None:
    room = finished(3)
    room = go(room, wants(1), present(0, 1, 2)).room
    room = go(room, wants(0), present(0, 1, 2)).room
    assert room.phase is Phase.OVER and room.rematch == [1, 0]
    step = go(room, wants(2), present(0, 1, 2))
    assert step.room.phase is Phase.PLAYING and step.work.new_game
    assert events(step) == [{"type": "rematch"}]
    assert [s.name for s in step.room.seats] == ["Host", "P2", "P3"]
    assert step.room.rematch == [] and updates(step)[0]["room"]["rematch"] == []


def test_a_disconnected_player_is_not_waited_for_nor_taken_along() -> None:
    room = finished(3)
    room = go(room, wants(0), present(0, 1)).room
    step = go(room, wants(1), present(0, 1))
    assert step.room.phase is Phase.PLAYING
    assert [s.name for s in step.room.seats] == ["Host", "P2"]


def test_the_last_holdout_going_away_starts_it_for_those_who_agreed() -> None:
    room = finished(3)
    room = go(room, wants(0), present(0, 1, 2)).room
    room = go(room, wants(1), present(0, 1, 2)).room
    assert room.phase is Phase.OVER
    step = go(room, lambda s: lifecycle.drop(s, present(0, 1, 2)), present(0, 1))
    assert step.room.phase is Phase.PLAYING and [s.name for s in step.room.seats] == ["Host", "P2"]


def test_the_host_starts_it_with_those_who_agreed() -> None:
    room = finished(3)
    assert refused(room, context(present(0, 1, 2)), wants(1, start=True)) == "not_host"
    # The host alone is not a game.
    assert refused(room, context(present(0, 1, 2)), wants(0, start=True)) == "not_allowed"
    room = go(room, wants(2), present(0, 1, 2)).room
    step = go(room, wants(0, start=True), present(0, 1, 2))
    assert step.room.phase is Phase.PLAYING
    assert [s.name for s in step.room.seats] == ["Host", "P3"]
    assert step.room.host == 0
    view = updates(step)[0]["room"]
    assert [s["name"] for s in view["seats"]] == ["Host", "P3"]


def test_ai_seats_come_along_and_the_first_countdown_waits_for_the_board() -> None:
    room = finished(2, ai=1)
    room = go(room, wants(0), present(0, 1)).room
    step = go(room, wants(1), present(0, 1))
    assert [s.kind.value for s in step.room.seats] == ["human", "human", "ai"]
    countdown = updates(step)[0]["room"]["countdown"]
    if countdown is not None:  # the first turn may be the AI seat's
        assert countdown["starts_in_ms"] >= 0


def test_a_leaver_cannot_ask_for_a_rematch() -> None:
    room = online_game(3, rules=QUICK)
    room = go(room, lambda s: lobby.leave(s, caller(2), 2), present(0, 1, 2)).room
    room = finished_from(room)
    assert refused(room, context(present(0, 1, 2)), wants(2)) == "not_allowed"


def test_the_proposal_is_stored_with_the_room() -> None:
    room = finished(3)
    room = go(room, wants(1), present(0, 1, 2)).room
    again = Room.from_data(room.to_data(), [action_to_data(a) for a in room.actions])
    assert again.rematch == [1]
