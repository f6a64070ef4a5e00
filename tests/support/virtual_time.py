"""An event loop on virtual time, for code whose behaviour depends on ``loop.time()``.

Its clock stands still while anything is ready to run and, when nothing is, jumps to the
next timer instead of waiting for it. A test of a window of milliseconds then sees the
window exactly, however busy the machine is: no real time passes between two steps of
the scenario, and none is waited for.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class _JumpingSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """Polls without blocking; a wait for a timer moves the loop's clock instead."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None:  # no timer at all: only I/O can wake the loop
            return super().select(None)  # type: ignore[no-any-return]
        ready: list[tuple[selectors.SelectorKey, int]] = super().select(0)
        if not ready and timeout > 0:
            self.now += timeout
        return ready


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self._jumping = _JumpingSelector()
        super().__init__(self._jumping)

    def time(self) -> float:
        return self._jumping.now


def run_on_virtual_time(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a :class:`VirtualTimeLoop`."""
    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        return runner.run(coroutine)
