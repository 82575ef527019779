"""The pieces the fault trials break, each of this run's own: a Redis (`OwnRedis`) and a
PostgreSQL cluster (`OwnPostgres`) on free ports, the production topology pointed at them
(`Topology`: scripts/topology.sh, its pids, logs and a GET through nginx), `servers()` that
starts them and stops every one whatever happened, and the polling helper `wait_for`."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from live_client import insecure_context

ROOT = Path(__file__).resolve().parents[2]
TOPOLOGY = ROOT / "scripts" / "topology.sh"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, check: Callable[[], bool], timeout: float = 30.0,
             every: float = 0.05) -> float:
    """Poll `check` until it is true; the seconds it took. Raises on timeout."""
    start = time.monotonic()
    while True:
        with contextlib.suppress(Exception):
            if check():
                return time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


def as_postgres(cmd: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/" + name))
    if not versions:
        raise SystemExit(f"{name} not found (install PostgreSQL's server package)")
    return str(versions[-1])


class OwnRedis:
    """redis-server on a free loopback port, without persistence (a restart loses its data,
    as a crashed Redis without a snapshot would)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.dir = workdir / "redis"
        self.dir.mkdir()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def ping(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    def start(self) -> None:
        log = open(self.dir / "redis.log", "ab")  # noqa: SIM115 (kept open by the child)
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=log, stderr=log, start_new_session=True)
        wait_for("Redis", self.ping, 15)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


class OwnPostgres:
    """A PostgreSQL cluster of its own under the work directory, trust auth, on a free port."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.dir = workdir / "pg"
        self.data = self.dir / "data"
        self.dir.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        subprocess.run(as_postgres([pg_bin("initdb"), "-D", str(self.data), "-A", "trust",
                                    "-U", "postgres", "--no-sync", "-E", "UTF8"]),
                       check=True, stdout=subprocess.DEVNULL)
        self.started = False

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/cargo"

    def ctl(self, *args: str) -> None:
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} "
                   "-c fsync=off -c max_connections=100")
        subprocess.run(as_postgres([pg_bin("pg_ctl"), "-D", str(self.data), "-l",
                                    str(self.dir / "postgres.log"), "-o", options, "-w",
                                    *args]), check=True, stdout=subprocess.DEVNULL)

    def start(self) -> None:
        self.ctl("start")
        self.started = True

    def stop(self) -> None:
        if self.started:
            self.ctl("stop", "-m", "fast")
            self.started = False

    def create_database(self) -> None:
        subprocess.run([pg_bin("psql"), "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U",
                        "postgres", "-c", "CREATE DATABASE cargo"], check=True)


class Topology:
    """scripts/topology.sh with this run's environment."""

    def __init__(self, workdir: Path, database_url: str, redis_url: str) -> None:
        self.dir = workdir / "topology"
        self.port = free_port()
        self.asgi_ports = [free_port(), free_port()]
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url, "REDIS_URL": redis_url,
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "TOPOLOGY_DIR": str(self.dir), "TOPOLOGY_PORT": str(self.port),
            "TOPOLOGY_ASGI_PORTS": " ".join(map(str, self.asgi_ports)),
            "DJANGO_LOG_LEVEL": "INFO", "UVICORN_LOG_LEVEL": "warning",
        }
        self.base = f"https://127.0.0.1:{self.port}"

    def run(self, *args: str) -> None:
        subprocess.run([str(TOPOLOGY), *args], env=self.env, check=True,
                       stdout=subprocess.DEVNULL if args[0] == "stop" else None)

    def pid(self, piece: str) -> int:
        return int((self.dir / "pids" / f"{piece}.pid").read_text())

    def kill9(self, piece: str) -> float:
        """kill -9 the piece's whole process group; when it happened."""
        os.killpg(self.pid(piece), signal.SIGKILL)
        return time.perf_counter()

    def busiest_asgi(self) -> str:
        """The ASGI process ("asgi-1" or "asgi-2") holding more established connections
        now: nginx hashes game sockets by URL, so six games may all land on one process."""
        counts = {port: 0 for port in self.asgi_ports}
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as rows:
                for row in list(rows)[1:]:
                    _, local, _, state, *_ = row.split()
                    port = int(local.rsplit(":", 1)[1], 16)
                    if state == "01" and port in counts:   # 01: ESTABLISHED
                        counts[port] += 1
        busiest = max(range(2), key=lambda index: counts[self.asgi_ports[index]])
        return f"asgi-{busiest + 1}"

    def log(self, piece: str) -> str:
        path = self.dir / "logs" / f"{piece}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def get_json(self, path: str) -> tuple[int, str, Any]:
        return self.get(path, accept="application/json")

    def get(self, path: str, timeout: float = 5.0,
            accept: str = "text/html") -> tuple[int, str, Any]:
        """GET through nginx: status, body, headers (case-insensitive; an HTTP error is an
        answer too)."""
        request = urllib.request.Request(self.base + path, headers={"Accept": accept})
        try:
            with urllib.request.urlopen(request, timeout=timeout,
                                        context=insecure_context()) as response:
                return response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers


@contextlib.contextmanager
def servers(workdir: Path) -> Iterator[tuple[OwnRedis, OwnPostgres, Topology]]:
    redis = OwnRedis(workdir)
    pg = OwnPostgres(workdir)
    top: Topology | None = None
    try:
        redis.start()
        pg.start()
        pg.create_database()
        top = Topology(workdir, pg.url, redis.url)
        yield redis, pg, top
    finally:
        if top is not None:
            with contextlib.suppress(Exception):
                top.run("stop")
        with contextlib.suppress(Exception):
            pg.stop()
        redis.stop()
