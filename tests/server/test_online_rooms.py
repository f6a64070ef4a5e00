"""Play Online against a real server: several real WebSocket clients, a manual clock.

How to play, "Playing with others": "In online rooms, everyone rolls from their own
device — the room waits for the current player, and if someone stalls or disconnects,
their turn is skipped after the countdown so nobody is stuck waiting; no roll is ever
made on their behalf."
"""

from __future__ import annotations

import json
import re

import pytest

from tests.server.online_helpers import close_all, create_room, join, settle, start, table
from tests.support.client import GameClient
from tests.support.server import ServerProcess

COUNTDOWN = 20.0


def test_a_new_room_has_a_short_unambiguous_code_and_an_invite_link(server: ServerProcess) -> None:
    code, host = create_room(server)
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{6}", code)
    assert host.client.room is not None
    assert host.client.room["phase"] == "lobby"
    assert host.client.room["invite_url"].endswith(f"/r/{code}")
    assert host.client.you == {"seats": [0], "host": True, "spectator": False}
    # Codes are read case-insensitively, with spaces or a dash between groups.
    looked_up = server.get(f"/api/rooms/{code[:3].lower()}-{code[3:].lower()}")
    assert looked_up["code"] == code
    status, svg, headers = server.raw(f"/api/rooms/{code}/qr.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml"
    assert svg.startswith(b"<svg")
    host.client.close()


def test_the_lobby_shows_joins_live_and_refuses_a_taken_colour_and_a_full_room(
    server: ServerProcess,
) -> None:
    code, host = create_room(server)
    status, body = server.request(
        "POST", f"/api/rooms/{code}/join", {"name": "Copycat", "colour": "red"}
    )
    assert status == 409 and body["error"]["code"] == "colour_taken"
    ben = join(server, code, "Ben", "blue")
    update = host.client.wait_for(lambda m: m["type"] == "update" and bool(m["events"]))
    assert update["events"] == [{"type": "joined", "seat": 1}]
    assert [s["name"] for s in update["room"]["seats"]] == ["Host", "Ben"]
    others = [
        join(server, code, f"P{n}", c)
        for n, c in enumerate(["green", "yellow", "purple", "orange"])
    ]
    status, body = server.request(
        "POST", f"/api/rooms/{code}/join", {"name": "Late", "colour": "red"}
    )
    assert status == 409 and body["error"]["code"] == "room_full"
    close_all([host, ben, *others])


def test_joining_a_started_room_as_a_player_is_refused_but_watching_is_not(
    server: ServerProcess,
) -> None:
    code, players = table(server, 2)
    start(players)
    status, body = server.request(
        "POST", f"/api/rooms/{code}/join", {"name": "Late", "colour": "green"}
    )
    assert status == 409 and body["error"]["code"] == "already_started"
    with GameClient(server.ws_url) as watcher:
        welcome = watcher.hello(code)
        assert welcome["you"] == {"seats": [], "host": False, "spectator": True}
        watcher.send({"type": "roll", "seat": 0, "version": 0})
        assert watcher.wait_type("error")["code"] == "spectator"
        server.script_dice(3)
        players[0].roll()
        seen = watcher.wait_for(lambda m: m["type"] == "update" and bool(m["events"]))
        assert seen["events"][0] == {"type": "rolled", "seat": 0, "value": 3, "bonus": False}
    close_all(players)


def test_only_the_host_changes_the_rules_and_only_until_the_start(server: ServerProcess) -> None:
    _code, players = table(server, 2)
    host, ben = players
    los = {"finish": "last-one-standing", "exact_finish": False, "six_again": True}
    ben.client.send({"type": "rules", "rules": los})
    assert ben.client.wait_type("error")["code"] == "not_host"
    host.client.send({"type": "rules", "rules": los, "countdown_seconds": 45})
    seen = ben.client.wait_for(
        lambda m: m["type"] == "update" and m["room"]["countdown_seconds"] == 45
    )
    assert seen["room"]["rules"] == los
    host.client.send({"type": "rules", "rules": los, "countdown_seconds": 5})
    assert host.client.wait_type("error")["code"] == "invalid_rules"
    start(players)
    host.client.send({"type": "rules", "rules": los})
    assert host.client.wait_type("error")["code"] == "already_started"
    close_all(players)


def test_the_host_needs_two_players_to_start_and_can_remove_a_lobby_seat(
    server: ServerProcess,
) -> None:
    code, host = create_room(server)
    host.client.send({"type": "start"})
    assert host.client.wait_type("error")["code"] == "not_allowed"
    ben = join(server, code, "Ben", "blue")
    cy = join(server, code, "Cy", "green")
    host.client.send({"type": "remove", "seat": 1})
    gone = cy.client.wait_for(lambda m: m["type"] == "update" and len(m["room"]["seats"]) == 2)
    assert [s["name"] for s in gone["room"]["seats"]] == ["Host", "Cy"]
    # Cy's seat number moved; Cy still holds Cy's seat, and Ben holds none.
    assert gone["you"]["seats"] == [1]
    ben.client.send({"type": "roll", "seat": 1, "version": 0})
    assert ben.client.wait_type("error")["code"] == "spectator"
    close_all([host, ben, cy])


def test_rolling_out_of_turn_or_for_another_seat_or_with_a_forged_secret_is_refused(
    server: ServerProcess,
) -> None:
    code, players = table(server, 3)
    start(players)
    _host, ben, _cy = players
    assert ben.client.roll(1)["code"] == "not_your_turn"
    assert ben.client.roll(0)["code"] == "not_your_seat"
    with GameClient(server.ws_url) as forger:
        assert forger.hello(code, "not-a-real-secret-" + "x" * 20)["code"] == "bad_secret"
    # Another room's secret holds no seat here either.
    _other_code, other_host = create_room(server, name="Else")
    with GameClient(server.ws_url) as forger:
        assert forger.hello(code, other_host.secret)["code"] == "bad_secret"
    # No message to anyone ever carries a seat's secret.
    for player in (*players, other_host):
        for message in player.client.received:
            text = json.dumps(message)
            assert all(p.secret not in text for p in (*players, other_host))
    close_all([*players, other_host])


def test_a_stalled_turn_is_skipped_after_the_countdown_and_never_rolled(
    server: ServerProcess,
) -> None:
    _code, players = table(server, 3)
    start(players)
    host, ben, _ = players
    countdown = host.client.room["countdown"]
    assert countdown["seat"] == 0 and countdown["remaining_ms"] == 20_000
    server.advance(COUNTDOWN - 1)
    server.script_dice(4)
    ben.client.send({"type": "ping"})
    ben.client.wait_type("pong")
    assert ben.client.room["turn"] == 0  # not yet
    server.advance(1)
    for player in players:
        update = player.client.wait_for(lambda m: m["type"] == "update" and bool(m["events"]))
        assert update["events"] == [
            {"type": "skipped", "seat": 0, "bonus_lost": False, "missed": 1},
            {"type": "turn_passed", "previous": 0, "seat": 1},
        ]
        assert update["room"]["seats"][0]["square"] == 0
    # The scripted 4 is still unused: nobody rolled for the host.
    assert ben.roll()["events"][0]["value"] == 4
    close_all(players)


def test_three_missed_turns_in_a_row_mark_a_player_away_until_they_roll(
    server: ServerProcess,
) -> None:
    _code, players = table(server, 2)
    start(players)
    host, ben = players
    for round_number in range(3):
        server.script_dice(2)
        host.roll()
        server.advance(COUNTDOWN)
        settle(players, 2 * (round_number + 1))
    seat = host.client.room["seats"][1]
    assert seat["away"] is True and seat["missed"] == 3
    server.script_dice(2, 2)
    host.roll()
    settle(players, 7)
    ben.roll()
    assert ben.client.room["seats"][1]["away"] is False
    close_all(players)


def test_the_host_may_remove_an_away_or_disconnected_player_but_not_a_present_one(
    server: ServerProcess,
) -> None:
    _code, players = table(server, 3)
    start(players)
    host, ben, cy = players
    host.client.send({"type": "remove", "seat": 2})
    assert host.client.wait_type("error")["code"] == "not_allowed"
    cy.client.close()
    host.client.wait_for(lambda m: m["type"] == "update" and not m["room"]["seats"][2]["connected"])
    host.client.send({"type": "remove", "seat": 2})
    update = host.client.wait_for(lambda m: m["type"] == "update" and bool(m["events"]))
    assert update["events"] == [{"type": "left", "seat": 2, "removed": True}]
    assert update["room"]["seats"][2]["status"] == "left"
    close_all([host, ben])


def test_a_timed_out_bonus_roll_is_lost_without_counting_as_a_missed_turn(
    server: ServerProcess,
) -> None:
    _code, players = table(server, 2)
    start(players)
    host, _ = players
    server.script_dice(6)
    host.roll()
    server.advance(COUNTDOWN)
    update = host.client.wait_for(
        lambda m: (
            m["type"] == "update" and m["events"][:1] != [] and m["events"][0]["type"] == "skipped"
        )
    )
    assert update["events"][0] == {"type": "skipped", "seat": 0, "bonus_lost": True, "missed": 0}
    assert update["room"]["turn"] == 1
    close_all(players)


def test_every_racer_disconnected_pauses_the_countdown_then_the_game_ends_unfinished(
    server: ServerProcess,
) -> None:
    code, players = table(server, 2)
    start(players)
    host, ben = players
    server.script_dice(5, 3)
    host.roll()
    ben.roll()
    with GameClient(server.ws_url) as watcher:
        watcher.hello(code)
        close_all(players)
        paused = watcher.wait_for(
            lambda m: m["type"] == "update" and not any(s["connected"] for s in m["room"]["seats"])
        )
        assert paused["room"]["countdown"]["paused"] is True
        server.advance(COUNTDOWN * 10)  # far past any countdown: nobody is skipped
        watcher.send({"type": "ping"})
        watcher.wait_type("pong")
        assert watcher.room["version"] == 2
        server.advance(30 * 60)
        over = watcher.wait_for(lambda m: m["type"] == "update" and m["room"]["over"])
        assert over["events"][-1]["reason"] == "abandoned"
        assert [(r["seat"], r["status"]) for r in over["room"]["results"]] == [
            (0, "did-not-finish"),
            (1, "did-not-finish"),
        ]


def test_a_returning_player_gets_the_whole_state_and_the_remaining_countdown(
    server: ServerProcess,
) -> None:
    code, players = table(server, 2)
    start(players)
    host, ben = players
    server.advance(5)
    host.client.close()
    with GameClient(server.ws_url) as again:
        welcome = again.hello(code, host.secret)
        assert welcome["you"]["seats"] == [0]
        assert welcome["room"]["countdown"]["remaining_ms"] == 15_000
        assert welcome["room"]["seats"][0]["connected"] is True
    ben.client.close()


def test_when_the_host_leaves_the_lobby_the_next_seat_hosts(server: ServerProcess) -> None:
    _code, players = table(server, 3)
    host, ben, _cy = players
    host.client.send({"type": "leave", "seat": 0})
    update = ben.client.wait_for(lambda m: m["type"] == "update" and len(m["room"]["seats"]) == 2)
    assert update["room"]["seats"][0]["name"] == "P2" and update["room"]["seats"][0]["host"]
    assert update["you"] == {"seats": [0], "host": True, "spectator": False}
    close_all(players)


def test_a_host_disconnected_for_a_minute_in_the_lobby_hands_over(server: ServerProcess) -> None:
    _code, players = table(server, 2)
    host, ben = players
    host.client.close()
    ben.client.wait_for(lambda m: m["type"] == "update" and not m["room"]["seats"][0]["connected"])
    server.advance(59)
    ben.client.send({"type": "ping"})
    ben.client.wait_type("pong")
    assert ben.client.you["host"] is False
    server.advance(1)
    ben.client.wait_for(lambda m: m["type"] == "update" and m["you"]["host"])
    ben.client.close()


def test_leaving_a_classic_game_leaves_the_last_player_the_winner(server: ServerProcess) -> None:
    _code, players = table(server, 3)
    start(players)
    host, ben, cy = players
    ben.client.send({"type": "leave", "seat": 1})
    settle(players, 1)
    assert host.client.room["phase"] == "playing"
    cy.client.send({"type": "leave", "seat": 2})
    over = host.client.wait_for(lambda m: m["type"] == "update" and m["room"]["over"])
    assert over["room"]["winner"] == 0 and over["room"]["end_reason"] == "last-player"
    close_all(players)


def test_last_one_standing_ranks_a_leaver_after_every_finisher(server: ServerProcess) -> None:
    _code, players = table(server, 3, finish="last-one-standing", exact_finish=False)
    start(players)
    host, ben, cy = players
    host.client.send({"type": "leave", "seat": 0})
    settle(players, 1)
    # 28 -> 84 then 16 more: Ben and Cy race on and finish.
    server.script_dice(5, 5)
    ben.roll()
    cy.roll()
    while not ben.client.room["over"]:
        turn = ben.client.room["turn"]
        mover = ben if turn == 1 else cy
        server.script_dice(5)
        mover.roll()
        settle(players[1:], mover.client.room["version"])
    assert [(r["seat"], r["status"]) for r in ben.client.room["results"]][-1] == (0, "left")
    close_all(players)


def test_rematch_keeps_the_table_and_rules_and_passes_the_first_turn(server: ServerProcess) -> None:
    _, players = table(server, 2, exact_finish=False)
    start(players)
    host, ben = players
    # 1->38, 1->38, 6+6+1 (51->67), 2, 4 (71->91), 2, 6+6 finishes with exact finish off.
    server.script_dice(1, 1, 6, 6, 1, 2, 4, 2, 6, 6)
    while not host.client.room["over"]:
        mover = players[host.client.room["turn"]]
        mover.roll()
        host.catch_up()
    assert host.client.room["winner"] == 0
    ben.catch_up()
    ben.client.send({"type": "rematch"})
    again = host.client.wait_for(
        lambda m: m["type"] == "update" and m["room"]["phase"] == "playing"
    )
    assert again["events"] == [{"type": "rematch"}]
    assert again["room"]["game_number"] == 2 and again["room"]["turn"] == 1
    assert again["room"]["rules"]["exact_finish"] is False
    assert [s["name"] for s in again["room"]["seats"]] == ["Host", "P2"]
    record = server.get(f"/api/rooms/{host.code}/record?game=1")
    assert len(record["actions"]) == 10
    close_all(players)


def test_rematch_needs_two_players_still_at_the_table(server: ServerProcess) -> None:
    _, players = table(server, 3, finish="last-one-standing")
    start(players)
    host, _, _ = players
    for seat in (1, 2, 0):
        players[seat].client.send({"type": "leave", "seat": seat})
        host.catch_up()
    assert host.client.room["end_reason"] == "everyone-left"
    host.client.send({"type": "rematch"})
    assert host.client.wait_type("error")["code"] == "not_allowed"
    close_all(players)


def test_a_room_nobody_is_connected_to_expires_after_the_idle_time(server: ServerProcess) -> None:
    code, players = table(server, 2)
    close_all(players)
    server.advance(30 * 60 - 1)
    assert server.get(f"/api/rooms/{code}")["code"] == code
    server.advance(1)
    for _ in range(100):
        status, body = server.request("GET", f"/api/rooms/{code}")
        if status == 404:
            break
    assert status == 404 and body["error"]["code"] == "room_not_found"


@pytest.mark.parametrize("countdown", [10, 60])
def test_the_host_picks_a_countdown_within_bounds(server: ServerProcess, countdown: int) -> None:
    _code, host = create_room(server, countdown_seconds=countdown)
    assert host.client.room["countdown_seconds"] == countdown
    host.client.close()
    status, body = server.request(
        "POST",
        "/api/rooms",
        {"mode": "online", "seats": [{"name": "H", "colour": "red"}], "countdown_seconds": 61},
    )
    assert status == 400 and body["error"]["code"] == "invalid_rules"
