"""The state a viewer sees, gathered: the kind's game (from the row's cache), the seats'
holders with their ratings (`rankings`), the clocks, the abandon part, the rematch's page;
then shaped by games.frames.protocol, which only serialises. Every frame, page and catch-up gets
its state here (`state_of`; `frame_state` for a frame's audience, games.frames.audiences)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone

from games import access
from games import titles as games_titles
from games.frames import away, protocol, shown_ratings
from games.kinds import LiveGame, Viewer
from games.models import Game, Seat
from games.timing import clocks
from games.turns.store import live


def player_info(game: Game, seat: Seat, changes: dict[int, Any] | None = None,
                final: bool = True, ply: int | None = None,
                titles: dict[int, str] | None = None) -> dict[str, Any] | None:
    """A seat's holder as the page shows them: name, rating (the one this game's mode
    counts: Elo online, the vs CargoBot rating against CargoBot; once the game is over, the
    rating before it: `rankings.ratings.game_rating`), which rating system that is (sent as
    `rating_kind`: `rankings.ratings.rating_system`), whether it is provisional
    (`rating_provisional`), the level of the bot that plays the seat (its own, or the one
    that took it over from a holder who left), the rating's change in this game in a
    finished game's final state (`rating_change`, from `changes`:
    `rankings.ratings.rating_changes`), and `left`: when and why the holder left and who
    plays the seat since (`left_info`). `ply` is an earlier state's (a replay's): a holder
    who left later had not left yet. `titles`: the members' titles by id, read once for the
    game's seats (`games.titles`; read here when not given)."""
    ratings = shown_ratings.shown()
    change = (changes or {}).get(seat.index)
    rating = ratings.game_rating(game, seat, changes or {})
    rated = {"rating": rating,
             "rating_kind": ratings.rating_system(game, seat) if rating else None,
             "rating_provisional": ratings.game_provisional(game, seat, changes or {})
             if rating else False,
             "rating_change": change.delta if change is not None and final else None}
    left = left_info(game, seat, ply)
    bot = seat.bot_level or (left or {}).get("bot")
    if titles is None:
        titles = games_titles.titles_of([seat.user_id])
    title = titles.get(seat.user_id) if seat.user_id is not None else None
    return protocol.holder_info(seat.holder_name(game.kind), rated, bot, left, title)


def left_info(game: Game, seat: Seat, ply: int | None = None) -> dict[str, Any] | None:
    """When and why a seat's holder left (`Seat.left`) and the bot that plays the seat
    since (None: the seat went dormant or the game ended with them), as of `ply` (None:
    now): `{"ply", "round", "reason", "why" (in words), "bot", "name"}`; None if the
    holder has not left (by then)."""
    left = seat.left
    if not left or (ply is not None and ply < int(left.get("ply", 0))):
        return None
    level = seat.stand_in
    return {"ply": left.get("ply"), "round": left.get("round"),
            "reason": left.get("reason"),
            "why": Seat.LEFT_REASONS.get(left.get("reason") or "", "left the game"),
            "bot": level or None, "name": game.kind.bot_name(level) if level else None}


def seats_info(game: Game, final: bool = True, ply: int | None = None
               ) -> list[dict[str, Any]]:
    """Each seat and its holder; a finished game's final state carries the rating changes
    (one query), earlier plies' states (replays, catch-up) do not, and say who played each
    seat at their `ply`. While the game goes on, nothing of it changes but a seat handed
    to a bot (which drops the copy: games.turns.play), so it is worked out once per loaded game
    (a warm game's turns reuse it) and copied."""
    if final and not game.is_over:
        cached = game.__dict__.get("_seats_info")
        if cached is None:
            cached = game.__dict__["_seats_info"] = _seats_info(game, {})
        return [{**seat, "holder": seat["holder"] and dict(seat["holder"])}
                for seat in cached]
    known = game.__dict__.get("_rating_changes")  # a finished game's: a replay asks per ply
    if known is None or known[0] != game.status:
        known = game.__dict__["_rating_changes"] = (
            game.status, shown_ratings.shown().rating_changes(game))
    return _seats_info(game, known[1], final, None if final else ply)


def _seats_info(game: Game, changes: dict[int, Any], final: bool = True,
                ply: int | None = None) -> list[dict[str, Any]]:
    titles = games_titles.titles_of(seat.user_id for seat in game.seat_list)
    return protocol.seats_of(game, [player_info(game, seat, changes, final, ply, titles)
                                    for seat in game.seat_list])


def rematch_info(game: Game) -> dict[str, Any] | None:
    url = reverse("games:game", kwargs={"game_id": game.rematch_id}) \
        if game.rematch_id else None
    return protocol.rematch_of(game, url)


def state_of(game: Game, lg: LiveGame | None = None, *, viewer: Viewer = None,
             final: bool = True, history: bool = True) -> dict[str, Any]:
    """The state snapshot for `viewer` (a seat, None for a spectator, `EVERYTHING` for a
    finished game's replay). `final=False` describes an earlier ply (replays, catch-up):
    no resignation, no rematch, the status from the engine alone (games.frames.protocol.state)."""
    if lg is None:
        lg = live(game)
    seats = seats_info(game, final, lg.ply)
    at = timezone.now()
    abandon = away.state(game, lg, at, final)
    game_clocks = clocks.of_game(game) if final else None
    state = protocol.state(
        game, lg, viewer=viewer, final=final, seats=seats,
        rematch=rematch_info(game) if final else None, abandon=abandon,
        clock=game_clocks.state(at) if game_clocks is not None else None, history=history)
    extras = extras_of(game, lg) if final else None
    if extras is not None:
        state["extras"] = extras
    return state


def extras_of(game: Game, lg: LiveGame) -> dict[str, Any] | None:
    """What other apps show beside the seats (`games.access.extras`), with only the
    actions legal now: none once the game is over, and an action meant for before its
    seat's first decision (`before_first_decision`) not once that seat has decided. The
    page shows what it is sent and decides nothing (docs/live-protocol.md, `extras`)."""
    said = access.extras_for(game)
    if said is None:
        return None
    actions = [] if game.is_over else [
        {k: v for k, v in action.items() if k != "before_first_decision"}
        for action in said["actions"]
        if not (action.get("before_first_decision") and decided(game, lg, action["seat"]))]
    return {"marks": [dict(mark) for mark in said["marks"]], "actions": actions}


def decided(game: Game, lg: LiveGame, seat: int) -> bool:
    """Has `seat` made a decision of its own in this game? Exact for timed games (the
    clock notes who moved until all have); for untimed ones from the seat's count of
    decisions (seats deciding at once) or the ply (seats taking turns in order)."""
    game_clocks = clocks.of_game(game)
    if game_clocks is not None:
        return game_clocks.started or seat in game_clocks.moved
    if game.kind.seat_sequences:
        return lg.sequence(seat) > 0
    return lg.ply > seat


def public_state(game: Game, lg: LiveGame | None = None, *, final: bool = True,
                 history: bool = True) -> dict[str, Any]:
    """The snapshot broadcast to a group: a spectator's view without `you`/`viewer` (each
    client keeps its own seat)."""
    state = state_of(game, lg, final=final, history=history)
    del state["you"], state["viewer"]
    return state


def frame_state(game: Game, lg: LiveGame | None, viewer: Viewer, *, final: bool = True
                ) -> dict[str, Any]:
    """The state a frame for `viewer` carries (games.frames.audiences): a kind that hides nothing
    sends every connection the spectator's state (`public_state`); one that hides
    information, the viewer's own (a spectator's without `you`/`viewer`). Without the
    history (`turns`, `log`) for a kind whose frames do not repeat it
    (`GameKind.history_in_frames`)."""
    history = game.kind.history_in_frames
    if viewer is None or not game.kind.hidden_information:
        return public_state(game, lg, final=final, history=history)
    return state_of(game, lg, viewer=viewer, final=final, history=history)
