"""Games for the browser tests of the game pages: one in progress with Blue (alice) to move
and every kind of mark on the bay (cores of both sides, Empty Cans, the MagLock, a spent
card, a Gold chit), and one played to its Final Audit and reviewed by CargoBot (for the
finished game page, the replay and the review)."""

from __future__ import annotations

import functools
from typing import Any

from engine import review as engine_review
from games.kinds import cargo_connect
from games.records import review
from tests.games.support import new_game, scripted_tokens
from tests.review.support import play_out

PASSWORD = "a-long-cargo-pass"
# Blue drops a1..a3, Orange b1..b2 and MagLocks column c, Blue unloads an I, Orange drops b3.
IN_PROGRESS = ["a", "b", "a", "b", "a", "Lc", "a+a1a2a3a4", "b"]


def make_players(user_model: Any) -> tuple[Any, Any]:
    alice, bob = (user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
                  for name in ("alice", "bob"))
    return alice, bob


def in_progress(alice: Any, bob: Any) -> Any:
    return play_out(new_game(alice, bob, size=5), IN_PROGRESS, alice, bob)


def reviewed(alice: Any, bob: Any, monkeypatch: Any) -> Any:
    """A finished game with its review done (a shallow search, so it is quick; needs the
    `eager` fixture)."""
    monkeypatch.setattr(cargo_connect, "review_game",
                        functools.partial(engine_review.review_game, depth=3, budget=2000))
    game = play_out(new_game(alice, bob, size=5), scripted_tokens(5), alice, bob)
    review.request_review(game.id)
    review.wait_for_background(game.id)  # the embedded default reviews on a thread
    return game
