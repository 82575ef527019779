"""The live page's reconnects honour the close codes a refused socket now carries
(static/js/live/socket.js; issue #28): 4403/4404 stop, 4430 polls and tries again after a
minute, 1013/4429 back off. Runs tests/js/socket_close_codes.mjs with node; skipped
without node."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("node") is None, reason="no node on PATH")
def test_the_page_honours_close_codes(tmp_path):
    live = tmp_path / "live"  # the same tree as static/js: socket.js imports ../notifications.js
    live.mkdir()
    for name in ("socket.js", "dom.js", "diff.js"):  # as ES modules, whatever package.json says
        (live / name).write_text((ROOT / "static/js/live" / name).read_text())
    (tmp_path / "notifications.js").write_text((ROOT / "static/js/notifications.js").read_text())
    (tmp_path / "package.json").write_text('{"type": "module"}')
    shutil.copy(ROOT / "tests/js/socket_close_codes.mjs", live / "run.mjs")
    done = subprocess.run(["node", str(live / "run.mjs")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "ok"
