"""Debian's nginx in front of server processes, with the repository's own site file.

The site is ``deploy/nginx/snakes.conf``, included as it is (docs/DEPLOY.md shows it):
this writes only what an operator writes around it, in a folder of the test's own. That
is an ``nginx.conf`` whose ``http`` block includes the site file (and keeps nginx's logs,
temporary files and pid in the folder), and the two files the site file includes from
beside it: ``snakes-nodes.conf`` (one ``server`` line a node) and ``snakes-site.conf``
(``listen`` on a free loopback port). nginx runs in the foreground as this process's
child; the machine's own nginx service is neither needed nor touched.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.support.server import STARTUP_SECONDS, ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "snakes.conf"
"""The site file that docs/DEPLOY.md shows and operators include."""


def nginx_binary() -> str:
    """The nginx program (Debian installs it in /usr/sbin, which a user's PATH may lack).

    Under CI=true a missing nginx fails the test; elsewhere it is skipped, saying so.
    """
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None:
        message = "nginx is not installed (apt-get install nginx); the nginx test needs it"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


def node_lines(nodes: list[ServerProcess]) -> str:
    """``snakes-nodes.conf``: one ``server`` line a node, as DEPLOY.md writes them."""
    return "".join(f"server 127.0.0.1:{node.port} max_fails=1 fail_timeout=5s;\n" for node in nodes)


class Nginx:
    """One nginx master process (and its worker) in a folder of its own."""

    def __init__(self, folder: Path, nodes: list[ServerProcess], site: Path = SITE) -> None:
        self.folder = folder
        self.nodes = nodes
        self.site = site
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        """The ``Origin`` a browser sends from a page of this site."""
        return self.url

    def ws_url(self, code: str) -> str:
        """The WebSocket's address as the page makes it: the room in the query."""
        return f"ws://127.0.0.1:{self.port}/ws?room={code}"

    @property
    def error_log(self) -> Path:
        return self.folder / "error.log"

    def _write(self) -> None:
        folder = self.folder
        (folder / "temp").mkdir(parents=True, exist_ok=True)
        temp = {
            name: folder / "temp" / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")
        }
        (folder / "nginx.conf").write_text(
            "worker_processes 2;\n"
            "events { worker_connections 256; }\n"
            "http {\n"
            f"    access_log {folder / 'access.log'};\n"
            f"    client_body_temp_path {temp['body']};\n"
            f"    proxy_temp_path {temp['proxy']};\n"
            f"    fastcgi_temp_path {temp['fastcgi']};\n"
            f"    uwsgi_temp_path {temp['uwsgi']};\n"
            f"    scgi_temp_path {temp['scgi']};\n"
            f"    include {self.site};\n"
            "}\n"
        )
        (folder / "snakes-nodes.conf").write_text(node_lines(self.nodes))
        (folder / "snakes-site.conf").write_text(f"listen 127.0.0.1:{self.port};\n")

    def start(self) -> None:
        """Start nginx on a free port; ready once a node answers through it.

        nginx cannot bind port 0 and say which port it got, so a free port is chosen
        here: another process may take it first, and then nginx starts again on another.
        """
        program = nginx_binary()
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert time.monotonic() < deadline, f"nginx never started:\n{self.log()}"
            self.port = free_port()
            self._write()
            self.process = subprocess.Popen(
                [
                    program, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"),
                    "-e", str(self.error_log),
                    "-g", f"daemon off; pid {self.folder / 'nginx.pid'};",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            if self._until_answering(deadline):
                return
            if "Address already in use" not in self.log():
                raise RuntimeError(f"nginx exited at start:\n{self.log()}")

    def _until_answering(self, deadline: float) -> bool:
        """True once /healthz answers through nginx; False if nginx exited."""
        assert self.process is not None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                self.get("/healthz")
                return True
            except (OSError, AssertionError):
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not answer in {STARTUP_SECONDS} s:\n{self.log()}")

    def log(self) -> str:
        return self.error_log.read_text(errors="replace") if self.error_log.exists() else ""

    def stop(self) -> None:
        """SIGTERM to the master: it stops its worker and exits (nginx's fast shutdown)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                # Its workers are killed by their process group's id, which is not ours.
                workers = subprocess.run(
                    ["pgrep", "-P", str(self.process.pid)],
                    check=False,
                    capture_output=True,
                    text=True,
                ).stdout.split()
                for pid in workers:
                    os.kill(int(pid), signal.SIGKILL)
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Nginx:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    # ---- HTTP through nginx ---------------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Status and decoded JSON (nginx's own error pages are not JSON: None)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw or b"null")
        except ValueError:
            return status, None

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        if status >= 400:
            raise AssertionError(f"GET {path} through nginx -> {status} {body}")
        return body

    def post(self, path: str, body: Any) -> Any:
        status, answer = self.request("POST", path, body)
        if status >= 400:
            raise AssertionError(f"POST {path} through nginx -> {status} {answer}")
        return answer
