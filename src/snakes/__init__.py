"""Snakes & Ladders: a rules engine, a game server and a command line."""

from snakes.engine.version import ENGINE_VERSION

__version__ = "0.1.0"
__all__ = ["ENGINE_VERSION", "__version__"]
