"""Node for the page's tests that run its modules outside a browser (Debian's ``nodejs``).

Without Node those tests skip with a reason, except on CI (``CI=true``), where a missing
Node is a failure (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = Path(shutil.which("node") or "/usr/bin/node")


def require_node() -> None:
    if NODE.exists():
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true but node is missing: the page's tests must run on CI")
    pytest.skip("node is not installed; install Debian's nodejs to run the page's tests")
