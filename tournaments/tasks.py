"""The tournaments' Celery tasks: `tick` from beat (CELERY_BEAT_SCHEDULE), `advance` sent by
name (`common.queue.enqueue`) once a round's last game has ended, `arena_pass` sent by
name when an arena's players become free, `arena_sections` to render an arena page's
shared sections (at once after a game's end, or at the end of a window another render
took: `tournaments.live.SHARED_WINDOW_MS`). The tick first announces
the schedules' due tournaments (`tournaments.schedules.create_due`, once per period under
the schedule's lock). Both call
`tournaments.rounds.advance`, which holds the tournament (an advisory lock on PostgreSQL,
the row everywhere) and reads its state again: running them twice, or from two beat
processes, starts each round once."""

from __future__ import annotations

from celery import shared_task

from games.frames import broadcast

from . import arenas, live, rounds, schedules


@shared_task(name="tournaments.tick", time_limit=300, ignore_result=True)
def tick() -> list[str]:
    """The schedules' due tournaments announced (each once), then every Swiss due or
    running moved on, and every arena's pairing pass."""
    return schedules.create_due() + rounds.tick() + arenas.tick()


@shared_task(name="tournaments.advance", time_limit=300, ignore_result=True)
def advance(tournament_id: str) -> str:
    return rounds.advance(tournament_id)


@shared_task(name="tournaments.arena_pass", time_limit=60, ignore_result=True)
def arena_pass(tournament_id: str) -> str:
    """An arena's pairing pass, sent by name when its players become free (a game's end,
    a join, a resume): `tournaments.arenas.pair`, its frames (the games made, the pages'
    sections) sent together (`broadcast.sent_together`: one Redis connection, not one per
    frame, in the worker)."""
    return broadcast.sent_together(arenas.pair)(tournament_id)


@shared_task(name="tournaments.arena_sections", time_limit=60, ignore_result=True)
def arena_sections(tournament_id: str, window: int | None = None) -> None:
    """An arena page's shared sections: for the `window` the sender took
    (`tournaments.live.shared_soon`), or once for the changes of a window that another
    render had taken (`shared_or_later`)."""
    live.send_shared(tournament_id, window)
