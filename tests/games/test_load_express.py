"""The Cargo Express load (scripts/load_live.py --game cargo-express): its setup makes tables
of signed-in members at casual untimed games, and its scripted seat's choices, read from a
seat's own `legal` alone, are decisions the kind accepts, to the end of whole games."""

import io
import json
import random
import sys
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command

from games.kinds.cargo_express import CARGO_EXPRESS as KIND
from games.models import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from express_client import decide  # noqa: E402  (the scripts' folder is not a package)


def setup(**options):
    out = io.StringIO()
    call_command("load_setup", force=True, stdout=out, **options)
    return json.loads(out.getvalue().strip().splitlines()[-1])


@pytest.mark.django_db
def test_it_sets_cargo_express_tables_of_signed_in_members():
    tables = setup(games=2, game="cargo-express", seats=4)
    assert len(tables) == 2
    for i, table in enumerate(tables):
        game = Game.objects.get(id=table["id"])
        assert (game.game_type, game.rated, game.time_control) == ("cargo-express", False, "")
        assert [s.user.username for s in game.seat_list] == [
            f"load-{i}-seat{k}" for k in (1, 2, 3, 4)]
        for seat, key in zip(game.seat_list, table["seats"], strict=True):
            session = Session.objects.get(session_key=key).get_decoded()
            assert session["_auth_user_id"] == str(seat.user.pk)


@pytest.mark.django_db
def test_it_keeps_cargo_connect_pairs_as_they_were():
    (table,) = setup(games=1, size=6)
    game = Game.objects.get(id=table["id"])
    assert game.game_type == "cargo-connect" and game.options == {"size": 6}
    assert table["seats"] == [table["blue"], table["orange"]]


@pytest.mark.parametrize("seats", [2, 4])
def test_a_scripted_seat_decides_only_what_its_legal_allows_to_the_end(seats):
    rng = random.Random(seats)
    lg = KIND.resume(KIND.new({}, seats, KIND.rules_version), [], [])
    kinds = set()
    while not lg.over:
        deciders = [s for s in range(seats) if decide(lg.view(s), rng) is not None]
        assert deciders, "a game that goes on has a seat with a decision"
        seat = rng.choice(deciders)
        kind, token = decide(lg.view(seat), rng)
        lg.apply(seat, token)  # a refusal (KindError) fails the test
        kinds.add(kind)
        assert lg.ply < 5000
    assert kinds >= {"pick", "plan", "step", "swap"}
