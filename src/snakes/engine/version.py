"""The engine's version, written into every game record."""

ENGINE_VERSION = "1.0.0"
