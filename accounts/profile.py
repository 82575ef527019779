"""The profile page's queries: a member's ratings, record and recent games, read from the
games' seats and the rating history (never from live-play code)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q

from games.models import Game, Seat
from rankings.elo import START_RATING

RECENT = 20


def profile(username: str) -> dict[str, Any] | None:
    """The page's context, or None when there is no such member."""
    User = get_user_model()
    try:
        user = User.objects.select_related("player").get(username=username)
    except User.DoesNotExist:
        return None
    player = getattr(user, "player", None)
    # Daily Challenge games count only on its boards: not in the stats nor the lists.
    finished = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).exclude(
        game__mode=Game.Mode.DAILY)
    counts = finished.aggregate(
        played=Count("game", distinct=True),
        won=Count("game", filter=Q(outcome=Seat.Outcome.WIN), distinct=True),
        lost=Count("game", filter=Q(outcome=Seat.Outcome.LOSS), distinct=True),
    )
    mine = (Game.objects.filter(seats__user=user).exclude(mode=Game.Mode.DAILY).distinct()
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
            .order_by("-created_at"))
    recent = [_row(game, user) for game in mine[:RECENT]]
    bot_games = [
        {**_row(game, user), "change": getattr(game, "bot_rating_change", None)}
        for game in mine.filter(mode=Game.Mode.BOT).select_related("bot_rating_change")[:RECENT]
    ]
    return {
        "profile_user": user,
        "rating": player.rating if player else START_RATING,
        **counts,
        "recent": recent,
        "bot_rating": player.bot_rating if player else START_RATING,
        "bot_rated_games": player.bot_games if player else 0,
        "bot_games": bot_games,
    }


def _row(game: Game, user: Any) -> dict[str, Any]:
    """One game in a profile's lists: the member's side, the opponents, the outcome."""
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    game.set_seats(seats)
    kind = game.kind
    mine = next(s for s in seats if s.user_id == user.pk)
    opponents = [kind.bot_name(s.bot_level) if s.bot_level else
                 s.user.get_username() if s.user else "Guest" if s.guest_key else "?"
                 for s in seats if s.index != mine.index]
    if game.status == Game.Status.ACTIVE:
        outcome = "playing"
    elif game.status == Game.Status.VOIDED:
        outcome = "voided"
    else:
        outcome = {"win": "won", "loss": "lost", "draw": "draw"}.get(mine.outcome, "?")
    scores = "–".join(str(s.score) for s in seats) if game.status == Game.Status.FINISHED \
        else ""
    return {"game": game, "side": kind.seat_key(mine.index), "opponent": ", ".join(opponents),
            "outcome": outcome, "scores": scores, "size": kind.describe_options(game.options)}
