"""How to play Cargo Connect: the page's worked examples (the kind's `howto`). Every board
is made by the rules engine, never drawn by hand: shapes are checked with
``engine.unloads`` and each card's "after" board is the engine's result of playing that card
on the "before" board."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine import CURRENT_RULES, Game, parse_position, unloads
from engine.describe import CARD_NAMES, describe, rows
from engine.geometry import SHAPE_CELLS, SHAPE_VALUE
from games.kinds.cargo_connect.bays import board

# A small shift in progress, Orange to move: the "before" board of every card example.
EXAMPLE_SIZE = 5
EXAMPLE_TURNS = "b c b c c d a b d".split()


def shape_board(shape: str) -> dict[str, Any]:
    """The shape in Blue cores on a 5×5 bay, propped up on Empty Cans where it would float;
    the engine confirms that these four cores are exactly that AppCon."""
    n = EXAMPLE_SIZE
    cells = {(x + 1, y) for x, y in SHAPE_CELLS[shape]}
    grid = [["." for _ in range(n)] for _ in range(n)]  # grid[y][x], y from the bottom
    for x, y in cells:
        grid[y][x] = "B"
        for below in range(y):
            if (x, below) not in cells:
                grid[below][x] = "x"
    bay_rows = ["".join(grid[y]) for y in reversed(range(n))]
    position = parse_position("/".join(bay_rows) + f" b SLPDR SLPDR - - - 0 0 0 {CURRENT_RULES}")
    found = unloads(position)
    names = found[0][0] if found else ""
    if [s for _, s in found] != [shape]:
        raise AssertionError(f"the engine does not see a lone {shape} in {bay_rows}: {found}")
    marked = {names[i:i + 2] for i in range(0, len(names), 2)}
    return board(bay_rows, marked, label=f"{shape}: four Blue cores {names}")


def _example_game() -> Game:
    game = Game.new(EXAMPLE_SIZE)
    for token in EXAMPLE_TURNS:
        game.play(token)
    return game


def _touched(events: list[dict[str, Any]]) -> set[str]:
    cells: set[str] = set()
    for event in events:
        if "cell" in event:
            cells.add(event["cell"])
        for move in event.get("moves", []):
            cells.add(move[-1])
        if event["type"] == "unload":
            cells.update(event["cells"][i:i + 2] for i in range(0, len(event["cells"]), 2))
    return cells


def card_example(token: str, title: str, text: str) -> dict[str, Any]:
    game = _example_game()
    before_rows = rows(game.position)
    events = game.play(token)
    marked_before: set[str] = set()
    for event in events:
        marked_before.update(event.get("destroyed", []))
        marked_before.update(event.get("cells", []) if event["type"] == "damage" else [])
        if event["type"] == "reroute":
            marked_before.add(event["cell"])
    lock = next((e["locked"] for e in events if e["type"] == "lockdown"), None)
    return {
        "token": token,
        "title": title,
        "text": text,
        "before": board(before_rows, marked_before, None, f"Before {token}"),
        "after": board(rows(game.position), _touched(events), lock, f"After {token}"),
    }


@cache
def examples() -> dict[str, Any]:
    shapes = [
        {"shape": s, "value": SHAPE_VALUE[s], "board": shape_board(s)} for s in "OTJLSZI"
    ]
    cards = [
        card_example("S>", CARD_NAMES["S"],
                     "Orange turns the whole bay a quarter turn to the right (S>; S< turns it "
                     "left). Every module then falls to the new bottom. A rotation also "
                     "releases the MagLock."),
        card_example("Lc", CARD_NAMES["L"],
                     "Orange MagLocks column c (Lc; a row is locked with its digit, L3). No "
                     "module can be dropped into it, and it cannot be purged or damaged, until "
                     "a rotation releases it or a lockdown moves it. Playing Lockdown on the "
                     "locked corridor releases it."),
        card_example("P1", CARD_NAMES["P"],
                     "Orange vents row 1 (P1): everything in it is removed and the modules "
                     "above fall one space. Purging a column (Pc) empties it."),
        card_example("Db2c2", CARD_NAMES["D"],
                     "Orange destroys two side-by-side modules, b2 and c2 (Db2c2), whoever "
                     "owns them, and the modules above fall into the gap."),
        card_example("Rb2", CARD_NAMES["R"],
                     "Orange takes over Blue's core at b2 (Rb2): it becomes an Orange core "
                     "and counts toward Orange's AppCons."),
    ]
    game = _example_game()
    unload_token = "e+" + next(
        cells for cells, shape in _option_unloads(game, "e")
    )
    unload = card_example(unload_token, "Unloading",
                          "Orange drops into column e, and the four Orange cores now form an "
                          "AppCon. Orange unloads them in the same turn: the cores are "
                          "removed and the four modules stay as Empty Cans (hollow rings).")
    unload["shape"] = next(shape for cells, shape in _option_unloads(game, "e"))
    return {"shapes": shapes, "cards": cards, "unload": unload}


def _option_unloads(game: Game, token: str) -> list[tuple[str, str]]:
    option = describe(game)["options"][token]
    return [(cells, shape) for cells, shape, _value in option["unloads"]]
