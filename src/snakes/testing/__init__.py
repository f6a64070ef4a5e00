"""Test helpers: scripted dice, a shared manual clock, the /_test hooks.

Production code never imports this package; the server mounts it only with --test-hooks.
"""

from snakes.testing import hooks

__all__ = ["hooks"]
