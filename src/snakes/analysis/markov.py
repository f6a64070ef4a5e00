"""The game's Markov chain, one player's *turn* at a time, solved exactly.

A turn is one go, bonus rolls included: with six-again a 6 earns a bonus roll, after two
sixes the next roll is drawn from 1-5, a six that overshoots under exact finish ends the
turn with no bonus, and finishing voids any bonus still owed. :class:`TurnChain` builds
the turn's transition matrix from the engine's own single-roll outcomes
(:mod:`snakes.analysis.moves`), then the chance of having finished within ``k`` turns
from every square, for every ``k`` until less than ``1e-12`` of the probability is left.

>>> from snakes.engine import JUNGLE, Rules
>>> chain = TurnChain.of(JUNGLE, Rules())
>>> bool(abs(chain.turn_matrix[0].sum() - 1) < 1e-12)  # each row is a distribution
True
>>> float(chain.cdf[0, 1])  # nobody gets from square 0 to 100 in one turn on this board
0.0
>>> round(float(chain.cdf[97, 1]), 4)  # from 97: a 3 finishes, a 2 hits the 99 snake...
0.1667
>>> chain.tail < 1e-12
True
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache
from threadpoolctl import threadpool_limits

from snakes.analysis.moves import (
    SQUARES,
    ChainKey,
    RollTable,
    can_finish_from,
    chain_key,
    reachable_from_start,
    roll_table,
    stuck_squares,
)
from snakes.engine import FINISH, Board, Rules

Vector = npt.NDArray[np.float64]
Matrix = npt.NDArray[np.float64]

TAIL = 1e-12
"""The chain is followed until less than this much probability is still unfinished."""

BUDGET_TURNS = 2_000
BUDGET_MASS = 1e-9
"""The analysis budget: a board is worked out only if, under the house rules in play, at
most ``BUDGET_MASS`` of the chance is still unfinished after ``BUDGET_TURNS`` turns, from
every square a game can reach. Every shipped board fits with room to spare (the slowest,
Treacherous without six-again, needs 1,375 turns); a board that does not is refused with
:class:`BoardTooSlow` before its chain is built, at the cost of one matrix power."""

MAX_TURNS = 3_000
"""The chain is never followed further: with ``BUDGET_TURNS`` passed, the tail shrinks
geometrically, and 1.5 times as many turns take ``1e-9`` below ``TAIL``. This bounds one
chain at 3 x 101 x 3,001 floats (7.3 MB) and its build at 3,000 small matrix products."""


def use_one_blas_thread() -> None:
    """Run numpy's BLAS (OpenBLAS) on one thread in this process.

    The chains' matrices are 101 x 101: a product takes 0.05 ms on one thread. OpenBLAS
    starts a thread per core and has them spin while they wait, so with the machine's
    cores busy (a game server's event loop, other processes) the same product took
    36 ms, 800 times as long. The server, its compute worker and the command line call
    this before working anything out.
    """
    threadpool_limits(1, user_api="blas")


class UnanalysableBoard(ValueError):
    """A board whose exact analysis is refused; ``code`` (a protocol error code) says why."""

    code: ClassVar[str]


class UnfinishableBoard(UnanalysableBoard):
    """A token can reach a square from which it can never get to 100."""

    code = "unfinishable_board"

    def __init__(self, squares: list[int]) -> None:
        self.squares = tuple(squares)
        shown = ", ".join(str(s) for s in squares[:10]) + (", ..." if len(squares) > 10 else "")
        super().__init__(
            f"a token on square(s) {shown} can never reach {FINISH} (every way there is "
            "blocked), so a game on this board need never end"
        )


class BoardTooSlow(UnanalysableBoard):
    """Games on this board take so long that their analysis would not fit its budget."""

    code = "board_too_slow"

    def __init__(self, unfinished: float, mean_turns: float) -> None:
        self.unfinished = unfinished
        self.mean_turns = mean_turns
        typical = (
            f"; a game here lasts {mean_turns:,.0f} turns on average"
            if math.isfinite(mean_turns)
            else ""
        )
        super().__init__(
            f"games on this board take too long to work out: after {BUDGET_TURNS:,} turns "
            f"a token is still short of {FINISH} with a chance of {unfinished:.2g} (at most "
            f"{BUDGET_MASS:g} is allowed){typical}"
        )


def _turn_matrices(table: RollTable) -> list[Matrix]:
    """``[T0, T1, T2]``: where a turn that is at ``sixes`` sixes ends, from every square.

    Row ``s`` of ``T[k]`` is the distribution of the square a token on ``s`` is on when its
    turn ends (100 when it finished), given the turn has already seen ``k`` sixes.
    """
    counts = table.sixes_counts
    result: list[Matrix] = [np.zeros((SQUARES, SQUARES)) for _ in range(counts)]
    # The last sixes count never earns a bonus (its die is 1-5, or there are no bonuses).
    for sixes in reversed(range(counts)):
        matrix = result[sixes]
        faces = table.faces(sixes)
        for square in range(FINISH):
            for outcome in table.outcomes[sixes][square]:
                if outcome.bonus:
                    matrix[square] += result[sixes + 1][outcome.square] / faces
                else:
                    matrix[square, outcome.square] += 1 / faces
        matrix[FINISH, FINISH] = 1.0
    return result


@dataclass(frozen=True, eq=False)
class TurnChain:
    """One board's and rule set's turn chain, with every square's turns-to-finish law.

    ``cdf_by_sixes[sixes, square, k]`` is the chance that a token on ``square`` whose turn
    is at ``sixes`` sixes has finished within ``k`` turns, counting the turn in progress
    as the first. :attr:`cdf` is the ``sixes = 0`` slice: a token at
    the start of a turn.
    """

    key: ChainKey
    turn_matrices: tuple[Matrix, ...]
    cdf_by_sixes: npt.NDArray[np.float64]
    """Shape (sixes counts, 101, horizon + 1)."""
    tail: float
    """The most probability still unfinished after ``horizon`` turns, over every start."""
    mean_turns: Vector
    """The exact expected number of turns to finish from each square (0 on 100)."""
    sd_turns: Vector
    """The exact standard deviation of the number of turns from each square."""

    @classmethod
    def of(cls, board: Board, rules: Rules) -> TurnChain:
        """The (cached) chain for this board and these house rules; the mode does not matter."""
        return _chain(chain_key(board, rules))

    @property
    def nbytes(self) -> int:
        """The bytes its arrays hold."""
        arrays = (*self.turn_matrices, self.cdf_by_sixes, self.mean_turns, self.sd_turns)
        return sum(array.nbytes for array in arrays)

    @property
    def turn_matrix(self) -> Matrix:
        """The transition matrix of one whole turn started afresh (101 x 101)."""
        return self.turn_matrices[0]

    @property
    def cdf(self) -> Matrix:
        layer: Matrix = self.cdf_by_sixes[0]
        return layer

    @property
    def horizon(self) -> int:
        """The last turn count followed; beyond it less than :attr:`tail` is left."""
        return int(self.cdf_by_sixes.shape[2]) - 1

    def pmf(self, square: int = 0, sixes: int = 0) -> Vector:
        """``P(T = k)`` for ``k = 0 .. horizon``: the turns a token on ``square`` needs."""
        return np.diff(self.cdf_by_sixes[sixes, square], prepend=0.0)


def _checked(key: ChainKey) -> tuple[RollTable, list[Matrix], npt.NDArray[np.bool_]]:
    """The board's roll table, turn matrices and live squares, once it is known to fit
    the analysis budget: :class:`UnfinishableBoard` or :class:`BoardTooSlow` otherwise."""
    board = Board(name="analysis", jumps=dict(key[0]))
    table = roll_table(board, Rules(exact_finish=key[1], six_again=key[2]))
    stuck = stuck_squares(table)
    if stuck:
        raise UnfinishableBoard(stuck)
    matrices = _turn_matrices(table)
    # Only squares a game can really reach count; the others (ladder bottoms, snake heads,
    # squares jumped over) keep their rows but never hold a token.
    live = np.zeros(SQUARES, dtype=bool)
    live[sorted(reachable_from_start(table) - {FINISH})] = True
    unfinished = _unfinished_after(matrices, live, BUDGET_TURNS)
    if unfinished > BUDGET_MASS:
        mean, _ = _moments(matrices[0], _sure_to_finish(table))
        raise BoardTooSlow(unfinished, float(mean[0]))
    return table, matrices, live


def _unfinished_after(matrices: list[Matrix], live: npt.NDArray[np.bool_], turns: int) -> float:
    """The most chance still short of 100 after ``turns`` turns, from any live square at
    any sixes count: ``1 - cdf_by_sixes[:, live, turns]``, by repeated squaring (about 20
    products of 101 x 101 matrices) rather than ``turns`` steps."""
    after = np.linalg.matrix_power(matrices[0], turns - 1)
    return max(float(np.max(1.0 - (first @ after)[live, FINISH])) for first in matrices)


def check_budget(board: Board, rules: Rules) -> None:
    """Refuse a board whose analysis would not fit the budget (``BUDGET_TURNS``,
    ``BUDGET_MASS``): :class:`UnfinishableBoard` or :class:`BoardTooSlow`. A millisecond
    or two, whatever the board; the same rule :meth:`TurnChain.of` applies.

    >>> from snakes.engine import JUNGLE
    >>> check_budget(JUNGLE, Rules())  # fits: nothing to say
    >>> slow = Board(name="slow", jumps={s: 4 for s in range(5, 100) if s % 5 != 4})
    >>> check_budget(slow, Rules())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    snakes.analysis.markov.BoardTooSlow: games on this board take too long to work out: ...
    """
    _checked_cached(chain_key(board, rules))


def _build(key: ChainKey) -> TurnChain:
    table, matrices, live = _checked_cached(key)
    turn = matrices[0]

    columns = [np.zeros(SQUARES)]
    columns[0][FINISH] = 1.0
    tail = 1.0
    while len(columns) <= MAX_TURNS:
        columns.append(turn @ columns[-1])
        if tail < TAIL:  # one turn more, for a turn already in progress (the layers below)
            break
        tail = float(np.max(1.0 - columns[-1][live]))
    cdf0 = np.stack(columns, axis=1)
    layers = [cdf0]
    for sixes in range(1, len(matrices)):
        # The turn in progress ends somewhere (a row of its matrix), then whole turns follow.
        layer = np.zeros_like(cdf0)
        layer[:, 1:] = matrices[sixes] @ cdf0[:, :-1]
        layer[FINISH] = 1.0
        layers.append(layer)
    stacked = np.stack(layers)
    tail = max(tail, float(np.max(1.0 - stacked[:, live, -1])))
    mean, sd = _moments(turn, _sure_to_finish(table))
    return TurnChain(
        key=key,
        turn_matrices=tuple(matrices),
        cdf_by_sixes=stacked,
        tail=tail,
        mean_turns=mean,
        sd_turns=sd,
    )


def _sure_to_finish(table: RollTable) -> list[int]:
    """Squares from which no trap can be reached, so 100 is reached with probability 1."""
    bad = set(range(FINISH)) - can_finish_from(table)
    changed = True
    while changed:
        changed = False
        for square in range(FINISH):
            if square not in bad and any(o.square in bad for o in table.outcomes[0][square]):
                bad.add(square)
                changed = True
    return [s for s in range(FINISH) if s not in bad]


def _moments(turn: Matrix, good: list[int]) -> tuple[Vector, Vector]:
    """Exact mean and standard deviation of the turns to finish (infinite from a trap).

    With ``Q`` the turn matrix among unfinished squares: ``(I - Q) m = 1`` and
    ``(I - Q) E[T^2] = 1 + 2 Q m``.
    """
    mean = np.full(SQUARES, np.inf)
    sd = np.full(SQUARES, np.inf)
    mean[FINISH] = sd[FINISH] = 0.0
    q = turn[np.ix_(good, good)]
    system = np.eye(len(good)) - q
    ones = np.ones(len(good))
    m = np.linalg.solve(system, ones)
    second = np.linalg.solve(system, ones + 2 * q @ m)
    mean[good] = m
    sd[good] = np.sqrt(np.maximum(second - m**2, 0.0))
    return mean, sd


CUSTOM_CHAIN_BYTES = 16 * 2**20
"""What the chains of boards that do not ship with the game may hold together (two at the
budget's limit, a dozen of a usual size); the least recently used go first. The chains
of the shipped boards are kept apart, for good: there are few of them (25 MB for all
five under all four house-rule sets), and a stranger's boards must not push out the ones
every room plays on."""

_custom_chains: LRUCache[ChainKey, TurnChain] = LRUCache(
    maxsize=CUSTOM_CHAIN_BYTES, getsizeof=lambda chain: chain.nbytes
)
_shipped_chains: dict[ChainKey, TurnChain] = {}
_chains_lock = threading.Lock()


def _chain(key: ChainKey) -> TurnChain:
    with _chains_lock:
        found = _shipped_chains.get(key) or _custom_chains.get(key)
    if found is not None:
        return found
    chain = _build(key)  # outside the lock: two threads may build the same chain, once each
    with _chains_lock:
        if key in _shipped_keys():
            _shipped_chains[key] = chain
        elif chain.nbytes <= CUSTOM_CHAIN_BYTES:
            _custom_chains[key] = chain
    return chain


@lru_cache(maxsize=1)
def _shipped_keys() -> frozenset[ChainKey]:
    """The chain keys of every shipped board under every house-rule set."""
    from snakes.boards import shipped_boards  # noqa: PLC0415 - the boards import this package

    return frozenset(
        chain_key(shipped.board, Rules(exact_finish=exact, six_again=six))
        for shipped in shipped_boards()
        for exact in (True, False)
        for six in (True, False)
    )


@lru_cache(maxsize=4)  # about 350 KB an entry: a roll table and three 101 x 101 matrices
def _checked_cached(key: ChainKey) -> tuple[RollTable, list[Matrix], npt.NDArray[np.bool_]]:
    return _checked(key)


@dataclass(frozen=True, slots=True)
class TurnsLaw:
    """The law of the number of turns one token needs, with its summary figures.

    >>> from snakes.engine import JUNGLE, Rules
    >>> law = turns_law(JUNGLE, Rules())
    >>> law.median <= law.p90 and law.p10 <= law.median
    True
    >>> abs(float(law.pmf.sum()) + law.tail - 1) < 1e-9
    True
    """

    pmf: Vector
    """``P(T = k)`` for ``k = 0 .. horizon``."""
    cdf: Vector
    """``P(T <= k)``."""
    mean: float
    sd: float
    tail: float
    """The probability beyond the horizon (less than 1e-12 unless the board is very slow)."""

    @property
    def median(self) -> int:
        return self.quantile(0.5)

    @property
    def p10(self) -> int:
        return self.quantile(0.1)

    @property
    def p90(self) -> int:
        return self.quantile(0.9)

    def quantile(self, q: float) -> int:
        """The fewest turns ``k`` with ``P(T <= k) >= q``."""
        index = int(np.searchsorted(self.cdf, q - 1e-12, side="left"))
        return min(index, len(self.cdf) - 1)

    def within(self, turns: int) -> float:
        """The chance of finishing within ``turns`` turns."""
        if turns < 0:
            return 0.0
        return float(self.cdf[min(turns, len(self.cdf) - 1)])


def turns_law(board: Board, rules: Rules, square: int = 0, sixes: int = 0) -> TurnsLaw:
    """The exact law of the turns a token on ``square`` (at ``sixes`` sixes) needs."""
    chain = TurnChain.of(board, rules)
    cdf = chain.cdf_by_sixes[sixes, square]
    mean = float(chain.mean_turns[square]) if sixes == 0 else float(np.sum(1.0 - cdf[:-1]))
    return TurnsLaw(
        pmf=np.diff(cdf, prepend=0.0),
        cdf=cdf,
        mean=mean,
        sd=float(chain.sd_turns[square]) if sixes == 0 else float("nan"),
        tail=float(1.0 - cdf[-1]),
    )
