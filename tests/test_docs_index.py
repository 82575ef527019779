"""The docs index (docs/README.md) lists every page in docs/, and every relative link in
the docs and the README leads to a file that exists (issue #44, point 6)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def relative_links(page: Path) -> list[str]:
    """The targets of the page's Markdown links that are not web addresses or anchors."""
    return [target.split("#", 1)[0] for target in LINK.findall(page.read_text("utf-8"))
            if not re.match(r"[a-z]+:", target) and not target.startswith("#")]


def test_the_index_lists_every_page():
    """Design pages and the measurement logs under docs/logs/ alike."""
    listed = set(relative_links(DOCS / "README.md"))
    pages = {page.relative_to(DOCS).as_posix() for page in DOCS.rglob("*.md")} - {"README.md"}
    assert pages - listed == set()


def test_every_relative_link_leads_to_a_file():
    dead = [(page.relative_to(ROOT).as_posix(), target)
            for page in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
            for target in relative_links(page)
            if target and not (page.parent / target).exists()]
    assert dead == []
