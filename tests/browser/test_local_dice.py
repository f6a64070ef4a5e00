"""The page's die (js/local-dice.js) is fair: every byte value in turn gives each face
equally often, and a χ² test over four million rolls of Chromium's own randomness passes.

Games at your own table roll in the page with crypto.getRandomValues. A plain
``byte % 6`` would favour 1-4 (256 is not a multiple of 6), and ``byte % 5`` would favour
1: the rejection sampling is what keeps both tests green. The first is exact: it feeds
the die every byte value once per buffer, so each face must come up exactly as often as
the others, and without the rejection it is red every time. The second rolls on real
randomness, so it can only be red by chance at some rate: its line is χ² at
p = 1e-9 (a fair die fails one run in a billion), and four million rolls keep the
bias of a plain ``%`` far past that line (χ² about 490 on six faces, 250 on five).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.helpers import module_url

pytestmark = pytest.mark.browser

ROLLS = 4_000_000
CRITICAL = {6: 50.692, 5: 47.879}
"""χ² at p = 1e-9 for 5 and 4 degrees of freedom (the upper regularised gamma function)."""

COUNT = """async ([url, rolls, faces]) => {
  const { rollDie } = await import(url);
  const counts = new Array(faces + 1).fill(0);
  for (let i = 0; i < rolls; i++) counts[rollDie(faces)] += 1;
  return counts;
}"""

# Every byte value once per buffer: 0, 1, ..., 255, as a real source gives them on average.
EVERY_BYTE = """async ([url, rolls, faces]) => {
  const real = crypto.getRandomValues;
  crypto.getRandomValues = (array) => {
    for (let i = 0; i < array.length; i++) array[i] = i % 256;
    return array;
  };
  try {
    const { rollDie } = await import(url);
    const counts = new Array(faces + 1).fill(0);
    for (let i = 0; i < rolls; i++) counts[rollDie(faces)] += 1;
    return counts;
  } finally {
    crypto.getRandomValues = real;
  }
}"""


def _home(page: Page) -> str:
    """A fresh page at Home, where nothing has rolled yet: the die's url."""
    page.goto("/")
    page.wait_for_selector("[data-screen=home]")
    return module_url(page, "local-dice.js")


@pytest.mark.parametrize("faces", [6, 5])
def test_every_byte_value_gives_each_face_equally_often(page: Page, faces: int) -> None:
    usable = 256 - 256 % faces  # the bytes a roll keeps; the rest are thrown away
    buffers = 10
    rolls = usable * buffers  # exactly ten buffers of the byte values
    counts: list[int] = page.evaluate(EVERY_BYTE, [_home(page), rolls, faces])
    assert counts == [0] + [usable // faces * buffers] * faces, counts


@pytest.mark.parametrize("faces", [6, 5])
def test_four_million_rolls_pass_the_chi_squared_test(page: Page, faces: int) -> None:
    counts: list[int] = page.evaluate(COUNT, [_home(page), ROLLS, faces])
    assert counts[0] == 0 and sum(counts) == ROLLS
    expected = ROLLS / faces
    chi2 = sum((n - expected) ** 2 / expected for n in counts[1:])
    assert chi2 < CRITICAL[faces], (chi2, counts)
