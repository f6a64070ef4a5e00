"""The room view and the events of an update, as types: what ``rooms/views.py`` builds.

The JSON Schema of every server message (``protocol_schema.py``) is made from these, and
the tests check real views and updates against it, so a field the view gains or loses
without a change here fails there. Engine events are made from the engine's own event
classes (``engine/events.py``), field for field; the room's own events (the lobby's,
the rematch's) are written here, the only place that types them.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import typing
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from snakes.engine import FINISH, Finish
from snakes.engine import events as engine_events
from snakes.engine.results import Status
from snakes.fair import SCHEME
from snakes.server.rooms.model import COLOURS, Kind, Mode, Phase

Square = Annotated[int, Field(ge=0, le=FINISH)]
SeatNumber = Annotated[int, Field(ge=0)]
Colour = Annotated[str, Field(json_schema_extra={"enum": list(COLOURS)})]
Hex64 = Annotated[str, Field(pattern="^[0-9a-f]{64}$")]
Scheme = Annotated[str, Field(json_schema_extra={"const": SCHEME})]


class _View(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulesView(_View):
    finish: Finish
    exact_finish: bool
    six_again: bool


class BoardView(_View):
    name: str
    ladders: list[tuple[Square, Square]] = Field(description="[bottom, top] of each ladder")
    snakes: list[tuple[Square, Square]] = Field(description="[head, tail] of each snake")


class SeatView(_View):
    index: SeatNumber
    name: str
    colour: Colour
    kind: Kind
    connected: bool = Field(description="an AI seat is always connected")
    away: bool = Field(description="racing, and missed three turns in a row")
    host: bool
    square: Square
    status: Literal["waiting", "racing", "finished", "left"] = Field(
        description="waiting: in the lobby, before any game"
    )
    place: Annotated[int, Field(ge=1)] | None = Field(description="a finisher's place")
    missed: Annotated[int, Field(ge=0)] = Field(description="turns missed in a row")
    removed: bool = Field(
        default=False,
        description="left because the host removed them (present only then, and true)",
    )


class ResultRow(_View):
    place: Annotated[int, Field(ge=1)]
    seat: SeatNumber
    square: Square
    status: Status


class CountdownView(_View):
    seat: SeatNumber
    total_ms: Annotated[int, Field(ge=0)]
    remaining_ms: Annotated[int, Field(ge=0)]
    starts_in_ms: Annotated[int, Field(ge=0)] = Field(
        description="the time still allowed for showing the last move before it runs"
    )
    paused: bool = Field(description="every racer is away: it waits, full")
    deadline_ms: int | None = Field(description="when it runs out, server wall clock (ms)")
    server_now_ms: int = Field(description="the server's wall clock when the view was made")


class OddsView(_View):
    kind: Literal["win", "place"] = Field(
        description="win: each seat's chance to win; place: each seat's expected place"
    )
    values: list[float]


class FairOpen(_View):
    """In the lobby and after a game: the next game's commitment, taking seeds."""

    scheme: Scheme
    commitment: Hex64
    accepting_seeds: Literal[True]
    seeds_received: Annotated[int, Field(ge=0)]


class FairLocked(_View):
    """During a game: its commitment and the seeds fixed at its start."""

    scheme: Scheme
    commitment: Hex64
    client_seeds: list[str]
    accepting_seeds: Literal[False]


class RoomView(_View):
    """The room as every viewer sees it (``rooms/views.py`` ``room_view``): never a
    secret or a seed; what differs per viewer travels in ``you``."""

    code: str
    mode: Mode
    phase: Phase
    game_number: Annotated[int, Field(ge=0)]
    rules: RulesView
    countdown_seconds: Annotated[int, Field(ge=1)]
    board: BoardView
    finish_square: Annotated[int, Field(json_schema_extra={"const": FINISH})]
    seats: list[SeatView]
    turn: SeatNumber | None
    faces: Literal[5, 6] = Field(description="5 after two sixes in a row: never a third")
    bonus: bool = Field(description="the seat whose turn it is rolls again after a six")
    over: bool
    end_reason: str | None
    winner: SeatNumber | None
    standings: list[SeatNumber] = Field(description="the seats that reached 100, in order")
    results: list[ResultRow] | None = Field(description="the result screen's rows, once over")
    countdown: CountdownView | None
    only_ai_racing: bool
    version: Annotated[int, Field(ge=0)] = Field(description="counts the game's actions")
    change: Annotated[int, Field(ge=0)] = Field(description="moves on with every update")
    odds: OddsView | None
    fair: FairOpen | FairLocked | None
    reactions: bool
    rematch: list[SeatNumber] = Field(description="after a game: who asked to play again")
    invite_url: str


# ---- events -----------------------------------------------------------------------------

_CLOSED = ConfigDict(extra="forbid")


def _engine_event(cls: type) -> type[BaseModel]:
    """The model of one engine event: ``type`` (its ``kind``) and its fields, typed as the
    engine's dataclass types them."""
    hints = typing.get_type_hints(cls)
    kind: Any = Literal[cls.kind]  # type: ignore[attr-defined]
    fields: dict[str, Any] = {"type": (kind, ...)}
    for field in dataclasses.fields(cls):
        fields[field.name] = (hints[field.name], ...)
    model: type[BaseModel] = create_model(
        f"{cls.__name__}Event", __config__=_CLOSED, __doc__=cls.__doc__, **fields
    )
    return model


ENGINE_EVENTS: tuple[type[BaseModel], ...] = tuple(
    _engine_event(cls) for cls in typing.get_args(engine_events.Event)
)


class Joined(_View):
    """Someone took a seat in the lobby."""

    type: Literal["joined"]
    seat: SeatNumber


class SeatLeft(_View):
    """A lobby seat was given up or removed; later seats moved up one."""

    type: Literal["seat_left"]
    seat: SeatNumber


class RulesChanged(_View):
    """The host changed the rules, the countdown or the board."""

    type: Literal["rules_changed"]


class HostChanged(_View):
    """This seat hosts now."""

    type: Literal["host_changed"]
    seat: SeatNumber


class Started(_View):
    """The game began."""

    type: Literal["started"]


class RematchWanted(_View):
    """This seat's player asked to play again."""

    type: Literal["rematch_wanted"]
    seat: SeatNumber


class Rematch(_View):
    """A new game with the same table and rules."""

    type: Literal["rematch"]


class Closed(_View):
    """The last seat left the lobby: the room is gone."""

    type: Literal["closed"]


class ReactionsChanged(_View):
    """The host turned reactions on or off."""

    type: Literal["reactions_changed"]
    on: bool


ROOM_EVENTS: tuple[type[BaseModel], ...] = (
    Joined,
    SeatLeft,
    RulesChanged,
    HostChanged,
    Started,
    RematchWanted,
    Rematch,
    Closed,
    ReactionsChanged,
)

EventModels = ENGINE_EVENTS + ROOM_EVENTS
Event: Any = Annotated[
    functools.reduce(operator.or_, EventModels),
    Field(discriminator="type"),
]
"""One event of an update, by its ``type``."""

EVENT_TYPES: tuple[str, ...] = tuple(
    typing.get_args(m.model_fields["type"].annotation)[0] for m in EventModels
)
