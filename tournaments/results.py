"""A finished tournament's results (issue #46, point 4: results on profiles, achievements):
each entrant's final place, written once when the tournament finishes, and a member's
results read for their profile.

- `record_final(tournament)`: in the transaction that finishes a tournament (the Swiss's
  `rounds.advance`, an arena's last pass), each entrant who played gets `Entry.final_rank`:
  their place among those who played, from the standings recomputed from the stored
  games (a Swiss's `tournaments.standings`: level entrants share a place; an arena's
  `tournaments.arena_standings`: its order, so ranks 1-3 are its podium,
  `scoring.podium`). An entrant who never played (no game, no bye) has none. After commit,
  `tournaments.signals.tournament_finished` is sent (the accounts app awards the
  tournament achievements); a receiver that fails is logged.
- `member_results(user)`: the member's finished tournaments, latest first, with their
  place, points and the number placed; `member_totals(user)`: how many they played, won,
  and finished in the top three. Two queries, whatever the member's history.

Reads the stored rows only; imports no live-play code and no other app.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Count, OuterRef, Q, Subquery

from games.kinds import KindError, get_kind
from tournaments import arena_standings, standings
from tournaments.models import Entry, Tournament
from tournaments.pages import fraction_text
from tournaments.signals import tournament_finished

log = logging.getLogger(__name__)

RESULTS_SHOWN = 10  # the latest finished tournaments on a profile


def final_ranks(tournament: Tournament) -> dict[int, int]:
    """Each entry who played (by id) to their place among those who played: 1 + how many
    who played stand strictly ahead of them."""
    if tournament.arena:
        table = [(s.id, s.rank, s.games > 0) for s in arena_standings.standings(tournament)]
    else:
        table = [(line.entry_id, line.rank, line.games + line.byes > 0)
                 for line in standings.standings(tournament)]
    played = [(entry_id, rank) for entry_id, rank, took_part in table if took_part]
    return {entry_id: 1 + sum(1 for _, other in played if other < rank)
            for entry_id, rank in played}


def record_final(tournament: Tournament) -> dict[int, int]:
    """In the finishing transaction: every entrant's `final_rank` written; after commit,
    `tournament_finished` with each placed member's user id to their place."""
    ranks = final_ranks(tournament)
    entries = list(Entry.objects.filter(tournament=tournament))
    places: dict[int, int] = {}
    for entry in entries:
        rank = ranks.get(entry.id)
        if entry.final_rank != rank:
            entry.final_rank = rank
            entry.save(update_fields=["final_rank"])
        if rank is not None:
            places[entry.user_id] = rank
    transaction.on_commit(lambda: _announce(tournament, places))
    return places


def _announce(tournament: Tournament, places: dict[int, int]) -> None:
    for receiver, answer in tournament_finished.send_robust(
            sender=__name__, tournament=tournament, places=places):
        if isinstance(answer, Exception):
            log.error("tournament_finished receiver %r failed: %r", receiver, answer,
                      exc_info=answer)


@dataclass
class MemberResult:
    """One finished tournament as a member's profile lists it."""

    tournament_id: str
    name: str
    game: str
    system: str
    finished_at: Any
    rank: int
    placed: int  # entrants who played
    points: str

    @property
    def place(self) -> str:
        suffix = "th" if 10 <= self.rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
            self.rank % 10, "th")
        return f"{self.rank}{suffix}"


def _placed(user: Any) -> Any:
    return Entry.objects.filter(user=user, final_rank__isnull=False,
                                tournament__status=Tournament.Status.FINISHED)


def member_results(user: Any, limit: int = RESULTS_SHOWN) -> list[MemberResult]:
    """The member's latest finished tournaments in which they played, with their place."""
    placed = (Entry.objects.filter(tournament=OuterRef("tournament"), final_rank__isnull=False)
              .values("tournament").annotate(n=Count("id")).values("n"))
    rows = (_placed(user).select_related("tournament").annotate(placed=Subquery(placed))
            .order_by("-tournament__finished_at", "-id")[:limit])
    out = []
    for entry in rows:
        t = entry.tournament
        out.append(MemberResult(t.id, t.name, _game_name(t.game_type), t.get_system_display(),
                                t.finished_at, entry.final_rank or 0,
                                entry.placed or 0,
                                fraction_text(Fraction(entry.points))))
    return out


def member_totals(user: Any) -> dict[str, int]:
    """How many finished tournaments the member played, won (first, shared or not) and
    finished in the top three."""
    return _placed(user).aggregate(played=Count("id"), won=Count("id", filter=Q(final_rank=1)),
                                   podiums=Count("id", filter=Q(final_rank__lte=3)))


def _game_name(key: str) -> str:
    try:
        return get_kind(key).name
    except KindError:
        return key

