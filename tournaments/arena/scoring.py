"""An arena's scores: each player's sheet (points per game, fire, berserk), the standings and
the podium, as pure functions of the stored games (issue #46; docs/tournaments-arena.md).

A player's sheet reads their finished games in the order they were played (a player is in
one game of a tournament at a time, so that is also the order they ended). Points follow
lichess's arena: a win 2, a draw 1, a loss 0; after two wins in a row the player is *on
fire* and a win scores 4, a draw 2, until a result that is not a win ends the fire (the draw
that ends it still scores 2). A berserk win (half the clock, :mod:`.berserk`) earns one
point more. Two guards against arranged games, both lichess's, counted in plies (turns of
either seat, as the engine counts them):

- a draw in fewer than ``quick_draw_plies`` (20) plies scores 0 and is no draw for the
  streak either (it ends a fire);
- a berserk bonus needs at least ``berserk_min_plies`` (14) plies: a berserker whose
  opponent resigns at once gets the win's points but not the extra one.

Which games count is the caller's: a game still running when the arena ends counts once it
ends, so the caller passes every finished game of the tournament, whenever it finished.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

WIN_POINTS = 2
DRAW_POINTS = 1
BERSERK_BONUS = 1
FIRE_AFTER = 2  # wins in a row that set a player on fire
PERFORMANCE_MIN_GAMES = 3  # fewer games: the rating stands for the performance (lichess)
PERFORMANCE_STEP = 500  # a win counts the opponent's rating + 500, a loss - 500 (lichess)
PODIUM_PLACES = 3


class Result(StrEnum):
    """One player's result in one game."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class Berserk(StrEnum):
    """Whether the player berserked, and whether the bonus could count (lichess's three)."""

    NO = "no"
    VALID = "valid"
    TOO_SHORT = "too_short"  # berserked, but the game ended before berserk_min_plies


@dataclass(frozen=True)
class ArenaRules:
    """The scoring options of one arena. ``streaks`` off: no fire (lichess's "no streak")."""

    streaks: bool = True
    quick_draw_plies: int = 20
    berserk_min_plies: int = 14


DEFAULT_RULES = ArenaRules()


# --- the stored data -------------------------------------------------------------------------


@dataclass(frozen=True)
class ArenaGame:
    """A finished game of the arena as stored: the players, the winner (None: a draw), the
    plies played, who berserked. Blue moved first."""

    blue: int
    orange: int
    winner: int | None
    plies: int
    blue_berserk: bool = False
    orange_berserk: bool = False

    def __post_init__(self) -> None:
        if self.blue == self.orange:
            raise ValueError(f"a player cannot meet themself: {self!r}")
        if self.winner is not None and self.winner not in (self.blue, self.orange):
            raise ValueError(f"the winner must be one of the players: {self!r}")
        if self.plies < 0:
            raise ValueError(f"plies cannot be negative: {self!r}")

    def has(self, player: int) -> bool:
        return player in (self.blue, self.orange)

    def outcome_for(self, player: int) -> Outcome:
        """The game as ``player`` saw it."""
        if not self.has(player):
            raise ValueError(f"player {player} did not play {self!r}")
        blue = player == self.blue
        if self.winner is None:
            result = Result.DRAW
        else:
            result = Result.WIN if self.winner == player else Result.LOSS
        return Outcome(
            result=result,
            plies=self.plies,
            berserk=self.blue_berserk if blue else self.orange_berserk,
            opponent=self.orange if blue else self.blue,
        )


@dataclass(frozen=True)
class Outcome:
    """One finished game from one player's side."""

    result: Result
    plies: int
    berserk: bool = False
    opponent: int | None = None


# --- a player's sheet ------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """One game on a sheet: the points it earned and why."""

    result: Result
    points: int
    fire: bool  # played on fire: the points of a win or a draw were doubled
    berserk: Berserk
    quick_draw: bool = False  # a draw too short to score


@dataclass(frozen=True)
class Sheet:
    """A player's games in order, their total and the streak they are on now.

    ``streak`` counts the wins in a row at the end of the sheet (0 after a non-win);
    ``on_fire`` says the next win (or draw) is doubled.
    """

    scores: tuple[Score, ...] = ()
    total: int = 0
    streak: int = 0
    rules: ArenaRules = field(default=DEFAULT_RULES, compare=False)

    @property
    def on_fire(self) -> bool:
        return self.rules.streaks and self.streak >= FIRE_AFTER

    def add(self, outcome: Outcome) -> Sheet:
        """The sheet after one more game: what the site stores as each game ends."""
        score = score_game(outcome, on_fire=self.on_fire, rules=self.rules)
        streak = self.streak + 1 if score.result is Result.WIN else 0
        return Sheet(self.scores + (score,), self.total + score.points, streak, self.rules)

    def summary(self) -> str:
        """The points of each game in a row, as lichess shows them: ``"2244012"``."""
        return "".join(str(score.points) for score in self.scores)


def score_game(outcome: Outcome, *, on_fire: bool, rules: ArenaRules = DEFAULT_RULES) -> Score:
    """The points of one game, given whether the player came to it on fire."""
    berserk = _berserk(outcome, rules)
    if outcome.result is Result.DRAW and outcome.plies < rules.quick_draw_plies:
        return Score(Result.DRAW, 0, fire=False, berserk=berserk, quick_draw=True)
    base = {Result.WIN: WIN_POINTS, Result.DRAW: DRAW_POINTS, Result.LOSS: 0}[outcome.result]
    points = base * 2 if on_fire else base
    if outcome.result is Result.WIN and berserk is Berserk.VALID:
        points += BERSERK_BONUS
    return Score(outcome.result, points, fire=on_fire, berserk=berserk)


def _berserk(outcome: Outcome, rules: ArenaRules) -> Berserk:
    if not outcome.berserk:
        return Berserk.NO
    return Berserk.VALID if outcome.plies >= rules.berserk_min_plies else Berserk.TOO_SHORT


def build_sheet(outcomes: Iterable[Outcome], rules: ArenaRules = DEFAULT_RULES) -> Sheet:
    """A sheet from scratch, from the player's finished games in the order played."""
    sheet = Sheet(rules=rules)
    for outcome in outcomes:
        sheet = sheet.add(outcome)
    return sheet


def sheet_of(player: int, games: Iterable[ArenaGame], rules: ArenaRules = DEFAULT_RULES) -> Sheet:
    """``player``'s sheet from the tournament's finished games, in the order played."""
    return build_sheet((g.outcome_for(player) for g in games if g.has(player)), rules)


# --- standings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """A player of the arena: the id and the rating at entry (kept fixed, so the standings
    stay a function of the stored data). A withdrawn player keeps their place and points."""

    id: int
    rating: int


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``performance`` breaks ties of ``total``."""

    rank: int
    id: int
    total: int
    performance: Fraction
    games: int
    sheet: Sheet


def performance_step(outcome: Outcome, ratings: Mapping[int, int]) -> int:
    """One game's share of lichess's performance: the opponent's rating plus 500 for a
    win, minus 500 for a loss (what the site keeps summed on the entry as games end)."""
    if outcome.opponent is None or outcome.opponent not in ratings:
        raise ValueError(f"an opponent who is not an entrant: {outcome!r}")
    step = {Result.WIN: PERFORMANCE_STEP, Result.DRAW: 0, Result.LOSS: -PERFORMANCE_STEP}
    return ratings[outcome.opponent] + step[outcome.result]


def mean_performance(steps: int, games: int, rating: int) -> Fraction:
    """The performance from the sum of its `games` steps: their mean, or the player's own
    rating until they have played three games. Exact (a Fraction), so recomputing it
    gives the same order."""
    return Fraction(rating) if games < PERFORMANCE_MIN_GAMES else Fraction(steps, games)


def performance(
    outcomes: Sequence[Outcome], rating: int, ratings: Mapping[int, int]
) -> Fraction:
    """lichess's tournament performance: the mean, over the games, of the opponent's rating
    plus 500 for a win, minus 500 for a loss; the player's own rating until they have played
    three games."""
    steps = sum(performance_step(outcome, ratings) for outcome in outcomes)
    return mean_performance(steps, len(outcomes), rating)


@dataclass(frozen=True)
class Kept:
    """A player's figures as the site keeps them on the entry as games end: the total, the
    games counted and the sum of their performance steps (`performance_step`)."""

    id: int
    rating: int
    total: int
    games: int
    steps: int

    @property
    def performance(self) -> Fraction:
        return mean_performance(self.steps, self.games, self.rating)


@dataclass(frozen=True)
class Place:
    """A line of the standings without its sheet: the rank, the total, the performance and
    the games counted (`ranked`, from the kept figures)."""

    rank: int
    id: int
    total: int
    performance: Fraction
    games: int


def order_key(id_: int, total: int, perf: Fraction) -> tuple[int, Fraction, int]:
    """The standings' order: the total first, then the performance, then the lower id."""
    return (-total, -perf, id_)


def ranked(kept: Iterable[Kept]) -> tuple[Place, ...]:
    """Every player ranked from their kept figures: the same order as `standings` from
    the games, without reading a game."""
    lines = sorted(kept, key=lambda k: order_key(k.id, k.total, k.performance))
    return tuple(Place(rank, k.id, k.total, k.performance, k.games)
                 for rank, k in enumerate(lines, start=1))


def standings(
    entrants: Sequence[Entrant], games: Sequence[ArenaGame], rules: ArenaRules = DEFAULT_RULES
) -> tuple[Standing, ...]:
    """Every entrant ranked: the total first, then the performance, then the lower id.

    ``games`` are the tournament's finished games in the order they were played (their
    start order); a game of someone who is not an entrant raises ``ValueError``.
    """
    ratings = {e.id: e.rating for e in entrants}
    if len(ratings) != len(entrants):
        raise ValueError("two entrants share an id")
    played: dict[int, list[Outcome]] = {e.id: [] for e in entrants}
    for game in games:
        for player in (game.blue, game.orange):
            if player not in played:
                raise ValueError(f"player {player} of {game!r} is not an entrant")
            played[player].append(game.outcome_for(player))
    rows = []
    for entrant in entrants:
        outcomes = played[entrant.id]
        sheet = build_sheet(outcomes, rules)
        perf = performance(outcomes, entrant.rating, ratings)
        rows.append((entrant.id, sheet, perf, len(outcomes)))
    rows.sort(key=lambda row: order_key(row[0], row[1].total, row[2]))
    return tuple(
        Standing(rank, id_, sheet.total, perf, count, sheet)
        for rank, (id_, sheet, perf, count) in enumerate(rows, start=1)
    )


def podium(table: Sequence[Standing]) -> tuple[Standing, ...]:
    """The first three of the final standings who played at least one game."""
    return tuple(line for line in table if line.games > 0)[:PODIUM_PLACES]
