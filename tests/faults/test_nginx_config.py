"""The nginx configuration scripts/topology.sh generates (issue #28, points 1 and 11):
game sockets are never refused because a process was marked down, TLS is Mozilla's
intermediate profile, and what nginx answers itself carries the site's security headers.
scripts/faults.py checks the same against a running nginx."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

pytestmark = pytest.mark.skipif(not Path("/usr/sbin/nginx").exists(), reason="no nginx")


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    where = tmp_path_factory.mktemp("topology")
    env = {**os.environ, "TOPOLOGY_DIR": str(where),
           "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
           "REDIS_URL": "redis://127.0.0.1:1/0", "DJANGO_SECRET_KEY": "k" * 50}
    done = subprocess.run([str(ROOT / "scripts/topology.sh"), "config"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr  # nginx -t accepted it
    yield {name: (where / "nginx" / name).read_text()
           for name in ("nginx.conf", "security_headers.conf")}
    shutil.rmtree(where, ignore_errors=True)


def block(text: str, start: str) -> str:
    at = text.index(start)
    return text[at:text.index("}", at)]


def test_game_sockets_never_mark_a_process_down(config):
    games = block(config["nginx.conf"], "upstream cargo_games")
    servers = re.findall(r"server \S+ ([^;]*);", games)
    assert len(servers) == 2 and all(s == "max_fails=0" for s in servers), servers


def test_tls_is_mozilla_intermediate(config):
    text = config["nginx.conf"]
    assert "ssl_protocols TLSv1.2 TLSv1.3;" in text
    assert "ssl_prefer_server_ciphers off;" in text
    assert "ssl_session_tickets off;" in text
    assert re.search(r"ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:[^;]*CHACHA20-POLY1305;", text)


def test_nginx_answers_carry_the_security_headers(config):
    headers = config["security_headers.conf"]
    for name in ("Strict-Transport-Security", "Content-Security-Policy", "X-Frame-Options",
                 "X-Content-Type-Options", "Referrer-Policy"):
        assert re.search(rf"add_header {name} \S+ always;", headers), name
    text = config["nginx.conf"]
    server = text[text.index("    server {"):]
    # At the server's level (nginx's own error pages) and in /static/, whose own
    # add_header lines would otherwise drop the server's.
    assert server.count("security_headers.conf") == 2
    assert "security_headers.conf" in block(text, "location /static/")
