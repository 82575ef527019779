"""Tournaments: the list (upcoming, running, the latest finished) and one tournament with
its entrants, standings and rounds, as its pages show them (`tournaments.pages`). A
tournament's password never leaves."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import Field

from games import titles
from games.kinds import KindError, get_kind
from tournaments import pages
from tournaments.models import Tournament

from .. import examples
from ..errors import ApiError, Code
from ..operations import endpoint
from ..schemas import TournamentOut, TournamentsOut
from ..scopes import Scope
from .shapes import absolute, iso

router = Router(tags=["Tournaments"])


def row_of(request: HttpRequest, t: Tournament, players: int) -> dict[str, Any]:
    return {"id": t.id, "url": absolute(request, "tournaments:detail", tournament_id=t.id),
            "name": t.name, "game": t.game_type, "system": t.system, "status": t.status,
            "rounds": t.rounds, "time_control": t.time_control, "rated": t.rated,
            "bots_allowed": t.bots_allowed, "table_size": t.table_size,
            "starts_at": iso(t.starts_at), "players": players}


class ListQuery(Schema):
    game: str | None = Field(None, description="Only this game type.")


@router.get("/tournaments", operation_id="listTournaments", **endpoint(
    Scope.READ, "The tournaments",
    "Upcoming (soonest first), running and the 50 latest finished or cancelled "
    "tournaments (latest first), of one game type with `game`.",
    TournamentsOut, examples.TOURNAMENTS))
def tournaments(request: HttpRequest, query: Query[ListQuery]) -> dict[str, Any]:
    if query.game is not None:
        try:
            get_kind(query.game)
        except KindError:
            raise ApiError(Code.BAD_REQUEST, f"No game type {query.game!r}.") from None
    groups = pages.listing(query.game)
    return {key: [row_of(request, r.tournament, r.players) for r in groups[key]]
            for key, _label, _statuses in pages.GROUPS}


@router.get("/tournament/{tournament_id}", operation_id="getTournament", **endpoint(
    Scope.READ, "One tournament",
    "A tournament with its entrants, its standings (points and two tie breaks) and every "
    "started round's tables, latest first.", TournamentOut, examples.TOURNAMENT, Code.NOT_FOUND))
def tournament(request: HttpRequest, tournament_id: str) -> dict[str, Any]:
    found = Tournament.objects.filter(pk=tournament_id).first() \
        if len(tournament_id) <= 10 else None
    if found is None:
        raise ApiError(Code.NOT_FOUND, f"No tournament {tournament_id}.")
    entrants = pages.players_of(found)
    started = found.round_set.exists()
    lines = pages.standings_of(found) if started else []
    known = titles.titles_by_name(s.username for s in lines)
    return {**row_of(request, found, len(entrants)),
            "tie_breaks": [name for name, _ in pages.tie_break_names(found)],
            "entrants": entrants,
            "standings": [{"rank": s.rank, "username": s.username,
                           "title": known.get(s.username), "points": s.points,
                           "tie_breaks": list(s.tie_breaks), "games": s.games,
                           "byes": s.byes, "withdrawn": s.withdrawn} for s in lines],
            "rounds_played": [{"number": r.number, "finished": r.finished, "byes": r.byes,
                               "tables": [{"number": t.number, "game_id": t.game_id,
                                           "result": t.result, "active": t.active,
                                           "places": [vars(p) for p in t.places]}
                                          for t in r.tables]}
                              for r in pages.rounds_of(found)]}
