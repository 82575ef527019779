"""Cargo Express games played through the services by people, each decision the one an
Easy bot would make from that seat's own view (`kind.bot_decision(lg.redacted(seat), …)`),
sent with the seat's own sequence number through `services.apply_turn`: the path a page's
decision takes. `commit` runs each call's after-commit callbacks as a real commit would
(the stats handler, bots' tasks)."""

from __future__ import annotations

from games import services
from games.actors import Actor
from games.kinds import get_kind
from games.turns.store import live

KIND = get_kind("cargo-express")


def express_game(members, *, rated=True, time_control=""):
    return services.create_game(game_type="cargo-express", options={},
                                seats=[Actor.member(u) for u in members], rated=rated,
                                time_control=time_control)


def play_out(game_id, actors, commit, *, seed=3, limit=2000):
    """Play the game to its end; `actors[seat]` decides for each person's seat (a seat a
    bot plays on after its holder left is played by its task, which `commit` runs). The
    finished row."""
    for n in range(limit):
        row = services.get_game(game_id)
        if row.is_over:
            return row
        lg = live(row)
        people = [s for s in lg.acting() if s not in row.bot_seats]
        if not people:  # a bot's seat (a leaver's stand-in) is to act: its task plays
            raise AssertionError(f"waiting for the bots of seats {lg.acting()}")
        seat = people[0]
        token = KIND.bot_decision(lg.redacted(seat), seat, "easy", seed + n)
        commit(services.apply_turn, game_id, actor=actors[seat], ply=lg.sequence(seat),
               token=token)
    raise AssertionError(f"not over after {limit} decisions")
