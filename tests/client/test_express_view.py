"""ExpressBot's adapter reads a seat's state, never the position: the public view it writes
from the state (`cargo_client.expressbot.view_text`) is, at every decision of whole games
of 2, 3 and 4 seats, exactly the engine's view for that seat (`format_position(p, seat)`,
what the site's own ExpressBots decide from), and the adapter's decision is the engine's
bot's from that view."""

from __future__ import annotations

import pytest
from cargo_client.engines import EngineError, make_engine
from cargo_client.expressbot import ExpressBot, view_text

from express.bot import choose
from express.notation import format_position
from games.kinds import get_kind
from games.kinds.cargo_express.view import ExpressView

KIND = get_kind("cargo-express")


def seat_state(lg, seat: int) -> dict:
    return {**ExpressView(lg, seat).build(), "viewer": seat}


@pytest.mark.parametrize("seats,seed", [(2, 11), (3, 12), (4, 13)])
def test_the_view_written_from_a_seats_state_is_the_engines_view(seats, seed):
    lg = KIND.replay(KIND.start_from_seed(seats, seed, KIND.rules_version), [], [])
    bot = ExpressBot("easy", seed)
    phases = set()
    decisions = 0
    while not lg.over:
        for seat in lg.acting():  # in planning, every seat yet to commit
            assert view_text(seat_state(lg, seat), seat) == format_position(lg.p, seat + 1)
        seat = lg.acting()[0]
        state = seat_state(lg, seat)
        phases.add(state["phase"])
        token = bot.decide(state, seat)
        assert token == choose(format_position(lg.p, seat + 1), "easy", seed, seat + 1)
        lg.apply(seat, token)
        decisions += 1
    assert phases == {"pick", "plan", "turn", "swap"} and decisions > 50


def test_the_adapter_refuses_a_state_that_is_not_its_seats_own():
    lg = KIND.replay(KIND.start_from_seed(3, 5, KIND.rules_version), [], [])
    seat = lg.acting()[0]
    other = (seat + 1) % 3
    with pytest.raises(EngineError, match="not seat"):
        ExpressBot().decide(seat_state(lg, other), seat)  # another seat's state
    with pytest.raises(EngineError, match="not seat"):
        ExpressBot().decide(seat_state(lg, other), other)  # nothing to decide (no legal)


def test_unknown_engines_and_levels_are_named():
    with pytest.raises(EngineError, match="unknown engine 'gnubg'"):
        make_engine("gnubg", "easy")
    with pytest.raises(EngineError, match="ExpressBot level 'expert'"):
        make_engine("expressbot", "expert")
    with pytest.raises(EngineError, match="CargoBot level 'expert'"):
        make_engine("cargobot", "expert")
