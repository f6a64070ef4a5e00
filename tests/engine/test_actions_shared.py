"""A game's rolls share a few dozen frozen objects instead of one per roll.

A room keeps its game's actions until the game ends (docs/BENCHMARKS.md, the soak: they
were the top line of the heap's growth). Every way a roll comes into being, from the
server's dice, from a stored record, from the engine's own ``roll``, gives the shared one.
"""

from __future__ import annotations

from snakes.engine import Roll, action_from_data, action_to_data, roll_of


def test_the_same_seat_and_value_is_the_same_object_and_equal_to_a_new_one() -> None:
    assert roll_of(2, 5) is roll_of(2, 5)
    assert roll_of(2, 5) == Roll(2, 5) and roll_of(2, 5) is not Roll(2, 5)
    assert roll_of(2, 5) != roll_of(2, 4)


def test_a_roll_read_back_from_a_record_is_the_shared_one() -> None:
    assert action_from_data(action_to_data(Roll(1, 6))) is roll_of(1, 6)
