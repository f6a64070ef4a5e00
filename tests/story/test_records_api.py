"""POST /api/records/story and /api/records/odds: a game played at someone's own table.

Its rolls never reached the server: the page sends the record, and the server replays it
through the engine before it works anything out, so a record that does not replay is a
typed refusal, never a story or odds made up from it.
"""

from __future__ import annotations

import json
from typing import Any

from snakes.analysis import live_odds
from snakes.analysis.story import game_story
from snakes.engine import GameRecord, replay
from snakes.server.transport.records import MAX_ACTIONS
from tests.support.server import ServerProcess

ROLLS = [6, 6, 5, 3, 6, 5, 2, 6, 6, 3]
"""Ana: 6, 6, 5 (17); Ben 3; Ana 6, 5: 28 -> 84; Ben 2; Ana 6, 6, 3: 99 -> 27."""


def _record(rolls: list[int], *, first: int = 0) -> dict[str, Any]:
    seat, actions, sixes = first, [], 0
    for value in rolls:
        actions.append({"type": "roll", "seat": seat, "value": value})
        sixes = sixes + 1 if value == 6 and sixes < 2 else 0
        if not sixes:
            seat = 1 - seat
    return {
        "engine_version": "1.0.0",
        "rules": {"finish": "classic", "exact_finish": True, "six_again": True},
        "board": {"name": "jungle", "ladders": [[28, 84], [1, 38]], "snakes": [[99, 27]]},
        "seats": [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
        "first": first,
        "actions": actions,
    }


def test_the_story_of_a_posted_record_is_the_engines(server: ServerProcess) -> None:
    data = _record(ROLLS)
    story = server.post("/api/records/story", data)
    expected = game_story(GameRecord.from_data(data))
    assert story["kind"] == "win" and len(story["steps"]) == len(ROLLS) + 1
    for got, step in zip(story["steps"], expected.steps, strict=True):
        assert got["positions"] == list(step.positions)
        assert got["odds"] == [round(p, 4) for p in step.odds]
        assert got["events"] == json.loads(json.dumps([e.to_data() for e in step.events]))


def test_the_odds_of_a_posted_record_are_those_of_its_last_state(server: ServerProcess) -> None:
    data = _record(ROLLS)
    odds = server.post("/api/records/odds", data)["odds"]
    state = replay(GameRecord.from_data(data))
    assert odds == {"kind": "win", "values": [round(p, 4) for p in live_odds(state)]}


def test_a_record_that_does_not_replay_is_refused(server: ServerProcess) -> None:
    bad = _record(ROLLS)
    bad["actions"][1]["seat"] = 1  # Ana rolled a six: it is still her turn
    for path in ("/api/records/story", "/api/records/odds"):
        status, answer = server.request("POST", path, bad)
        assert status == 400 and answer["error"]["code"] == "bad_record", answer
        status, answer = server.request("POST", path, {"seats": "nobody"})
        assert status == 400 and answer["error"]["code"] == "bad_record", answer
        status, answer = server.request("POST", path, [1, 2])
        assert status == 422 and answer["error"]["code"] == "bad_request", answer


def test_a_record_of_too_many_actions_is_refused_unread(server: ServerProcess) -> None:
    long = _record([])
    long["actions"] = [{"type": "abandon"}] * (MAX_ACTIONS + 1)
    status, answer = server.request("POST", "/api/records/odds", long)
    assert status == 400 and "more than" in answer["error"]["message"], answer
