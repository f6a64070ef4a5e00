"""A Redis Cluster of a test's own: six redis-server processes on free ports, three
primaries and a replica each, made by ``redis-cli --cluster create`` and torn down after.

Failover is quick (``cluster-node-timeout`` of a second), so a test may SIGKILL a primary
and see its replica take over; ``reshard`` moves slots with ``redis-cli --cluster``.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from redis.cluster import RedisCluster

import redis
from tests.support.server import free_port

START_ATTEMPTS = 3
NODE_TIMEOUT_MS = 1000
"""How long a primary may be silent before the cluster fails it over to its replica."""


def _binary(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} is not installed (Debian's redis-server package has it)")
    return found


class LocalCluster:
    def __init__(self, folder: Path, primaries: int = 3) -> None:
        self.folder = folder
        self.count = primaries * 2
        self.ports = [free_port() for _ in range(self.count)]
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        """Any one node names the cluster."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self) -> None:
        server = _binary("redis-server")
        for port in self.ports:
            folder = self.folder / str(port)
            folder.mkdir(parents=True, exist_ok=True)
            self.processes[port] = subprocess.Popen(
                [server, "--port", str(port), "--bind", "127.0.0.1",
                 "--cluster-enabled", "yes", "--cluster-port", str(free_port()),
                 "--cluster-config-file", str(folder / "nodes.conf"),
                 "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                 # A replica takes over however long its primary was idle (by default one
                 # that heard nothing for ten node timeouts declines, and the slots stay
                 # down): as docs/DEPLOY.md advises.
                 "--cluster-replica-validity-factor", "0",
                 "--repl-diskless-sync-delay", "0",
                 "--save", "", "--appendonly", "no", "--dir", str(folder)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
        for port in self.ports:
            self._wait_for(lambda port=port: self._client(port).ping(), f"node {port} to answer")
        subprocess.run(
            [_binary("redis-cli"), "--cluster", "create",
             *(f"127.0.0.1:{port}" for port in self.ports),
             "--cluster-replicas", "1", "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=60,
        )  # fmt: skip
        self._wait_for(self._settled, "every node to say the cluster is ok")

    def _client(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, socket_connect_timeout=0.5, socket_timeout=2)

    def _settled(self) -> bool:
        """Every live node says the cluster is ok and knows every other node, and every
        replica has its primary's data."""
        for port, process in self.processes.items():
            if process.poll() is not None:
                continue
            client = self._client(port)
            try:
                info = client.cluster("info")
                if info.get("cluster_state") != "ok":
                    return False
                if int(info.get("cluster_known_nodes", 0)) < self.count:
                    return False
                # A replica holds its primary's data only once its first sync is done.
                replication = client.info("replication")
                if replication["role"] == "slave" and replication["master_link_status"] != "up":
                    return False
            finally:
                client.close()
        return True

    def _wait_for(self, check: object, what: str, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                if check():  # type: ignore[operator]
                    return
            except (redis.RedisError, OSError):
                pass
            if time.monotonic() > deadline:
                exited = {
                    port: process.returncode
                    for port, process in self.processes.items()
                    if process.poll() is not None
                }
                raise RuntimeError(f"waited {seconds:.0f} s for {what}; exited: {exited}")
            time.sleep(0.05)

    def client(self) -> RedisCluster:
        """A client of the cluster, through a node that is alive."""
        alive = next(p for p, process in self.processes.items() if process.poll() is None)
        return RedisCluster(host="127.0.0.1", port=alive, decode_responses=True)

    def primary_of(self, key: str) -> int:
        """The port of the primary serving the key's slot now."""
        client = self.client()
        try:
            return int(client.get_node_from_key(key).port)
        finally:
            client.close()

    def replica_of(self, primary: int) -> int:
        client = self._client(primary)
        try:
            replicas = client.info("replication")
        finally:
            client.close()
        return int(replicas["slave0"]["port"])

    def kill(self, port: int) -> None:
        """SIGKILL one node."""
        process = self.processes[port]
        process.kill()
        process.wait()

    def wait_until_served(self, key: str, not_by: int) -> float:
        """Wait until a node other than ``not_by`` serves the key's slot and the cluster
        says ok; the seconds it took."""
        began = time.monotonic()

        def served() -> bool:
            for port, process in self.processes.items():
                if process.poll() is not None:
                    continue
                client = self._client(port)
                try:
                    if client.cluster("info").get("cluster_state") != "ok":
                        return False
                    slot = client.cluster("keyslot", key)
                    owner = [
                        int(node[1])
                        for start, end, *nodes in client.cluster("slots")
                        if start <= slot <= end
                        for node in nodes[:1]
                    ]
                    return bool(owner) and owner[0] != not_by
                finally:
                    client.close()
            return False

        self._wait_for(served, f"a node other than {not_by} to serve {key}")
        return time.monotonic() - began

    def reshard(self, slots: int, source: int, target: int) -> None:
        """Move ``slots`` slots from one primary to another, keys and all, as an
        operator would (``redis-cli --cluster reshard``)."""
        ids = {port: self._node_id(port) for port in (source, target)}
        subprocess.run(
            [_binary("redis-cli"), "--cluster", "reshard", f"127.0.0.1:{source}",
             "--cluster-from", ids[source], "--cluster-to", ids[target],
             "--cluster-slots", str(slots), "--cluster-yes", "--cluster-pipeline", "10"],
            check=True,
            capture_output=True,
            timeout=120,
        )  # fmt: skip

    def _node_id(self, port: int) -> str:
        client = self._client(port)
        try:
            return str(client.execute_command("CLUSTER", "MYID").decode())
        finally:
            client.close()

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()

    def __enter__(self) -> LocalCluster:
        # A free port may be taken between being found and being bound (by another
        # test's server, or an outgoing connection given it by the kernel), and a node
        # then exits at once: the whole cluster is made again, on other ports.
        for attempt in range(START_ATTEMPTS):
            try:
                self.start()
                return self
            except Exception:
                self.stop()
                if attempt == START_ATTEMPTS - 1:
                    raise
            except BaseException:
                self.stop()
                raise
            self.ports = [free_port() for _ in range(self.count)]
            self.processes = {}
        raise AssertionError("unreachable")

    def __exit__(self, *_: object) -> None:
        self.stop()
