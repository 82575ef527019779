"""How to play, one page per game from the registry: `/how-to-play/<key>` draws the kind's
`howto_template` with what the kind's `howto()` gives (its worked examples), and the
lobby's form to play its bots at a table where the kind plays them there
(`games.tables.forms.bots_form`). `/how-to-play` is the default game's (DEFAULT_GAME_KIND). A kind
without a page, or a key the site does not have, is a 404 that says so."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.kinds import GameKind, KindError, default_kind, get_kind
from games.tables.forms import bots_form, plays_bots_at_tables


def _kind(game: str | None) -> GameKind:
    if game is None:
        return default_kind()
    try:
        return get_kind(game)
    except KindError:
        raise Http404(f"no game {game!r}") from None


def how_to_play(request: HttpRequest, game: str | None = None) -> HttpResponse:
    kind = _kind(game)
    if not kind.howto_template:
        raise Http404(f"{kind.name} has no How to play page")
    form = bots_form(kind, request.user.is_authenticated) if plays_bots_at_tables(kind) \
        else None
    return render(request, kind.howto_template, {**kind.howto(), "kind": kind,
                                                 "bots_form": form})
