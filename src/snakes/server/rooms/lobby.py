"""The lobby and the host's powers: seats, rules, seeds, starting, removing, rematch.

In an online room the host changes the rules until the start, adds AI seats, removes
a seat (in the lobby any other seat; in a game an away or disconnected player), starts
with 2-6 players and calls a rematch. If the host goes, the next connected seat hosts.
"""

from __future__ import annotations

from snakes.engine import MAX_SEATS, Board, GameState, Leave, Remove, Rules
from snakes.fair import commit
from snakes.server.rooms.access import (
    check_host,
    check_lobby,
    check_member,
    check_seat,
    held,
    playing,
)
from snakes.server.rooms.errors import (
    AlreadyStarted,
    ColourTaken,
    InvalidColour,
    InvalidRules,
    NotAllowed,
    RoomFull,
    StaleVersion,
)
from snakes.server.rooms.model import COLOURS, Kind, Mode, Phase, Room, Seat
from snakes.server.rooms.names import check_seat_names
from snakes.server.rooms.timers import cancel_all
from snakes.server.rooms.turns import act
from snakes.server.rooms.updates import publish
from snakes.server.rooms.work import Caller, Step
from snakes.server.settings import Settings


def check_colours(seats: list[Seat]) -> None:
    """Colours from the six, each once; and no name a look-alike of another's."""
    check_seat_names(seats)
    colours = [s.colour for s in seats]
    for colour in colours:
        if colour not in COLOURS:
            raise InvalidColour(f"colour must be one of {', '.join(COLOURS)}")
    if len(set(colours)) != len(colours):
        raise ColourTaken("each seat needs its own colour")


def check_countdown(settings: Settings, seconds: int) -> None:
    low, high = settings.countdown_min, settings.countdown_max
    if not low <= seconds <= high:
        raise InvalidRules(f"the turn countdown is {low}-{high} seconds")


def join(step: Step, name: str, colour: str, secret_hash: str) -> int:
    """Take a free seat in an online lobby; the answer is the seat's number."""
    room = step.room
    if room.mode is not Mode.ONLINE:
        raise NotAllowed("only online rooms can be joined")
    check_lobby(room, "the game has started; you can watch it")
    if len(room.seats) >= MAX_SEATS:
        raise RoomFull(f"all {MAX_SEATS} seats are taken")
    seat = Seat(name, colour, Kind.HUMAN, secret_hash)
    check_colours([*room.seats, seat])
    room.seats.append(seat)
    index = len(room.seats) - 1
    step.touch()
    publish(step, [{"type": "joined", "seat": index}])
    return index


def set_rules(
    step: Step, caller: Caller, rules: Rules, countdown: int | None, board: Board | None
) -> None:
    room = step.room
    check_host(room, caller)
    check_lobby(room, "rules are fixed once the game starts")
    if countdown is not None:
        check_countdown(step.ctx.settings, countdown)
        room.countdown_seconds = countdown
    room.rules = rules
    if board is not None:
        room.board = board
    step.touch()
    publish(step, [{"type": "rules_changed"}])


def add_ai(step: Step, caller: Caller, name: str, colour: str) -> None:
    """The online host adds an AI seat in the lobby; it rolls by itself, like everyone's."""
    room = step.room
    check_host(room, caller)
    check_lobby(room, "seats are fixed once the game starts")
    if len(room.seats) >= MAX_SEATS:
        raise RoomFull(f"all {MAX_SEATS} seats are taken")
    seat = Seat(name, colour, Kind.AI, "")
    check_colours([*room.seats, seat])
    room.seats.append(seat)
    step.touch()
    publish(step, [{"type": "joined", "seat": len(room.seats) - 1}])


def seed(step: Step, caller: Caller, value: str, commitment: str) -> None:
    """A device's own seed for the next game's dice, sent after seeing ``commitment``.

    It names the commitment it saw rather than the room's ``change``: seeds come from
    every device by themselves and must not race one another or the host. One for an
    earlier game, or a second one for this game, is refused as stale.
    """
    room = step.room
    check_member(room, caller)
    if not room.fair:
        raise NotAllowed("this room's dice take no seeds")
    if room.phase is Phase.PLAYING:
        raise AlreadyStarted("seeds are fixed once the game starts")
    if commitment != commit(bytes.fromhex(room.server_seed)):
        raise StaleVersion("that seed was for another game's commitment")
    if caller.secret_hash in room.client_seeds:
        raise StaleVersion("your seed for this game is in already")
    room.client_seeds[caller.secret_hash] = value
    step.touch()
    publish(step, [], counted=False)


def start(step: Step, caller: Caller, shuffle: bool) -> None:
    room = step.room
    check_host(room, caller)
    check_lobby(room, "the game has already started")
    if len(room.seats) < 2:
        raise NotAllowed("an online game needs at least 2 players")
    if shuffle:
        host_seat = room.seats[room.host or 0]
        step.ctx.chance.shuffle(room.seats)
        room.host = room.seats.index(host_seat)
    room.start_game()
    step.work.new_game = True
    step.touch()
    publish(step, [{"type": "started"}], new_turn=True)


def remove(step: Step, caller: Caller, seat: int) -> None:
    room = step.room
    check_host(room, caller)
    if not 0 <= seat < len(room.seats):
        raise NotAllowed(f"there is no seat {seat}")
    if room.phase is Phase.LOBBY:
        if seat == room.host:
            raise NotAllowed("the host cannot remove their own seat")
        remove_from_lobby(step, seat)
        return
    game = playing(room)
    if not removable(game, seat, step.connected_seats()):
        raise NotAllowed(
            "a player can be removed once away, or once they have missed a turn while disconnected"
        )
    act(step, Remove(seat))


def removable(game: GameState, seat: int, connected: set[int]) -> bool:
    """Whether the host may remove a racing seat: away (three turns missed in a row),
    or disconnected and has missed a turn since. The missed turn is the grace: a player
    whose network blinks is back long before their countdown runs out, and is never
    removed for it; a player who is gone has had a whole countdown to come back."""
    return game.is_away(seat) or (seat not in connected and game.missed[seat] >= 1)


def leave(step: Step, caller: Caller, seat: int) -> None:
    """'Leave game' gives up the seat (in the lobby, the seat itself goes)."""
    room = step.room
    check_seat(room, caller, seat)
    if room.phase is Phase.LOBBY:
        remove_from_lobby(step, seat)
        return
    playing(room)
    act(step, Leave(seat))
    if room.host == seat:
        pass_host(step)


def rematch(step: Step, caller: Caller, start: bool = False) -> None:
    """ "Play again". In a local game it starts the next game at once. In an online room
    it is a proposal: the caller's seat says yes, and the new game starts when every
    connected player still at the table has said yes, or when the host starts it
    (``start``) with those who did. Nobody who has not said yes is taken into it: their
    seats go, and they stay on their results."""
    room = step.room
    check_member(room, caller)
    if room.phase is not Phase.OVER or room.game is None:
        raise NotAllowed("a rematch comes after the game is over")
    if room.is_local:
        room.first = (room.first + 1) % len(room.seats)
        _play_again(step)
        return
    leavers = room.game.leavers
    if len([i for i in range(len(room.seats)) if i not in leavers]) < 2:
        raise NotAllowed("a rematch needs at least 2 players")
    if start:
        check_host(room, caller)
    mine = [i for i in sorted(held(room, caller.secret_hash)) if i not in leavers]
    if not mine:
        raise NotAllowed("you left this game")
    added = [i for i in mine if i not in room.rematch]
    room.rematch.extend(added)
    if len(rematch_table(room)) < 2 and start:
        raise NotAllowed("a rematch needs at least 2 players who agreed")
    if start or rematch_ready(room, step.connected_seats()):
        rematch_now(step)
        return
    step.touch()
    publish(step, [{"type": "rematch_wanted", "seat": i} for i in added])


def rematch_table(room: Room) -> list[int]:
    """The seats the rematch would start with: the players who agreed and the AI seats
    still at the table, in seat order."""
    assert room.game is not None
    leavers = room.game.leavers
    return [
        i
        for i, seat in enumerate(room.seats)
        if i not in leavers and (i in room.rematch or seat.kind is Kind.AI)
    ]


def rematch_ready(room: Room, connected: set[int]) -> bool:
    """Every connected player still at the table has agreed to the rematch, and it
    would have at least 2 seats."""
    if room.phase is not Phase.OVER or room.is_local or not room.rematch or room.game is None:
        return False
    leavers = room.game.leavers
    waiting = [
        i
        for i, seat in enumerate(room.seats)
        if seat.kind is Kind.HUMAN and i not in leavers and i in connected and i not in room.rematch
    ]
    return not waiting and len(rematch_table(room)) >= 2


def rematch_now(step: Step) -> None:
    """The online rematch begins with :func:`rematch_table`: the first turn passes on."""
    room = step.room
    keep = rematch_table(room)
    old_first, old_host = room.first, room.host
    room.seats = [room.seats[i] for i in keep]
    people = [n for n, seat in enumerate(room.seats) if seat.kind is Kind.HUMAN]
    room.host = keep.index(old_host) if old_host in keep else (people[0] if people else 0)
    following = [i for i in keep if i > old_first] + [i for i in keep if i <= old_first]
    room.first = keep.index(following[0])
    _play_again(step)


def _play_again(step: Step) -> None:
    room = step.room
    room.game_number += 1
    room.start_game()
    step.work.new_game = True
    step.touch()
    # The first countdown starts once the board is on every screen, as after a move.
    allowance = step.ctx.settings.move_allowance(0, 0)
    publish(step, [{"type": "rematch"}], new_turn=True, allowance=allowance)


def pass_host(step: Step) -> None:
    """The next person in seat order hosts, a connected one if there is one."""
    room = step.room
    left = set(room.game.leavers) if room.game else set()
    count = len(room.seats)
    start_at = room.host if room.host is not None else -1
    order = [(start_at + n) % count for n in range(1, count)]
    people = [s for s in order if s not in left and room.seats[s].kind is Kind.HUMAN]
    connected = step.connected_seats()
    chosen = next((s for s in people if s in connected), people[0] if people else None)
    if chosen is None:
        return
    room.host = chosen
    publish(step, [{"type": "host_changed", "seat": chosen}])


def remove_from_lobby(step: Step, seat: int) -> None:
    room = step.room
    was_host = room.host == seat
    del room.seats[seat]
    if not any(s.kind is Kind.HUMAN for s in room.seats):
        # Nobody is left to host or start it (AI seats hold no device).
        publish(step, [{"type": "closed"}])
        dispose(step)
        return
    if room.host is not None and room.host > seat:
        room.host -= 1
    if was_host:
        # The seat that followed the host now has the host's old number.
        connected = step.connected_seats()
        count = len(room.seats)
        order = [(seat + n) % count for n in range(count)]
        people = [s for s in order if room.seats[s].kind is Kind.HUMAN]
        room.host = next((s for s in people if s in connected), people[0])
    step.touch()
    publish(step, [{"type": "seat_left", "seat": seat}])


def dispose(step: Step) -> None:
    """Let go of the room's live state: its timers stop and its row goes (records stay)."""
    cancel_all(step)
    step.work.delete = True
