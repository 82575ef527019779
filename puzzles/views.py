"""The Weekly Puzzles pages and their JSON endpoints (thin: parse, call a service, answer).

Pages: `/puzzles/` (this week), `/puzzles/week/<monday>/` (any published week up to this
one), `/puzzles/<yyyy-mm-dd>/` (a day's puzzle, from its day on). Endpoints, all POST with
a JSON body and the CSRF header: `state` (the attempt after its turns), `turn` (one more
turn), `solution` (the solver's line, stepped), `figures` (after solving), `review` (a
finished attempt's review: its URL), and `merge` (a browser's guest progress into the
signed-in account: preview, then apply). The review page: `/puzzles/review/<key>`.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from . import progress, reviews, schedule
from .models import DAY_NAMES, AttemptReview, Puzzle, Week
from .play import PlayError, new_game, play_turn, replay, solution_steps, state
from .records import WEEK_SCHEDULE, goal_words

MAX_BODY = 32_000


def _daily_url() -> str | None:
    """The Daily Challenge's page, if that app's URL is wired up."""
    try:
        return reverse("daily:today")
    except NoReverseMatch:
        return None


def _member(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _day_row(week: Week, day: int, puzzle: Puzzle | None, summary: dict[str, Any] | None,
             today: dt.date) -> dict[str, Any]:
    date = week.date_of(day)
    opened = date <= today
    row: dict[str, Any] = {
        "day": DAY_NAMES[day], "date": date, "open": opened, "is_today": date == today,
        "size": puzzle.size if puzzle else WEEK_SCHEDULE[day].size,
        "goal": goal_words(puzzle.goal, puzzle.turns) if puzzle else "",
        "puzzle_id": puzzle.pk if puzzle else None,
        "url": reverse("puzzles:puzzle", kwargs={"day": date}) if puzzle and opened else None,
    }
    if not opened:
        row["state"] = "opens on its day"
    elif summary is not None:
        row["state"] = progress.state_word(summary)
    else:
        row["state"] = "new"
    return row


def _week_page(request: HttpRequest, week: Week | None, monday: dt.date) -> HttpResponse:
    today = schedule.today()
    current = schedule.monday_of(today)
    published = Week.objects.filter(status=Week.Status.PUBLISHED)
    prev_week = published.filter(monday__lt=monday).order_by("-monday").first()
    next_week = published.filter(monday__gt=monday, monday__lte=current).order_by("monday").first()
    rows = []
    if week is not None:
        puzzles = {p.day: p for p in week.puzzles.all()}
        member = _member(request)
        summaries: dict[int, dict[str, Any]] = {}
        if member is not None:
            for p in progress.Progress.objects.filter(user=member, puzzle__in=puzzles.values()):
                summaries[p.puzzle_id] = progress.member_summary(p)
        for day in range(7):
            puzzle = puzzles.get(day)
            summary = None
            if member is not None and puzzle is not None:
                summary = summaries.get(puzzle.pk, progress.member_summary(None))
            rows.append(_day_row(week, day, puzzle, summary, today))
    return render(request, "puzzles/week.html", {
        "week": week, "monday": monday, "sunday": monday + dt.timedelta(days=6),
        "is_current": monday == current, "rows": rows,
        "prev_url": _week_url(prev_week.monday) if prev_week else None,
        "next_url": _week_url(next_week.monday) if next_week else None,
        "daily_url": _daily_url(),
        "merge_url": reverse("puzzles:merge"),
        "member": request.user.is_authenticated,
    }, status=200 if week is not None else 404)


@never_cache
def index(request: HttpRequest) -> HttpResponse:
    week = schedule.current_week()
    return _week_page(request, week, week.monday)


@never_cache
def week(request: HttpRequest, monday: dt.date) -> HttpResponse:
    if monday.weekday() != 0:
        return redirect("puzzles:week", monday=schedule.monday_of(monday))
    current = schedule.monday_of(schedule.today())
    if monday == current:
        return redirect("puzzles:index")
    if monday > current:
        raise Http404("that week has not begun")
    found = Week.objects.filter(monday=monday, status=Week.Status.PUBLISHED).first()
    return _week_page(request, found, monday)


def _open_puzzle(day: dt.date) -> Puzzle:
    """The puzzle of `day` if it may be served now; a later day is refused (404)."""
    if not schedule.is_open(day):
        raise Http404("that day's puzzle opens on its day")
    if schedule.monday_of(day) == schedule.monday_of(schedule.today()):
        schedule.current_week()
    puzzle = schedule.published_puzzle(day)
    if puzzle is None:
        raise Http404("no puzzle was published for that day")
    return puzzle


def _week_url(monday: dt.date) -> str:
    if monday == schedule.monday_of(schedule.today()):
        return reverse("puzzles:index")
    return reverse("puzzles:week", kwargs={"monday": monday})


@never_cache
def puzzle(request: HttpRequest, day: dt.date) -> HttpResponse:
    if not schedule.is_open(day):
        return render(request, "puzzles/not_open.html", {
            "day": day, "day_name": DAY_NAMES[day.weekday()]}, status=404)
    p = _open_puzzle(day)
    member = _member(request)
    summary = progress.member_summary(progress.progress_of(member, p)) if member else None
    urls = {name: reverse(f"puzzles:{name}", kwargs={"day": day})
            for name in ("state", "turn", "solution", "figures")}
    urls["review"] = reverse("puzzles:review_attempt", kwargs={"day": day})
    page = {
        "puzzle": p.pk, "date": day.isoformat(), "day": DAY_NAMES[day.weekday()],
        "goal_words": goal_words(p.goal, p.turns), "limit": p.turns, "size": p.size,
        "member": member is not None, "progress": summary, "urls": urls,
        "figures": progress.figures(p) if summary and summary["solved"] else None,
    }
    return render(request, "puzzles/puzzle.html", {
        "puzzle": p, "day": day, "day_name": DAY_NAMES[day.weekday()],
        "goal_words": page["goal_words"], "page": page, "state": state(p, new_game(p)),
        "week_url": _week_url(schedule.monday_of(day)),
    })


# --- JSON endpoints ---------------------------------------------------------------------------


def _body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY:
        raise PlayError("bad_request", "request too large", status=413)
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise PlayError("bad_request", "the body must be JSON") from None
    if not isinstance(data, dict):
        raise PlayError("bad_request", "the body must be a JSON object")
    return data


def _answer(call: Callable[[], dict[str, Any]]) -> JsonResponse:
    try:
        return JsonResponse(call())
    except PlayError as e:
        return JsonResponse(e.as_dict(), status=e.status)


@require_POST
def attempt_state(request: HttpRequest, day: dt.date) -> JsonResponse:
    p = _open_puzzle(day)

    def run() -> dict[str, Any]:
        tokens = _body(request).get("tokens", [])
        return {"state": state(p, replay(p, tokens))}

    return _answer(run)


@require_POST
def turn(request: HttpRequest, day: dt.date) -> JsonResponse:
    p = _open_puzzle(day)

    def run() -> dict[str, Any]:
        data = _body(request)
        before = data.get("tokens", [])
        played = play_turn(p, before, data.get("token"))
        out: dict[str, Any] = {"events": played.events, "state": played.state}
        member = _member(request)
        solved = played.game.solved
        if member is not None:
            record = progress.record_turn(member, p, before, solved, played.game.tokens)
            out["progress"] = progress.member_summary(record)
        elif solved:
            out["proof"] = progress.guest_proof(p, played.game.tokens,
                                                unaided=not data.get("shown"))
        if solved:
            out["figures"] = progress.figures(p)
        return out

    return _answer(run)


@require_POST
def solution(request: HttpRequest, day: dt.date) -> JsonResponse:
    p = _open_puzzle(day)

    def run() -> dict[str, Any]:
        member = _member(request)
        out: dict[str, Any] = {"line": p.solution.split(), "steps": solution_steps(p)}
        if member is not None:
            out["progress"] = progress.member_summary(progress.record_shown(member, p))
        return out

    return _answer(run)


@require_POST
def figures(request: HttpRequest, day: dt.date) -> JsonResponse:
    p = _open_puzzle(day)

    def run() -> dict[str, Any]:
        member = _member(request)
        if member is not None:
            summary = progress.member_summary(progress.progress_of(member, p))
            solved = summary["solved"]
        else:
            solved = progress.read_proof(p, _body(request).get("proof")) is not None
        if not solved:
            raise PlayError("not_solved", "the figures are shown after solving", status=403)
        return {"figures": progress.figures(p)}

    return _answer(run)


@require_POST
def review_attempt(request: HttpRequest, day: dt.date) -> JsonResponse:
    """A finished attempt's review: `{"tokens": [...]}` → `{"url", "shown"}` (`shown`: it
    counted as showing the solution; a member's `progress` comes with it)."""
    p = _open_puzzle(day)

    def run() -> dict[str, Any]:
        member = _member(request)
        review = reviews.review_attempt(p, _body(request).get("tokens", []))
        shown = reviews.made(review, member, request.session)
        out: dict[str, Any] = {"url": reverse("puzzles:review", kwargs={"key": review.key}),
                               "shown": shown}
        if member is not None:
            out["progress"] = progress.member_summary(progress.progress_of(member, p))
        return out

    return _answer(run)


@never_cache
def review_page(request: HttpRequest, key: str) -> HttpResponse:
    """GET: the review of an attempt, or first what opening it means (it shows a solution).
    POST: open it anyway (that counts as showing the solution), then back to GET."""
    review = get_object_or_404(AttemptReview.objects.select_related("puzzle__week"), key=key)
    p = review.puzzle
    if _playable(p.pk) is None:
        raise Http404("that puzzle is not open")
    member = _member(request)
    if request.method == "POST":
        reviews.opened(review, member, request.session)
        return redirect("puzzles:review", key=key)
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    assert p.date is not None
    context: dict[str, Any] = {
        "review": review, "puzzle": p, "day": p.date, "day_name": DAY_NAMES[p.date.weekday()],
        "goal_words": goal_words(p.goal, p.turns),
        "puzzle_url": reverse("puzzles:puzzle", kwargs={"day": p.date}),
        "week_url": _week_url(schedule.monday_of(p.date)),
        "guest": member is None,
    }
    if not reviews.may_see(review, member, request.session):
        context["ask"] = True
        return render(request, "puzzles/review.html", context)
    context.update(reviews.page_data(review))
    return render(request, "puzzles/review.html", context)


def _playable(pid: int) -> Puzzle | None:
    p = Puzzle.objects.select_related("week").filter(
        pk=pid, week__status=Week.Status.PUBLISHED).first()
    if p is None or p.date is None or not schedule.is_open(p.date):
        return None
    return p


@require_POST
def merge(request: HttpRequest) -> JsonResponse:
    member = _member(request)

    def run() -> dict[str, Any]:
        if member is None:
            raise PlayError("signed_out", "sign in to merge this browser's progress", status=403)
        data = _body(request)
        changes, refused = progress.merge_plan(member, data.get("entries"), _playable)
        shown = [c.as_dict() for c in changes]
        apply = data.get("apply") is True
        if apply:
            if data.get("expect") != shown:
                raise PlayError("conflict", "what the merge would change is no longer what "
                                "you reviewed: review it again", status=409)
            progress.apply_merge(member, changes)
            n = len(changes)
            # shown on the page the browser loads next (the week page reloads)
            messages.success(request, f"Merged this browser's progress on {n} "
                                      f"puzzle{'' if n == 1 else 's'} into your account.")
        return {"changes": shown, "refused": refused, "applied": apply}

    return _answer(run)
