"""The Daily Challenge's pages (thin): today, a past day (the archive's practice), the
archive's month list, and the two forms (start or continue; resign)."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.actors import Actor, actor_of, ensure_session

from . import clock, services


def _day_context(request: HttpRequest, day: dt.date) -> dict[str, object]:
    actor = actor_of(request)
    size = clock.size_of(day)
    return {
        "day": day,
        "size": size,
        "standings": services.standings(
            actor, day, request.build_absolute_uri(reverse("daily:day", args=[day]))),
        "signed_in": request.user.is_authenticated,
        "start_url": reverse("daily:start"),
        "archive_url": reverse("daily:archive"),
    }


@never_cache
@require_GET
def today(request: HttpRequest) -> HttpResponse:
    day = clock.today()
    ends = clock.day_end(day)
    left = max(0, int((ends - clock.now()).total_seconds()))
    context = _day_context(request, day)
    context.update(
        is_today=True,
        ends_at=ends.isoformat(),
        ends_pacific=ends.astimezone(clock.PACIFIC),
        left_hours=left // 3600, left_minutes=left % 3600 // 60,
        players=services.players_on(day),
        yesterday=day - dt.timedelta(days=1),
    )
    return render(request, "puzzles/daily/today.html", context)


@never_cache
@require_GET
def day(request: HttpRequest, day: dt.date) -> HttpResponse:
    today_ = clock.today()
    if day == today_:
        return redirect("daily:today")
    if day > today_:
        raise Http404("that day's challenge has not started yet")
    context = _day_context(request, day)
    context.update(is_today=False, previous=day - dt.timedelta(days=1),
                   next=day + dt.timedelta(days=1) if day + dt.timedelta(days=1) < today_
                   else None)
    return render(request, "puzzles/daily/day.html", context)


@require_GET
def archive(request: HttpRequest) -> HttpResponse:
    today_ = clock.today()
    month = _month(request.GET.get("month"), clock.month_of(today_))
    if month > clock.month_of(today_):
        raise Http404("that month has not started yet")
    days = []
    d = month
    while d.month == month.month and d < today_:
        days.append({"day": d, "size": clock.size_of(d)})
        d += dt.timedelta(days=1)
    previous = (month - dt.timedelta(days=1)).replace(day=1)
    following = (month + dt.timedelta(days=32)).replace(day=1)
    return render(request, "puzzles/daily/archive.html", {
        "month": month, "days": list(reversed(days)), "previous": previous,
        "next": following if following <= clock.month_of(today_) else None,
    })


def _month(value: str | None, default: dt.date) -> dt.date:
    if not value:
        return default
    try:
        return dt.date.fromisoformat(f"{value}-01")
    except ValueError:
        raise Http404("a month is yyyy-mm") from None


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """Start (or continue) a game: ranked for a member's first game of today at that
    difficulty, practice otherwise."""
    actor = Actor.member(request.user) if request.user.is_authenticated \
        else Actor.guest(ensure_session(request))
    back = reverse("daily:today")
    day: dt.date | None = None
    if request.POST.get("day"):
        try:
            day = dt.date.fromisoformat(request.POST["day"])
        except ValueError:
            messages.error(request, "the day is yyyy-mm-dd")
            return redirect(back)
        if day < clock.today():
            back = reverse("daily:day", kwargs={"day": day})
    try:
        game = services.start(actor, request.POST.get("difficulty", ""), day)
    except services.DailyError as refused:
        messages.error(request, str(refused))
        return redirect(back)
    return redirect("games:game", game_id=game.id)


@require_POST
def resign(request: HttpRequest, game_id: str) -> HttpResponse:
    """Resign a daily game from the Puzzles page (a loss scored by the Final Audit now)."""
    try:
        services.resign_from_page(actor_of(request), game_id)
    except services.DailyError as refused:
        messages.error(request, str(refused))
    else:
        messages.info(request, "Resigned: scored by the Final Audit as it stood.")
    return redirect("daily:today")

