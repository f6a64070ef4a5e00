"""``snakes verify``: check a game record's provably fair dice."""

from __future__ import annotations

import json
import sys
from typing import BinaryIO

import click

from snakes.fair import UnverifiableRecord, verify_record

_MAX_BYTES = 50_000_000


@click.command()
@click.argument("record", metavar="GAME.json", type=click.File("rb"))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def verify(record: BinaryIO, as_json: bool) -> None:
    """Recompute every roll of GAME.json from its revealed seeds ('-' reads standard input).

    Exit status 0: the commitment and every roll match. 1: the record was tampered with
    (each wrong roll is named). 2: the file cannot be checked (not a record, no fair
    dice section, server seed not revealed).
    """
    source = str(getattr(record, "name", "-"))
    raw = record.read(_MAX_BYTES + 1)
    try:
        if len(raw) > _MAX_BYTES:
            raise UnverifiableRecord(f"larger than {_MAX_BYTES:,} bytes: not a game record")
        report = verify_record(raw)
    except UnverifiableRecord as error:
        if as_json:
            click.echo(json.dumps({"ok": False, "error": str(error)}))
        click.echo(f"error: {source}: {error}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(report.to_data()))
    elif report.ok:
        click.echo(
            f"OK: the server seed matches its commitment and all {report.rolls_checked} "
            "rolls are the ones the seeds give."
        )
    else:
        click.echo(f"TAMPERED: {len(report.problems)} problem(s) in {source}:")
        for problem in report.problems:
            click.echo(f"  - {problem}")
    sys.exit(0 if report.ok else 1)
