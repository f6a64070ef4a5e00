"""The page's files: compressed, versioned, kept by the browser until the next version.

A real server on a real port; what a browser sends (Accept-Encoding, If-None-Match).
"""

from __future__ import annotations

import gzip
import re
import urllib.request

import brotli  # type: ignore[import-untyped]

from tests.support.server import ServerProcess


def _get(server: ServerProcess, path: str, **headers: str) -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(server.url + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return (
                response.status,
                response.read(),
                {k.lower(): v for k, v in response.headers.items()},
            )
    except urllib.error.HTTPError as error:
        return error.code, error.read(), {k.lower(): v for k, v in error.headers.items()}


def test_the_page_names_versioned_files_that_are_kept_a_year_and_sent_compressed(
    server: ServerProcess,
) -> None:
    status, page, headers = _get(server, "/", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["cache-control"] == "no-cache"
    assert headers["content-encoding"] == "gzip"
    html = gzip.decompress(page).decode()
    scripts = re.findall(r'src="(/static/v[0-9a-f]{16}/js/main\.js)"', html)
    assert scripts, "the page asks for its script by a versioned URL"
    status, body, headers = _get(server, scripts[0], **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    # No "public": an answer to a request without credentials may be kept by any cache
    # already, and those 8 bytes came with every file of the first load.
    assert headers["cache-control"] == "max-age=31536000, immutable"
    assert headers["content-type"].startswith("text/javascript")
    plain = gzip.decompress(body)
    assert len(body) < len(plain) / 2
    status, squeezed, headers = _get(server, scripts[0], **{"Accept-Encoding": "gzip, br"})
    assert headers["content-encoding"] == "br" and brotli.decompress(squeezed) == plain
    assert len(squeezed) < len(body)  # brotli first, where the browser takes it
    assert "content-security-policy" not in headers  # an asset is no document
    assert headers["x-content-type-options"] == "nosniff"
    assert "server" not in headers  # no name of the HTTP server on any answer
    status, again, headers = _get(server, scripts[0])  # no compression asked: none given
    assert again == plain and "content-encoding" not in headers
    assert "etag" not in headers  # kept a year and never asked about: no validator
    # A file asked for without its version (a page of an older deployment) is
    # revalidated: it carries a validator, and the answer to a match is 304.
    unversioned = re.sub(r"/v[0-9a-f]{16}/", "/", scripts[0])
    status, _, headers = _get(server, unversioned)
    assert status == 200 and headers["cache-control"] == "no-cache"
    status, _, _ = _get(server, unversioned, **{"If-None-Match": headers["etag"]})
    assert status == 304


def test_static_paths_outside_the_folder_are_not_found(server: ServerProcess) -> None:
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/nothing-here.js"):
        status, _, _ = _get(server, path)
        assert status == 404
