"""The test harness's server process: one that fails to start leaves nothing open.

A process or log file left open is reported (a ResourceWarning, an error under
``filterwarnings = error``) in whichever test happens to run next, so one red test
turned its innocent neighbours red too.
"""

from __future__ import annotations

import gc
import warnings
from pathlib import Path

import pytest

from tests.support.server import ServerProcess


def test_a_server_that_exits_at_start_leaves_no_file_or_process_open(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", "--no-such-flag")
    with pytest.raises(RuntimeError, match="server exited at start"):
        server.start()
    assert server.process is not None and server.process.poll() is not None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del server
        gc.collect()
    assert [str(w.message) for w in caught if w.category is ResourceWarning] == []
