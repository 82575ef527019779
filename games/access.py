"""Checks other apps register on access to a game, so that games never imports them (like
the finish seam's handlers in `games.results`). Two kinds, each registered for one game
mode (`Game.mode`):

- `@on_open(name, mode=...)`: `check(game) -> bool`, run when a game of that mode is opened
  (the game page, the socket) or a decision arrives for it (a turn or a resign, by socket or
  HTTP), before it is used. It may end the game through the games app's public functions
  (the Daily Challenge resigns a game whose day has ended and voids one whose rules or
  CargoBot changed). It returns True when it changed the game, so the caller loads it again.
- `@viewer_check(name, mode=...)`: `check(game, actor) -> str | None`, asked before anyone
  watches, replays or downloads a game of that mode: None lets the viewer see it, a string
  is the reason they may not (yet). The game page, the socket, the events, the replay and
  the record ask it (the Daily Challenge's spoiler shield).

- `@heading(name, mode=...)`: `describe(game) -> dict | None`, what the game page's header
  says a game of that mode is: `{"title": ..., "facts": [...]}` (the Daily Challenge: its
  date, difficulty, ranked or practice). Without one the games app words it
  (`games.views.pages.heading_of`).
- `@extras(name, mode=...)`: `describe(game) -> dict | None`, what another app adds beside
  a game of that mode's seats: `{"marks": [{"seat", "label", "title"}], "actions":
  [{"seat", "key", "label", "hint", "url", "before_first_decision"}]}` (an arena's berserk
  mark and button, docs/tournaments-arena.md). Everything in it is public: every viewer's
  state carries it (`games.frames.states.extras_of`, which drops an action that is no
  longer legal: the game over, or its seat decided when the action is only for before
  that). Read once per loaded game (`extras_for`: a warm game's turns reuse it), so what
  it says may change only where the game's row is written under its lock (a new
  revision: every warm copy is dropped), as `games.services.cut_clock` does.
This module imports nothing of live play, so apps may register from their
`AppConfig.ready()`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.actors import Actor
from games.models import Game

OpenCheck = Callable[[Game], bool]
ViewerCheck = Callable[[Game, Actor | None], str | None]

_OPEN: dict[str, tuple[str, OpenCheck]] = {}
_VIEWER: dict[str, tuple[str, ViewerCheck]] = {}
Heading = Callable[[Game], "dict[str, Any] | None"]
_HEADING: dict[str, tuple[str, Heading]] = {}
Extras = Callable[[Game], "dict[str, Any] | None"]
_EXTRAS: dict[str, tuple[str, Extras]] = {}


def on_open(name: str, *, mode: str) -> Callable[[OpenCheck], OpenCheck]:
    """Decorator: run `check(game)` whenever a game of `mode` is opened or a decision
    arrives for it. Registering a name again replaces the earlier check."""

    def register(check: OpenCheck) -> OpenCheck:
        _OPEN[name] = (mode, check)
        return check

    return register


def viewer_check(name: str, *, mode: str) -> Callable[[ViewerCheck], ViewerCheck]:
    """Decorator: ask `check(game, actor)` before a viewer sees a game of `mode`."""

    def register(check: ViewerCheck) -> ViewerCheck:
        _VIEWER[name] = (mode, check)
        return check

    return register


def heading(name: str, *, mode: str) -> Callable[[Heading], Heading]:
    """Decorator: `describe(game)` words the header of a game of `mode`."""

    def register(describe: Heading) -> Heading:
        _HEADING[name] = (mode, describe)
        return describe

    return register


def extras(name: str, *, mode: str) -> Callable[[Extras], Extras]:
    """Decorator: `describe(game)` gives the marks and actions beside a game of `mode`'s
    seats (None: nothing)."""

    def register(describe: Extras) -> Extras:
        _EXTRAS[name] = (mode, describe)
        return describe

    return register


def extras_for(game: Game) -> dict[str, Any] | None:
    """The marks and actions every registered `extras` of the game's mode gives, in name
    order, joined (None when none describes the game: its state has no `extras`); asked
    once per loaded game."""
    cached = game.__dict__.get("_extras", False)
    if cached is not False:
        return cached
    joined: dict[str, Any] | None = None
    for name in sorted(_EXTRAS):
        mode, describe = _EXTRAS[name]
        said = describe(game) if mode == game.mode else None
        if said is not None:  # a game that has extras always says so, even when empty
            joined = joined or {"marks": [], "actions": []}
            joined["marks"].extend(said.get("marks", []))
            joined["actions"].extend(said.get("actions", []))
    game.__dict__["_extras"] = joined
    return joined


def heading_for(game: Game) -> dict[str, Any] | None:
    """The header a registered `heading` gives the game, or None."""
    for name in sorted(_HEADING):
        mode, describe = _HEADING[name]
        if mode == game.mode:
            said = describe(game)
            if said:
                return said
    return None


def unregister(name: str) -> None:
    _OPEN.pop(name, None)
    _VIEWER.pop(name, None)
    _HEADING.pop(name, None)
    _EXTRAS.pop(name, None)


def has_open_checks(mode: str) -> bool:
    return any(m == mode for m, _ in _OPEN.values())


def run_open_checks(game: Game) -> bool:
    """Run the open checks of the game's mode, in name order; True if one changed it."""
    changed = False
    for name in sorted(_OPEN):
        mode, check = _OPEN[name]
        if mode == game.mode:
            changed = check(game) or changed
    return changed


def run_open_checks_for(game_id: str) -> bool:
    """The same, by id, for paths that have not loaded the game (a turn over HTTP): one
    query for the mode, and the game is loaded only when that mode has checks."""
    if not _OPEN:
        return False
    mode = Game.objects.filter(pk=game_id).values_list("mode", flat=True).first()
    if mode is None or not has_open_checks(mode):
        return False
    from games.turns.store import get_game

    return run_open_checks(get_game(game_id))


def hidden_reason(game: Game, actor: Actor | None) -> str | None:
    """Why `actor` may not see `game` now, or None when they may."""
    for name in sorted(_VIEWER):
        mode, check = _VIEWER[name]
        if mode == game.mode:
            reason = check(game, actor)
            if reason:
                return reason
    return None
