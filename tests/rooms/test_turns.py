# ruff: noqa: RUF002
# (RUF002: the docstrings quote PRODUCT.md verbatim, en dashes included.)
"""Turns as pure handlers: rolling, refusals, skipped turns, leaving, rematch, AI seats.

How to play, "Playing with others": "In online rooms, everyone rolls from their own
device — the room waits for the current player, and if someone stalls or disconnects,
their turn is skipped after the countdown so nobody is stuck waiting; no roll is ever
made on their behalf."
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from snakes.engine import Finish, Roll, Rules, roll_of
from snakes.server.codes import hash_secret
from snakes.server.rooms import lifecycle, lobby, turns
from snakes.server.rooms.model import Kind, Mode, Phase, Room, Seat
from snakes.server.rooms.updates import view
from snakes.server.rooms.work import Caller, Presence, Step
from tests.rooms.helpers import (
    caller,
    context,
    dice,
    events,
    handle,
    local,
    online_game,
    present,
    refused,
    secret_of,
    updates,
)

LOS = Rules(Finish.LAST_ONE_STANDING, exact_finish=False)
NO_EXACT = Rules(exact_finish=False)


def go(
    room: Room,
    handler: Callable[[Step], object],
    *values: int,
    now: float = 1_000.0,
    presence: Presence | None = None,
) -> Step:
    """Run one handler with these die values queued; every seat 0-5 holder connected."""
    ctx = context(presence or present(*range(len(room.seats))), now=now, rolls=dice(*values))
    step, _ = handle(room, ctx, handler)
    return step


def roll(seat: int, room: Room) -> Callable[[Step], None]:
    """Seat ``seat``'s holder rolls at the room's version (a local room: seat 0's secret)."""
    holder = caller(0) if room.is_local else caller(seat)
    return lambda s: turns.roll(s, holder, seat, room.version)


def leaving(seat: int) -> Callable[[Step], None]:
    return lambda s: lobby.leave(s, caller(seat), seat)


def time_out(room: Room) -> Step:
    """The running countdown reaches its end and its timer fires."""
    due = room.timers["turn"]
    return go(room, lambda s: lifecycle.fire(s, "turn", due), now=due)


def test_a_repeated_roll_with_an_old_version_is_refused_not_applied_twice() -> None:
    """PRODUCT.md: "Only the seat whose turn it is can roll."; a repeated roll is an
    old version."""
    room = local()
    after = go(room, roll(0, room), 3).room
    assert after.version == 1
    stale = refused(after, context(present(0)), lambda s: turns.roll(s, caller(0), 1, 0))
    assert stale == "stale_version"
    assert after.game is not None and after.game.positions[1] == 0


def test_rolling_for_a_seat_whose_turn_it_is_not_is_a_typed_error() -> None:
    """PRODUCT.md: "Only the seat whose turn it is can roll."."""
    room = local()
    assert refused(room, context(present(0)), roll(2, room)) == "not_your_turn"


def test_rolling_out_of_turn_or_for_another_seat_or_with_a_forged_secret_is_refused() -> None:
    """PRODUCT.md: "Only the seat whose turn it is can roll." and "A seat's secret never
    reaches anyone else."."""
    room = online_game(3)
    ctx = context(present(0, 1, 2))
    assert refused(room, ctx, lambda s: turns.roll(s, caller(1), 1, 0)) == "not_your_turn"
    assert refused(room, ctx, lambda s: turns.roll(s, caller(1), 0, 0)) == "not_your_seat"
    forged = Caller("forger", hash_secret("not-a-real-secret-" + "x" * 20))
    assert refused(room, ctx, lambda s: lifecycle.connect(s, forged, ctx.presence)) == "bad_secret"
    # Another room's secret holds no seat here either.
    other_room = lifecycle.create(
        "ZZZZZZ", Mode.ONLINE, [Seat("Else", "red")], Rules(), ctx,
        secret="another-rooms-secret-" + "y" * 20, shuffle=False, countdown_seconds=None,
    ).room  # fmt: skip
    foreign = Caller("forger", other_room.seats[0].secret_hash)
    assert foreign.secret_hash not in {s.secret_hash for s in room.seats}
    assert refused(room, ctx, lambda s: lifecycle.connect(s, foreign, ctx.presence)) == "bad_secret"
    # No message to anyone ever carries a seat's secret or its digest.
    steps = [
        go(room, lambda s: lifecycle.connect(s, caller(0), present(1, 2))),
        go(room, roll(0, room), 3),
        go(room, view),
        time_out(room),
    ]
    texts = [m.body for step in steps for m in step.work.messages]
    assert texts
    for seat in range(3):
        for text in texts:
            assert secret_of(seat) not in text and caller(seat).secret_hash not in text


def test_three_missed_turns_in_a_row_mark_a_player_away_until_they_roll() -> None:
    """PRODUCT.md: "A player who misses three turns in a row is shown as away, until
    they roll again."."""
    room = online_game(2)
    for _ in range(3):
        room = go(room, roll(0, room), 2).room
        room = time_out(room).room
    assert room.game is not None and room.game.missed == (0, 3) and room.game.is_away(1)
    seat = handle(room, context(present(0, 1)), view)[1]["seats"][1]
    assert seat["away"] is True and seat["missed"] == 3
    room = go(room, roll(0, room), 2).room
    room = go(room, roll(1, room), 2).room
    assert room.game is not None and not room.game.is_away(1) and room.game.missed[1] == 0


def test_the_host_may_remove_a_player_gone_past_a_missed_turn_but_not_sooner() -> None:
    """PRODUCT.md: "The host may remove an away or disconnected player (ranked as having
    left)."; a disconnected player only once they have missed a turn since: the grace in
    which a player whose network went comes back (docs/PROTOCOL.md, the room view)."""
    room = online_game(3)
    without_cy = present(0, 1)
    assert refused(room, context(present(0, 1, 2)), lambda s: lobby.remove(s, caller(0), 2)) == (
        "not_allowed"
    )
    just_gone = refused(room, context(without_cy), lambda s: lobby.remove(s, caller(0), 2))
    assert just_gone == "not_allowed"  # gone a moment ago: not yet
    room = go(room, roll(0, room), 2, presence=without_cy).room
    room = go(room, roll(1, room), 2, presence=without_cy).room
    due = room.timers["turn"]
    room = go(room, lambda s: lifecycle.fire(s, "turn", due), now=due, presence=without_cy).room
    assert room.game is not None and room.game.missed[2] == 1
    back = refused(room, context(present(0, 1, 2)), lambda s: lobby.remove(s, caller(0), 2))
    assert back == "not_allowed"  # came back: present players are never removed
    not_host = refused(room, context(without_cy), lambda s: lobby.remove(s, caller(1), 2))
    assert not_host == "not_host"
    step = go(room, lambda s: lobby.remove(s, caller(0), 2), presence=without_cy)
    assert events(step) == [{"type": "left", "seat": 2, "removed": True}]
    seats = updates(step)[0]["room"]["seats"]
    assert seats[2]["status"] == "left" and seats[2]["removed"] is True
    assert "removed" not in seats[0] and "removed" not in seats[1]


def test_an_away_player_may_be_removed_even_while_connected() -> None:
    """PRODUCT.md: "A player who misses three turns in a row is shown as away"; the host
    may remove them, connected or not."""
    room = online_game(2)
    for _ in range(3):
        room = go(room, roll(0, room), 2).room
        room = time_out(room).room
    assert room.game is not None and room.game.is_away(1)
    step = go(room, lambda s: lobby.remove(s, caller(0), 1))
    assert events(step)[0] == {"type": "left", "seat": 1, "removed": True}


def test_a_timed_out_bonus_roll_is_lost_without_counting_as_a_missed_turn() -> None:
    """PRODUCT.md: "A bonus roll that times out is simply lost; that turn does not count
    as missed."."""
    room = online_game(2)
    room = go(room, roll(0, room), 6).room
    assert room.game is not None and room.game.turn == 0  # the bonus roll's countdown
    step = time_out(room)
    assert events(step)[0] == {"type": "skipped", "seat": 0, "bonus_lost": True, "missed": 0}
    assert step.room.game is not None and step.room.game.turn == 1


def test_leaving_a_classic_game_leaves_the_last_player_the_winner() -> None:
    """PRODUCT.md: "in Classic the game goes on without them, and if only one player is
    left, that player wins at once."."""
    room = online_game(3)
    room = go(room, lambda s: lobby.leave(s, caller(1), 1)).room
    assert room.phase is Phase.PLAYING
    step = go(room, lambda s: lobby.leave(s, caller(2), 2))
    assert step.room.phase is Phase.OVER and step.room.game is not None
    assert step.room.game.winner == 0 and step.room.game.end_reason == "last-player"
    assert step.work.record is not None and step.work.record[0] == 1  # stored with the leave


def test_last_one_standing_ranks_a_leaver_after_every_finisher() -> None:
    """PRODUCT.md: "in Last One Standing a leaver is ranked after all finishers and the
    others race on"."""
    room = online_game(3, rules=LOS)
    room = go(room, lambda s: lobby.leave(s, caller(0), 0)).room
    assert room.host == 1  # the host's powers pass on with the seat given up
    for _ in range(200):
        if room.phase is Phase.OVER:
            break
        assert room.game is not None and room.game.turn is not None
        room = go(room, roll(room.game.turn, room), 5).room
    results = handle(room, context(), view)[1]["results"]
    assert [(r["seat"], r["status"]) for r in results] == [
        (1, "finished"),
        (2, "finished"),
        (0, "left"),
    ]


def _play_to_the_end(room: Room, *values: int) -> tuple[Room, Step]:
    queued = list(values)
    step = go(room, view)
    while room.phase is Phase.PLAYING:
        assert room.game is not None and room.game.turn is not None
        step = go(room, roll(room.game.turn, room), queued.pop(0))
        room = step.room
    return room, step


def test_rematch_keeps_the_table_and_rules_and_passes_the_first_turn() -> None:
    """PRODUCT.md: "After the game: the result screen for everyone, "Rematch" with the
    same table and rules" and "a rematch passes the first turn to the next seat"."""
    room = online_game(2, rules=NO_EXACT)
    # 1->38, 1->38, 6+6+1 (51->67), 2, 4 (71->91), 2, 6+6 finishes with exact finish off.
    room, last = _play_to_the_end(room, 1, 1, 6, 6, 1, 2, 4, 2, 6, 6)
    assert room.game is not None and room.game.winner == 0
    assert last.work.record is not None
    game, record = last.work.record
    assert game == 1 and len(json.loads(record)["actions"]) == 10
    room = go(room, lambda s: lobby.rematch(s, caller(1))).room
    step = go(room, lambda s: lobby.rematch(s, caller(0)))
    (update,) = updates(step)
    assert update["events"] == [{"type": "rematch"}]
    again = update["room"]
    assert again["game_number"] == 2 and again["turn"] == 1
    assert again["rules"]["exact_finish"] is False
    assert [s["name"] for s in again["seats"]] == ["Host", "P2"]
    assert step.work.new_game and step.room.actions == []


def test_rematch_needs_two_players_still_at_the_table() -> None:
    """PRODUCT.md: "A game has 2–6 seats in all"."""
    room = online_game(3, rules=Rules(Finish.LAST_ONE_STANDING))
    for seat in (1, 2, 0):
        room = go(room, leaving(seat)).room
    assert room.game is not None and room.game.end_reason == "everyone-left"
    assert refused(room, context(present(0)), lambda s: lobby.rematch(s, caller(0))) == (
        "not_allowed"
    )


def test_play_again_passes_the_first_turn_to_the_next_seat() -> None:
    """PRODUCT.md: "a rematch passes the first turn to the next seat"."""
    room = local(seats=[Seat("Ana", "red"), Seat("Ben", "blue")], rules=NO_EXACT)
    room = go(room, lambda s: lobby.leave(s, caller(0), 1)).room
    assert room.phase is Phase.OVER and room.game is not None and room.game.winner == 0
    step = go(room, lambda s: lobby.rematch(s, caller(0)))
    again = updates(step)[0]["room"]
    assert again["turn"] == 1 and again["game_number"] == 2
    assert [s["square"] for s in again["seats"]] == [0, 0]


def test_skip_to_results_plays_the_remaining_ai_turns_for_real() -> None:
    """PRODUCT.md: "When only AI seats are still racing (Last One Standing), offer "Skip
    to results": the remaining turns are played at once, really played, not invented."."""
    bots = [Seat(f"Bot {n}", c, Kind.AI) for n, c in enumerate(["blue", "green", "yellow"], 1)]
    room = local(Mode.AI, [Seat("Ana", "red"), *bots], Rules(Finish.LAST_ONE_STANDING))
    ctx = context(present(0))
    assert refused(room, ctx, turns.finish_ai) == "not_allowed"  # Ana races
    room = go(room, lambda s: lobby.leave(s, caller(0), 0)).room
    assert handle(room, ctx, view)[1]["only_ai_racing"] is True
    step = go(room, turns.finish_ai)
    (done,) = updates(step)
    assert done["instant"] is True and done["room"]["over"] is True
    results = done["room"]["results"]
    assert [r["status"] for r in results] == ["finished", "finished", "finished", "left"]
    rolled = [e for e in done["events"] if e["type"] == "rolled"]
    assert rolled and all(1 <= e["value"] <= 6 for e in rolled)
    assert step.rolls == len(rolled) == len([a for a in step.work.actions if a.kind == "roll"])
    # A game's rolls are the engine's shared ones (tests/engine/test_actions_shared.py).
    kept = [a for a in step.room.actions if isinstance(a, Roll)]
    assert kept and all(a is roll_of(a.seat, a.value) for a in kept)
    assert step.work.record is not None
    assert len(json.loads(step.work.record[1])["actions"]) == done["room"]["version"]


def test_the_view_carries_live_odds_that_follow_the_game_while_someone_shows_them() -> None:
    """No sentence of the page or PRODUCT.md names the odds; views.py: "Each seat's exact
    chance to win (Classic) or expected place (Last One Standing)"."""
    room = local(seats=[Seat("Ana", "red"), Seat("Ben", "blue")])
    assert handle(room, context(), view)[1]["odds"] is None  # nobody shows them: no work
    watching = replace(present(0, 1), odds=True)
    before: dict[str, Any] = handle(room, context(watching), view)[1]["odds"]
    assert before["kind"] == "win" and abs(sum(before["values"]) - 1) < 1e-3
    assert before["values"][0] > before["values"][1]  # rolling first is an edge
    room = go(room, roll(0, room), 3, presence=watching).room
    step = go(room, roll(1, room), 1, presence=watching)  # Ana 3; Ben 1 climbs 1 -> 38
    after = updates(step)[0]["room"]["odds"]
    assert after["values"][1] > 0.5 > after["values"][0]
