"""What a viewer may see of a room: never a secret, a seed or another connection's data."""

from __future__ import annotations

from typing import Any

from snakes.engine import FINISH, placings
from snakes.server.rooms import Kind, Phase, Room


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
    paused: bool,
    public_url: str,
) -> dict[str, Any]:
    """The room as every viewer sees it (what a viewer holds travels separately)."""
    game = room.game
    seats = []
    for index, seat in enumerate(room.seats):
        status, place = seat_status(room, index)
        seats.append(
            {
                "index": index,
                "name": seat.name,
                "colour": seat.colour,
                "kind": seat.kind.value,
                "connected": seat.kind is Kind.AI or index in connected,
                "away": bool(game and status == "racing" and game.is_away(index)),
                "host": room.host == index,
                "square": game.positions[index] if game else 0,
                "status": status,
                "place": place,
                "missed": game.missed[index] if game else 0,
            }
        )
    racing = game.racing if game and not game.over else ()
    countdown = None
    turn_clock = room.turn_clock
    if turn_clock is not None:
        total = room.countdown_seconds * 1000
        countdown = {
            "seat": turn_clock.seat,
            "total_ms": total,
            "remaining_ms": round(max(0.0, min(total, (turn_clock.deadline - now) * 1000))),
            "starts_in_ms": round(max(0.0, (turn_clock.starts_at - now) * 1000)),
            "paused": False,
        }
    elif paused and game is not None and game.turn is not None:
        total = room.countdown_seconds * 1000
        countdown = {
            "seat": game.turn,
            "total_ms": total,
            "remaining_ms": total,
            "starts_in_ms": 0,
            "paused": True,
        }
    results = None
    if game is not None and game.over:
        results = [
            {"place": p.place, "seat": p.seat, "square": p.square, "status": p.status.value}
            for p in placings(game)
        ]
    return {
        "code": room.code,
        "mode": room.mode.value,
        "phase": room.phase.value,
        "game_number": room.game_number,
        "rules": room.rules.to_data(),
        "countdown_seconds": room.countdown_seconds,
        "board": room.board.to_data(),
        "finish_square": FINISH,
        "seats": seats,
        "turn": game.turn if game else None,
        "faces": game.faces if game else 6,
        "bonus": game.is_bonus_roll if game else False,
        "over": room.phase is Phase.OVER,
        "end_reason": game.end_reason if game else None,
        "winner": game.winner if game else None,
        "standings": list(game.standings) if game else [],
        "results": results,
        "countdown": countdown,
        "only_ai_racing": bool(racing) and all(room.seats[s].kind is Kind.AI for s in racing),
        "version": room.version,
        "invite_url": f"{public_url.rstrip('/')}/r/{room.code}",
    }
