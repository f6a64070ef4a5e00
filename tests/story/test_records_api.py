"""POST /api/records/story and /api/records/odds: a game played at someone's own table.

Its rolls never reached the server: the page sends the record, and the server replays it
through the engine before it works anything out, so a record that does not replay is a
typed refusal, never a story or odds made up from it.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path
from typing import Any

from snakes.analysis import live_odds
from snakes.analysis.story import game_story
from snakes.engine import GameRecord, replay
from snakes.server.stories import MAX_ACTIONS
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

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


def _on_board(snakes: list[list[int]], ladders: list[list[int]] | None = None) -> dict[str, Any]:
    data = _record(ROLLS[:3])
    data["board"] = {"name": "drawn", "ladders": ladders or [], "snakes": snakes}
    return data


SLOW = [[s, 4] for s in range(5, 100) if s % 5 != 4]
"""Snakes on every square but 4, 9, ..., 94, each back to 4: a game could end, but lasts
about 3e14 turns. Its chain was once followed to 50,000 turns for each request: 1 s of
CPU and 121 MB kept, so 36 such records of 1 KB took a server to 4 GB."""


def test_a_board_too_slow_to_work_out_is_refused_with_its_reason(server: ServerProcess) -> None:
    for path in ("/api/records/story", "/api/records/odds"):
        for tweak in range(3):  # each a board of its own, as an attacker varies them
            board = [[start, end - (start == 99) * tweak] for start, end in SLOW]
            status, answer = server.request("POST", path, _on_board(board))
            assert status == 422, answer
            assert answer["error"]["code"] == "board_too_slow", answer
            assert "2,000 turns" in answer["error"]["message"]


def test_a_board_that_can_trap_a_token_is_refused_with_its_reason(server: ServerProcess) -> None:
    trap = [[s, 93] for s in range(94, 100)]  # from 93 every roll lands on a snake to 93
    status, answer = server.request("POST", "/api/records/odds", _on_board(trap))
    assert status == 422 and answer["error"]["code"] == "unfinishable_board", answer


def test_an_address_that_asks_for_too_much_work_is_told_when_to_come_back(
    tmp_path: Path,
) -> None:
    flags = (*TEST_FLAGS, "--trusted-proxy", "127.0.0.1", "--compute-limit", "0.05")
    with running_server(tmp_path / "data", *flags) as server:

        def story(address: str, skips: int = 300) -> tuple[int, Message, Any]:
            # Countdowns that ran out, as many as asked: each a story of its own to work out.
            game = _record([])
            game["actions"] = [{"type": "skip", "seat": i % 2} for i in range(skips)]
            request = urllib.request.Request(
                server.url + "/api/records/story",
                data=json.dumps(game).encode(),
                headers={"Content-Type": "application/json", "X-Forwarded-For": address},
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, response.headers, json.loads(response.read())
            except urllib.error.HTTPError as error:
                return error.code, error.headers, json.loads(error.read())

        for asked in range(1, 200):  # each story costs some milliseconds of the 50
            status, headers, answer = story("198.51.100.7", 300 + asked)
            if status == 429:
                break
            assert status == 200, answer
        else:
            raise AssertionError("the address was never refused")
        assert asked > 1
        assert answer["error"]["code"] == "rate_limited"
        assert int(headers["Retry-After"]) >= 1  # until its overdrawn CPU is paid back
        status, _, answer = story("203.0.113.9")  # another address pays for itself
        assert status == 200 and answer["steps"], answer


def test_the_compute_worker_goes_with_its_server_even_one_killed(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", *TEST_FLAGS) as server:
        server.post("/api/records/odds", _record(ROLLS))
        assert server.process is not None
        children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
        workers = [int(pid) for pid in children.read_text().split()]
        assert workers, "the odds were worked out in a worker process"
        server.kill()  # SIGKILL: no shutdown of its own
        for _ in range(6000):
            if not any(Path(f"/proc/{pid}").exists() for pid in workers):
                break
            time.sleep(0.01)
        else:
            raise AssertionError(f"the compute worker outlived its server: {workers}")
