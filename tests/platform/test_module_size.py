"""No module of the project is over 600 lines, tests and migrations aside (issue #44,
point 5): a module that grows past one concern is split by concern (docs/architecture.md)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 600
NOT_COUNTED = {"tests", "migrations", "node_modules", "staticfiles"}


def project_modules() -> list[Path]:
    return sorted(path for path in ROOT.rglob("*.py")
                  if not any(part.startswith(".") or part in NOT_COUNTED
                             for part in path.relative_to(ROOT).parts))


def test_the_search_reads_the_engines_the_apps_and_the_scripts():
    read = {path.relative_to(ROOT).parts[0] for path in project_modules()}
    assert {"engine", "express", "games", "cargosite", "scripts", "rankings"} <= read


def test_every_module_is_at_most_600_lines():
    long = {path.relative_to(ROOT).as_posix(): lines for path in project_modules()
            if (lines := len(path.read_text("utf-8").splitlines())) > LIMIT}
    assert long == {}


def test_the_games_app_keeps_twelve_modules_at_its_top_level():
    """`games/` by concern (issue #44, point 1): its top level holds what Django and Celery
    look for there (apps, admin, models, urls, tasks), the seams other apps use
    (services, results, signals, actors, access) and `__init__`; the rest is in subpackages,
    each saying in its docstring what it owns."""
    top = sorted(path.name for path in (ROOT / "games").glob("*.py"))
    assert len(top) <= 12, top
    for package in (ROOT / "games").iterdir():
        init = package / "__init__.py"
        if package.is_dir() and init.exists() and package.name != "migrations":
            assert init.read_text().lstrip().startswith('"""'), package.name
