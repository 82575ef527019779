"""The Daily Challenge's registrations with the games app: the board handler on the
finish seam, and the access checks (the lazy end-of-day and version checks on opening a
game or a decision arriving; the spoiler shield)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.dateformat import format as format_date

from games.access import heading, on_open, viewer_check
from games.actors import Actor
from games.models import Game
from games.results import Ending, Stage, on_game_end
from rankings import monthly as boards

from . import clock, live, services
from .models import DailyGame, DailyVoid, Difficulty


@on_game_end("daily.boards", Stage.IN_TRANSACTION, order=30)
def record_board(ending: Ending) -> None:
    """A ranked result goes onto its board in the transaction that records it; a voided
    daily game leaves the board, frees its place for a new ranked game, and is logged."""
    game = ending.game
    if game.mode != Game.Mode.DAILY:
        return
    daily = DailyGame.objects.filter(game_id=game.id).first()
    if daily is None:
        return
    if ending.voided:
        DailyGame.objects.filter(pk=daily.pk).update(voided=True)
        boards.remove(game.id)
        by, source = services.voider()
        DailyVoid.objects.get_or_create(daily=daily, defaults={
            "by_id": by, "source": source, "reason": game.void_reason or "voided"})
        return
    if not daily.ranked or daily.user_id is None:
        return
    seats = game.seat_list
    me, bot = seats[live.PLAYER_SEAT], seats[1 - live.PLAYER_SEAT]
    assert me.score is not None and bot.score is not None and game.finished_at is not None
    boards.record(game_id=game.id, user_id=daily.user_id, day=daily.day,
                  difficulty=daily.difficulty, size=game.size or 8, score=me.score,
                  margin=me.score - bot.score, finished_at=game.finished_at)


@on_open("daily.checks", mode=Game.Mode.DAILY)
def check_on_open(game: Game) -> bool:
    return services.refresh(game)


@viewer_check("daily.spoiler_shield", mode=Game.Mode.DAILY)
def spoiler_shield(game: Game, actor: Actor | None) -> str | None:
    return services.can_see(game, actor)


@heading("daily.heading", mode=Game.Mode.DAILY)
def daily_heading(game: Game) -> dict[str, Any] | None:
    """The game page's header for a Daily Challenge game (issue #27: it said only "Shift
    <id>"): the challenge's day in words, its difficulty, ranked or practice, the bay's
    size, and what it counts for (the Daily Challenge's boards, never a rating)."""
    daily = DailyGame.objects.filter(game_id=game.id).first()
    if daily is None:
        return None
    size = game.size or clock.size_of(daily.day)
    counts = ("Ranked: counts on the day's and the month's boards, not on any rating"
              if daily.ranked else "Practice: counts nowhere")
    return {"title": f"Daily Challenge, {format_date(daily.day, 'l j F Y')}",
            "facts": [str(Difficulty(daily.difficulty).label), f"{size}×{size}", counts],
            "link": {"url": reverse("daily:day", args=[daily.day]),
                     "text": "The day's challenge"}}
