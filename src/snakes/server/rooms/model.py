"""Rooms and seats: who sits where, who controls each seat, and the game they play.

One room model serves every mode. A local room (Play with AI, Pass & Play) has one
secret that holds every human seat; an online room has one secret per seat. AI seats
are played by the server.

A room value that the runtime holds as current is never changed. A handler works on
:meth:`Room.draft`, a copy whose lists and dicts are its own (like immer's draft in
boardgame.io), and the draft becomes the current room only once its change is stored.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Literal, get_args

from snakes.engine import (
    JUNGLE,
    Action,
    Board,
    GameRecord,
    GameState,
    Roll,
    Rules,
    SeatInfo,
    action_from_data,
    apply,
    new_game,
    state_from_snapshot,
    state_to_snapshot,
)
from snakes.fair import SCHEME, commit
from snakes.server import jsontext
from snakes.server.rooms.names import clean_name as clean_name  # noqa: PLC0414 - re-exported

Colour = Literal["red", "blue", "green", "yellow", "purple", "orange"]
COLOURS: tuple[str, ...] = get_args(Colour)
NAME_MAX = 20


class Mode(StrEnum):
    AI = "ai"
    PASS = "pass"
    ONLINE = "online"


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class Kind(StrEnum):
    HUMAN = "human"
    AI = "ai"


@functools.lru_cache(maxsize=64)
def rules_data(rules: Rules) -> dict[str, Any]:
    """``rules.to_data()``, worked out once per rule set. Shared: never change it."""
    return rules.to_data()


@functools.lru_cache(maxsize=64)
def board_data(board: Board) -> dict[str, object]:
    """``board.to_data()``, worked out once per board. Shared: never change it."""
    return board.to_data()


@dataclass(frozen=True)
class Seat:
    name: str
    colour: str
    kind: Kind = Kind.HUMAN
    secret_hash: str = ""

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "colour": self.colour,
            "kind": self.kind.value,
            "secret_hash": self.secret_hash,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Seat:
        return cls(data["name"], data["colour"], Kind(data["kind"]), data["secret_hash"])

    def held_by(self, secret_hash: str) -> Seat:
        return replace(self, secret_hash=secret_hash)


@dataclass(frozen=True)
class TurnClock:
    """The countdown for one roll: it runs from ``starts_at`` to ``deadline``."""

    seat: int
    version: int
    starts_at: float
    deadline: float


@dataclass
class Room:
    """A room's lasting state: everything here is stored (but ``reacted``); connections and
    timers are not."""

    code: str
    mode: Mode
    rules: Rules
    seats: list[Seat]
    board: Board = JUNGLE
    countdown_seconds: int = 20
    host: int | None = None
    phase: Phase = Phase.PLAYING
    first: int = 0
    game_number: int = 1
    actions: list[Action] = field(default_factory=list)
    """This game's actions, in order: they replay to ``game``."""
    version: int = 0
    """Every game action in the room's life, rematches included: the event sequence."""
    created_at: float = 0.0
    touched_at: float = 0.0
    """Wall-clock time of the last intent; expiry counts from here."""
    rev: int = 0
    """Bumped by every committed change, game action or not: the store's guard against
    two nodes changing one room at once."""
    change: int = 0
    """Bumped by every update the room sends (a change its viewers see): the number an
    intent that changes the room carries, so a stale or repeated one is refused."""
    turn_clock: TurnClock | None = None
    timers: dict[str, float] = field(default_factory=dict)
    """Pending timers by name (turn, ai, idle, host): when each is due."""
    server_seed: str = ""
    """Online rooms: the next game's secret seed (hex); its SHA-256 is public at once."""
    client_seeds: dict[str, str] = field(default_factory=dict)
    """Seeds the players' devices sent for the next game, by seat secret digest."""
    locked_seeds: list[str] | None = None
    """The client seeds the game in progress rolls with (fixed when it started)."""
    game: GameState | None = None
    rolls: int = 0
    """Dice rolled in this game so far: the index of the next fair roll."""
    opened: bool = False
    """A device has said hello to this room at least once."""
    reactions: bool = True
    """Online rooms: players may send reactions (the host may turn them off)."""
    rematch: list[int] = field(default_factory=list)
    """Online rooms after a game: the seats whose players asked to play again, in the
    order they asked (a rematch is a proposal: see ``lobby.rematch``)."""
    reacted: dict[str, tuple[float, ...]] = field(default_factory=dict, compare=False)
    """Not stored: when each seat holder (by secret digest) last sent reactions, on the
    room clock, for the limits. Only the room's owner holds it; a reaction is never a
    change to store, so a restart or a takeover starts it afresh."""

    def draft(self) -> Room:
        """A copy to change: its own seats, actions, timers and seeds; shared frozen values."""
        draft = Room.__new__(Room)
        draft.__dict__.update(self.__dict__)  # as copy.copy, without its generic machinery
        draft.seats = list(self.seats)
        draft.actions = list(self.actions)
        draft.timers = dict(self.timers)
        draft.client_seeds = dict(self.client_seeds)
        draft.locked_seeds = None if self.locked_seeds is None else list(self.locked_seeds)
        draft.reacted = dict(self.reacted)
        draft.rematch = list(self.rematch)
        return draft

    @property
    def is_local(self) -> bool:
        return self.mode is not Mode.ONLINE

    @property
    def fair(self) -> bool:
        """Provably fair dice: online rooms roll from committed seeds."""
        return bool(self.server_seed)

    def lock_seeds(self) -> None:
        """Fix the client seeds the starting game rolls with, one per seat."""
        self.locked_seeds = [
            self.client_seeds.get(s.secret_hash, "") if s.secret_hash else "" for s in self.seats
        ]

    def fair_section(self, *, reveal: bool) -> dict[str, Any]:
        """The record's ``fair`` section (the server seed only once revealed)."""
        section: dict[str, Any] = {
            "scheme": SCHEME,
            "commitment": commit(bytes.fromhex(self.server_seed)),
            "client_seeds": list(self.locked_seeds or []),
        }
        if reveal:
            section["server_seed"] = self.server_seed
        return section

    def record_json(self) -> str:
        """The game's record, with its fair-dice section revealed when it has one."""
        data = self.record().to_data()
        if self.fair and self.locked_seeds is not None:
            data["fair"] = self.fair_section(reveal=True)
        return jsontext.dumps(data)

    def start_game(self) -> None:
        if self.fair:
            self.lock_seeds()
        self.game = new_game(len(self.seats), self.rules, self.board, first=self.first)
        self.actions = []
        self.rolls = 0
        self.rematch = []
        self.phase = Phase.PLAYING

    def play(self, action: Action) -> list[Any]:
        """Apply a game action; on a rule error nothing changes."""
        assert self.game is not None
        self.game, events = apply(self.game, action)
        self.actions.append(action)
        self.rolls += isinstance(action, Roll)
        self.version += 1
        if self.game.over:
            self.phase = Phase.OVER
        return events

    def record(self) -> GameRecord:
        return GameRecord(
            seats=tuple(SeatInfo(s.name, s.colour) for s in self.seats),
            actions=tuple(self.actions),
            rules=self.rules,
            board=self.board,
            first=self.first,
        )

    def to_data(self) -> dict[str, Any]:
        """The room without its actions (they are stored one row each).

        ``game`` is a snapshot of the game's state at ``version``: a node taking the room
        over starts from it and applies only the actions logged after it.
        """
        return {
            "code": self.code,
            "mode": self.mode.value,
            "rules": rules_data(self.rules),
            "board": board_data(self.board),
            "seats": [s.to_data() for s in self.seats],
            "countdown_seconds": self.countdown_seconds,
            "host": self.host,
            "phase": self.phase.value,
            "first": self.first,
            "game_number": self.game_number,
            "version": self.version,
            "created_at": self.created_at,
            "touched_at": self.touched_at,
            "rev": self.rev,
            "change": self.change,
            "turn_clock": self.live_data()["turn_clock"],
            "timers": self.timers,
            "server_seed": self.server_seed,
            "client_seeds": self.client_seeds,
            "locked_seeds": self.locked_seeds,
            "game": None if self.game is None else state_to_snapshot(self.game),
            "opened": self.opened,
            "reactions": self.reactions,
            "rematch": self.rematch,
        }

    def settings_key(self) -> tuple[Any, ...]:
        """Everything stored with the room but its game's progress and its timers.

        While this stays the same, a change only moves the game on: the store appends
        its actions and writes :meth:`live_data`, and the room's whole row (with a
        snapshot of the game) is written again only now and then (``backends/rows.py``).
        """
        return (
            self.phase,
            self.host,
            self.first,
            self.game_number,
            self.countdown_seconds,
            self.rules,
            self.board,
            tuple(self.seats),
            self.server_seed,
            tuple(self.client_seeds.items()),
            None if self.locked_seeds is None else tuple(self.locked_seeds),
            self.opened,
            self.reactions,
            tuple(self.rematch),
        )

    def live_data(self) -> dict[str, Any]:
        """What changes as the game moves on, beside its actions: stored with every change.

        Read back over :meth:`to_data`'s older copy of the same fields (see :meth:`from_data`).
        """
        clock = self.turn_clock
        return {
            "version": self.version,
            "rev": self.rev,
            "change": self.change,
            "touched_at": self.touched_at,
            "turn_clock": None
            if clock is None
            else {
                "seat": clock.seat,
                "version": clock.version,
                "starts_at": clock.starts_at,
                "deadline": clock.deadline,
            },
            "timers": self.timers,
        }

    @classmethod
    def from_data(
        cls,
        data: dict[str, Any],
        actions: list[dict[str, Any]],
        live: dict[str, Any] | None = None,
    ) -> Room:
        """A room from its stored row, its ``live_data`` if newer, and its game's actions.

        The row's game snapshot may be older than ``live``: the actions logged after it
        are applied (never the whole game)."""
        if live is not None:
            data = {**data, **live}
        room = cls(
            code=data["code"],
            mode=Mode(data["mode"]),
            rules=Rules.from_data(data["rules"]),
            seats=[Seat.from_data(s) for s in data["seats"]],
            board=Board.from_data(data["board"]),
            countdown_seconds=data["countdown_seconds"],
            host=data["host"],
            phase=Phase(data["phase"]),
            first=data["first"],
            game_number=data["game_number"],
            version=data["version"],
            created_at=data["created_at"],
            touched_at=data["touched_at"],
            rev=data.get("rev", 0),
            change=data.get("change", 0),
            server_seed=data.get("server_seed", ""),
            client_seeds=dict(data.get("client_seeds", {})),
            locked_seeds=data.get("locked_seeds"),
            turn_clock=TurnClock(**data["turn_clock"]) if data.get("turn_clock") else None,
            timers=dict(data.get("timers", {})),
            opened=data.get("opened", True),
            reactions=data.get("reactions", True),
            rematch=list(data.get("rematch", [])),
        )
        if room.phase is not Phase.LOBBY:
            room.catch_up(data.get("game"), [action_from_data(a) for a in actions])
        return room

    def catch_up(self, snapshot: dict[str, Any] | None, actions: list[Action]) -> None:
        """The game from its snapshot and the log's tail: never replayed from its start.

        ``actions`` is the game's whole log. The snapshot was stored with the room at
        some version; only the actions logged after it are applied. A room stored
        without a snapshot (an older file) replays its log once, here.
        """
        if snapshot is None:
            game = new_game(len(self.seats), self.rules, self.board, first=self.first)
        else:
            game = state_from_snapshot(snapshot, self.rules, self.board)
        for action in actions[game.version :]:
            game, _ = apply(game, action)
        self.game = game
        self.actions = list(actions)
        self.rolls = sum(isinstance(a, Roll) for a in actions)
