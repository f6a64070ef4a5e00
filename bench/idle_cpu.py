"""What a screen that waits costs: the browser's CPU while nothing happens.

One real ``snakes serve`` on a loopback port and Debian's Chromium (headless, software
rendering, as in the browser tests), at full motion (``prefers-reduced-motion`` off).
Three screens a player leaves open while they wait, each at phone (360x640) and desktop
(1440x900) size:

- the game, waiting for Roll (a Pass & Play game just started);
- the result of a finished game;
- its replay, paused.

For each, the bench lets the screen settle for ``--settle`` seconds, then adds up the
CPU time of every Chromium process (the renderer, the GPU process, the browser) over
``--seconds`` seconds, as a share of one core. The page's own clock is not touched: the
figure is what a player's device would spend. It stops by itself.

    python bench/idle_cpu.py [--seconds 10] [--settle 10] [--baseline SRC]

``--baseline SRC`` serves another tree's page instead (its ``src`` folder, e.g. from
``git archive 6017b7c src | tar -x -C /tmp/v-6017b7c``): the same screens, before.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.browser.helpers import (  # noqa: E402
    SIZES,
    next_step,
    script_dice,
    start_pass_and_play,
    use_instant_animations,
)
from tests.support.quick_game import first_seat_wins_quickly  # noqa: E402
from tests.support.server import TEST_FLAGS, running_server  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def chromium_cpu_seconds() -> float:
    """User and system CPU of every Chromium process on the machine, in seconds."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)
            name = fields[0].split("(", 1)[1]
        except (OSError, IndexError):
            continue
        if "chrom" not in name:
            continue
        values = fields[1].split()
        total += int(values[11]) + int(values[12])  # utime, stime (fields 14 and 15)
    return total / TICKS


def start_game(page: Page) -> None:
    start_pass_and_play(page, "Ava", "Ben")
    next_step(page)


def finish_game(page: Page) -> None:
    start_game(page)
    script_dice(page, *first_seat_wins_quickly(2))
    while next_step(page) == "roll":
        page.keyboard.press("Space")
    page.wait_for_selector("[data-screen=result] [data-testid=result-list]")


def open_replay(page: Page) -> None:
    finish_game(page)
    page.get_by_test_id("watch-replay").click()
    page.wait_for_selector("[data-screen=replay][data-step]:not([data-playing=true])")


SCREENS: dict[str, Callable[[Page], None]] = {
    "game, waiting for Roll": start_game,
    "result": finish_game,
    "replay, paused": open_replay,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each is timed")
    parser.add_argument("--settle", type=float, default=10.0, help="wait before timing")
    parser.add_argument("--baseline", metavar="SRC", help="another tree's src folder to serve")
    args = parser.parse_args()
    if args.baseline:
        os.environ["PYTHONPATH"] = str(Path(args.baseline).resolve())  # the server's only
    tree = f" --baseline {args.baseline}" if args.baseline else ""
    timing = f"--seconds {args.seconds:g} --settle {args.settle:g}"
    print(f"command: python bench/idle_cpu.py {timing}{tree}")
    print("| screen | size | Chromium CPU, share of one core |")
    print("|---|---|---:|")
    with (
        tempfile.TemporaryDirectory() as data,
        running_server(Path(data), *TEST_FLAGS) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        for name, reach in SCREENS.items():
            for width, height in SIZES:
                context = browser.new_context(
                    base_url=server.url,
                    viewport={"width": width, "height": height},
                    reduced_motion="no-preference",
                )
                page = context.new_page()
                use_instant_animations(page)
                reach(page)
                time.sleep(args.settle)
                before, started = chromium_cpu_seconds(), time.monotonic()
                time.sleep(args.seconds)
                share = (chromium_cpu_seconds() - before) / (time.monotonic() - started)
                print(f"| {name} | {width}x{height} | {share:.1%} |", flush=True)
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
