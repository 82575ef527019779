"""What the review pages share (docs/review.md): a marked turn as the page lists it, with
its three boards (the position before the turn, after the turn played, after the suggested
turn) and the cells its reason names ringed. Used by a game's review (`games.records.review`) and a
Weekly Puzzle attempt's review (`puzzles.reviews`); both pages render these entries with
`templates/games/_marked_turns.html`.

An entry is built from a reviewed turn as the engine writes it (`engine.review.TurnReview`
or `engine.puzzle_review.PuzzleTurn`, as a dict): `ply`, `side`, `token`, `best`, `grade`,
`reason`, `cells`, `before` / `after_played` / `after_best` and their locks. `headline` is
what follows the grade in the entry's title (a game's "7.2 points", a puzzle's "the goal
went out of reach"); `suggested` names the turn `best` as a sentence goes on ("CargoBot's
suggestion", "the solver's turn").
"""

from __future__ import annotations

from typing import Any

from games.kinds.cargo_connect.bays import board


def marked_entry(turn: dict[str, Any], *, headline: str, suggested: str) -> dict[str, Any]:
    number = turn["ply"] + 1
    side = turn["side"].title()
    cells = set(turn["cells"])
    return {
        **turn,
        "number": number,
        "side_label": side,
        "headline": headline,
        "suggested": suggested,
        "before_bay": board(turn["before"], cells, turn["before_lock"],
                            f"Before turn {number}, {side} to move"),
        "played_bay": board(turn["after_played"], cells, turn["played_lock"],
                            f"After the turn played, {turn['token']}"),
        "best_bay": board(turn["after_best"], cells, turn["best_lock"],
                          f"After {suggested}, {turn['best']}"),
    }
