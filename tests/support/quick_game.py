"""A short whole game, for tests that need a game to end and not a long random race."""

from __future__ import annotations


def first_seat_wins_quickly(players: int) -> list[int]:
    """Die values for a whole game on the jungle board in which the first seat wins in
    five turns and the others roll 2s (checked against the engine in
    tests/engine/test_quick_win.py): 1 climbs to 38; 6, 6 and 1 reach 51 and climb to
    67; 4 lands on 71 and climbs to 91; 5 reaches 96; 4 finishes. A test that needs a
    whole game to end (a result screen, a rematch), and not a long random one, plays this."""
    first_seat = [[1], [6, 6, 1], [4], [5], [4]]
    values: list[int] = []
    for index, turn in enumerate(first_seat):
        values += turn
        if index < len(first_seat) - 1:
            values += [2] * (players - 1)
    return values
