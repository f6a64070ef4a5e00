"""Provably fair dice: rolls anyone can recompute after the game, from seeds nobody chose alone.

The scheme (``docs/FAIR_DICE.md`` spells it out byte by byte, for a browser to follow):

1. Before the game the server draws a secret 32-byte *server seed* and publishes its
   *commitment*, ``SHA-256(server_seed)`` in lowercase hex.
2. Each seat's device sends a *client seed* (any text up to 128 characters; ``""`` for a
   seat with no device of its own, such as an AI seat). They are used in seat order.
3. The dice key is ``server_seed || SHA-256(UTF-8(client_seed_0)) || ... ||
   SHA-256(UTF-8(client_seed_n-1))``.
4. Roll number ``i`` of the game (0-based, over the game's rolls only: skips and leaves
   use none) with ``faces`` faces (6, or 5 after two sixes in one turn when sixes roll
   again): for ``attempt = 0, 1, ...`` take ``HMAC-SHA256(key, ASCII(f"{i}:{attempt}"))``
   and go through its 32 bytes in order; the first byte ``b`` below ``256 - 256 % faces``
   gives the face ``b % faces + 1``. (All 32 bytes rejected is a 1-in-10^57 event; then
   the next attempt.)
5. After the game the server reveals the server seed in the record's ``fair`` section.
   :func:`verify_record` checks the commitment and recomputes every roll.

>>> seed = bytes(range(32))
>>> dice = FairDice(seed, ["alice", "bob"])
>>> dice.commitment == commit(seed)
True
>>> [dice.roll(6) for _ in range(8)]
[6, 2, 5, 5, 5, 6, 3, 3]
>>> dice.index
8
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from snakes.engine import (
    Action,
    GameRecord,
    RecordError,
    Roll,
    RuleError,
    SeatInfo,
    apply,
    start_state,
)

SCHEME = "snakes-hmac-sha256-v1"
"""The name of this scheme, written into a record's ``fair`` section."""

SERVER_SEED_BYTES = 32
MAX_CLIENT_SEED = 128
"""The longest client seed, in characters."""

_HEX64 = re.compile(r"[0-9a-f]{64}")


class UnverifiableRecord(ValueError):
    """A record that cannot be checked at all: not JSON, no fair section, malformed seeds."""

    code = "unverifiable_record"


def new_server_seed() -> bytes:
    """32 bytes from the operating system's secure source."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def new_client_seed() -> str:
    """What a device may send: 16 random bytes in hex."""
    return secrets.token_hex(16)


def commit(server_seed: bytes) -> str:
    """The commitment published before the game: SHA-256 of the server seed, in hex.

    >>> commit(bytes(32))[:16]
    '66687aadf862bd77'
    """
    return hashlib.sha256(server_seed).hexdigest()


def check_client_seeds(client_seeds: Sequence[str]) -> None:
    """Raise ``ValueError`` unless every client seed is text of at most 128 characters."""
    for seat, seed in enumerate(client_seeds):
        if not isinstance(seed, str):
            raise ValueError(f"client seed of seat {seat} is not text: {seed!r}")
        if len(seed) > MAX_CLIENT_SEED:
            raise ValueError(f"client seed of seat {seat} is longer than {MAX_CLIENT_SEED}")


def dice_key(server_seed: bytes, client_seeds: Sequence[str]) -> bytes:
    """``server_seed || SHA-256(UTF-8(seed))`` for each client seed in seat order.

    >>> len(dice_key(bytes(32), ["a", "b", "c"]))
    128
    """
    if len(server_seed) != SERVER_SEED_BYTES:
        raise ValueError(f"a server seed is {SERVER_SEED_BYTES} bytes, not {len(server_seed)}")
    check_client_seeds(client_seeds)
    parts = [hashlib.sha256(seed.encode("utf-8")).digest() for seed in client_seeds]
    return server_seed + b"".join(parts)


def _face(mac: Any, index: int, faces: int) -> int:
    limit = 256 - 256 % faces
    attempt = 0
    while True:
        digest = mac.copy()
        digest.update(f"{index}:{attempt}".encode("ascii"))
        for byte in digest.digest():
            if byte < limit:
                return int(byte % faces + 1)
        attempt += 1  # pragma: no cover - 32 rejected bytes in a row: (4/256)**32


def fair_roll(key: bytes, index: int, faces: int = 6) -> int:
    """Roll number ``index`` (0-based) of the game whose dice key is ``key``.

    >>> key = dice_key(bytes(range(32)), ["alice", "bob"])
    >>> fair_roll(key, 0), fair_roll(key, 3), fair_roll(key, 3, faces=5)
    (6, 5, 3)
    """
    if faces not in (5, 6):
        raise ValueError(f"the die has 5 or 6 faces, not {faces}")
    if index < 0:
        raise ValueError(f"roll numbers start at 0, not {index}")
    limit = 256 - 256 % faces
    attempt = 0
    while True:
        # One call into OpenSSL's HMAC: a server rolls many times a second.
        for byte in hmac.digest(key, f"{index}:{attempt}".encode("ascii"), "sha256"):
            if byte < limit:
                return int(byte % faces + 1)
        attempt += 1  # pragma: no cover - 32 rejected bytes in a row: (4/256)**32


def fair_rolls(key: bytes, count: int, faces: int = 6, start: int = 0) -> list[int]:
    """Rolls ``start .. start + count - 1``, each with ``faces`` faces (fast, for checks)."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    return [_face(mac, index, faces) for index in range(start, start + count)]


class FairDice:
    """A dice source (the engine's ``DiceSource``) whose every roll can be recomputed.

    It counts the rolls it has made; give ``next_index`` to carry on a game after a
    restart (the number of rolls already in its record).
    """

    def __init__(
        self, server_seed: bytes, client_seeds: Sequence[str], *, next_index: int = 0
    ) -> None:
        self._server_seed = bytes(server_seed)
        self._client_seeds = tuple(client_seeds)
        self._mac = hmac.new(dice_key(server_seed, client_seeds), digestmod=hashlib.sha256)
        self._index = next_index

    @property
    def index(self) -> int:
        """The number of the next roll (how many have been made)."""
        return self._index

    @property
    def commitment(self) -> str:
        return commit(self._server_seed)

    def roll(self, faces: int) -> int:
        if faces not in (5, 6):
            raise ValueError(f"the die has 5 or 6 faces, not {faces}")
        value = _face(self._mac, self._index, faces)
        self._index += 1
        return value

    def fair_section(self, *, reveal: bool) -> dict[str, Any]:
        """The record's ``fair`` section; the server seed only once the game is over."""
        section: dict[str, Any] = {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "client_seeds": list(self._client_seeds),
        }
        if reveal:
            section["server_seed"] = self._server_seed.hex()
        return section


@dataclass(frozen=True, slots=True)
class RollMismatch:
    """A recorded roll that is not the one the seeds give."""

    index: int
    """The roll's number in the game, from 0."""
    action: int
    """The action's number in the record, from 1."""
    seat: int
    expected: int
    recorded: int

    def describe(self) -> str:
        return (
            f"roll #{self.index} (action {self.action}, seat {self.seat}): the seeds give "
            f"{self.expected}, the record says {self.recorded}"
        )


@dataclass
class VerifyReport:
    """What checking a record found. ``ok`` only if the commitment and every roll match."""

    commitment_ok: bool
    rolls_checked: int
    mismatches: list[RollMismatch] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Everything wrong, in words: the commitment, each mismatched roll, a broken replay."""

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.mismatches and not self.problems

    @property
    def first_tampered(self) -> RollMismatch | None:
        return self.mismatches[0] if self.mismatches else None

    def to_data(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "commitment_ok": self.commitment_ok,
            "rolls_checked": self.rolls_checked,
            "mismatches": [
                {
                    "index": m.index,
                    "action": m.action,
                    "seat": m.seat,
                    "expected": m.expected,
                    "recorded": m.recorded,
                }
                for m in self.mismatches
            ],
            "problems": list(self.problems),
        }


def _load(record_json: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(record_json, Mapping):
        return dict(record_json)
    try:
        data = json.loads(record_json)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise UnverifiableRecord(f"a game record is JSON: {error}") from None
    if not isinstance(data, dict):
        raise UnverifiableRecord("a game record is a JSON object")
    return data


def _fair_section(data: Mapping[str, Any], seats: int) -> tuple[str, bytes, list[str]]:
    fair = data.get("fair")
    if not isinstance(fair, dict):
        raise UnverifiableRecord(
            "the record has no 'fair' section: its dice were not provably fair dice"
        )
    scheme = fair.get("scheme", SCHEME)
    if scheme != SCHEME:
        raise UnverifiableRecord(f"unknown fair dice scheme {scheme!r} (this checks {SCHEME})")
    commitment = fair.get("commitment")
    if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
        raise UnverifiableRecord("fair.commitment must be 64 lowercase hex digits (SHA-256)")
    if "server_seed" not in fair:
        raise UnverifiableRecord(
            "fair.server_seed is missing: the server reveals it only when the game is over"
        )
    server_seed = fair["server_seed"]
    if not isinstance(server_seed, str) or not _HEX64.fullmatch(server_seed):
        raise UnverifiableRecord("fair.server_seed must be 64 lowercase hex digits (32 bytes)")
    client_seeds = fair.get("client_seeds")
    if not isinstance(client_seeds, list):
        raise UnverifiableRecord("fair.client_seeds must be a list, one seed per seat")
    if len(client_seeds) != seats:
        raise UnverifiableRecord(
            f"fair.client_seeds has {len(client_seeds)} seed(s) for {seats} seat(s)"
        )
    try:
        check_client_seeds(client_seeds)
    except ValueError as error:
        raise UnverifiableRecord(f"fair.client_seeds: {error}") from None
    return commitment, bytes.fromhex(server_seed), client_seeds


def verify_record(record_json: str | bytes | Mapping[str, Any]) -> VerifyReport:
    """Check a finished game's record against its fair dice; raise if it cannot be checked.

    The commitment must be SHA-256 of the revealed server seed, and every roll in the
    record must be the one the seeds give at that point of the game (with 5 faces after
    two sixes in a turn). The replay goes on past a wrong roll, with the recorded values,
    so that every tampered roll is reported.

    >>> seed, seeds = bytes(range(32)), ["alice", "bob"]
    >>> record = play_fair_game(seed, seeds, rolls=10)
    >>> verify_record(record).ok
    True
    >>> record["actions"][3]["value"] = 7 - record["actions"][3]["value"]
    >>> verify_record(record).problems
    ['roll #3 (action 4, seat 0): the seeds give 5, the record says 2']
    """
    data = _load(record_json)
    try:
        record = GameRecord.from_data({k: v for k, v in data.items() if k != "fair"})
    except RecordError as error:
        raise UnverifiableRecord(str(error)) from None
    commitment, server_seed, client_seeds = _fair_section(data, len(record.seats))
    report = VerifyReport(commitment_ok=commit(server_seed) == commitment, rolls_checked=0)
    if not report.commitment_ok:
        report.problems.append(
            "the revealed server seed does not match the commitment published before the game"
        )
    mac = hmac.new(dice_key(server_seed, client_seeds), digestmod=hashlib.sha256)
    try:
        state = start_state(record)
    except ValueError as error:
        raise UnverifiableRecord(f"the record's table is impossible: {error}") from None
    for number, action in enumerate(record.actions, start=1):
        if isinstance(action, Roll):
            index = report.rolls_checked
            expected = _face(mac, index, state.faces)
            report.rolls_checked += 1
            if expected != action.value:
                mismatch = RollMismatch(index, number, action.seat, expected, action.value)
                report.mismatches.append(mismatch)
                report.problems.append(mismatch.describe())
        try:
            state, _ = apply(state, action)
        except RuleError as error:
            report.problems.append(f"action {number} ({action.kind}) does not replay: {error}")
            break
    return report


def play_fair_game(
    server_seed: bytes,
    client_seeds: Sequence[str],
    *,
    rolls: int | None = None,
    record: GameRecord | None = None,
) -> dict[str, Any]:
    """Play a game with fair dice (to the end, or ``rolls`` rolls) and return its record.

    The record is :meth:`GameRecord.to_data` plus the revealed ``fair`` section: what a
    server hands out for download. ``record`` gives the table and rules (default: one
    seat per client seed, Classic on the jungle board).
    """
    if record is None:
        seats = tuple(SeatInfo(f"Player {n + 1}") for n in range(len(client_seeds)))
        record = GameRecord(seats=seats)
    dice = FairDice(server_seed, client_seeds)
    state = start_state(record)
    actions: list[Action] = []
    while state.turn is not None and (rolls is None or len(actions) < rolls):
        action = Roll(seat=state.turn, value=dice.roll(state.faces))
        state, _ = apply(state, action)
        actions.append(action)
    data = record.with_actions(actions).to_data()
    data["fair"] = dice.fair_section(reveal=True)
    return data
