"""scripts/faults.py's reading of the ASGI logs: each traceback is found whole, with the
line that announced it, and only those a trial added are put on that trial."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from fault_trials.logs import client_tracebacks, log_sizes, new_tracebacks, traceback_texts  # noqa: E402

LOG = """INFO started
ERROR Exception in ASGI application
Traceback (most recent call last):
  File "a.py", line 1, in f
    g()
ConnectionError: Error 111 connecting to 127.0.0.1:1. Connection refused.
INFO next request
"""


class Logs:
    def __init__(self) -> None:
        self.text = {"asgi-1": "", "asgi-2": ""}

    def log(self, piece: str) -> str:
        return self.text[piece]


def test_a_traceback_is_read_whole_with_its_announcing_line_and_no_more():
    (text,) = traceback_texts(LOG, context_lines=1)
    assert text.splitlines() == LOG.splitlines()[1:6]


def test_only_what_a_trial_added_is_put_on_it():
    logs = Logs()
    logs.text["asgi-2"] = LOG
    before = log_sizes(logs)
    assert new_tracebacks(logs, before) == {}
    logs.text["asgi-2"] += LOG
    logs.text["asgi-1"] += "INFO quiet\n"
    added = new_tracebacks(logs, before)
    assert list(added) == ["asgi-2"] and len(added["asgi-2"]) == 1
    assert added["asgi-2"][0].endswith("Connection refused.")
    assert client_tracebacks(logs) == {"asgi-1": 0, "asgi-2": 2}
