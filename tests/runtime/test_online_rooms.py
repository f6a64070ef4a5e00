"""Play Online through the runtime: connections, the room clock and the store, in process.

How to play, "Playing with others": "In online rooms, everyone rolls from their own
device — the room waits for the current player, and if someone stalls or disconnects,
their turn is skipped after the countdown so nobody is stuck waiting; no roll is ever
made on their behalf."
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from snakes.engine import Rules
from snakes.fair import verify_record
from snakes.server.rooms.errors import ProtocolError
from tests.support.inprocess import Table, Viewer, run, settle

COUNTDOWN = 20.0
MAX_ROLLS = 3000


def updates_with_events(viewer: Viewer) -> list[dict[str, Any]]:
    return [m for m in viewer.inbox() if m["type"] == "update" and m["events"]]


def test_a_new_room_has_a_short_unambiguous_code_and_an_invite_link() -> None:
    """PRODUCT.md: "The room has a short code — 6 characters from a 32-symbol alphabet
    without look-alikes (digits 2–9 and capitals without I and O), read
    case-insensitively — and an invite link"."""  # noqa: RUF002

    async def scenario() -> None:
        async with Table() as table:
            code, (host,) = await table.lobby(1)
            assert re.fullmatch(r"[2-9A-HJ-NP-Z]{6}", code)
            room = host.room
            assert room["phase"] == "lobby" and room["invite_url"].endswith(f"/r/{code}")
            assert host.you == {"seats": [0], "host": True, "spectator": False}
            # Codes are read case-insensitively, with spaces or a dash between groups.
            looked_up = await table.runtime.view(f"{code[:3].lower()}-{code[3:].lower()}")
            assert looked_up["code"] == code
            spaced = await table.runtime.view(f" {code[:3]} {code[3:]} ")
            assert spaced["code"] == code

    run(scenario())


def test_joining_a_started_room_as_a_player_is_refused_but_watching_is_not() -> None:
    """PRODUCT.md: "spectators: anyone opening the link after the start watches,
    read-only"."""

    async def scenario() -> None:
        async with Table() as table:
            code, (host, _ben) = await table.online(2)
            with pytest.raises(ProtocolError) as late:
                await table.runtime.join(code, "Late", "green")
            assert late.value.code == "already_started"
            watcher = Viewer(table.runtime)
            welcome = await watcher.hello(code)
            assert welcome["you"] == {"seats": [], "host": False, "spectator": True}
            with pytest.raises(ProtocolError) as refused:
                await watcher.send("roll", seat=0, version=0)
            assert refused.value.code == "spectator"
            table.script(3)
            await host.roll(0)
            (seen,) = updates_with_events(watcher)
            assert seen["events"][0] == {"type": "rolled", "seat": 0, "value": 3, "bonus": False}

    run(scenario())


def test_a_stalled_turn_is_skipped_after_the_countdown_and_never_rolled() -> None:
    """PRODUCT.md: "When it runs out — the player stalled or disconnected — the turn is
    skipped and everyone is told. No roll is ever made on a player's behalf."."""

    async def scenario() -> None:
        async with Table() as table:
            code, players = await table.online(3)
            host, ben, _ = players
            countdown = host.room["countdown"]
            assert countdown["seat"] == 0 and countdown["remaining_ms"] == 20_000
            table.clock.advance(COUNTDOWN - 1)
            table.script(4)
            await settle()
            assert table.current(code).version == 0  # not yet, on the server
            assert all(updates_with_events(p) == [] for p in players)
            table.clock.advance(1)
            await settle()
            for player in players:
                (update,) = updates_with_events(player)
                assert update["events"] == [
                    {"type": "skipped", "seat": 0, "bonus_lost": False, "missed": 1},
                    {"type": "turn_passed", "previous": 0, "seat": 1},
                ]
                assert update["room"]["seats"][0]["square"] == 0
            # The scripted 4 is still unused: nobody rolled for the host.
            await ben.roll(1)
            assert updates_with_events(ben)[-1]["events"][0]["value"] == 4

    run(scenario())


def test_every_racer_disconnected_pauses_the_countdown_then_the_game_ends_unfinished() -> None:
    """PRODUCT.md: "When every player still racing is disconnected, the countdown pauses.
    If none of them is back within the idle time, the game ends: those still racing are
    ranked by square reached, marked "did not finish"."."""

    async def scenario() -> None:
        async with Table() as table:
            code, (host, ben) = await table.online(2)
            table.script(5, 3)
            await host.roll(0)
            await ben.roll(1)
            watcher = await table.watch(code)
            await host.leave()
            await ben.leave()
            paused = watcher.room
            assert not any(s["connected"] for s in paused["seats"])
            assert paused["countdown"]["paused"] is True
            table.clock.advance(COUNTDOWN * 10)  # far past any countdown: nobody is skipped
            await settle()
            assert table.current(code).version == 2 and watcher.room["version"] == 2
            table.clock.advance(30 * 60)
            await settle()
            over = watcher.room
            assert over["over"] and watcher.received[-1]["events"][-1]["reason"] == "abandoned"
            assert [(r["seat"], r["status"]) for r in over["results"]] == [
                (0, "did-not-finish"),
                (1, "did-not-finish"),
            ]

    run(scenario())


def test_a_returning_player_gets_the_whole_state_and_the_remaining_countdown() -> None:
    """PRODUCT.md: "Reconnecting: a per-seat secret kept in the browser brings a player
    who reloads, loses the network or changes networks back to their seat, with the
    whole state and the remaining countdown."."""

    async def scenario() -> None:
        async with Table() as table:
            code, (host, _ben) = await table.online(2)
            table.clock.advance(5)
            await settle()
            await host.leave()
            again = Viewer(table.runtime)
            welcome = await again.hello(code, host.secret)
            assert welcome["you"]["seats"] == [0]
            assert welcome["room"]["countdown"]["remaining_ms"] == 15_000
            assert welcome["room"]["seats"][0]["connected"] is True

    run(scenario())


def test_a_host_disconnected_for_a_minute_in_the_lobby_hands_over() -> None:
    """PRODUCT.md: "If the host leaves (or stays disconnected for a minute in the
    lobby), the next connected seat hosts."."""

    async def scenario() -> None:
        async with Table() as table:
            code, (host, ben) = await table.lobby(2)
            await host.leave()
            assert ben.room["seats"][0]["connected"] is False
            table.clock.advance(59)
            await settle()
            assert ben.you["host"] is False and table.current(code).host == 0
            table.clock.advance(1)
            await settle()
            assert table.current(code).host == 1
            assert ben.you == {"seats": [1], "host": True, "spectator": False}

    run(scenario())


def test_a_room_nobody_is_connected_to_expires_after_the_idle_time() -> None:
    """PRODUCT.md: "A room in which nobody is connected pauses its countdown and expires
    after an idle time (default 30 minutes)."."""

    async def scenario() -> None:
        async with Table() as table:
            code, players = await table.lobby(2)
            for player in players:
                await player.leave()
            table.clock.advance(30 * 60 - 1)
            await settle()
            assert (await table.runtime.view(code))["code"] == code
            table.clock.advance(1)
            await settle()
            with pytest.raises(ProtocolError) as gone:
                await table.runtime.view(code)
            assert gone.value.code == "room_not_found"
            assert table.runtime.room_count == 0

    run(scenario())


def test_an_online_game_rolls_from_committed_seeds_and_its_record_verifies() -> None:
    """PRODUCT.md, Verify (when fair dice exist): "recomputes a game's rolls in the
    browser, so that checking needs no trust in the server"."""

    async def scenario() -> None:
        async with Table() as table:
            code, (host, ben) = await table.lobby(2, rules=Rules(exact_finish=False))
            commitment = host.room["fair"]["commitment"]
            assert host.room["fair"]["accepting_seeds"] is True
            # Each device sends a seed of its own after seeing the commitment.
            await host.send("seed", seed="a1" * 16)
            await ben.send("seed", seed="b2" * 16)
            assert host.room["fair"]["seeds_received"] == 2
            await host.send("start", shuffle=False)
            playing = host.room
            assert playing["fair"]["commitment"] == commitment
            assert playing["fair"]["client_seeds"] == ["a1" * 16, "b2" * 16]
            assert "server_seed" not in json.dumps(host.received + ben.received)
            players = [host, ben]
            for _ in range(MAX_ROLLS):
                room = host.room
                if room["over"]:
                    break
                await players[room["turn"]].roll(room["turn"])
            text = await table.runtime.record(code, None)
            assert text is not None
            record = json.loads(text)
            revealed = bytes.fromhex(record["fair"]["server_seed"])
            assert hashlib.sha256(revealed).hexdigest() == commitment
            assert verify_record(record).ok
            # A changed roll is caught and named.
            rolls = [i for i, a in enumerate(record["actions"]) if a["type"] == "roll"]
            action = record["actions"][rolls[0]]
            action["value"] = action["value"] % 6 + 1
            report = verify_record(record)
            assert not report.ok and report.first_tampered is not None
            # The next game has a new commitment of its own, taking new seeds.
            assert host.room["fair"]["commitment"] != commitment

    run(scenario())


def test_a_spectator_never_sees_a_seats_secret() -> None:
    """PRODUCT.md: "A seat's secret never reaches anyone else."."""

    async def scenario() -> None:
        async with Table() as table:
            code, players = await table.online(3)
            watcher = await table.watch(code)
            table.script(3, 4)
            await players[0].roll(0)
            await players[1].roll(1)
            await players[2].leave()
            texts = [json.dumps(m) for v in (*players, watcher) for m in v.received]
            assert len(texts) > 10
            for player in players:
                assert player.secret is not None
                assert all(player.secret not in text for text in texts)

    run(scenario())
