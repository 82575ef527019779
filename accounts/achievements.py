"""Achievements: the list (`ACHIEVEMENTS`, data: a key, a name, a one-line description, an
icon and a test over `Facts`), and awarding them after a game's result has committed.

Awarding runs on the finish seam after commit (`accounts.achievements`, after
`accounts.stats` has written the game's rows). Each achievement is earned at most once per
member: `EarnedAchievement`'s unique constraint (and `bulk_create(ignore_conflicts=True)`)
holds even when two of a member's games finish at the same moment. A test either looks at
this game (`facts.row`) or at the member's record so far (`facts.totals`, `facts.win_run`,
`facts.day_run`), so whichever of two racing games is evaluated last sees both.

Adding one: a line in `ACHIEVEMENTS` (its key never changes once used) and a test in
tests/profile/test_achievements.py. Icons name a symbol in templates/accounts/_icons.html.

A voided game takes back what it earned; what the member's record still earns is earned
again, by their latest counting game.

Tournament achievements (`Achievement.tournament`: first tournament, podium, win) are
earned by a tournament's end, its own event: `tournaments.signals.tournament_finished`
(after commit, every game of it ended) with each member's final place; their test reads
`TournamentFacts` (the place), and the row has no game. Any game's tournament counts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from games.models import Game, Seat
from games.results import Ending, Stage, on_game_end

from .models import EarnedAchievement, GameStats
from .stats import SHAPE_FIELDS, counts
from .streaks import recent_days, recent_wins

WIN = Seat.Outcome.WIN
ONLINE, BOT = Game.Mode.ONLINE, Game.Mode.BOT
SIZES = (5, 6, 7, 8)


class Facts:
    """What a test may look at: this game's row, and (computed on first use) the member's
    totals and current runs."""

    def __init__(self, row: GameStats) -> None:
        self.row = row

    @property
    def won(self) -> bool:
        return self.row.outcome == WIN

    @property
    def shapes(self) -> int:
        """Distinct shapes this member unloaded in this game."""
        return sum(1 for f in SHAPE_FIELDS if getattr(self.row, f))

    @functools.cached_property
    def totals(self) -> dict[str, Any]:
        mine = GameStats.objects.filter(user_id=self.row.user_id)
        totals = mine.aggregate(
            games=Count("id"),
            online_wins=Count("id", filter=Q(mode=ONLINE, outcome=WIN)),
            **{f"won_{size}": Count("id", filter=Q(outcome=WIN, size=size)) for size in SIZES},
        )
        totals["beaten"] = set(mine.filter(mode=BOT, outcome=WIN)
                               .values_list("opponent_bot", flat=True).distinct())
        return totals

    @functools.cached_property
    def win_run(self) -> int:
        return recent_wins(self.row.user_id, 5)

    @functools.cached_property
    def day_run(self) -> int:
        return recent_days(self.row.user_id, 7, self.row.day)


@dataclass(frozen=True)
class Achievement:
    key: str
    name: str
    description: str
    icon: str
    test: Callable[[Any], bool]  # over `Facts`, or `TournamentFacts` for a tournament's
    record: bool = False  # earned by the member's record, not by one game alone
    tournament: bool = False  # earned by a tournament's end, not by a game


@dataclass(frozen=True)
class TournamentFacts:
    """What a tournament achievement's test may look at: the member's final place among
    those who played (1 = first; level entrants of a Swiss share it)."""

    place: int


def _beat(level: str) -> Callable[[Facts], bool]:
    return lambda f: f.won and f.row.mode == BOT and f.row.opponent_bot == level


ACHIEVEMENTS: list[Achievement] = [
    Achievement("first_shift", "Clocked in", "Finish your first shift.", "clock",
                lambda f: True),
    Achievement("first_win", "First win", "Win a shift.", "trophy", lambda f: f.won),
    Achievement("first_online_win", "Head to head", "Win a shift against a person.",
                "people", lambda f: f.won and f.row.mode == ONLINE),
    Achievement("first_gold", "Gold standard", "Take a Gold chit.", "chit",
                lambda f: f.row.gold_chits > 0),
    Achievement("gold_rush", "Gold rush", "Take four Gold chits in one shift.", "chit",
                lambda f: f.row.gold_chits >= 4),
    Achievement("all_seven", "Full catalogue", "Unload all seven shapes in one shift.",
                "shapes", lambda f: f.shapes == 7),
    Achievement("perfect_manifest", "Perfect manifest",
                "End a shift with no Rust penalty at the Final Audit.", "manifest",
                lambda f: f.row.perfect),
    Achievement("i_and_s", "Straight and crooked", "Unload an I and an S in the same shift.",
                "shapes", lambda f: f.row.shape_i > 0 and f.row.shape_s > 0),
    Achievement("five_unloads", "Busy dock", "Unload five AppCons in one shift.", "crate",
                lambda f: f.row.unloads >= 5),
    Achievement("score_30", "Big haul", "Finish a shift with a final score of 30 or more.",
                "crate", lambda f: f.row.score >= 30),
    Achievement("beat_easy", "Easy does it", "Beat CargoBot Easy.", "bot", _beat("easy")),
    Achievement("beat_medium", "Middle management", "Beat CargoBot Medium.", "bot",
                _beat("medium")),
    Achievement("beat_hard", "Hard worker", "Beat CargoBot Hard.", "bot", _beat("hard")),
    Achievement("reroute_finish", "Paperwork error",
                "Win by re-routing the core that completes your last AppCon.", "reroute",
                lambda f: f.won and f.row.reroute_finish),
    Achievement("all_cards", "Full protocol", "Play all five Shipping Protocols in one shift.",
                "card", lambda f: all(f.row.card_count(c) for c in "SLPDR")),
    Achievement("no_cards_win", "By the book",
                "Win a shift played to the Final Audit without playing a card.", "card",
                lambda f: f.won and f.row.termination == Game.Termination.PLAYED_OUT
                and not any(f.row.card_count(c) for c in "SLPDR")),
    Achievement("standard_shift", "Standard shift", "Win a shift on the 8×8 bay.", "bay",
                lambda f: f.won and f.row.size == 8),
    Achievement("every_size", "Every bay", "Win a shift on every bay size, 5×5 to 8×8.", "bay",
                lambda f: all(f.totals[f"won_{size}"] for size in SIZES), record=True),
    Achievement("beat_every_level", "Bot whisperer", "Beat CargoBot at every level.", "bot",
                lambda f: {"easy", "medium", "hard"} <= f.totals["beaten"], record=True),
    Achievement("ten_online_wins", "Dock regular", "Win ten shifts against people.", "people",
                lambda f: f.totals["online_wins"] >= 10, record=True),
    Achievement("fifty_shifts", "Veteran", "Finish fifty shifts.", "clock",
                lambda f: f.totals["games"] >= 50, record=True),
    Achievement("win_streak_5", "On a roll", "Win five shifts in a row.", "flame",
                lambda f: f.win_run >= 5, record=True),
    Achievement("days_7", "Week on the dock", "Play on seven Pacific days in a row.",
                "calendar", lambda f: f.day_run >= 7, record=True),
    Achievement("first_tournament", "On the circuit", "Play a tournament to its end.",
                "bracket", lambda f: True, tournament=True),
    Achievement("tournament_podium", "Podium finish", "Finish a tournament in the top three.",
                "podium", lambda f: f.place <= 3, tournament=True),
    Achievement("tournament_win", "Champion", "Win a tournament (first place, shared or not).",
                "trophy", lambda f: f.place == 1, tournament=True),
]
GAME_ACHIEVEMENTS = [a for a in ACHIEVEMENTS if not a.tournament]
BY_KEY = {a.key: a for a in ACHIEVEMENTS}
assert len(BY_KEY) == len(ACHIEVEMENTS), "achievement keys must be unique"


def award(row: GameStats, candidates: list[Achievement] | None = None) -> list[str]:
    """Award the achievements this game's row earns that its member does not hold yet;
    the keys newly stored by this call."""
    held = set(EarnedAchievement.objects.filter(user_id=row.user_id)
               .values_list("key", flat=True))
    facts = Facts(row)
    earned = [a.key for a in (candidates or GAME_ACHIEVEMENTS)
              if a.key not in held and a.test(facts)]
    if not earned:
        return []
    EarnedAchievement.objects.bulk_create(
        [EarnedAchievement(user_id=row.user_id, key=key, game_id=row.game_id,
                           earned_at=row.finished_at) for key in earned],
        ignore_conflicts=True)
    return earned


def take_back(game: Game) -> None:
    """A voided game: delete what it earned, then let each member's latest counting game
    award what their record still earns."""
    users = set(EarnedAchievement.objects.filter(game=game).values_list("user_id", flat=True))
    EarnedAchievement.objects.filter(game=game).delete()
    for user_id in users:
        latest = (GameStats.objects.filter(user_id=user_id).exclude(game=game)
                  .order_by("-finished_at", "-id").first())
        if latest is not None:
            award(latest, [a for a in ACHIEVEMENTS if a.record])


def award_tournament(user_id: int, place: int, finished_at: Any) -> list[str]:
    """Award the tournament achievements a final `place` earns that the member does not
    hold yet (no game: the tournament's end earned them); the keys newly stored."""
    held = set(EarnedAchievement.objects.filter(user_id=user_id)
               .values_list("key", flat=True))
    facts = TournamentFacts(place)
    earned = [a.key for a in ACHIEVEMENTS
              if a.tournament and a.key not in held and a.test(facts)]
    EarnedAchievement.objects.bulk_create(
        [EarnedAchievement(user_id=user_id, key=key, earned_at=finished_at) for key in earned],
        ignore_conflicts=True)
    return earned


def tournament_finished(sender: Any, *, tournament: Any, places: dict[int, int],
                        **kwargs: Any) -> None:
    """`tournaments.signals.tournament_finished` (after commit): each placed member's
    tournament achievements."""
    for user_id, place in places.items():
        award_tournament(user_id, place, tournament.finished_at)


@on_game_end("accounts.achievements", Stage.AFTER_FRAMES, order=20)
def award_achievements(ending: Ending) -> None:
    if ending.voided:
        take_back(ending.game)
        return
    if not counts(ending.game):
        return
    for row in GameStats.objects.filter(game=ending.game):
        award(row)
