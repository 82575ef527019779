"""Rows made once for a whole test module (issue #43): a finished game played through the
services costs seconds to tens of seconds, and five tests asserting five things about it
need not each play it again.

`module_rows(django_db_blocker)` opens a transaction around the module: what the fixture
makes inside it is seen by every test of the module (each test's own transaction becomes a
savepoint inside it, so what a test changes is still rolled back after it), and all of it
is rolled back when the module ends. Only for modules whose every test is a `db` test that
wants those rows (a test that needs an empty table belongs in another module), never for
`transactional_db` tests (they commit). `on_commit(fn, ...)` runs `fn` with its after-commit
callbacks run as a real commit would, as `django_capture_on_commit_callbacks(execute=True)`
does in a test:

    @pytest.fixture(scope="module")
    def finished(django_db_setup, django_db_blocker):
        with module_rows(django_db_blocker):
            with django_db_blocker.unblock():
                game = on_commit(make_a_game)
            yield game
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from django.db import transaction
from django.test import TestCase


@contextlib.contextmanager
def module_rows(django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic._from_testcase = True  # as TestCase's class-wide atomic: durable may nest
        atomic.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def on_commit(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return fn(*args, **kwargs)
