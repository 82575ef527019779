"""The reference client (clients/cargo_client/) is outside the site, as any client of the
API is: it imports the standard library and itself, and each adapter its own engine
(`cargobot` Cargo Connect's `engine`, `expressbot` Cargo Express's `express`), never
Django nor a module of the site (docs/architecture.md, "Import rules")."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "cargo_client"
ADAPTERS = {"cargobot.py": "engine", "expressbot.py": "express"}


def imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
    return found


def test_the_client_imports_the_standard_library_itself_and_each_adapter_its_engine():
    files = sorted(PACKAGE.glob("*.py"))
    assert {f.name for f in files} >= {"api.py", "diff.py", "held.py", "play.py",
                                       "engines.py", *ADAPTERS}
    for path in files:
        allowed = {"cargo_client", "__future__", *sys.stdlib_module_names}
        if path.name in ADAPTERS:
            allowed.add(ADAPTERS[path.name])
        assert imported(path) - allowed == set(), path.name
    for name, engine in ADAPTERS.items():
        assert engine in imported(PACKAGE / name)  # exact: each adapter does use it


def test_every_module_says_what_it_owns():
    for path in sorted(PACKAGE.glob("*.py")):
        assert ast.get_docstring(ast.parse(path.read_text("utf-8"))), path.name
