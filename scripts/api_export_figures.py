"""Measure the API's NDJSON export (docs/api.md, "The export's figures"): a member's N
finished games streamed by a real ASGI server (uvicorn, as production serves), the time to
the first line, the whole time, and the server's memory (RSS from /proc) before and at its
peak during the stream.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/api_db \\
        .venv/bin/python scripts/api_export_figures.py --games 500 5000

Setup, in the database DATABASE_URL names (migrated first): a member `exporter` with N
finished games against `opponent`, made by cloning the rows of one game played and resigned
through the services (its seats too), and a token with the `read` scope. The server is
started on a free loopback port with the same environment and stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")


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


def measure(port: int, pid: int, token: str) -> dict[str, float]:
    """One export streamed whole: first line, total, lines, RSS before and at its peak."""
    peak = [rss_kib(pid)]
    before = peak[0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    start = time.perf_counter()
    conn.request("GET", "/api/games/user/exporter",
                 headers={"Authorization": f"Bearer {token}"})
    answer = conn.getresponse()
    assert answer.status == 200, answer.read()[:500]
    first = answer.readline()
    first_at = time.perf_counter() - start
    assert first.startswith(b"{")
    lines = 1
    while answer.readline():
        lines += 1
    total = time.perf_counter() - start
    done.set()
    sampler.join()
    conn.close()
    return {"first_ms": first_at * 1000, "total_s": total, "lines": lines,
            "rss_before_mib": before / 1024, "rss_peak_mib": peak[0] / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[500, 5000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for games in args.games:
        token = setup(games)
        port = free_port()
        env = {**os.environ, "API_LIMIT_PER_TOKEN": "100000",
               "API_LIMIT_PER_ADDRESS": "100000"}
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "cargosite.asgi:application", "--host",
             "127.0.0.1", "--port", str(port), "--log-level", "warning"], cwd=ROOT, env=env)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            for run in range(args.runs):
                got = measure(port, server.pid, token)
                print(f"games={games} run={run + 1} lines={got['lines']} "
                      f"first_line={got['first_ms']:.0f} ms total={got['total_s']:.2f} s "
                      f"rss_before={got['rss_before_mib']:.1f} MiB "
                      f"rss_peak={got['rss_peak_mib']:.1f} MiB", flush=True)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
