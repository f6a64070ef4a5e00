# ruff: noqa: RUF002
# (RUF002: the docstrings quote PRODUCT.md verbatim, en dashes included.)
"""The online lobby and the host's powers, as pure handlers on a room value.

PRODUCT.md, Play Online: "Others join with either, choosing a name and a free colour.
The lobby shows the seats live. The host can change the rules until the start, remove a
seat, and start with 2–6 players."
"""

from __future__ import annotations

from typing import Any

import pytest

from snakes.engine import Finish, Rules
from snakes.fair import commit
from snakes.server import jsontext
from snakes.server.rooms import lifecycle, lobby, turns
from snakes.server.rooms.access import held
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.model import Kind, Mode, Phase, Room, Seat
from snakes.server.rooms.updates import view
from snakes.server.rooms.work import run_handler
from tests.rooms.helpers import (
    CLASSIC,
    CODE,
    adding_ai,
    caller,
    context,
    dice,
    events,
    handle,
    joining,
    local,
    online_game,
    online_lobby,
    present,
    refused,
    secret_of,
    updates,
)

LOS = Rules(Finish.LAST_ONE_STANDING, exact_finish=False, six_again=True)


def test_the_lobby_shows_joins_live_and_refuses_a_taken_colour_and_a_full_room() -> None:
    """PRODUCT.md: "Others join with either, choosing a name and a free colour. The lobby
    shows the seats live."""
    room = online_lobby(1)
    ctx = context(present(0))
    assert refused(room, ctx, lambda s: lobby.join(s, "Copycat", "red", "d")) == "colour_taken"
    step, seat = handle(room, ctx, joining(1))
    assert seat == 1
    (update,) = updates(step)
    assert update["events"] == [{"type": "joined", "seat": 1}]
    assert [s["name"] for s in update["room"]["seats"]] == ["Host", "P2"]
    assert step.work.changed and step.work.messages[0].to == ""  # to everyone
    full = online_lobby(6)
    assert refused(full, ctx, lambda s: lobby.join(s, "Late", "red", "d")) == "room_full"


def test_joining_a_started_room_as_a_player_is_refused() -> None:
    """PRODUCT.md: "anyone opening the link after the start watches, read-only"."""
    room = online_game(2)
    code = refused(room, context(present(0, 1)), lambda s: lobby.join(s, "Late", "green", "d"))
    assert code == "already_started"


def test_only_the_host_changes_the_rules_and_only_until_the_start() -> None:
    """How to play: "In online rooms the host picks the rule for the whole table."."""
    room = online_lobby(2)
    ctx = context(present(0, 1))
    not_host = refused(room, ctx, lambda s: lobby.set_rules(s, caller(1), LOS, None, None))
    assert not_host == "not_host"
    step, _ = handle(room, ctx, lambda s: lobby.set_rules(s, caller(0), LOS, 45, None))
    (update,) = updates(step)
    assert update["events"] == [{"type": "rules_changed"}]
    assert update["room"]["countdown_seconds"] == 45 and update["room"]["rules"] == LOS.to_data()
    changed = step.room
    too_short = refused(changed, ctx, lambda s: lobby.set_rules(s, caller(0), LOS, 5, None))
    assert too_short == "invalid_rules"
    started, _ = handle(changed, ctx, lambda s: lobby.start(s, caller(0), False))
    assert started.room.rules == LOS and started.room.countdown_seconds == 45
    late = refused(started.room, ctx, lambda s: lobby.set_rules(s, caller(0), CLASSIC, None, None))
    assert late == "already_started"


def test_the_host_needs_two_players_to_start_and_can_remove_a_lobby_seat() -> None:
    """PRODUCT.md: "The host can change the rules until the start, remove a seat, and
    start with 2–6 players."""
    alone = online_lobby(1)
    ctx = context(present(0, 1, 2))
    assert refused(alone, ctx, lambda s: lobby.start(s, caller(0), False)) == "not_allowed"
    room = online_lobby(3)
    step, _ = handle(room, ctx, lambda s: lobby.remove(s, caller(0), 1))
    (update,) = updates(step)
    assert update["events"] == [{"type": "seat_left", "seat": 1}]
    assert [s.name for s in step.room.seats] == ["Host", "P3"]
    # Cy's seat number moved; Cy still holds Cy's seat, and Ben holds none.
    assert held(step.room, caller(2).secret_hash) == {1}
    assert held(step.room, caller(1).secret_hash) == frozenset()
    gone = refused(step.room, ctx, lambda s: turns.roll(s, caller(1), 1, 0))
    assert gone == "spectator"
    own = refused(room, ctx, lambda s: lobby.remove(s, caller(0), 0))
    assert own == "not_allowed"  # the host cannot remove their own seat


def test_when_the_host_leaves_the_lobby_the_next_seat_hosts() -> None:
    """PRODUCT.md: "If the host leaves (or stays disconnected for a minute in the
    lobby), the next connected seat hosts."""
    room = online_lobby(3)
    step, _ = handle(room, context(present(0, 1, 2)), lambda s: lobby.leave(s, caller(0), 0))
    assert [s.name for s in step.room.seats] == ["P2", "P3"]
    assert step.room.host == 0 and held(step.room, caller(1).secret_hash) == {0}
    (update,) = updates(step)
    assert update["room"]["seats"][0]["host"] is True


def test_the_host_hands_over_to_a_connected_seat_before_a_disconnected_one() -> None:
    """PRODUCT.md: "the next connected seat hosts"."""
    room = online_lobby(3)
    step, _ = handle(room, context(present(0, 2)), lambda s: lobby.leave(s, caller(0), 0))
    assert step.room.host == 1 and held(step.room, caller(2).secret_hash) == {1}


def test_the_last_seat_leaving_a_lobby_releases_the_room() -> None:
    """PRODUCT.md: "a room's live state is released when its game ends or expires"."""
    room = online_lobby(1)
    step, _ = handle(room, context(present(0)), lambda s: lobby.leave(s, caller(0), 0))
    assert step.work.delete and step.room.timers == {}
    assert updates(step)[0]["events"] == [{"type": "closed"}]


@pytest.mark.parametrize("countdown", [10, 60])
def test_the_host_picks_a_countdown_within_bounds(countdown: int) -> None:
    """PRODUCT.md: "the turn countdown (10–60 s, default 20 s)"."""
    assert online_lobby(1, countdown=countdown).countdown_seconds == countdown
    assert online_lobby(1).countdown_seconds == 20
    for wrong in (9, 61):
        with pytest.raises(ProtocolError) as refused_create:
            online_lobby(1, countdown=wrong)
        assert refused_create.value.code == "invalid_rules"


def test_bad_seats_are_refused_when_a_room_is_created() -> None:
    """PRODUCT.md: "Bad input of any kind gets a clear, typed error and changes nothing"."""

    def create(mode: Mode, seats: list[Seat]) -> str:
        with pytest.raises(ProtocolError) as error:
            lifecycle.create(
                CODE, mode, seats, CLASSIC, context(),
                secret=secret_of(0), shuffle=False, countdown_seconds=None,
            )  # fmt: skip
        return error.value.code

    ana, ben = Seat("Ana", "red"), Seat("Ben", "blue")
    assert create(Mode.PASS, [ana]) == "invalid_seats"
    assert create(Mode.PASS, [ana, Seat("B", "red")]) == "colour_taken"
    assert create(Mode.PASS, [ana, Seat("B", "pink")]) == "invalid_colour"
    assert create(Mode.AI, [ana, ben]) == "invalid_seats"  # Play with AI needs an AI seat
    assert create(Mode.ONLINE, [ana, ben]) == "invalid_seats"  # the host starts alone


def _commitment(room: Room) -> str:
    """The commitment a device sees, which its seed names."""
    return commit(bytes.fromhex(room.server_seed))


def test_seeds_are_refused_once_the_game_has_started() -> None:
    """PRODUCT.md, Verify: "recomputes a game's rolls in the browser, so that checking
    needs no trust in the server"; a seed sent after the start would change nothing."""
    room = online_lobby(2)
    ctx = context(present(0, 1))
    step, _ = handle(room, ctx, lambda s: lobby.seed(s, caller(1), "b2" * 16, _commitment(room)))
    assert step.room.client_seeds == {caller(1).secret_hash: "b2" * 16}
    started, _ = handle(step.room, ctx, lambda s: lobby.start(s, caller(0), False))
    assert started.room.locked_seeds == ["", "b2" * 16]
    late = refused(started.room, ctx, lambda s: lobby.seed(s, caller(0), "late", _commitment(room)))
    assert late == "already_started"
    spectator = refused(room, ctx, lambda s: lobby.seed(s, caller(5), "x", _commitment(room)))
    assert spectator == "spectator"


def test_local_games_have_no_seeds_to_send() -> None:
    """PRODUCT.md: "Verify (when fair dice exist)"; local games roll a secure die."""
    room = local()
    ctx = context(present(0))
    _, shown = handle(room, ctx, view)
    assert shown["fair"] is None and not room.fair
    assert refused(room, ctx, lambda s: lobby.seed(s, caller(0), "a1" * 16, "")) == "not_allowed"


def test_the_host_can_add_an_ai_seat_that_rolls_by_itself() -> None:
    """PRODUCT.md: "The online host may also add AI seats."."""
    room = online_lobby(1)
    ctx = context(present(0))
    step, _ = handle(room, ctx, lambda s: lobby.add_ai(s, caller(0), "Robo", "green"))
    assert step.room.seats[1].kind is Kind.AI and step.room.seats[1].secret_hash == ""
    assert updates(step)[0]["room"]["seats"][1]["kind"] == "ai"
    copy = refused(step.room, ctx, lambda s: lobby.add_ai(s, caller(0), "Copy", "green"))
    assert copy == "colour_taken"
    started, _ = handle(step.room, ctx, lambda s: lobby.start(s, caller(0), False))
    rolled, _ = handle(
        started.room, context(present(0), rolls=dice(3)), lambda s: turns.roll(s, caller(0), 0, 0)
    )
    ai_due = rolled.room.timers["ai"]  # not a six: the turn passes to the AI seat
    assert "turn" not in rolled.room.timers
    moved, _ = handle(
        rolled.room,
        context(present(0), now=ai_due, rolls=dice(4)),
        lambda s: lifecycle.fire(s, "ai", ai_due),
    )
    assert events(moved)[0] == {"type": "rolled", "seat": 1, "value": 4, "bonus": False}
    assert moved.room.game is not None and moved.room.game.turn == 0
    assert moved.room.phase is Phase.PLAYING


def test_when_the_host_leaves_the_lobby_an_ai_seat_never_hosts() -> None:
    """PRODUCT.md: "If the host leaves (or stays disconnected for a minute in the
    lobby), the next connected seat hosts." An AI seat holds no device to host from."""
    room = online_lobby(2)
    room = handle(room, context(present(0, 1)), lambda s: lobby.remove(s, caller(0), 1))[0].room
    room = handle(room, context(present(0)), adding_ai(1))[0].room
    room = handle(room, context(present(0)), joining(2))[0].room
    assert [s.kind for s in room.seats] == [Kind.HUMAN, Kind.AI, Kind.HUMAN]
    step, _ = handle(room, context(present(0)), lambda s: lobby.leave(s, caller(0), 0))
    assert [s.name for s in step.room.seats] == ["Bot 1", "P3"]
    assert step.room.host == 1  # P3, though not connected; never the AI seat


def test_a_lobby_left_with_only_ai_seats_closes() -> None:
    """PRODUCT.md: "a room's live state is released when its game ends or expires"; a
    lobby with nobody left to start it has neither a game nor anyone to host it."""
    room = online_lobby(1, ai=2)
    step, _ = handle(room, context(present(0)), lambda s: lobby.leave(s, caller(0), 0))
    assert step.work.delete
    assert updates(step)[-1]["events"] == [{"type": "closed"}]


def test_the_host_leaving_mid_game_sends_one_update_with_both_changes() -> None:
    """A change sends one update however many steps it takes: leaving, then passing the
    host on, is one message to the others, not two (updates.publish folds the second)."""
    room = online_game(3, rules=LOS)
    step, _ = handle(room, context(present(0, 1, 2)), lambda s: lobby.leave(s, caller(0), 0))
    (update,) = updates(step)
    kinds = [e["type"] for e in update["events"]]
    assert "host_changed" in kinds and kinds.index("host_changed") > 0
    assert update["room"]["seats"][1]["host"] is True


def test_an_update_is_written_as_text_once_however_many_steps_fold_into_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The room core's contract (docs/ARCHITECTURE.md): each update is encoded once. The
    host leaving mid-game publishes twice; its one update is written once and never read
    back."""
    room = online_game(3, rules=LOS)
    written: list[str] = []
    encode, decode = jsontext.dumps, jsontext.loads

    def counted(value: Any) -> str:
        if isinstance(value, dict) and value.get("type") == "update":
            written.append(value["type"])
        return encode(value)

    def refused(text: str | bytes) -> Any:
        raise AssertionError("a change read its own message back")

    monkeypatch.setattr(jsontext, "dumps", counted)
    monkeypatch.setattr(jsontext, "loads", refused)
    step, _ = run_handler(room, context(present(0, 1, 2)), lambda s: lobby.leave(s, caller(0), 0))
    monkeypatch.setattr(jsontext, "loads", decode)
    assert written == ["update"]
    assert len(updates(step)) == 1
