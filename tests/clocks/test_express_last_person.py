"""Cargo Express when people leave (issue #42, points 8 and 9), time frozen, bots in-process.

A seat whose holder leaves a game of three is played on by ExpressBot Medium: the seat's
state names the bot, when (the round) and why (timed out twice in a row), and so do the
round's log, the replay and the record. When the last person leaves a rated game every
seat has moved in, the game ends at once on the standings, through the finish seam, with a
result for the people who played it (the later one left, the better the place: rule 71);
a casual game every person has left is aborted (web.md 4). Either is worded as what
happened ("timed out twice in a row", never "left the game")."""

import pytest
from django.test import Client

from express import Game as EngineGame
from games import services, tasks
from games.actors import Actor
from games.models import Game, Seat
from games.turns.store import live
from rankings.models import RatingChange
from tests.clocks.test_express_clocks import NAMES, decide, express_game, picks
from tests.games.bot_support import eager  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def play_to_round(game_id, users, round_):
    """Every seat decides (the Easy bot's decision from its own view) until `round_`."""
    for _ in range(2000):
        if live(services.get_game(game_id)).p.round >= round_:
            return
        decide(game_id, users)
    raise AssertionError("the round never came")


def until_only(game_id, users, seat):
    """The others decide until `seat` is the one person the game waits for."""
    for _ in range(500):
        row = services.get_game(game_id)
        waiting = [s for s in live(row).acting() if s not in row.bot_seats]
        if waiting == [seat]:
            return
        decide(game_id, users, seat=next(s for s in waiting if s != seat))
    raise AssertionError("the seat was never the only one awaited")


def time_out(game_id, frozen, seat):
    """Let `seat`'s clock fall at its next decision (the bots play on meanwhile)."""
    row = services.get_game(game_id)
    assert seat in live(row).acting(), "the seat is not awaited"
    frozen.advance(row.clock["left"][seat] / 1000 + 2)
    assert tasks.flag_clocks() == [game_id]


def test_the_last_person_timing_out_after_rounds_ends_the_game_with_a_result(
        users, frozen, eager):  # noqa: F811
    game = picks(express_game(users, rated=True), users)
    play_to_round(game.id, users, 3)
    services.resign(game.id, actor=Actor.member(users["alice"]))  # round 3: a bot plays on
    play_to_round(game.id, users, 4)  # bob and carol decide; alice's bot by itself
    assert services.get_game(game.id).seat_list[0].stand_in == "medium"
    bob = 1
    until_only(game.id, users, bob)
    time_out(game.id, frozen, bob)  # one timeout: the Easy bot decided for him
    until_only(game.id, users, bob)
    time_out(game.id, frozen, bob)  # twice in a row: Medium plays his seat on
    row = services.get_game(game.id)
    assert row.status == Game.Status.ACTIVE and row.seat_list[bob].stand_in == "medium"
    handed_at = row.seat_list[bob].left
    assert handed_at["reason"] == "timed_out" and handed_at["round"] >= 4
    # Carol, the last person, times out twice: the game ends on the standings at once.
    for _ in range(2):
        until_only(game.id, users, 2)
        time_out(game.id, frozen, 2)
    row = services.get_game(game.id)
    assert (row.status, row.termination) == (Game.Status.FINISHED, "timed_out")
    assert not live(row).over  # it did not wait for bots to play it out
    assert [s.place for s in row.seat_list] == [3, 2, 1]  # the later one left, the better
    assert row.seat_list[2].stand_in is None and row.seat_list[2].left["reason"] == "timed_out"
    state = services.state_of(row)
    ending = state["ending"]
    assert ending["text"] == (
        "Seat 3 (carol) timed out twice in a row, the last person at the table: the game "
        "ends on the standings, Seat 3 (carol) wins")
    assert ending["reason"] == "Seat 3 timed out twice in a row" and ending["out"] == ["seat3"]
    assert "left the game" not in ending["text"] and "aborted" not in ending["text"]
    # Rated among the people who played it: every member's rating moved by those places.
    changes = {c.user.username: c.after - c.before for c in RatingChange.objects.filter(game=row)}
    assert set(changes) == set(NAMES) and changes["carol"] > 0 > changes["alice"]
    seats = state["seats"]
    assert [s["rating_change"] for s in seats] == [changes[n] for n in NAMES]
    assert all(s["rating"] == 1200 and s["rating_provisional"] for s in seats)
    # Who played bob's seat, everywhere: the state, the record, the replay.
    assert seats[bob]["bot"] == "medium"
    assert seats[bob]["left"] == {
        "ply": handed_at["ply"], "round": handed_at["round"], "reason": "timed_out",
        "why": "timed out twice in a row", "bot": "medium", "name": "ExpressBot Medium"}
    record = Client().get(f"/g/{row.id}.ccn").content.decode()
    assert (f'[Seat2 "bob"] # bob timed out twice in a row in round {handed_at["round"]}; '
            "ExpressBot Medium played the seat from then") in record
    assert '[Seat3 "carol"] # carol timed out twice in a row in round ' in record
    # Still a record the engine reads: carol's leaving is its `resign3`, the last token.
    assert record.rstrip().endswith(" resign3")
    ended = live(row)
    ended.resign(2)
    assert EngineGame.from_record(record).position == ended.p
    replay = Client().get(f"/g/{row.id}/replay.json").json()
    before, after = replay["states"][handed_at["ply"] - 1], replay["states"][handed_at["ply"]]
    assert before["seats"][bob]["left"] is None and before["seats"][bob]["bot"] is None
    assert after["seats"][bob]["left"]["name"] == "ExpressBot Medium"
    assert replay["states"][-1]["ending"]["text"] == ending["text"]


def test_the_last_person_resigning_before_every_seat_moved_aborts_in_words(users, eager):  # noqa: F811
    """Before every seat has moved the game may still be aborted, so the last person
    leaving then aborts it (no result), and the words say how each one left."""
    game = express_game(users)
    for name in NAMES:
        services.resign(game.id, actor=Actor.member(users[name]))
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("aborted", "aborted")
    text = services.state_of(row)["ending"]["text"]
    assert text == ("Seat 1 (alice) resigned and Seat 2 (bob) resigned and Seat 3 (carol) "
                    "resigned: every person at the table left this casual game, so it is "
                    "aborted: no result, no rating change")
    assert [s.left["reason"] for s in Seat.objects.filter(game=row).order_by("index")] == \
        ["resigned"] * 3


def test_the_last_person_timing_out_of_a_casual_game_after_rounds_aborts_it_in_words(
        users, frozen, eager):  # noqa: F811
    """web.md 4: "If every human has left, the game is aborted (casual)", however many
    rounds were played; the words say each one left as they did, the last by timing out."""
    game = picks(express_game(users), users)
    play_to_round(game.id, users, 2)
    for name in ("alice", "bob"):
        services.resign(game.id, actor=Actor.member(users[name]))
    for _ in range(2):
        until_only(game.id, users, 2)
        time_out(game.id, frozen, 2)
    row = services.get_game(game.id)
    assert (row.status, row.termination) == (Game.Status.ABORTED, "aborted")
    assert all(s.place is None and s.outcome == "" for s in row.seat_list)
    assert row.seat_list[2].left["reason"] == "timed_out"
    text = services.state_of(row)["ending"]["text"]
    assert text == ("Seat 1 (alice) resigned and Seat 2 (bob) resigned and Seat 3 (carol) "
                    "timed out twice in a row: every person at the table left this casual "
                    "game, so it is aborted: no result, no rating change")
    assert not RatingChange.objects.filter(game=row).exists()
