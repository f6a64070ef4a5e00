"""How long a cold home page takes, and what it waits for.

A fresh browser context each time (no HTTP cache, service worker blocked), at phone size,
against a fresh local server: the time from navigation to the home screen being drawn,
and the requests in the order they started, each with when it started and ended, so the
chain of waits (page, scripts, config, language) can be read off.

    .venv/bin/python -m bench.cold_home [RUNS]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WEB_FLAGS
from tests.support.server import running_server

# When the home screen is first in the page, in the page's own clock (ms from navigation).
MARK = """
new MutationObserver((_, observer) => {
  if (document.querySelector('[data-screen=home]')) {
    window.homeShownAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""


def measure(runs: int) -> None:
    with running_server(Path(tempfile.mkdtemp()), *WEB_FLAGS) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        results: list[tuple[float, list[dict[str, Any]]]] = []
        for _ in range(runs + 1):  # the first run warms the server, and is not counted
            context = browser.new_context(
                base_url=server.url,
                service_workers="block",
                viewport={"width": 360, "height": 640},
            )
            page = context.new_page()
            page.add_init_script(MARK)
            page.goto("/")
            page.wait_for_function("() => window.homeShownAt !== undefined")
            shown = float(page.evaluate("window.homeShownAt"))
            entries: list[dict[str, Any]] = page.evaluate(
                """() => performance.getEntriesByType('resource').map((e) => ({
                     name: e.name.replace(location.origin, ''), start: e.startTime,
                     end: e.responseEnd, bytes: e.transferSize }))"""
            )
            nav = page.evaluate(
                "() => { const n = performance.getEntriesByType('navigation')[0];"
                " return { end: n.responseEnd }; }"
            )
            entries.insert(0, {"name": "/ (the page)", "start": 0.0, "end": nav["end"], "bytes": 0})
            results.append((shown, entries))
            context.close()
        browser.close()
    counted = results[1:]
    times = sorted(shown for shown, _ in counted)
    median = statistics.median(times)
    print(
        f"home drawn after {median:.0f} ms (median of {runs}; all: "
        f"{', '.join(f'{t:.0f}' for t in times)})"
    )
    shown, entries = min(counted, key=lambda r: abs(r[0] - median))
    print(f"the run nearest the median ({shown:.0f} ms), requests before the home screen:")
    for entry in sorted(entries, key=lambda e: e["start"]):
        if entry["start"] <= shown:
            print(f"  {entry['start']:7.0f} → {entry['end']:7.0f} ms  {entry['name']}")


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
