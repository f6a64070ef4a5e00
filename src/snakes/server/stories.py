"""Stories and odds worked out of game records: what the compute worker does.

The HTTP routes (``transport/story.py``, ``transport/records.py``) hand a record's text
to the compute pool (``transport/compute.py``), whose worker process runs the functions
here. This module imports no web framework, so the worker starts light.

A story is kept, as JSON text, in a cache bounded in bytes and keyed by what decides
it: the rules, the board's ladders and snakes, the number of seats, who went first and
every action. The seats' names and colours and the board's name only dress it, so a
record renamed is the same story, worked out once.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

from cachetools import LRUCache

from snakes.analysis import UnanalysableBoard, check_budget
from snakes.analysis.story import game_story
from snakes.engine import RecordError
from snakes.engine.actions import action_to_data
from snakes.engine.record import GameRecord, replay
from snakes.server import jsontext
from snakes.server.rooms.errors import BadRecord, refusal
from snakes.server.rooms.views import odds_of

STORY_DIGITS = 4
"""Odds travel rounded: 4 decimals (a chance to 0.01%, an expected place to 1/10000)."""

STORY_CACHE_BYTES = 8 * 2**20
"""The stories kept, as JSON text, all together. The longest record a request may carry
(--max-body, 64 KB) makes a story of about 1 MB; a usual game's is 20-60 KB."""

MAX_ACTIONS = 3000
"""The most actions a posted record may have (the request body is capped at --max-body
too): a story works out the odds once per action. A real game rarely has 500."""

_stories: LRUCache[bytes, bytes] = LRUCache(maxsize=STORY_CACHE_BYTES, getsizeof=len)
_stories_lock = threading.Lock()


def story_key(record: GameRecord) -> bytes:
    """What decides a record's story, hashed: never its seats' names or its board's name.

    >>> from snakes.engine import Roll
    >>> from snakes.engine.record import SeatInfo
    >>> ana = GameRecord(seats=(SeatInfo("Ana"), SeatInfo("Ben")), actions=(Roll(0, 1),))
    >>> zed = GameRecord(seats=(SeatInfo("Zed"), SeatInfo("Yul")), actions=(Roll(0, 1),))
    >>> longer = ana.with_actions([Roll(1, 2)])
    >>> story_key(ana) == story_key(zed), story_key(ana) == story_key(longer)
    (True, False)
    """
    decides = [
        record.rules.to_data(),
        sorted(record.board.jumps.items()),
        len(record.seats),
        record.first,
        [action_to_data(action) for action in record.actions],
    ]
    return hashlib.sha256(jsontext.dumps(decides).encode()).digest()


def story_json(record: GameRecord, code: str | None = None, game: int | None = None) -> bytes:
    """The story of ``record`` as the JSON text the API answers: ``{code, game, seats,
    board, kind, rules, first, over, steps, moments}``. Worked out once per story key; a
    cached one costs a dictionary look-up and the seats' few bytes. Raises
    :class:`~snakes.server.rooms.errors.ProtocolError`: ``bad_record``, or the board's
    code (``board_too_slow``, ``unfinishable_board``)."""
    key = story_key(record)
    with _stories_lock:
        told = _stories.get(key)
    if told is None:
        told = _tell(record)
        if len(told) <= STORY_CACHE_BYTES:
            with _stories_lock:
                _stories[key] = told
    dressing = {
        "code": code,
        "game": game,
        "seats": [
            {"index": i, "name": s.name, "colour": s.colour} for i, s in enumerate(record.seats)
        ],
        "board": record.board.to_data(),
    }
    # ``told`` is a JSON object without these keys: the two objects are joined as text.
    return jsontext.dumps(dressing).encode()[:-1] + b"," + told[1:]


def _tell(record: GameRecord) -> bytes:
    try:
        story = game_story(record).to_data()
    except RecordError as error:
        raise BadRecord(f"the record does not replay: {error}") from None
    except UnanalysableBoard as error:
        raise refusal(error.code, str(error)) from None
    for step in story["steps"]:
        step["odds"] = [round(value, STORY_DIGITS) for value in step["odds"]]
    for moment in story["moments"]:
        moment["swing"] = round(moment["swing"], STORY_DIGITS)
    del story["seats"], story["board"]
    return jsontext.dumps(story).encode()


def room_story(record_text: str, code: str, game: int | None) -> bytes:
    """The story of a room's finished game, from the record the store kept."""
    try:
        record = GameRecord.from_json(record_text)
    except RecordError as error:
        raise BadRecord(f"the record does not replay: {error}") from None
    return story_json(record, code, game)


def posted_record(data: Any) -> GameRecord:
    """A record posted by a page, read and checked: its length before its actions are
    read, and its board against the analysis budget before anything is worked out."""
    actions = data.get("actions") if isinstance(data, dict) else None
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise BadRecord(f"a record of more than {MAX_ACTIONS} actions")
    try:
        record = GameRecord.from_data(data)
    except RecordError as error:
        raise BadRecord(str(error)) from None
    try:
        check_budget(record.board, record.rules)
    except UnanalysableBoard as error:
        raise refusal(error.code, str(error)) from None
    return record


def posted_story(body: bytes) -> bytes:
    """``POST /api/records/story``: the story of the record in ``body`` (a JSON object)."""
    return story_json(posted_record(jsontext.loads(body)))


def posted_odds(body: bytes) -> dict[str, Any] | None:
    """``POST /api/records/odds``: each seat's odds in the state the record reaches."""
    record = posted_record(jsontext.loads(body))
    try:
        state = replay(record)
    except RecordError as error:
        raise BadRecord(f"the record does not replay: {error}") from None
    return odds_of(state)
