"""The game review (docs/review.md): requesting one, the Celery task's body, its progress,
the review page's data and the analysis board.

A review is the game kind's (`GameKind.review`); it is stored in one `GameReview` row per
game. `request_review` makes or reuses that row and, after commit, sends the task
`games.tasks.review_game` (with CELERY_TASK_ALWAYS_EAGER, the embedded default, it runs
in-process on a thread of its own, `review-<game>`, so the button's request answers at once
and the page shows the progress from the start, as with a worker; issue #27, item 7).
One run at a time per game: the row is locked while deciding,
a queued or running review is not sent again (unless its worker went quiet for
`REVIEW_STALE_AFTER`), and a done one is cached until the kind's `review_version` changes.
Progress is written to the row after every turn and sent to the game's group as a
`review` frame (docs/live-protocol.md); the page polls `/g/<id>/review.json`.

The spoiler shield: a game is not reviewed, shown or analysed while the site's access hook
(`games.access.hidden_reason`) hides it from a viewer who holds no seat, as the Daily
Challenge's hook does until the day ends (`shield_reason`).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from typing import Any

from django.db import close_old_connections, connections, transaction
from django.utils import timezone

from common import queue
from games import access
from games.frames.broadcast import game_group, send_to_group
from games.frames.protocol import Code, GameError
from games.kinds import KindError
from games.kinds.cargo_connect.reviews import marked_entry
from games.models import Game, GameReview
from games.turns.store import get_game

log = logging.getLogger(__name__)

REVIEW_STALE_AFTER = dt.timedelta(minutes=3)  # a running review silent this long is re-sent
GRADES = ("inaccuracy", "mistake", "blunder")
GRAPH_WIDTH, GRAPH_HEIGHT, GRAPH_PAD = 640, 160, 8


# --- who may see a review -----------------------------------------------------------------


def shield_reason(game: Game) -> str | None:
    """Why nobody may review the game yet, or None. A review is shown to anyone with its
    link, so it opens only once the game may be shown to everyone: the site's "may this
    viewer see this game now?" hook (`games.access`), asked for a viewer who holds no seat.
    For a Daily Challenge game that is the day's spoiler shield (`puzzles.daily.hooks`),
    which lets only the day's players see its games until the day ends (midnight Pacific),
    so even the player's own review waits for the end of the day."""
    return access.hidden_reason(game, None)


def spoiler_shielded(game: Game) -> bool:
    """True while the game may not be reviewed by anyone yet (`shield_reason`)."""
    return shield_reason(game) is not None


def check_reviewable(game: Game) -> None:
    """GameError unless the game may be reviewed now: over, shown, of a kind that reviews."""
    hidden = shield_reason(game)
    if hidden:
        raise GameError(Code.SPOILER, "A review can be seen by anyone with its link, so it "
                        f"opens only when this game is visible to everyone. {hidden}")
    if not game.is_over:
        raise GameError(Code.GAME_NOT_OVER, "only a finished game can be reviewed")
    if not game.kind.review_version:
        raise GameError(Code.BAD_REQUEST, f"{game.kind.name} games have no review")


# --- requesting and running -------------------------------------------------------------------


def _current(review: GameReview, game: Game) -> bool:
    return review.status == GameReview.Status.DONE and review.version == game.kind.review_version


def _busy(review: GameReview) -> bool:
    return review.status in (GameReview.Status.QUEUED, GameReview.Status.RUNNING) and \
        timezone.now() - review.updated_at < REVIEW_STALE_AFTER


def request_review(game_id: str) -> GameReview:
    """Start the review of a finished game, or return the one running or done."""
    game = get_game(game_id)
    check_reviewable(game)
    with transaction.atomic():
        review, created = GameReview.objects.select_for_update().get_or_create(
            game=game, defaults={"total": game.ply})
        if not created and (_current(review, game) or _busy(review)):
            return review
        review.status = GameReview.Status.QUEUED
        review.done, review.total, review.error = 0, game.ply, ""
        review.save()
        gid = game.id
        transaction.on_commit(lambda: enqueue_review(gid), robust=True)
    return review


_background: dict[str, threading.Thread] = {}  # the embedded default's running reviews


def enqueue_review(game_id: str) -> None:
    """Send the review's task. With CELERY_TASK_ALWAYS_EAGER (the embedded default, no
    worker) the task runs on a thread of this process: run inline it held the button's
    request for the whole review (4-17 s of an unchanged page)."""
    if not queue.eager():
        queue.enqueue("games.review_game", game_id)
        return
    thread = threading.Thread(target=_review_in_background, args=(game_id,),
                              name=f"review-{game_id}", daemon=True)
    _background[game_id] = thread
    thread.start()


def _review_in_background(game_id: str) -> None:
    close_old_connections()
    try:
        # the task as a worker runs it: limits, retries
        queue.task("games.review_game").apply((game_id,))
    except Exception:  # logged; the row says failed or goes stale, and may be asked again
        log.exception("the review of game %s failed in the background", game_id)
    finally:
        connections.close_all()
        _background.pop(game_id, None)


def wait_for_background(game_id: str, timeout: float = 120.0) -> None:
    """Until the embedded default's review of `game_id` ends (tests, scripts)."""
    thread = _background.get(game_id)
    if thread is not None:
        thread.join(timeout)


def _frame(review: GameReview) -> dict[str, Any]:
    return {"type": "review", "status": review.status, "done": review.done,
            "total": review.total, "url": f"/g/{review.game_id}/review"}


def run_review(game_id: str) -> str:
    """The task's body: review the game unless its review is done or another run is busy.
    Returns "done", "cached", "busy", "not_found" or "failed"."""
    with transaction.atomic():
        try:
            review = GameReview.objects.select_for_update().select_related("game").get(
                game_id=game_id)
        except GameReview.DoesNotExist:
            return "not_found"
        game = review.game
        if _current(review, game):
            return "cached"
        if review.status == GameReview.Status.RUNNING and _busy(review):
            return "busy"
        review.status = GameReview.Status.RUNNING
        review.done, review.total = 0, game.ply
        review.save()
    send_to_group(game_group(game_id), _frame(review))
    started = time.process_time()

    def progress(done: int, total: int) -> None:
        GameReview.objects.filter(pk=game_id).update(done=done, updated_at=timezone.now())
        review.done = done
        send_to_group(game_group(game_id), _frame(review))

    try:
        data = game.kind.review(game.start, list(game.tokens), progress)
    except KindError as e:
        log.error("the review of game %s failed: %s", game_id, e)
        review.status, review.error = GameReview.Status.FAILED, str(e)[:200]
        review.save(update_fields=["status", "error", "updated_at"])
        send_to_group(game_group(game_id), _frame(review))
        return "failed"
    review.status = GameReview.Status.DONE
    review.data, review.version = data, game.kind.review_version
    review.done = review.total
    review.cpu_seconds = round(time.process_time() - started, 2)
    review.finished_at = timezone.now()
    review.save()
    send_to_group(game_group(game_id), _frame(review))
    return "done"


def mark_failed(game_id: str, message: str) -> None:
    """The task ran out of time or crashed: say so, so that it can be requested again."""
    GameReview.objects.filter(pk=game_id).update(status=GameReview.Status.FAILED,
                                                 error=message[:200])


# --- reading -----------------------------------------------------------------------------


def review_status(game: Game) -> dict[str, Any]:
    """`GET /g/<id>/review.json`: the status, progress and, once done, the review."""
    review = GameReview.objects.filter(game=game).first()
    if review is None:
        return {"status": "none", "done": 0, "total": game.ply, "review": None}
    stale = review.status == GameReview.Status.DONE and not _current(review, game)
    return {"status": "stale" if stale else review.status, "done": review.done,
            "total": review.total, "error": review.error,
            "review": review.data if _current(review, game) else None}


def graph(data: dict[str, Any]) -> dict[str, Any]:
    """The evaluation graph as SVG coordinates: Blue's margin by turn (points up for Blue),
    clipped to ±20 points, and a dot on each marked turn."""
    values = [v / 100 for v in data["graph"]]
    n = max(1, len(values) - 1)
    top = max(5.0, min(20.0, max(abs(v) for v in values) if values else 5.0))
    inner = GRAPH_HEIGHT - 2 * GRAPH_PAD

    def xy(i: int, v: float) -> tuple[float, float]:
        v = max(-top, min(top, v))
        x = GRAPH_PAD + i * (GRAPH_WIDTH - 2 * GRAPH_PAD) / n
        return round(x, 1), round(GRAPH_PAD + inner / 2 - v * inner / (2 * top), 1)

    points = [xy(i, v) for i, v in enumerate(values)]
    dots = []
    for t in data["turns"]:
        if t["grade"]:
            x, y = points[t["ply"] + 1] if t["ply"] + 1 < len(points) else points[-1]
            dots.append({"x": x, "y": y, "ply": t["ply"], "grade": t["grade"],
                         "label": f"{t['ply'] + 1}. {t['token']}: {t['grade']}"})
    return {"width": GRAPH_WIDTH, "height": GRAPH_HEIGHT, "zero": GRAPH_HEIGHT / 2,
            "top": round(top), "polyline": " ".join(f"{x},{y}" for x, y in points),
            "dots": dots, "last": points[-1] if points else (0, 0)}


def review_page_data(game: Game) -> dict[str, Any]:
    """What the review page renders: the status and, once done, the marked turns with
    their boards, the accuracy per side and the graph."""
    status = review_status(game)
    data = status["review"]
    out: dict[str, Any] = {"status": status, "marked": [], "graph": None, "accuracy": []}
    if data is None:
        return out
    kind = game.kind
    out["marked"] = [marked_entry(t, headline=f"{t['loss'] / 100:.1f} points",
                                  suggested="CargoBot's suggestion")
                     for t in data["turns"] if t["grade"]]
    for seat in range(len(game.seat_list)):
        key = kind.seat_key(seat)
        out["accuracy"].append({"side": key, "label": kind.seat_label(seat),
                                "accuracy": data["accuracy"].get(key),
                                "marks": data["marks"].get(key, {})})
    out["graph"] = graph(data)
    return out


# --- the analysis board -------------------------------------------------------------------


def analyse(game_id: str, *, ply: int, line: list[str]) -> dict[str, Any]:
    """Trial turns from the position before turn `ply` + 1 of a finished game: checked by
    the engine, scored against CargoBot's suggestion, never stored."""
    game = get_game(game_id)
    check_reviewable(game)
    if not 0 <= ply <= game.ply:
        raise GameError(Code.BAD_REQUEST, f"ply must be 0 to {game.ply}, not {ply}")
    try:
        return game.kind.analyse(game.start, list(game.tokens[:ply]), line)
    except KindError as e:
        raise GameError(Code.ILLEGAL, str(e)) from None

