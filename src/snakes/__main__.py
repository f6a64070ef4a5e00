"""``python -m snakes`` is the ``snakes`` command."""

from snakes.cli.main import main

main()
