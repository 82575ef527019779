"""Rating writes: the Elo rating of online games and the vs CargoBot rating of casual games
against CargoBot, recorded by the finish seam inside the transaction that records the
result (so a result and its rating change commit together or not at all), taken back when
a game is voided. Also which rating a seat shows in a game.

Which games count: an online game that is `rated`, between two different members, changes
both Elo ratings; a member's game against CargoBot changes their vs CargoBot rating against
the level's fixed rating. Nothing else does (guests, Daily Challenge games, puzzles).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db.models import F

from accounts.models import Player
from games.models import Game, Seat
from games.results import Ending, Stage, on_game_end

from .elo import BOT_RATINGS, START_RATING, new_rating
from .models import BotRatingChange, RatingChange

SCORE = {Seat.Outcome.WIN: 1.0, Seat.Outcome.DRAW: 0.5, Seat.Outcome.LOSS: 0.0}


def elo_of(user: Any) -> int:
    player = getattr(user, "player", None)
    return player.rating if player else START_RATING


def shown_rating(game: Game, seat: Seat) -> int | None:
    """The rating a seat shows in this game: a bot's level's fixed rating, a member's vs
    CargoBot rating against CargoBot, else their Elo rating."""
    if game.mode not in (Game.Mode.ONLINE, Game.Mode.BOT):  # the Daily Challenge: none
        return None
    if seat.bot_level:
        return BOT_RATINGS.get(seat.bot_level)
    if seat.user is None:
        return None
    player = getattr(seat.user, "player", None)
    if game.mode == Game.Mode.BOT:
        return player.bot_rating if player else START_RATING
    return player.rating if player else START_RATING


def rating_kind(game: Game, seat: Seat) -> str | None:
    """Which rating a seat shows in this game: "elo" (a member online), "vs_cargobot" (a
    member against CargoBot), "bot_level" (CargoBot's level's fixed rating), None (a
    guest, an empty seat, any seat of a mode no rating counts: the Daily Challenge)."""
    if game.mode not in (Game.Mode.ONLINE, Game.Mode.BOT):
        return None
    if seat.bot_level:
        return "bot_level"
    if seat.user_id is None:
        return None
    return "vs_cargobot" if game.mode == Game.Mode.BOT else "elo"


class SeatChange(NamedTuple):
    """What a finished game did to a seat's rating: the rating before it and the change."""

    before: int
    delta: int


def rating_changes(game: Game) -> dict[int, SeatChange]:
    """A finished game's rating changes by seat (1200 +20, 1200 -20), from the rating
    history: Elo in a rated online game, the vs CargoBot rating in a casual game against
    CargoBot; {} otherwise (one query, none while the game goes on). A finished game shows
    these, never the member's rating today (issue #27: "1182 +22" where 1182 came from
    later games)."""
    if game.status != Game.Status.FINISHED or game.mode not in (Game.Mode.ONLINE,
                                                                 Game.Mode.BOT):
        return {}
    rows: list[tuple[int, int, int]]
    if game.mode == Game.Mode.ONLINE:
        if not game.rated:
            return {}
        rows = list(RatingChange.objects.filter(game=game)
                    .values_list("user_id", "before", "after"))
    else:
        rows = list(BotRatingChange.objects.filter(game=game)
                    .values_list("user_id", "before", "after"))
    by_user = {user_id: SeatChange(before, after - before) for user_id, before, after in rows}
    return {s.index: by_user[s.user_id] for s in game.seat_list if s.user_id in by_user}


def game_rating(game: Game, seat: Seat, changes: dict[int, SeatChange]) -> int | None:
    """The rating a seat shows on this game's pages. While the game goes on: the rating
    this mode counts, as it is now (`shown_rating`). Once it is over: a bot level's fixed
    rating, or the member's rating before the game when the game changed it (`changes`);
    otherwise none, since today's rating is not a fact of that game (an unrated game, an
    aborted or voided one)."""
    if not game.is_over or seat.bot_level:
        return shown_rating(game, seat)
    change = changes.get(seat.index)
    return None if change is None else change.before


def _locked_players(user_ids: list[int]) -> dict[int, Player]:
    """The members' rating rows, made if missing and locked in id order (no deadlock)."""
    for user_id in user_ids:
        Player.objects.get_or_create(user_id=user_id)
    return {p.user_id: p for p in
            Player.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")}


def _show(game: Game, players: dict[int, Player]) -> None:
    """The seats' users carry the new ratings, so the state sent next shows them."""
    for seat in game.seat_list:
        if seat.user is not None and seat.user_id in players:
            seat.user.player = players[seat.user_id]


@on_game_end("rankings.elo", Stage.IN_TRANSACTION, order=10)
def record_elo(ending: Ending) -> None:
    game = ending.game
    if ending.voided:
        _take_back_elo(game)
        return
    seats = game.seat_list
    if game.mode != Game.Mode.ONLINE or not game.rated or len(seats) != 2:
        return
    a, b = seats
    if a.user_id is None or b.user_id is None or a.user_id == b.user_id:
        return
    if RatingChange.objects.filter(game=game).exists():
        return
    players = _locked_players(sorted([a.user_id, b.user_id]))
    pa, pb = players[a.user_id], players[b.user_id]
    score = SCORE[Seat.Outcome(a.outcome)]
    after = {
        a.user_id: new_rating(pa.rating, pb.rating, score, pa.rated_games),
        b.user_id: new_rating(pb.rating, pa.rating, 1 - score, pb.rated_games),
    }
    for player in (pa, pb):
        RatingChange.objects.create(game=game, user_id=player.user_id, before=player.rating,
                                    after=after[player.user_id])
        player.rating = after[player.user_id]
        player.rated_games += 1
        player.save(update_fields=["rating", "rated_games"])
    _show(game, players)


@on_game_end("rankings.bot_rating", Stage.IN_TRANSACTION, order=20)
def record_bot_rating(ending: Ending) -> None:
    game = ending.game
    if ending.voided:
        _take_back_bot_rating(game)
        return
    if game.mode != Game.Mode.BOT:
        return
    humans = [s for s in game.seat_list if s.user_id is not None]
    level = game.bot_level
    if len(humans) != 1 or level is None or BotRatingChange.objects.filter(game=game).exists():
        return
    seat = humans[0]
    assert seat.user_id is not None
    players = _locked_players([seat.user_id])
    player = players[seat.user_id]
    score = SCORE[Seat.Outcome(seat.outcome)]
    bot_rating = BOT_RATINGS[level]
    after = new_rating(player.bot_rating, bot_rating, score, player.bot_games)
    BotRatingChange.objects.create(game=game, user_id=seat.user_id, level=level,
                                   bot_rating=bot_rating, score=score,
                                   before=player.bot_rating, after=after)
    player.bot_rating = after
    player.bot_games += 1
    player.save(update_fields=["bot_rating", "bot_games"])
    _show(game, players)


def _take_back_elo(game: Game) -> None:
    """A voided game's Elo changes are taken back (by their size: later games stand)."""
    changes = list(RatingChange.objects.filter(game=game))
    if not changes:
        return
    _locked_players(sorted(c.user_id for c in changes))
    for change in changes:
        Player.objects.filter(user_id=change.user_id).update(
            rating=F("rating") - change.delta, rated_games=F("rated_games") - 1)
    RatingChange.objects.filter(game=game).delete()
    _show(game, _fresh_players(game))


def _take_back_bot_rating(game: Game) -> None:
    change = BotRatingChange.objects.filter(game=game).first()
    if change is None:
        return
    _locked_players([change.user_id])
    Player.objects.filter(user_id=change.user_id).update(
        bot_rating=F("bot_rating") - change.delta, bot_games=F("bot_games") - 1)
    change.delete()
    _show(game, _fresh_players(game))


def _fresh_players(game: Game) -> dict[int, Player]:
    ids = [s.user_id for s in game.seat_list if s.user_id is not None]
    return {p.user_id: p for p in Player.objects.filter(user_id__in=ids)}
