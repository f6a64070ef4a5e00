"""The page's die (js/local-dice.js) is fair: a χ² test over a million rolls in Chromium.

Games at your own table roll in the page with crypto.getRandomValues. A plain
``byte % 6`` would favour 1-4 (256 is not a multiple of 6): over a million rolls that
bias alone gives χ² near 70, far over the line below, so the rejection sampling is what
keeps this test green. The five-faced roll after two sixes is tested the same way.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.helpers import module_url

pytestmark = pytest.mark.browser

ROLLS = 1_000_000
# χ² at p = 0.001: a fair die fails one run in a thousand.
CRITICAL = {6: 20.515, 5: 18.467}

COUNT = """async ([url, rolls, faces]) => {
  const { rollDie } = await import(url);
  const counts = new Array(faces + 1).fill(0);
  for (let i = 0; i < rolls; i++) counts[rollDie(faces)] += 1;
  return counts;
}"""


@pytest.mark.parametrize("faces", [6, 5])
def test_a_million_rolls_pass_the_chi_squared_test(page: Page, faces: int) -> None:
    page.goto("/")
    page.wait_for_selector("[data-screen=home]")
    counts: list[int] = page.evaluate(COUNT, [module_url(page, "local-dice.js"), ROLLS, faces])
    assert counts[0] == 0 and sum(counts) == ROLLS
    expected = ROLLS / faces
    chi2 = sum((n - expected) ** 2 / expected for n in counts[1:])
    assert chi2 < CRITICAL[faces], (chi2, counts)
