"""Module boundaries (docs/architecture.md, "Import rules").

- `rankings`, `puzzles` and `accounts` never import live-play code (`LIVE_PLAY`); the rest
  of `games` (models, the finish seam's registry, the kinds, actors, access, protocol) they
  may use. The Daily Challenge alone makes its games, through `games.services`.
- Who imports an engine, exactly: a game kind, for play, imports its own engine and no
  other; besides the kinds, only Cargo Connect's own pages import `engine/`: the Weekly
  Puzzles and Daily Challenge app (`puzzles/`) and the How to play page
  (`cargosite/howto.py`). No other site module, script or migration imports `engine/` or
  `express/`. The tests (`tests/`) are outside the rule.
- The engines are pure: each imports the standard library and itself only (no Django, no
  site module, not the other engine).
"""

import ast
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIVE_PLAY = {"games.play", "games.sockets", "games.views", "games.bots", "games.lobby",
             "games.history", "games.services", "games.tasks", "games.finish",
             "games.broadcast", "games.store", "games.fast", "games.applied"}
# The Daily Challenge makes, resigns and voids its games, through the games app's public
# functions only, and from this one module only.
ALLOWED = {("puzzles/daily/live.py", "games.services")}

ENGINES = ("engine", "express")
# Each game kind's module and the one engine it may import. A new kind adds its line here
# (Cargo Express's kind will be the first site module to import `express`).
KIND_ENGINES = {"games/kinds/cargo_connect.py": "engine",
                "games/kinds/cargo_express.py": "express"}
# Besides the kinds: Cargo Connect's own code outside play, which may import `engine` (and
# only `engine`). A path ending in "/" is a whole folder.
CARGO_CONNECT_OWN = ("puzzles/", "cargosite/howto.py")
# Not site code: the engines themselves (their own test below) and the tests. Hidden folders
# (.venv, .git, .ci) are skipped too.
NOT_SITE = {"engine", "express", "tests"}


def _imports_of(path: pathlib.Path) -> set[str]:
    """Every absolute module name `path` imports, at any depth (functions included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def imports(app: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        found.update((str(path.relative_to(ROOT)), what) for what in _imports_of(path))
    return found


def site_files() -> list[pathlib.Path]:
    """Every Python file of the site outside the engines and the tests: each app, the
    project package, the scripts, migrations included, and the files at the top."""
    files = []
    for top in sorted(ROOT.iterdir()):
        if top.name.startswith(".") or top.name in NOT_SITE:
            continue
        if top.is_file() and top.suffix == ".py":
            files.append(top)
        elif top.is_dir() and not top.is_symlink():
            files.extend(sorted(top.rglob("*.py")))
    return files


def engine_imports() -> set[tuple[str, str]]:
    """(file, engine) for every site file that imports an engine."""
    return {(str(path.relative_to(ROOT)), what.split(".")[0])
            for path in site_files() for what in _imports_of(path)
            if what.split(".")[0] in ENGINES}


def may_import(where: str, engine: str) -> bool:
    if where in KIND_ENGINES:
        return KIND_ENGINES[where] == engine
    if engine == "engine":
        return any(where.startswith(own) if own.endswith("/") else where == own
                   for own in CARGO_CONNECT_OWN)
    return False


@pytest.mark.parametrize("app", ["rankings", "puzzles", "accounts"])
def test_it_never_imports_live_play(app):
    bad = sorted((where, what) for where, what in imports(app)
                 if (what in LIVE_PLAY or any(what.startswith(m + ".") for m in LIVE_PLAY))
                 and (where, what) not in ALLOWED)
    assert bad == []


def test_the_search_reads_every_app_and_the_scripts():
    read = {path.relative_to(ROOT).parts[0] for path in site_files()}
    assert {"accounts", "cargosite", "games", "puzzles", "rankings", "scripts",
            "manage.py"} <= read


def test_only_the_kinds_and_cargo_connects_own_pages_import_an_engine():
    bad = sorted((where, engine) for where, engine in engine_imports()
                 if not may_import(where, engine))
    assert bad == []


def test_the_rule_is_exact_every_module_it_allows_imports_its_engine():
    """No stale permission: each kind imports its engine, and each of Cargo Connect's own
    places imports `engine` (so the rule lists exactly who does)."""
    found = engine_imports()
    for kind, engine in KIND_ENGINES.items():
        assert (kind, engine) in found
    for own in CARGO_CONNECT_OWN:
        assert any(engine == "engine" and (where.startswith(own) if own.endswith("/")
                                           else where == own)
                   for where, engine in found), own


def test_the_registry_of_kinds_imports_no_engine():
    assert not {what for what in _imports_of(ROOT / "games/kinds/__init__.py")
                if what.split(".")[0] in ENGINES}


@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_imports_only_the_standard_library_and_itself(engine):
    bad = sorted((str(path.relative_to(ROOT)), what)
                 for path in (ROOT / engine).rglob("*.py") for what in _imports_of(path)
                 if what.split(".")[0] not in (engine, "__future__")
                 and what.split(".")[0] not in sys.stdlib_module_names)
    assert bad == []


# --- games.protocol is pure serialisation; the fast path is used through its public names --

# What games/protocol.py may import: the standard library, Django's database errors, and
# the games app's kinds and models (what it shapes). No service, store, other app or URL
# resolver: its callers gather (games.states) and pass it what it shapes.
PROTOCOL_MAY_IMPORT = {"__future__", "enum", "typing", "django.db", "games.kinds",
                       "games.models"}


def _resolved_imports(path: pathlib.Path) -> list[tuple[str, list[str]]]:
    """(module, names) for every import in `path`, relative ones made absolute, at any
    depth; `names` are what a `from` import takes ([] for `import x`)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.append((module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((a.name, []) for a in node.names)
    return found


def test_protocol_imports_no_service_store_or_other_app():
    imported = {module for module, _ in _resolved_imports(ROOT / "games/protocol.py")}
    assert imported - PROTOCOL_MAY_IMPORT == set()


def test_the_rule_for_protocol_reads_relative_imports():
    """The resolver sees `from .kinds import …` as games.kinds (else the rule above would
    pass for want of reading anything)."""
    assert ("games.kinds", ["LiveGame", "Viewer"]) in _resolved_imports(
        ROOT / "games/protocol.py")


FAST = "games.fast"


def _fast_module_names(path: pathlib.Path) -> set[str]:
    """The local names `path` binds to the fast path's modules (`from games.fast import
    warm`, `from .fast import turns as fast_turns`)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    bound = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        if module == FAST:
            bound.update(alias.asname or alias.name for alias in node.names
                         if (ROOT / "games/fast" / f"{alias.name}.py").exists())
    return bound


def test_nothing_outside_the_fast_path_uses_its_private_names():
    """The fast path (games/fast/) is used outside its package through its public names
    only (no leading underscore), so what it relies on inside can change without the rest
    of the site knowing (tests, which look inside, are outside the rule)."""
    bad = []
    for path in site_files():
        where = str(path.relative_to(ROOT))
        if where.startswith("games/fast/"):
            continue
        for module, names in _resolved_imports(path):
            if module == FAST or module.startswith(FAST + "."):
                bad += [(where, f"{module}.{name}") for name in names
                        if name.startswith("_")]
        fast_names = _fast_module_names(path)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in fast_names and node.attr.startswith("_"):
                bad.append((where, f"{node.value.id}.{node.attr}"))
    assert bad == []


def test_the_fast_path_rule_reads_its_users():
    users = {str(path.relative_to(ROOT)) for path in site_files()
             if any(m == FAST or m.startswith(FAST + ".") for m, _ in _resolved_imports(path))}
    assert {"games/play.py", "games/sockets/runtime.py", "games/sockets/game.py"} <= users


def _games_imports(path: pathlib.Path) -> set[str]:
    """The `games` modules a module of the games app imports (relative or absolute), by
    their names in the app ("play", "bots"), at module level or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:
                found.update(alias.name for alias in node.names)
            elif node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 0 and node.module and node.module.startswith("games."):
                found.add(node.module.split(".")[1])
    return found


def test_the_bot_tasks_do_not_import_the_apply_path_back():
    """The apply path (games.play) notes bot seats and sends their tasks (games.bots); the
    bot's decision through that path is games.bot_games: no import circle play <-> bots."""
    assert "bots" in _games_imports(ROOT / "games/play.py")
    assert "play" not in _games_imports(ROOT / "games/bots.py")
