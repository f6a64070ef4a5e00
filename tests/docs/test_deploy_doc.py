"""DEPLOY.md shows the nginx site file that operators include and the nginx test runs:
the file in the repository and the text in the docs are the same."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "snakes.conf"


def test_deploy_md_shows_the_nginx_site_file_as_it_is() -> None:
    # The section runs to the next heading of the document, not to a comment line of
    # the file it shows (``# ...`` at the start of a line in a code block).
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    text = text.split("\n### nginx in front of N nodes\n", 1)[1].split("\n## ", 1)[0]
    shown = re.search(r"^`deploy/nginx/snakes\.conf`:\n\n```nginx\n(.*?)^```$", text, re.S | re.M)
    assert shown is not None, "DEPLOY.md's nginx section no longer shows deploy/nginx/snakes.conf"
    assert shown.group(1) == SITE.read_text()


def test_the_site_file_hashes_on_the_room_and_upgrades_websockets() -> None:
    """What the nginx test leans on, said in the file (the test shows it works)."""
    site = SITE.read_text()
    assert "hash $arg_room consistent;" in site
    assert "proxy_set_header Upgrade $http_upgrade;" in site
    assert "include snakes-nodes.conf;" in site
    assert "include snakes-site.conf;" in site
