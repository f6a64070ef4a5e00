"""Any request path, against a live server: a 4xx or an answer, never a 5xx or a traceback.

Hypothesis writes request targets under every prefix the server routes (the page's files,
versioned or not, the API, the invite page, the API docs' assets) from segments that
have hurt servers before: NUL bytes, segments longer than a file name may be, dot
segments plain and percent-encoded, overlong UTF-8, bytes that are no UTF-8 at all,
broken percent escapes, text in any script, and long paths of many segments. Each goes
out as raw bytes on its own connection (an HTTP client library would clean the path up
first). The answer must be a status below 500, and the server's log must hold no
traceback: a failure the server caught and turned into a 500 logs one, a request it
refused does not.

``PATH_EXAMPLES`` sets how many paths to try.
"""

from __future__ import annotations

import os
import socket
import string
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.server import TEST_FLAGS, ServerProcess, running_server

EXAMPLES = int(os.environ.get("PATH_EXAMPLES", "300"))
HEAD_BUDGET = 12_000
"""Paths stay below the request-head limit (16 KB): what a longer head gets is that
limit's business, not the router's."""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # No lookup limit: every generated room code is unknown, and 429s would hide the rest.
    folder = tmp_path_factory.mktemp("paths")
    with running_server(folder, *TEST_FLAGS, "--lookup-limit", "0") as server:
        yield server


class LogReader:
    """What the server logged since the last look."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.offset = server.log_path.stat().st_size

    def since(self) -> str:
        with self.server.log_path.open("rb") as log:
            log.seek(self.offset)
            text = log.read()
        self.offset += len(text)
        return text.decode(errors="replace")


def status_of(server: ServerProcess, method: str, target: bytes) -> int:
    """Send one request with exactly this target; the status the server answers."""
    head = (
        method.encode() + b" " + target + b" HTTP/1.1\r\n"
        b"Host: 127.0.0.1:" + str(server.port).encode() + b"\r\n"
        b"Connection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head)
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            assert chunk, f"closed without an answer: {target[:200]!r}"
            answer += chunk
    version, status, *_ = answer.split(b"\r\n", 1)[0].split(b" ", 2)
    assert version == b"HTTP/1.1", answer[:200]
    return int(status)


def served_version(server: ServerProcess) -> str:
    return "v" + str(server.get("/shell.json")["version"])


ATOMS = [
    "%00", "\\", "%5c", "..", ".", "%2e", "%2e%2e", ".%2e", "%2f", "%2F..%2F", "//",
    "%c0%ae%c0%ae", "%c0%af", "%e0%80%ae", "%ff", "%fe%ff", "%", "%zz", "%0", "%%32%65",
    "~", ";", ";a=b", "?", "#", "index.html%00.js", "sw.js", "index.html", "js",
    "%ef%bf%bf", "%ed%a0%80", "%f4%90%80%80", "con", "aux.js", "NUL", "a" * 255, "a" * 256,
    "%252e%252e", "..;", "%u002e",
]  # fmt: skip
"""Path segments that have hurt servers (traversal, NUL, bad UTF-8, device names...)."""

PREFIXES = [
    "/", "/static/", "/static/{version}/", "/static/v0123456789abcdef/", "/static/js/",
    "/static/i18n/", "/r/", "/api/rooms/", "/api/rooms/ABCDEF/", "/api/", "/docs/assets/",
    "/docs/", "/shell.json/", "/sw.js/", "/manifest.webmanifest/", "/openapi.json/",
    "/healthz/", "/_test/",
]  # fmt: skip

QUERIES = ["", "?lang=%00", "?board=%00", "?game=%00", "?game=99999999999999999999", "?%"]

# Raw characters a request target may hold as they are (RFC 3986), percent sign included
# so that broken escapes come up too.
_RAW = string.ascii_letters + string.digits + "-._~!$&'()*+,;=:@%"


segments = st.one_of(
    st.sampled_from(ATOMS),
    st.text(max_size=40).map(lambda text: quote(text, safe="")),  # any script, NUL, controls
    st.text(alphabet=_RAW, max_size=40),
    st.binary(max_size=30).map(lambda raw: "".join(f"%{b:02X}" for b in raw)),  # no UTF-8
    st.integers(200, 4000).map(lambda n: "a" * n),  # longer than any file name
)
paths = st.builds(
    lambda prefix, parts, query: prefix + "/".join(parts) + query,
    st.sampled_from(PREFIXES),
    st.lists(segments, max_size=12),
    st.sampled_from(QUERIES),
) | st.builds(  # many short segments: a deep path
    lambda prefix, depth, part: prefix + "/".join([part] * depth),
    st.sampled_from(PREFIXES),
    st.integers(50, 2500),
    st.sampled_from(["a", "..", ".", "%00", "%2e%2e"]),
)
raw_targets = st.one_of(
    paths.map(str.encode),
    # Bytes a target may not hold as they are (non-ASCII, controls, spaces): the HTTP
    # parser refuses them with a 400 before any route sees them.
    st.builds(
        lambda prefix, text: prefix.encode() + text.encode(),
        st.sampled_from(PREFIXES),
        st.text(st.characters(exclude_characters="\r\n"), min_size=1, max_size=40),
    ),
)


def test_no_request_path_gets_a_server_error_or_a_traceback(live: ServerProcess) -> None:
    reader = LogReader(live)
    version = served_version(live)
    tried = 0

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(target=raw_targets, method=st.sampled_from(["GET", "HEAD", "POST", "OPTIONS"]))
    def check(target: bytes, method: str) -> None:
        nonlocal tried
        target = target.replace(b"{version}", version.encode())[:HEAD_BUDGET]
        status = status_of(live, method, target)
        tried += 1
        logged = reader.since()
        assert status < 500, (status, method, target[:300])
        assert "Traceback" not in logged, (method, target[:300], logged[-3000:])

    check()
    assert tried >= EXAMPLES // 2
    assert live.get("/healthz")["status"] == "ok"


LONG_NAME = "a" * 256
"""One byte over the longest file name Linux takes (255): the file system refused it."""


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/static/%00", 404),
        ("/static/js/%00.js", 404),
        ("/static/{version}/%00", 404),
        ("/static/v0123456789abcdef/%00", 404),
        pytest.param(f"/static/{LONG_NAME}", 404, id="/static/a*256"),
        pytest.param(f"/static/{{version}}/{LONG_NAME}", 404, id="/static/{version}/a*256"),
        pytest.param(f"/static/js/{LONG_NAME}.js", 404, id="/static/js/a*256.js"),
        pytest.param("/static/" + "a/" * 5000, 404, id="/static/a/*5000"),
        ("/static/index.html%00.js", 404),
        ("/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd", 404),
        ("/static/..%2f..%2fpyproject.toml", 404),
        ("/static/%c0%ae%c0%ae/app.py", 404),
        ("/static/%ff%fe", 404),
        pytest.param("/static/" + quote("приложение.js"), 404, id="/static/cyrillic.js"),
        ("/static//etc/passwd", 404),
        ("/static/", 404),
        ("/static/js", 404),  # a folder is no file
        ("/static/{version}/js/main.js", 200),
        ("/static/js/main.js", 200),
        ("/docs/assets/%00", 404),
        pytest.param(f"/docs/assets/{LONG_NAME}", 404, id="/docs/assets/a*256"),
        ("/r/%00", 200),
        ("/api/rooms/%00", 404),
        pytest.param(f"/api/rooms/{LONG_NAME}", 404, id="/api/rooms/a*256"),
        ("/api/rooms/%00/record?game=%00", 422),
        ("/manifest.webmanifest?lang=%00", 200),
    ],
)
def test_known_paths_answer_as_they_should_without_a_traceback(
    live: ServerProcess, target: str, expected: int
) -> None:
    reader = LogReader(live)
    target = target.replace("{version}", served_version(live))
    assert status_of(live, "GET", target.encode()) == expected
    assert "Traceback" not in reader.since()
