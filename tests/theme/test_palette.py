"""The palette is in static/css/theme.css only: both light blocks (the member's choice and
the system's preference) hold the same values, each theme defines every colour name the
stylesheets use, and no other stylesheet writes a colour of its own."""

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\brgba?\((?!var\()")


def blocks():
    text = (CSS / "theme.css").read_text()
    found = re.findall(r"(:root[^{]*)\{([^{}]*)\}", text)
    return {selector.strip(): dict(re.findall(r"(--[\w-]+):\s*([^;]+);", body))
            for selector, body in found}


def test_both_light_blocks_are_identical_and_complete():
    b = blocks()
    dark = b[":root"]
    chosen = b[':root[data-theme="light"]']
    system = b[':root:not([data-theme="dark"])']
    assert chosen == system
    assert set(chosen) == set(dark)


def test_the_stylesheets_use_only_names_the_palette_defines():
    sheets = [s for s in CSS.glob("*.css") if s.name != "theme.css"]
    # sizes and layout values the stylesheets set for themselves (--n, --cell, ...)
    local = {name for s in sheets for name in re.findall(r"(--[\w-]+)\s*:", s.read_text())}
    scripts = CSS.parent / "js"
    local |= {name for js in scripts.rglob("*.js")
              for name in re.findall(r'setProperty\("(--[\w-]+)"', js.read_text())}
    defined = set(blocks()[":root"])
    for sheet in sheets:
        text = sheet.read_text()
        assert not COLOUR.search(text), f"{sheet.name}: {COLOUR.search(text).group()}"
        used = set(re.findall(r"var\((--[\w-]+)\)", text))  # those without a fallback
        assert used <= defined | local, f"{sheet.name}: {sorted(used - defined - local)}"


def test_the_four_pieces_differ_in_both_themes():
    """Blue, Orange, an Empty Can's ring and the MagLock: four different colours per theme."""
    for theme in (blocks()[":root"], blocks()[':root[data-theme="light"]']):
        colours = [theme[name] for name in ("--blue", "--orange", "--empty-ring", "--lock")]
        assert len(set(colours)) == 4
