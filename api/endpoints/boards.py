"""The rankings: one game type's board of one rating (the rated online rating, by the
game's method; or the rating against CargoBot), as the rankings page has it
(`rankings.boards`: eligibility, shared ranks, the top 50)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import Field

from games import titles
from rankings import boards

from .. import examples
from ..errors import ApiError, Code
from ..operations import endpoint
from ..schemas import BoardOut
from ..scopes import Scope

router = Router(tags=["Rankings"])
RATINGS = {"elo": boards.ELO, "bot": boards.BOT}


class BoardQuery(Schema):
    game: str = Field(settings.DEFAULT_GAME_KIND, description="The game type.")
    rating: str = Field("elo", description="`elo`: rated online games (the game's rating "
                                           "method); `bot`: casual games against CargoBot.")


@router.get("/rankings", operation_id="getRankings", **endpoint(
    Scope.READ, "The rankings of one game and rating",
    "The top 50 of a game type's board: members with at least 5 games counted by that "
    "rating, one of them in the last 30 days; equal ratings share a rank.",
    BoardOut, examples.BOARD))
def rankings(request: HttpRequest, query: Query[BoardQuery]) -> dict[str, Any]:
    if query.game not in dict(boards.game_types()):
        raise ApiError(Code.BAD_REQUEST, f"No game type {query.game!r}; one of "
                       f"{', '.join(key for key, _ in boards.game_types())}.")
    if query.rating not in RATINGS:
        raise ApiError(Code.BAD_REQUEST, "`rating` is `elo` or `bot`.")
    board = boards.board(RATINGS[query.rating], game_type=query.game)
    known = titles.titles_by_name(row["username"] for row in board.rows)
    return {"game": query.game, "rating": query.rating, "title": board.title,
            "rules": board.rules,
            "rows": [{**{k: row[k] for k in ("rank", "username", "rating", "games",
                                             "provisional")},
                      "title": known.get(row["username"])} for row in board.rows]}
