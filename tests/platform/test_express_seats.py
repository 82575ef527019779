"""Who plays each Cargo Express seat, and the ratings the seats show (issue #42, points 7
and 8), on the wire: the frames each socket reads, the snapshot of a reload, the page of
the player who left, the replay and the record.

- A seat handed to a bot names the bot (`bot`), when and why (`left`) in every viewer's
  state; the round's log tells it (a public `seat-handed` event, in the frame and in a
  reload's log); the player who left sees why they are watching.
- Each seat shows its rating (provisional marked) while the game goes on; an ExpressBot
  shows none (CargoBot's fixed ratings are not its)."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import services
from games.actors import Actor
from games.kinds import get_kind
from games.turns.store import live
from rankings.models import Rating

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ("alice", "bob", "carol")
KIND = get_kind("cargo-express")


def make_game(users, rated=False, bot=None):
    seats = [Actor.member(users[name]) for name in NAMES]
    if bot:
        seats[1] = Actor.bot(bot)
    return services.create_game(game_type="cargo-express", options={}, rated=rated,
                                seats=seats)


def play_to_round(game_id, users, round_):
    """The people decide as their Easy bot would until `round_` begins."""
    for _ in range(2000):
        row = services.get_game(game_id)
        lg = live(row)
        if lg.p.round >= round_:
            return
        seat = next(s for s in lg.acting() if s not in row.bot_seats)
        token = lg.completion(seat) if lg.meta.steps else KIND.bot_decision(
            lg.redacted(seat), seat, "easy", 5)
        services.apply_turn(game_id, actor=Actor.member(users[NAMES[seat]]),
                            ply=lg.sequence(seat), token=token)
    raise AssertionError("the round never came")


async def frame_of_type(comm, kind):
    for _ in range(50):
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


@pytest.mark.asyncio
async def test_a_seat_handed_to_a_bot_is_named_on_every_socket_in_the_log_and_to_its_leaver(
        users, connect):
    game = await database_sync_to_async(make_game)(users)
    await database_sync_to_async(play_to_round)(game.id, users, 2)
    bob = await connect(game.id, "bob")
    watcher = await connect(game.id, None)
    await database_sync_to_async(services.resign)(game.id, actor=Actor.member(users["carol"]))
    want_left = {"round": 2, "reason": "resigned", "why": "resigned", "bot": "medium",
                 "name": "ExpressBot Medium"}
    for comm in (bob, watcher):
        frame = await frame_of_type(comm, "resigned")
        event = frame["events"][0]
        assert {k: event[k] for k in ("kind", "seat", "bot", "name", "reason", "round")} == \
            {"kind": "seat-handed", "seat": 2, "bot": "medium", "name": "ExpressBot Medium",
             "reason": "resigned", "round": 2}
        seat = frame["state"]["seats"][2]
        assert seat["name"] == "carol" and seat["bot"] == "medium"
        assert {k: seat["left"][k] for k in want_left} == want_left
        assert frame["state"]["players"]["seat3"]["left"]["name"] == "ExpressBot Medium"
    for name in ("bob", None):  # a reload: the round's log keeps the hand-over
        again = await connect(game.id, name)
        log = again.first["state"]["log"]
        handed = [e for e in log if e["kind"] == "seat-handed"]
        assert len(handed) == 1 and handed[0]["seat"] == 2 and "only" not in handed[0]
        await again.disconnect()
    # Carol comes back: she watches, and the page says why.
    page = await database_sync_to_async(as_member)(users["carol"], f"/g/{game.id}")
    assert '<span class="watching-label">Watching</span>' in page
    assert ("You resigned in round 2: ExpressBot Medium plays your seat, so you are "
            "watching.") in page
    other = await database_sync_to_async(as_member)(users["bob"], f"/g/{game.id}")
    assert "data-left-note" not in other
    for comm in (bob, watcher):
        await comm.disconnect()


def as_member(user, url):
    client = Client()
    client.force_login(user)
    return client.get(url).content.decode()


def test_each_seat_shows_its_rating_provisional_marked_and_a_bot_none(users):
    Rating.objects.create(user=users["alice"], game_type="cargo-express", system="openskill",
                          value=1530, games=40, mu=26.1, sigma=3.0)
    game = make_game(users, bot="easy")  # a casual table with a bot in seat 2
    state = services.state_of(services.get_game(game.id))
    alice, bot, carol = state["seats"]
    assert (alice["rating"], alice["rating_kind"], alice["rating_provisional"]) == \
        (1530, "openskill", False)
    assert (carol["rating"], carol["rating_provisional"]) == (1200, True)  # no games yet
    assert bot["bot"] == "easy" and bot["rating"] is None and not bot["rating_provisional"]


@pytest.mark.asyncio
async def test_the_last_person_leaving_a_started_game_ends_it_on_the_standings_on_the_wire(
        users, connect):
    """A rated table (web.md 4: scored as it stands, every leaver placed last, rule 71)."""
    game = await database_sync_to_async(make_game)(users, rated=True)
    await database_sync_to_async(play_to_round)(game.id, users, 2)
    for name in ("carol", "bob"):
        await database_sync_to_async(services.resign)(game.id,
                                                      actor=Actor.member(users[name]))
    watcher = await connect(game.id, None)
    await database_sync_to_async(services.resign)(game.id, actor=Actor.member(users["alice"]))
    frame = await frame_of_type(watcher, "resigned")
    state = frame["state"]
    assert (state["status"], state["over"], state["acting"]) == ("finished", True, [])
    assert state["ending"]["termination"] == "resigned"
    assert state["ending"]["text"] == ("Seat 1 (alice) resigned, the last person at the "
                                       "table: the game ends on the standings, Seat 1 "
                                       "(alice) wins")
    assert [s["place"] for s in state["seats"]] == [1, 2, 3]  # the later one left, the better
    assert [s["left"]["name"] for s in state["seats"]] == [None, "ExpressBot Medium",
                                                           "ExpressBot Medium"]
    # Over, so everything is public (rule 76), as in its replay and record: every seat's
    # open contracts and hand, though the rules' game never reached its end.
    assert all(area["open"] is not None and area["hand"] is not None
               for area in state["areas"])
    again = await connect(game.id, None)
    assert not any("?" in token for token in again.first["state"]["turns"])
    await again.disconnect()
    row = await database_sync_to_async(services.get_game)(game.id)
    assert row.bot_waiting_since is None  # no bot is waited on in a game that ended
    await watcher.disconnect()
