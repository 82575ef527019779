"""Module boundaries: rankings and puzzles never import live-play code, accounts reads
games only through models, the finish seam's registry and the kinds; no app but games calls
an engine directly (the registry in games.kinds is the door)."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIVE_PLAY = {"games.play", "games.consumers", "games.views", "games.bots", "games.lobby",
             "games.history", "games.services", "games.tasks", "games.finish",
             "games.broadcast", "games.store"}
# The Daily Challenge makes, resigns and voids its games, through the games app's public
# functions only, and from this one module only.
ALLOWED = {("puzzles/daily/live.py", "games.services")}


def imports(app: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add((str(path.relative_to(ROOT)), node.module))
            elif isinstance(node, ast.Import):
                found.update((str(path.relative_to(ROOT)), a.name) for a in node.names)
    return found


@pytest.mark.parametrize("app", ["rankings", "puzzles", "accounts"])
def test_it_never_imports_live_play(app):
    bad = sorted((where, what) for where, what in imports(app)
                 if (what in LIVE_PLAY or any(what.startswith(m + ".") for m in LIVE_PLAY))
                 and (where, what) not in ALLOWED)
    assert bad == []


@pytest.mark.parametrize("app", ["games", "rankings", "accounts"])
def test_only_the_kinds_registry_imports_an_engine(app):
    bad = sorted((where, what) for where, what in imports(app)
                 if what.split(".")[0] in ("engine", "express")
                 and not where.startswith("games/kinds/"))
    assert bad == []
