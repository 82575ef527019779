"""Cargo Express's words in the page (static/js/cargo-express/words.js): every event kind of
express/events.py gets a sentence, steps get button words. Runs tests/js/express_words.mjs
with node; skipped without node."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("node") is None, reason="no node on PATH")
def test_every_event_has_words(tmp_path):
    (tmp_path / "words.js").write_text((ROOT / "static/js/cargo-express/words.js").read_text())
    (tmp_path / "package.json").write_text('{"type": "module"}')
    shutil.copy(ROOT / "tests/js/express_words.mjs", tmp_path / "run.mjs")
    done = subprocess.run(["node", str(tmp_path / "run.mjs")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "ok"


def test_the_words_know_every_event_kind():
    """Each event kind of the engine has a case in eventWords."""
    from express import events

    kinds = {cls.kind for cls in vars(events).values()
             if isinstance(cls, type) and issubclass(cls, events.Event) and cls is not events.Event}
    text = (ROOT / "static/js/cargo-express/words.js").read_text()
    missing = [k for k in sorted(kinds) if f'case "{k}":' not in text]
    assert missing == []
