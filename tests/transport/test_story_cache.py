"""The stories' cache (server/stories.py): keyed by what decides a story, bounded in bytes.

A story was once kept under its record's whole text, so renaming a seat made the server
work the same story out again (4 s of CPU for a long record on a slow board).
"""

from __future__ import annotations

import json

from snakes.engine import JUNGLE, Roll, Skip
from snakes.engine.board import Board
from snakes.engine.record import GameRecord, SeatInfo
from snakes.server import stories as story
from snakes.server.stories import STORY_CACHE_BYTES, story_json


def _record(names: tuple[str, str], board: Board = JUNGLE, skips: int = 0) -> GameRecord:
    actions = (Roll(0, 1), Roll(1, 3), *(Skip(i % 2) for i in range(skips)))
    return GameRecord(
        seats=(SeatInfo(names[0]), SeatInfo(names[1], "blue")), actions=actions, board=board
    )


def test_a_renamed_record_is_the_same_story_told_with_its_own_names() -> None:
    first = json.loads(story_json(_record(("Ana", "Ben"))))
    kept = dict(story._stories)
    renamed_board = Board(name="my jungle", jumps=JUNGLE.jumps)
    again = json.loads(story_json(_record(("Zoë", "Yusuf"), renamed_board), "ABC234", 2))
    assert dict(story._stories) == kept  # nothing worked out again, nothing more kept
    assert [seat["name"] for seat in again["seats"]] == ["Zoë", "Yusuf"]
    assert again["board"]["name"] == "my jungle" and again["code"] == "ABC234"
    assert again["game"] == 2
    for key in ("kind", "rules", "first", "over", "steps", "moments"):
        assert again[key] == first[key], key


def test_the_cache_holds_no_more_bytes_than_its_bound() -> None:
    for skips in range(3000, 3600, 50):  # 12 stories of 800 KB or more: 10 MB
        story_json(_record(("Ana", "Ben"), skips=skips))
    assert sum(len(told) for told in story._stories.values()) <= STORY_CACHE_BYTES
    assert story._stories.currsize <= STORY_CACHE_BYTES
    assert len(story._stories) < 12
