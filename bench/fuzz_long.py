"""The protocol fuzzer and the OpenAPI fuzzer, run long: thousands of sequences.

The same tests that ``make test`` runs briefly (tests/fuzz/), with many more examples,
against a live server on a loopback port. Bounded: pytest's own timeout ends the run
after ``--minutes``.

    python bench/fuzz_long.py                          # 5,000 protocol sequences
    python bench/fuzz_long.py --examples 50000 --minutes 60
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5000, help="protocol sequences")
    parser.add_argument("--api-examples", type=int, default=500, help="per HTTP operation")
    parser.add_argument("--minutes", type=float, default=30.0, help="hard stop")
    args = parser.parse_args()
    print(f"$ python {shlex.join(sys.argv)}", flush=True)
    env = {
        **os.environ,
        "FUZZ_EXAMPLES": str(args.examples),
        "SCHEMATHESIS_EXAMPLES": str(args.api_examples),
    }
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
        f"--timeout={int(args.minutes * 60)}", "tests/fuzz",
    ]  # fmt: skip
    started = time.monotonic()
    result = subprocess.run(command, cwd=ROOT, env=env, check=False)
    minutes = (time.monotonic() - started) / 60
    verdict = "passed" if result.returncode == 0 else f"FAILED (exit {result.returncode})"
    print(f"\n{args.examples} protocol sequences, {args.api_examples} examples per HTTP "
          f"operation: {verdict} in {minutes:.1f} minutes")  # fmt: skip
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
