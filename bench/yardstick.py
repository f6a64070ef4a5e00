"""The yardstick: a bare Starlette + uvicorn server with no game logic.

It speaks just enough of the game's protocol for bench/load.py to drive it the same
way: create and join a room over HTTP, hello, start, roll, rematch. A roll bumps the
room's version, passes the turn, and broadcasts one message of the size of a real
update to every connection of the room. Nothing is stored, no rule is checked, no
die is rolled. It is what a newcomer's first broadcast server looks like, and the
game server is measured against it in the same run.

    python bench/yardstick.py --port 9000
"""

from __future__ import annotations

import argparse
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

UPDATE_BYTES = 1988
"""A real update of a four-seat room after a roll (measured from the game server)."""


@dataclass
class _Room:
    code: str
    seats: int = 1
    version: int = 0
    turn: int = 0
    phase: str = "lobby"
    connections: set[WebSocket] = field(default_factory=set)

    def view(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "version": self.version,
            "turn": self.turn,
            "phase": self.phase,
            "game_number": 1,
            "padding": "",
        }


ROOMS: dict[str, _Room] = {}


def _padded(kind: str, room: _Room) -> str:
    body = {"type": kind, "events": [], "room": room.view()}
    text = json.dumps(body)
    body["room"]["padding"] = "x" * max(0, UPDATE_BYTES - len(text))
    return json.dumps(body)


async def create(request: Request) -> JSONResponse:
    code = secrets.token_hex(3).upper()
    ROOMS[code] = _Room(code)
    return JSONResponse({"code": code, "secret": secrets.token_hex(8), "seats": [0]}, 201)


async def join(request: Request) -> JSONResponse:
    room = ROOMS[request.path_params["code"]]
    room.seats += 1
    return JSONResponse(
        {"code": room.code, "secret": secrets.token_hex(8), "seats": [room.seats - 1]}, 201
    )


async def health(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok", "rooms": len(ROOMS)})


async def socket(websocket: WebSocket) -> None:
    await websocket.accept()
    room: _Room | None = None
    try:
        while True:
            message = json.loads(await websocket.receive_text())
            kind = message["type"]
            if kind == "hello":
                room = ROOMS[message["room"]]
                room.connections.add(websocket)
                await websocket.send_text(_padded("welcome", room))
                continue
            assert room is not None
            if kind in ("start", "rematch"):
                room.phase = "playing"
            elif kind == "roll":
                room.version += 1
                room.turn = (room.turn + 1) % room.seats
            text = _padded("update", room)
            for connection in list(room.connections):
                await connection.send_text(text)
    except WebSocketDisconnect:
        pass
    finally:
        if room is not None:
            room.connections.discard(websocket)


app = Starlette(
    routes=[
        Route("/api/rooms", create, methods=["POST"]),
        Route("/api/rooms/{code}/join", join, methods=["POST"]),
        Route("/healthz", health),
        WebSocketRoute("/ws", socket),
    ]
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    args, _ = parser.parse_known_args()
    # What `pip install starlette uvicorn` runs: Python's asyncio loop and h11, whatever
    # else this environment happens to hold.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_per_message_deflate=False,
        loop="asyncio",
        http="h11",
    )


if __name__ == "__main__":
    main()
