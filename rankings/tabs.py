"""The rankings page's tabs: a list that apps extend. Each `Tab` names its key (the
`?tab=` value), its label, its order on the page, the template of its panel and a function
building that panel's context for a request; only the selected tab's function runs.

A tab names the stylesheets its panel needs (`stylesheets`, static paths); the page loads
the selected tab's beside its own (profile.css, which styles the tabs and `table.board`).

The two rating tabs (rated online, vs CargoBot), each with a switch between game types
(`?game=`, the default game without one: Cargo Connect's Elo and vs CargoBot boards; the
old `?type=` is redirected by rankings.views), and the Daily
Challenge's monthly boards (rankings.daily_boards) are registered here; another app adds
its own from its `AppConfig.ready()`:

    from rankings.tabs import Tab, register_tab
    register_tab(Tab("weekly", "Weekly", 40, "puzzles/_weekly_board.html", weekly))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest
from django.urls import reverse

from . import boards, daily_boards


@dataclass(frozen=True)
class Tab:
    key: str
    label: str
    order: int
    template: str
    context: Callable[[HttpRequest], dict[str, Any]]
    stylesheets: tuple[str, ...] = ()


_TABS: dict[str, Tab] = {}


def register_tab(tab: Tab) -> Tab:
    """Add a tab (a key registered again replaces the earlier tab)."""
    _TABS[tab.key] = tab
    return tab


def unregister_tab(key: str) -> None:
    _TABS.pop(key, None)


def all_tabs() -> list[Tab]:
    return sorted(_TABS.values(), key=lambda t: (t.order, t.key))


def _viewer(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _game_type(request: HttpRequest, tab: str) -> tuple[str, list[dict[str, Any]]]:
    """The game type a rating tab shows (`?game=`, the default game without one) and the
    switch between the types (shown when there are several)."""
    types = boards.game_types()
    default = settings.DEFAULT_GAME_KIND
    chosen = request.GET.get("game") or default
    if chosen not in dict(types):
        raise Http404(f"no game type {chosen!r}")
    url = reverse("rankings:index")
    switch = [{"key": key, "name": name, "selected": key == chosen,
               "url": f"{url}?tab={tab}" + ("" if key == default
                                             else f"&game={key}")} for key, name in types]
    return chosen, switch


def _rating_tab(tab: str, make: Callable[..., boards.Board]
                ) -> Callable[[HttpRequest], dict[str, Any]]:
    def context(request: HttpRequest) -> dict[str, Any]:
        game_type, switch = _game_type(request, tab)
        return {"board": make(_viewer(request), game_type=game_type), "game_types": switch}
    return context


register_tab(Tab("elo", "Rated", 10, "rankings/_board.html", _rating_tab("elo", boards.elo_board)))
register_tab(Tab("bot", "vs CargoBot", 20, "rankings/_board.html",
                 _rating_tab("bot", boards.bot_board)))
register_tab(Tab("daily", "Daily Challenge", 30, "rankings/_daily_boards.html",
                 daily_boards.board_context, stylesheets=("css/daily.css",)))
