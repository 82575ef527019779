"""The ASGI processes' logs in the fault trials: the tracebacks they hold, counted for the
run's last check (none a client could cause, issue #28) and shown whole, by trial.

A CI run's logs go with its work directory, so what a failed check found must be in what
the run prints: stop 53's CI counted one traceback in asgi-2's log and showed none."""

from __future__ import annotations

from typing import Protocol

ASGI_PIECES = ("asgi-1", "asgi-2")
TRACEBACK = "Traceback (most recent call last)"


class Logs(Protocol):
    def log(self, piece: str) -> str: ...


def client_tracebacks(top: Logs) -> dict[str, int]:
    """Tracebacks in the logs of the processes clients talk to (the ASGI processes) and
    nginx's own errors: a whole run must hold none (issue #28, acceptance)."""
    return {piece: top.log(piece).count(TRACEBACK) for piece in ASGI_PIECES}


def traceback_texts(log: str, context_lines: int = 3) -> list[str]:
    """Each traceback in `log` whole (its indented lines and the exception's line), with
    the `context_lines` log lines before it (the message that announced it)."""
    lines = log.splitlines()
    found = []
    for start, line in enumerate(lines):
        if TRACEBACK not in line:
            continue
        end = start + 1
        while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end]):
            end += 1
        found.append("\n".join(lines[max(0, start - context_lines):end + 1]))
    return found


def log_sizes(top: Logs) -> dict[str, int]:
    return {piece: len(top.log(piece)) for piece in ASGI_PIECES}


def new_tracebacks(top: Logs, before: dict[str, int]) -> dict[str, list[str]]:
    """The tracebacks the ASGI logs gained since `before` (their sizes then), by piece."""
    found = {piece: traceback_texts(top.log(piece)[before[piece]:]) for piece in ASGI_PIECES}
    return {piece: texts for piece, texts in found.items() if texts}
