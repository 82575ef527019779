"""A member's title, shown before their name wherever the site shows it: "BOT" for a BOT
account (a program playing through the API, lichess's name and mark; issue #47,
docs/api.md, "BOT accounts"). The accounts app keeps the flag and registers itself when it
loads (`accounts.apps.AccountsConfig.ready` registers `accounts.bots`), so the platform and
the apps beside it ask here and never import an app built on the platform
(tests/platform/test_boundaries.py).

The names are for display (pages, lobby rows, the live protocol's holders): they may lag
an upgrade in another process by the keeper's cache's life. A rule that depends on the flag
(the API's doors, a tournament's entry, the site's play) asks `is_bot`, which reads the
database."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

BOT = "BOT"


class TitleKeeper(Protocol):
    def titles(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The titles of those of these members who have one, by member id."""

    def titles_by_name(self, usernames: Iterable[str]) -> dict[str, str]:
        """The same by username (as stored), for pages that list names."""

    def is_bot(self, user_id: int) -> bool:
        """Is this member a BOT account, read now from the database?"""


_keeper: list[TitleKeeper] = []


def kept_by(keeper: TitleKeeper) -> None:
    """Register the app that keeps titles (the last registration counts)."""
    _keeper[:] = [keeper]


def _kept() -> TitleKeeper | None:
    return _keeper[0] if _keeper else None


def titles_of(user_ids: Iterable[int | None]) -> dict[int, str]:
    """Titles by member id (members without one are left out); {} if no app keeps any."""
    keeper = _kept()
    ids = [i for i in user_ids if i is not None]
    return keeper.titles(ids) if keeper is not None and ids else {}


def title_of(user_id: int | None) -> str | None:
    return titles_of([user_id]).get(user_id) if user_id is not None else None


def titles_by_name(usernames: Iterable[str | None]) -> dict[str, str]:
    keeper = _kept()
    names = [n for n in usernames if n]
    return keeper.titles_by_name(names) if keeper is not None and names else {}


def is_bot(user_id: int | None) -> bool:
    """Is this member a BOT account (from the database: for rules, not display)?"""
    keeper = _kept()
    return keeper is not None and user_id is not None and keeper.is_bot(user_id)


def titled(name: str, title: str | None) -> str:
    """A name in plain text with its title before it ("BOT marta"), as lichess writes it."""
    return f"{title} {name}" if title else name
