"""Measure the API's NDJSON export (docs/api.md, "The export's figures"): a member's N
finished games streamed by the production server (`python -m cargosite.serve`), the time to
the first line, the whole time, and the serving processes' memory (RSS from /proc) before
and at its peak during the stream.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/api_db \\
        .venv/bin/python scripts/api_export_figures.py --games 500 5000
    DATABASE_URL=… REDIS_URL=redis://127.0.0.1:6379/N TOPOLOGY_DIR=… TOPOLOGY_PORT=8443 \\
        .venv/bin/python scripts/api_export_figures.py --games 5000 --topology

Setup, in the database DATABASE_URL names (migrated first): a member `exporter` with N
finished games against `opponent`, made by cloning the rows of one game played and resigned
through the services (its seats too), and a token with the `read` scope. By default one
server is started on a free loopback port with the same environment and stopped at the end.
With `--topology`, production's path instead: `scripts/topology.sh start asgi-1 asgi-2
nginx` (DEBUG off, the two ASGI processes behind nginx's TLS on 127.0.0.1:$TOPOLOGY_PORT,
a self-signed certificate), the export streamed through nginx over HTTPS (nginx sends
requests to the two processes round-robin: each run's line says which one grew), both
processes' RSS sampled, and the topology stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")
TOPOLOGY = ROOT / "scripts" / "topology.sh"
# The API's limits lifted: three runs of one token are not what they guard against.
LIMITS = {"API_LIMIT_PER_TOKEN": "100000", "API_LIMIT_PER_ADDRESS": "100000"}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def setup(games: int) -> str:
    """The member with exactly `games` finished games, and a fresh read token."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from api import tokens
    from api.scopes import Scope
    from games import services
    from games.actors import Actor
    from games.models import Game, Seat, new_id

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    exporter, _ = users.get_or_create(username="exporter")
    opponent, _ = users.get_or_create(username="opponent")
    mine = Game.objects.filter(seats__user=exporter)
    have = mine.count()
    if have > games:
        mine.delete()
        have = 0
    if have == 0:
        game = services.create_game(game_type=settings.DEFAULT_GAME_KIND,
                                    options={"size": 5}, seats=[Actor.member(exporter),
                                                                Actor.member(opponent)])
        services.resign(game.id, actor=Actor.member(opponent))
        have = 1
    model = Game.objects.filter(seats__user=exporter).first()
    assert model is not None
    seats = list(model.seats.all())
    while have < games:
        batch = min(1000, games - have)
        rows = []
        fields = {f.attname: getattr(model, f.attname) for f in Game._meta.concrete_fields}
        for _ in range(batch):
            rows.append(Game(**{**fields, "id": new_id()}))
        Game.objects.bulk_create(rows)
        Seat.objects.bulk_create([Seat(game=row, index=s.index, user_id=s.user_id,
                                       score=s.score, place=s.place, outcome=s.outcome,
                                       resigned=s.resigned)
                                  for row in rows for s in seats])
        have += batch
    return tokens.create(exporter, "figures", [Scope.READ], None).token


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def measure(connect: Callable[[], http.client.HTTPConnection], pids: list[int], token: str
            ) -> dict[str, Any]:
    """One export streamed whole: first line, total, lines, and each server process's RSS
    before and at its peak."""
    before = [rss_kib(pid) for pid in pids]
    peak = list(before)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for i, pid in enumerate(pids):
                peak[i] = max(peak[i], rss_kib(pid))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    conn = connect()
    try:
        start = time.perf_counter()
        conn.request("GET", "/api/games/user/exporter",
                     headers={"Authorization": f"Bearer {token}"})
        answer = conn.getresponse()
        assert answer.status == 200, (answer.status, answer.getheaders(), answer.read()[:500])
        first = answer.readline()
        first_at = time.perf_counter() - start
        assert first.startswith(b"{")
        lines = 1
        while answer.readline():
            lines += 1
        total = time.perf_counter() - start
    finally:
        done.set()
        sampler.join()
        conn.close()
    return {"first_ms": first_at * 1000, "total_s": total, "lines": lines,
            "rss_mib": [(b / 1024, p / 1024) for b, p in zip(before, peak, strict=True)]}


def say(games: int, run: int, got: dict[str, Any], names: list[str]) -> None:
    rss = " ".join(f"{name}={b:.1f}->{p:.1f}" for name, (b, p) in
                   zip(names, got["rss_mib"], strict=True))
    print(f"games={games} run={run + 1} lines={got['lines']} "
          f"first_line={got['first_ms']:.0f} ms total={got['total_s']:.2f} s "
          f"rss_mib(before->peak) {rss}", flush=True)


def one_server(games: int, runs: int, token: str) -> None:
    """The export from one `cargosite.serve` process on a free loopback port."""
    port = free_port()
    # Plain HTTP on loopback, no proxy in front: with DEBUG off, no redirect to HTTPS.
    plain = {"DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_SECURE_COOKIES": "0",
             "DJANGO_BEHIND_PROXY": "0"}
    server = subprocess.Popen(
        [sys.executable, "-m", "cargosite.serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, env={**plain, **os.environ, **LIMITS, "UVICORN_LOG_LEVEL": "warning"})
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        for run in range(runs):
            got = measure(lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=300),
                          [server.pid], token)
            say(games, run, got, ["server"])
    finally:
        server.terminate()
        server.wait(timeout=30)


def server_pids(directory: Path) -> list[int]:
    """The two ASGI processes' pids: each piece's pid file names its supervising shell; the
    server is the Python process below it."""
    from load_live import descendants, proc_stats

    names = {pid: name for pid, name, _ in proc_stats()}
    pids = []
    for piece in ("asgi-1", "asgi-2"):
        shell = int((directory / "pids" / f"{piece}.pid").read_text())
        pids.append(next(p for p in descendants([shell]) if names.get(p, "").startswith(
            "python")))
    return pids


def through_nginx(games: int, runs: int, token: str) -> None:
    """The export through the trial topology's nginx (HTTPS) and its two ASGI processes."""
    directory = Path(os.environ.get("TOPOLOGY_DIR", ROOT / ".topology"))
    port = int(os.environ.get("TOPOLOGY_PORT", "8443"))
    env = {**os.environ, **LIMITS, "UVICORN_LOG_LEVEL": "warning"}
    subprocess.run([str(TOPOLOGY), "start", "asgi-1", "asgi-2", "nginx"], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    try:
        pids = server_pids(directory)
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # self-signed
        for run in range(runs):
            got = measure(lambda: http.client.HTTPSConnection(
                "127.0.0.1", port, timeout=300, context=context), pids, token)
            say(games, run, got, ["asgi-1", "asgi-2"])
    finally:
        subprocess.run([str(TOPOLOGY), "stop", "nginx", "asgi-1", "asgi-2"], cwd=ROOT,
                       env=env, check=False, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[500, 5000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--topology", action="store_true",
                        help="through scripts/topology.sh's nginx and two ASGI processes")
    args = parser.parse_args()
    for games in args.games:
        token = setup(games)
        if args.topology:
            through_nginx(games, args.runs, token)
        else:
            one_server(games, args.runs, token)


if __name__ == "__main__":
    main()
