"""Exact win chances and places, from the start or from any moment of a game.

Tokens never interact, so each seat's number of turns to finish is independent of the
others', with the law :class:`~snakes.analysis.markov.TurnChain` gives. Turn order does
the rest. In play order ``o0, o1, ...`` (``o0`` rolls first), ``o_j`` finishing at its
turn ``k`` comes before every ``o_l`` with ``l < j`` that finishes at turn ``k + 1`` or
later, and before every ``o_l`` with ``l > j`` that finishes at turn ``k`` or later:

- Classic: ``o_j`` wins iff it finishes at some turn ``k``, each ``o_l`` before it has not
  finished by turn ``k`` and each ``o_l`` after it has not finished by turn ``k - 1``.
- Last One Standing: places follow (finish turn, play order).

>>> from snakes.engine import JUNGLE, Rules, new_game
>>> result = analyze(JUNGLE, Rules(), players=2)
>>> [round(p, 4) for p in result.win_chance]
[0.5051, 0.4949]
>>> abs(sum(result.win_chance) + result.unaccounted - 1) < 1e-12
True
>>> [round(p, 4) for p in live_odds(new_game(2))]
[0.5051, 0.4949]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from snakes.analysis.markov import TurnChain, TurnsLaw, turns_law
from snakes.engine import FINISH, MAX_SEATS, MIN_SEATS, Board, Finish, GameState, Rules

Matrix = npt.NDArray[np.float64]
Vector = npt.NDArray[np.float64]


def _before(cdfs: Matrix) -> Matrix:
    """``F(k - 1)`` beside ``F(k)``: finished by the turn before."""
    shifted = np.zeros_like(cdfs)
    shifted[:, 1:] = cdfs[:, :-1]
    return shifted


def win_by_turn(cdfs: Matrix) -> Matrix:
    """``[j, k]``: the chance that the seat ``j``-th in play order wins at its turn ``k``.

    ``cdfs[j, k]`` is that seat's chance to have finished within ``k`` turns (its turn in
    progress, if any, counting as the first).

    >>> cdfs = np.array([[0.0, 0.5, 1.0], [0.0, 0.5, 1.0]])  # each finishes in 1 or 2 turns
    >>> win_by_turn(cdfs).tolist()
    [[0.0, 0.5, 0.25], [0.0, 0.25, 0.0]]
    """
    before = _before(cdfs)
    # Seats before j in play order must not have finished by turn k, seats after j not by
    # turn k - 1. (Plain loops: the seats are few, and cumprod along them is slow.)
    result: Matrix = cdfs - before  # P(T = k)
    survive = 1.0 - cdfs
    survive_before = 1.0 - before
    count = cdfs.shape[0]
    if count > 1:
        prefix = survive[0].copy()
        for j in range(1, count):
            result[j] *= prefix
            prefix *= survive[j]
        suffix = survive_before[count - 1].copy()
        for j in range(count - 2, -1, -1):
            result[j] *= suffix
            suffix *= survive_before[j]
    return result


def place_chances(cdfs: Matrix) -> Matrix:
    """``[j, p]``: the chance that the seat ``j``-th in play order takes place ``p + 1``.

    >>> cdfs = np.array([[0.0, 0.5, 1.0], [0.0, 0.5, 1.0]])
    >>> place_chances(cdfs).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    """
    count = cdfs.shape[0]
    before = _before(cdfs)
    pmf = cdfs - before
    result = np.zeros((count, count))
    for j in range(count):
        # dist[c, k]: given seat j finishes at turn k, the chance c others beat it.
        dist = np.zeros((count, cdfs.shape[1]))
        dist[0] = 1.0
        for other in range(count):
            if other == j:
                continue
            beats = cdfs[other] if other < j else before[other]
            shifted = np.zeros_like(dist)
            shifted[1:] = dist[:-1] * beats
            dist = dist * (1.0 - beats) + shifted
        result[j] = dist @ pmf[j]
    return result


def expected_beaten_by(cdfs: Matrix) -> Vector:
    """How many others finish ahead of the seat ``j``-th in play order, on average.

    >>> expected_beaten_by(np.array([[0.0, 0.5, 1.0], [0.0, 0.5, 1.0]])).tolist()
    [0.25, 0.75]
    """
    before = _before(cdfs)
    pmf = cdfs - before
    at_or_before = pmf @ cdfs.T  # [j, l] = P(T_l <= T_j)
    strictly_before = pmf @ before.T  # [j, l] = P(T_l < T_j)
    result: Vector = np.tril(at_or_before, -1).sum(axis=1) + np.triu(strictly_before, 1).sum(axis=1)
    return result


@dataclass(frozen=True)
class Analysis:
    """The exact figures of a game from its start, seat 1 rolling first."""

    board: Board
    rules: Rules
    players: int
    law: TurnsLaw
    """The turns one player needs to reach 100 (the same for every seat)."""
    win_chance: list[float]
    """Classic: each seat's chance to win. Last One Standing: its chance to finish first."""
    place_chance: list[list[float]]
    """``[seat][place - 1]``: each seat's chance of each finishing place (by finish turn)."""
    expected_place: list[float]
    winning_turns: TurnsLaw
    """Classic: the turns the winner took (what a simulation's mean turns measures)."""
    expected_rounds: float
    """Rounds played: Classic until the first finish, Last One Standing until the last."""
    expected_game_turns: float
    """Turns played by all seats together, on average."""
    unaccounted: float
    """Probability beyond the horizon (nobody, or not everyone, finished): below 1e-12."""

    def to_data(self, max_turns: int | None = None) -> dict[str, Any]:
        """A JSON-ready form; the distribution runs while more than 1e-9 is left."""
        law = self.law
        if max_turns is None:
            max_turns = law.quantile(1 - 1e-9)
        data: dict[str, Any] = {
            "board": self.board.name,
            "players": self.players,
            "rules": self.rules.to_data(),
            "expected_turns": law.mean,
            "sd_turns": law.sd,
            "median_turns": law.median,
            "percentiles": {"p10": law.p10, "p50": law.median, "p90": law.p90},
            "within": {str(k): law.within(k) for k in (10, 20, 30, 50, 100) if k <= max_turns},
            "turn_distribution": [
                {"turns": k, "p": float(law.pmf[k]), "cumulative": float(law.cdf[k])}
                for k in range(1, max_turns + 1)
            ],
            "distribution_tail": 1.0 - float(law.cdf[max_turns]),
            "win_chance": self.win_chance,
            "expected_place": self.expected_place,
            "expected_rounds": self.expected_rounds,
            "expected_game_turns": self.expected_game_turns,
            "unaccounted": self.unaccounted,
        }
        if self.rules.finish is Finish.CLASSIC:
            data["expected_winning_turns"] = self.winning_turns.mean
        else:
            data["place_chance"] = self.place_chance
        return data


def analyze(board: Board, rules: Rules, players: int = 2) -> Analysis:
    """The exact analysis of a game of ``players`` seats from the start (seat 0 first).

    >>> from snakes.engine import JUNGLE
    >>> solo = analyze(JUNGLE, Rules(), players=1)
    >>> round(solo.law.mean, 3), solo.law.median, round(solo.win_chance[0], 9)
    (55.615, 42, 1.0)
    """
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise ValueError(f"a game has {MIN_SEATS}-{MAX_SEATS} seats, not {players}")
    law = turns_law(board, rules)
    cdfs = np.tile(law.cdf, (players, 1))
    wins = win_by_turn(cdfs)
    places = place_chances(cdfs)
    turns = np.arange(cdfs.shape[1], dtype=np.float64)
    survive = 1.0 - law.cdf
    if rules.finish is Finish.CLASSIC:
        # The game ends in round k; seats up to the winner played k turns, the rest k - 1.
        seats = np.arange(players, dtype=np.float64)[:, None]
        game_turns = float(
            np.sum(wins * ((seats + 1) * turns + (players - 1 - seats) * (turns - 1)))
        )
        rounds = float(np.sum(survive[:-1] ** players))  # E[min T] = sum P(all > k)
        unaccounted = 1.0 - float(wins.sum())
    else:
        game_turns = players * law.mean
        rounds = float(np.sum(1.0 - law.cdf[:-1] ** players))  # E[max T]
        unaccounted = 1.0 - float(law.cdf[-1] ** players)
    winning_pmf = wins.sum(axis=0)
    winning_cdf = np.cumsum(winning_pmf)
    total = float(winning_cdf[-1]) or 1.0
    winning = TurnsLaw(
        pmf=winning_pmf / total,
        cdf=winning_cdf / total,
        mean=float(winning_pmf @ turns) / total,
        sd=float(
            np.sqrt(
                max(float(winning_pmf @ turns**2) / total - (winning_pmf @ turns / total) ** 2, 0.0)
            )
        ),
        tail=1.0 - total,
    )
    return Analysis(
        board=board,
        rules=rules,
        players=players,
        law=law,
        win_chance=[float(w) for w in wins.sum(axis=1)]
        if rules.finish is Finish.CLASSIC
        else [float(p) for p in places[:, 0]],
        place_chance=[[float(p) for p in row] for row in places],
        expected_place=[float(e) for e in 1.0 + expected_beaten_by(cdfs)],
        winning_turns=winning,
        expected_rounds=rounds,
        expected_game_turns=game_turns,
        unaccounted=max(unaccounted, 0.0),
    )


def play_order(state: GameState) -> list[int]:
    """The racing seats in the order they roll from now: the seat to roll first.

    >>> from snakes.engine import new_game
    >>> play_order(new_game(3, first=1))
    [1, 2, 0]
    """
    if state.turn is None:
        return []
    racing = set(state.racing)
    return [
        seat
        for step in range(state.players)
        if (seat := (state.turn + step) % state.players) in racing
    ]


def _live_cdfs(state: GameState, order: list[int]) -> Matrix:
    chain = TurnChain.of(state.board, state.rules)
    squares = [min(state.positions[seat], FINISH) for seat in order]
    sixes = [0] * len(order)
    if state.rules.six_again:
        sixes[0] = min(state.sixes, chain.cdf_by_sixes.shape[0] - 1)
    cdfs: Matrix = chain.cdf_by_sixes[sixes, squares]
    return cdfs


def live_odds(state: GameState) -> list[float]:
    """Each seat's odds from this moment, exactly, by seat number.

    Classic: each seat's chance to win (0 for a seat that left; 1 for the winner of a game
    that is over). Last One Standing: each seat's expected finishing place (a finished
    seat's place is fixed; leavers rank after every finisher, a later leaver above an
    earlier one). The seat to roll, its position and the sixes already rolled in its turn
    are all taken into account. The chain for a board and rule set is built once (a few
    tenths of a second) and cached; after that a call costs well under a millisecond.

    >>> from snakes.engine import Roll, apply, new_game
    >>> state, _ = apply(new_game(2), Roll(seat=0, value=1))  # seat 0 climbs 1 -> 38
    >>> [round(p, 3) for p in live_odds(state)]
    [0.53, 0.47]
    """
    order = play_order(state)
    chances: list[float]
    if state.rules.finish is Finish.CLASSIC:
        chances = [0.0] * state.players
        if state.over or not order:
            if state.winner is not None:
                chances[state.winner] = 1.0
            return chances
        if len(order) == 1:
            chances[order[0]] = 1.0
            return chances
        wins = win_by_turn(_live_cdfs(state, order)).sum(axis=1)
        wins /= wins.sum()
        for seat, chance in zip(order, wins, strict=True):
            chances[seat] = float(chance)
        return chances
    places = [0.0] * state.players
    for place, seat in enumerate(state.standings, start=1):
        places[seat] = float(place)
    for index, seat in enumerate(state.leavers):
        places[seat] = float(state.players - index)
    if order:
        beaten = expected_beaten_by(_live_cdfs(state, order))
        for seat, ahead in zip(order, beaten, strict=True):
            places[seat] = len(state.standings) + 1.0 + float(ahead)
    return places


def live_place_chances(state: GameState) -> list[list[float]]:
    """``[seat][place - 1]``: each seat's chance of each finishing place from this moment.

    Places are those of Last One Standing (finish turn, then play order); a finished seat
    holds its place for certain, and leavers rank after every finisher.

    >>> from snakes.engine import new_game
    >>> chances = live_place_chances(new_game(3))
    >>> [round(sum(row), 9) for row in chances]
    [1.0, 1.0, 1.0]
    """
    n = state.players
    result = [[0.0] * n for _ in range(n)]
    for place, seat in enumerate(state.standings):
        result[seat][place] = 1.0
    for index, seat in enumerate(state.leavers):
        result[seat][n - 1 - index] = 1.0
    order = play_order(state)
    if order:
        chances = place_chances(_live_cdfs(state, order))
        chances /= chances.sum(axis=1, keepdims=True)
        offset = len(state.standings)
        for row, seat in zip(chances, order, strict=True):
            for place, chance in enumerate(row):
                result[seat][offset + place] = float(chance)
    return result
