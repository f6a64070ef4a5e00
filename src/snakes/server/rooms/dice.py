"""The server's dice: a room's committed fair seeds online, a secure die elsewhere."""

from __future__ import annotations

import functools

from snakes.engine import DiceSource, SecureDice
from snakes.fair import dice_key, fair_roll
from snakes.server.rooms.model import Room


@functools.lru_cache(maxsize=4096)
def _key(server_seed: str, client_seeds: tuple[str, ...]) -> bytes:
    return dice_key(bytes.fromhex(server_seed), list(client_seeds))


class ServerDice:
    """The next roll of a room: from its seeds when its dice are fair, else secure."""

    def __init__(self, secure: DiceSource | None = None) -> None:
        self._secure = secure or SecureDice()

    def next_roll(self, room: Room, faces: int) -> int:
        if room.fair and room.locked_seeds is not None:
            key = _key(room.server_seed, tuple(room.locked_seeds))
            return fair_roll(key, room.rolls, faces)
        return self._secure.roll(faces)
