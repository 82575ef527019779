"""A tournament table's game of Cargo Express starts with its seat 1 as the stationmaster
(docs/tournaments-express-swiss.md, "Seats"): the kind's `first_seat_options` ask the
engine's setup for it (`start_position(first=)`), the game is stored with its start and
replays to the same game; Cargo Connect needs nothing (Blue, seat 1, always starts)."""

from __future__ import annotations

import pytest

from games import services as games
from games.actors import Actor
from games.kinds import KindError, get_kind
from games.turns.store import live, replayed
from tests.tournaments.test_swiss_services import current, members, round_games, swiss
from tournaments import rounds, services

pytestmark = pytest.mark.django_db
EXPRESS = get_kind("cargo-express")


def test_the_kinds_say_how_their_first_seat_starts():
    assert EXPRESS.first_seat_options() == {"first": 1}
    assert get_kind("cargo-connect").first_seat_options() == {}
    assert EXPRESS.check_options({"first": 1}) == {"first": 1}
    assert EXPRESS.check_options({}) == {}
    for bad in ({"first": 0}, {"first": 5}, {"first": "1"}, {"first": True}, {"seat": 1}):
        with pytest.raises(KindError):
            EXPRESS.check_options(bad)
    with pytest.raises(KindError):
        EXPRESS.new({"first": 4}, 3, EXPRESS.rules_version)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_game_made_with_first_starts_with_seat_1_and_replays(seats):
    people = members(seats)
    for _ in range(3):  # the seed's own draw would give seat 1 a third of the time or less
        game = games.create_game(game_type="cargo-express", options={"first": 1},
                                 seats=[Actor.member(u) for u in people])
        lg = live(game)
        assert lg.p.sm == 1 and lg.acting() == [0]
        assert replayed(games.get_game(game.id)).p.sm == 1


def test_every_table_of_an_express_swiss_starts_with_its_seat_1():
    t = swiss("cargo-express", rounds_=2, table_size=3)
    for member in members(6):
        services.join(t, member)
    rounds.advance(t.id)
    played = round_games(current(t))
    assert len(played) == 2
    for game in played:
        assert game.options == {"first": 1}
        lg = live(game)
        assert lg.p.sm == 1 and lg.acting() == [0]  # seat 1 picks first (rule 18)
