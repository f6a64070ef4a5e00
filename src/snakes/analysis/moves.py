"""One roll of one token, taken from the rules engine itself, for every square at once.

The exact analysis (:mod:`snakes.analysis.markov`) and the fast simulator
(:mod:`snakes.fastsim`) both start from this table, and the table is built by asking the
engine's :func:`~snakes.engine.apply` what every roll does from every square. Neither of
them re-implements a rule, so neither can drift from the game.

>>> table = roll_table(JUNGLE, Rules())
>>> table.outcome(square=0, sixes=0, value=1)  # 1 from square 0 lands on 1 and climbs to 38
Outcome(square=38, bonus=False)
>>> table.outcome(square=96, sixes=0, value=6)  # a six that overshoots: no move, no bonus
Outcome(square=96, bonus=False)
>>> table.outcome(square=10, sixes=0, value=6)  # the 16 snake bites, and a bonus roll follows
Outcome(square=6, bonus=True)
>>> table.faces(2)  # after two sixes in a turn the die shows 1-5
5
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from snakes.engine import (
    FINISH,
    JUNGLE,
    MAX_SIXES,
    Board,
    Finish,
    GameState,
    Roll,
    Rules,
    apply,
)

SQUARES = FINISH + 1
"""Squares 0 (off the board) to 100 (finished)."""

ChainKey = tuple[tuple[tuple[int, int], ...], bool, bool]
"""What a token's moves depend on: the board's jumps and the two house rules."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where one roll leaves the token, and whether the same turn goes on (a bonus roll)."""

    square: int
    bonus: bool


@dataclass(frozen=True, slots=True)
class RollTable:
    """Every roll's outcome from every square and sixes count, for one board and rule set."""

    key: ChainKey
    outcomes: tuple[tuple[tuple[Outcome, ...], ...], ...]
    """outcomes[sixes][square][value - 1] for squares 0-99 and the faces allowed."""

    @property
    def six_again(self) -> bool:
        return self.key[2]

    @property
    def exact_finish(self) -> bool:
        return self.key[1]

    @property
    def sixes_counts(self) -> int:
        """How many sixes counts a turn can be in: 3 (0, 1, 2) with six-again, else 1."""
        return MAX_SIXES + 1 if self.six_again else 1

    def faces(self, sixes: int) -> int:
        """The faces of the die after ``sixes`` sixes in this turn."""
        return 5 if self.six_again and sixes >= MAX_SIXES else 6

    def outcome(self, square: int, sixes: int, value: int) -> Outcome:
        return self.outcomes[sixes][square][value - 1]


def chain_key(board: Board = JUNGLE, rules: Rules | None = None) -> ChainKey:
    """The part of (board, rules) a token's moves depend on; the finish mode is not in it.

    >>> chain_key(JUNGLE, Rules())[1:]
    (True, True)
    """
    rules = rules or Rules()
    return tuple(sorted(board.jumps.items())), rules.exact_finish, rules.six_again


def roll_table(board: Board, rules: Rules) -> RollTable:
    """The (cached) table of every roll's outcome for this board and these house rules."""
    return _roll_table(chain_key(board, rules))


@lru_cache(maxsize=16)
def _roll_table(key: ChainKey) -> RollTable:
    # At most 1,800 outcomes an entry (about 110 KB): the cache holds at most 2 MB.
    jumps, exact_finish, six_again = key
    board = Board(name="analysis", jumps=dict(jumps))
    rules = Rules(finish=Finish.CLASSIC, exact_finish=exact_finish, six_again=six_again)
    counts = MAX_SIXES + 1 if six_again else 1
    table: list[tuple[tuple[Outcome, ...], ...]] = []
    for sixes in range(counts):
        rows: list[tuple[Outcome, ...]] = []
        for square in range(FINISH):
            state = GameState(
                rules=rules,
                board=board,
                positions=(square,),
                turn=0,
                sixes=sixes,
                missed=(0,),
                turns=(0,),
            )
            row = []
            for value in range(1, state.faces + 1):
                after, _ = apply(state, Roll(seat=0, value=value))
                row.append(Outcome(after.positions[0], bonus=after.sixes > sixes))
            rows.append(tuple(row))
        table.append(tuple(rows))
    return RollTable(key=key, outcomes=tuple(table))


def can_finish_from(table: RollTable) -> frozenset[int]:
    """The squares from which some run of rolls reaches 100 (100 itself included).

    >>> len(can_finish_from(roll_table(JUNGLE, Rules())))
    101
    """
    # Every single-roll move is possible at the start of a turn (sixes = 0).
    moves = {
        square: {outcome.square for outcome in table.outcomes[0][square]}
        for square in range(FINISH)
    }
    good = {FINISH}
    changed = True
    while changed:
        changed = False
        for square, targets in moves.items():
            if square not in good and targets & good:
                good.add(square)
                changed = True
    return frozenset(good)


def reachable_from_start(table: RollTable) -> frozenset[int]:
    """The squares a token can ever rest on, starting from square 0."""
    seen = {0}
    todo = [0]
    while todo:
        square = todo.pop()
        if square == FINISH:
            continue
        for outcome in table.outcomes[0][square]:
            if outcome.square not in seen:
                seen.add(outcome.square)
                todo.append(outcome.square)
    return frozenset(seen)


def stuck_squares(table: RollTable) -> list[int]:
    """Squares a token can reach from the start but never leave for 100, in order.

    A board with any of these can trap a token for ever, so no game on it is sure to end.

    >>> stuck_squares(roll_table(JUNGLE, Rules()))
    []
    """
    return sorted(reachable_from_start(table) - can_finish_from(table))
