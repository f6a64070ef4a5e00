"""What the odds and the story of a game played in the page cost the server.

The page posts the record (POST /api/records/odds while the odds are shown, and
/api/records/story once for a finished game's chart); the server replays it and works
the figures out (``server/stories.py``, in the compute worker; the hop to it is not
timed here). This times both on one seeded 3-seat Classic game on the jungle board:

    python bench/local_records_bench.py
"""

from __future__ import annotations

import json
import random
import statistics
import time

from snakes.engine import Roll, apply, new_game
from snakes.engine.record import GameRecord, SeatInfo
from snakes.server.stories import posted_odds, posted_story


def _game(seed: int = 1) -> list[Roll]:
    rng = random.Random(seed)
    state, actions = new_game(3), []
    while not state.over:
        assert state.turn is not None
        action = Roll(state.turn, rng.randint(1, state.faces))
        state, _ = apply(state, action)
        actions.append(action)
    return actions


def _record(actions: list[Roll]) -> GameRecord:
    return GameRecord(
        seats=tuple(SeatInfo(n) for n in ("Ana", "Ben", "Cy")), actions=tuple(actions)
    )


def main() -> None:
    actions = _game()
    record = _record(actions)
    text = json.dumps(record.to_data(), separators=(",", ":"))
    print(f"{len(actions)} actions, a {len(text)}-byte record")
    start = time.perf_counter()
    posted_story(json.dumps(record.to_data()).encode())
    print(f"story, chains cold: {(time.perf_counter() - start) * 1000:.0f} ms")
    warm = []
    for cut in range(1, 6):
        start = time.perf_counter()
        posted_story(json.dumps(_record(actions[:-cut]).to_data()).encode())
        warm.append((time.perf_counter() - start) * 1000)
    print(f"story, warm: median {statistics.median(warm):.0f} ms")
    times = []
    for n in range(1, len(actions)):
        body = json.dumps(_record(actions[:n]).to_data()).encode()
        start = time.perf_counter()
        posted_odds(body)
        times.append((time.perf_counter() - start) * 1000)
    print(f"odds per request (every state of the game): median {statistics.median(times):.2f} ms")


if __name__ == "__main__":
    main()
