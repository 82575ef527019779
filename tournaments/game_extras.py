"""What an arena adds to its games' own page (docs/tournaments-arena.md, "Berserk on the
game page"): a berserk mark beside each player who berserked, and the berserk button for
each seat that may still take it, given to the games app through `games.access.extras`
(games never import tournaments). The games app sends it in every viewer's state: at the
page's load, on the socket's connect and with every frame's state, so the mark reaches
both players and the spectators live; it drops the button once the game is over or the
seat has decided (`before_first_decision`). Whether the arena allows berserk, whether the
time control can be berserked and who berserked already are this module's to say; the
service (`tournaments.arenas.berserk_game`) checks every rule again."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games import access
from games.models import Game
from games.timing import clocks
from tournaments.arena import berserk as berserk_rules
from tournaments.models import Pairing

MARK_TITLE = "Berserked: half the clock and no increment, one more point for a win"
BUTTON_HINT = ("Berserk: play on half your clock with no increment, for one more point "
               "if you win. Only before your first move.")


@access.extras("tournaments.berserk", mode=Game.Mode.ONLINE)
def berserk_extras(game: Game) -> dict[str, Any] | None:
    """An arena game's marks and buttons; None for any other game (a game without a
    clock is never an arena's: no query for it)."""
    if not game.clock:
        return None
    pairing = Pairing.objects.filter(game_id=game.pk).select_related("tournament").only(
        "blue_berserk", "orange_berserk", "tournament__berserk",
        "tournament__time_control").first()
    if pairing is None:
        return None
    taken = (pairing.blue_berserk, pairing.orange_berserk)
    marks = [{"seat": seat, "label": "Berserk", "title": MARK_TITLE}
             for seat in (0, 1) if taken[seat]]
    offered = pairing.tournament.berserk and berserkable(pairing.tournament.time_control)
    url = reverse("tournaments:berserk_game", kwargs={"game_id": game.pk})
    actions = [{"seat": seat, "key": "berserk", "label": "Berserk", "hint": BUTTON_HINT,
                "url": url, "before_first_decision": True}
               for seat in (0, 1) if offered and not taken[seat]]
    return {"marks": marks, "actions": actions}


def berserkable(time_control: str) -> bool:
    """Can a clock of this time control be berserked (a live clock with a base)?"""
    control = clocks.parse(time_control)
    if control is None or not control.live:
        return False
    return berserk_rules.berserkable(
        berserk_rules.LiveClock(control.base_ms, control.increment_ms))
