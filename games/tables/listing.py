"""What the lobby and a challenge show of a table (docs/tables.md): its seats and who sits
there (with a member's title: "BOT", games.titles), its options in words, its host's rating,
the lobby's row (`seek_info`), and a challenge as its members' frames and the API give it
(`challenge_info`, with lichess's reasons to decline one, `DECLINE_REASONS`). Read-only:
the tables' life (making, joining, leaving, starting, declining) is games.tables.lobby."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games import titles
from games.frames import shown_ratings
from games.kinds import GameKind, all_kinds
from games.models import Challenge, TableSeat
from games.timing import clocks

RANDOM = "random"
# Why the invited member declines a challenge: lichess's reasons (its keys and words), but
# `standard` (the site has no variants; `variant` says the game).
DECLINE_REASONS = {
    "generic": "I'm not accepting challenges at the moment.",
    "later": "This is not the right time for me, please ask again later.",
    "tooFast": "This time control is too fast for me, please challenge again with a slower "
               "game.",
    "tooSlow": "This time control is too slow for me, please challenge again with a faster "
               "game.",
    "timeControl": "I'm not accepting challenges with this time control.",
    "rated": "Please send me a rated challenge instead.",
    "casual": "Please send me a casual challenge instead.",
    "variant": "I'm not willing to play this game right now.",
    "noBot": "I'm not accepting challenges from bots.",
    "onlyBot": "I'm only accepting challenges from bots.",
}


def holder_name(row: TableSeat, kind: GameKind) -> str:
    if row.bot_level:
        return kind.bot_name(row.bot_level)
    if row.user is not None:
        return row.user.get_username()
    return "Guest"


def holder_of(row: TableSeat) -> str:
    return "bot" if row.bot_level else "member" if row.user_id is not None else "guest"


def seat_label(challenge: Challenge, index: int) -> str:
    """A table seat's name: the kind's seat when the seats are placed, else "Seat 2"."""
    return challenge.kind.seat_label(index) if challenge.placed else f"Seat {index + 1}"


def free_seats(challenge: Challenge) -> list[int]:
    taken = {row.index for row in challenge.seat_rows}
    return [i for i in range(challenge.seat_count) if i not in taken]


def table_seats(challenge: Challenge) -> list[dict[str, Any]]:
    """Every seat of the table in order: who sits there (None: free), with a member's
    title ("BOT": games.titles)."""
    kind = challenge.kind
    rows = {row.index: row for row in challenge.seat_rows}
    known = titles.titles_of(row.user_id for row in challenge.seat_rows)
    out = []
    for index in range(challenge.seat_count):
        row = rows.get(index)
        out.append({
            "index": index, "label": seat_label(challenge, index),
            "key": kind.seat_key(index) if challenge.placed else "",
            "name": holder_name(row, kind) if row else None,
            "title": known.get(row.user_id) if row and row.user_id is not None else None,
            "holder": holder_of(row) if row else None,
            "bot_level": row.bot_level if row else None,
            "host": bool(row and row.user_id == challenge.creator_id),
        })
    return out


def describe_options(kind: GameKind, options: dict[str, Any]) -> str:
    """The kind's words for the options ("6×6"), else each option field's label."""
    words = kind.describe_options(options)
    if words:
        return words
    parts = []
    for field in kind.option_fields:
        value = options.get(field.name)
        label = next((text for choice, text in field.choices if choice == value), value)
        parts.append(f"{field.label} {label}")
    return ", ".join(parts)


def describe_table(kind: GameKind, options: dict[str, Any], seat_count: int) -> str:
    """A table's words in lists: its options, then its player count when the kind is
    played by several counts ("3 players"; Cargo Connect's tables say "6×6" alone)."""
    parts = [describe_options(kind, options)]
    if len(kind.seat_counts) > 1:
        parts.append(f"{seat_count} players")
    return " · ".join(p for p in parts if p)


def creator_ratings(challenges: list[Challenge]) -> dict[tuple[int, str], int]:
    """Each table's host's online rating of the table's game type, by (member, game type):
    one query per game type listed (`games.frames.shown_ratings`; a member without a row is at the
    start)."""
    hosts: dict[str, set[int]] = {}
    for challenge in challenges:
        hosts.setdefault(challenge.game_type, set()).add(challenge.creator_id)
    out = {}
    for game_type, ids in hosts.items():
        rated = shown_ratings.shown().host_ratings(sorted(ids), game_type)
        out.update({(user_id, game_type): rating for user_id, rating in rated.items()})
    return out


def seek_info(challenge: Challenge, ratings: dict[tuple[int, str], int] | None = None
              ) -> dict[str, Any]:
    """A table as the lobby lists it; `ratings` from `creator_ratings` when several are
    listed at once (else the host's rating is read here)."""
    if ratings is None:
        ratings = creator_ratings([challenge])
    kind = challenge.kind
    free = free_seats(challenge)
    seats = table_seats(challenge)
    kw = {"challenge_id": challenge.id}
    return {
        "id": challenge.id,
        "by": challenge.creator.get_username(),
        "by_title": titles.title_of(challenge.creator_id),  # "BOT" (games.titles) or None
        "rating": ratings[(challenge.creator_id, challenge.game_type)],
        "game_type": challenge.game_type,
        "size": challenge.size,
        "options": describe_table(kind, challenge.options, challenge.seat_count),
        "rules": challenge.rules,
        "color": RANDOM if challenge.seat is None else kind.seat_key(challenge.seat),
        # who plays what, from each side: the creator's seat and the next person's
        "creator_plays": "random" if challenge.seat is None
        else kind.seat_label(challenge.seat),
        "taker_plays": "random" if challenge.seat is None or not free
        else kind.seat_label(free[0]),
        "time_control": challenge.time_control,
        "time_control_label": clocks.label(challenge.time_control),
        "rated": challenge.rated,
        "url": reverse("games:challenge", kwargs=kw),
        "accept_url": reverse("games:accept", kwargs=kw),
        "cancel_url": reverse("games:cancel", kwargs=kw),
        # the table (docs/tables.md)
        "game_name": kind.name,
        "host": challenge.creator.get_username(),
        "seat_count": challenge.seat_count,
        "seats": seats,
        "free": len(free),
        "people": [s["name"] for s in seats if s["holder"] in ("member", "guest")],
        "placed": challenge.placed,
        "guests": not challenge.rated,
        "leave_url": reverse("games:leave", kwargs=kw),
        "start_url": reverse("games:start", kwargs=kw),
    }


def challenge_info(challenge: Challenge) -> dict[str, Any]:
    """A challenge (any table) as its members' frames and the API give it: who made it and
    for whom, the game, its options and clock, its seats, what became of it."""
    kind = challenge.kind
    creator = challenge.creator
    invited = challenge.invited
    known = titles.titles_of([challenge.creator_id, challenge.invited_id])
    rating = creator_ratings([challenge])[(challenge.creator_id, challenge.game_type)]
    return {
        "id": challenge.id,
        "url": reverse("games:challenge", kwargs={"challenge_id": challenge.id}),
        "status": challenge.status,
        "game": challenge.game_type,
        "game_name": kind.name,
        "options": dict(challenge.options),
        "description": describe_table(kind, challenge.options, challenge.seat_count),
        "rated": challenge.rated,
        "time_control": challenge.time_control,
        "time_control_label": clocks.label(challenge.time_control),
        "seat_count": challenge.seat_count,
        "color": RANDOM if challenge.seat is None else kind.seat_key(challenge.seat),
        "public": challenge.public,
        "challenger": {"username": creator.get_username(),
                       "title": known.get(challenge.creator_id), "rating": rating},
        "dest": None if invited is None else {
            "username": invited.get_username(), "title": known.get(invited.pk)},
        "seats": table_seats(challenge),
        "free": len(free_seats(challenge)),
        "decline_reason": challenge.decline_reason or None,
        "game_id": challenge.game_id,
    }


def with_seats(queryset: Any) -> Any:
    return queryset.select_related("creator").prefetch_related("table_seats__user")


def open_seeks() -> list[dict[str, Any]]:
    """The open public tables of the kinds the lobby offers (a kind no longer registered
    or not offered lists none)."""
    offered = [kind.key for kind in all_kinds() if kind.in_lobby]
    seeks = Challenge.objects.filter(public=True, status=Challenge.Status.OPEN,
                                     game_type__in=offered)
    listed = list(with_seats(seeks)[:100])
    ratings = creator_ratings(listed)
    return [seek_info(c, ratings) for c in listed]


def my_challenges(user: Any) -> list[Challenge]:
    if not user.is_authenticated:
        return []
    return list(with_seats(Challenge.objects.filter(creator=user,
                                                     status=Challenge.Status.OPEN)))
