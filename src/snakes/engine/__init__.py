"""The rules engine: pure, standard library only, deterministic given its dice.

The whole game is ``apply(state, action) -> (new state, events)``:

>>> from snakes.engine import new_game, apply, Roll
>>> state = new_game(2)
>>> state, events = apply(state, Roll(seat=0, value=6))
>>> [e.kind for e in events]
['rolled', 'moved', 'bonus_roll']
>>> state.turn, state.positions
(0, (6, 0))
"""

from snakes.engine.actions import (
    Abandon,
    Action,
    Leave,
    Remove,
    Roll,
    Skip,
    action_from_data,
    action_to_data,
    roll_of,
)
from snakes.engine.board import (
    FINISH,
    JUNGLE,
    SIDE,
    START,
    Board,
    Jump,
    cell_of,
    make_board,
    square_at,
)
from snakes.engine.dice import DiceExhausted, DiceSource, ScriptedDice, SecureDice, SeededDice
from snakes.engine.errors import (
    BoardError,
    ForbiddenRoll,
    GameOver,
    NotYourTurn,
    RecordError,
    RuleError,
    SeatNotRacing,
    UnknownSeat,
)
from snakes.engine.events import (
    BonusRoll,
    Climbed,
    Event,
    Finished,
    GameEnded,
    Left,
    Moved,
    Overshot,
    Rolled,
    Skipped,
    Slid,
    TurnPassed,
)
from snakes.engine.game import apply, check_roll, roll
from snakes.engine.record import GameRecord, SeatInfo, replay, start_state
from snakes.engine.results import Placing, Status, placings
from snakes.engine.rules import PRESETS, Finish, Rules
from snakes.engine.state import (
    AWAY_AFTER,
    MAX_SEATS,
    MAX_SIXES,
    MIN_SEATS,
    GameState,
    new_game,
    state_from_snapshot,
    state_to_snapshot,
)
from snakes.engine.version import ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "FINISH",
    "JUNGLE",
    "MAX_SEATS",
    "MAX_SIXES",
    "AWAY_AFTER",
    "MIN_SEATS",
    "PRESETS",
    "SIDE",
    "START",
    "Abandon",
    "Action",
    "Board",
    "BoardError",
    "BonusRoll",
    "Climbed",
    "DiceExhausted",
    "DiceSource",
    "Event",
    "Finish",
    "Finished",
    "ForbiddenRoll",
    "GameEnded",
    "GameOver",
    "GameRecord",
    "GameState",
    "Jump",
    "Leave",
    "Left",
    "Moved",
    "NotYourTurn",
    "Overshot",
    "Placing",
    "RecordError",
    "Remove",
    "Roll",
    "Rolled",
    "RuleError",
    "Rules",
    "ScriptedDice",
    "SeatInfo",
    "SeatNotRacing",
    "SecureDice",
    "SeededDice",
    "Skip",
    "Skipped",
    "Slid",
    "Status",
    "TurnPassed",
    "UnknownSeat",
    "action_from_data",
    "action_to_data",
    "roll_of",
    "apply",
    "cell_of",
    "check_roll",
    "make_board",
    "new_game",
    "state_from_snapshot",
    "state_to_snapshot",
    "placings",
    "replay",
    "roll",
    "square_at",
    "start_state",
]
