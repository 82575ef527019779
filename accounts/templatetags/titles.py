"""A member's title before their name on the site's pages (`games.titles`: "BOT" for a BOT
account; docs/api.md, "BOT accounts"): the one way every template marks one, whatever link
or markup the name itself has.

    {% load titles %}{{ row.username|title_mark }}<a href="…">{{ row.username }}</a>

gives `<span class="player-title" title="…">BOT</span> ` before a BOT account's name and
nothing before anyone else's; `{{ seat.title|title_badge }}` gives the same from a title
the view already has (the lobby's seats, `games.tables.lobby.seek_info`). The same words
are the live pages' (`static/js/live/dom.js`, `titleMark`, `titledName`) for names drawn by
script."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games import titles

register = template.Library()

WHAT = {titles.BOT: "A BOT account: a program that plays through the API"}


def mark(title: str) -> SafeString:
    return format_html('<span class="player-title" title="{}">{}</span> ',
                       WHAT.get(title, title), title)


@register.filter
def title_mark(username: object) -> SafeString | str:
    """The title's mark and a space before a member's name, or nothing."""
    if not isinstance(username, str) or not username:
        return ""
    title = titles.titles_by_name([username]).get(username)
    return mark(title) if title else ""


@register.filter
def title_badge(title: object) -> SafeString | str:
    """The mark of a title already known ("BOT"), or nothing for None."""
    return mark(title) if isinstance(title, str) and title else ""
