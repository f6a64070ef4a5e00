"""What a viewer may see of a room: never a secret, a seed or another connection's data."""

from __future__ import annotations

import functools
import logging
from dataclasses import fields
from typing import Any

from snakes.engine import AWAY_AFTER, FINISH, Finish, GameState, Remove, placings
from snakes.fair import SCHEME, commit
from snakes.server.rooms.model import Kind, Mode, Phase, Room, board_data, rules_data

log = logging.getLogger("snakes.views")

_EVENT_FIELDS: dict[type, tuple[str, ...]] = {}


def event_data(event: Any) -> dict[str, Any]:
    """``event.to_data()`` without its deep copy (events hold numbers, flags and tuples).

    An update is built for every roll of every room; this is the hot path.
    """
    names = _EVENT_FIELDS.get(type(event))
    if names is None:
        names = _EVENT_FIELDS[type(event)] = tuple(f.name for f in fields(event))
    data: dict[str, Any] = {"type": event.kind}
    for name in names:
        data[name] = getattr(event, name)
    return data


def seat_status(room: Room, index: int) -> tuple[str, int | None]:
    game = room.game
    if game is None:
        return "waiting", None
    if index in game.standings:
        return "finished", game.standings.index(index) + 1
    if index in game.leavers:
        return "left", None
    return "racing", None


def room_view(
    room: Room,
    *,
    connected: set[int],
    now: float,
    wall: float,
    paused: bool,
    public_url: str,
    odds: bool = False,
) -> dict[str, Any]:
    """The room as every viewer sees it (what a viewer holds travels separately).

    ``odds``: some viewer shows the live odds; otherwise ``odds`` is null and costs
    nothing. Built for every update of every room: enum members go to the encoder as
    they are (orjson writes their values) and each seat is one dict literal."""
    game = room.game
    host = room.host
    seats = []
    if game is None:
        for index, seat in enumerate(room.seats):
            ai = seat.kind is Kind.AI
            seats.append(
                {
                    "index": index,
                    "name": seat.name,
                    "colour": seat.colour,
                    "kind": seat.kind,
                    "connected": ai or index in connected,
                    "away": False,
                    "host": host == index,
                    "square": 0,
                    "status": "waiting",
                    "place": None,
                    "missed": 0,
                }
            )
    else:
        standings, leavers, missed = game.standings, game.leavers, game.missed
        # Told to the seat's own player when they come back (a welcome has no events).
        removed = {a.seat for a in room.actions if isinstance(a, Remove)} if leavers else set()
        for index, seat in enumerate(room.seats):
            place = None
            if index in standings:
                status, place = "finished", standings.index(index) + 1
            elif index in leavers:
                status = "left"
            else:
                status = "racing"
            seats.append(
                {
                    "index": index,
                    "name": seat.name,
                    "colour": seat.colour,
                    "kind": seat.kind,
                    "connected": seat.kind is Kind.AI or index in connected,
                    "away": status == "racing" and missed[index] >= AWAY_AFTER,
                    "host": host == index,
                    "square": game.positions[index],
                    "status": status,
                    "place": place,
                    "missed": missed[index],
                }
            )
            if index in removed:
                seats[-1]["removed"] = True  # only there: every other seat's view as before
    playing = room.phase is Phase.PLAYING
    over = room.phase is Phase.OVER
    results = None
    racing: tuple[int, ...] = ()
    if game is not None:
        if game.over:
            results = [
                {"place": p.place, "seat": p.seat, "square": p.square, "status": p.status}
                for p in placings(game)
            ]
        else:
            racing = game.racing
    return {
        "code": room.code,
        "mode": room.mode,
        "phase": room.phase,
        "game_number": room.game_number,
        "rules": rules_data(room.rules),
        "countdown_seconds": room.countdown_seconds,
        "board": board_data(room.board),
        "finish_square": FINISH,
        "seats": seats,
        "turn": game.turn if game else None,
        "faces": game.faces if game else 6,
        "bonus": game.sixes > 0 if game else False,
        "over": over,
        "end_reason": game.end_reason if game else None,
        "winner": game.winner if game else None,
        "standings": list(game.standings) if game else [],
        "results": results,
        "countdown": countdown_view(room, now=now, wall=wall, paused=paused),
        "only_ai_racing": bool(racing) and all(room.seats[s].kind is Kind.AI for s in racing),
        "version": room.version,
        "change": room.change,
        "odds": _odds(game) if odds and playing else None,
        "fair": _fair(room) if room.server_seed else None,
        "reactions": room.reactions and room.mode is Mode.ONLINE,
        "rematch": room.rematch,
        "invite_url": f"{public_url.rstrip('/')}/r/{room.code}",
    }


def connected_flags(room: Room, connected: set[int]) -> list[bool]:
    """Each seat's ``connected`` as the view shows it (an AI seat is always there)."""
    return [seat.kind is Kind.AI or index in connected for index, seat in enumerate(room.seats)]


def countdown_view(room: Room, *, now: float, wall: float, paused: bool) -> dict[str, Any] | None:
    """The turn's countdown as a viewer shows it: running, paused (every racer away), or
    None."""
    game = room.game
    countdown: dict[str, Any] | None = None
    turn_clock = room.turn_clock
    # Absolute times in wall-clock epoch milliseconds, so a browser can count down to
    # the deadline itself (corrected for its clock's offset) however late it shows it.
    # The room's clock may be monotonic or a test's manual clock: translate through now
    # (``wall``: the context's epoch time, read with ``now``).
    wall_now = wall
    if turn_clock is not None:
        total = room.countdown_seconds * 1000
        countdown = {
            "seat": turn_clock.seat,
            "total_ms": total,
            "remaining_ms": round(max(0.0, min(total, (turn_clock.deadline - now) * 1000))),
            "starts_in_ms": round(max(0.0, (turn_clock.starts_at - now) * 1000)),
            "paused": False,
            "deadline_ms": round((wall_now + (turn_clock.deadline - now)) * 1000),
            "server_now_ms": round(wall_now * 1000),
        }
    elif paused and game is not None and game.turn is not None:
        total = room.countdown_seconds * 1000
        countdown = {
            "seat": game.turn,
            "total_ms": total,
            "remaining_ms": total,
            "starts_in_ms": 0,
            "paused": True,
            "deadline_ms": None,
            "server_now_ms": round(wall_now * 1000),
        }
    return countdown


@functools.lru_cache(maxsize=4096)
def _odds(game: GameState | None) -> dict[str, Any] | None:
    """:func:`odds_of`, worked out once per game state: every viewer of a room, and every
    room in the same position on the same board, shares it. Shared: never change it.

    Rooms play shipped boards only, so an entry is a few hundred bytes beside a board
    every entry shares; a posted record's custom board never comes here.
    """
    return odds_of(game)


def odds_of(game: GameState | None) -> dict[str, Any] | None:
    """Each seat's exact chance to win (Classic) or expected place (Last One Standing)."""
    if game is None or game.over:
        return None
    # numpy loads with the first odds worked out, never with the rooms themselves.
    from snakes.analysis import live_odds, live_place_chances  # noqa: PLC0415

    try:
        if game.rules.finish is Finish.CLASSIC:
            return {"kind": "win", "values": [round(p, 4) for p in live_odds(game)]}
        chances = live_place_chances(game)
        expected = [sum((place + 1) * p for place, p in enumerate(row)) for row in chances]
        return {"kind": "place", "values": [round(e, 3) for e in expected]}
    except Exception:  # an odd custom board must never break the game itself
        log.exception("live odds failed for a game on board %s", game.board.name)
        return None


def _fair(room: Room) -> dict[str, Any] | None:
    """The dice commitment and the seeds in use; a server seed is revealed only in records."""
    if room.phase is Phase.PLAYING:
        locked = tuple(room.locked_seeds or ())
        return {**_commitment(room.server_seed, locked), "accepting_seeds": False}
    # The lobby, or after a game: the next game's commitment, taking the devices' seeds.
    return {
        "scheme": SCHEME,
        "commitment": _commitment(room.server_seed, ())["commitment"],
        "accepting_seeds": True,
        "seeds_received": len(room.client_seeds),
    }


@functools.lru_cache(maxsize=4096)
def _commitment(server_seed: str, client_seeds: tuple[str, ...]) -> dict[str, Any]:
    """A game's fair section before it is revealed: the same for all its updates. Shared:
    never change it."""
    return {
        "scheme": SCHEME,
        "commitment": commit(bytes.fromhex(server_seed)),
        "client_seeds": list(client_seeds),
    }
