"""The site navigation. Each entry names a URL; an entry whose URL is not wired up yet is
left out, so a page appears in the nav as soon as its issue adds the route. For a signed-in
member, the header's "N waiting": how many of their games wait for them (games.tables.waiting,
one query, made only when a page's header asks for it)."""

from typing import Any

from django.db import DatabaseError
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

from games.tables.waiting import waiting_count

NAV_ITEMS = [
    ("Play", "games:index"),
    ("Puzzles", "puzzles:index"),
    ("Rankings", "rankings:index"),
    ("Tournaments", "tournaments:index"),
    ("How to play", "howto"),
]
USER_NAV_ITEMS = [
    ("Profile", "accounts:profile"),
]


def _resolved(items: list[tuple[str, str]]) -> list[dict[str, str]]:
    links = []
    for label, name in items:
        try:
            links.append({"label": label, "url": reverse(name)})
        except NoReverseMatch:
            continue
    return links


def navigation(request: HttpRequest) -> dict[str, Any]:
    return {"nav_links": _resolved(NAV_ITEMS), "user_nav_links": _resolved(USER_NAV_ITEMS)}


def waiting(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def count() -> int | None:  # the template calls it, once, when the header renders
        try:
            return waiting_count(user.pk)
        except DatabaseError:  # an error page while the database is down: no count
            return None

    return {"waiting_count": count}
