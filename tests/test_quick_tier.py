"""The quick tier's boundary (docs/testing.md, "The quick tier"): every module that
tests/conftest.py marks `slow` exists, so a renamed module cannot slip into `make test-quick`
unnoticed, nor a stale name stay in the list."""

from tests.conftest import ROOT, SLOW_MODULES


def test_every_slow_module_and_test_exists():
    missing = []
    for entry in sorted(SLOW_MODULES):
        path, _, name = entry.partition("::")
        if not (ROOT / path).is_file() or (
                name and f"def {name}(" not in (ROOT / path).read_text()):
            missing.append(entry)
    assert missing == []
