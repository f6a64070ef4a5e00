"""The scripted quick game the browser tests play to reach a result screen is a real
whole game: the engine, given those values, ends it with the first seat the winner."""

from __future__ import annotations

import pytest

from snakes.engine import Roll, new_game
from snakes.engine.game import apply
from tests.support.quick_game import first_seat_wins_quickly


@pytest.mark.parametrize("players", range(2, 7))
def test_the_first_seat_wins_the_scripted_quick_game(players: int) -> None:
    state = new_game(players)
    for value in first_seat_wins_quickly(players):
        assert not state.over
        state, _ = apply(state, Roll(seat=state.turn, value=value))
    assert state.over
    assert state.standings == (0,)
    assert state.positions[0] == 100
