"""The Cargo Connect kind formats a position once per ply: what it gives the row's cache and
the state is always the position as it is now."""

import random

from engine.notation import format_position
from games.kinds import get_kind


def test_the_position_follows_every_turn_and_a_resign():
    kind = get_kind("cargo-connect")
    rng = random.Random(7)
    for size in (5, 8):
        lg = kind.replay(kind.new({"size": size}, 2, kind.rules_version), [], [])
        while not lg.over:
            now = format_position(lg.game.position)
            assert lg.position() == now and lg.view(None)["position"] == now
            if lg.ply == 6:
                lg.resign(lg.acting()[0])  # the position stays as it was
                assert lg.over and lg.position() == now == lg.view(None)["position"]
                break
            seat = lg.acting()[0]
            lg.apply(seat, rng.choice(lg.view(seat)["legal"]))
        resumed = kind.resume(lg.position(), list(lg.tokens), lg.resigned)
        assert resumed.position() == lg.position() == format_position(resumed.game.position)
