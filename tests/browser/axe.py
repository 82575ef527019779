"""axe-core in the browser tests: inject the vendored engine into a page and assert that it
finds no violation of any impact (minor, moderate, serious or critical).

`assert_accessible(page: Page, label)` runs every rule axe enables by default (WCAG 2.0/2.1/2.2
A and AA and best practices) on the whole document. On failure the assertion message lists
each violation readably: its id, impact and help text, and for each node its CSS target,
the HTML and axe's summary of what to fix. The engine is the npm package `axe-core`,
vendored unmodified under tests/browser/vendor/axe-core/ (its README gives the version,
licence and checksum).

The script is evaluated through Playwright (the DevTools protocol), not added as a
`<script>` tag, so the page's Content-Security-Policy is not loosened for the test.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_PATH = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"

# Rules a test may leave out must be named where the test calls, never here.
RUN_OPTIONS: dict[str, Any] = {"resultTypes": ["violations"]}


@functools.cache
def axe_source() -> str:
    return AXE_PATH.read_text(encoding="utf-8")


def inject(page: Page) -> None:
    """Load axe into the page's main frame, once per document."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())


def violations(page: Page, disable: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now (every impact), once it has loaded: a
    page reached by a click can be read mid-load, its stylesheets not all applied (a
    session 31 run: the dark theme's header text on a white background, a contrast
    violation that the loaded page does not have)."""
    page.wait_for_load_state("load")
    inject(page)
    options = dict(RUN_OPTIONS)
    if disable:
        options["rules"] = {rule: {"enabled": False} for rule in disable}
    result = page.evaluate("(options) => window.axe.run(document, options)", options)
    return list(result["violations"])


def describe(found: list[dict[str, Any]]) -> str:
    """A readable account of axe's violations, one block per rule."""
    lines: list[str] = []
    for violation in found:
        lines.append(
            f"[{violation.get('impact') or 'unknown'}] {violation['id']}: {violation['help']}"
            f" ({violation['helpUrl']})"
        )
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node.get("target", []))
            lines.append(f"    at {target}")
            lines.append(f"       {node.get('html', '').strip()[:300]}")
            summary = (node.get("failureSummary") or "").strip().replace("\n", "\n       ")
            if summary:
                lines.append(f"       {summary}")
    return "\n".join(lines)


def assert_accessible(page: Page, label: str, disable: tuple[str, ...] = ()) -> None:
    """Fail, listing each violation, unless axe finds none on the page.

    `label` names the page and state (e.g. "game as player, dark, 390") in the message.
    """
    found = violations(page, disable)
    if found:
        count = sum(len(violation["nodes"]) for violation in found)
        raise AssertionError(
            f"axe found {len(found)} violation(s) on {count} node(s) on {label} "
            f"({page.url}):\n{describe(found)}"
        )
