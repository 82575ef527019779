"""The profile page's queries: a member's ratings with their history, record by mode,
shapes and cards, streaks, achievements, tournament results (read from
`tournaments.results`: their finished tournaments with their place), head-to-head and
games. Read from the per-game
`GameStats` rows, the rating history in `rankings`, and the games' seats for the lists;
never from live-play code, never by replaying games. Every query is bounded: a profile with
thousands of games costs the same number of queries as one with ten.

Only online games and casual games against CargoBot count; the Daily Challenge and puzzles
count in none of this (and their games are not listed here).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import (
    Avg,
    Case,
    CharField,
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    Sum,
    Value,
    When,
)

from games.kinds import GameKind, KindError, default_kind, get_kind
from games.models import Game, Seat
from rankings.boards import TITLES
from rankings.elo import START_RATING
from rankings.models import BotRatingChange, Rating, RatingChange
from rankings.multiplayer import provisional
from rankings.ratings import VS_CARGOBOT, member_ratings, online_system
from tournaments.results import member_results, member_totals

from .achievements import ACHIEVEMENTS
from .bots import bot_accounts, bot_since
from .charts import line_chart
from .models import EarnedAchievement, GameStats, SeatStats
from .stats import CARD_FIELDS, CARDS, COUNTED_MODES, SHAPE_FIELDS, SHAPES, card_names
from .streaks import streaks_of

RECENT = 10
PAGE_SIZE = 50
HEAD_TO_HEAD = 10
BOT_LEVELS = ("easy", "medium", "hard")
WIN, LOSS, DRAW = Seat.Outcome.WIN, Seat.Outcome.LOSS, Seat.Outcome.DRAW


def find_member(username: str) -> tuple[Any, bool] | None:
    """The active member with this username in any letter case, and whether the spelling
    asked for differs from theirs (the page then redirects to it)."""
    User = get_user_model()
    users = User.objects.filter(username__iexact=username, is_active=True)
    exact = next((u for u in users if u.get_username() == username), None)
    if exact is not None:
        return exact, False
    other = min(users, key=lambda u: u.pk, default=None)
    return (other, True) if other is not None else None


def profile(user: Any, viewer: Any = None, vs: Any = None) -> dict[str, Any]:
    """The page's context for an active member; `viewer` the signed-in member (or None),
    `vs` another member to show the head-to-head against (default: the viewer)."""
    stats = GameStats.objects.filter(user=user)
    other = vs if vs is not None else viewer
    if other is not None and other.pk == user.pk:
        other = None
    return {
        "profile_user": user,
        # a BOT account's upgrade (accounts.bots): its date read only for one
        "bot_since": bot_since(user) if user.pk in bot_accounts() else None,
        "ratings": _ratings(user),
        "modes": _by_mode(stats),
        "totals": _totals(stats),
        "other_games": other_games(user),
        "streaks": streaks_of(user),
        "cabinet": _cabinet(user),
        "tournaments": member_results(user),
        "tournament_totals": member_totals(user),
        "opponents": _opponents(stats),
        "versus": _versus(user, other) if other is not None else None,
        "recent": [row_of(game, user) for game in _games(user)[:RECENT]],
    }


def default_game_cards(kind: GameKind) -> list[tuple[str, str, str, str]]:
    """The default game's cards, always shown (the start rating before a first game), as
    (rating system, card key, label, note): its online rating, and its vs-bot rating if its
    bots have fixed ratings. Cargo Connect's keep their keys of before ratings were kept per
    game type ("elo", "bot")."""
    method = online_system(kind.key)
    cards = [(method, "elo" if method == "elo" else method, TITLES.get(method, method),
              "online games against people")]
    if kind.bot_ratings:
        cards.append((VS_CARGOBOT, "bot", f"vs {kind.bots_name} rating",
                      f"casual games against {kind.bots_name}"))
    return cards

NOTES = {"elo": "rated online games", "openskill": "rated online games",
         "vs_cargobot": "casual games against CargoBot"}


def _ratings(user: Any) -> list[dict[str, Any]]:
    """A card per rating the member has, each game type's: the default game's (Cargo
    Connect's Elo and vs CargoBot ratings) always, then every other type's rating the member
    has a row of. Two queries whatever the number of types: the rows, and every history in
    one."""
    rows = {(r.game_type, r.system): r for r in member_ratings(user)}
    series = _histories(user)
    first = default_kind().key
    cards = []
    for system, key, label, note in default_game_cards(default_kind()):
        cards.append(_card(rows.get((first, system)), key, label, note,
                           series.get((first, system), [])))
    for (game_type, system), row in rows.items():
        if game_type == first:
            continue
        label = f"{_type_name(game_type)}: {TITLES.get(system, system)}"
        cards.append(_card(row, f"{game_type}-{system}", label, NOTES.get(system, ""),
                           series.get((game_type, system), [])))
    return cards


def _type_name(game_type: str) -> str:
    try:
        return get_kind(game_type).name
    except KindError:
        return game_type


def _card(row: Rating | None, key: str, label: str, note: str, changes: list[tuple[int, int]]
          ) -> dict[str, Any]:
    points = [changes[0][0], *(after for _, after in changes)] if changes else []
    return {"key": key, "label": label, "note": note,
            "rating": row.value if row else START_RATING, "games": row.games if row else 0,
            "provisional": row is not None and row.sigma is not None
            and provisional(row.sigma),
            "chart": line_chart(points, label), "peak": max(points) if points else None}


def _histories(user: Any) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """Every rating history of the member, (before, after) in order, by (game type, system):
    the online history (Elo, or OpenSkill where it has mu) and the vs CargoBot one, in one
    query."""
    online = RatingChange.objects.filter(user=user).annotate(
        gt=F("game__game_type"),
        system=Case(When(mu_before__isnull=True, then=Value("elo")),
                    default=Value("openskill"), output_field=CharField()),
    ).order_by().values_list("before", "after", "created_at", "id", "gt", "system")
    bot = BotRatingChange.objects.filter(user=user).annotate(
        gt=F("game__game_type"),
        system=Value("vs_cargobot", output_field=CharField()),
    ).order_by().values_list("before", "after", "created_at", "id", "gt", "system")
    out: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for before, after, _, _, game_type, system in online.union(bot, all=True).order_by(
            "created_at", "id"):
        out.setdefault((game_type, system), []).append((before, after))
    return out


def _by_mode(stats: Any) -> list[dict[str, Any]]:
    """Won, lost and drawn: online against people, then against each CargoBot level."""
    counted = {(r["mode"], r["opponent_bot"]): r for r in stats.values("mode", "opponent_bot")
               .annotate(won=Count("id", filter=Q(outcome=WIN)),
                         lost=Count("id", filter=Q(outcome=LOSS)),
                         drawn=Count("id", filter=Q(outcome=DRAW)))}
    rows = [("Online against people", (Game.Mode.ONLINE, ""))]
    rows += [(f"Casual vs CargoBot {level.title()}", (Game.Mode.BOT, level))
             for level in BOT_LEVELS]
    out = []
    for label, key in rows:
        row: dict[str, Any] = counted.get(key, {"won": 0, "lost": 0, "drawn": 0})
        won, lost, drawn = int(row["won"]), int(row["lost"]), int(row["drawn"])
        played = won + lost + drawn
        out.append({"label": label, "played": played, "won": won, "lost": lost,
                    "drawn": drawn, "win_rate": round(100 * won / played) if played else None})
    return out


def _totals(stats: Any) -> dict[str, Any]:
    """Shapes unloaded, chits, perfect manifests, average final score, favourite card."""
    sums = stats.aggregate(
        games=Count("id"), perfect=Count("id", filter=Q(perfect=True)), average=Avg("score"),
        gold=Sum("gold_chits"), steel=Sum("steel_chits"), unloads=Sum("unloads"),
        **{f: Sum(f) for f in SHAPE_FIELDS + CARD_FIELDS})
    unloaded = [(s, int(sums[f] or 0)) for s, f in zip(SHAPES, SHAPE_FIELDS, strict=True)]
    most = max(n for _, n in unloaded)
    shapes = [{"shape": s, "count": n, "share": round(100 * n / most) if most else 0}
              for s, n in unloaded]
    cards = [(sums[f] or 0, -i, c) for i, (c, f) in enumerate(zip(CARDS, CARD_FIELDS,
                                                                    strict=True))]
    played, _, favourite = max(cards)
    return {
        "games": sums["games"], "perfect": sums["perfect"], "gold": sums["gold"] or 0,
        "steel": sums["steel"] or 0, "unloads": sums["unloads"] or 0, "shapes": shapes,
        "average": round(sums["average"], 1) if sums["average"] is not None else None,
        "favourite_card": card_names()[favourite] if played else None,
        "favourite_plays": played,
    }


ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def other_games(user: Any) -> list[dict[str, Any]]:
    """A panel per other game type the member has finished online games of (Cargo
    Express): games, rated games, places, average score, and the favourite of each of the
    kind's tallies (the character picked most), from `SeatStats`. One query whatever the
    number of games: five small columns of the member's rows (as the streaks read theirs)."""
    panels: dict[str, dict[str, Any]] = {}
    rows = (SeatStats.objects.filter(user=user).order_by()
            .values_list("game_type", "place", "rated", "score", "tallies"))
    for game_type, place, rated, score, tallies in rows:
        panel = panels.setdefault(game_type, {"games": 0, "rated": 0, "total": 0,
                                              "places": {}, "tallies": {}})
        panel["games"] += 1
        panel["rated"] += int(rated)
        panel["total"] += score
        if place:
            panel["places"][place] = panel["places"].get(place, 0) + 1
        for tally, counts in (tallies or {}).items():
            into = panel["tallies"].setdefault(tally, {})
            for name, n in counts.items():
                into[name] = into.get(name, 0) + int(n)
    out = []
    for game_type, panel in sorted(panels.items()):
        most = min(max([4, *panel["places"]]), len(ORDINALS))
        favourites = []
        for tally, counts in sorted(panel["tallies"].items()):
            if counts:
                name, n = max(counts.items(), key=lambda item: (item[1], item[0]))
                favourites.append({"label": f"Favourite {tally}", "name": name, "count": n})
        out.append({"game_type": game_type, "name": _type_name(game_type),
                    "games": panel["games"], "rated": panel["rated"],
                    "places": [{"label": ORDINALS[p - 1], "count": panel["places"].get(p, 0)}
                               for p in range(1, most + 1)],
                    "average": round(panel["total"] / panel["games"], 1),
                    "favourites": favourites})
    return out


def _cabinet(user: Any) -> list[dict[str, Any]]:
    """Every achievement in list order, with when and by which game it was earned."""
    earned = {e.key: e for e in EarnedAchievement.objects.filter(user=user)}
    return [{"achievement": a, "earned": earned.get(a.key)} for a in ACHIEVEMENTS]


def _opponents(stats: Any) -> list[dict[str, Any]]:
    """The members played most, with the record against each."""
    rows = (stats.filter(opponent__isnull=False, opponent__is_active=True)
            .values("opponent__username")
            .annotate(played=Count("id"), won=Count("id", filter=Q(outcome=WIN)),
                      lost=Count("id", filter=Q(outcome=LOSS)),
                      drawn=Count("id", filter=Q(outcome=DRAW)))
            .order_by("-played", "opponent__username")[:HEAD_TO_HEAD])
    return [{"username": r["opponent__username"], **{k: r[k] for k in
             ("played", "won", "lost", "drawn")}} for r in rows]


def _versus(user: Any, other: Any) -> dict[str, Any]:
    """`user`'s record against `other`, from `other`'s side too (the page says "you")."""
    row = GameStats.objects.filter(user=user, opponent=other).aggregate(
        played=Count("id"), won=Count("id", filter=Q(outcome=WIN)),
        lost=Count("id", filter=Q(outcome=LOSS)), drawn=Count("id", filter=Q(outcome=DRAW)))
    return {"other": other, **row}


def _games(user: Any) -> Any:
    """The member's online and casual games (active or finished), newest first, each with
    its seats and their members."""
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return (Game.objects.filter(Exists(mine), mode__in=COUNTED_MODES,
                                status__in=[Game.Status.ACTIVE, Game.Status.FINISHED])
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
            .order_by("-created_at", "-id"))


def games_page(user: Any, number: Any) -> tuple[Page, list[dict[str, Any]]]:
    """One page of the member's full game list (a bad page number gives the nearest)."""
    page = Paginator(_games(user), PAGE_SIZE).get_page(number)
    return page, [row_of(game, user) for game in page.object_list]


# --- one game in words --------------------------------------------------------------------


def _n(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def _pair(mine: int, theirs: int) -> str:
    """"21–14"; "−4 to −14" when a score is negative (a dash between minus signs misleads)."""
    if mine < 0 or theirs < 0:
        return f"{_n(mine)} to {_n(theirs)}"
    return f"{mine}–{theirs}"


def result_words(outcome: str, score: int | None, other: int | None, *, resigned: bool,
                 other_resigned: bool, termination: str) -> str:
    """A result as people say it: "won 21–14", "lost by 3", "resigned", "drew 12–12"."""
    if termination == Game.Termination.TIMED_OUT:
        return "lost on time" if resigned else "won on time"
    if termination == Game.Termination.ABANDONED:
        left: dict[str, str] = {WIN: "won: the opponent left", DRAW: "drew: a player left"}
        return left.get(outcome, "lost: left the game")
    if resigned:
        return "resigned"
    if other_resigned:
        return "won by resignation"
    if score is None or other is None:
        words: dict[str, str] = {WIN: "won", LOSS: "lost", DRAW: "drew"}
        return words.get(outcome, outcome)
    if outcome == WIN:
        return f"won {_pair(score, other)}"
    if outcome == DRAW:
        return f"drew {_pair(score, other)}"
    if other > score:
        return f"lost by {other - score}"
    return f"lost on the tiebreak, {_pair(score, other)}"


def place_words(mine: Seat, seats: list[Seat]) -> str:
    """A place at a table of more than two: "1st of 3 with 21", "2nd of 4 (shared) with
    18", "4th of 4: left the game" (resigned, or out on time twice: a bot played on)."""
    shared = sum(1 for s in seats if s.place == mine.place) > 1
    words = f"{ORDINALS[mine.place - 1]} of {len(seats)}{' (shared)' if shared else ''}" \
        if mine.place and mine.place <= len(ORDINALS) else f"place {mine.place}"
    if mine.resigned:
        return f"{words}: left the game"
    return f"{words} with {mine.score}" if mine.score is not None else words


def row_of(game: Game, user: Any) -> dict[str, Any]:
    """One game in a profile's lists: the member's side, the opponent, the result in words,
    the bay's size."""
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    game.set_seats(seats)
    kind = game.kind
    mine = next(s for s in seats if s.user_id == user.pk)
    others = [s for s in seats if s.index != mine.index]
    opponents = [{"name": s.holder_name(kind) or "?",
                  "member": s.user.get_username() if s.user and s.user.is_active else None}
                 for s in others]
    if game.status == Game.Status.ACTIVE:
        result, outcome = "playing", "playing"
    elif len(others) > 1 and mine.place:
        result, outcome = place_words(mine, seats), mine.outcome
    else:
        other = others[0] if len(others) == 1 else None
        result = result_words(mine.outcome, mine.score, other.score if other else None,
                              resigned=mine.resigned,
                              other_resigned=bool(other and other.resigned),
                              termination=game.termination)
        outcome = mine.outcome
    return {"game": game, "side": kind.seat_key(mine.index), "side_label":
            kind.seat_label(mine.index), "opponents": opponents, "result": result,
            "outcome": outcome, "size": kind.describe_options(game.options)
            or (f"{kind.name} · {len(seats)} players" if len(kind.seat_counts) > 1
                else kind.name),
            "mode": f"vs {kind.bots_name}" if game.mode == Game.Mode.BOT else
            "rated" if game.rated else "casual"}
