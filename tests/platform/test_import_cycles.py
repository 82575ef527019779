"""No import circle in the project's code (issue #44, point 1): the graph of which module
imports which, every import counted (at module level, inside functions, and under
`if TYPE_CHECKING:`; `from pkg import name` counts `pkg` itself, whose `__init__` runs
first), relative ones made absolute, and its strongly connected components
found (Tarjan). A component of more than one module is a circle.

None is left (2026-12-06): the engines' own circles (notation <-> position), the Weekly
Puzzles' (validation <-> tasks), notifications' (five modules) and the games app's (13
modules: tasks now sent by name, common.queue; presence read in games.frames.away, acted on in
games.timing.abandonment; a fallen flag reported by games.timing.timeouts and answered by
games.turns.play, registered when the app loads) were broken then, and Cargo Express's
package with its modules (`from express import events` ran `express/__init__`, which
imports them: they import `express.events` directly now). `KNOWN` would list one that had to stay.

What the graph does not see: a module's package `__init__` that Python loads first (the
`cargosite` package loads the Celery app, whose worker-ready handler imports `games.botplay.bots`);
that is issue #44's point 4 (a shared layer below the apps)."""

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKIPPED = {"tests", "migrations", "node_modules", "staticfiles", "artifacts"}
KNOWN: list[set[str]] = []  # none left


def project_modules(root: pathlib.Path) -> dict[str, pathlib.Path]:
    """Every module of the project by its dotted name (a package by its own name)."""
    found = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).parts
        if parts[0].startswith(".") or SKIPPED.intersection(parts):
            continue
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imported(path: pathlib.Path, name: str, modules: dict[str, pathlib.Path]) -> set[str]:
    """The project's modules that the module `name` (at `path`) imports, at any depth."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def known(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    targets: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(known(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            targets.add(known(base))  # `from express import events` runs express first
            for alias in node.names:  # ... and imports express.events
                full = f"{base}.{alias.name}"
                if full in modules:
                    targets.add(full)
    return {target for target in targets if target and target != name}


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == module:
                    break
            if len(component) > 1:
                found.append(component)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for module in sorted(graph):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def project_graph() -> dict[str, set[str]]:
    modules = project_modules(ROOT)
    return {name: imported(path, name, modules) for name, path in modules.items()}


def test_no_import_circle_is_left():
    found = circles(project_graph())
    assert sorted(map(sorted, found)) == sorted(map(sorted, KNOWN))


def test_it_finds_a_circle_through_a_function_level_and_a_relative_import(tmp_path):
    app = tmp_path / "app"
    app.mkdir()
    (app / "__init__.py").write_text("")
    (app / "a.py").write_text("from . import b\n")
    (app / "b.py").write_text("def f():\n    from app.c import g\n")
    (app / "c.py").write_text("from .a import x\n")
    (app / "d.py").write_text("import app.a\n")  # imports into the circle, not part of it
    modules = project_modules(tmp_path)
    graph = {name: imported(path, name, modules) for name, path in modules.items()}
    assert circles(graph) == [{"app.a", "app.b", "app.c"}]
