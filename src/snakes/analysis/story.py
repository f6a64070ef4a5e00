"""The story of a game: every position of a record and each seat's exact odds after it.

A record is replayed action by action with the rules engine (nothing here knows a rule),
and after every action the exact odds of :func:`~snakes.analysis.live_odds` are read:
Classic, each seat's chance to win; Last One Standing, each seat's expected place. The
ladders and snakes that moved a seat's odds the most are the game's turning points.

>>> from snakes.engine import Roll
>>> from snakes.engine.record import GameRecord, SeatInfo
>>> record = GameRecord(seats=(SeatInfo("Ana"), SeatInfo("Ben")), actions=(Roll(0, 1),))
>>> story = game_story(record)
>>> [step.positions for step in story.steps]
[(0, 0), (38, 0)]
>>> [round(p, 3) for p in story.steps[1].odds]
[0.53, 0.47]
>>> story.moments[0].kind, story.moments[0].start, story.moments[0].end
('ladder', 1, 38)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from snakes.analysis.odds import live_odds
from snakes.engine import (
    Climbed,
    Event,
    Finish,
    GameState,
    RecordError,
    RuleError,
    Slid,
    apply,
    placings,
)
from snakes.engine.actions import Action, action_to_data
from snakes.engine.record import GameRecord, start_state

KEY_MOMENTS = 5
"""At most this many jumps are marked as the moments that swung the game."""

KEY_SWING = {"win": 0.03, "place": 0.1}
"""A jump is only a turning point if it moved its seat's odds at least this much."""


def odds_kind(state: GameState) -> str:
    """``win`` (Classic: chance to win) or ``place`` (Last One Standing: expected place)."""
    return "win" if state.rules.finish is Finish.CLASSIC else "place"


def story_odds(state: GameState) -> list[float]:
    """Each seat's odds at ``state``, by seat number: :func:`live_odds`, and at the end of
    a game, its result (Last One Standing: every seat's final place, unfinished seats of
    an abandoned game included).

    >>> from snakes.engine import new_game
    >>> [round(p, 4) for p in story_odds(new_game(2))]
    [0.5051, 0.4949]
    """
    if state.over and state.rules.finish is not Finish.CLASSIC:
        places = [0.0] * state.players
        for placing in placings(state):
            places[placing.seat] = float(placing.place)
        return places
    return live_odds(state)


@dataclass(frozen=True, slots=True)
class Step:
    """The game after ``index`` actions (0: the start, before any action)."""

    index: int
    action: Action | None
    events: tuple[Event, ...]
    state: GameState
    odds: tuple[float, ...]

    @property
    def positions(self) -> tuple[int, ...]:
        return self.state.positions

    def to_data(self) -> dict[str, Any]:
        state = self.state
        return {
            "index": self.index,
            "action": None if self.action is None else action_to_data(self.action),
            "events": [event.to_data() for event in self.events],
            "positions": list(state.positions),
            "turn": state.turn,
            "sixes": state.sixes,
            "standings": list(state.standings),
            "leavers": list(state.leavers),
            "over": state.over,
            "odds": list(self.odds),
        }


@dataclass(frozen=True, slots=True)
class Moment:
    """A ladder climbed or a snake slid at step ``step``, and how it moved the odds.

    ``swing`` is the change of the seat's odds over that action: for ``win`` a chance
    (up is good), for ``place`` an expected place (down is good).
    """

    step: int
    seat: int
    kind: str
    start: int
    end: int
    swing: float
    key: bool = False

    def to_data(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "seat": self.seat,
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "swing": self.swing,
            "key": self.key,
        }


@dataclass(frozen=True, slots=True)
class Story:
    record: GameRecord
    kind: str
    steps: tuple[Step, ...]
    moments: tuple[Moment, ...]

    @property
    def final(self) -> GameState:
        return self.steps[-1].state

    def to_data(self) -> dict[str, Any]:
        record = self.record
        return {
            "kind": self.kind,
            "seats": [
                {"index": i, "name": s.name, "colour": s.colour} for i, s in enumerate(record.seats)
            ],
            "rules": record.rules.to_data(),
            "board": record.board.to_data(),
            "first": record.first,
            "over": self.final.over,
            "steps": [step.to_data() for step in self.steps],
            "moments": [moment.to_data() for moment in self.moments],
        }


def game_story(record: GameRecord) -> Story:
    """Replay ``record`` with the engine; each position and each seat's odds after it.

    Raises :class:`~snakes.engine.RecordError` (from the replay) if an action does not
    apply, and :class:`~snakes.analysis.UnfinishableBoard` for a board with traps.
    """
    try:
        state = start_state(record)
    except ValueError as error:
        raise RecordError(f"the record's table is impossible: {error}") from None
    steps = [Step(0, None, (), state, tuple(story_odds(state)))]
    moments: list[Moment] = []
    for index, action in enumerate(record.actions, start=1):
        try:
            state, events = apply(state, action)
        except RuleError as error:
            raise RecordError(f"action {index} ({action.kind}) does not replay: {error}") from None
        odds = tuple(story_odds(state))
        before = steps[-1].odds
        for event in events:
            if isinstance(event, Climbed | Slid):
                moments.append(
                    Moment(
                        step=index,
                        seat=event.seat,
                        kind="ladder" if isinstance(event, Climbed) else "snake",
                        start=event.start,
                        end=event.end,
                        swing=odds[event.seat] - before[event.seat],
                    )
                )
        steps.append(Step(index, action, tuple(events), state, odds))
    kind = odds_kind(state)
    return Story(record, kind, tuple(steps), _mark_key(moments, KEY_SWING[kind]))


def _mark_key(moments: list[Moment], threshold: float) -> tuple[Moment, ...]:
    ranked = sorted(range(len(moments)), key=lambda i: -abs(moments[i].swing))
    key = {i for i in ranked[:KEY_MOMENTS] if abs(moments[i].swing) >= threshold}
    return tuple(
        Moment(m.step, m.seat, m.kind, m.start, m.end, m.swing, key=i in key)
        for i, m in enumerate(moments)
    )
