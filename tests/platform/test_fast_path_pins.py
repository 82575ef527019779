"""The live fast path (games/fast/) relies on internals of a few libraries, as they were
at the versions in `games.fast.PINNED` (docs/fast-path.md, "The versions it was written
against"). An upgrade of any of them must be a decision to read those pieces again: this
test fails, naming the library, when requirements.txt or the installed version differs from
the pin, until the pieces are checked against the new version and `PINNED` moved with it."""

import importlib.metadata
import pathlib
import re

import pytest

from games.fast import PINNED

ROOT = pathlib.Path(__file__).resolve().parents[2]


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def required() -> dict[str, str]:
    """requirements.txt's exact pins: normalised name -> version."""
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        found = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)", line)
        if found:
            pins[normalised(found.group(1))] = found.group(2)
    return pins


@pytest.mark.parametrize("library", sorted(PINNED))
def test_requirements_pin_the_version_the_fast_path_was_written_against(library):
    pinned = required().get(normalised(library))
    assert pinned is not None, f"{library} is not pinned exactly (==) in requirements.txt"
    assert pinned == PINNED[library], (
        f"{library}: requirements.txt pins {pinned}, the fast path was written against "
        f"{PINNED[library]}: read games/fast/ and docs/fast-path.md against {pinned}, then "
        f"move games.fast.PINNED")


@pytest.mark.parametrize("library", sorted(PINNED))
def test_the_installed_version_is_the_one_the_fast_path_was_written_against(library):
    installed = importlib.metadata.version(library)
    assert installed == PINNED[library], (
        f"{library} {installed} is installed, the fast path was written against "
        f"{PINNED[library]}: read games/fast/ and docs/fast-path.md against {installed}, "
        f"then move games.fast.PINNED and requirements.txt")


def test_the_pins_name_every_library_docs_fast_path_lists():
    """The page's table and the constant name the same libraries (hiredis: no internals)."""
    page = (ROOT / "docs/fast-path.md").read_text()
    table = page[page.index("## The versions it was written against"):]
    table = table[:table.index("\n## ", 1)]
    row = re.compile(r"^\| ([A-Za-z_.-]+)(?: \([^)]*\))? \| [0-9]", re.MULTILINE)
    listed = {normalised(name) for name in row.findall(table)}
    assert listed - {"hiredis"} == {normalised(name) for name in PINNED}
