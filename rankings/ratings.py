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
  against the level's fixed rating ("vs_cargobot"; the kind's `bot_ratings`); a game
  against the bots of a kind without fixed ratings (Cargo Express against ExpressBots) is
  casual and changes none.
Nothing else does (guests, Daily Challenge games, puzzles).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from django.conf import settings
from django.db.models import F

from accounts.models import Player
from games.kinds import get_kind
from games.models import Game, Seat
from games.results import Ending, Stage, on_game_end

from . import multiplayer
from .elo import START_RATING, new_rating
from .models import BotRatingChange, Rating, RatingChange

SCORE = {Seat.Outcome.WIN: 1.0, Seat.Outcome.DRAW: 0.5, Seat.Outcome.LOSS: 0.0}
ELO, OPENSKILL, VS_CARGOBOT = "elo", "openskill", "vs_cargobot"  # Rating.System's values
_NOW = "_rankings_now"  # a game's members' rating rows as they are now, cached on the game


def online_system(game_type: str) -> str:
    """The rating system an online game of this type counts for: its kind's `rating_method`
    ("elo" for a kind no longer registered)."""
    try:
        method = get_kind(game_type).rating_method
    except (KeyError, ValueError):
        method = ELO
    if method not in (ELO, OPENSKILL):
        raise ValueError(f"unknown rating method {method!r} of {game_type!r}")
    return method


def bot_ratings(game_type: str) -> Mapping[str, int]:
    """The fixed ratings of a game type's bot levels (its kind's `bot_ratings`): empty for a
    kind whose games against its bots count for no rating, or a kind no longer registered."""
    try:
        return get_kind(game_type).bot_ratings
    except (KeyError, ValueError):
        return {}


def member_system(game: Game) -> str | None:
    """The rating system a member's seat in this game counts for and shows, or None."""
    if game.mode == Game.Mode.ONLINE:
        return online_system(game.game_type)
    if game.mode == Game.Mode.BOT:  # a kind with rated bots (Cargo Connect's CargoBot);
        # another kind's game against its bots (Cargo Express's) is casual and shows none
        return VS_CARGOBOT if bot_ratings(game.game_type) else None
    return None  # the Daily Challenge


def ratings_of(user_ids: list[int], game_type: str, system: str) -> dict[int, Rating]:
    """These members' rating rows of one type and system (one query); a member without a
    row has none here (they are at the start: `value_of`)."""
    rows = Rating.objects.filter(user_id__in=user_ids, game_type=game_type, system=system)
    return {r.user_id: r for r in rows}


def value_of(row: Rating | None) -> int:
    return row.value if row is not None else START_RATING


def host_ratings(user_ids: list[int], game_type: str) -> dict[int, int]:
    """These members' online ratings of a game type (the kind's method), the start rating
    for a member without a row: one query (games.frames.shown_ratings, the lobby's hosts)."""
    rows = ratings_of(user_ids, game_type, online_system(game_type))
    return {user_id: value_of(rows.get(user_id)) for user_id in user_ids}


def _now(game: Game) -> dict[int, Rating]:
    """The game's members' rating rows of the system it counts, as they are now (one query
    per game object; a rating write or void drops it)."""
    cached = game.__dict__.get(_NOW)
    if cached is None:
        system = member_system(game)
        ids = [s.user_id for s in game.seat_list if s.user_id is not None and not s.bot_level]
        cached = ratings_of(ids, game.game_type, system) if system and ids else {}
        game.__dict__[_NOW] = cached
    return cached


def shown_rating(game: Game, seat: Seat) -> int | None:
    """The rating a seat shows in this game: a bot's level's fixed rating, a member's vs
    CargoBot rating against CargoBot, else their online rating of this game type (Elo or
    the multiplayer rating, as the kind rates)."""
    if member_system(game) is None:  # the Daily Challenge: none
        return None
    if seat.bot_level:  # CargoBot's levels' fixed ratings; another kind's bots have none
        return bot_ratings(game.game_type).get(seat.bot_level)
    if seat.user_id is None:
        return None
    return value_of(_now(game).get(seat.user_id))


def rating_system(game: Game, seat: Seat) -> str | None:
    """Which rating a seat shows in this game: "elo" (a member online, a kind rated by Elo),
    "openskill" (a member online, a kind rated by OpenSkill), "vs_cargobot" (a member
    against CargoBot), "bot_level" (CargoBot's level's fixed rating), None (a guest, an
    empty seat, any seat of a mode no rating counts: the Daily Challenge). The live state
    sends it as `rating_kind` (games.frames.states)."""
    system = member_system(game)
    if system is None:
        return None
    if seat.bot_level:
        return "bot_level"
    if seat.user_id is None:
        return None
    return system


class SeatChange(NamedTuple):
    """What a finished game did to a seat's rating: the rating before it and the change;
    whether the rating was provisional before it (OpenSkill's sigma then)."""

    before: int
    delta: int
    provisional: bool = False


def rating_changes(game: Game) -> dict[int, SeatChange]:
    """A finished game's rating changes by seat (1200 +20, 1200 -20; in a game of three or
    four, every member's), from the rating history: the online rating in a rated online
    game, the vs CargoBot rating in a casual game against CargoBot; {} otherwise (one query,
    none while the game goes on). A finished game shows these, never the member's rating
    today (issue #27: "1182 +22" where 1182 came from later games)."""
    if game.status != Game.Status.FINISHED or game.mode not in (Game.Mode.ONLINE,
                                                                 Game.Mode.BOT):
        return {}
    rows: list[tuple[int, int, int, float | None]]
    if game.mode == Game.Mode.ONLINE:
        if not game.rated:
            return {}
        rows = list(RatingChange.objects.filter(game=game)
                    .values_list("user_id", "before", "after", "sigma_before"))
    else:
        rows = [(*row, None) for row in BotRatingChange.objects.filter(game=game)
                .values_list("user_id", "before", "after")]
    by_user = {user_id: SeatChange(before, after - before,
                                   sigma is not None and multiplayer.provisional(sigma))
               for user_id, before, after, sigma in rows}
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


def game_provisional(game: Game, seat: Seat, changes: dict[int, SeatChange]) -> bool:
    """Is the rating a seat shows on this game's pages provisional (a multiplayer rating
    still uncertain, marked "?" as on the boards)? While the game goes on: the member's
    rating now (no row yet: a new player's, provisional). Once it is over: the rating
    before the game, from its history. Elo ratings and bots' are never marked."""
    if seat.bot_level or seat.user_id is None:
        return False
    if game.is_over:
        change = changes.get(seat.index)
        return change is not None and change.provisional
    if member_system(game) != OPENSKILL:
        return False
    row = _now(game).get(seat.user_id)
    return multiplayer.provisional(_sigma(row) if row is not None
                                   else multiplayer.START_SIGMA)


def _locked(user_ids: list[int], game_type: str, system: str) -> dict[int, Rating]:
    """The members' rating rows of one type and system, made if missing and locked in id
    order (no deadlock). Their `Player` rows are made too (the member's row beside the
    user, which profiles and the admin list)."""
    start = ({"mu": multiplayer.START_MU, "sigma": multiplayer.START_SIGMA}
             if system == OPENSKILL else {})
    Player.objects.bulk_create([Player(user_id=u) for u in user_ids], ignore_conflicts=True)
    Rating.objects.bulk_create([Rating(user_id=u, game_type=game_type, system=system,
                                       **start) for u in user_ids], ignore_conflicts=True)
    rows = (Rating.objects.select_for_update()
            .filter(user_id__in=user_ids, game_type=game_type, system=system)
            .order_by("user_id"))
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
    if seats is None or len(seats) != 2 or online_system(game.game_type) != ELO:
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
            or online_system(game.game_type) != OPENSKILL
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
    fixed = bot_ratings(game.game_type)
    if game.mode != Game.Mode.BOT or not fixed:
        return
    humans = [s for s in game.seat_list if s.user_id is not None]
    level = game.bot_level
    if len(humans) != 1 or level is None or BotRatingChange.objects.filter(game=game).exists():
        return
    seat = humans[0]
    assert seat.user_id is not None
    row = _locked([seat.user_id], game.game_type, VS_CARGOBOT)[seat.user_id]
    score = SCORE[Seat.Outcome(seat.outcome)]
    bot_rating = fixed[level]
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
    system = OPENSKILL if changes[0].mu_before is not None else ELO
    rows = _locked(sorted(c.user_id for c in changes), game.game_type, system)
    for change in changes:
        row = rows[change.user_id]
        if system == ELO:
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
                          system=VS_CARGOBOT).update(value=F("value") - change.delta,
                                                     games=F("games") - 1)
    change.delete()
    _show(game)


def member_ratings(user: Any) -> list[Rating]:
    """Every rating row a member has, the default game's first (settings.DEFAULT_GAME_KIND),
    then by game type and system."""
    rows = list(Rating.objects.filter(user=user))
    order = {ELO: 0, OPENSKILL: 1, VS_CARGOBOT: 2}
    first = settings.DEFAULT_GAME_KIND
    return sorted(rows, key=lambda r: (r.game_type != first, r.game_type,
                                       order.get(r.system, 9)))
