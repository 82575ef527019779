"""Hidden information on the API, as on the sockets: a running Cargo Express game's JSON is
built for its asker by the games app's own builder (`state_of` for their seat, or a
spectator's), never a full state filtered afterwards: each seat gets its own view, another
seat and a spectator get theirs, and the record is the public form until the game is over,
when everything is public (rule 76)."""

from __future__ import annotations

import pytest

from games import services
from games.actors import Actor
from games.turns.store import live
from tests.api.support import bearer_client, token_for
from tests.games.express_support import KIND, express_game, play_out

SEATED = ("marta", "kofi", "ines")


@pytest.fixture
def table(people, commit):
    game = express_game([people[n] for n in SEATED])
    actors = [Actor.member(people[n]) for n in SEATED]
    for n in range(6):  # the characters, then the first plans and turns
        row = services.get_game(game.id)
        lg = live(row)
        seat = lg.acting()[0]
        commit(services.apply_turn, game.id, actor=actors[seat], ply=lg.sequence(seat),
               token=KIND.bot_decision(lg.redacted(seat), seat, "easy", 3 + n))
    return services.get_game(game.id), actors


def asked(people, name: str, game_id: str) -> dict:
    answer = bearer_client(token_for(people[name])).get(f"/api/game/{game_id}")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_each_asker_gets_exactly_the_view_built_for_them(people, table):
    game, _ = table
    for name, seat in (("marta", 0), ("kofi", 1), ("ines", 2), ("omar", None)):
        got = asked(people, name, game.id)
        built = services.with_queue(services.state_of(services.get_game(game.id),
                                                      viewer=seat),
                                    services.get_game(game.id), seat)
        assert got["seat"] == seat
        assert got["viewer"] == ("seat" if seat is not None else "spectator")
        got["state"].pop("abandon"), built.pop("abandon")  # says "now"
        assert got["state"] == built


def test_a_seat_sees_its_own_secrets_and_no_one_else_does(people, table):
    game, _ = table
    marta, kofi, spectator = (asked(people, n, game.id)["state"]
                              for n in ("marta", "kofi", "omar"))
    assert marta["you"] == KIND.seat_key(0) and spectator["you"] is None
    assert marta["legal"] and spectator["legal"] == {}
    assert marta["legal"] != kofi["legal"]  # each seat's own hand and choices
    # what the engine hides of marta's seat from others is hidden from kofi and the
    # spectator alike, and shown to marta alone
    mine = {k: v for k, v in marta["areas"][0].items() if v != spectator["areas"][0].get(k)}
    assert mine, "marta's own area shows her something a spectator does not see"
    assert kofi["areas"][0] == spectator["areas"][0]
    assert marta["turns"] != spectator["turns"]  # her own decisions, in full


def test_the_record_is_the_public_form_until_the_end(people, table):
    game, actors = table
    during = asked(people, "marta", game.id)["record"]
    assert "???" in during  # plans and hidden draws are not in the public form
    assert asked(people, "omar", game.id)["record"] == during


def test_a_finished_table_is_whole_for_everyone(people, table, commit):
    game, actors = table
    play_out(game.id, actors, commit)
    spectator = asked(people, "omar", game.id)
    seat = asked(people, "kofi", game.id)
    assert spectator["viewer"] == seat["viewer"] == "everything"
    assert "???" not in spectator["record"]
    for key in ("areas", "turns", "bag", "deck"):
        assert spectator["state"].get(key) == seat["state"].get(key)
