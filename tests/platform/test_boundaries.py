"""Module boundaries (docs/architecture.md, "Import rules").

- `rankings`, `puzzles` and `accounts` never import live-play code (`LIVE_PLAY`); the rest
  of `games` (models, the finish seam's registry, the kinds, actors, access, protocol) they
  may use. The Daily Challenge alone makes its games, through `games.services`.
- Who imports an engine, exactly: a game kind, for play, imports its own engine and no
  other; besides the kinds, only Cargo Connect's own pages import `engine/`: the Weekly
  Puzzles and Daily Challenge app (`puzzles/`); How to play's examples are each kind's own
  (`games/kinds/<game>/howto.py`). No other site module, script or migration imports `engine/` or
  `express/`. The tests (`tests/`) and the API's reference client (`clients/`, its own
  rule: tests/client/test_client_imports.py) are outside the rule.
- The engines are pure: each imports the standard library and itself only (no Django, no
  site module, not the other engine).
- The platform (`games`) imports no app built on it; each app takes of the platform exactly
  the modules its line in `GAMES_TAKEN` names, and every app has a line.
"""

import ast
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIVE_PLAY = {"games.turns.play", "games.sockets", "games.views", "games.botplay.bots",
             "games.tables.lobby", "games.records.history", "games.services", "games.tasks",
             "games.turns.finish", "games.frames.broadcast", "games.turns.store", "games.fast",
             "games.turns.applied"}
# The Daily Challenge makes, resigns and voids its games, through the games app's public
# functions only, and from this one module only.
ALLOWED = {("puzzles/daily/live.py", "games.services")}

ENGINES = ("engine", "express")
# Each game kind's modules and the one engine they may import. A new kind adds its line here
# (Cargo Express's kind will be the first site module to import `express`).
KIND_ENGINES = {"games/kinds/cargo_connect/__init__.py": "engine",
                "games/kinds/cargo_connect/howto.py": "engine",
                "games/kinds/cargo_express/howto.py": "express",
                "games/kinds/cargo_express/__init__.py": "express",
                "games/kinds/cargo_express/view.py": "express"}
# Besides the kinds: Cargo Connect's own code outside play, which may import `engine` (and
# only `engine`). A path ending in "/" is a whole folder.
CARGO_CONNECT_OWN = ("puzzles/",)
# Not site code: the engines themselves (their own test below), the reference client of the
# API (`clients/`: outside the site, held by tests/client/test_client_imports.py) and the
# tests. Hidden folders (.venv, .git, .ci) are skipped too.
NOT_SITE = {"engine", "express", "clients", "tests"}


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


# --- games.frames.protocol is pure serialisation; the fast path is used through its public names --

# What games/frames/protocol.py may import: the standard library, Django's database errors, and
# the games app's kinds and models (what it shapes). No service, store, other app or URL
# resolver: its callers gather (games.frames.states) and pass it what it shapes.
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
    imported = {module for module, _ in _resolved_imports(ROOT / "games/frames/protocol.py")}
    assert imported - PROTOCOL_MAY_IMPORT == set()


def test_the_rule_for_protocol_reads_relative_imports():
    """The resolver sees `from .kinds import …` as games.kinds (else the rule above would
    pass for want of reading anything)."""
    assert any(module == "games.kinds" and {"LiveGame", "Viewer"} <= set(names)
               for module, names in _resolved_imports(ROOT / "games/frames/protocol.py"))


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
    assert {"games/turns/play.py", "games/sockets/runtime.py", "games/sockets/game.py"} <= users


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
                package = ROOT / node.module.replace(".", "/")
                if package.is_dir():  # from games.turns import play: the module play
                    found.update(alias.name for alias in node.names
                                 if (package / f"{alias.name}.py").exists())
                else:  # from games.turns.play import x
                    found.add(node.module.split(".")[-1])
            elif node.level == 0 and node.module == "games":
                found.update(alias.name for alias in node.names)
    return found


def test_the_bot_tasks_do_not_import_the_apply_path_back():
    """The apply path (games.turns.play) notes bot seats and sends their tasks
    (games.botplay.bots); the bot's decision through that path is games.botplay.bot_games:
    no import circle play <-> bots."""
    assert "bots" in _games_imports(ROOT / "games/turns/play.py")
    assert "play" not in _games_imports(ROOT / "games/botplay/bots.py")


# --- The platform does not call the apps built on it: they hear its signals -------------

# Apps above `games` that it must never import: they subscribe to the finish seam
# (games.results) and to live play's signals (games.signals); the chat is a part of the
# game socket (games.sockets.runtime.SocketParts) that the top layer composes
# (cargosite/routing.py). No exception.
ABOVE_GAMES = ("notifications", "chat", "rankings", "accounts", "puzzles", "tournaments",
               "api")


def test_games_imports_no_app_built_on_it():
    bad = sorted((where, what) for where, what in imports("games")
                 if what.split(".")[0] in ABOVE_GAMES)
    assert bad == []


# --- What each app takes of the platform: every app, exactly ----------------------------

# Each app's (and cargosite's) imports of `games`, by the module they reach (`from games
# import access` is games.access); a name that is a module counts as that module. Exact
# both ways: a new reach into the platform is a line added here and looked at in review,
# and a reach no longer made is a line taken out. Live play's internals are the rule above
# (LIVE_PLAY); these are the doors each app goes through today. The top layer (cargosite)
# is not listed: it wires the site together (its home page, How to play pages, health and
# metrics, the ASGI routing), and no app imports it (below).
GAMES_TAKEN = {
    # accounts' GameStats and puzzles are Cargo Connect's own: they name its kind.
    # accounts keeps the BOT accounts' flag and registers as the titles' keeper.
    "accounts": {"games.kinds", "games.kinds.cargo_connect", "games.models", "games.results",
                 "games.titles"},
    "rankings": {"games.kinds", "games.models", "games.results", "games.frames.shown_ratings"},
    "puzzles": {"games.access", "games.actors", "games.kinds", "games.kinds.cargo_connect",
                "games.kinds.cargo_connect.reviews", "games.models", "games.frames.protocol",
                "games.results", "games.services"},
    "chat": {"games.access", "games.actors", "games.frames.broadcast", "games.models",
             "games.sockets.runtime"},
    "notifications": {"games.frames.broadcast", "games.timing.clocks", "games.titles",
                      "games.timing.correspondence", "games.kinds", "games.models",
                      "games.results", "games.signals", "games.turns.store",
                      "games.tables.waiting"},
    # tournaments make, resign and read their games through the services and hear the
    # finish seam; the kinds say the seats, the clocks the time controls; the create form
    # offers the lobby's time controls (games.tables.forms). The tournament socket stands
    # on the sockets' runtime (budgets, close codes, the session check), the anonymous cap
    # (limits) and the protocol's error codes; the page's live sections go out through
    # broadcast (tournaments/socket.py, tournaments/live.py), an arena's shared sections
    # rendered on an ASGI process's render thread (games.sockets.renders); an arena game's
    # berserk mark and button reach its page through the access seam
    # (tournaments/game_extras.py).
    "tournaments": {"games.access", "games.frames.broadcast", "games.frames.protocol",
                    "games.kinds",
                    "games.models", "games.results", "games.services",
                    "games.sockets.limits", "games.sockets.renders", "games.sockets.runtime",
                    "games.tables.forms",
                    "games.timing.clocks", "games.titles"},
    # the public API reads a game for its asker through the services' per-viewer builders
    # and the access checks, its seats through the actors; the protocol names the
    # database errors it answers 503 for; its examples name the kinds by their keys. Its
    # challenges read a table's fields as the site's form does (games.tables.forms); its
    # event stream hears a game's start and an abort (games.signals) and every other
    # ending on the finish seam's hook (games.results); the answers name titles.
    "api": {"games.access", "games.actors", "games.frames.audiences",
            "games.frames.broadcast", "games.frames.protocol", "games.kinds",
            "games.kinds.cargo_connect", "games.kinds.cargo_express", "games.models",
            "games.results", "games.services", "games.signals", "games.tables.forms",
            "games.titles"},
}


def _games_modules_taken(app: str) -> set[str]:
    taken = set()
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for module, names in _resolved_imports(path):
            if module != "games" and not module.startswith("games."):
                continue
            as_modules = {f"{module}.{name}" for name in names
                          if (ROOT / module.replace(".", "/") / f"{name}.py").exists()
                          or (ROOT / module.replace(".", "/") / name).is_dir()}
            taken |= as_modules or {module}
    return taken


@pytest.mark.parametrize("app", sorted(GAMES_TAKEN))
def test_each_app_takes_of_the_platform_exactly_what_its_line_says(app):
    assert _games_modules_taken(app) == GAMES_TAKEN[app]


def test_the_table_names_every_app():
    """Every Django app of the site but the platform itself and the shared layer below it
    (which imports no app: the test below) has a line."""
    apps = {path.parent.name for path in ROOT.glob("*/apps.py")}
    assert apps - {"games", "common"} == set(GAMES_TAKEN)


# --- Between the apps built on the platform: tournaments announce, notifications hear ----

# What an app above `games` takes of another, exactly (every pair not listed: nothing).
# The tournaments tell their players through a signal (`tournaments.signals.round_started`,
# sent after commit) that the notifications app hears: the tournaments never import it.
# The accounts app hears a tournament's end (`tournament_finished`: its achievements) and
# reads a member's results for their profile (`tournaments.results`); the tournaments
# never import accounts.
APPS_TAKEN = {("notifications", "tournaments"): {"tournaments.signals"},
              ("accounts", "tournaments"): {"tournaments.signals", "tournaments.results"},
              # the API's play doors post and read a game's chat through the chat's own
              # services and rooms, and its game stream joins the rooms' groups
              ("api", "chat"): {"chat.services", "chat.rooms", "chat.frames"}}


def _modules_taken(app: str, of: str) -> set[str]:
    taken = set()
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for module, names in _resolved_imports(path):
            if module != of and not module.startswith(of + "."):
                continue
            as_modules = {f"{module}.{name}" for name in names
                          if (ROOT / module.replace(".", "/") / f"{name}.py").exists()
                          or (ROOT / module.replace(".", "/") / name).is_dir()}
            taken |= as_modules or {module}
    return taken


@pytest.mark.parametrize(("app", "of"), [("notifications", "tournaments"),
                                         ("tournaments", "notifications"),
                                         ("accounts", "tournaments"),
                                         ("tournaments", "accounts"),
                                         ("api", "chat"), ("chat", "api")])
def test_notifications_hear_the_tournaments_only_through_their_signals(app, of):
    assert _modules_taken(app, of) == APPS_TAKEN.get((app, of), set())


# --- The shared layer below the apps, the top layer above them --------------------------

SITE_APPS = ("accounts", "games", "puzzles", "rankings", "chat", "notifications",
             "tournaments", "api")


def test_every_app_of_the_site_is_listed():
    apps = {path.parent.name for path in ROOT.glob("*/apps.py")}
    assert apps == {*SITE_APPS, "common"}


def test_the_shared_layer_imports_no_app_and_not_the_top_layer():
    """`common` (the read-only admin, tasks by name, error pages, the site's day, typed
    text, deploy checks) is below every app: it imports none, nor `cargosite`."""
    bad = sorted((where, what) for where, what in imports("common")
                 if what.split(".")[0] in (*SITE_APPS, "cargosite"))
    assert bad == []


@pytest.mark.parametrize("app", SITE_APPS)
def test_no_app_imports_the_top_layer(app):
    """`cargosite` assembles the apps (settings, URLs, ASGI, Celery, the home page); the
    apps share helpers through `common`, never through it."""
    bad = sorted((where, what) for where, what in imports(app)
                 if what.split(".")[0] == "cargosite")
    assert bad == []


# --- games/ by concern: what each subpackage may import of the others -------------------

SUBPACKAGES = ("tables", "turns", "frames", "timing", "botplay", "records", "sockets", "views",
               "fast", "kinds")
# Of the other subpackages, what each may import (a module, or a whole subpackage). The
# edges here are the rules of docs/architecture.md, "games/ by concern": reading a state
# (frames) never plays, finishes or times a game; the clock (timing.timeouts) reports a
# fallen flag and never imports the play layer; no subpackage below the pages imports the
# sockets or the views; the kinds import no other.
MAY_IMPORT = {
    "kinds": set(),
    "frames": {"kinds", "timing.clocks", "turns.store"},
    "timing": {"kinds", "frames", "botplay", "fast", "turns.store", "turns.finish",
               "turns.play"},
    "turns": {"kinds", "frames", "timing", "botplay", "fast", "records"},
    "botplay": {"kinds", "frames", "timing", "turns"},
    "records": {"kinds", "frames", "turns"},
    "tables": {"kinds", "frames", "timing", "turns"},
    "fast": {"kinds", "frames", "timing", "turns"},
    "sockets": {"kinds", "frames", "timing", "turns", "fast", "botplay", "records", "tables"},
    "views": {"kinds", "frames", "timing", "turns", "tables", "records", "botplay"},
}
NOT_BY = {"timing.timeouts": {"turns.play"}}  # the clock never calls the play layer


def _subpackage_edges() -> set[tuple[str, str]]:
    """(importing module, imported module) between two of games' subpackages, by their
    names under games/ ("frames.states", "turns.store"), at any depth."""
    edges = set()
    for path in (ROOT / "games").rglob("*.py"):
        parts = path.relative_to(ROOT / "games").with_suffix("").parts
        if "migrations" in parts or parts[0] not in SUBPACKAGES:
            continue
        where = ".".join(p for p in parts if p != "__init__")
        for module, names in _resolved_imports(path):
            if not module.startswith("games."):
                continue
            for name in names or [""]:
                whole = f"{module}.{name}" if name else module
                target = whole if (ROOT / f"{whole.replace('.', '/')}.py").exists() else module
                target = target.removeprefix("games.")
                if target.split(".")[0] in SUBPACKAGES and \
                        target.split(".")[0] != parts[0]:
                    edges.add((where, target))
    return edges


def _allowed(where: str, target: str) -> bool:
    if any(target == no or target.startswith(no + ".") for no in NOT_BY.get(where, ())):
        return False
    rules = MAY_IMPORT[where.split(".")[0]]
    return any(target == rule or target.startswith(rule + ".") for rule in rules)


def test_each_subpackage_of_games_imports_only_what_its_rule_allows():
    bad = sorted((where, target) for where, target in _subpackage_edges()
                 if not _allowed(where, target))
    assert bad == []


def test_the_subpackage_rule_reads_the_imports():
    edges = _subpackage_edges()
    assert ("frames.states", "turns.store") in edges
    assert ("timing.timeouts", "turns.finish") in edges
    assert not _allowed("frames.states", "turns.play")
    assert not _allowed("timing.timeouts", "turns.play")


# --- No game hard-wired: a kind's key is written in its own package ---------------------

# Besides the kind's package (and migrations, which keep the history they were written
# with), only these name a kind by its key (issue #44, point 3):
KEY_ELSEWHERE = {
    "cargosite/settings.py": "DEFAULT_GAME_KIND's default, the setting naming the default kind",
    "scripts/load_live.py": "a client of the public protocol that plays each game by its "
                            "key, as an outside program would",
}


def test_a_kinds_key_is_written_only_in_its_own_package():
    from games.kinds import all_kinds

    found = set()
    for kind in all_kinds():
        package = ROOT / kind.__class__.__module__.replace(".", "/")
        own = package if package.is_dir() else package.parent
        for path in site_files():
            if own in path.parents or "migrations" in path.parts:
                continue
            text = path.read_text()
            if f'"{kind.key}"' in text or f"'{kind.key}'" in text:
                found.add(str(path.relative_to(ROOT)))
    assert found == set(KEY_ELSEWHERE)  # exact: no stale exception either


# --- The Swiss pairing and tie breaks are pure -------------------------------------------


def test_the_swiss_modules_import_no_django_and_no_site_module():
    """`tournaments/swiss/` pairs and breaks ties from plain records (docs/tournaments.md):
    no Django, no games, no other app; the database side calls it."""
    site = {*SITE_APPS, "cargosite", "common", "engine", "express", "django"}
    bad = sorted((path.name, module) for path in (ROOT / "tournaments/swiss").rglob("*.py")
                 for module, _names in _resolved_imports(path)
                 if module.split(".")[0] in site
                 and not (module == "tournaments.swiss" or module.startswith("tournaments.swiss.")))
    assert bad == []
