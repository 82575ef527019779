"""Rating writes: a member's ratings per game type (`Rating` rows), recorded by the finish
seam inside the transaction that records the result (so a result and its rating change
commit together or not at all), taken back when a game is voided. Also which rating a seat
shows in a game.

Which games count, and how (the game's kind chooses the method, `GameKind.rating_method`):
- an online game that is `rated`, between different members in every seat, changes each
  member's online rating of that game type: Elo with two seats ("elo", rankings.elo), or
  OpenSkill's Plackett-Luce over the finishing places with 2-4 seats ("openskill",
  rankings.multiplayer);
- a member's game against CargoBot changes their vs CargoBot rating of that game type
  against the level's fixed rating ("vs_cargobot"); a game against another kind's bots
  (Cargo Express against ExpressBots) is casual and changes none.
Nothing else does (guests, Daily Challenge games, puzzles).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db.models import F

from accounts.models import Player
from games.kinds import get_kind
from games.models import Game, Seat
from games.results import Ending, Stage, on_game_end

from . import multiplayer
from .elo import BOT_RATINGS, START_RATING, new_rating
from .models import BotRatingChange, Rating, RatingChange

SCORE = {Seat.Outcome.WIN: 1.0, Seat.Outcome.DRAW: 0.5, Seat.Outcome.LOSS: 0.0}
ELO, OPENSKILL, VS_CARGOBOT = "elo", "openskill", "vs_cargobot"  # Rating.Kind's values
CARGO_CONNECT = "cargo-connect"
_NOW = "_rankings_now"  # a game's members' rating rows as they are now, cached on the game


def online_kind(game_type: str) -> str:
    """The rating kind an online game of this type counts for: its kind's `rating_method`
    ("elo" for a kind no longer registered)."""
    try:
        method = get_kind(game_type).rating_method
    except (KeyError, ValueError):
        method = ELO
    if method not in (ELO, OPENSKILL):
        raise ValueError(f"unknown rating method {method!r} of {game_type!r}")
    return method


def member_kind(game: Game) -> str | None:
    """The rating kind a member's seat in this game counts for and shows, or None."""
    if game.mode == Game.Mode.ONLINE:
        return online_kind(game.game_type)
    if game.mode == Game.Mode.BOT:  # the vs CargoBot rating is Cargo Connect's: another
        # kind's game against its bots (Cargo Express's) is casual and shows no rating
        return VS_CARGOBOT if game.game_type == CARGO_CONNECT else None
    return None  # the Daily Challenge


def ratings_of(user_ids: list[int], game_type: str, kind: str) -> dict[int, Rating]:
    """These members' rating rows of one type and kind (one query); a member without a
    row has none here (they are at the start: `value_of`)."""
    rows = Rating.objects.filter(user_id__in=user_ids, game_type=game_type, kind=kind)
    return {r.user_id: r for r in rows}


def value_of(row: Rating | None) -> int:
    return row.value if row is not None else START_RATING


def _now(game: Game) -> dict[int, Rating]:
    """The game's members' rating rows of the kind it counts, as they are now (one query
    per game object; a rating write or void drops it)."""
    cached = game.__dict__.get(_NOW)
    if cached is None:
        kind = member_kind(game)
        ids = [s.user_id for s in game.seat_list if s.user_id is not None and not s.bot_level]
        cached = ratings_of(ids, game.game_type, kind) if kind and ids else {}
        game.__dict__[_NOW] = cached
    return cached


def shown_rating(game: Game, seat: Seat) -> int | None:
    """The rating a seat shows in this game: a bot's level's fixed rating, a member's vs
    CargoBot rating against CargoBot, else their online rating of this game type (Elo or
    the multiplayer rating, as the kind rates)."""
    if member_kind(game) is None:  # the Daily Challenge: none
        return None
    if seat.bot_level:
        return BOT_RATINGS.get(seat.bot_level)
    if seat.user_id is None:
        return None
    return value_of(_now(game).get(seat.user_id))


def rating_kind(game: Game, seat: Seat) -> str | None:
    """Which rating a seat shows in this game: "elo" (a member online, a kind rated by Elo),
    "openskill" (a member online, a kind rated by OpenSkill), "vs_cargobot" (a member
    against CargoBot), "bot_level" (CargoBot's level's fixed rating), None (a guest, an
    empty seat, any seat of a mode no rating counts: the Daily Challenge)."""
    kind = member_kind(game)
    if kind is None:
        return None
    if seat.bot_level:
        return "bot_level"
    if seat.user_id is None:
        return None
    return kind


class SeatChange(NamedTuple):
    """What a finished game did to a seat's rating: the rating before it and the change."""

    before: int
    delta: int


def rating_changes(game: Game) -> dict[int, SeatChange]:
    """A finished game's rating changes by seat (1200 +20, 1200 -20; in a game of three or
    four, every member's), from the rating history: the online rating in a rated online
    game, the vs CargoBot rating in a casual game against CargoBot; {} otherwise (one query,
    none while the game goes on). A finished game shows these, never the member's rating
    today (issue #27: "1182 +22" where 1182 came from later games)."""
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


def _locked(user_ids: list[int], game_type: str, kind: str) -> dict[int, Rating]:
    """The members' rating rows of one type and kind, made if missing and locked in id
    order (no deadlock). Their `Player` rows are made too (the member's row beside the
    user, which profiles and the admin list)."""
    start = ({"mu": multiplayer.START_MU, "sigma": multiplayer.START_SIGMA}
             if kind == OPENSKILL else {})
    Player.objects.bulk_create([Player(user_id=u) for u in user_ids], ignore_conflicts=True)
    Rating.objects.bulk_create([Rating(user_id=u, game_type=game_type, kind=kind, **start)
                                for u in user_ids], ignore_conflicts=True)
    rows = (Rating.objects.select_for_update()
            .filter(user_id__in=user_ids, game_type=game_type, kind=kind).order_by("user_id"))
    return {r.user_id: r for r in rows}


def _show(game: Game) -> None:
    """The state sent next reads the game's members' ratings afresh."""
    game.__dict__.pop(_NOW, None)


def _rated_members(game: Game) -> list[Seat] | None:
    """A rated online game's seats when every one is held by a different member; else
    None (a guest, a bot, an empty seat or a member in two seats: not rated)."""
    if game.mode != Game.Mode.ONLINE or not game.rated:
        return None
    seats = game.seat_list
    users = [s.user_id for s in seats]
    if any(u is None for u in users) or len(set(users)) != len(users):
        return None
    return seats


@on_game_end("rankings.elo", Stage.IN_TRANSACTION, order=10)
def record_elo(ending: Ending) -> None:
    game = ending.game
    if ending.voided:
        _take_back_online(game)
        return
    seats = _rated_members(game)
    if seats is None or len(seats) != 2 or online_kind(game.game_type) != ELO:
        return
    a, b = seats
    assert a.user_id is not None and b.user_id is not None
    if RatingChange.objects.filter(game=game).exists():
        return
    rows = _locked(sorted([a.user_id, b.user_id]), game.game_type, ELO)
    ra, rb = rows[a.user_id], rows[b.user_id]
    score = SCORE[Seat.Outcome(a.outcome)]
    after = {
        a.user_id: new_rating(ra.value, rb.value, score, ra.games),
        b.user_id: new_rating(rb.value, ra.value, 1 - score, rb.games),
    }
    for row in (ra, rb):
        RatingChange.objects.create(game=game, user_id=row.user_id, before=row.value,
                                    after=after[row.user_id])
        row.value = after[row.user_id]
        row.games += 1
        row.save(update_fields=["value", "games"])
    _show(game)


@on_game_end("rankings.openskill", Stage.IN_TRANSACTION, order=12)
def record_openskill(ending: Ending) -> None:
    """A rated online game of a kind rated by OpenSkill: every member's rating of the type
    moves by the finishing places (seats that share a place tie). Its take-back on void is
    `record_elo`'s (one history table for both)."""
    game = ending.game
    if ending.voided:
        return
    seats = _rated_members(game)
    if (seats is None or not 2 <= len(seats) <= 4
            or online_kind(game.game_type) != OPENSKILL
            or any(s.place is None for s in seats)
            or RatingChange.objects.filter(game=game).exists()):
        return
    ids = [s.user_id for s in seats if s.user_id is not None]
    rows = _locked(sorted(ids), game.game_type, OPENSKILL)
    before = [rows[user_id] for user_id in ids]
    skills = [multiplayer.Skill(_mu(r), _sigma(r)) for r in before]
    after = multiplayer.rate(skills, [int(s.place or 0) for s in seats])
    for row, old, new in zip(before, skills, after, strict=True):
        value = multiplayer.displayed(new.mu)
        RatingChange.objects.create(game=game, user_id=row.user_id, before=row.value,
                                    after=value, mu_before=old.mu, sigma_before=old.sigma,
                                    mu_after=new.mu, sigma_after=new.sigma)
        row.mu, row.sigma, row.value = new.mu, new.sigma, value
        row.games += 1
        row.save(update_fields=["mu", "sigma", "value", "games"])
    _show(game)


def _mu(row: Rating) -> float:
    return row.mu if row.mu is not None else multiplayer.START_MU


def _sigma(row: Rating) -> float:
    return row.sigma if row.sigma is not None else multiplayer.START_SIGMA


@on_game_end("rankings.bot_rating", Stage.IN_TRANSACTION, order=20)
def record_bot_rating(ending: Ending) -> None:
    game = ending.game
    if ending.voided:
        _take_back_bot_rating(game)
        return
    if game.mode != Game.Mode.BOT or game.game_type != CARGO_CONNECT:
        return
    humans = [s for s in game.seat_list if s.user_id is not None]
    level = game.bot_level
    if len(humans) != 1 or level is None or BotRatingChange.objects.filter(game=game).exists():
        return
    seat = humans[0]
    assert seat.user_id is not None
    row = _locked([seat.user_id], game.game_type, VS_CARGOBOT)[seat.user_id]
    score = SCORE[Seat.Outcome(seat.outcome)]
    bot_rating = BOT_RATINGS[level]
    after = new_rating(row.value, bot_rating, score, row.games)
    BotRatingChange.objects.create(game=game, user_id=seat.user_id, level=level,
                                   bot_rating=bot_rating, score=score,
                                   before=row.value, after=after)
    row.value = after
    row.games += 1
    row.save(update_fields=["value", "games"])
    _show(game)


def _take_back_online(game: Game) -> None:
    """A voided game's online changes are taken back by their size (later games stand):
    Elo's in the rating; OpenSkill's in mu and sigma, the shown rating then derived again."""
    changes = list(RatingChange.objects.filter(game=game))
    if not changes:
        return
    kind = OPENSKILL if changes[0].mu_before is not None else ELO
    rows = _locked(sorted(c.user_id for c in changes), game.game_type, kind)
    for change in changes:
        row = rows[change.user_id]
        if kind == ELO:
            Rating.objects.filter(pk=row.pk).update(value=F("value") - change.delta,
                                                    games=F("games") - 1)
            continue
        assert change.mu_after is not None and change.sigma_after is not None
        assert change.mu_before is not None and change.sigma_before is not None
        row.mu = _mu(row) - (change.mu_after - change.mu_before)
        row.sigma = _sigma(row) - (change.sigma_after - change.sigma_before)
        row.value = multiplayer.displayed(row.mu)
        row.games -= 1
        row.save(update_fields=["mu", "sigma", "value", "games"])
    RatingChange.objects.filter(game=game).delete()
    _show(game)


def _take_back_bot_rating(game: Game) -> None:
    change = BotRatingChange.objects.filter(game=game).first()
    if change is None:
        return
    _locked([change.user_id], game.game_type, VS_CARGOBOT)
    Rating.objects.filter(user_id=change.user_id, game_type=game.game_type,
                          kind=VS_CARGOBOT).update(value=F("value") - change.delta,
                                                   games=F("games") - 1)
    change.delete()
    _show(game)


def member_ratings(user: Any) -> list[Rating]:
    """Every rating row a member has, Cargo Connect's first, then by game type and kind."""
    rows = list(Rating.objects.filter(user=user))
    order = {ELO: 0, OPENSKILL: 1, VS_CARGOBOT: 2}
    return sorted(rows, key=lambda r: (r.game_type != CARGO_CONNECT, r.game_type,
                                       order.get(r.kind, 9)))
