"""The compute worker process's side of ``transport/compute.py``: how it starts, and how
a piece of work's result, refusal and CPU time travel back. No web framework is
imported here, so the worker starts light."""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from snakes.server.rooms.errors import ProtocolError

log = logging.getLogger("snakes.compute")

NICE = 10
"""The worker's CPU priority below the server's: a busy core goes to the players first."""
PR_SET_PDEATHSIG = 1


def start_worker() -> None:
    """In the worker: a lower priority, one BLAS thread, and gone with its server, even
    one killed."""
    from snakes.analysis import use_one_blas_thread  # noqa: PLC0415 - numpy loads here

    use_one_blas_thread()
    with contextlib.suppress(OSError):
        os.nice(NICE)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


@dataclass(frozen=True, slots=True)
class Outcome:
    value: Any
    refusal: tuple[str, str, float | None] | None
    """A refusal as plain data: a ``ProtocolError`` travels between processes as this."""
    seconds: float


def timed(work: Callable[..., Any], *args: object) -> Outcome:
    """Run ``work`` and measure its CPU: a refusal costs what it cost, like a result."""
    started = time.process_time()
    try:
        value = work(*args)
    except ProtocolError as error:
        refusal = (error.code, error.message, error.retry_after)
        return Outcome(None, refusal, time.process_time() - started)
    except Exception:
        log.exception("work in the compute pool failed")
        failed = ("internal", "the server failed; nothing changed", None)
        return Outcome(None, failed, time.process_time() - started)
    return Outcome(value, None, time.process_time() - started)
