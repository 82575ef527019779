"""A member's public profile: name, when they joined, how many games the profile counts,
and every rating they have, per game type and rating system (the profile page's own
rows: `rankings.ratings.member_ratings`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from accounts.models import GameStats
from games import titles
from games.kinds import KindError, get_kind
from rankings.multiplayer import provisional
from rankings.ratings import member_ratings

from .. import examples
from ..errors import Code
from ..operations import endpoint
from ..schemas import ProfileOut
from ..scopes import Scope
from .shapes import absolute, iso, member

router = Router(tags=["Members"])


def _game_name(key: str) -> str:
    try:
        return get_kind(key).name
    except KindError:
        return key


@router.get("/user/{username}", operation_id="getUser", **endpoint(
    Scope.READ, "A member's public profile",
    "Name, when they joined, the games the profile counts, and every rating they hold "
    "(per game type and rating system).", ProfileOut, examples.PROFILE, Code.NOT_FOUND))
def profile(request: HttpRequest, username: str) -> dict[str, Any]:
    user = member(username)
    return {
        "username": user.get_username(),
        "title": titles.title_of(user.pk),
        "url": absolute(request, "accounts:user", username=user.get_username()),
        "joined": iso(user.date_joined),
        "games_counted": GameStats.objects.filter(user=user).count(),
        "ratings": [{"game": r.game_type, "game_name": _game_name(r.game_type),
                     "system": r.system, "rating": r.value, "games": r.games,
                     "provisional": r.sigma is not None and provisional(r.sigma)}
                    for r in member_ratings(user)],
    }
