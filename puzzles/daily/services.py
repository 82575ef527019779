"""The Daily Challenge's services: starting today's (or a past day's) game, ranked or
practice; the lazy checks (the day ended, the rules or CargoBot changed); voids with their
log; what the pages show (a player's state per difficulty, today's players, the share text).

Ranked games: a member's first game of the day at a difficulty, created in one transaction
with its `DailyGame(ranked=True)` row; the database's constraint refuses a second one, so
two devices starting at once get the same ranked game. Later games are practice, and so are
guests' games and every game of a past day (the archive).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import logging
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from games.actors import Actor
from games.frames.protocol import Code, GameError
from games.kinds import get_kind
from games.models import Game
from rankings import monthly as boards

from . import clock, live
from .models import DailyGame, DailyVoid, Difficulty

log = logging.getLogger(__name__)

DIFFICULTIES = [d.value for d in Difficulty]


class DailyError(Exception):
    """A request the Daily Challenge refuses (nothing changed); the message says why."""


# --- starting ---------------------------------------------------------------------------


def _check_difficulty(difficulty: str) -> str:
    if difficulty not in DIFFICULTIES:
        raise DailyError(f"difficulty must be {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    return difficulty


def ranked_of(user_id: int, day: dt.date, difficulty: str) -> DailyGame | None:
    """The member's ranked game of that day and difficulty that is not voided."""
    return (DailyGame.objects.select_related("game")
            .filter(user_id=user_id, day=day, difficulty=difficulty, ranked=True,
                    voided=False).first())


def start(actor: Actor | None, difficulty: str, day: dt.date | None = None) -> Game:
    """The game to play now: a member's ranked game of today at `difficulty` (made now if
    there is none, continued if it is in progress), else a new practice game. Practice at a
    difficulty opens once that day's ranked game there is over (no scouting CargoBot's
    replies mid-game). A past day is practice only; a future day is refused."""
    _check_difficulty(difficulty)
    if actor is None or actor.kind == "bot":
        raise DailyError("playing needs a member or a guest with a browser session")
    today = clock.today()
    day = day or today
    if day > today:
        raise DailyError("that day's challenge has not started yet")
    if actor.kind == "member" and day == today:
        assert actor.user_id is not None
        game = _ranked(actor, day, difficulty)
        if game is not None:
            return game
    return _create(actor, day, difficulty, ranked=False)


def _ranked(actor: Actor, day: dt.date, difficulty: str) -> Game | None:
    """The ranked game to continue or a new one; None if today's ranked game is over."""
    assert actor.user_id is not None
    for _ in range(3):  # a voided game frees the place: try again
        existing = ranked_of(actor.user_id, day, difficulty)
        if existing is not None:
            if refresh(existing.game):
                continue
            return existing.game if not existing.game.is_over else None
        try:
            return _create(actor, day, difficulty, ranked=True)
        except IntegrityError:  # another device made it first: continue that one
            continue
    raise DailyError("could not start the ranked game; try again")


def _create(actor: Actor, day: dt.date, difficulty: str, *, ranked: bool) -> Game:
    with transaction.atomic():
        game = live.create(actor, difficulty, clock.size_of(day), clock.daily_seed(day))
        DailyGame.objects.create(game=game, day=day, difficulty=difficulty, ranked=ranked,
                                 user_id=actor.user_id, guest_key=actor.guest_key)
    return game


# --- the lazy checks and the end of the day ------------------------------------------------


def outdated(game: Game) -> str | None:
    """Why a daily game can no longer continue (its rules or CargoBot changed), or None."""
    kind = get_kind(game.game_type)
    if game.rules != kind.rules_version:
        return f"the rules changed from {game.rules} to {kind.rules_version}"
    if game.bot_version != kind.bot_version:
        return f"CargoBot changed from {game.bot_version} to {kind.bot_version}"
    return None


def refresh(game: Game) -> bool:
    """The checks run when a daily game is opened or a decision arrives: one whose rules or
    CargoBot changed is voided; a ranked game whose day has ended is resigned (once). True
    if the game changed."""
    if game.is_over:
        return False
    why = outdated(game)
    if why is not None:
        return void(game.id, f"{why} while it was in progress", source=DailyVoid.Source.DETECTED)
    daily = DailyGame.objects.filter(game_id=game.id).first()
    if daily is not None and daily.ranked and clock.is_over(daily.day):
        return end_of_day(game.id)
    return False


def end_of_day(game_id: str) -> bool:
    """Resign a ranked game whose day has ended; False if it had already ended (so the beat
    task and the lazy check together resign it once)."""
    try:
        live.resign_for_day(game_id)
    except GameError as refused:
        if refused.error in (Code.GAME_OVER, Code.NOT_FOUND):
            return False
        raise
    log.info("resigned daily game %s at the end of its day", game_id)
    return True


def resign_expired(moment: dt.datetime | None = None) -> list[str]:
    """The beat task's body: resign every ranked game still running after its day. Safe to
    run as often as wanted (a game resigns once) and across daylight-saving changes (the day
    is compared as a Pacific date)."""
    today = clock.day_of(moment or clock.now())
    due = (DailyGame.objects.filter(ranked=True, voided=False, day__lt=today,
                                    game__status=Game.Status.ACTIVE)
           .order_by("day", "id").values_list("game_id", flat=True))
    return [game_id for game_id in list(due[:1000]) if end_of_day(game_id)]


# --- voids ------------------------------------------------------------------------------

_voider: contextvars.ContextVar[tuple[int | None, str] | None] = contextvars.ContextVar(
    "daily_voider", default=None)


@contextmanager
def voiding_as(user_id: int | None, source: str) -> Any:
    """Who voids, for the log written by the finish handler (a void from elsewhere, like
    the games admin's action, is logged as the site's)."""
    token = _voider.set((user_id, source))
    try:
        yield
    finally:
        _voider.reset(token)


def voider() -> tuple[int | None, str]:
    return _voider.get() or (None, DailyVoid.Source.SITE)


def void(game_id: str, reason: str, *, source: str, by: int | None = None) -> bool:
    """Void a daily game, logged with who and why; False if it was already voided."""
    with voiding_as(by, source):
        try:
            live.void(game_id, reason)
        except GameError as refused:
            if refused.error == Code.GONE:
                return False
            raise
    log.warning("voided daily game %s (%s): %s", game_id, source, reason)
    return True


# Why the admin's action left a selected game alone, in the order its message lists them.
SKIPPED_ALREADY = "already voided"
SKIPPED_PRACTICE = "practice (not ranked: nothing to void)"
SKIPPED_OVER = "no longer in progress (finished or aborted: their results stand)"
SKIPPED_CURRENT = "still on today's rules and CargoBot (nothing changed: they may go on)"
SKIPPED = (SKIPPED_ALREADY, SKIPPED_PRACTICE, SKIPPED_OVER, SKIPPED_CURRENT)


@dataclass
class VoidReport:
    """What the admin's action did with the games selected: how many it voided and, for
    each reason it left some alone (`SKIPPED`), how many."""

    selected: int = 0
    voided: int = 0
    skipped: dict[str, int] | None = None

    def skip(self, why: str) -> None:
        self.skipped = self.skipped or {}
        self.skipped[why] = self.skipped.get(why, 0) + 1

    def message(self) -> str:
        """The admin's answer: what was voided and why the rest was not."""
        words = f"Voided {self.voided} of the {self.selected} selected game(s)"
        if self.voided:
            words += "; their players may start a new ranked game today"
        skipped = self.skipped or {}
        reasons = [f"{skipped[why]} {why}" for why in SKIPPED if skipped.get(why)]
        if reasons:
            words += ". Not voided: " + "; ".join(reasons)
        return words + "."


def void_outdated(games: Any, by: int | None) -> VoidReport:
    """The admin's action: void the given in-progress ranked games whose rules or CargoBot
    differ from the site's; the report says why each other game was left alone."""
    report = VoidReport()
    for daily in games.select_related("game").order_by("pk"):
        report.selected += 1
        if daily.voided or daily.game.status == Game.Status.VOIDED:
            report.skip(SKIPPED_ALREADY)
        elif not daily.ranked:
            report.skip(SKIPPED_PRACTICE)
        elif daily.game.status != Game.Status.ACTIVE:
            report.skip(SKIPPED_OVER)
        elif (why := outdated(daily.game)) is None:
            report.skip(SKIPPED_CURRENT)
        elif void(daily.game_id, f"{why} (admin action)", source=DailyVoid.Source.ADMIN,
                  by=by):
            report.voided += 1
        else:  # voided meanwhile, by another request
            report.skip(SKIPPED_ALREADY)
    return report


def resign_from_page(actor: Actor | None, game_id: str) -> None:
    """Resigning from the Puzzles page: the player's own daily game only."""
    daily = DailyGame.objects.filter(game_id=game_id).first()
    if daily is None or actor is None:
        raise DailyError("no such Daily Challenge game of yours")
    if not (actor.user_id is not None and daily.user_id == actor.user_id
            or actor.guest_key is not None and daily.guest_key == actor.guest_key):
        raise DailyError("no such Daily Challenge game of yours")
    try:
        live.resign(game_id, actor)
    except GameError as refused:
        raise DailyError(refused.message) from None


# --- what the pages show -----------------------------------------------------------------


@dataclass
class Standing:
    """A player's state at one difficulty of one day."""

    difficulty: str
    label: str
    state: str  # "not_started", "in_progress", "finished", "voided"
    game_id: str | None = None
    shown: str | None = None  # the scaled result, `42 (+7)`
    score: int | None = None
    bot_score: int | None = None
    outcome: str = ""
    share: str = ""
    practice_games: int = 0


def standings(actor: Actor | None, day: dt.date, link: str = "") -> list[Standing]:
    """For each difficulty: the member's ranked game of that day (or, for a guest, their
    latest practice game) and how it stands; `link`, the day's page as an absolute URL,
    ends the share text."""
    mine = DailyGame.objects.none()
    if actor is not None and actor.user_id is not None:
        mine = DailyGame.objects.filter(user_id=actor.user_id, day=day)
    elif actor is not None and actor.guest_key is not None:
        mine = DailyGame.objects.filter(guest_key=actor.guest_key, day=day)
    rows = list(mine.select_related("game").prefetch_related("game__seats")
                .order_by("-created_at"))
    out = []
    for value, label in Difficulty.choices:
        here = [r for r in rows if r.difficulty == value]
        ranked = next((r for r in here if r.ranked and not r.voided), None)
        main = ranked if actor is not None and actor.kind == "member" else (
            here[0] if here else None)
        standing = Standing(value, str(label), "not_started",
                            practice_games=sum(1 for r in here if not r.ranked))
        if main is not None:
            standing.game_id = main.game_id
            standing.state = _state(main.game)
            if main.game.is_over and main.game.status != Game.Status.VOIDED:
                _describe_result(standing, main, link)
        out.append(standing)
    return out


def _state(game: Game) -> str:
    if game.status == Game.Status.VOIDED:
        return "voided"
    return "in_progress" if game.status == Game.Status.ACTIVE else "finished"


def _describe_result(standing: Standing, daily: DailyGame, link: str = "") -> None:
    game = daily.game
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    me, bot = seats[live.PLAYER_SEAT], seats[1 - live.PLAYER_SEAT]
    if me.score is None or bot.score is None:
        return
    size = game.size or clock.size_of(daily.day)
    standing.score, standing.bot_score, standing.outcome = me.score, bot.score, me.outcome
    standing.shown = boards.shown(boards.scaled(me.score, size),
                                  boards.scaled(me.score - bot.score, size))
    if daily.ranked:
        standing.share = share_text(daily, standing.shown, link)


def unloaded_shapes(game: Game) -> str:
    """The shapes the player completed, as letters in shelf order (no columns, no cards)."""
    kind = get_kind(game.game_type)
    view = kind.resume(game.position, list(game.tokens), []).view(None)
    shelf = view.get("shelves", {}).get(kind.seat_key(live.PLAYER_SEAT), {})
    return " ".join(shape for shape, chit in shelf.items() if chit != "rust")


RESULT_WORDS = {"win": "Beat CargoBot", "loss": "Lost to CargoBot", "draw": "Drew with CargoBot"}


def share_text(daily: DailyGame, shown: str, link: str = "") -> str:
    """The spoiler-free text to copy after a ranked game: the challenge, the result in
    words and as the boards show it, the shapes completed, and a link back to the day
    (issue #27: it had no link and no result in words). No column, cell or card."""
    size = clock.size_of(daily.day)
    shapes = unloaded_shapes(daily.game) or "none"
    label = Difficulty(daily.difficulty).label
    me = next((s for s in daily.game.seat_list if s.index == live.PLAYER_SEAT), None)
    result = RESULT_WORDS.get(me.outcome or "", "") if me is not None else ""
    if result and me is not None and me.score is not None:
        bot = next(s for s in daily.game.seat_list if s.index != live.PLAYER_SEAT)
        result += f" {me.score} to {bot.score}"
    lines = [f"Cargo Connect Daily Challenge {daily.day.isoformat()} · {label} · "
             f"{size}×{size}", f"{result}: {shown}" if result else shown,
             f"Unloaded: {shapes}"]
    if link:
        lines.append(link)
    return "\n".join(lines)


def players_on(day: dt.date) -> int:
    """How many people (members and guests) have played that day's challenge."""
    counts = DailyGame.objects.filter(day=day).aggregate(
        members=Count("user", distinct=True),
        guests=Count("guest_key", distinct=True, filter=Q(user__isnull=True)))
    return int(counts["members"] or 0) + int(counts["guests"] or 0)


def can_see(game: Game, actor: Actor | None, moment: dt.datetime | None = None) -> str | None:
    """The spoiler shield: while a day lasts, only its players see its daily games."""
    daily = DailyGame.objects.filter(game_id=game.id).only("day").first()
    if daily is None or clock.is_over(daily.day, moment):
        return None
    if actor is not None and any(actor.holds(seat) for seat in game.seat_list):
        return None
    return ("This is a Daily Challenge game of today. Other players' games of the day can "
            "be watched, replayed and downloaded once the day ends (midnight Pacific).")
