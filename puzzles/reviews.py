"""Reviewing a Weekly Puzzle attempt once it is over (docs/puzzles-site.md, "Reviews").

The review is the solver's (`engine.puzzle_review.review_puzzle`): for each turn, the
fewest turns to the goal before and after it and the solver's best turn, and the turn that
lost the puzzle, marked with its reason and three boards. It is stored once per attempt
(`AttemptReview`) and shared by its key. The page shares its presentation with a game's
review (`games.kinds.cargo_connect.reviews`, `templates/games/_marked_turns.html`, the
replay viewer).

When ("after solving"):
- Only an attempt that is **over** is reviewed: solved, or out of turns (the limit used up,
  or no turn possible). A review during an attempt would give the solution away, so the
  endpoint refuses it (409 `not_over`) and the page offers the Review button only then.
- A review shows a solution: the attempt's own line when it solved the puzzle, the solver's
  line when it failed. So it is shown straight away only to a viewer who has solved the
  puzzle or seen its solution (a member's progress; a browser session that made or opened
  the review). Anyone else, a shared link's reader for instance, first sees what opening it
  means, and opening it counts as showing the solution, exactly as "Show the solution"
  does: a member's later solve is no longer `unaided` (left out of the figures), and the
  page marks a guest's browser storage the same way. Reviewing one's own failed attempt
  counts likewise, and the puzzle page asks first.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from engine import EngineError, parse_record
from engine.puzzle_review import PUZZLE_REVIEW_VERSION, review_puzzle
from games.kinds.cargo_connect.reviews import marked_entry

from . import progress
from .models import AttemptReview, Puzzle
from .play import PlayError, new_game, replay, state

SESSION_KEY = "puzzles.reviews"  # the reviews this browser session made or chose to open
MAX_SESSION_REVIEWS = 200


def _analyse(puzzle: Puzzle, tokens: list[str]) -> dict[str, Any]:
    record = parse_record(puzzle.record)
    assert record.goal is not None and record.limit is not None
    try:
        return review_puzzle(record.start, record.goal, record.limit, tokens).as_dict()
    except EngineError as e:  # replay() checked the turns already
        raise PlayError("bad_request", str(e), at=e.at) from None


def review_attempt(puzzle: Puzzle, tokens: Any) -> AttemptReview:
    """The review of a finished attempt (its turns from the Start), made once."""
    game = replay(puzzle, tokens)
    if not game.over:
        raise PlayError("not_over", "an attempt is reviewed once it is over (solved or out of "
                        "turns), so that the review cannot give the solution away",
                        status=409)
    line = " ".join(game.tokens)
    found = AttemptReview.objects.filter(puzzle=puzzle, line=line).first()
    if found is not None and found.version == PUZZLE_REVIEW_VERSION:
        return found
    data = _analyse(puzzle, list(game.tokens))
    outcome = AttemptReview.Outcome.SOLVED if game.solved else AttemptReview.Outcome.OUT_OF_TURNS
    if found is not None:
        found.data, found.version, found.outcome = data, PUZZLE_REVIEW_VERSION, outcome
        found.save(update_fields=["data", "version", "outcome"])
        return found
    try:
        with transaction.atomic():
            return AttemptReview.objects.create(
                key=secrets.token_urlsafe(9), puzzle=puzzle, line=line, outcome=outcome,
                version=PUZZLE_REVIEW_VERSION, data=data)
    except IntegrityError:  # the same attempt reviewed at the same moment
        return AttemptReview.objects.get(puzzle=puzzle, line=line)


def remember(session: Any, review: AttemptReview) -> None:
    """This browser session made or opened the review: show it without asking again."""
    keys = [k for k in session.get(SESSION_KEY, []) if k != review.key]
    session[SESSION_KEY] = (keys + [review.key])[-MAX_SESSION_REVIEWS:]


def may_see(review: AttemptReview, user: User | None, session: Any) -> bool:
    """Whether the review may be shown without asking: the viewer solved the puzzle or saw
    its solution (a member), or this session made or opened it."""
    if review.key in session.get(SESSION_KEY, []):
        return True
    if user is None:
        return False
    summary = progress.member_summary(progress.progress_of(user, review.puzzle))
    return bool(summary["solved"] or summary["shown"])


def _solved(user: User | None, puzzle: Puzzle) -> bool:
    return user is not None and bool(
        progress.member_summary(progress.progress_of(user, puzzle))["solved"])


def made(review: AttemptReview, user: User | None, session: Any) -> bool:
    """The viewer reviewed their own attempt. A failed attempt's review shows the solver's
    line: unless they solved the puzzle, that is showing the solution (for a member,
    `progress.record_shown`). Returns whether it counted so (the page marks a guest's
    storage)."""
    shows = review.outcome == AttemptReview.Outcome.OUT_OF_TURNS and not _solved(
        user, review.puzzle)
    if shows and user is not None:
        progress.record_shown(user, review.puzzle)
    remember(session, review)
    return shows


def opened(review: AttemptReview, user: User | None, session: Any) -> None:
    """The viewer chose to open a review they were asked about: showing the solution."""
    if not may_see(review, user, session) and user is not None:
        progress.record_shown(user, review.puzzle)
    remember(session, review)


# --- the page ----------------------------------------------------------------------------


def _before_after(t: dict[str, Any]) -> tuple[str, str]:
    """The solver's verdict before and after a turn, in words."""
    left = t["turns_left"]
    before = (f"in {t['fewest_before']} of the {left} turn{'s' if left != 1 else ''} left"
              if t["fewest_before"] is not None else "out of reach")
    if t["fewest_after"] == 0:
        after = "met"
    elif t["fewest_after"] is not None:
        after = f"in {t['fewest_after']} of the {left - 1} left"
    else:
        after = "out of reach"
    return before, after


def replay_data(puzzle: Puzzle, tokens: list[str]) -> dict[str, Any]:
    """The replay viewer's data: the state at every turn of the attempt, and its turns with
    their events (the shape of a game's replay, `games.records.history.replay_data`)."""
    game = new_game(puzzle)
    states = [state(puzzle, game)]
    turns = []
    for ply, token in enumerate(tokens):
        events = [e for e in game.play(token) if e["type"] != "over"]
        states.append(state(puzzle, game))
        turns.append({"ply": ply, "token": token, "side": "blue", "events": events})
    return {"states": states, "turns": turns, "startText": "The puzzle's Start."}


def page_data(review: AttemptReview) -> dict[str, Any]:
    """What the review page renders: the attempt's outcome, each turn's verdict, the marked
    turn with its reason and boards, and the replay viewer's data."""
    data = review.data
    rows = []
    for t in data["turns"]:
        before, after = _before_after(t)
        rows.append({"number": t["ply"] + 1, "ply": t["ply"], "token": t["token"],
                     "best": t["best"], "before": before, "after": after,
                     "grade": t["grade"]})
    marked = [marked_entry(t, headline="the goal went out of reach",
                           suggested="the solver's turn")
              for t in data["turns"] if t["grade"]]
    return {"rows": rows, "marked": marked, "outcome": review.outcome,
            "solved": review.outcome == AttemptReview.Outcome.SOLVED,
            "turns_played": len(data["turns"]), "limit": data["limit"],
            "replay": replay_data(review.puzzle, review.tokens)}
