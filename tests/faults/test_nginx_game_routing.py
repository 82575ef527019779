"""nginx sends every door of one game to one ASGI process (scripts/topology.sh): the game's
sockets, the API's play doors (`/api/bot|board/game/<id>/…`) and its stream
(`/api/stream/game/<id>`), so a bot's decisions reach the process holding the game's warm
copy (games/fast/warm.py) as a person's socket turns do; everything else stays
round-robin. Read through a real nginx started by the script, in front of two stand-in
processes that answer with their own port."""

import os
import shutil
import socket
import ssl
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

pytestmark = pytest.mark.skipif(not Path("/usr/sbin/nginx").exists(), reason="no nginx")


class Answer(BaseHTTPRequestHandler):
    """Any method, any path: the port of the process that took it."""

    def answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        body = str(self.server.server_address[1]).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = answer

    def log_message(self, *args: object) -> None:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def nginx(tmp_path_factory) -> Iterator[str]:
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), Answer) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    where = tmp_path_factory.mktemp("topology")
    port = free_port()
    env = {**os.environ, "TOPOLOGY_DIR": str(where), "TOPOLOGY_PORT": str(port),
           "TOPOLOGY_ASGI_PORTS": " ".join(str(s.server_address[1]) for s in servers),
           "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
           "REDIS_URL": "redis://127.0.0.1:1/0", "DJANGO_SECRET_KEY": "k" * 50}
    script = str(ROOT / "scripts/topology.sh")
    started = subprocess.run([script, "start", "nginx"], env=env, cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        yield f"https://127.0.0.1:{port}"
    finally:
        subprocess.run([script, "stop", "nginx"], env=env, cwd=ROOT, capture_output=True,
                       timeout=60)
        for server in servers:
            server.shutdown()
        shutil.rmtree(where, ignore_errors=True)


def served_by(base: str, path: str, method: str = "GET") -> str:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    data = b"{}" if method == "POST" else None
    request = urllib.request.Request(base + path, data=data, method=method)
    with urllib.request.urlopen(request, context=context, timeout=10) as answer:
        return answer.read().decode()


def test_every_door_of_a_game_reaches_one_process(nginx):
    chosen = set()
    for n in range(16):
        game = f"g{n:02d}x7Q"
        doors = {served_by(nginx, f"/ws/game/{game}/"),
                 served_by(nginx, f"/api/bot/game/{game}/decision", "POST"),
                 served_by(nginx, f"/api/board/game/{game}/resign", "POST"),
                 served_by(nginx, f"/api/bot/game/{game}/chat"),
                 served_by(nginx, f"/api/stream/game/{game}")}
        assert len(doors) == 1, (game, doors)
        chosen |= doors
    assert len(chosen) == 2  # the games spread over both processes


def test_the_rest_of_the_api_stays_round_robin(nginx):
    assert len({served_by(nginx, "/api/account") for _ in range(4)}) == 2
