"""The ``snakes`` command: a thin layer over the engine and the server."""
