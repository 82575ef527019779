"""Correspondence games (docs/clocks.md, "Correspondence"): how many a member may have going
at once, and who may sit at a correspondence table. The days themselves are a time control
like any other (`games.timing.clocks`); their deadlines are the clocks' falls
(`games.timing.timeouts`).

- **The cap.** A member may have at most `CAP` correspondence games in progress, counting
  the open correspondence tables they sit at (each becomes a game); a member who has
  finished fewer than `NEW_MEMBER_GAMES` games may have `NEW_MEMBER_CAP` (as Board Game
  Arena caps turn-based tables for new players). Making or joining a table past it is
  refused with `bad_request`, in words, and nothing is made. The check locks the member's
  user row first and must run in the transaction that makes the table, seat or game, so
  two creations at one instant are counted one after the other: the second waits for the
  first to commit and sees its row.
- **Members only.** A correspondence game lasts days: a guest's seat is one browser
  session, so a correspondence table takes members only, rated or casual.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from games.frames.protocol import Code, GameError
from games.models import Challenge, Game, Seat, TableSeat
from games.timing import clocks

CAP = 50  # correspondence games (and open tables) in progress, as lichess allows
NEW_MEMBER_CAP = 10  # for a member who has finished fewer than NEW_MEMBER_GAMES games
NEW_MEMBER_GAMES = 5


def is_correspondence(code: str) -> bool:
    """Is this `games.timing.clocks` code a correspondence time control ("3d")?"""
    control = clocks.parse(code)
    return control is not None and not control.live


def in_progress(user_id: int) -> int:
    """The member's correspondence games in progress and open correspondence tables."""
    games = (Game.objects.filter(status=Game.Status.ACTIVE, seats__user_id=user_id,
                                 time_control__endswith="d").values("id").distinct().count())
    tables = TableSeat.objects.filter(user_id=user_id, challenge__status=Challenge.Status.OPEN,
                                      challenge__time_control__endswith="d").count()
    return games + tables


def cap_of(user_id: int) -> int:
    """How many correspondence games the member may have going at once."""
    finished = Seat.objects.filter(user_id=user_id,
                                   game__status=Game.Status.FINISHED)[:NEW_MEMBER_GAMES].count()
    return CAP if finished >= NEW_MEMBER_GAMES else NEW_MEMBER_CAP


def refuse_past_cap(user_id: int, time_control: str) -> None:
    """Before the member makes or joins a table with `time_control`, inside the
    transaction that will make it: `bad_request` if it is correspondence and they already
    have as many such games as they may. The member's user row stays locked until that
    transaction ends, so another creation of theirs counts after this one."""
    if not is_correspondence(time_control):
        return
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("refuse_past_cap runs inside the transaction that makes the game")
    list(get_user_model().objects.select_for_update().filter(pk=user_id)
         .values_list("pk", flat=True))  # one member's creations, one at a time
    cap = cap_of(user_id)
    if in_progress(user_id) >= cap:
        more = (f" (new players may have {NEW_MEMBER_CAP} until they have finished "
                f"{NEW_MEMBER_GAMES} games)" if cap == NEW_MEMBER_CAP else "")
        raise GameError(Code.BAD_REQUEST,
                        f"you already have {cap} correspondence game{'s' if cap != 1 else ''} "
                        f"in progress, the most "
                        f"you may have{more}: finish one before starting another")


def refuse_guest(actor_kind: str, time_control: str) -> None:
    """A guest may not sit at a correspondence table."""
    if actor_kind == "guest" and is_correspondence(time_control):
        raise GameError(Code.NOT_A_PLAYER,
                        "a correspondence table takes members only: sign in to play over days")
